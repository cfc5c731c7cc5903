//! What the walk knows of the filesystems it reads, to read them the cheaper way: which
//! device is ext4 (its listings mark their end), which is a network filesystem (its entries
//! are stat'ed from what the client holds), and whether the process may search any directory.

use std::os::fd::BorrowedFd;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::sys;

/// No device: the hints hold none.
const NO_DEV: u64 = u64::MAX;

pub(super) struct FsHints {
    /// Device of the root being read when it is on ext4, whose listings mark their end
    /// (`sys::read_entries_until`); `NO_DEV` otherwise.
    ext4_dev: AtomicU64,
    /// Device of the network filesystem the walk is on (its root's, or the last one it
    /// entered below it), whose entries are stat'ed from what the client holds
    /// (`sys::stat_at_cached`); `NO_DEV` when none.
    remote_dev: AtomicU64,
    /// -f, and the process may search any directory ([`sys::searches_everywhere`]): a
    /// directory that opens can be counted without a look at its permission bits, so it
    /// needs no stat unless it is a mount point (see `Walker::may_skip_stat`).
    searches_everywhere: bool,
}

impl FsHints {
    /// `ask_search`: -f with nothing that needs a directory's own stat, the one case where
    /// searching everywhere saves a stat (a capget the size modes do not need at start-up).
    pub(super) fn new(ask_search: bool) -> FsHints {
        FsHints {
            ext4_dev: AtomicU64::new(NO_DEV),
            remote_dev: AtomicU64::new(NO_DEV),
            searches_everywhere: ask_search && sys::searches_everywhere(),
        }
    }

    /// A root directory on `dev` is read next (`fd`: it, open when it was opened by path).
    pub(super) fn enter_root(&self, fd: Option<BorrowedFd<'_>>, dev: u64) {
        let ext4 = match fd {
            Some(fd) if sys::marks_listing_end(fd) => dev,
            _ => NO_DEV,
        };
        self.ext4_dev.store(ext4, Ordering::Relaxed);
        let remote = match fd {
            Some(fd) if sys::is_remote(fd) => dev,
            _ => NO_DEV,
        };
        self.remote_dev.store(remote, Ordering::Relaxed);
    }

    /// A directory whose own stat says `dev`, below a parent on `parent_dev`: a mount point
    /// of a network filesystem below a local one is where the walk goes on remote.
    pub(super) fn entered(&self, fd: BorrowedFd<'_>, dev: u64, parent_dev: u64) {
        if dev != parent_dev && sys::is_remote(fd) {
            self.remote_dev.store(dev, Ordering::Relaxed);
        }
    }

    /// Whether listings on `dev` mark their end (ext4).
    pub(super) fn is_ext4(&self, dev: u64) -> bool {
        dev == self.ext4_dev.load(Ordering::Relaxed)
    }

    /// Whether `dev` is the network filesystem the walk is on.
    pub(super) fn is_remote(&self, dev: u64) -> bool {
        dev == self.remote_dev.load(Ordering::Relaxed)
    }

    /// Whether the process may search any directory (asked only in -f).
    pub(super) fn searches_everywhere(&self) -> bool {
        self.searches_everywhere
    }
}
