//! The match of two trees: which entry of one is which of the other, and what changed.

use rustc_hash::FxHashMap;

use super::{live, same_kind, unread};
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
        let mut names = FxHashMap::default();
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
                    if !unread(new, n) && m.children(old, new, (o, n), &mut names, &mut stack) {
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

    /// Matches the children of a matched directory pair, pushing the pairs of directories
    /// below: position by position while the names agree (two scans of one filesystem list a
    /// directory in the same order), then the rest by name. Whether an entry was added or
    /// removed there.
    fn children<'o, OT, NT>(
        &mut self,
        old: &'o OT,
        new: &NT,
        (o_dir, n_dir): (O, N),
        names: &mut FxHashMap<&'o [u8], O>,
        stack: &mut Vec<Step<O, N>>,
    ) -> bool
    where
        OT: TreeView<Id = O>,
        NT: TreeView<Id = N>,
    {
        let mut pair = |m: &mut Self, o: O, n: N| {
            m.pair(old, new, (o, n), Some(n_dir));
            if new.kind(n) == EntryKind::Dir {
                let up = Some(n_dir);
                stack.push(Step::Open { new: n, old: o, up });
            }
        };
        let mut same = 0;
        for (n, o) in new.children(n_dir).zip(old.children(o_dir)) {
            if !live(new, n)
                || !live(old, o)
                || !same_kind(new.kind(n), old.kind(o))
                || new.entry_name(n) != old.entry_name(o)
            {
                break;
            }
            pair(self, o, n);
            same += 1;
        }
        if same == new.child_count(n_dir) {
            // anything old left has no counterpart: removed
            return old.children(o_dir).skip(same).any(|o| live(old, o));
        }
        // the rest by name (the first of two equal names in a hand-made export wins)
        names.clear();
        let mut old_left = 0usize;
        for o in old.children(o_dir).skip(same) {
            if live(old, o) {
                old_left += 1;
                names.entry(old.entry_name(o)).or_insert(o);
            }
        }
        let (mut added, mut by_name) = (false, 0usize);
        for n in new.children(n_dir).skip(same) {
            if !live(new, n) {
                continue;
            }
            match names.get(new.entry_name(n)) {
                Some(&o) if same_kind(new.kind(n), old.kind(o)) => {
                    names.remove(new.entry_name(n));
                    pair(self, o, n);
                    by_name += 1;
                }
                _ => added = true,
            }
        }
        added || by_name < old_left
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
