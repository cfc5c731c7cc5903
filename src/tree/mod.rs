//! The scanned tree: one flat vector of compact nodes, names in one byte arena.
//!
//! Node 0 is a synthetic "(total)" whose children are the scanned paths, in the order given.
//! A directory's children are appended in one go when it is read, so they are contiguous
//! (`first_child .. first_child + child_count`), in directory-read order, and every child has a
//! larger id than its parent. That last fact makes totals a single reverse sweep and keeps
//! every pass iterative, whatever the depth.

use std::cmp::Ordering;

use rustc_hash::FxHashMap;

mod aggregate;
mod build;
mod edit;
mod filter;
mod find;
mod identity;
pub mod ids;
mod inodes;
mod postorder;
mod select;
mod slot;
mod store;
mod types;
pub(crate) mod view;

pub use build::{span_ahead, spare_room, LinkKey, TreeBuilder};
pub use edit::{Removal, Sizes};
pub use filter::{PathFilters, TimeFilter};
pub use ids::{EntryId, IdMap, IdSet};
pub use postorder::{Built, PostOrderBuilder};
pub use select::{best_first, biggest_files, select_rows, Ranked, Ranking, Row, Selection, Ties};
pub use types::by_file_type;
pub use view::TreeView;
pub(crate) use view::{parting, Parting};
#[cfg(test)]
pub(crate) use view::{tied_tree, Sparse};

/// What some uses need of an entry's stat beyond the node, kept only on request
/// ([`Tree::extra`]): ncdu's extended export (owner, mode) and the time filters and
/// `--filetime` (access and change times; the node has the modification time).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct StatExtra {
    pub uid: u32,
    pub gid: u32,
    /// `st_mode`: file type and permission bits.
    pub mode: u32,
    /// `st_atime`, seconds since the epoch.
    pub atime: i64,
    /// `st_ctime`, seconds since the epoch.
    pub ctime: i64,
}

impl StatExtra {
    /// Whether these are an entry's facts: a real `st_mode` always has file-type bits, and
    /// an entry with none recorded (a part of a merge exported without them) has mode 0.
    pub fn is_recorded(&self) -> bool {
        self.mode != 0
    }
}

/// Index of a node in the tree (`Tree::node`).
pub type NodeId = u32;

/// The synthetic root above all scanned paths.
pub const TOTAL: NodeId = 0;

/// What an entry is: the system's word for it (see [`crate::sys::EntryKind`]), two bits of
/// a node.
pub use crate::sys::EntryKind;

impl EntryKind {
    fn from_bits(b: u64) -> EntryKind {
        match b & 3 {
            0 => EntryKind::Dir,
            1 => EntryKind::File,
            2 => EntryKind::Symlink,
            _ => EntryKind::Other,
        }
    }

    pub fn json_name(self) -> &'static str {
        match self {
            EntryKind::Dir => "dir",
            EntryKind::File => "file",
            EntryKind::Symlink => "symlink",
            EntryKind::Other => "other",
        }
    }
}

/// Per-node facts kept in a few bits.
pub mod flags {
    /// A hard link (or, across arguments and with -L, any inode) already counted elsewhere.
    pub const DUPLICATE: u8 = 1;
    /// A directory that could not be read: its own size counts, its contents are unknown.
    pub const UNREADABLE: u8 = 2;
    /// A directory on another filesystem, not entered (-x).
    pub const OTHER_FS: u8 = 4;
    /// Left out by -e / -v: contributes nothing.
    pub const FILTERED: u8 = 8;
    /// A non-directory with more than one link.
    pub const HARDLINK: u8 = 16;
    /// Deleted from the disk by the interactive view: hidden, contributes nothing.
    pub const REMOVED: u8 = 32;
    /// A directory of a merge of scans ([`crate::import::import_files`]) that no part
    /// scanned: it only leads to the parts below it, and has no size of its own.
    pub const UNSCANNED: u8 = 64;
    /// A name of a hard-linked file that another name counts for now, while the walk runs
    /// ([`super::Tree::mark_live_duplicates`]): the walk settles which name counts at its end.
    pub const LIVE_DUPLICATE: u8 = 128;
    /// A directory a part of a merge of scans left out (-X) and no part scanned
    /// ([`FILTERED`] and [`UNSCANNED`] both): counted nowhere, but shown, marked, for nothing
    /// of it is known (a part that was never written, or one never meant).
    pub const LEFT_UNSCANNED: u8 = FILTERED | UNSCANNED;
    /// Whether `f` marks an entry left out that views still show ([`LEFT_UNSCANNED`]).
    pub const fn is_left_unscanned(f: u8) -> bool {
        f & LEFT_UNSCANNED == LEFT_UNSCANNED
    }
    /// An entry any of these marks counts nothing of its own in any total: another name
    /// counts it, a filter left it out, or -x did not enter it ([`super::Node::is_counted`]).
    pub const UNCOUNTED: u8 = DUPLICATE | FILTERED | OTHER_FS;
}

const NAME_OFF_BITS: u32 = 40;
const NAME_OFF_MASK: u64 = (1 << NAME_OFF_BITS) - 1;

/// One entry, whole: what [`Tree::node`] gives and [`Tree::set_node`] takes, and what a
/// walk builds before it hands a directory's entries to the tree (which keeps them in 20
/// bytes: `store`). Sizes are the entry's own until [`Tree::finish`] turns them into
/// subtree totals.
#[derive(Clone, Debug)]
pub struct Node {
    pub first_child: NodeId,
    pub child_count: u32,
    /// Entries in the subtree, this one included (saturating).
    pub entries: u32,
    /// Name offset (40 bits) | name length (8 bits) | kind (2 bits) | spare (6) | flags (8).
    packed: u64,
    pub disk: u64,
    pub apparent: u64,
    /// Newest modification time in the subtree (seconds since the epoch).
    pub mtime: i64,
}

impl Node {
    pub fn new(kind: EntryKind, disk: u64, apparent: u64, mtime: i64, flags: u8) -> Node {
        Node {
            first_child: 0,
            child_count: 0,
            entries: 1,
            packed: ((kind as u64) << 48) | ((flags as u64) << 56),
            disk,
            apparent,
            mtime,
        }
    }

    pub fn kind(&self) -> EntryKind {
        EntryKind::from_bits(self.packed >> 48)
    }

    pub fn flags(&self) -> u8 {
        (self.packed >> 56) as u8
    }

    pub fn has(&self, flag: u8) -> bool {
        self.flags() & flag != 0
    }

    pub fn set_flag(&mut self, flag: u8) {
        self.packed |= (flag as u64) << 56;
    }

    /// Whether the entry's own sizes count in its ancestors' totals (see [`flags::UNCOUNTED`]).
    pub fn is_counted(&self) -> bool {
        !self.has(flags::UNCOUNTED)
    }

    pub fn is_dir(&self) -> bool {
        self.kind() == EntryKind::Dir
    }

    fn set_name(&mut self, off: u64, len: usize) {
        debug_assert!(len <= 255 && off <= NAME_OFF_MASK);
        self.packed = (self.packed & !((1 << 48) - 1))
            | (off & NAME_OFF_MASK)
            | ((len as u64) << NAME_OFF_BITS);
    }

    /// A node whose name is `len` bytes at `off` of a caller's buffer, for
    /// [`TreeBuilder::append_children`], which moves the names into the tree's arena.
    pub fn with_local_name(mut self, off: usize, len: usize) -> Node {
        self.set_name(off as u64, len.min(255));
        self
    }

    /// Its name in `names`, the buffer [`Node::with_local_name`] placed it in.
    pub fn local_name<'n>(&self, names: &'n [u8]) -> &'n [u8] {
        let (off, len) = self.name_span();
        names.get(off..off + len).unwrap_or_default()
    }

    fn name_span(&self) -> (usize, usize) {
        let off = (self.packed & NAME_OFF_MASK) as usize;
        let len = ((self.packed >> NAME_OFF_BITS) & 0xff) as usize;
        (off, len)
    }

    pub fn children(&self) -> std::ops::Range<NodeId> {
        self.first_child..self.first_child + self.child_count
    }

    /// Size in the given mode.
    pub fn size(&self, mode: crate::vocab::SizeMode) -> u64 {
        match mode {
            crate::vocab::SizeMode::Disk => self.disk,
            crate::vocab::SizeMode::Apparent => self.apparent,
            crate::vocab::SizeMode::Count => self.entries as u64,
            crate::vocab::SizeMode::Time => self.mtime.max(0) as u64,
        }
    }
}

/// The whole scan. `Clone` lets the interactive view take snapshots of a walk in progress.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// Every entry, by id (`slot`, `store`).
    slots: Vec<slot::Head>,
    /// The entries' apparent sizes and times, once one is not 0 (`slot`).
    tails: slot::Tails,
    /// What directories have besides their slot, in the order they were added.
    dirs: Vec<store::DirInfo>,
    /// (first id, parent) of every block of children, in the order of their first ids:
    /// how a file finds its parent.
    blocks: Vec<(NodeId, NodeId)>,
    /// Values too big for a slot, by (id, field).
    wide: FxHashMap<u64, u64>,
    names: Vec<u8>,
    /// Names of the scanned paths as typed (any length), indexed by node id - 1.
    root_names: Vec<Vec<u8>>,
    /// Every node's `(st_dev, st_ino)` when the walk was asked to keep them
    /// (`WalkOptions::keep_identity`), for [`Tree::identity_of`]: deleting re-checks that a
    /// path is still the scanned file, and exports name hard links and mount points. The
    /// inodes (`None`: not kept, or only what an export reads) and the devices, with what
    /// these two cannot give; see `identity`.
    inodes: Option<inodes::InodeLog>,
    sparse_identity: identity::SparseIdentity,
    /// Link counts of the hard-linked files ([`flags::HARDLINK`]), kept with the identities:
    /// an export tells readers how many names an inode has in all.
    pub links: FxHashMap<NodeId, u32>,
    /// Owner, mode, access and change times of every node, indexed by id, when the walk was
    /// asked to keep them (`WalkOptions::keep_extra`); empty otherwise.
    pub extra: Vec<StatExtra>,
    /// What of every node's disk size is its own and what other files share, indexed by id
    /// (subtree values), when the scan counted extents (`--extents`); empty otherwise.
    pub sharing: Vec<Sharing>,
    /// A view summed the tree while it was walked ([`Tree::sum_live`]): its directories hold
    /// totals and some names are marked live duplicates until [`Tree::forget_live_sums`].
    live_sums: bool,
}

/// What deleting a node would free, and what it shares (`--extents`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Sharing {
    /// Bytes only this subtree refers to, which no other file or snapshot shares: what
    /// deleting it would free (at least).
    pub exclusive: u64,
    /// Bytes this subtree refers to that something else refers to too (another file of the
    /// scan, a snapshot, a hard link), each range once.
    pub shared: u64,
}

impl Tree {
    /// The scanned paths (children of [`TOTAL`]).
    pub fn roots(&self) -> std::ops::Range<NodeId> {
        if self.slots.is_empty() {
            return 0..0;
        }
        self.node(TOTAL).children()
    }

    pub fn is_root(&self, id: NodeId) -> bool {
        id != TOTAL && self.parent(id) == TOTAL
    }

    /// The entry's own name; a root's is the path as typed.
    pub fn name(&self, id: NodeId) -> &[u8] {
        if id == TOTAL {
            return b"(total)";
        }
        if self.is_root(id) {
            return &self.root_names[id as usize - 1];
        }
        let (off, len) = self.head(id).name_span();
        &self.names[off..off + len]
    }

    /// Renames a scanned root: a comparison spells both scans' paths the same way, so that
    /// -e and -v see the same paths in each.
    pub fn set_root_name(&mut self, id: NodeId, name: Vec<u8>) {
        if self.is_root(id) {
            self.root_names[id as usize - 1] = name;
        }
    }

    /// Full path from the scanned root as typed: `root/a/b`. Built on demand by walking parents.
    pub fn path_into(&self, id: NodeId, out: &mut Vec<u8>) {
        out.clear();
        if id == TOTAL {
            out.extend_from_slice(self.name(TOTAL));
            return;
        }
        let mut chain = Vec::new();
        let mut n = id;
        while n != TOTAL {
            chain.push(n);
            n = self.parent(n);
        }
        for (i, &n) in chain.iter().rev().enumerate() {
            if i > 0 && out.last() != Some(&b'/') {
                out.push(b'/');
            }
            out.extend_from_slice(self.name(n));
        }
    }

    pub fn path(&self, id: NodeId) -> Vec<u8> {
        let mut v = Vec::new();
        self.path_into(id, &mut v);
        v
    }

    /// Depth below the scanned root (a root is 0, [`TOTAL`] is -1 as `None`).
    pub fn depth(&self, id: NodeId) -> usize {
        let mut d = 0;
        let mut n = id;
        while n != TOTAL && self.parent(n) != TOTAL {
            n = self.parent(n);
            d += 1;
        }
        d
    }

    pub fn set_flag(&mut self, id: NodeId, flag: u8) {
        self.head_mut(id).set_flag(flag);
    }

    /// Takes `n` entries off a directory's own count: names of inodes that other names
    /// count, summed into the directory rather than made nodes (a walk of totals only).
    pub fn uncount_entries(&mut self, id: NodeId, n: u32) {
        let mut node = self.own_node(id);
        node.entries = node.entries.saturating_sub(n);
        self.set_own_node(id, &node);
    }

    /// The link count of a hard-linked file, if identities were kept.
    pub fn links_of(&self, id: NodeId) -> Option<u32> {
        self.links.get(&id).copied()
    }

    /// The extra stat facts of a node, if they were kept and recorded for it.
    pub fn extra_of(&self, id: NodeId) -> Option<StatExtra> {
        self.extra
            .get(id as usize)
            .copied()
            .filter(StatExtra::is_recorded)
    }

    /// Order of two nodes in a depth-first walk in directory order. Node ids depend on which
    /// thread finished first, so ids alone only order siblings; anything shown to the user
    /// breaks ties with this instead. O(depth), no allocation.
    pub fn dfs_order(&self, a: NodeId, b: NodeId) -> Ordering {
        <Tree as TreeView>::dfs_order(self, a, b)
    }
}

/// A xorshift generator for tests that build scrambled trees: `next(m)` is in `0..m`.
#[cfg(test)]
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |m| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_fields_round_trip() {
        let mut n = Node::new(EntryKind::Symlink, 1, 2, 3, flags::HARDLINK);
        n.set_name(0xAB_CDEF_0123, 255);
        n.set_flag(flags::DUPLICATE);
        assert_eq!(n.kind(), EntryKind::Symlink);
        assert_eq!(n.name_span(), (0xAB_CDEF_0123, 255));
        assert!(n.has(flags::HARDLINK) && n.has(flags::DUPLICATE) && !n.has(flags::FILTERED));
    }

    #[test]
    fn dfs_order_ignores_the_order_directories_finished() {
        // r/{a,b}; b's children were appended before a's, as a faster thread would
        let dir = || Node::new(EntryKind::Dir, 0, 0, 0, 0);
        let file = || Node::new(EntryKind::File, 0, 0, 0, 0);
        let mut b = TreeBuilder::new();
        b.add_roots(vec![(b"r".to_vec(), dir())]);
        let r = 1;
        let a_id = b.add_children(r, [(dir(), &b"a"[..]), (dir(), &b"b"[..])].into_iter());
        let b_id = a_id + 1;
        let b_kid = b.add_children(b_id, [(file(), &b"y"[..])].into_iter());
        let a_kid = b.add_children(a_id, [(file(), &b"x"[..]), (dir(), &b"z"[..])].into_iter());
        let deep = b.add_children(a_kid + 1, [(file(), &b"w"[..])].into_iter());
        let t = b.into_tree();
        assert!(b_kid < a_kid, "the setup appends b's children first");
        // depth-first: r, a, a/x, a/z, a/z/w, b, b/y
        let walk = [r, a_id, a_kid, a_kid + 1, deep, b_id, b_kid];
        for (i, &x) in walk.iter().enumerate() {
            for (j, &y) in walk.iter().enumerate() {
                assert_eq!(t.dfs_order(x, y), i.cmp(&j), "{x} vs {y}");
            }
        }
    }
}
