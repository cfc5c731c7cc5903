//! The "scanning…" line on stderr: only on a terminal, only when a scan takes a while, and
//! erased before anything else is printed. It shows numbers only, never a (hostile) name,
//! and never more than fits on one row of the terminal: a line that wraps cannot be erased
//! by returning to its start, and each redraw would leave a row behind.

use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Duration;

use crate::units::format_size;
use crate::vocab::SizeMode;
use crate::walk::Progress;

/// Wait this long before drawing anything: most scans are over by then.
const DELAY: Duration = Duration::from_millis(300);

/// The delay in milliseconds from `HOGS_PROGRESS_DELAY_MS`, for tests that need the line on
/// a scan that is over in less than the delay (not a user-facing option).
fn delay() -> Duration {
    std::env::var("HOGS_PROGRESS_DELAY_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(DELAY, Duration::from_millis)
}
const TICK: Duration = Duration::from_millis(100);

/// Columns of the terminal on stderr, read at each redraw (it may be resized meanwhile).
fn stderr_columns() -> Option<usize> {
    let ws = rustix::termios::tcgetwinsize(std::io::stderr()).ok()?;
    (ws.ws_col > 0).then_some(usize::from(ws.ws_col))
}

/// `line` (`\r\x1b[K` and then text of one column a character) cut to leave the last
/// column free: a character written there would wrap on some terminals.
fn fit(line: &str, columns: Option<usize>) -> &str {
    const CLEAR: &str = "\r\x1b[K";
    let Some(columns) = columns else {
        return line;
    };
    let room = columns.saturating_sub(1);
    match line[CLEAR.len()..].char_indices().nth(room) {
        Some((cut, _)) => &line[..CLEAR.len() + cut],
        None => line,
    }
}

pub struct ProgressLine<'s> {
    stop: Sender<()>,
    handle: ScopedJoinHandle<'s, ()>,
}

impl<'s> ProgressLine<'s> {
    pub fn start<'e>(
        scope: &'s Scope<'s, 'e>,
        counters: &'s Progress,
        mode: SizeMode,
    ) -> ProgressLine<'s> {
        let (stop, rx) = channel::<()>();
        let handle = scope.spawn(move || {
            let mut wait = delay();
            let mut drawn = false;
            let mut err = std::io::stderr();
            while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(wait) {
                wait = TICK;
                let entries = counters.entries.load(Ordering::Relaxed);
                let line = if mode == SizeMode::Count {
                    format!("\r\x1b[Kscanning… {entries} entries")
                } else {
                    let bytes = counters.bytes.load(Ordering::Relaxed);
                    format!(
                        "\r\x1b[Kscanning… {entries} entries, {}",
                        format_size(bytes, SizeMode::Disk, crate::vocab::UnitStyle::HumanIec)
                    )
                };
                let line = fit(&line, stderr_columns());
                drawn = err.write_all(line.as_bytes()).is_ok();
            }
            if drawn {
                let _ = err.write_all(b"\r\x1b[K");
            }
        });
        ProgressLine { stop, handle }
    }

    /// Stops drawing and erases the line; returns once it is gone.
    pub fn finish(self) {
        let _ = self.stop.send(());
        let _ = self.handle.join();
    }
}

#[cfg(test)]
mod tests {
    use super::fit;

    #[test]
    fn the_line_is_cut_to_leave_the_last_column_free() {
        let line = "\r\x1b[Kscanning… 1234 entries, 5.0Mi";
        assert_eq!(fit(line, None), line);
        assert_eq!(fit(line, Some(200)), line);
        assert_eq!(fit(line, Some(12)), "\r\x1b[Kscanning… 1");
        assert_eq!(fit(line, Some(1)), "\r\x1b[K");
        assert_eq!(fit(line, Some(0)), "\r\x1b[K");
    }
}
