//! Where input events come from: the terminal, or a script (tests, benchmarks).

use std::collections::VecDeque;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyModifiers};

/// A source of terminal events the event loop can wait on.
pub trait EventSource {
    /// The next event, waiting at most `timeout`; `Ok(None)` when none came in time.
    fn next(&mut self, timeout: Duration) -> io::Result<Option<Event>>;
}

/// Keys, mouse and resizes of the real terminal.
pub struct TerminalEvents {
    /// Told when the loop waits for them (see [`super::signals`]).
    pub watch: Arc<super::signals::Watch>,
}

impl EventSource for TerminalEvents {
    fn next(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        if !self.watch.begin_wait() {
            return Ok(None); // a signal came: the loop ends
        }
        let event = match event::poll(timeout) {
            Ok(true) => event::read().map(Some),
            Ok(false) => Ok(None),
            Err(e) => Err(e),
        };
        self.watch.end_wait();
        event
    }
}

/// A fixed list of events. When it runs out the loop gets an error instead of waiting
/// forever: a test that forgets to quit fails rather than hangs.
#[derive(Default)]
pub struct Scripted {
    events: VecDeque<Event>,
}

impl Scripted {
    pub fn new(events: impl IntoIterator<Item = Event>) -> Scripted {
        Scripted {
            events: events.into_iter().collect(),
        }
    }

    /// Events for the keys of a string, one per character (`\n` is Enter).
    pub fn keys(text: &str) -> Scripted {
        Scripted::new(text.chars().map(key_event))
    }

    pub fn push(&mut self, e: Event) {
        self.events.push_back(e);
    }
}

/// The event of typing one character (`\n` is Enter, `\x1b` Esc, `\x08` Backspace).
pub fn key_event(c: char) -> Event {
    let code = match c {
        '\n' => KeyCode::Enter,
        '\x1b' => KeyCode::Esc,
        '\x08' => KeyCode::Backspace,
        c => KeyCode::Char(c),
    };
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

impl EventSource for Scripted {
    fn next(&mut self, _timeout: Duration) -> io::Result<Option<Event>> {
        match self.events.pop_front() {
            Some(e) => Ok(Some(e)),
            None => Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "scripted events ran out before the view quit",
            )),
        }
    }
}
