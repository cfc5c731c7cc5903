//! Which entries of a comparison a view shows, and in what order: the biggest changes first.
//!
//! As for a plain tree, the biggest first ([`best_first`]), ranked by the size of the change.
//! Ties never fall back to node ids (they depend on which walker thread finished first): they
//! are broken by path, so every run prints the same rows.

use std::cmp::Ordering;

use super::{Diff, Entry, EntryOf, Pairs, Status};
use crate::tree::{best_first, Ranking, Row, TreeView};

/// What decides whether an entry of a comparison may be shown.
#[derive(Clone, Debug)]
pub struct DiffSelection {
    /// At most this many rows.
    pub max_rows: usize,
    /// Deepest level shown below the top (0: only the top).
    pub max_depth: Option<usize>,
    /// Hide entries whose size changed by less than this (`-z`), in the mode's unit.
    pub min_change: Option<u64>,
    pub only_dirs: bool,
    /// With -e / -v: entries with nothing in either scan are noise.
    pub hide_empty: bool,
}

/// One line of a comparison view, in layout order (parents before children).
pub type DiffRow<E = Entry> = Row<E>;

impl DiffSelection {
    /// Unchanged entries are never shown (the top always is, by the callers).
    pub fn is_visible<O: TreeView, N: TreeView, M: Pairs<O, N>>(
        &self,
        d: &Diff<'_, O, N, M>,
        e: EntryOf<O, N>,
    ) -> bool {
        if d.status(e) == Status::Same || self.only_dirs && !d.is_dir(e) {
            return false;
        }
        if self.hide_empty && d.old_size(e) == 0 && d.new_size(e) == 0 {
            return false;
        }
        self.min_change
            .is_none_or(|m| d.delta(e).unsigned_abs() >= u128::from(m))
    }

    /// Display order: bigger change first, ties by path.
    pub fn order<O: TreeView, N: TreeView, M: Pairs<O, N>>(
        &self,
        d: &Diff<'_, O, N, M>,
        a: EntryOf<O, N>,
        b: EntryOf<O, N>,
    ) -> Ordering {
        Changes { diff: d, sel: self }.display_order(a, b)
    }
}

/// Siblings by name, then removed before added (a file replaced by a directory has both).
fn sibling_order<O: TreeView, N: TreeView, M: Pairs<O, N>>(
    d: &Diff<'_, O, N, M>,
    a: EntryOf<O, N>,
    b: EntryOf<O, N>,
) -> Ordering {
    d.cmp_names(a, b)
        .then_with(|| (d.status(b) == Status::Removed).cmp(&(d.status(a) == Status::Removed)))
}

/// Depth-first order by name: an ancestor before its descendants, then by the names of the
/// first ancestors that differ. O(depth), and cheap for siblings (the common tie).
pub fn path_order<O: TreeView, N: TreeView, M: Pairs<O, N>>(
    d: &Diff<'_, O, N, M>,
    a: EntryOf<O, N>,
    b: EntryOf<O, N>,
) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let (pa, pb) = (d.parent(a), d.parent(b));
    if pa.is_some() && pa == pb {
        return sibling_order(d, a, b);
    }
    let chain = |mut e: EntryOf<O, N>| {
        let mut v = vec![e];
        while let Some(p) = d.parent(e) {
            v.push(p);
            e = p;
        }
        v.reverse();
        v
    };
    let (ca, cb) = (chain(a), chain(b));
    match ca.iter().zip(&cb).position(|(x, y)| x != y) {
        Some(i) => sibling_order(d, ca[i], cb[i]),
        None => ca.len().cmp(&cb.len()),
    }
}

/// The entries of a comparison ranked by the size of their change, ties by path.
struct Changes<'d, 'a, 's, O: TreeView, N: TreeView, M> {
    diff: &'d Diff<'a, O, N, M>,
    sel: &'s DiffSelection,
}

impl<O: TreeView, N: TreeView, M: Pairs<O, N>> Ranking for Changes<'_, '_, '_, O, N, M> {
    type Item = EntryOf<O, N>;

    fn rank(&self, e: Self::Item) -> u128 {
        self.diff.delta(e).unsigned_abs()
    }

    fn tie(&self, a: Self::Item, b: Self::Item) -> Ordering {
        path_order(self.diff, b, a)
    }

    fn candidates(&self, e: Self::Item, budget: usize, out: &mut Vec<Self::Item>) {
        let (d, sel) = (self.diff, self.sel);
        if !d.has_children(e) {
            return;
        }
        d.children_into(e, out);
        out.retain(|&c| sel.is_visible(d, c));
        // only the biggest `budget` children can ever be shown: don't heap a million
        if out.len() > budget {
            out.select_nth_unstable_by(budget - 1, |&a, &b| sel.order(d, a, b));
            out.truncate(budget);
        }
    }
}

/// Chooses the rows below the top of the comparison (shown whatever its change).
pub fn select_diff_rows<O: TreeView, N: TreeView, M: Pairs<O, N>>(
    d: &Diff<'_, O, N, M>,
    sel: &DiffSelection,
) -> Vec<DiffRow<EntryOf<O, N>>> {
    let changes = Changes { diff: d, sel };
    best_first(&changes, &[d.top()], sel.max_rows, sel.max_depth)
}
