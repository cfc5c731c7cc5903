//! Exit statuses and the wording of every diagnostic (the walker only records errno values).

use std::io::{self, Write};

use crate::render::escape::escape;
use crate::sys::describe;
use crate::tree::Tree;
use crate::walk::{ErrorAt, ErrorKind, ScanError};

/// What the exit status says, as GNU du: 0 all counted, 1 something was skipped or could not be
/// written, 2 the command line was wrong (clap's own exit).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum ExitStatus {
    Success = 0,
    Incomplete = 1,
    /// Data for a program (JSON, an export, marked paths) was cut short by a reader that
    /// closed the pipe: the process ends as du and ncdu do there, killed by SIGPIPE (a shell
    /// shows 141), so `set -o pipefail` sees the loss.
    ReaderGone = 141,
}

/// Prints `hogs: MSG` on stderr, one line. A failed write has nowhere better to go.
pub fn say(msg: impl std::fmt::Display) {
    let _ = writeln!(io::stderr(), "hogs: {msg}");
}

/// [`say`]s what stopped the run: it did not do all it was asked (exit status 1).
pub fn fail(msg: impl std::fmt::Display) -> ExitStatus {
    say(msg);
    ExitStatus::Incomplete
}

/// Past this many errors a closing line counts them, so the total is not lost in the scroll.
const SUMMARY_AFTER: usize = 10;

/// One line per error. Control characters in a path are always escaped (a name must neither
/// drive the terminal nor break the one-line-per-error shape a script may parse); bytes that
/// are not UTF-8 pass through raw unless stderr is a terminal, so the path can be used again.
/// Whether these errors make the run incomplete (exit status 1). An empty file name is
/// skipped with a warning, as dust skips it (silently): nothing that exists was left out.
pub fn incomplete(errors: &[ScanError]) -> bool {
    errors.iter().any(|e| e.kind != ErrorKind::EmptyName)
}

pub fn report_scan_errors(
    errors: &[ScanError],
    tree: &Tree,
    err: &mut dyn Write,
    to_terminal: bool,
) -> io::Result<()> {
    for e in errors {
        match &e.at {
            ErrorAt::Unfilled { path, by } => unfilled_line(err, path, by, to_terminal)?,
            _ => error_line(err, e.kind, e.errno, &e.path(tree), to_terminal)?,
        }
    }
    if errors.len() > SUMMARY_AFTER {
        error_summary(err, errors.len())?;
    }
    Ok(())
}

/// [`report_scan_errors`] of errors known by their paths (a tree read from a file on
/// demand has no ids for what is not in it), in this order; recorded in an imported scan.
pub fn report_errors_by_path(
    errors: &[(ErrorKind, Vec<u8>)],
    err: &mut dyn Write,
    to_terminal: bool,
) -> io::Result<()> {
    for (kind, path) in errors {
        error_line(err, *kind, 0, path, to_terminal)?;
    }
    if errors.len() > SUMMARY_AFTER {
        error_summary(err, errors.len())?;
    }
    Ok(())
}

/// The closing line of a long run of errors.
fn error_summary(err: &mut dyn Write, count: usize) -> io::Result<()> {
    writeln!(
        err,
        "hogs: {count} errors; what could not be read is left out of the totals"
    )
}

/// The line of one error at `path`.
fn error_line(
    err: &mut dyn Write,
    kind: ErrorKind,
    errno: i32,
    path: &[u8],
    to_terminal: bool,
) -> io::Result<()> {
    let path = escape(path, !to_terminal);
    // an imported scan records that something failed, not why
    let cause = match errno {
        0 => "error recorded in the imported scan".to_string(),
        errno => describe(errno),
    };
    let (head, tail) = match kind {
        ErrorKind::EmptyName => {
            return writeln!(err, "hogs: warning: skipped a zero-length file name");
        }
        ErrorKind::Access => ("cannot access", cause),
        ErrorKind::ReadDir => ("cannot read directory", cause),
        ErrorKind::Unfilled => ("cannot count", "excluded, and in no part".into()),
    };
    let mut line = Vec::with_capacity(path.bytes.len() + 64);
    line.extend_from_slice(b"hogs: ");
    line.extend_from_slice(head.as_bytes());
    line.extend_from_slice(b" '");
    line.extend_from_slice(&path.bytes);
    line.extend_from_slice(b"': ");
    line.extend_from_slice(tail.as_bytes());
    line.push(b'\n');
    err.write_all(&line)
}

/// The line of a directory the part `by` of a merge left out and no part scanned: the merge
/// cannot tell a part that failed from one never meant, so it says so and counts nothing.
fn unfilled_line(err: &mut dyn Write, path: &[u8], by: &[u8], to_terminal: bool) -> io::Result<()> {
    let path = escape(path, !to_terminal);
    let by = escape(by, !to_terminal);
    let mut line = Vec::with_capacity(path.bytes.len() + by.bytes.len() + 64);
    line.extend_from_slice(b"hogs: '");
    line.extend_from_slice(&path.bytes);
    line.extend_from_slice(b"': excluded in '");
    line.extend_from_slice(&by.bytes);
    line.extend_from_slice(b"' and in no part: not counted\n");
    err.write_all(&line)
}

/// Reports on stderr a directory left out in the part `by` of a merge streamed into a binary
/// export and scanned by no part ([`ErrorAt::Unfilled`]).
pub fn report_streamed_unfilled(path: &[u8], by: &[u8], to_terminal: bool) {
    let _ = unfilled_line(&mut io::stderr().lock(), path, by, to_terminal);
}

/// Reports on stderr, as it is met, an error recorded at `path` in an export being streamed
/// into another (a merge to a binary export keeps no tree to report from afterwards).
pub fn report_streamed_error(kind: ErrorKind, path: &[u8], to_terminal: bool) {
    let _ = error_line(&mut io::stderr().lock(), kind, 0, path, to_terminal);
}

/// The closing count of the errors [`report_streamed_error`] reported, when they are many.
pub fn report_streamed_total(count: usize) {
    if count > SUMMARY_AFTER {
        let _ = error_summary(&mut io::stderr().lock(), count);
    }
}
