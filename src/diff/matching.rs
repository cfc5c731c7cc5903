//! The match of two trees: which entry of one is which of the other, and what changed.

use super::children::ChildPairs;
use super::unread;
use crate::tree::{EntryId, EntryKind, IdMap, IdSet, TreeView};
use crate::vocab::SizeMode;

/// Which entry of one tree is which entry of the other, and what changed, for an old tree of
/// ids `O` and a new one of ids `N`. Owns no tree: pair it with the two it was built from
/// through [`Matching::with`](super::Matching::with).
#[derive(Clone, Debug)]
pub struct Matching<O: EntryId = crate::tree::NodeId, N: EntryId = crate::tree::NodeId> {
    /// For every entry of the new tree, its old counterpart ([`EntryId::NONE`]: none).
    pub(super) old_of: N::Map<O>,
    /// For every entry of the old tree, its new counterpart.
    pub(super) new_of: O::Map<N>,
    /// Matched new entries whose own totals differ from the old, or with a change below.
    pub(super) changed: N::Set,
    pub(super) new_root: N,
    pub(super) mode: SizeMode,
}

/// A step of the side-by-side walk: a matched directory pair to match the children of, or a
/// directory whose subtree is done, so its change (if any) shows in its own directory.
enum Step<O, N> {
    Open { new: N, old: O, up: Option<N> },
    Close { new: N, up: Option<N> },
}

/// The children of the directory pair being matched and their pairing: buffers kept from one
/// directory to the next.
struct Lists<O, N> {
    olds: Vec<O>,
    news: Vec<N>,
    rule: ChildPairs,
}

impl<O, N> Default for Lists<O, N> {
    fn default() -> Self {
        Lists {
            olds: Vec::new(),
            news: Vec::new(),
            rule: ChildPairs::default(),
        }
    }
}

impl<O: EntryId, N: EntryId> Matching<O, N> {
    /// Matches the subtree at `new_root` of `new` with the one at `old_root` of `old`. The two
    /// roots are paired whatever their names (whether they should be is the caller's call).
    /// Both trees must be settled (totals): totals in `mode` are compared (only what the mode
    /// measures: a walk with -f never read the sizes of files).
    pub fn new<OT, NT>(old: &OT, old_root: O, new: &NT, new_root: N, mode: SizeMode) -> Self
    where
        OT: TreeView<Id = O>,
        NT: TreeView<Id = N>,
    {
        let mut m = Matching {
            old_of: N::Map::with_bound(new.id_bound()),
            new_of: O::Map::with_bound(old.id_bound()),
            changed: N::Set::with_bound(new.id_bound()),
            new_root,
            mode,
        };
        let mut lists = Lists::default();
        m.pair(old, new, (old_root, new_root), None);
        let mut stack = vec![Step::Open {
            new: new_root,
            old: old_root,
            up: None,
        }];
        while let Some(step) = stack.pop() {
            match step {
                Step::Open { new: n, old: o, up } => {
                    stack.push(Step::Close { new: n, up });
                    // an unread directory's contents now are unknown, not gone
                    if !unread(new, n) && m.children(old, new, (o, n), &mut lists, &mut stack) {
                        m.changed.insert(n);
                    }
                }
                Step::Close {
                    new: n,
                    up: Some(up),
                } if m.changed.contains(n) => m.changed.insert(up),
                Step::Close { .. } => {}
            }
        }
        m
    }

    /// Matches the children of a matched directory pair by the one rule ([`ChildPairs`]),
    /// pushing the pairs of directories below. Whether an entry was added or removed there.
    fn children<OT, NT>(
        &mut self,
        old: &OT,
        new: &NT,
        (o_dir, n_dir): (O, N),
        lists: &mut Lists<O, N>,
        stack: &mut Vec<Step<O, N>>,
    ) -> bool
    where
        OT: TreeView<Id = O>,
        NT: TreeView<Id = N>,
    {
        let Lists { olds, news, rule } = lists;
        olds.clear();
        olds.extend(old.children(o_dir));
        news.clear();
        news.extend(new.children(n_dir));
        rule.pair(old, new, olds, news);
        for (i, j) in rule.pairs() {
            let (o, n) = (olds[j], news[i]);
            self.pair(old, new, (o, n), Some(n_dir));
            if new.kind(n) == EntryKind::Dir {
                let up = Some(n_dir);
                stack.push(Step::Open { new: n, old: o, up });
            }
        }
        rule.unpaired(old, new, olds, news)
    }

    /// Records a pair; a change of size marks it, and a file's its directory `up` (a
    /// directory carries its own up once its subtree is done).
    fn pair<OT, NT>(&mut self, old: &OT, new: &NT, (o, n): (O, N), up: Option<N>)
    where
        OT: TreeView<Id = O>,
        NT: TreeView<Id = N>,
    {
        self.old_of.set(n, o);
        self.new_of.set(o, n);
        if new.size(n, self.mode) != old.size(o, self.mode) {
            self.changed.insert(n);
            if let Some(up) = up.filter(|_| new.kind(n) != EntryKind::Dir) {
                self.changed.insert(up);
            }
        }
    }
}
