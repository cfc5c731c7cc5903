//! The runs that print and exit, one module per [`Mode`](crate::config::Mode):
//! [`print`](mod@print) (a view of the scan), [`export`] (`-O`) and [`diff`] (`--diff`, also
//! the loading of both sides for the interactive view), [`html`] (`--html`). [`scan`] is what they share: the scan
//! with its progress line, its errors reported. The interactive view's run is
//! [`crate::tui::run`].

pub mod diff;
pub mod export;
pub mod html;
pub mod lazy;
pub mod lazy_diff;
pub mod print;
mod rows;
pub mod scan;

use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;

use crate::config::Config;
use crate::error::{fail, ExitStatus};
use crate::render::escape::shown;

/// The text of an I/O error, without std's " (os error N)" suffix.
pub fn io_cause(e: &io::Error) -> String {
    e.raw_os_error()
        .map_or_else(|| e.to_string(), crate::sys::describe)
}

/// What a write to a program or a person means for the exit status. `file`: where it went
/// (`None` or `-`: stdout); `data`: output for a program (JSON, an export, marked paths);
/// `err_tty`: stderr is a terminal.
///
/// A closed pipe ends a view for a person quietly (`hogs | head` has what it wanted, as dust
/// exits 0), but data cut short is a loss: [`ExitStatus::ReaderGone`], as du and ncdu die of
/// SIGPIPE. A stdout that was closed before the start took nothing: a write error, as du says.
pub fn write_status(
    written: io::Result<()>,
    file: Option<&OsStr>,
    data: bool,
    err_tty: bool,
) -> ExitStatus {
    let file = file.filter(|f| f.as_bytes() != b"-");
    let written = match written {
        // std's stdout takes EBADF as success: the start knows whether fd 1 was closed
        Ok(()) if file.is_none() && crate::sys::stdout_closed() => Err(
            io::Error::from_raw_os_error(crate::sys::Errno::BADF.raw_os_error()),
        ),
        other => other,
    };
    match written {
        Ok(()) => ExitStatus::Success,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe && data => ExitStatus::ReaderGone,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(e) => {
            let cause = io_cause(&e);
            match file {
                Some(f) => fail(format!(
                    "cannot write '{}': {cause}",
                    shown(f.as_bytes(), err_tty)
                )),
                None => fail(format!("write error: {cause}")),
            }
        }
    }
}

/// The config a run writing `sink` scans with: the temporary file it writes is no part of the
/// tree, though the target may be inside it (`hogs -O t/x.ncdu t`).
pub fn leaving_out_own_file<'c>(
    config: &'c Config,
    sink: &crate::export::ExportSink,
) -> std::borrow::Cow<'c, Config> {
    use std::borrow::Cow;
    let Some(name) = sink.staged_path().and_then(std::path::Path::file_name) else {
        return Cow::Borrowed(config);
    };
    let mut own = config.clone();
    own.walk.exclusions.written.push(name.as_bytes().to_vec());
    Cow::Owned(own)
}

/// Opens the file a run writes whole (an export, a page), or says why it cannot.
pub fn open_target(file: &OsStr, err_tty: bool) -> Result<crate::export::ExportSink, ExitStatus> {
    use crate::export::TargetError;
    crate::export::open_target(file).map_err(|e| {
        let shown_file = shown(file.as_bytes(), err_tty);
        fail(match e {
            TargetError::Target(e) => format!("cannot write '{shown_file}': {}", io_cause(&e)),
            TargetError::Directory(dir, e) => format!(
                "cannot write '{shown_file}': cannot create a file beside it in '{}' (an export \
                 replaces the file whole): {}",
                shown(dir.as_os_str().as_bytes(), err_tty),
                io_cause(&e)
            ),
        })
    })
}
