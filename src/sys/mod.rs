//! The system calls of a walk, below everything else of hogs: this module imports nothing of
//! the crate (`crate::vocab`, a leaf, is the most it may). Walk, tree and the views name what
//! they need from here.
//!
//! The interface is what a directory walk asks of an operating system:
//! - open a directory relative to its parent's fd ([`open_dir_at`]), or by a path
//!   ([`open_dir_path`], [`open_dir_long_path`]);
//! - list its entries with their types and inode numbers ([`read_entries`], [`read_span`]);
//! - stat an entry relative to its directory ([`stat_at`], [`fstat`]) and ask whether names
//!   in it can be looked up ([`may_search`]);
//! - tell filesystems apart ([`marks_listing_end`], [`open_dir_on_same_mount`]);
//! - and a few facts of the process (CPUs, limits, blocks read, [`prefault`], whether stdout
//!   was closed at the start, whether a process id is running).
//!
//! Everything below a root goes through the parent directory's fd and the bare entry name, so
//! the kernel never resolves a long path (that costs O(depth) per call and fails past PATH_MAX).
//!
//! Three modules answer it, and this file is the one place that says which is built:
//! - `posix`: what every Unix has (openat, fstatat, faccessat, getrlimit, getrusage), for
//!   both backends;
//! - `linux` (only `cfg(target_os = "linux")`, the default there): statx without a sync on
//!   network filesystems (`AT_STATX_DONT_SYNC`: the client answers from what it has),
//!   getdents64 into a buffer of our own and its ext4 positions (a listing ended without its empty read, a huge one
//!   split between threads), openat2's RESOLVE_NO_XDEV, capabilities, CPU affinity,
//!   mallopt, MADV_POPULATE_WRITE;
//! - `portable` (every other Unix, and Linux with the `portable-walk` feature, which is how
//!   it is tested against du): listings read with rustix's `Dir` (fdopendir/readdir), and
//!   the conservative answer to what only Linux can say: no listing marks its end, no open
//!   vouches for its mount, no listing splits, no CPU affinity, no pages faulted in ahead.
//!
//! Both backends export the same names (listed once below), so each build checks that its
//! backend has all of them. The choice is made at compile time: every call is a direct call,
//! inlined as before, with no dispatch.

use rustix::fs::{FileType, Stat};
pub use rustix::io::Errno;

#[cfg(target_os = "linux")]
mod extents_linux;
#[cfg(not(target_os = "linux"))]
mod extents_none;
mod posix;

#[cfg(all(target_os = "linux", not(feature = "portable-walk")))]
mod linux;
#[cfg(all(target_os = "linux", not(feature = "portable-walk")))]
use linux as backend;

#[cfg(any(not(target_os = "linux"), feature = "portable-walk"))]
mod portable;
#[cfg(any(not(target_os = "linux"), feature = "portable-walk"))]
use portable as backend;

// Directories: open one relative to its parent (or by path), stat an entry relative to it,
// ask whether names in it can be looked up. The same on every Unix.
pub use posix::{
    fstat, fstat_times, may_search, open_dir_at, open_dir_long_path, open_dir_path, stat_at,
    stat_at_times, stat_path, stat_path_times,
};
// On a network filesystem (`is_remote`), the same stats from what the client holds: on
// Linux statx with AT_STATX_DONT_SYNC (`linux/stat.rs`); elsewhere the stats above.
pub use backend::{
    fstat_cached, fstat_times_cached, is_remote, stat_at_cached, stat_at_times_cached,
};
// Directories: list one's entries with their types, tell filesystems apart (and, on Linux,
// split a huge listing). What the backend says.
pub use backend::{
    is_hash_indexed, marks_listing_end, open_dir_on_same_mount, read_entries, read_entries_until,
    read_span, reopen_dir_at, HASH_END,
};
// The process: limits, blocks read, a closed stdout, other processes (POSIX); capabilities,
// CPUs and affinity, memory (what the backend says).
pub use backend::{one_malloc_arena, prefault, searches_everywhere, usable_cpus, CpuHome};
pub use posix::{
    address_space_limited, blocks_read, note_stdout_closed, open_file_at, open_file_path,
    parent_fd_budget, process_exists, stdout_closed,
};

/// Whether one directory may be reached by two paths in one walk without a symlink: on macOS
/// a firmlink (`/Users`, `/Applications`, `/private`… on the read-only system volume) is the
/// same directory as its target under `/System/Volumes/Data` (same device, same inode). There
/// every directory is claimed by device and inode, as with several arguments or -L, so that
/// a walk of `/` counts each once (ncdu's `--exclude-firmlinks` leaves the firmlinks out;
/// here the path reached first keeps its contents and the other is not read again, as a
/// repeated argument is not). Elsewhere it is off: the claims cost a hash set insert per
/// directory, and the Linux walk is left as it was.
pub const DIRS_MAY_REPEAT: bool = cfg!(target_os = "macos");

/// The major number of a device: 0 for a filesystem with no block device of its own (tmpfs,
/// NFS, FUSE, overlayfs, btrfs), whose reads may not be counted as this process's.
#[allow(clippy::unnecessary_cast)] // `dev_t` is u64 on Linux and the BSDs, i32 on macOS
pub fn major(dev: u64) -> u32 {
    rustix::fs::major(dev as _)
}

// Files: where their bytes are on disk (`--extents`): Linux's ioctls, with either walker
// backend.
#[cfg(target_os = "linux")]
pub use extents_linux::{btrfs_extents, btrfs_fsid, fiemap, is_btrfs, never_shares_blocks};
#[cfg(not(target_os = "linux"))]
pub use extents_none::{btrfs_extents, btrfs_fsid, fiemap, is_btrfs, never_shares_blocks};

/// What an entry is, from `d_type` or `st_mode` (the tree stores it as two bits).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum EntryKind {
    Dir = 0,
    File = 1,
    Symlink = 2,
    Other = 3,
}

/// What the walk keeps from a stat.
#[derive(Copy, Clone, Debug)]
pub struct Meta {
    pub dev: u64,
    pub ino: u64,
    pub nlink: u64,
    pub size: u64,
    pub blocks: u64,
    pub mtime: i64,
    pub kind: EntryKind,
    pub uid: u32,
    pub gid: u32,
    pub mode: u32,
}

/// Access and change times (seconds since the epoch). Not part of [`Meta`], which is held
/// for every entry of a directory while it is read: only the walks that keep
/// the tree's `StatExtra` ask for them (`*_times` functions).
#[derive(Copy, Clone, Debug, Default)]
pub struct Times {
    pub atime: i64,
    pub ctime: i64,
}

impl Times {
    #[allow(clippy::unnecessary_cast)]
    fn from_stat(st: &Stat) -> Times {
        Times {
            atime: st.st_atime as i64,
            ctime: st.st_ctime as i64,
        }
    }
}

impl Meta {
    // `struct stat` field widths differ between targets (nlink is u32 on aarch64),
    // so the casts are only no-ops on some of them.
    #[allow(clippy::unnecessary_cast)]
    fn from_stat(st: &Stat) -> Meta {
        Meta {
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
            nlink: st.st_nlink as u64,
            size: st.st_size.max(0) as u64,
            blocks: st.st_blocks as u64,
            mtime: st.st_mtime as i64,
            kind: kind_of(FileType::from_raw_mode(st.st_mode as _)),
            uid: st.st_uid as u32,
            gid: st.st_gid as u32,
            mode: st.st_mode as u32,
        }
    }

    pub fn disk_bytes(&self) -> u64 {
        self.blocks.saturating_mul(512)
    }
}

/// The entry kind a `d_type` names; `None` for `DT_UNKNOWN` (the caller must stat).
pub fn kind_of_dirent(t: FileType) -> Option<EntryKind> {
    (t != FileType::Unknown).then(|| kind_of(t))
}

fn kind_of(t: FileType) -> EntryKind {
    match t {
        FileType::Directory => EntryKind::Dir,
        FileType::RegularFile => EntryKind::File,
        FileType::Symlink => EntryKind::Symlink,
        _ => EntryKind::Other,
    }
}

/// One extent of a file as FIEMAP gives it (`struct fiemap_extent`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Extent {
    /// Offset in the file.
    pub logical: u64,
    /// Address on the device (on btrfs: in the filesystem's address space).
    pub physical: u64,
    pub length: u64,
    /// `FIEMAP_EXTENT_*`: see [`extent_flags`].
    pub flags: u32,
}

/// The flags of an [`Extent`] (`FIEMAP_EXTENT_*`).
pub mod extent_flags {
    /// The location is not known yet (also set with DELALLOC).
    pub const UNKNOWN: u32 = 0x2;
    /// Delayed allocation: no address yet.
    pub const DELALLOC: u32 = 0x4;
    /// Not stored as is (compressed): `length` is the data's, not what it takes on disk.
    pub const ENCODED: u32 = 0x8;
    /// Stored in the filesystem's metadata, with no address of its own.
    pub const DATA_INLINE: u32 = 0x200;
    /// Shared with another file or snapshot (reflink, deduplication).
    pub const SHARED: u32 = 0x2000;
}

/// One file extent item of a btrfs inode (what `compsize` reads).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BtrfsExtent {
    /// Data stored in the metadata item itself: `disk` bytes (compressed if it is).
    Inline { disk: u64 },
    /// A reference to `num_bytes` at file offset `logical` into the extent of
    /// `disk_num_bytes` at `disk_bytenr` (0: a hole), `offset` bytes into its data.
    Regular {
        logical: u64,
        disk_bytenr: u64,
        disk_num_bytes: u64,
        offset: u64,
        num_bytes: u64,
        compressed: bool,
    },
}

/// The part of a listing one reader takes (see [`read_span`]).
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// The position the directory's fd is at: 0, or where an earlier span stopped.
    pub from: u64,
    /// Entries at this position or past it are left to another reader.
    pub end: u64,
    /// Stop once the entries of one getdents64 are taken: the caller decides, from how
    /// far that read got, whether to split the rest (see `Walker::split_plan`).
    pub one_read: bool,
}

impl Span {
    pub const WHOLE: Span = Span {
        from: 0,
        end: u64::MAX,
        one_read: false,
    };
}

/// Where a [`read_span`] stopped.
#[derive(Clone, Copy, Debug)]
pub struct Stopped {
    /// The position of the next entry (the last entry's `d_off`).
    pub next: u64,
    /// A `one_read` span stopped with entries left to read.
    pub more: bool,
    /// Entries read (`.` and `..` included).
    pub taken: usize,
}

/// The text of an errno, without std's " (os error N)" suffix: `Permission denied`.
pub fn describe(errno: i32) -> String {
    let s = std::io::Error::from_raw_os_error(errno).to_string();
    match s.rfind(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}
