//! The one rule pairing the children of a matched directory pair, for both routes of a
//! comparison: the match made ahead ([`super::Matching`]) and the one made as views open
//! directories ([`super::on_demand`]). They differ only in when they pair a directory's
//! children, never in how.

use rustc_hash::FxHashMap;

use super::{live, same_kind};
use crate::tree::TreeView;

/// No counterpart, in [`ChildPairs::old_at`].
const NONE: usize = usize::MAX;

/// The pairing of one directory pair's children, by their positions in the two lists.
/// Position by position while both are live, of one kind and named alike (two scans of one
/// filesystem list a directory in the same order, and an import keeps its export's order),
/// then the rest through a hash of the old names (the first of two equal old names wins).
/// Names are read into buffers, not borrowed, so a tree reading them from a file keeps none;
/// the buffers are kept from one directory to the next.
#[derive(Default)]
pub(super) struct ChildPairs {
    /// For each new child, the position of its old counterpart ([`NONE`]: none).
    old_at: Vec<usize>,
    /// For each old child, whether it was paired.
    taken: Vec<bool>,
    /// The live old names left after the positional run, each at its first position.
    names: FxHashMap<Vec<u8>, usize>,
    new_name: Vec<u8>,
    old_name: Vec<u8>,
}

impl ChildPairs {
    /// Pairs `news` (children of a new directory) with `olds` (its old counterpart's).
    pub(super) fn pair<O: TreeView, N: TreeView>(
        &mut self,
        old: &O,
        new: &N,
        olds: &[O::Id],
        news: &[N::Id],
    ) {
        self.old_at.clear();
        self.old_at.resize(news.len(), NONE);
        self.taken.clear();
        self.taken.resize(olds.len(), false);
        let same = self.by_position(old, new, olds, news);
        if same < news.len() {
            self.by_name(old, new, olds, news, same);
        }
    }

    /// Pairs the leading children alike on both sides; how many.
    fn by_position<O: TreeView, N: TreeView>(
        &mut self,
        old: &O,
        new: &N,
        olds: &[O::Id],
        news: &[N::Id],
    ) -> usize {
        let mut same = 0;
        for (&n, &o) in news.iter().zip(olds) {
            if !live(new, n) || !live(old, o) || !same_kind(new.kind(n), old.kind(o)) {
                break;
            }
            new.entry_name_into(n, &mut self.new_name);
            old.entry_name_into(o, &mut self.old_name);
            if self.new_name != self.old_name {
                break;
            }
            (self.old_at[same], self.taken[same]) = (same, true);
            same += 1;
        }
        same
    }

    /// Pairs the live children from position `same` on by name.
    fn by_name<O: TreeView, N: TreeView>(
        &mut self,
        old: &O,
        new: &N,
        olds: &[O::Id],
        news: &[N::Id],
        same: usize,
    ) {
        self.names.clear();
        for (j, &o) in olds.iter().enumerate().skip(same) {
            if live(old, o) {
                old.entry_name_into(o, &mut self.old_name);
                self.names
                    .entry(std::mem::take(&mut self.old_name))
                    .or_insert(j);
            }
        }
        for (i, &n) in news.iter().enumerate().skip(same) {
            if !live(new, n) {
                continue;
            }
            new.entry_name_into(n, &mut self.new_name);
            match self.names.get(&self.new_name) {
                Some(&j) if same_kind(new.kind(n), old.kind(olds[j])) => {
                    self.names.remove(&self.new_name);
                    (self.old_at[i], self.taken[j]) = (j, true);
                }
                _ => {}
            }
        }
    }

    /// The position of the old counterpart of the new child at position `i`.
    pub(super) fn old_at(&self, i: usize) -> Option<usize> {
        Some(self.old_at[i]).filter(|&j| j != NONE)
    }

    /// The pairs, as (new position, old position), in the order of the new children.
    pub(super) fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.old_at.len()).filter_map(|i| Some((i, self.old_at(i)?)))
    }

    /// The live old children left unpaired: removed.
    pub(super) fn removed<'a, O: TreeView>(
        &'a self,
        old: &'a O,
        olds: &'a [O::Id],
    ) -> impl Iterator<Item = O::Id> + 'a {
        olds.iter()
            .zip(&self.taken)
            .filter(|&(&o, &taken)| !taken && live(old, o))
            .map(|(&o, _)| o)
    }

    /// Whether a live child was left unpaired on either side: something added or removed.
    pub(super) fn unpaired<O: TreeView, N: TreeView>(
        &self,
        old: &O,
        new: &N,
        olds: &[O::Id],
        news: &[N::Id],
    ) -> bool {
        let added = news
            .iter()
            .zip(&self.old_at)
            .any(|(&n, &j)| j == NONE && live(new, n));
        added || self.removed(old, olds).next().is_some()
    }
}
