//! Where a streamed walk ([`super::walk_streamed`]) puts its entries instead of a tree.

use super::placed::Facts;
use crate::tree::{Node, NodeId};

/// Takes a walk's entries directory by directory, as each is listed, and closes each
/// directory once its own listing and all its subdirectories are done: it holds the
/// directories still being walked, not the tree. Ids are the sink's own: a directory's is
/// valid from the listing that names it (or [`DirSink::root`]) until its [`DirSink::done`].
/// Called from every thread of the walk.
pub trait DirSink: Sync {
    /// The path given, as typed, and what its stat gave: its id.
    fn root(&self, path: &[u8], node: Node, facts: &Facts) -> NodeId;

    /// The entries of directory `dir`, in order: nodes in chunks, each chunk's names in its
    /// buffer (see [`Node::with_local_name`]), `facts` one per node, `failed` the names whose
    /// stat failed. `ids` is given one id per node: a directory's (to be walked, or `done`
    /// at once), `NodeId::MAX` for the others.
    fn listed(
        &self,
        dir: NodeId,
        chunks: &[(&[Node], &[u8])],
        facts: &[Facts],
        failed: &[(Box<[u8]>, i32)],
        ids: &mut Vec<NodeId>,
    );

    /// A directory's own sizes and facts, from the stat its own task made.
    fn set_own(&self, dir: NodeId, disk: u64, apparent: u64, mtime: i64, facts: &Facts);

    /// Marks a directory (`tree::flags`: unreadable, on another filesystem).
    fn set_flag(&self, dir: NodeId, flag: u8);

    /// The path of an open directory, from the root as typed.
    fn path(&self, dir: NodeId) -> Vec<u8>;

    /// The task of directory `dir` is over (listed or not).
    fn done(&self, dir: NodeId);
}
