//! The view of a read-only tree (a tree read from a file on demand): the same state, keys and
//! screens as a scan's ([`super::app::App`]), with nothing in the background: no walk, and
//! no delete or rescan (the state says they are off and asks for no work).

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ratatui::backend::Backend;
use ratatui::crossterm::event::Event;
use ratatui::layout::Rect;
use ratatui::Terminal;

use super::action::Mapper;
use super::event::EventSource;
use super::state::{AsScan, Options, State};
use super::style::Styles;
use super::view;

/// How long the loop waits for input: nothing else can change the screen.
const IDLE_WAIT: Duration = Duration::from_millis(250);

pub struct Browser<T: AsScan> {
    pub state: State<T>,
    pub styles: Styles,
    mapper: Mapper,
    /// What the tree is read from, as damage met while browsing names it.
    source: String,
}

impl<T: AsScan> Browser<T> {
    pub fn new(tree: T, opts: Options, styles: Styles) -> Browser<T> {
        Browser {
            state: State::read_only(tree, opts),
            styles,
            mapper: Mapper::default(),
            source: String::new(),
        }
    }

    /// Names the file the tree is read from (shown escaped) in what damage says.
    pub fn reading(mut self, source: String) -> Browser<T> {
        self.source = source;
        self
    }

    /// One input event: mapped to an action and applied. Returns whether it did anything.
    pub fn on_event(&mut self, event: &Event) -> bool {
        let mode = self.state.input_mode();
        let Some(action) = self.mapper.map(event, mode, Instant::now()) else {
            return false;
        };
        let request = self.state.apply(action);
        debug_assert!(request.is_none(), "a read-only tree asked for {request:?}");
        true
    }

    /// Draws one frame; again, with one line in the footer until Esc, if drawing it met
    /// damage.
    pub fn draw<B: Backend>(&mut self, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        B::Error: Send + Sync + 'static,
    {
        self.draw_once(terminal)?;
        if let Some(damage) = self.state.tree().new_damage() {
            let said = format!("cannot read all of '{}': {damage}", self.source);
            self.state.warn(said);
            self.draw_once(terminal)?;
        }
        Ok(())
    }

    fn draw_once<B: Backend>(&mut self, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        B::Error: Send + Sync + 'static,
    {
        let size = terminal.size().map_err(io::Error::other)?;
        let areas = view::layout(Rect::new(0, 0, size.width, size.height), &self.state);
        self.state.set_list_area(areas.list.y, areas.list.height);
        let (state, styles) = (&self.state, &self.styles);
        terminal
            .draw(|f| view::draw(f, state, styles))
            .map_err(io::Error::other)?;
        Ok(())
    }
}

/// Runs the view until the user quits, input ends, or `stop` is set (a fatal signal).
pub fn run<T: AsScan, B: Backend, E: EventSource>(
    terminal: &mut Terminal<B>,
    events: &mut E,
    browser: &mut Browser<T>,
    stop: &AtomicBool,
) -> io::Result<()>
where
    B::Error: Send + Sync + 'static,
{
    let mut dirty = true;
    loop {
        if dirty {
            browser.draw(terminal)?;
            dirty = false;
        }
        if browser.state.quit() || stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        if let Some(event) = events.next(IDLE_WAIT)? {
            dirty |= browser.on_event(&event);
        }
    }
}

#[cfg(test)]
#[path = "browse_tests.rs"]
mod tests;
