//! `--extents` where no extent map can be read (every target but Linux): the files are
//! opened as on Linux, and asking for their extents says the call is not supported, so each
//! file keeps its `st_blocks` (what du counts) — a clone or a compressed file counts whole.

use std::os::fd::BorrowedFd;

use super::{BtrfsExtent, Errno, Extent};

pub fn fiemap(_fd: BorrowedFd<'_>, _out: &mut Vec<Extent>) -> Result<(), Errno> {
    Err(Errno::NOTSUP)
}

pub fn btrfs_extents(
    _fd: BorrowedFd<'_>,
    _ino: u64,
    _out: &mut Vec<BtrfsExtent>,
) -> Result<(), Errno> {
    Err(Errno::NOTSUP)
}

pub fn btrfs_fsid(_fd: BorrowedFd<'_>) -> Result<u128, Errno> {
    Err(Errno::NOTSUP)
}

/// No btrfs here.
pub fn is_btrfs(_fd: BorrowedFd<'_>) -> bool {
    false
}

/// No extent can be read, so none is looked for: every file counts its `st_blocks`.
pub fn never_shares_blocks(_dir: BorrowedFd<'_>) -> bool {
    true
}
