//! Everything the interactive view knows, and how each action changes it. Pure: no terminal
//! and no filesystem here. Work with side effects (deleting, rescanning, stopping the walk)
//! is handed back to the event loop as a [`Request`].
//!
//! The state is the tree shown and three parts that own their fields: [`Nav`] (where the
//! user is: directory, rows, cursor), [`Display`] (how rows are shown: mode, sort, columns,
//! filter, the box over the rows, the footer's message) and [`Work`] (what runs in the
//! background and what it could not read).
//!
//! The tree is any [`Shown`] one, read through [`crate::tree::TreeView`]: the listing,
//! moves, sorts, the filter and marks are generic over it; what only the in-memory scan can
//! do (live sums, delete, rescan, a comparison, owners) is on `State<Tree>`. Which of
//! delete, rescan and owners a view has is its [`Capabilities`] (a live scan all, an import
//! owners, a tree read on demand none); [`AsScan::act`] carries them out.

mod capabilities;
mod display;
mod item;
mod nav;
mod owners;
mod requests;
mod work;

pub use capabilities::{Can, Capabilities, Off};
pub use display::{Changed, Display, Overlay};
pub use nav::Nav;
pub use requests::Rescanned;
pub use work::{ScanStatus, Work};

use super::action::{Action, InputMode};
use super::diff::Delta;
use super::listing::Source;
use super::marks::Marks;
use super::shown::{removed, Shown};
use crate::tree::{EntryKind, Node, NodeId, Tree};
use crate::vocab::{SizeMode, UnitStyle};
use crate::walk::ScanError;

/// What a view of this kind of tree can do beyond browsing ([`Capabilities`]), and how it
/// does it; the views read the in-memory scan's state through it (a comparison, extents).
/// A read-only tree has none (the defaults).
pub trait AsScan: Shown {
    /// The most a view of this tree can do.
    fn capabilities(_allow_delete: bool) -> Capabilities {
        Capabilities::read_only()
    }

    /// Carries out a key that needs a capability the state has.
    fn act(_state: &mut State<Self>, _action: Action) -> Option<Request> {
        None
    }

    fn scan_state(_state: &State<Self>) -> Option<&State<Tree>> {
        None
    }
}

impl AsScan for Tree {
    fn capabilities(allow_delete: bool) -> Capabilities {
        Capabilities::scan(allow_delete)
    }

    fn act(state: &mut State<Tree>, action: Action) -> Option<Request> {
        match action {
            Action::Owners => state.show_owners(),
            Action::Delete => state.ask_delete(false),
            Action::Trash => state.ask_delete(true),
            Action::Rescan => return state.rescan(false),
            Action::RescanSelected => return state.rescan(true),
            _ => {}
        }
        None
    }

    fn scan_state(state: &State<Tree>) -> Option<&State<Tree>> {
        Some(state)
    }
}

/// The in-memory tree through sparse ids, shown read-only (as a file-backed tree is).
#[cfg(test)]
impl AsScan for crate::tree::Sparse<'_> {}

/// An ncdu 2 binary export read on demand: read-only.
impl<S: crate::formats::ncdu_bin::ReadAt> AsScan for crate::formats::ncdu_bin::lazy::LazyTree<S> {}

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

/// Settings the state starts with.
#[derive(Clone, Debug)]
pub struct Options {
    pub mode: SizeMode,
    pub units: UnitStyle,
    /// `--no-delete` turns `d` and `t` off.
    pub allow_delete: bool,
}

/// What the view shows and where the user is in it, for the in-memory scan (`Tree`) or a
/// read-only tree ([`Shown`]).
#[derive(Debug)]
pub struct State<T: Shown = Tree> {
    tree: T,
    nav: Nav<T::Id>,
    display: Display,
    work: Work,
    marks: Marks<T::Id>,
    /// The comparison with an earlier scan (`--diff`), if one was asked for.
    delta: Option<Delta>,
    /// What the view can do besides browsing.
    can: Capabilities,
    /// The tree came from `--import`, not from this disk.
    imported: bool,
    quit: bool,
}

impl<T: AsScan> State<T> {
    /// The state of a read-only tree (an export browsed without loading it): nothing is
    /// deleted or rescanned.
    pub fn read_only(tree: T, opts: Options) -> State<T> {
        let mut s = State::new(tree, opts);
        s.set_imported();
        s
    }

    pub fn new(tree: T, opts: Options) -> State<T> {
        let top = nav::top_of(&tree);
        let mut s = State {
            tree,
            nav: Nav::new(top),
            display: Display::new(opts.mode, opts.units),
            work: Work::default(),
            marks: Marks::default(),
            delta: None,
            can: T::capabilities(opts.allow_delete),
            imported: false,
            quit: false,
        };
        s.refresh();
        s
    }

    pub fn tree(&self) -> &T {
        &self.tree
    }

    pub fn nav(&self) -> &Nav<T::Id> {
        &self.nav
    }

    pub fn display(&self) -> &Display {
        &self.display
    }

    pub fn work(&self) -> &Work {
        &self.work
    }

    pub fn marks(&self) -> &Marks<T::Id> {
        &self.marks
    }

    pub fn delta(&self) -> Option<&Delta> {
        self.delta.as_ref()
    }

    /// Whether `d` and `t` may delete (not with `--no-delete`, nor in an imported scan).
    pub fn allow_delete(&self) -> bool {
        self.can.delete == Can::Yes
    }

    pub fn imported(&self) -> bool {
        self.imported
    }

    /// Whether the tree is not the in-memory scan: it never changes, and nothing in it is
    /// deleted or rescanned.
    pub fn read_only_tree(&self) -> bool {
        self.can == Capabilities::read_only()
    }

    /// The user asked to quit (and confirmed it if something was marked).
    pub fn quit(&self) -> bool {
        self.quit
    }

    /// The directory whose children are the rows.
    pub fn dir(&self) -> T::Id {
        self.nav.dir()
    }

    pub fn top(&self) -> T::Id {
        self.nav.top()
    }

    /// Rows of the current directory, in display order (filtered).
    pub fn rows(&self) -> &[T::Id] {
        self.nav.rows()
    }

    /// The largest size among the current directory's children (bars are relative to it).
    pub fn largest(&self) -> u64 {
        self.nav.largest()
    }

    pub fn cursor(&self) -> usize {
        self.nav.cursor()
    }

    pub fn selected(&self) -> Option<T::Id> {
        self.nav.selected()
    }

    /// The first screen line of the rows.
    pub fn list_top(&self) -> u16 {
        self.nav.list_top()
    }

    pub fn mode(&self) -> SizeMode {
        self.display.mode()
    }

    pub fn overlay(&self) -> &Overlay {
        self.display.overlay()
    }

    pub fn scan(&self) -> &ScanStatus {
        self.work.scan()
    }

    pub fn format(&self, value: u64) -> String {
        self.display.format(value)
    }

    pub fn sort_label(&self) -> String {
        self.display.sort_label()
    }

    pub fn input_mode(&self) -> InputMode {
        self.display.input_mode()
    }

    /// What the rows are drawn from.
    pub fn source(&self) -> Source<'_, T> {
        Source {
            tree: &self.tree,
            delta: self.delta.as_ref(),
            compared: !self.work.scan().running,
        }
    }

    /// The node of a row: of the tree, or of the earlier scan for a removed row.
    pub fn node(&self, id: T::Id) -> Node {
        self.source().node(id)
    }

    /// The name of a row (a root's is the path as typed).
    pub fn name(&self, id: T::Id) -> &[u8] {
        self.source().name(id)
    }

    /// The full path of a row.
    pub fn path(&self, id: T::Id) -> Vec<u8> {
        self.source().path(id)
    }

    /// Whether a row is an entry of the earlier scan only (not on the disk).
    pub fn is_removed_row(&self, id: T::Id) -> bool {
        removed::<T>(id).is_some()
    }

    /// Shows a scan loaded from an export: its entries may not be on this disk, or not be
    /// the same ones, so deleting and rescanning are off.
    pub fn set_imported(&mut self) {
        self.imported = true;
        self.can = self.can.imported();
    }

    /// A delete or rescan runs (the text says which): no second one meanwhile.
    /// What a saved scan records it could not read (one line each, for the screen), shown
    /// as a walk's errors are.
    pub fn recorded_errors(&mut self, lines: Vec<String>) {
        let count = lines.len();
        self.work.scan_errors(lines, count);
    }

    /// One line in the footer until the next key.
    pub fn say(&mut self, message: impl Into<String>) {
        self.display.say(message);
    }

    pub fn set_busy(&mut self, what: impl Into<String>) {
        self.work.set_busy(what.into());
    }

    pub fn scan_started(&mut self) {
        self.work.scan_started();
    }

    /// The walk was asked to stop: what is shown will be incomplete.
    pub fn scan_stopped(&mut self) {
        self.work.scan_stopped();
    }

    pub fn scan_progress(&mut self, entries: u64, bytes: u64) {
        self.work.scan_progress(entries, bytes);
    }

    /// Sets where the rows are drawn (from the layout of the current frame).
    pub fn set_list_area(&mut self, top: u16, height: u16) {
        self.nav.set_area(top, height);
        self.refresh();
    }

    /// Brings the cached rows, the cursor and the scroll offset in line with the state.
    fn refresh(&mut self) {
        let src = Source {
            tree: &self.tree,
            delta: self.delta.as_ref(),
            compared: !self.work.scan().running,
        };
        self.nav.refresh(&src, &self.display);
    }

    fn enter(&mut self, id: T::Id) {
        if self.node(id).kind() != EntryKind::Dir {
            return;
        }
        self.nav.enter(id);
        self.display.clear_filter();
        self.refresh();
    }

    fn back(&mut self) {
        let from = self.nav.dir();
        if from == self.nav.top() {
            return;
        }
        let parent = match (removed::<T>(from), &self.delta, self.tree.scan()) {
            (Some(_), Some(d), Some(scan)) => T::scan_id(from)
                .and_then(|f| d.parent_row(scan, f))
                .and_then(T::from_scan_id)
                .unwrap_or(self.nav.top()),
            (Some(_), _, _) => self.nav.top(),
            (None, _, _) => self.tree.parent(from),
        };
        self.nav.back_to(parent);
        self.display.clear_filter();
        self.refresh();
    }

    /// Applies one action; returns work for the event loop, if any.
    pub fn apply(&mut self, action: Action) -> Option<Request> {
        if !matches!(action, Action::Resize) {
            self.display.take_message();
        }
        if let Some(changed) = self.display.apply(&action) {
            if changed == Changed::Mode {
                if let (Some(d), Some(scan)) = (&mut self.delta, self.tree.scan()) {
                    d.update(scan, self.display.mode()); // "changed" depends on the mode
                }
            }
            if changed != Changed::Looks {
                self.refresh();
            }
            return None;
        }
        if self.navigate(&action) {
            return None;
        }
        match action {
            Action::Help => self.display.open(Overlay::Help),
            Action::Item => self.show_item(),
            Action::Errors if self.work.errors().is_empty() => {
                self.display.say("nothing failed to read")
            }
            Action::Errors => self.display.open(Overlay::Errors),
            Action::Mark => self.toggle_mark(),
            Action::Owners
            | Action::Delete
            | Action::Trash
            | Action::Rescan
            | Action::RescanSelected => return self.on_capability(action),
            Action::Quit if self.marks.is_empty() => self.quit = true,
            Action::Quit => self.display.open(Overlay::ConfirmQuit),
            Action::Interrupt => return self.interrupt(),
            Action::Confirm => return self.confirm(),
            Action::Cancel => {
                self.display.close();
            }
            Action::Resize => self.refresh(),
            _ => {} // moves and display changes, applied above
        }
        None
    }

    /// Ctrl-C: stops the walk, keeping what it found; while it stops, and once it stopped,
    /// a second Ctrl-C must not throw that away: it is ignored, then asks before quitting.
    fn interrupt(&mut self) -> Option<Request> {
        let scan = self.work.scan();
        match (scan.running, scan.stopped) {
            (true, false) => return Some(Request::StopScan),
            (true, true) => self.display.say("stopping the scan… (q quits)"),
            (false, true) => self.display.open(Overlay::ConfirmQuit),
            (false, false) => self.quit = true,
        }
        None
    }

    /// Applies a move; returns whether the action was one.
    fn navigate(&mut self, action: &Action) -> bool {
        let page = self.nav.page().max(1) as isize;
        match *action {
            Action::Up => self.nav.move_by(-1),
            Action::Down => self.nav.move_by(1),
            Action::ScrollUp => self.nav.move_by(-3),
            Action::ScrollDown => self.nav.move_by(3),
            Action::PageUp => self.nav.move_by(-page),
            Action::PageDown => self.nav.move_by(page),
            Action::Home => self.nav.move_to(0),
            Action::End => self.nav.move_to(isize::MAX),
            Action::Enter => {
                if let Some(id) = self.selected() {
                    self.enter(id);
                }
            }
            Action::Back => self.back(),
            Action::Click(line) => {
                if let Some(i) = self.nav.row_at(line) {
                    self.nav.move_to(i as isize);
                }
            }
            Action::DoubleClick(line) => {
                if let Some(i) = self.nav.row_at(line) {
                    self.nav.move_to(i as isize);
                    self.enter(self.rows()[i]);
                }
            }
            _ => return false,
        }
        true
    }
}

impl State<Tree> {
    /// The tree itself, to change in place (the caller then calls [`State::tree_changed`]),
    /// or to swap with the walk's ([`super::app::App::lend`]).
    pub(in crate::tui) fn tree_mut(&mut self) -> &mut Tree {
        &mut self.tree
    }

    /// The walk ended (or an export was loaded): its finished tree is shown, with what it
    /// could not read, and `note` in the footer.
    pub fn scan_done(&mut self, tree: Tree, errors: &[ScanError], note: Option<&str>) {
        if let Some(note) = note {
            self.display.say(note);
        }
        // first: the rows of a finished walk list what a comparison found removed
        self.work.scan_ended();
        self.set_tree(tree);
        let lines = super::errors::lines(errors, &self.tree);
        self.work.scan_errors(lines, errors.len());
    }

    /// The tree changed (new sums of a walk, delete, rescan): sorts are redone when next needed
    /// and the cursor stays on the same entry.
    pub fn set_tree(&mut self, tree: Tree) {
        self.tree = tree;
        self.tree.remove_all(self.work.removed());
        self.tree_changed();
    }

    /// Compares what is shown with an earlier scan (a finished tree): a change column, a sort
    /// by change and the change in the header.
    pub fn compare_with(&mut self, old: Tree) {
        self.delta = Delta::new(old);
        self.display.sort_by_change();
        self.tree_changed();
    }

    /// The state a rescan with `--extents` starts from: what the user set (sort, columns, the
    /// comparison), and no tree, marks or selection, whose ids were the old walk's.
    pub fn start_over(&mut self, message: &str) {
        let tree = crate::tree::TreeBuilder::new().into_tree();
        let top = nav::top_of(&tree);
        let mut fresh = State {
            tree,
            nav: self.nav.restart(top),
            display: self.display.restart(),
            work: Work::default(),
            marks: Marks::default(),
            delta: self.delta.take(),
            can: self.can,
            imported: false,
            quit: false,
        };
        fresh.display.say(message);
        fresh.refresh();
        *self = fresh;
    }

    pub(in crate::tui) fn tree_changed(&mut self) {
        if let Some(d) = &mut self.delta {
            d.update(&self.tree, self.display.mode());
        }
        self.nav.tree_changed(&self.tree, self.delta.as_ref());
        let tree = &self.tree;
        self.marks.retain(|m| tree.is_live(m));
        self.refresh();
    }
}
