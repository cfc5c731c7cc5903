//! The runs that print and exit, one module per [`Mode`](crate::config::Mode):
//! [`print`](mod@print) (a view of the scan), [`export`] (`-O`) and [`diff`] (`--diff`, also
//! the loading of both sides for the interactive view), [`html`] (`--html`). [`scan`] is what they share: the scan
//! with its progress line, its errors reported. The interactive view's run is
//! [`crate::tui::run`].

pub mod diff;
pub mod export;
pub mod html;
pub mod print;
pub mod scan;

use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;

use crate::error::{fail, ExitStatus};
use crate::render::escape::shown;

/// The text of an I/O error, without std's " (os error N)" suffix.
pub fn io_cause(e: &io::Error) -> String {
    e.raw_os_error()
        .map_or_else(|| e.to_string(), crate::sys::describe)
}

/// What a failed write means for the exit status (a closed pipe is not a failure: `hogs |
/// head` has what it wanted). `file`: where it went (`None` or `-`: stdout); `err_tty`:
/// stderr is a terminal.
pub fn write_status(written: io::Result<()>, file: Option<&OsStr>, err_tty: bool) -> ExitStatus {
    match written {
        Ok(()) => ExitStatus::Success,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(e) => {
            let cause = io_cause(&e);
            match file.filter(|f| f.as_bytes() != b"-") {
                Some(f) => fail(format!(
                    "cannot write '{}': {cause}",
                    shown(f.as_bytes(), err_tty)
                )),
                None => fail(format!("write error: {cause}")),
            }
        }
    }
}
