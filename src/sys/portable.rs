//! The portable backend of [`crate::sys`]: what Linux alone answers is answered here with
//! what every Unix has, and the questions only Linux can answer get the conservative answer.
//! Built on macOS and the BSDs, and on Linux with the `portable-walk` feature (so that it is
//! tested against GNU du there too).
//!
//! - A listing is read with rustix's `Dir` (`fdopendir`/`readdir` through libc; on Linux
//!   getdents64 into a buffer of glibc readdir's size), whole, by one thread: no
//!   listing marks its end and none splits ([`marks_listing_end`], [`is_hash_indexed`]).
//! - No open vouches for its mount ([`open_dir_on_same_mount`]): every subdirectory of -f is
//!   stat'ed, as a mount point is on Linux.
//! - No process is taken to search everywhere ([`searches_everywhere`]): a directory with
//!   unusual permission bits is asked with `faccessat`.
//! - Threads go where the scheduler puts them ([`CpuHome`]); no pages are faulted in ahead
//!   ([`prefault`]); malloc is left as it is ([`one_malloc_arena`]).

use std::ffi::CStr;
use std::os::fd::{BorrowedFd, OwnedFd};

#[cfg(not(target_os = "linux"))]
use rustix::fs::Dir;
use rustix::fs::FileType;

use super::posix::retry_when_out_of_fds;
// no statx here: a network filesystem's stats are the usual ones
pub use super::posix::{
    fstat as fstat_cached, fstat_times as fstat_times_cached, stat_at as stat_at_cached,
    stat_at_times as stat_at_times_cached,
};
use super::{Errno, Span, Stopped};

/// Whether a directory is on a network filesystem: no stat answers from the client's cache
/// here, so it makes no difference.
pub fn is_remote(_dir: BorrowedFd<'_>) -> bool {
    false
}

/// Calls `f(name, d_type, d_ino)` for every entry but `.` and `..`.
pub fn read_entries(dir: &OwnedFd, f: impl FnMut(&CStr, FileType, u64)) -> Result<(), Errno> {
    read_span(dir, false, Span::WHOLE, f).map(|_| ())
}

/// [`read_entries`]: no filesystem marks the end of a listing here.
pub fn read_entries_until(
    dir: &OwnedFd,
    _ext4: bool,
    f: impl FnMut(&CStr, FileType, u64),
) -> Result<(), Errno> {
    read_entries(dir, f)
}

/// The end of the positions of a listing that splits: none does here (every listing is read
/// whole, and [`read_span`] says it stopped at position 0).
pub const HASH_END: u64 = u64::MAX;

/// The whole listing, whatever the span asks: with no position to split at, a listing is
/// read by one thread, and the caller is told it stopped at 0 with nothing more to read
/// (which `Walker::split_plan` takes as "do not split").
///
/// The directory stream is made on a duplicate of `dir` (`fdopendir` takes its fd for its
/// own): not on `openat(dir, ".")`, which needs search permission, while a directory that
/// may be read but not searched is still listed, as du lists it. The duplicate shares the
/// read position of `dir`: the stream is rewound first, so that a directory listed before
/// (the delete lists the one it empties again) is listed whole.
pub fn read_span(
    dir: &OwnedFd,
    _ext4: bool,
    span: Span,
    mut f: impl FnMut(&CStr, FileType, u64),
) -> Result<Stopped, Errno> {
    debug_assert_eq!(span.from, 0, "a portable listing is never split");
    let fd = retry_when_out_of_fds(|| rustix::io::fcntl_dupfd_cloexec(dir, 0))?;
    let mut taken = 0;
    let mut each = |name: &CStr, t: FileType, ino: u64| {
        taken += 1;
        let b = name.to_bytes();
        if b != b"." && b != b".." {
            f(name, t, ino);
        }
    };
    read_all(fd, &mut each)?;
    Ok(Stopped {
        next: 0,
        more: false,
        taken,
    })
}

/// Every entry of the listing of `fd`, from its start, in as few reads as readdir makes.
/// On Linux rustix's `Dir` asks getdents64 for 768 bytes at first (about 30 names): a
/// directory renamed in its parent between two such reads may be met under neither name,
/// which a listing in one read never shows. glibc's readdir, what du reads with, asks for
/// 32 KiB: so does this.
#[cfg(target_os = "linux")]
fn read_all(fd: OwnedFd, each: &mut dyn FnMut(&CStr, FileType, u64)) -> Result<(), Errno> {
    use std::mem::MaybeUninit;
    rustix::fs::seek(&fd, rustix::fs::SeekFrom::Start(0))?;
    let mut buf = vec![MaybeUninit::<u8>::uninit(); 32 * 1024];
    let mut entries = rustix::fs::RawDir::new(&fd, &mut buf);
    while let Some(entry) = entries.next() {
        let entry = entry?;
        each(entry.file_name(), entry.file_type(), entry.ino());
    }
    Ok(())
}

/// Every entry of the listing of `fd`, from its start: readdir through libc.
#[cfg(not(target_os = "linux"))]
fn read_all(fd: OwnedFd, each: &mut dyn FnMut(&CStr, FileType, u64)) -> Result<(), Errno> {
    let mut stream = Dir::new(fd)?;
    stream.rewind();
    while let Some(entry) = stream.read() {
        let entry = entry?;
        each(entry.file_name(), entry.file_type(), entry.ino());
    }
    Ok(())
}

/// Never on the same mount for sure: the caller opens the directory as usual and stats it.
pub fn open_dir_on_same_mount(
    _dir: BorrowedFd<'_>,
    _name: &CStr,
) -> Result<Option<OwnedFd>, Errno> {
    Ok(None)
}

/// Not asked: a directory whose permission bits lack an x bit gets its `faccessat`.
pub fn searches_everywhere() -> bool {
    false
}

/// No listing ends early: every listing is read to the empty read that ends it.
pub fn marks_listing_end(_dir: BorrowedFd<'_>) -> bool {
    false
}

/// No listing is split (see [`read_span`]).
pub fn is_hash_indexed(_dir: BorrowedFd<'_>) -> bool {
    false
}

/// Not called (no listing is split); opens the directory again all the same.
pub fn reopen_dir_at(dir: BorrowedFd<'_>, pos: u64) -> Result<OwnedFd, Errno> {
    if pos != 0 {
        return Err(Errno::INVAL);
    }
    rustix::fs::openat(
        dir,
        c".",
        super::posix::dir_flags(false),
        rustix::fs::Mode::empty(),
    )
}

/// Nothing to tune outside glibc.
pub fn one_malloc_arena() {}

/// The CPUs std says this process may use (its affinity and, on Linux, its cgroup quota).
pub fn usable_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Where threads start: wherever the scheduler puts them.
#[derive(Clone, Copy)]
pub struct CpuHome;

impl CpuHome {
    pub fn here() -> CpuHome {
        CpuHome
    }

    /// Runs `run` on a new thread.
    pub fn spawn_elsewhere(&self, run: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
        std::thread::Builder::new().spawn(run).map(drop)
    }
}

/// Pages are faulted in as they are first written.
pub fn prefault(_addr: usize, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The listing of a directory that may be read but not searched (mode 0o600) is read
    /// all the same (as root, every directory may be searched: the test shows nothing there).
    #[test]
    fn lists_a_directory_it_may_not_search() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = std::env::temp_dir().join(format!("hogs-portable-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(tmp.join("d")).expect("mkdir");
        for n in ["a", "b", "c"] {
            std::fs::write(tmp.join("d").join(n), b"x").expect("write");
        }
        let set = |mode| {
            std::fs::set_permissions(tmp.join("d"), std::fs::Permissions::from_mode(mode))
                .expect("chmod")
        };
        set(0o600);
        let fd = rustix::fs::openat(
            rustix::fs::CWD,
            tmp.join("d").as_path(),
            super::super::posix::dir_flags(false),
            rustix::fs::Mode::empty(),
        )
        .expect("open");
        let mut names = Vec::new();
        let read = read_entries(&fd, |n, _, _| names.push(n.to_bytes().to_vec()));
        set(0o700);
        let _ = std::fs::remove_dir_all(&tmp);
        assert!(read.is_ok());
        names.sort();
        assert_eq!(names, [b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
    }
}
