//! Journey tests of `hogs i`: a real walk of a temp tree, keys typed into the app, frames
//! rendered through ratatui's `TestBackend` and read back as text.

mod browse;
mod command;
mod cursor;
mod delete;
mod diff;
mod export;
mod extents;
mod filter_mouse;
mod fit;
mod header;
mod item;
mod live;
mod local_time;
mod owners;
mod tmux;
mod tmux_view;
mod wide;

use std::ffi::OsString;

use hogs::tree::NodeId;
use hogs::tree::PathFilters;
use hogs::tui::app::App;
use hogs::tui::event::key_event;
use hogs::tui::state::Options;
use hogs::tui::style::Styles;
use hogs::vocab::{SizeMode, UnitStyle};
use hogs::walk::{Exclusions, WalkOptions};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::Event;
use ratatui::Terminal;

use crate::util::TestEnv;

pub struct Journey {
    pub app: App,
    pub term: Terminal<TestBackend>,
}

pub fn walk_options(mode: SizeMode) -> WalkOptions {
    WalkOptions {
        mode,
        one_filesystem: false,
        follow_links: false,
        exclusions: Exclusions::default(),
        threads: Some(2),
        keep_identity: true,
        sparse_identity: false,
        keep_extra: false,
        keep_times: true,
        fold_files: false,
    }
}

impl Journey {
    /// Scans `paths` (relative to the env root) to the end and draws the first frame.
    pub fn open(env: &TestEnv, paths: &[&str], width: u16, height: u16) -> Journey {
        Journey::open_with(env, paths, width, height, SizeMode::Disk, true)
    }

    pub fn open_with(
        env: &TestEnv,
        paths: &[&str],
        width: u16,
        height: u16,
        mode: SizeMode,
        allow_delete: bool,
    ) -> Journey {
        let mut app = App::new(
            walk_options(mode),
            PathFilters::default(),
            Options {
                mode,
                units: UnitStyle::HumanIec,
                allow_delete,
            },
            Styles::plain(),
        );
        let paths: Vec<OsString> = paths.iter().map(|p| env.path(p).into()).collect();
        app.start_scan(paths);
        app.wait_for_scan();
        let term = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
        let mut j = Journey { app, term };
        j.draw();
        j
    }

    /// A view with no walk started yet.
    pub fn empty(width: u16, height: u16, mode: SizeMode) -> Journey {
        let app = App::new(
            walk_options(mode),
            PathFilters::default(),
            Options {
                mode,
                units: UnitStyle::HumanIec,
                allow_delete: true,
            },
            Styles::plain(),
        );
        let term = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
        Journey { app, term }
    }

    pub fn draw(&mut self) {
        self.app.draw(&mut self.term).expect("draw");
    }

    pub fn event(&mut self, e: Event) {
        self.app.on_event(&e);
        self.app.wait_for_work();
        self.draw();
    }

    /// Types the keys of `text` (see `key_event`), drawing after each, as the loop does.
    pub fn keys(&mut self, text: &str) {
        for c in text.chars() {
            self.event(key_event(c));
        }
    }

    /// The screen, one string per line (wide characters take their cell plus a blank one).
    pub fn lines(&self) -> Vec<String> {
        let buf = self.term.backend().buffer();
        let w = buf.area.width as usize;
        buf.content()
            .chunks(w)
            .map(|row| row.iter().map(|c| c.symbol()).collect::<String>())
            .collect()
    }

    pub fn screen(&self) -> String {
        self.lines().join("\n")
    }

    /// Names of the rows of the current directory, in order.
    pub fn rows(&self) -> Vec<String> {
        let s = &self.app.state;
        s.rows()
            .iter()
            .map(|&id| String::from_utf8_lossy(s.name(id)).into_owned())
            .collect()
    }

    pub fn selected_name(&self) -> String {
        let s = &self.app.state;
        s.selected()
            .map(|id| String::from_utf8_lossy(s.name(id)).into_owned())
            .unwrap_or_default()
    }

    /// The node of the row named `name` in the current directory.
    pub fn row(&self, name: &str) -> NodeId {
        let s = &self.app.state;
        *s.rows()
            .iter()
            .find(|&&id| s.name(id) == name.as_bytes())
            .unwrap_or_else(|| panic!("no row {name:?} in {:?}", self.rows()))
    }

    /// Moves the cursor onto the row named `name`.
    pub fn select(&mut self, name: &str) {
        self.keys("g");
        for _ in 0..self.rows().len() {
            if self.selected_name() == name {
                return;
            }
            self.keys("j");
        }
        panic!("no row {name:?} in {:?}", self.rows());
    }

    /// The screen line of the row named `name` in the current directory.
    pub fn row_line(&self, name: &str) -> String {
        let s = &self.app.state;
        let id = self.row(name);
        let i = s.rows().iter().position(|&r| r == id).expect("row");
        let y = s.list_top() as usize + i - s.nav().offset();
        self.lines()[y].clone()
    }

    /// The screen line showing the row named `name`.
    pub fn line_of(&self, name: &str) -> String {
        self.lines()
            .into_iter()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name:?} not on screen:\n{}", self.screen()))
    }
}
