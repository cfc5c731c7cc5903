//! Taking the terminal over and always giving it back: on a normal exit, an error, a panic
//! (a hook restores it before the message is printed) and SIGTERM / SIGHUP (a flag the event
//! loop checks; in raw mode Ctrl-C arrives as a key, not as SIGINT). A SIGHUP that comes
//! while the view waits for input ends the process at once: see [`termination_flag`].

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Once};

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::crossterm::{cursor, execute};
use ratatui::Terminal;

/// Where the screen is drawn: stdout, or stderr when stdout is a pipe (`--print-marked`).
pub enum Screen {
    Stdout,
    Stderr,
}

pub type Writer = Box<dyn Write + Send>;

fn writer(screen: &Screen) -> Writer {
    match screen {
        Screen::Stdout => Box::new(io::stdout()),
        Screen::Stderr => Box::new(io::stderr()),
    }
}

/// Puts the terminal back as it was. Safe to call more than once.
pub fn restore(screen: &Screen) {
    let _ = disable_raw_mode();
    let mut w = writer(screen);
    let _ = execute!(w, DisableMouseCapture, LeaveAlternateScreen, cursor::Show);
    let _ = w.flush();
}

static HOOK: Once = Once::new();

/// Raw mode, alternate screen, mouse; installs the panic hook the first time.
pub fn init(screen: Screen) -> io::Result<Terminal<CrosstermBackend<Writer>>> {
    let hook_screen = matches!(screen, Screen::Stderr);
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore(if hook_screen {
                &Screen::Stderr
            } else {
                &Screen::Stdout
            });
            previous(info);
        }));
    });
    enable_raw_mode()?;
    let mut w = writer(&screen);
    if let Err(e) = execute!(w, EnterAlternateScreen, EnableMouseCapture, cursor::Hide) {
        restore(&screen);
        return Err(e);
    }
    Terminal::new(CrosstermBackend::new(w)).inspect_err(|_| restore(&screen))
}

/// A flag set by SIGTERM, SIGHUP or SIGINT: the event loop then ends and restores.
///
/// But a SIGHUP while `waiting` (the loop is waiting for input) exits at once, status 129
/// (128 + SIGHUP, as a shell reports it): the terminal has gone away, and crossterm's read
/// loop then spins on a descriptor that is always readable and never returns, timeout or
/// not (crossterm-rs/crossterm#793), so the loop would never look at the flag. An orphan
/// `hogs i` took a whole CPU that way after its tmux session was killed. There is no
/// terminal left to restore, and nothing is being deleted while input is awaited.
pub fn termination_flag(waiting: &Arc<AtomicBool>) -> io::Result<Arc<AtomicBool>> {
    // (first: signal-hook runs a signal's actions in the order they were registered)
    signal_hook::flag::register_conditional_shutdown(
        signal_hook::consts::SIGHUP,
        128 + signal_hook::consts::SIGHUP,
        Arc::clone(waiting),
    )?;
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
    ] {
        signal_hook::flag::register(sig, Arc::clone(&flag))?;
    }
    Ok(flag)
}
