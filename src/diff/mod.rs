//! Comparing two scans of the same directory: which entries grew, shrank, appeared or went.
//!
//! Entries are matched by their path relative to the root. Both trees are read through
//! [`TreeView`], so either may be the in-memory tree or one read from a file, with ids of
//! different types: the match walks the two side by side, depth first, from an explicit stack
//! of directory pairs (any depth), keeping while it walks only that stack and the names of one
//! old directory. Within a pair, children are first compared position by position — two scans
//! of one filesystem usually list a directory in the same order, and an import keeps the order
//! of its export — and only what is left is matched through a hash of the old names, so the
//! whole match is linear in the entries.
//!
//! What it records is one counterpart per matched entry of each tree and the set of changed
//! ones, in tables by id ([`EntryId::Map`]): for the in-memory tree an array as long as the
//! tree (about 8 bytes an entry next to the two trees' ~60), for a tree whose ids are file
//! offsets a hash of the matched entries. An entry of the comparison is an entry of the new
//! tree (matched or added) or an unmatched entry of the old one (removed).
//! A directory replaced by a file, or the reverse, is never matched: the old one is removed
//! and the new one added.
//!
//! This is the model of the diff feature (`--diff`). Its runs are [`crate::app::diff`] (which
//! loads both scans), its printed views [`crate::render::diff`] and [`crate::render::diff_json`],
//! and the interactive view's column [`crate::tui::diff`].

mod children;
mod matching;
pub mod on_demand;
mod pairs;
pub mod select;

pub use matching::Matching;
pub use pairs::Pairs;

use crate::tree::{flags, EntryId, EntryKind, Node, NodeId, Tree, TreeView};
use crate::vocab::SizeMode;

/// One entry of the comparison, by its id in the new tree (`N`) or the old one (`O`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Entry<N = NodeId, O = NodeId> {
    /// An entry of the new tree: there now (matched with its old self, or added).
    New(N),
    /// An entry of the old tree that has no counterpart: removed.
    Old(O),
}

/// The entries of a comparison of the trees `O` (old) and `N` (new).
pub type EntryOf<O, N> = Entry<<N as TreeView>::Id, <O as TreeView>::Id>;

/// What happened to an entry between the two scans.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// The same size (in the compared mode), and nothing below it changed.
    Same,
    /// There in both; its size differs, or something below it changed (a rename inside
    /// leaves the totals alone but is a change).
    Changed,
    /// Only in the new scan.
    Added,
    /// Only in the old scan.
    Removed,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Same => "same",
            Status::Changed => "changed",
            Status::Added => "added",
            Status::Removed => "removed",
        }
    }
}

/// Whether an entry takes part in a comparison: deleted entries (the interactive view) are
/// gone, whatever the arena still holds, and files left out by -e / -v are not counted, so
/// renaming one is no change.
fn live<T: TreeView>(tree: &T, id: T::Id) -> bool {
    tree.flags(id) & (flags::REMOVED | flags::FILTERED) == 0
}

/// A directory the new scan could not read: what was in it is not known to be gone.
fn unread<T: TreeView>(tree: &T, id: T::Id) -> bool {
    tree.flags(id) & flags::UNREADABLE != 0
}

/// Whether two entries of the same name are the same entry. Only directory versus anything
/// else counts: an export without ncdu's extended mode cannot tell a symlink from a FIFO, so a
/// stricter test would call every symlink replaced when an export is compared with a walk.
fn same_kind(a: EntryKind, b: EntryKind) -> bool {
    (a == EntryKind::Dir) == (b == EntryKind::Dir)
}

impl<O: EntryId, N: EntryId> Matching<O, N> {
    /// The comparison, readable through the two trees it was built from.
    pub fn with<'a, OT, NT>(&'a self, old: &'a OT, new: &'a NT) -> Diff<'a, OT, NT>
    where
        OT: TreeView<Id = O>,
        NT: TreeView<Id = N>,
    {
        Diff {
            old,
            new,
            matching: self,
        }
    }
}

/// The two trees of a comparison and what pairs their entries (`M`: a [`Matching`] made
/// ahead, or pairs matched as a view asks, [`on_demand`]): everything the views ask about
/// an entry.
#[derive(Debug)]
pub struct Diff<
    'a,
    O: TreeView = Tree,
    N: TreeView = Tree,
    M = Matching<<O as TreeView>::Id, <N as TreeView>::Id>,
> {
    pub old: &'a O,
    pub new: &'a N,
    matching: &'a M,
}

impl<O: TreeView, N: TreeView, M> Clone for Diff<'_, O, N, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<O: TreeView, N: TreeView, M> Copy for Diff<'_, O, N, M> {}

impl<'a, O: TreeView, N: TreeView, M: Pairs<O, N>> Diff<'a, O, N, M> {
    /// A comparison whose pairs `pairs` gives.
    pub fn of(old: &'a O, new: &'a N, pairs: &'a M) -> Self {
        Diff {
            old,
            new,
            matching: pairs,
        }
    }
}

impl<'a> Diff<'a> {
    /// The entry in the old scan, if it was there.
    pub fn old_node(&self, e: Entry) -> Option<Node> {
        self.old_id(e).map(|o| self.old.node(o))
    }

    /// The entry in the new scan, if it is there.
    pub fn new_node(&self, e: Entry) -> Option<Node> {
        match e {
            Entry::New(n) => Some(self.new.node(n)),
            Entry::Old(_) => None,
        }
    }
}

impl<'a, O: TreeView, N: TreeView, M: Pairs<O, N>> Diff<'a, O, N, M> {
    /// The compared root (an entry of the new tree).
    pub fn top(&self) -> EntryOf<O, N> {
        Entry::New(self.matching.new_root())
    }

    pub fn status(&self, e: EntryOf<O, N>) -> Status {
        match e {
            Entry::Old(_) => Status::Removed,
            Entry::New(n) => match self.matching.old_of(n) {
                None => Status::Added,
                Some(_) if self.matching.changed(self.old, self.new, n) => Status::Changed,
                Some(_) => Status::Same,
            },
        }
    }

    /// The entry's id in the old scan, if it was there.
    fn old_id(&self, e: EntryOf<O, N>) -> Option<O::Id> {
        match e {
            Entry::Old(o) => Some(o),
            Entry::New(n) => self.matching.old_of(n),
        }
    }

    /// What sizes mean here: the mode the scans were compared in.
    pub fn mode(&self) -> SizeMode {
        self.matching.mode()
    }

    /// Size before (0 when it was not there: [`Diff::status`] says which).
    pub fn old_size(&self, e: EntryOf<O, N>) -> u64 {
        self.old_id(e).map_or(0, |o| self.old.size(o, self.mode()))
    }

    /// Size now (0 when it is gone).
    pub fn new_size(&self, e: EntryOf<O, N>) -> u64 {
        match e {
            Entry::New(n) => self.new.size(n, self.mode()),
            Entry::Old(_) => 0,
        }
    }

    /// New size minus old size.
    pub fn delta(&self, e: EntryOf<O, N>) -> i128 {
        i128::from(self.new_size(e)) - i128::from(self.old_size(e))
    }

    /// The entry's name; the top's is the new scan's root name.
    pub fn name(&self, e: EntryOf<O, N>) -> &'a [u8] {
        match e {
            Entry::New(n) => self.new.name(n),
            Entry::Old(o) => self.old.name(o),
        }
    }

    /// How the names of two entries below the top compare, without keeping them (a
    /// file-backed tree reads names it compares and drops them).
    pub fn cmp_names(&self, a: EntryOf<O, N>, b: EntryOf<O, N>) -> std::cmp::Ordering {
        match (a, b) {
            (Entry::New(x), Entry::New(y)) => self.new.cmp_entry_names(x, y),
            (Entry::Old(x), Entry::Old(y)) => self.old.cmp_entry_names(x, y),
            _ => {
                let (mut x, mut y) = (Vec::new(), Vec::new());
                self.entry_name_into(a, &mut x);
                self.entry_name_into(b, &mut y);
                x.cmp(&y)
            }
        }
    }

    fn entry_name_into(&self, e: EntryOf<O, N>, out: &mut Vec<u8>) {
        match e {
            Entry::New(n) => self.new.entry_name_into(n, out),
            Entry::Old(o) => self.old.entry_name_into(o, out),
        }
    }

    pub fn kind(&self, e: EntryOf<O, N>) -> EntryKind {
        match e {
            Entry::New(n) => self.new.kind(n),
            Entry::Old(o) => self.old.kind(o),
        }
    }

    pub fn is_dir(&self, e: EntryOf<O, N>) -> bool {
        self.kind(e) == EntryKind::Dir
    }

    /// The entry's directory in the comparison; `None` for the top.
    pub fn parent(&self, e: EntryOf<O, N>) -> Option<EntryOf<O, N>> {
        match e {
            Entry::New(n) if n == self.matching.new_root() => None,
            Entry::New(n) => Some(Entry::New(self.new.parent(n))),
            Entry::Old(o) => {
                let p = self.old.parent(o);
                Some(match self.matching.new_of(self.new, p) {
                    None => Entry::Old(p),
                    Some(n) => Entry::New(n),
                })
            }
        }
    }

    /// Whether the entry has anything below it, in either scan.
    pub fn has_children(&self, e: EntryOf<O, N>) -> bool {
        matches!(e, Entry::New(n) if self.new.child_count(n) > 0)
            || self.old_id(e).is_some_and(|o| self.old.child_count(o) > 0)
    }

    /// Appends the entry's children: what is there now, then what was removed.
    pub fn children_into(&self, e: EntryOf<O, N>, out: &mut Vec<EntryOf<O, N>>) {
        let (old, new) = (self.old, self.new);
        match e {
            Entry::New(n) => self.matching.children_into(old, new, n, out),
            Entry::Old(o) => out.extend(old.children(o).filter(|&c| live(old, c)).map(Entry::Old)),
        }
    }

    pub fn children(&self, e: EntryOf<O, N>) -> Vec<EntryOf<O, N>> {
        let mut v = Vec::new();
        self.children_into(e, &mut v);
        v
    }

    /// Path below the top, `/`-joined (the top itself is empty).
    pub fn rel_path(&self, e: EntryOf<O, N>) -> Vec<u8> {
        let mut chain = Vec::new();
        let mut cur = e;
        while let Some(p) = self.parent(cur) {
            chain.push(cur);
            cur = p;
        }
        let mut out = Vec::new();
        for (i, c) in chain.iter().rev().enumerate() {
            if i > 0 {
                out.push(b'/');
            }
            out.extend_from_slice(self.name(*c));
        }
        out
    }

    /// Full path: the top's name, then the path below it.
    pub fn path(&self, e: EntryOf<O, N>) -> Vec<u8> {
        let mut out = self.name(self.top()).to_vec();
        let rel = self.rel_path(e);
        if !rel.is_empty() {
            if out.last() != Some(&b'/') {
                out.push(b'/');
            }
            out.extend_from_slice(&rel);
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests;
