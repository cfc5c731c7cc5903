//! Loading a scan written by another run or another tool instead of walking: ncdu's JSON
//! export format (`hogs -O`, `ncdu -o`, `gdu -o`), zstd-compressed or not, and ncdu 2's
//! binary format (`ncdu -O`, `hogs -O x.ncdu`), told apart by their first bytes.
//!
//! The result is the same [`crate::walk::Scan`] a walk returns (own sizes, not yet totals), so
//! everything after the walk — filters, totals, every view, a diff of two scans — works on
//! it unchanged.

mod formats;
pub mod json;
pub mod merge;
pub mod ncdu;
pub mod ncdu_bin;

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::File;
use std::io;
use std::os::unix::ffi::OsStrExt;

pub use formats::{temp_dir, unlinked_temp};
pub use json::Pos;
pub use ncdu::{time_needed, Keep};

use crate::render::escape::shown;
use crate::walk::Scan;

/// Loads `--import FILE` (`-`: stdin) as the scan to show, keeping what `keep` says. The
/// error is the one line to print.
pub fn import_file(file: &OsStr, to_terminal: bool, keep: Keep) -> Result<Scan, String> {
    let opened = if file.as_bytes() == b"-" {
        formats::stdin()
    } else {
        File::open(file)
    };
    let result = opened
        .map_err(ImportError::Io)
        .and_then(|f| formats::read_any(f, keep));
    result.map(|i| i.scan).map_err(|e| {
        format!(
            "cannot import '{}': {e}",
            shown(file.as_bytes(), to_terminal)
        )
    })
}

/// Loads an export already open (a temporary file with no name), keeping what `keep` says.
pub fn import_open(file: File, keep: Keep) -> Result<Scan, ImportError> {
    formats::read_any(file, keep).map(|i| i.scan)
}

/// Loads `--import FILE…`: one export as [`import_file`] does, or several merged into one
/// scan ([`merge`]); `keep_first`: overlapping parts keep what the one given first has
/// instead of failing (`--import-keep-first`).
pub fn import_files(
    files: &[OsString],
    keep_first: bool,
    to_terminal: bool,
    keep: Keep,
) -> Result<Scan, String> {
    match files {
        [one] => import_file(one, to_terminal, keep),
        _ => merge::merge(files, keep_first, to_terminal, keep),
    }
}

/// Why a file could not be imported. Nothing is returned with it: a partial tree is never
/// passed off as the scan.
#[derive(Debug)]
pub enum ImportError {
    /// Reading failed.
    Io(io::Error),
    /// The input is not a valid export; `pos` is where the problem was found.
    Syntax { pos: Pos, message: String },
    /// The input is in a form hogs does not read (compressed, ncdu's binary format); the
    /// message says how to convert it.
    Unsupported(&'static str),
    /// The input lacks what was asked of it (the times a filter reads): why.
    Missing(&'static str),
    /// Parts of a merge that cannot go together, or a part that failed: the whole message.
    Merge(String),
    /// A binary export that is damaged: what is wrong, and where (block, item).
    Format(String),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Io(e) => match e.raw_os_error() {
                Some(errno) => f.write_str(&crate::sys::describe(errno)),
                None => write!(f, "{e}"),
            },
            ImportError::Syntax { pos, message } => write!(
                f,
                "line {}, column {} (byte {}): {message}",
                pos.line, pos.column, pos.offset
            ),
            ImportError::Unsupported(why) | ImportError::Missing(why) => f.write_str(why),
            ImportError::Merge(msg) => f.write_str(msg),
            ImportError::Format(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for ImportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ImportError::Io(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
