//! The Linux backend of [`crate::sys`]: rustix's raw calls (openat, openat2, fstatat,
//! getdents64) on directory fds, and libc where rustix has nothing.

use std::ffi::CStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{AtFlags, Mode, OFlags, ResolveFlags, CWD};

use super::{Errno, Meta, Times};

mod extents;
mod listing;
mod process;

pub use extents::{btrfs_extents, btrfs_fsid, fiemap};

pub use listing::{read_entries, read_entries_until, read_span, HASH_END};
pub use process::{
    address_space_limited, blocks_read, one_malloc_arena, parent_fd_budget, prefault, usable_cpus,
    CpuHome,
};

fn at_flags(follow: bool) -> AtFlags {
    if follow {
        AtFlags::empty()
    } else {
        AtFlags::SYMLINK_NOFOLLOW
    }
}

fn dir_flags(follow: bool) -> OFlags {
    let f = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK;
    if follow {
        f
    } else {
        f | OFlags::NOFOLLOW
    }
}

/// `fstatat(dir, name)`.
pub fn stat_at(dir: BorrowedFd<'_>, name: &CStr, follow: bool) -> Result<Meta, Errno> {
    rustix::fs::statat(dir, name, at_flags(follow)).map(|st| Meta::from_stat(&st))
}

/// Stat of a path as typed (relative to the working directory).
pub fn stat_path(path: &[u8], follow: bool) -> Result<Meta, Errno> {
    rustix::fs::statat(CWD, path, at_flags(follow)).map(|st| Meta::from_stat(&st))
}

/// [`stat_at`] with the access and change times.
pub fn stat_at_times(
    dir: BorrowedFd<'_>,
    name: &CStr,
    follow: bool,
) -> Result<(Meta, Times), Errno> {
    rustix::fs::statat(dir, name, at_flags(follow))
        .map(|st| (Meta::from_stat(&st), Times::from_stat(&st)))
}

/// [`stat_path`] with the access and change times.
pub fn stat_path_times(path: &[u8], follow: bool) -> Result<(Meta, Times), Errno> {
    rustix::fs::statat(CWD, path, at_flags(follow))
        .map(|st| (Meta::from_stat(&st), Times::from_stat(&st)))
}

/// [`fstat`] with the access and change times.
pub fn fstat_times(fd: BorrowedFd<'_>) -> Result<(Meta, Times), Errno> {
    rustix::fs::fstat(fd).map(|st| (Meta::from_stat(&st), Times::from_stat(&st)))
}

pub fn fstat(fd: BorrowedFd<'_>) -> Result<Meta, Errno> {
    rustix::fs::fstat(fd).map(|st| Meta::from_stat(&st))
}

/// Whether names in the open directory `dir` can be looked up (search permission). `perm`
/// are its permission bits if known: with every x bit set the answer is yes without a
/// syscall, so only unusual directories (0700, 0644…) pay one `faccessat`.
pub fn may_search(dir: BorrowedFd<'_>, perm: Option<u32>) -> bool {
    if perm.is_some_and(|p| p & 0o111 == 0o111) {
        return true;
    }
    rustix::fs::accessat(dir, c".", rustix::fs::Access::EXEC_OK, AtFlags::EACCESS).is_ok()
}

/// Opens a directory below `dir` for reading, never following a symlink unless asked.
pub fn open_dir_at(dir: BorrowedFd<'_>, name: &CStr, follow: bool) -> Result<OwnedFd, Errno> {
    retry_when_out_of_fds(|| rustix::fs::openat(dir, name, dir_flags(follow), Mode::empty()))
}

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

/// Another thread may be about to close an fd: wait a little rather than lose a directory.
fn retry_when_out_of_fds<T>(mut f: impl FnMut() -> Result<T, Errno>) -> Result<T, Errno> {
    let mut tries = 0;
    loop {
        match f() {
            Err(Errno::MFILE | Errno::NFILE) if tries < 200 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            r => return r,
        }
    }
}

/// Opens a directory by a path of any length: a path longer than the kernel takes at once is
/// opened piece by piece, each piece relative to the directory the previous one opened.
pub fn open_dir_long_path(path: &[u8], follow: bool) -> Result<OwnedFd, Errno> {
    const PIECE: usize = 3072;
    if path.len() < PIECE {
        return retry_when_out_of_fds(|| open_dir_path(path, follow));
    }
    let mut fd: Option<OwnedFd> = None;
    let mut rest = path;
    while !rest.is_empty() {
        let mut cut = rest.len().min(PIECE);
        if cut < rest.len() {
            // cut after a '/', so every piece is whole names
            cut = match rest[..cut].iter().rposition(|&b| b == b'/') {
                Some(i) if i > 0 => i + 1,
                _ => return Err(Errno::NAMETOOLONG),
            };
        }
        let piece = std::ffi::CString::new(&rest[..cut]).map_err(|_| Errno::INVAL)?;
        let next = match &fd {
            None => retry_when_out_of_fds(|| {
                rustix::fs::openat(CWD, piece.as_c_str(), dir_flags(follow), Mode::empty())
            })?,
            Some(dir) => open_dir_at(dir.as_fd(), piece.as_c_str(), follow)?,
        };
        fd = Some(next);
        rest = &rest[cut..];
    }
    fd.ok_or(Errno::NOENT)
}

/// Opens a root directory by the path as typed.
pub fn open_dir_path(path: &[u8], follow: bool) -> Result<OwnedFd, Errno> {
    rustix::fs::openat(CWD, path, dir_flags(follow), Mode::empty())
}

/// Whether a directory is on ext4 (or ext2/3, the same driver), whose listing can end without
/// the empty read that otherwise tells the end (see [`read_entries_until`]).
pub fn marks_listing_end(dir: BorrowedFd<'_>) -> bool {
    const EXT4_SUPER_MAGIC: u64 = 0xEF53;
    #[allow(clippy::unnecessary_cast)]
    rustix::fs::fstatfs(dir).is_ok_and(|s| s.f_type as u64 == EXT4_SUPER_MAGIC)
}

/// Whether the open file or directory is on btrfs.
pub fn is_btrfs(fd: BorrowedFd<'_>) -> bool {
    const BTRFS_SUPER_MAGIC: u64 = 0x9123_683E;
    #[allow(clippy::unnecessary_cast)]
    rustix::fs::fstatfs(fd).is_ok_and(|s| s.f_type as u64 == BTRFS_SUPER_MAGIC)
}

/// Opens a file by its path (relative to the working directory) for reading its extents:
/// never following a symlink, never blocking on a FIFO or a device.
pub fn open_file_path(path: &[u8]) -> Result<OwnedFd, Errno> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    retry_when_out_of_fds(|| rustix::fs::openat(CWD, path, flags, Mode::empty()))
}

/// Whether the filesystem of `dir` can neither share a block between files nor compress
/// one (ext2/3/4, tmpfs): there a file's `st_blocks` are what it holds, and its extents need
/// no reading.
pub fn never_shares_blocks(dir: BorrowedFd<'_>) -> bool {
    const EXT4_SUPER_MAGIC: u64 = 0xEF53;
    const TMPFS_MAGIC: u64 = 0x0102_1994;
    #[allow(clippy::unnecessary_cast)]
    rustix::fs::fstatfs(dir)
        .is_ok_and(|s| matches!(s.f_type as u64, EXT4_SUPER_MAGIC | TMPFS_MAGIC))
}

/// [`open_file_path`] for a file of an open directory.
pub fn open_file_at(dir: BorrowedFd<'_>, name: &[u8]) -> Result<OwnedFd, Errno> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    retry_when_out_of_fds(|| rustix::fs::openat(dir, name, flags, Mode::empty()))
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
