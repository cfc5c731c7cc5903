//! Where a file's bytes are on disk: the FIEMAP ioctl (every filesystem that maps extents:
//! ext4, XFS, btrfs…) and, on btrfs, its tree search (the compressed size of an extent, which
//! FIEMAP does not give), as `compsize` reads it.
//!
//! The only `unsafe` of the crate outside `main`: two ioctls rustix does not wrap. Each call
//! passes a buffer this module owns, of the size the request number names, and reads back
//! only what the kernel says it filled.

#![allow(unsafe_code)]

use std::os::fd::{AsRawFd, BorrowedFd};

use super::Errno;
use crate::sys::{BtrfsExtent, Extent};

/// `FS_IOC_FIEMAP`: `_IOWR('f', 11, struct fiemap)` (the 32-byte header).
const FS_IOC_FIEMAP: u32 = 0xC020_660B;
/// `BTRFS_IOC_TREE_SEARCH`: `_IOWR(0x94, 17, struct btrfs_ioctl_search_args)` (4096 bytes).
const BTRFS_IOC_TREE_SEARCH: u32 = 0xD000_9411;
/// `BTRFS_IOC_FS_INFO`: `_IOR(0x94, 31, struct btrfs_ioctl_fs_info_args)` (1024 bytes).
const BTRFS_IOC_FS_INFO: u32 = 0x8400_941F;
const FIEMAP_EXTENT_LAST: u32 = 0x1;

/// Extents asked for per FIEMAP call: 7 KiB of buffer; most files need one call.
const BATCH: usize = 128;

/// `struct fiemap_extent`.
#[repr(C)]
#[derive(Copy, Clone, Default)]
struct FiemapExtent {
    logical: u64,
    physical: u64,
    length: u64,
    reserved64: [u64; 2],
    flags: u32,
    reserved: [u32; 3],
}

/// `struct fiemap` with room for [`BATCH`] extents after it.
#[repr(C)]
struct Fiemap {
    start: u64,
    length: u64,
    flags: u32,
    mapped_extents: u32,
    extent_count: u32,
    reserved: u32,
    extents: [FiemapExtent; BATCH],
}

fn ioctl<T>(fd: BorrowedFd<'_>, request: u32, arg: &mut T) -> Result<(), Errno> {
    // SAFETY: `arg` is an exclusively borrowed, initialised value that lives across the
    // call; every caller passes the type whose size `request` encodes (checked by the
    // layout test below), so the kernel reads and writes only inside it. `fd` is open for
    // the duration (borrowed).
    let r = unsafe {
        libc::ioctl(
            fd.as_raw_fd(),
            request as _,
            arg as *mut T as *mut libc::c_void,
        )
    };
    if r < 0 {
        Err(Errno::from_raw_os_error(
            std::io::Error::last_os_error().raw_os_error().unwrap_or(0),
        ))
    } else {
        Ok(())
    }
}

/// Appends every extent of the open file to `out` (FIEMAP, without FIEMAP_FLAG_SYNC: data
/// not yet written shows as delayed allocation).
pub fn fiemap(fd: BorrowedFd<'_>, out: &mut Vec<Extent>) -> Result<(), Errno> {
    let mut map = Box::new(Fiemap {
        start: 0,
        length: u64::MAX,
        flags: 0,
        mapped_extents: 0,
        extent_count: BATCH as u32,
        reserved: 0,
        extents: [FiemapExtent::default(); BATCH],
    });
    loop {
        map.length = u64::MAX - map.start;
        map.mapped_extents = 0;
        ioctl(fd, FS_IOC_FIEMAP, &mut *map)?;
        let n = (map.mapped_extents as usize).min(BATCH);
        if n == 0 {
            return Ok(());
        }
        let mut last = false;
        for e in &map.extents[..n] {
            out.push(Extent {
                logical: e.logical,
                physical: e.physical,
                length: e.length,
                flags: e.flags,
            });
            last |= e.flags & FIEMAP_EXTENT_LAST != 0;
        }
        let end = map.extents[n - 1]
            .logical
            .saturating_add(map.extents[n - 1].length);
        if last || n < BATCH || end <= map.start || end == u64::MAX {
            return Ok(());
        }
        map.start = end;
    }
}

/// `struct btrfs_ioctl_search_args`: the key (104 bytes) and the buffer the items come in.
#[repr(C)]
struct SearchArgs {
    tree_id: u64,
    min_objectid: u64,
    max_objectid: u64,
    min_offset: u64,
    max_offset: u64,
    min_transid: u64,
    max_transid: u64,
    min_type: u32,
    max_type: u32,
    nr_items: u32,
    unused: u32,
    unused1: [u64; 4],
    buf: [u8; 4096 - 104],
}

const EXTENT_DATA_KEY: u32 = 108;
/// `struct btrfs_ioctl_search_header`: transid, objectid, offset (u64), type, len (u32).
const SEARCH_HEADER: usize = 32;
/// Where `disk_bytenr` starts in `struct btrfs_file_extent_item` (what an inline extent's
/// data follows).
const INLINE_DATA: usize = 21;
const FILE_EXTENT_ITEM: usize = 53;

/// Appends the file extent items of inode `ino` of the subvolume the open file `fd` is in
/// (BTRFS_IOC_TREE_SEARCH, which needs CAP_SYS_ADMIN).
pub fn btrfs_extents(
    fd: BorrowedFd<'_>,
    ino: u64,
    out: &mut Vec<BtrfsExtent>,
) -> Result<(), Errno> {
    let mut args = Box::new(SearchArgs {
        tree_id: 0,
        min_objectid: ino,
        max_objectid: ino,
        min_offset: 0,
        max_offset: u64::MAX,
        min_transid: 0,
        max_transid: u64::MAX,
        min_type: EXTENT_DATA_KEY,
        max_type: EXTENT_DATA_KEY,
        nr_items: 0,
        unused: 0,
        unused1: [0; 4],
        buf: [0; 4096 - 104],
    });
    loop {
        args.nr_items = 4096;
        ioctl(fd, BTRFS_IOC_TREE_SEARCH, &mut *args)?;
        let n = args.nr_items;
        if n == 0 {
            return Ok(());
        }
        let buf = &args.buf;
        let mut at = 0;
        let mut last_offset = None;
        for _ in 0..n {
            let Some(head) = buf.get(at..at + SEARCH_HEADER) else {
                break;
            };
            let objectid = u64::from_ne_bytes(bytes8(&head[8..16]));
            let offset = u64::from_ne_bytes(bytes8(&head[16..24]));
            let kind = u32::from_ne_bytes([head[24], head[25], head[26], head[27]]);
            let len = u32::from_ne_bytes([head[28], head[29], head[30], head[31]]) as usize;
            at += SEARCH_HEADER;
            let Some(item) = buf.get(at..at + len) else {
                break;
            };
            at += len;
            last_offset = Some(offset);
            if objectid != ino || kind != EXTENT_DATA_KEY || len < INLINE_DATA {
                continue;
            }
            let le = |from: usize| u64::from_le_bytes(bytes8(&item[from..from + 8]));
            let extent = match item[20] {
                0 => BtrfsExtent::Inline {
                    disk: (len - INLINE_DATA) as u64,
                },
                _ if len >= FILE_EXTENT_ITEM => BtrfsExtent::Regular {
                    logical: offset,
                    disk_bytenr: le(21),
                    disk_num_bytes: le(29),
                    offset: le(37),
                    num_bytes: le(45),
                    compressed: item[16] != 0,
                },
                _ => continue,
            };
            out.push(extent);
        }
        match last_offset {
            Some(o) if o < u64::MAX => args.min_offset = o + 1,
            _ => return Ok(()),
        }
    }
}

fn bytes8(b: &[u8]) -> [u8; 8] {
    let mut a = [0; 8];
    a.copy_from_slice(&b[..8]);
    a
}

/// `struct btrfs_ioctl_fs_info_args` (1024 bytes): the filesystem's UUID.
#[repr(C)]
struct FsInfo {
    max_id: u64,
    num_devices: u64,
    fsid: [u8; 16],
    rest: [u8; 1024 - 32],
}

/// The UUID of the btrfs filesystem `fd` is on: what its extents' addresses are relative to
/// (every subvolume has a device number of its own, the addresses are the filesystem's).
pub fn btrfs_fsid(fd: BorrowedFd<'_>) -> Result<u128, Errno> {
    let mut info = Box::new(FsInfo {
        max_id: 0,
        num_devices: 0,
        fsid: [0; 16],
        rest: [0; 1024 - 32],
    });
    ioctl(fd, BTRFS_IOC_FS_INFO, &mut *info)?;
    Ok(u128::from_ne_bytes(info.fsid))
}

/// Whether the open file or directory is on btrfs.
pub fn is_btrfs(fd: BorrowedFd<'_>) -> bool {
    const BTRFS_SUPER_MAGIC: u64 = 0x9123_683E;
    #[allow(clippy::unnecessary_cast)]
    rustix::fs::fstatfs(fd).is_ok_and(|s| s.f_type as u64 == BTRFS_SUPER_MAGIC)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes the request numbers encode (bits 16-29) are the sizes of the buffers passed.
    #[test]
    fn buffers_are_the_sizes_the_requests_name() {
        let size = |req: u32| ((req >> 16) & 0x3fff) as usize;
        assert_eq!(size(FS_IOC_FIEMAP), 32);
        assert_eq!(std::mem::offset_of!(Fiemap, extents), 32);
        assert_eq!(std::mem::size_of::<FiemapExtent>(), 56);
        assert_eq!(
            size(BTRFS_IOC_TREE_SEARCH),
            std::mem::size_of::<SearchArgs>()
        );
        assert_eq!(std::mem::offset_of!(SearchArgs, buf), 104);
        assert_eq!(size(BTRFS_IOC_FS_INFO), std::mem::size_of::<FsInfo>());
    }
}
