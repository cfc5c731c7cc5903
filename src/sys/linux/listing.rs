//! Listing a directory with getdents64 into a buffer per thread, entry by entry, with no
//! allocation: whole, or a span of an ext4 hashed directory's positions.

use std::cell::RefCell;
use std::ffi::CStr;
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, OwnedFd};

use rustix::fs::{FileType, RawDir};

use crate::sys::{Errno, Span, Stopped};

const DIR_BUF: usize = 128 * 1024;

/// Bytes of the first read of a listing that may be split (see [`Span::one_read`]).
const FIRST_READ: usize = 16 * 1024;

thread_local! {
    // one getdents64 buffer per worker, reused for every directory it reads
    static DIR_BUFFER: RefCell<Vec<MaybeUninit<u8>>> = const { RefCell::new(Vec::new()) };
}

/// Calls `f(name, d_type, d_ino)` for every entry but `.` and `..`.
pub fn read_entries(dir: &OwnedFd, f: impl FnMut(&CStr, FileType, u64)) -> Result<(), Errno> {
    read_entries_until(dir, false, f)
}

/// Where ext4 puts a hashed directory's read position once every entry has been returned:
/// the last entry of that read says so (its `d_off`), and no entry's own position can be it
/// (ext4 moves a hash that would collide with it).
const EXT4_HTREE_EOF: u64 = 0x7fff_ffff_ffff_ffff;

/// [`read_entries`]; with `ext4`, a read whose last entry's next position is ext4's end of
/// a hashed directory is taken as the last (one getdents64 a directory instead of two: no
/// second, empty call). Only that marker ends the listing early: a read cut short by
/// a full buffer or a signal (a stop and continue) leaves a hash there, and is followed by
/// more reads as usual.
pub fn read_entries_until(
    dir: &OwnedFd,
    ext4: bool,
    f: impl FnMut(&CStr, FileType, u64),
) -> Result<(), Errno> {
    read_span(dir, ext4, Span::WHOLE, f).map(|_| ())
}

/// Position of ext4's end of a hashed directory, for splitting its listing.
pub const HASH_END: u64 = EXT4_HTREE_EOF;

/// [`read_entries_until`] for a span of the listing. In a hashed ext4 directory an entry's
/// position is its name's hash (`d_off` is the next entry's), and a position that is sought
/// goes on from the first entry whose hash is there or past it, so that readers of disjoint
/// spans read disjoint entries, each on its own fd, at the same time. A reader knows the
/// position of every entry it meets but its first (the one before said where the next is):
/// it takes its first entry and then those placed before `end`. A reader whose span holds
/// no entry at all takes one of the next span's: see `drop_empty_spans`.
pub fn read_span(
    dir: &OwnedFd,
    ext4: bool,
    span: Span,
    mut f: impl FnMut(&CStr, FileType, u64),
) -> Result<Stopped, Errno> {
    DIR_BUFFER.with(|cell| {
        let mut buf = cell.borrow_mut();
        if buf.len() < DIR_BUF {
            buf.resize(DIR_BUF, MaybeUninit::uninit());
        }
        // a first read that may be split after is short: a directory of a few thousand
        // names is then split too
        let len = if span.one_read { FIRST_READ } else { DIR_BUF };
        let mut raw = RawDir::new(dir.as_fd(), &mut buf[..len]);
        let mut next_position = span.from;
        let mut taken = 0;
        loop {
            if raw.is_buffer_empty() {
                if ext4 && next_position == EXT4_HTREE_EOF {
                    break;
                }
                if span.one_read && taken > 0 {
                    return Ok(Stopped {
                        next: next_position,
                        more: true,
                        taken,
                    });
                }
            }
            let Some(entry) = raw.next() else { break };
            let entry = entry?;
            if taken > 0 && next_position >= span.end {
                break; // the next span's
            }
            taken += 1;
            next_position = entry.next_entry_cookie();
            let name = entry.file_name();
            let b = name.to_bytes();
            if b == b"." || b == b".." {
                continue;
            }
            f(name, entry.file_type(), entry.ino());
        }
        Ok(Stopped {
            next: next_position,
            more: false,
            taken,
        })
    })
}
