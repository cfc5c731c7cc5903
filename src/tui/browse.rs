//! The view of a read-only tree (a tree read from a file on demand): the same state, keys,
//! screens and event loop ([`super::session`]) as a scan's ([`super::app::App`]), with
//! nothing in the background: no walk, and no delete or rescan (the state's capabilities
//! say they are off and it asks for no work).

use std::io;
use std::time::{Duration, Instant};

use ratatui::backend::Backend;
use ratatui::crossterm::event::Event;
use ratatui::layout::Rect;
use ratatui::Terminal;

use super::action::Mapper;
pub use super::session::run;
use super::session::Session;
use super::state::{AsScan, Options, State};
use super::style::Styles;
use super::view;
use crate::config::Config;
use crate::error::ExitStatus;

/// How long the loop waits for input: nothing else can change the screen.
const IDLE_WAIT: Duration = Duration::from_millis(250);

pub struct Browser<T: AsScan> {
    pub state: State<T>,
    pub styles: Styles,
    mapper: Mapper,
    /// What the tree is read from, as damage met while browsing names it.
    source: String,
    /// Says on stderr, after the view closes, what the tree could not read.
    report: Option<fn(&Config, &T) -> ExitStatus>,
}

impl<T: AsScan> Browser<T> {
    pub fn new(tree: T, opts: Options, styles: Styles) -> Browser<T> {
        Browser {
            state: State::read_only(tree, opts),
            styles,
            mapper: Mapper::default(),
            source: String::new(),
            report: None,
        }
    }

    /// Names the file the tree is read from (shown escaped) in what damage says.
    pub fn reading(mut self, source: String) -> Browser<T> {
        self.source = source;
        self
    }

    /// What is said after the view closes of what the tree could not read.
    pub fn reporting(mut self, report: fn(&Config, &T) -> ExitStatus) -> Browser<T> {
        self.report = Some(report);
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

    /// Draws one frame; again, with one line in the footer, if drawing it met damage.
    pub fn draw<B: Backend>(&mut self, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        B::Error: Send + Sync + 'static,
    {
        self.draw_once(terminal)?;
        if let Some(damage) = self.state.tree().new_damage() {
            let said = format!("cannot read all of '{}': {damage}", self.source);
            self.state.say(said);
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

impl<T: AsScan> Session for Browser<T> {
    fn on_event(&mut self, event: &Event) -> bool {
        Browser::on_event(self, event)
    }

    fn wait_time(&self) -> Duration {
        IDLE_WAIT
    }

    fn draw<B: Backend>(&mut self, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        B::Error: Send + Sync + 'static,
    {
        Browser::draw(self, terminal)
    }

    fn quit(&self) -> bool {
        self.state.quit()
    }

    fn report(&mut self, config: &Config) -> ExitStatus {
        self.report.map_or(ExitStatus::Success, |report| {
            report(config, self.state.tree())
        })
    }

    fn marked(&self) -> bool {
        !self.state.marks().is_empty()
    }

    fn print_marked(
        &mut self,
        out: &mut dyn io::Write,
        terminal: bool,
        null: bool,
    ) -> io::Result<()> {
        super::marks::print(self.state.marks(), self.state.tree(), out, terminal, null)
    }
}

#[cfg(test)]
#[path = "browse_tests.rs"]
mod tests;
