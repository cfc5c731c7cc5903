//! The Linux backend of [`crate::sys`]: what only Linux has (statx, openat2's RESOLVE_NO_XDEV,
//! getdents64 into a buffer of our own and its ext4 positions, capabilities, CPU affinity,
//! mallopt, MADV_POPULATE_WRITE), through rustix's raw calls and libc where rustix has
//! nothing. The calls every Unix has are in `super::posix`.

use std::ffi::CStr;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{Mode, ResolveFlags};

use super::posix::{dir_flags, retry_when_out_of_fds};
use super::Errno;

mod listing;
mod process;
mod stat;

pub use listing::{read_entries, read_entries_until, read_span, HASH_END};
pub use process::{one_malloc_arena, prefault, usable_cpus, CpuHome};
pub use stat::{fstat_cached, fstat_times_cached, is_remote, stat_at_cached, stat_at_times_cached};

/// The kernel refused openat2 (before Linux 5.6, or a seccomp filter that does not know it):
/// every directory is opened with openat and stat'ed instead.
static NO_OPENAT2: AtomicBool = AtomicBool::new(false);

/// Opens a directory below `dir` (never following a symlink) only if it is on the same mount
/// as `dir`: openat2 with RESOLVE_NO_XDEV, which fails with EXDEV on a mount point (a bind
/// mount included). `Ok(None)` there, or where openat2 is refused: the caller opens it as
/// usual and stats it, to learn its device. (-f takes a directory's device from its parent
/// and its inode from the parent's listing, so that it stats nothing but mount points.)
pub fn open_dir_on_same_mount(dir: BorrowedFd<'_>, name: &CStr) -> Result<Option<OwnedFd>, Errno> {
    if NO_OPENAT2.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let opened = retry_when_out_of_fds(|| {
        rustix::fs::openat2(
            dir,
            name,
            dir_flags(false),
            Mode::empty(),
            ResolveFlags::NO_XDEV,
        )
    });
    match opened {
        Ok(fd) => Ok(Some(fd)),
        Err(Errno::XDEV) => Ok(None),
        Err(Errno::NOSYS | Errno::PERM | Errno::INVAL | Errno::TOOBIG) => {
            NO_OPENAT2.store(true, Ordering::Relaxed);
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Whether this process may search every directory whatever its permission bits
/// (CAP_DAC_READ_SEARCH or CAP_DAC_OVERRIDE, as root has): then a directory that was opened
/// can be listed and its names looked up, with no `faccessat` to ask.
pub fn searches_everywhere() -> bool {
    use rustix::thread::CapabilitySet;
    rustix::thread::capabilities(None).is_ok_and(|c| {
        c.effective
            .intersects(CapabilitySet::DAC_READ_SEARCH | CapabilitySet::DAC_OVERRIDE)
    })
}

/// Whether a directory is on ext4 (or ext2/3, the same driver), whose listing can end without
/// the empty read that otherwise tells the end (see [`read_entries_until`]).
pub fn marks_listing_end(dir: BorrowedFd<'_>) -> bool {
    const EXT4_SUPER_MAGIC: u64 = 0xEF53;
    #[allow(clippy::unnecessary_cast)]
    rustix::fs::fstatfs(dir).is_ok_and(|s| s.f_type as u64 == EXT4_SUPER_MAGIC)
}

/// Whether a directory's listing is ordered by hash (ext4's `FS_INDEX_FL`, `lsattr`'s `I`):
/// only then do positions split it (a linear ext4 directory's are byte offsets).
pub fn is_hash_indexed(dir: BorrowedFd<'_>) -> bool {
    const FS_INDEX_FL: u32 = 0x1000;
    rustix::fs::ioctl_getflags(dir).is_ok_and(|f| f.bits() & FS_INDEX_FL != 0)
}

/// The directory opened again (its own read position and listing state, as a second reader
/// needs), at position `pos`.
pub fn reopen_dir_at(dir: BorrowedFd<'_>, pos: u64) -> Result<OwnedFd, Errno> {
    let fd = rustix::fs::openat(dir, c".", dir_flags(false), Mode::empty())?;
    rustix::fs::seek(&fd, rustix::fs::SeekFrom::Start(pos))?;
    Ok(fd)
}
