//! What `hogs i` browses: a tree read through [`TreeView`], so that the listing (rows,
//! sorts, drilling in and out, the filter, the header's totals, marks) is the same code for
//! the in-memory scan and for a tree read from a file on demand.
//!
//! Only the in-memory scan ([`Tree`]) can change: it is walked live, deleted from,
//! rescanned, compared with an earlier scan (`--diff`), and has owners and extents. A tree
//! that is not one is read-only: those keys say they are off (the state's
//! [`super::state::Capabilities`]). The code of those features stays on `State<Tree>`,
//! carried out through [`super::state::AsScan::act`].

use crate::formats::ncdu_bin::lazy::LazyTree;
use crate::formats::ncdu_bin::ReadAt;
use crate::tree::{Node, NodeId, Tree, TreeView};
use crate::vocab::SizeMode;

/// A tree the interactive view can show.
pub trait Shown: TreeView + Sized {
    /// What a row shows of an entry: kind, flags, sizes, count and time.
    fn node(&self, id: Self::Id) -> Node {
        let mut n = Node::new(
            self.kind(id),
            self.size(id, SizeMode::Disk),
            self.size(id, SizeMode::Apparent),
            self.mtime(id),
            self.flags(id),
        );
        n.entries = u32::try_from(self.size(id, SizeMode::Count)).unwrap_or(u32::MAX);
        n
    }

    /// The in-memory scan, if this is it (`None`: a read-only tree).
    fn scan(&self) -> Option<&Tree> {
        None
    }

    /// The scan's id of an entry (and of a removed row of a comparison), if this is the scan.
    fn scan_id(_id: Self::Id) -> Option<NodeId> {
        None
    }

    /// The entry of a scan's id, if this is the scan.
    fn from_scan_id(_id: NodeId) -> Option<Self::Id> {
        None
    }

    /// Damage met reading the tree since the last call, worded (a tree read from a file).
    fn new_damage(&self) -> Option<String> {
        None
    }
}

/// An ncdu 2 binary export read on demand (`hogs i --import x.ncdu`).
impl<S: ReadAt> Shown for LazyTree<S> {
    fn new_damage(&self) -> Option<String> {
        LazyTree::new_damage(self)
    }
}

impl Shown for Tree {
    #[inline]
    fn node(&self, id: NodeId) -> Node {
        Tree::node(self, id)
    }

    fn scan(&self) -> Option<&Tree> {
        Some(self)
    }

    #[inline]
    fn scan_id(id: NodeId) -> Option<NodeId> {
        Some(id)
    }

    #[inline]
    fn from_scan_id(id: NodeId) -> Option<NodeId> {
        Some(id)
    }
}

/// The in-memory tree through sparse ids, shown read-only (as a file-backed tree is).
#[cfg(test)]
impl Shown for crate::tree::Sparse<'_> {}

/// The old scan's node of a removed row of a comparison (see [`super::diff`]); `None` for an
/// entry of the tree shown (every entry of a read-only tree).
pub fn removed<T: Shown>(id: T::Id) -> Option<NodeId> {
    T::scan_id(id).and_then(super::diff::removed_of)
}

/// Why the keys that change the disk or read it again do nothing on a read-only tree.
pub const READ_ONLY: &str = "read-only: an export";
