//! The "scanning…" line on stderr: only on a terminal, only when a scan takes a while, and
//! erased before anything else is printed. It shows numbers only, never a (hostile) name.

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
const TICK: Duration = Duration::from_millis(100);

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
            let mut wait = DELAY;
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
