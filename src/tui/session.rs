//! The one event loop of `hogs i`, over any [`Session`]: the scan's view ([`super::app::App`]:
//! a live walk, an import loaded into memory, a comparison) and the view of a tree read on
//! demand ([`super::browse::Browser`]). What they differ in (background work, what is said
//! after the view closes) is what the trait asks; what the user can do in each is the
//! state's [`super::state::Capabilities`].

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ratatui::backend::Backend;
use ratatui::crossterm::event::Event;
use ratatui::Terminal;

use super::event::EventSource;
use crate::config::Config;
use crate::error::ExitStatus;

/// A view the event loop runs.
pub trait Session {
    /// One input event: mapped to an action and applied. Returns whether it did anything.
    fn on_event(&mut self, event: &Event) -> bool;

    /// Applies what background work finished or is due; returns whether the screen changed.
    fn poll(&mut self) -> bool {
        false
    }

    /// How long the loop may wait for input before [`Session::poll`] is due again.
    fn wait_time(&self) -> Duration;

    /// Draws one frame.
    fn draw<B: Backend>(&mut self, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        B::Error: Send + Sync + 'static;

    /// The user asked to quit (and confirmed it if something was marked).
    fn quit(&self) -> bool;

    /// The loop ended: work in the background is told to stop.
    fn close(&mut self) {}

    /// After the screen is given back: what could not be read, said on stderr.
    fn report(&mut self, config: &Config) -> ExitStatus;

    /// Whether anything is marked (`--print-marked` then prints the marks).
    fn marked(&self) -> bool;

    /// Writes the marked paths for a program (`--print-marked`).
    fn print_marked(&mut self, out: &mut dyn Write, terminal: bool, null: bool) -> io::Result<()>;
}

/// Runs `session` until the user quits, input ends, or `stop` is set (a fatal signal).
pub fn run<S: Session, B: Backend, E: EventSource>(
    terminal: &mut Terminal<B>,
    events: &mut E,
    session: &mut S,
    stop: &AtomicBool,
) -> io::Result<()>
where
    B::Error: Send + Sync + 'static,
{
    let mut dirty = true;
    let ended = loop {
        if dirty {
            if let Err(e) = session.draw(terminal) {
                break Err(e);
            }
            dirty = false;
        }
        if session.quit() || stop.load(Ordering::Relaxed) {
            break Ok(());
        }
        match events.next(session.wait_time()) {
            Ok(Some(event)) => dirty |= session.on_event(&event),
            Ok(None) => {}
            Err(e) => break Err(e),
        }
        dirty |= session.poll();
    };
    session.close();
    ended
}
