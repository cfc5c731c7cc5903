//! The loop over a directory's entries, shared by the backends: each gives its entries one
//! at a time ([`EntrySource`]: getdents64 into a buffer of our own on Linux, `readdir`
//! elsewhere), and this loop skips `.` and `..`, counts what it took, and stops where the
//! span, a one-read listing or ext4's end mark says.

use std::ffi::CStr;

use rustix::fs::FileType;

use super::{Errno, Span, Stopped};

/// A directory's entries as a backend reads them.
pub(super) trait EntrySource {
    /// Whether every entry read so far has been given out: the next needs a system call.
    fn needs_read(&self) -> bool;

    /// The next entry given to `f(name, d_type, d_ino, next position)`; `None` at the end.
    fn next_entry<R>(
        &mut self,
        f: impl FnOnce(&CStr, FileType, u64, u64) -> R,
    ) -> Option<Result<R, Errno>>;
}

/// Calls `f(name, d_type, d_ino)` for every entry of `src` in `span` but `.` and `..`. A
/// listing whose position reaches `end_mark` is known to be over when the entries read are
/// given out (no last, empty read). A reader knows the position of every entry it meets but
/// its first (the one before said where the next is): it takes its first entry and then
/// those placed before `span.end`.
#[inline(always)]
pub(super) fn each_entry(
    src: &mut impl EntrySource,
    end_mark: Option<u64>,
    span: Span,
    mut f: impl FnMut(&CStr, FileType, u64),
) -> Result<Stopped, Errno> {
    let mut next_position = span.from;
    let mut taken = 0;
    loop {
        if src.needs_read() {
            if end_mark == Some(next_position) {
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
        let took = src.next_entry(|name, t, ino, next| {
            if taken > 0 && next_position >= span.end {
                return false; // the next span's
            }
            taken += 1;
            next_position = next;
            let b = name.to_bytes();
            if b != b"." && b != b".." {
                f(name, t, ino);
            }
            true
        });
        match took {
            Some(Ok(true)) => {}
            Some(Ok(false)) | None => break,
            Some(Err(e)) => return Err(e),
        }
    }
    Ok(Stopped {
        next: next_position,
        more: false,
        taken,
    })
}
