//! What both backends ask the same way: the calls every Unix has (openat, fstatat,
//! faccessat, getrlimit, getrusage), through rustix where it has them.

use std::ffi::CStr;
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::fs::{AtFlags, Mode, OFlags, CWD};

use super::{Errno, Meta, Times};

pub(super) fn at_flags(follow: bool) -> AtFlags {
    if follow {
        AtFlags::empty()
    } else {
        AtFlags::SYMLINK_NOFOLLOW
    }
}

pub(super) fn dir_flags(follow: bool) -> OFlags {
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

/// Another thread may be about to close an fd: wait a little rather than lose a directory.
pub(super) fn retry_when_out_of_fds<T>(
    mut f: impl FnMut() -> Result<T, Errno>,
) -> Result<T, Errno> {
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

/// Blocks (512 bytes) this process has read from a device so far: how a walk tells metadata
/// read from disk from metadata in the page cache without trusting timing (a loaded machine
/// makes cached reads slow; a disk read is counted even when it is quick). getrusage is POSIX;
/// `ru_inblock` is counted by Linux, macOS and the BSDs. 0 where the
/// kernel keeps no I/O accounting, and on filesystems with no block device (NFS, FUSE).
#[allow(unsafe_code)] // rustix has no getrusage; the libc call is the whole of it
pub fn blocks_read() -> u64 {
    let mut usage = MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a whole `struct rusage` into the pointer it is given.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } != 0 {
        return 0;
    }
    // SAFETY: zero-initialised and, on success, filled by the kernel.
    let usage = unsafe { usage.assume_init() };
    usage.ru_inblock.max(0) as u64
}

/// Whether `ulimit -v` (RLIMIT_AS) bounds the process's address space. The walk then takes
/// no room ahead for its arrays: reserved but untouched, it costs no memory, but it counts
/// against that limit, and a reservation that fits leaves too little for what is really
/// allocated later (`hogs -d 0` on 21k entries under `ulimit -v 61440` died of an
/// allocation failure).
/// (OpenBSD has no RLIMIT_AS: its `ulimit -v` is RLIMIT_DATA, which reserving does not touch.)
pub fn address_space_limited() -> bool {
    #[cfg(not(target_os = "openbsd"))]
    let limited = rustix::process::getrlimit(rustix::process::Resource::As)
        .current
        .is_some();
    #[cfg(target_os = "openbsd")]
    let limited = false;
    limited
}

/// How many parent directories the walk may hold open: half of what `ulimit -n` leaves after
/// a small reserve, so the worker threads (a directory being read each, and a parent reopened
/// by path) and the process's own files always have room.
pub fn parent_fd_budget() -> usize {
    let soft = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(u64::MAX);
    (soft.saturating_sub(16) / 2).min(1 << 20) as usize
}

/// Opens a file by its path (relative to the working directory) for reading its extents:
/// never following a symlink, never blocking on a FIFO or a device.
pub fn open_file_path(path: &[u8]) -> Result<OwnedFd, Errno> {
    let flags = rustix::fs::OFlags::RDONLY
        | rustix::fs::OFlags::NOFOLLOW
        | rustix::fs::OFlags::CLOEXEC
        | rustix::fs::OFlags::NONBLOCK;
    retry_when_out_of_fds(|| {
        rustix::fs::openat(rustix::fs::CWD, path, flags, rustix::fs::Mode::empty())
    })
}

/// [`open_file_path`] for a file of an open directory.
pub fn open_file_at(dir: BorrowedFd<'_>, name: &[u8]) -> Result<OwnedFd, Errno> {
    let flags = rustix::fs::OFlags::RDONLY
        | rustix::fs::OFlags::NOFOLLOW
        | rustix::fs::OFlags::CLOEXEC
        | rustix::fs::OFlags::NONBLOCK;
    retry_when_out_of_fds(|| rustix::fs::openat(dir, name, flags, rustix::fs::Mode::empty()))
}

/// Whether descriptor 1 was closed when the process started (`hogs >&-`). The start opens
/// /dev/null in its place so that no file of the run becomes "stdout", and std's stdout
/// takes EBADF as success: without this, output written nowhere would look written.
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Records that descriptor 1 was closed at the start (see [`stdout_closed`]).
pub fn note_stdout_closed() {
    STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether descriptor 1 was closed at the start: what is written to stdout is lost.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether a process with this id may still be running (it exists, or it is not ours to
/// signal): false only when the kernel says there is none.
pub fn process_exists(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    !matches!(rustix::process::test_kill_process(pid), Err(Errno::SRCH))
}
