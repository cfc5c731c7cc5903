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
//! - and a few facts of the process (CPUs, limits, blocks read, [`prefault`]).
//!
//! Everything below a root goes through the parent directory's fd and the bare entry name, so
//! the kernel never resolves a long path (that costs O(depth) per call and fails past PATH_MAX).
//!
//! `linux` implements it with getdents64, openat2 and Linux's process calls. Another backend
//! (openat/fdopendir/readdir/fstatat, through rustix's portable `Dir` and `statat`) would sit
//! beside it as `portable`, chosen by `cfg` below, and answer the Linux-only questions
//! conservatively: no listing marks its end, no open vouches for its mount, no listing splits.
//! The choice is made at compile time: every call is a direct call, inlined as before.

use rustix::fs::{FileType, Stat};
pub use rustix::io::Errno;

#[cfg(target_os = "linux")]
mod linux;
// Directories: open one relative to its parent (or by path), list its entries with their
// types, stat an entry relative to it, tell filesystems apart.
#[cfg(target_os = "linux")]
pub use linux::{
    fstat, fstat_times, is_hash_indexed, marks_listing_end, may_search, open_dir_at,
    open_dir_long_path, open_dir_on_same_mount, open_dir_path, read_entries, read_entries_until,
    read_span, reopen_dir_at, stat_at, stat_at_times, stat_path, stat_path_times, HASH_END,
};
// The process: capabilities, CPUs and affinity, limits, blocks read, memory.
#[cfg(target_os = "linux")]
pub use linux::{
    address_space_limited, blocks_read, one_malloc_arena, parent_fd_budget, prefault,
    searches_everywhere, usable_cpus, CpuHome,
};
// Files: where their bytes are on disk (`--extents`).
#[cfg(target_os = "linux")]
pub use linux::{
    btrfs_extents, btrfs_fsid, fiemap, is_btrfs, never_shares_blocks, open_file_at, open_file_path,
};

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
    /// `disk_num_bytes` at `disk_bytenr` (0: a hole).
    Regular {
        logical: u64,
        disk_bytenr: u64,
        disk_num_bytes: u64,
        num_bytes: u64,
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
