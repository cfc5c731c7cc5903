//! Loading a scan written by another run or another tool instead of walking: ncdu's JSON
//! export format (`hogs -O`, `ncdu -o`, `gdu -o`), zstd-compressed or not, and ncdu 2's
//! binary format (`ncdu -O`, `hogs -O x.ncdu`), told apart by their first bytes.
//!
//! The result is the same [`crate::walk::Scan`] a walk returns (own sizes, not yet totals), so
//! everything after the walk — filters, totals, every view, a diff of two scans — works on
//! it unchanged.

mod formats;
pub mod merge;

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::os::unix::ffi::OsStrExt;

pub use crate::formats::builder::{time_needed, Keep};
pub use crate::formats::ncdu_json::lexer::Pos;
pub use crate::formats::ImportError;
pub use formats::unlinked_temp;

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
