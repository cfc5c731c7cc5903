//! What a directory task is given: its own fd (a root), or its parent's and its name, with
//! the budget of parent fds that may stay open at once.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::Arc;

use super::fd_budget::FdPermit;
use super::Walker;
use crate::sys::{self, Errno};
use crate::tree::NodeId;

/// The names of a directory's subdirectories, and how to reach it to open them.
pub(super) struct OpenParent {
    pub(super) dir: ParentDir,
    /// NUL-terminated names of the subdirectories.
    pub(super) names: Box<[u8]>,
}

/// A directory whose subdirectories are still to be opened. Normally its fd stays open until
/// the last of them is; past the fd budget (see `FdBudget`) only its path is kept
/// and it is reopened by path for each of them, so a tree both wide and deep walks under any
/// `ulimit -n` (each open parent costs one fd until all its subdirectories are open).
pub(super) enum ParentDir {
    Fd {
        fd: OwnedFd,
        _permit: FdPermit,
    },
    /// Reopened by its path, rebuilt from the tree when needed (not stored: thousands of
    /// pending parents in a deep tree would hold a long path each).
    Path(NodeId),
}

/// How a directory task reaches its directory.
pub(super) enum DirHandle {
    /// A root: the walk opened it by its path.
    Root(OwnedFd),
    /// Not open yet: the task opens it by its name through its parent's fd (shared by the
    /// parent's subdirectories until the last one has opened itself).
    InParent {
        parent: Arc<OpenParent>,
        /// Offset of its NUL-terminated name in `parent.names`.
        name_off: u32,
    },
    /// The lone subdirectory of its parent, opened by the parent's task (which then closes
    /// its own fd: nothing to share).
    OpenedByParent(OpenedDir),
}

/// A subdirectory just opened (see `Walker::open_subdir`).
pub(super) struct OpenedDir {
    pub(super) fd: OwnedFd,
    /// The open vouches that it is on its parent's mount (so on its device): it needs no stat.
    pub(super) on_parent_mount: bool,
}

pub(super) struct DirJob {
    pub(super) node: NodeId,
    pub(super) handle: DirHandle,
    /// Device of this directory (size mode: from the parent's stat); 0 when not known yet.
    pub(super) dev: u64,
    /// Device of the root it belongs to (for -x).
    pub(super) root_dev: u64,
    /// The parent stat'ed this directory (and applied -x and the loop guard). Otherwise the
    /// task does it with one fstat of the fd it opened: an fstat needs no name lookup, where
    /// a stat from the parent and then an open would look the name up twice.
    pub(super) stat_done: bool,
    /// Permission bits of this directory when the parent stat'ed it.
    pub(super) perm: Option<u32>,
    /// May have so many entries that their stats are worth spreading over the pool (always
    /// true below a root: the pool runs those tasks anyway).
    pub(super) may_be_large: bool,
}

impl Walker<'_> {
    /// Runs `f` with an fd of `parent`: its own, or one opened by path for the call.
    pub(super) fn with_parent_fd<T>(
        &self,
        parent: &OpenParent,
        f: impl FnOnce(BorrowedFd<'_>) -> Result<T, Errno>,
    ) -> Result<T, Errno> {
        match &parent.dir {
            ParentDir::Fd { fd, .. } => f(fd.as_fd()),
            ParentDir::Path(node) => {
                let path = self.path_of(*node);
                let fd = sys::open_dir_long_path(&path, self.opts.follow_links)?;
                f(fd.as_fd())
            }
        }
    }
}
