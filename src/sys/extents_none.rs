//! `--extents` where no extent map can be read (every target but Linux): the files are
//! opened as on Linux, and asking for their extents says the call is not supported, so each
//! file keeps its `st_blocks` (what du counts) — a clone or a compressed file counts whole.

use std::os::fd::{BorrowedFd, OwnedFd};

use rustix::fs::{Mode, OFlags, CWD};

use super::posix::retry_when_out_of_fds;
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

/// Opens a file by its path for reading its extents: never following a symlink, never
/// blocking on a FIFO or a device.
pub fn open_file_path(path: &[u8]) -> Result<OwnedFd, Errno> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    retry_when_out_of_fds(|| rustix::fs::openat(CWD, path, flags, Mode::empty()))
}

/// [`open_file_path`] for a file of an open directory.
pub fn open_file_at(dir: BorrowedFd<'_>, name: &[u8]) -> Result<OwnedFd, Errno> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    retry_when_out_of_fds(|| rustix::fs::openat(dir, name, flags, Mode::empty()))
}
