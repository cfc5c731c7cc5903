//! Exit statuses and the wording of every diagnostic (the walker only records errno values).

use std::io::{self, Write};

use crate::render::escape::escape;
use crate::tree::Tree;
use crate::walk::{sys::describe, ErrorKind, ScanError};

/// What the exit status says, as GNU du: 0 all counted, 1 something was skipped or could not be
/// written, 2 the command line was wrong (clap's own exit).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum ExitStatus {
    Success = 0,
    Incomplete = 1,
}

/// One line per error, paths escaped (a name must not be able to drive the terminal).
pub fn report_scan_errors(
    errors: &[ScanError],
    tree: &Tree,
    err: &mut dyn Write,
    to_terminal: bool,
) -> io::Result<()> {
    for e in errors {
        let path = e.path(tree);
        let path = escape(&path, !to_terminal);
        let path = String::from_utf8_lossy(&path.bytes);
        // an imported scan records that something failed, not why
        let cause = match e.errno {
            0 => "error recorded in the imported scan".to_string(),
            errno => describe(errno),
        };
        match e.kind {
            ErrorKind::EmptyName => writeln!(err, "hogs: invalid zero-length file name")?,
            ErrorKind::Access => writeln!(err, "hogs: cannot access '{path}': {cause}")?,
            ErrorKind::ReadDir => writeln!(err, "hogs: cannot read directory '{path}': {cause}")?,
        }
    }
    Ok(())
}
