//! Everything the interactive view knows, and how each action changes it. Pure: no terminal
//! and no filesystem here. Work with side effects (deleting, rescanning, stopping the walk)
//! is handed back to the event loop as a [`Request`].

use rustc_hash::FxHashMap;

use super::action::{Action, InputMode};
use super::diff::{removed_of, Delta};
use super::listing::{Filter, Listing, Sort, SortKey, Source};
use super::marks::Marks;
use crate::tree::{EntryKind, Node, NodeId, Tree, TOTAL};
use crate::units::format_size;
use crate::vocab::{SizeMode, UnitStyle};

/// What the event loop must do for the state (things with side effects).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Delete these entries (outermost first marks), or move them to the trash.
    Delete { targets: Vec<NodeId>, trash: bool },
    /// Scan this entry again and graft the result.
    Rescan(NodeId),
    /// Stop the walk in progress, keeping what it found.
    StopScan,
}

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
}

/// The walk as the header shows it.
#[derive(Clone, Debug, Default)]
pub struct ScanStatus {
    pub running: bool,
    /// Stopped before the end (Ctrl-C): what is shown is incomplete.
    pub stopped: bool,
    pub entries: u64,
    pub bytes: u64,
    /// Entries that could not be read.
    pub errors: usize,
}

/// Settings the state starts with.
#[derive(Clone, Debug)]
pub struct Options {
    pub mode: SizeMode,
    pub units: UnitStyle,
    /// `--no-delete` turns `d` and `t` off.
    pub allow_delete: bool,
}

#[derive(Debug)]
pub struct State {
    pub tree: Tree,
    pub mode: SizeMode,
    pub units: UnitStyle,
    pub sort: Sort,
    pub show_count: bool,
    pub show_mtime: bool,
    /// The directory whose children are the rows.
    pub dir: NodeId,
    /// The highest directory (a single root, or TOTAL above several).
    top: NodeId,
    listing: Listing,
    /// Bumped whenever sizes change: cached orders are then stale.
    generation: u64,
    cursor: usize,
    selected: Option<NodeId>,
    /// First row on screen.
    pub offset: usize,
    /// Screen lines of the row list: first line and count (set from the layout).
    pub list_top: u16,
    pub page: usize,
    /// The child that was selected when each directory was left.
    memory: FxHashMap<NodeId, NodeId>,
    pub overlay: Overlay,
    pub filter: Filter,
    pub marks: Marks,
    /// One line for the footer (what just happened), until the next key.
    pub message: Option<String>,
    pub scan: ScanStatus,
    /// A delete or rescan runs: no second one meanwhile. The text says what runs.
    pub busy: Option<String>,
    pub allow_delete: bool,
    /// The tree came from `--import`, not from this disk.
    pub imported: bool,
    pub quit: bool,
    /// Entries deleted during a live walk: the finished walk's tree is shown without them.
    pub(super) removed: Vec<NodeId>,
    /// The comparison with an earlier scan (`--diff`), if one was asked for.
    pub delta: Option<Delta>,
    /// What the walk and the rescans could not read, one line each (`e` lists them).
    pub errors: Vec<String>,
    /// The message to show when the rescan in progress ends, instead of "rescanned".
    pub(super) after_rescan: Option<String>,
}

impl State {
    pub fn new(tree: Tree, opts: Options) -> State {
        let roots = tree.roots();
        let top = if roots.len() == 1 { roots.start } else { TOTAL };
        let mut s = State {
            tree,
            mode: opts.mode,
            units: opts.units,
            sort: Sort::default(),
            show_count: false,
            show_mtime: false,
            dir: top,
            top,
            listing: Listing::default(),
            generation: 0,
            cursor: 0,
            selected: None,
            offset: 0,
            list_top: 0,
            page: 10,
            memory: FxHashMap::default(),
            overlay: Overlay::None,
            filter: Filter::default(),
            marks: Marks::default(),
            message: None,
            scan: ScanStatus::default(),
            busy: None,
            allow_delete: opts.allow_delete,
            imported: false,
            quit: false,
            removed: Vec::new(),
            delta: None,
            errors: Vec::new(),
            after_rescan: None,
        };
        s.refresh();
        s
    }

    /// Rows of the current directory, in display order (filtered).
    pub fn rows(&self) -> &[NodeId] {
        self.listing.rows()
    }

    /// The largest size among the current directory's children (bars are relative to it).
    pub fn largest(&self) -> u64 {
        self.listing.largest()
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn selected(&self) -> Option<NodeId> {
        self.rows().get(self.cursor).copied()
    }

    pub fn top(&self) -> NodeId {
        self.top
    }

    /// What the rows are drawn from.
    pub fn source(&self) -> Source<'_> {
        Source {
            tree: &self.tree,
            delta: self.delta.as_ref(),
            compared: !self.scan.running,
        }
    }

    /// The node of a row: of the tree, or of the earlier scan for a removed row.
    pub fn node(&self, id: NodeId) -> Node {
        self.source().node(id)
    }

    /// The name of a row (a root's is the path as typed).
    pub fn name(&self, id: NodeId) -> &[u8] {
        self.source().name(id)
    }

    /// The full path of a row.
    pub fn path(&self, id: NodeId) -> Vec<u8> {
        self.source().path(id)
    }

    /// Whether a row is an entry of the earlier scan only (not on the disk).
    pub fn is_removed_row(&self, id: NodeId) -> bool {
        removed_of(id).is_some()
    }

    pub fn input_mode(&self) -> InputMode {
        match self.overlay {
            Overlay::Confirm { .. } | Overlay::ConfirmQuit => InputMode::Confirm,
            Overlay::Help | Overlay::Report(_) | Overlay::Errors | Overlay::Owners { .. } => {
                InputMode::Dismiss
            }
            Overlay::None if self.filter.editing => InputMode::Filter,
            Overlay::None => InputMode::Normal,
        }
    }

    pub fn format(&self, value: u64) -> String {
        format_size(value, self.mode, self.units)
    }

    /// The tree changed (new sums of a walk, delete, rescan): sorts are redone when next needed
    /// and the cursor stays on the same entry.
    pub fn set_tree(&mut self, tree: Tree) {
        self.tree = tree;
        self.tree.remove_all(&self.removed);
        self.tree_changed();
    }

    /// Compares what is shown with an earlier scan (a finished tree): a change column, a sort
    /// by change and the change in the header.
    pub fn compare_with(&mut self, old: Tree) {
        self.delta = Delta::new(old);
        self.sort = Sort {
            key: SortKey::Change,
            reverse: false,
        };
        self.tree_changed();
    }

    pub(super) fn tree_changed(&mut self) {
        if let Some(d) = &mut self.delta {
            d.update(&self.tree, self.mode);
        }
        self.generation += 1;
        self.listing.invalidate();
        let roots = self.tree.roots();
        let top = if roots.len() == 1 { roots.start } else { TOTAL };
        if top != self.top {
            // the walk has just added its roots
            if self.dir == self.top {
                self.dir = top;
            }
            self.top = top;
        }
        let gone = |s: &State| match &s.delta {
            Some(d) if removed_of(s.dir).is_some() => !d.is_removed(&s.tree, s.dir),
            _ => false,
        };
        if gone(self) {
            // a removed entry that is not one any more (or not shown now)
            self.selected = None;
            self.dir = self.top;
        }
        while self.dir != TOTAL && removed_of(self.dir).is_none() && !self.tree.is_live(self.dir) {
            // deleted, or replaced by a rescan: show the nearest directory still there
            self.selected = None;
            self.dir = self.tree.parent(self.dir);
        }
        let tree = &self.tree;
        self.marks.retain(|m| tree.is_live(m));
        self.refresh();
    }

    /// Sets where the rows are drawn (from the layout of the current frame).
    pub fn set_list_area(&mut self, top: u16, height: u16) {
        self.list_top = top;
        self.page = (height as usize).max(1);
        self.refresh();
    }

    /// Brings the cached rows, the cursor and the scroll offset in line with the state.
    fn refresh(&mut self) {
        let src = Source {
            tree: &self.tree,
            delta: self.delta.as_ref(),
            compared: !self.scan.running,
        };
        self.listing.refresh(
            &src,
            self.dir,
            self.sort,
            self.mode,
            self.generation,
            &self.filter,
        );
        let rows = self.listing.rows();
        if rows.is_empty() {
            self.cursor = 0;
            self.offset = 0;
            return;
        }
        match self.selected {
            Some(id) if rows.get(self.cursor) == Some(&id) => {}
            Some(id) => match rows.iter().position(|&r| r == id) {
                Some(i) => self.cursor = i,
                None => {
                    self.cursor = self.cursor.min(rows.len() - 1);
                    self.selected = Some(rows[self.cursor]);
                }
            },
            None => {
                self.cursor = 0;
                self.selected = Some(rows[0]);
            }
        }
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + self.page {
            self.offset = self.cursor + 1 - self.page;
        }
        self.offset = self.offset.min(rows.len().saturating_sub(self.page));
    }

    fn move_to(&mut self, index: isize) {
        let len = self.rows().len();
        if len == 0 {
            return;
        }
        self.cursor = index.clamp(0, len as isize - 1) as usize;
        self.selected = Some(self.rows()[self.cursor]);
        self.refresh();
    }

    pub(super) fn move_by(&mut self, delta: isize) {
        self.move_to(self.cursor as isize + delta);
    }

    fn enter(&mut self, id: NodeId) {
        if self.node(id).kind() != EntryKind::Dir {
            return;
        }
        if let Some(sel) = self.selected {
            self.memory.insert(self.dir, sel);
        }
        self.dir = id;
        self.filter.clear();
        self.selected = self.memory.get(&id).copied();
        self.cursor = 0;
        self.offset = 0;
        self.refresh();
    }

    fn back(&mut self) {
        if self.dir == self.top {
            return;
        }
        let from = self.dir;
        if let Some(sel) = self.selected {
            self.memory.insert(from, sel);
        }
        self.dir = match (removed_of(from), &self.delta) {
            (Some(_), Some(d)) => d.parent_row(&self.tree, from).unwrap_or(self.top),
            (Some(_), None) => self.top,
            (None, _) => self.tree.parent(from),
        };
        self.filter.clear();
        self.selected = Some(from);
        self.refresh();
    }

    /// The row index of a screen line, if a row is drawn there.
    fn row_at(&self, line: u16) -> Option<usize> {
        let i = self.offset + line.checked_sub(self.list_top)? as usize;
        (line < self.list_top + self.page as u16 && i < self.rows().len()).then_some(i)
    }

    /// Applies one action; returns work for the event loop, if any.
    pub fn apply(&mut self, action: Action) -> Option<Request> {
        if !matches!(action, Action::Resize) {
            self.message = None;
        }
        let page = self.page.max(1) as isize;
        match action {
            Action::Up => self.move_by(-1),
            Action::Down => self.move_by(1),
            Action::ScrollUp => self.move_by(-3),
            Action::ScrollDown => self.move_by(3),
            Action::PageUp => self.move_by(-page),
            Action::PageDown => self.move_by(page),
            Action::Home => self.move_to(0),
            Action::End => self.move_to(isize::MAX),
            Action::Enter => {
                if let Some(id) = self.selected() {
                    self.enter(id);
                }
            }
            Action::Back => self.back(),
            Action::Click(line) => {
                if let Some(i) = self.row_at(line) {
                    self.move_to(i as isize);
                }
            }
            Action::DoubleClick(line) => {
                if let Some(i) = self.row_at(line) {
                    self.move_to(i as isize);
                    self.enter(self.rows()[i]);
                }
            }
            Action::Sort(key) => {
                self.sort = if self.sort.key == key {
                    Sort {
                        key,
                        reverse: !self.sort.reverse,
                    }
                } else {
                    Sort {
                        key,
                        reverse: false,
                    }
                };
                self.refresh();
            }
            Action::ToggleApparent => {
                self.mode = match self.mode {
                    SizeMode::Disk => SizeMode::Apparent,
                    SizeMode::Apparent | SizeMode::Time => SizeMode::Disk,
                    SizeMode::Count => {
                        self.message = Some("sizes were not read (-f counts entries)".into());
                        SizeMode::Count
                    }
                };
                if let Some(d) = &mut self.delta {
                    d.update(&self.tree, self.mode); // "changed" depends on the mode
                }
                self.refresh();
            }
            Action::ToggleCount => self.show_count = !self.show_count,
            Action::ToggleMtime => self.show_mtime = !self.show_mtime,
            Action::Help => self.overlay = Overlay::Help,
            Action::Errors if self.errors.is_empty() => {
                self.message = Some("nothing failed to read".into())
            }
            Action::Errors => self.overlay = Overlay::Errors,
            Action::Owners => self.show_owners(),
            Action::Mark => self.toggle_mark(),
            Action::Delete => self.ask_delete(false),
            Action::Trash => self.ask_delete(true),
            Action::Rescan => return self.rescan(),
            Action::FilterStart => {
                self.filter.editing = true;
                self.refresh();
            }
            Action::FilterInput(c) => {
                let mut text = std::mem::take(&mut self.filter.text);
                text.push(c);
                self.filter.set(text);
                self.refresh();
            }
            Action::FilterBackspace => {
                let mut text = std::mem::take(&mut self.filter.text);
                text.pop();
                self.filter.set(text);
                self.refresh();
            }
            Action::FilterDone => {
                self.filter.editing = false;
                if !self.filter.is_active() {
                    self.filter.clear();
                }
            }
            Action::FilterClear => {
                self.filter.clear();
                self.refresh();
            }
            Action::Quit => {
                if self.marks.is_empty() {
                    self.quit = true;
                } else {
                    self.overlay = Overlay::ConfirmQuit;
                }
            }
            Action::Interrupt => {
                if self.scan.running {
                    return Some(Request::StopScan);
                }
                self.quit = true;
            }
            Action::Confirm => return self.confirm(),
            Action::Cancel => self.overlay = Overlay::None,
            Action::Resize => self.refresh(),
        }
        None
    }

    /// Sort key label with its direction, for the header.
    pub fn sort_label(&self) -> String {
        let ascending = (self.sort.key == SortKey::Name) != self.sort.reverse;
        let arrow = if ascending { '↑' } else { '↓' };
        format!("{} {arrow}", self.sort.key.label())
    }
}
