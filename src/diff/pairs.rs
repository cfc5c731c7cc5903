//! What pairs the entries of a comparison: a [`Matching`] made ahead of the views (two trees
//! in memory, or the interactive view), or pairs matched as a view opens directories
//! ([`super::on_demand`]: two ncdu 2 binary exports read on demand).

use super::{live, unread, Entry, EntryOf, Matching};
use crate::tree::{EntryId, IdMap, IdSet, TreeView};
use crate::vocab::SizeMode;

/// What a [`super::Diff`] asks of the pairing of an old tree `O` and a new one `N`.
pub trait Pairs<O: TreeView, N: TreeView> {
    /// The compared root, an entry of the new tree.
    fn new_root(&self) -> N::Id;

    /// What sizes mean: the mode the trees are compared in.
    fn mode(&self) -> SizeMode;

    /// A new entry's old counterpart; `None`: added.
    fn old_of(&self, n: N::Id) -> Option<O::Id>;

    /// Whether a matched new entry differs from its old self in size, or something below it
    /// changed.
    fn changed(&self, old: &O, new: &N, n: N::Id) -> bool;

    /// The new counterpart of an old directory whose children a view was given (the parent
    /// of a removed entry); `None`: it was removed too.
    fn new_of(&self, new: &N, o: O::Id) -> Option<N::Id>;

    /// Appends the children of new directory `n`: what is there now, then what was removed.
    fn children_into(&self, old: &O, new: &N, n: N::Id, out: &mut Vec<EntryOf<O, N>>);
}

impl<O: TreeView, N: TreeView> Pairs<O, N> for Matching<O::Id, N::Id> {
    fn new_root(&self) -> N::Id {
        self.new_root
    }

    fn mode(&self) -> SizeMode {
        self.mode
    }

    fn old_of(&self, n: N::Id) -> Option<O::Id> {
        Some(self.old_of.get(n)).filter(|&o| o != O::Id::NONE)
    }

    fn changed(&self, _: &O, _: &N, n: N::Id) -> bool {
        self.changed.contains(n)
    }

    fn new_of(&self, _: &N, o: O::Id) -> Option<N::Id> {
        Some(self.new_of.get(o)).filter(|&n| n != N::Id::NONE)
    }

    fn children_into(&self, old: &O, new: &N, n: N::Id, out: &mut Vec<EntryOf<O, N>>) {
        out.extend(new.children(n).filter(|&c| live(new, c)).map(Entry::New));
        let o = self.old_of.get(n);
        if o != O::Id::NONE && !unread(new, n) {
            out.extend(
                old.children(o)
                    .filter(|&c| live(old, c) && self.new_of.get(c) == N::Id::NONE)
                    .map(Entry::Old),
            );
        }
    }
}
