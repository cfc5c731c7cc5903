//! Taking the terminal over and always giving it back: on a normal exit, an error, a panic
//! (a hook restores it before the message is printed) and a fatal signal (see
//! [`super::signals`]).

use std::io::{self, Write};
use std::sync::Once;

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::crossterm::{cursor, execute};
use ratatui::Terminal;

/// Where the screen is drawn: stdout, or stderr when stdout is a pipe (`--print-marked`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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
