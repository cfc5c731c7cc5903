//! How the rows are shown: the size mode and units, the sort, the optional columns, the
//! filter typed after `/`, the box drawn over the rows and the footer's one-line message.

use crate::tree::NodeId;
use crate::tui::action::{Action, InputMode};
use crate::tui::listing::{Filter, Sort, SortKey};
use crate::units::format_size;
use crate::vocab::{SizeMode, UnitStyle};

/// A box drawn over the rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    None,
    Help,
    /// Delete (or trash) these entries? No unless `y`.
    Confirm {
        targets: Vec<NodeId>,
        trash: bool,
    },
    /// Quit although entries are marked?
    ConfirmQuit,
    /// The outcome of a delete that did not fully succeed.
    Report(Vec<String>),
    /// What the walk and the rescans could not read (`e`).
    Errors,
    /// Who uses a directory (`o`): a title and one line per owner.
    Owners {
        title: String,
        lines: Vec<String>,
    },
    /// What is known of one entry (`i`).
    Item {
        title: String,
        lines: Vec<String>,
    },
}

/// What a display action changed, for the rest of the state to follow.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Changed {
    /// Only how rows are drawn.
    Looks,
    /// Which rows there are, or their order.
    Rows,
    /// The size mode: the comparison's "changed" too, then the rows.
    Mode,
}

#[derive(Debug)]
pub struct Display {
    mode: SizeMode,
    units: UnitStyle,
    sort: Sort,
    show_count: bool,
    show_mtime: bool,
    /// The first line of the help shown.
    scroll: usize,
    filter: Filter,
    overlay: Overlay,
    /// One line for the footer (what just happened), until the next key.
    message: Option<String>,
}

impl Display {
    pub fn new(mode: SizeMode, units: UnitStyle) -> Display {
        Display {
            mode,
            units,
            sort: Sort::default(),
            show_count: false,
            show_mtime: false,
            scroll: 0,
            filter: Filter::default(),
            overlay: Overlay::None,
            message: None,
        }
    }

    /// What a fresh start keeps of what the user set: mode, units, sort and columns.
    pub fn restart(&self) -> Display {
        Display {
            sort: self.sort,
            show_count: self.show_count,
            show_mtime: self.show_mtime,
            ..Display::new(self.mode, self.units)
        }
    }

    pub fn mode(&self) -> SizeMode {
        self.mode
    }

    pub fn units(&self) -> UnitStyle {
        self.units
    }

    pub fn sort(&self) -> Sort {
        self.sort
    }

    pub fn show_count(&self) -> bool {
        self.show_count
    }

    pub fn show_mtime(&self) -> bool {
        self.show_mtime
    }

    pub fn filter(&self) -> &Filter {
        &self.filter
    }

    pub fn overlay(&self) -> &Overlay {
        &self.overlay
    }

    /// The first line of the help shown (it scrolls where it does not fit).
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    pub fn format(&self, value: u64) -> String {
        format_size(value, self.mode, self.units)
    }

    /// Sort key label with its direction, for the header.
    pub fn sort_label(&self) -> String {
        let ascending = (self.sort.key == SortKey::Name) != self.sort.reverse;
        let arrow = if ascending { '↑' } else { '↓' };
        format!("{} {arrow}", self.sort.key.label())
    }

    pub fn input_mode(&self) -> InputMode {
        match self.overlay {
            Overlay::Confirm { .. } | Overlay::ConfirmQuit => InputMode::Confirm,
            Overlay::Help => InputMode::Scroll,
            Overlay::Report(_)
            | Overlay::Errors
            | Overlay::Owners { .. }
            | Overlay::Item { .. } => InputMode::Dismiss,
            Overlay::None if self.filter.editing => InputMode::Filter,
            Overlay::None => InputMode::Normal,
        }
    }

    /// Sorts by change since the earlier scan (a comparison was asked for).
    pub fn sort_by_change(&mut self) {
        self.sort = Sort {
            key: SortKey::Change,
            reverse: false,
        };
    }

    pub fn say(&mut self, message: impl Into<String>) {
        self.message = Some(message.into());
    }

    pub fn take_message(&mut self) -> Option<String> {
        self.message.take()
    }

    pub fn open(&mut self, overlay: Overlay) {
        self.overlay = overlay;
        self.scroll = 0;
    }

    /// Closes the box drawn over the rows, returning it.
    pub fn close(&mut self) -> Overlay {
        std::mem::replace(&mut self.overlay, Overlay::None)
    }

    /// Forgets the filter (entering or leaving a directory).
    pub fn clear_filter(&mut self) {
        self.filter.clear();
    }

    /// Applies an action of the display; `None` for any other action.
    pub fn apply(&mut self, action: &Action) -> Option<Changed> {
        if self.overlay == Overlay::Help {
            let lines = crate::tui::help::LINES.len();
            self.scroll = match action {
                Action::Down => self.scroll + 1,
                Action::Up => self.scroll.saturating_sub(1),
                Action::PageDown => self.scroll + 10,
                Action::PageUp => self.scroll.saturating_sub(10),
                _ => return None,
            }
            .min(lines);
            return Some(Changed::Looks);
        }
        Some(match action {
            Action::Sort(key) => {
                let reverse = self.sort.key == *key && !self.sort.reverse;
                self.sort = Sort { key: *key, reverse };
                Changed::Rows
            }
            Action::ToggleApparent => {
                self.mode = match self.mode {
                    SizeMode::Disk => SizeMode::Apparent,
                    SizeMode::Apparent | SizeMode::Time => SizeMode::Disk,
                    SizeMode::Count => {
                        self.say("sizes were not read (-f counts entries)");
                        SizeMode::Count
                    }
                };
                Changed::Mode
            }
            Action::ToggleCount => {
                self.show_count = !self.show_count;
                Changed::Looks
            }
            Action::ToggleMtime => {
                self.show_mtime = !self.show_mtime;
                Changed::Looks
            }
            _ => return self.edit_filter(action),
        })
    }

    /// What is typed after `/`.
    fn edit_filter(&mut self, action: &Action) -> Option<Changed> {
        match action {
            Action::FilterStart => self.filter.editing = true,
            Action::FilterInput(c) => {
                let mut text = std::mem::take(&mut self.filter.text);
                text.push(*c);
                self.filter.set(text);
            }
            Action::FilterBackspace => {
                let mut text = std::mem::take(&mut self.filter.text);
                text.pop();
                self.filter.set(text);
            }
            Action::FilterDone => {
                self.filter.editing = false;
                if !self.filter.is_active() {
                    self.filter.clear();
                }
                return Some(Changed::Looks);
            }
            Action::FilterClear => self.filter.clear(),
            _ => return None,
        }
        Some(Changed::Rows)
    }
}
