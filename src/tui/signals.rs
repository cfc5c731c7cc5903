//! Fatal signals (SIGTERM, SIGHUP, SIGINT, SIGQUIT) while `hogs i` runs: the terminal is
//! always given back (cooked mode, main screen, cursor) and the process ends with the shell's
//! status for the signal, 128 + N, as a killed program's is; never 0, which would say the
//! view was quit.
//!
//! A thread waits for the signals (`signal_hook`'s iterator: the handler only wakes it), so
//! what it does is ordinary code. What it does depends on where the view is:
//! - before the screen is taken (loading an export): there is nothing to restore, it exits;
//! - while the event loop waits for input: it restores the terminal and exits at once. A
//!   SIGHUP there means the terminal has gone, and crossterm's read loop then spins on a
//!   descriptor that is always readable and never returns, timeout or not
//!   (crossterm-rs/crossterm#793): waiting for the loop would leave an orphan taking a CPU;
//! - while the loop draws or handles a key: it records the signal, and the loop ends at its
//!   next turn and restores; `run` then exits with the signal's status.
//!
//! One lock orders the two threads: the loop holds the phase `Busy` while it may draw, so a
//! restore never comes between a frame's bytes, and no frame is drawn after a restore.
//! In raw mode Ctrl-C and Ctrl-\ are keys, not signals: these come from `kill` or a hang-up.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};

use super::terminal::{restore, Screen};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// The terminal is not taken yet.
    Loading,
    /// The event loop waits for input: nothing draws.
    Waiting,
    /// The terminal is taken and the loop may be drawing.
    Busy,
    /// The loop has ended; `run` restores the terminal and reports.
    Closing,
}

/// Where the view is, and the signal that came, shared with the signal thread.
pub struct Watch {
    phase: Mutex<Phase>,
    screen: Screen,
    /// Set when a signal came while the loop was busy: the loop ends.
    pub stop: AtomicBool,
    signal: AtomicI32,
}

impl Watch {
    /// Starts the thread that waits for the fatal signals; the view draws on `screen`.
    pub fn start(screen: Screen) -> std::io::Result<Arc<Watch>> {
        let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])?;
        let watch = Arc::new(Watch {
            phase: Mutex::new(Phase::Loading),
            screen,
            stop: AtomicBool::new(false),
            signal: AtomicI32::new(0),
        });
        let w = Arc::clone(&watch);
        std::thread::spawn(move || {
            for sig in signals.forever() {
                w.caught(sig);
            }
        });
        Ok(watch)
    }

    fn caught(&self, sig: i32) {
        let phase = self.lock();
        match *phase {
            Phase::Loading => std::process::exit(128 + sig),
            Phase::Waiting => {
                // (the lock stays held: the loop never draws again)
                restore(&self.screen);
                std::process::exit(128 + sig);
            }
            Phase::Busy | Phase::Closing => {
                let _ = self
                    .signal
                    .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
                self.stop.store(true, Ordering::SeqCst);
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.phase.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set(&self, to: Phase) {
        *self.lock() = to;
    }

    /// The terminal is about to be taken: from now on a signal is left to the loop.
    pub fn taking_terminal(&self) {
        self.set(Phase::Busy);
    }

    /// The loop is about to wait for input; false when a signal already asked it to end.
    pub fn begin_wait(&self) -> bool {
        let mut phase = self.lock();
        if self.stop.load(Ordering::SeqCst) {
            return false;
        }
        *phase = Phase::Waiting;
        true
    }

    /// The wait is over: the loop may draw (blocks for good if a signal is being handled).
    pub fn end_wait(&self) {
        self.set(Phase::Busy);
    }

    /// The loop has ended: a signal from now on is only recorded.
    pub fn closing(&self) {
        self.set(Phase::Closing);
    }

    /// The signal that ended the view, if one did.
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            sig => Some(sig),
        }
    }
}
