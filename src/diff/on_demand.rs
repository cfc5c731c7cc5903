//! A comparison matched as the views ask ([`Paired`]): for two trees read from files on
//! demand (ncdu 2 binary exports), where a [`super::Matching`] made ahead would keep a pair
//! for every entry. An entry of the new tree carries its old counterpart ([`Both`]): a view
//! reaches every entry from the top, so it is handed the pair as it goes down. A directory's
//! children are paired when a view opens it, by the one rule the whole match uses
//! (`children.rs`); what is kept is the counterpart of each directory opened (for the parents
//! of what it lists) and, for each matched directory of equal totals a view asks about,
//! whether anything below it changed: found by matching its subtree, keeping only the
//! directory pairs still to read, up to the first change.

use std::cell::RefCell;
use std::cmp::Ordering;

use rustc_hash::{FxHashMap, FxHashSet};

use super::children::ChildPairs;
use super::{live, unread, Entry, EntryOf, Pairs};
use crate::tree::ids::Sparse;
use crate::tree::{EntryId, EntryKind, TreeView};
use crate::vocab::SizeMode;

/// An entry of the new tree with its counterpart in the old one ([`EntryId::NONE`]: added).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Both<N, O> {
    pub new: N,
    pub old: O,
}

impl<N: EntryId, O: EntryId> EntryId for Both<N, O> {
    const NONE: Self = Both {
        new: N::NONE,
        old: O::NONE,
    };
    type Map<V: EntryId> = Sparse<Self, V>;
    type Set = FxHashSet<Self>;
}

type PairId<O, N> = Both<<N as TreeView>::Id, <O as TreeView>::Id>;

/// The new tree of a comparison, its entries paired with the old tree's as they are listed:
/// both the new side of a [`super::Diff`] and what pairs it.
pub struct Paired<'t, O: TreeView, N: TreeView> {
    old: &'t O,
    new: &'t N,
    root: PairId<O, N>,
    /// The top's name, when it is not the new tree's root's.
    top_name: Option<Vec<u8>>,
    mode: SizeMode,
    /// The old counterpart of each new directory whose children were listed, and back.
    old_dirs: RefCell<FxHashMap<N::Id, O::Id>>,
    new_dirs: RefCell<FxHashMap<O::Id, N::Id>>,
    /// Whether something below a matched directory of equal totals changed, once asked.
    below: RefCell<FxHashMap<PairId<O, N>, bool>>,
}

/// The children of a directory pair: the new ones, each one's counterpart, the old ones
/// left (removed).
type Matched<O, N> = (
    Vec<<N as TreeView>::Id>,
    Vec<<O as TreeView>::Id>,
    Vec<<O as TreeView>::Id>,
);

impl<'t, O: TreeView, N: TreeView> Paired<'t, O, N> {
    /// The comparison of `new`'s subtree at `new_root` with `old`'s at `old_root`, in
    /// `mode`'s totals (which both trees must answer as stored).
    pub fn new(old: &'t O, old_root: O::Id, new: &'t N, new_root: N::Id, mode: SizeMode) -> Self {
        Paired {
            old,
            new,
            root: Both {
                new: new_root,
                old: old_root,
            },
            top_name: None,
            mode,
            old_dirs: RefCell::default(),
            new_dirs: RefCell::default(),
            below: RefCell::default(),
        }
    }

    /// The comparison with its top named `name` (the path given, where the new tree names
    /// its root otherwise).
    pub fn with_top_name(self, name: Vec<u8>) -> Self {
        Paired {
            top_name: Some(name),
            ..self
        }
    }

    /// The old tree: the old side of the [`super::Diff`].
    pub fn old(&self) -> &'t O {
        self.old
    }

    /// The children of pair `b` matched; `keep`: a view is given them, so their directory's
    /// counterpart is kept for [`TreeView::parent`].
    fn matched(&self, b: PairId<O, N>, keep: bool) -> Matched<O, N> {
        let (old, new) = (self.old, self.new);
        let news: Vec<N::Id> = match keep {
            true => new.children(b.new).collect(),
            false => new.children_passing(b.new).collect(),
        };
        if b.old == O::Id::NONE {
            let none = vec![O::Id::NONE; news.len()];
            return (news, none, Vec::new());
        }
        if keep {
            self.old_dirs.borrow_mut().insert(b.new, b.old);
            self.new_dirs.borrow_mut().insert(b.old, b.new);
        }
        // an unread directory's contents now are unknown, not gone: nothing is matched
        if unread(new, b.new) {
            let none = vec![O::Id::NONE; news.len()];
            return (news, none, Vec::new());
        }
        let olds: Vec<O::Id> = match keep {
            true => old.children(b.old).collect(),
            false => old.children_passing(b.old).collect(),
        };
        let mut rule = ChildPairs::default();
        rule.pair(old, new, &olds, &news);
        let of = (0..news.len())
            .map(|i| rule.old_at(i).map_or(O::Id::NONE, |j| olds[j]))
            .collect();
        let removed = rule.removed(old, &olds).collect();
        (news, of, removed)
    }

    /// Whether anything below matched directory pair `top` changed, as the whole match
    /// finds it: an entry added or removed, or a matched one whose totals differ.
    fn changed_below(&self, top: PairId<O, N>) -> bool {
        let (old, new, mode) = (self.old, self.new, self.mode);
        let mut stack = vec![top];
        while let Some(b) = stack.pop() {
            if unread(new, b.new) {
                continue;
            }
            let (news, of, removed) = self.matched(b, false);
            if !removed.is_empty() {
                return true;
            }
            for (&n, &o) in news.iter().zip(&of) {
                if !live(new, n) {
                    continue;
                }
                if o == O::Id::NONE || new.size(n, mode) != old.size(o, mode) {
                    return true;
                }
                if new.kind(n) == EntryKind::Dir {
                    stack.push(Both { new: n, old: o });
                }
            }
        }
        false
    }
}

impl<'t, O: TreeView, N: TreeView> Pairs<O, Paired<'t, O, N>> for Paired<'t, O, N> {
    fn new_root(&self) -> PairId<O, N> {
        self.root
    }

    fn mode(&self) -> SizeMode {
        self.mode
    }

    fn old_of(&self, n: PairId<O, N>) -> Option<O::Id> {
        Some(n.old).filter(|&o| o != O::Id::NONE)
    }

    fn changed(&self, _: &O, _: &Self, n: PairId<O, N>) -> bool {
        if self.new.size(n.new, self.mode) != self.old.size(n.old, self.mode) {
            return true;
        }
        if self.new.kind(n.new) != EntryKind::Dir {
            return false;
        }
        if let Some(&known) = self.below.borrow().get(&n) {
            return known;
        }
        let changed = self.changed_below(n);
        self.below.borrow_mut().insert(n, changed);
        changed
    }

    fn new_of(&self, _: &Self, o: O::Id) -> Option<PairId<O, N>> {
        let new = self.new_dirs.borrow().get(&o).copied()?;
        Some(Both { new, old: o })
    }

    fn children_into(&self, _: &O, _: &Self, n: PairId<O, N>, out: &mut Vec<EntryOf<O, Self>>) {
        let (news, of, removed) = self.matched(n, true);
        out.extend(
            news.into_iter()
                .zip(of)
                .filter(|&(c, _)| live(self.new, c))
                .map(|(new, old)| Entry::New(Both { new, old })),
        );
        out.extend(removed.into_iter().map(Entry::Old));
    }
}

impl<O: TreeView, N: TreeView> TreeView for Paired<'_, O, N> {
    type Id = PairId<O, N>;

    fn total(&self) -> Self::Id {
        Both {
            new: self.new.total(),
            old: self.old.total(),
        }
    }

    fn roots(&self) -> impl Iterator<Item = Self::Id> + '_ {
        std::iter::once(self.root)
    }

    fn name(&self, id: Self::Id) -> &[u8] {
        match &self.top_name {
            Some(name) if id == self.root => name,
            _ => self.new.name(id.new),
        }
    }

    fn entry_name(&self, id: Self::Id) -> &[u8] {
        self.new.entry_name(id.new)
    }

    fn cmp_entry_names(&self, a: Self::Id, b: Self::Id) -> Ordering {
        self.new.cmp_entry_names(a.new, b.new)
    }

    fn entry_name_into(&self, id: Self::Id, out: &mut Vec<u8>) {
        self.new.entry_name_into(id.new, out)
    }

    fn kind(&self, id: Self::Id) -> EntryKind {
        self.new.kind(id.new)
    }

    fn flags(&self, id: Self::Id) -> u8 {
        self.new.flags(id.new)
    }

    fn size(&self, id: Self::Id, mode: SizeMode) -> u64 {
        self.new.size(id.new, mode)
    }

    fn mtime(&self, id: Self::Id) -> i64 {
        self.new.mtime(id.new)
    }

    fn parent(&self, id: Self::Id) -> Self::Id {
        if id == self.root {
            return self.total();
        }
        let new = self.new.parent(id.new);
        let old = self.old_dirs.borrow().get(&new).copied();
        Both {
            new,
            old: old.unwrap_or(O::Id::NONE),
        }
    }

    fn is_root(&self, id: Self::Id) -> bool {
        id == self.root
    }

    fn child_count(&self, id: Self::Id) -> usize {
        self.new.child_count(id.new)
    }

    fn children(&self, id: Self::Id) -> impl Iterator<Item = Self::Id> + '_ {
        let (news, of, _) = self.matched(id, true);
        news.into_iter().zip(of).map(|(new, old)| Both { new, old })
    }
}
