//! The event loop, generic over the backend (a terminal, or ratatui's `TestBackend`) and the
//! event source (the terminal's, or a script), and the background work it starts: the live
//! walk, deletions and rescans. The UI thread only ever waits on input, with a timeout.

use std::ffi::OsString;
use std::io;
use std::os::unix::ffi::OsStringExt;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use ratatui::backend::Backend;
use ratatui::layout::Rect;
use ratatui::Terminal;

use super::action::Mapper;
use super::delete;
use super::session::Session;
use super::state::{Options, Request, Rescanned, State};
use super::style::Styles;
use super::view;
use crate::config::Config;
use crate::error::ExitStatus;
use crate::settle::{settle, settle_live, Extents, Plan, Totals};
use crate::tree::PathFilters;
use crate::tree::{NodeId, TreeBuilder};
use crate::vocab::SizeMode;
use crate::walk::WalkOptions;
use crate::walk::{walk, walk_live, LiveScan, Progress, Scan, ScanError};

/// Scan updates (totals summed again) redraw at most this often; a sum that takes long
/// spaces them further (at most a tenth of the time goes to them).
const MIN_SUM_INTERVAL: Duration = Duration::from_millis(100);
/// How long the loop waits for input when nothing runs in the background.
const IDLE_WAIT: Duration = Duration::from_millis(250);

/// Results of background work, sent to the UI thread.
enum Done {
    /// A finished walk or a loaded export. A walk's scan has an empty tree when the tree
    /// stayed in its [`LiveScan`] (`keep_tree`).
    Scan(Box<Scan>, Loaded),
    DeleteProgress(usize, usize),
    Deleted {
        outcome: delete::Outcome,
        refused: Vec<String>,
        trash: bool,
    },
    Rescanned(NodeId, Rescanned),
}

/// What of the settle stage a finished scan has been through.
enum Loaded {
    /// None: its tree is as the walk or the import made it.
    Raw,
    /// All of it, off the event loop (`--extents` measures every file), and what to say of
    /// its extents.
    Settled(Option<&'static str>),
}

/// How the view settles a tree: its filters, disk sizes (the view switches modes itself).
fn settle_plan(filters: &PathFilters, extents: Extents) -> Plan<'_> {
    Plan {
        filters,
        mode: SizeMode::Disk,
        extents,
        time: None,
        totals: Totals::Summed,
    }
}

/// The walk in progress, watched through its [`LiveScan`]. The view shows the walk's own
/// tree, lent to it under the lock the walk takes ([`App::lend`]): one copy of the scan,
/// where a copy for each update was two.
struct LiveWalk {
    live: Arc<LiveScan>,
    progress: Arc<Progress>,
    last_sum: Instant,
    interval: Duration,
    /// The view has held the walk's tree at least once: from then on it waits for the
    /// lock rather than show the empty tree it holds meanwhile.
    lent_once: bool,
}

pub struct App {
    pub state: State,
    pub styles: Styles,
    mapper: Mapper,
    walk: WalkOptions,
    filters: PathFilters,
    walking: Option<LiveWalk>,
    /// The state holds the walk's tree now ([`App::lend`]).
    lent: bool,
    /// `--extents`: a finished walk's files are measured by their extents before it is
    /// shown, and a rescan reads the whole scan again (a range of disk counts once in the
    /// scan, which no part of it can tell alone).
    pub extents: bool,
    /// What the walk was started on (what an `--extents` rescan reads again).
    paths: Vec<OsString>,
    /// Errors of the finished walk (printed on exit).
    pub errors: Vec<ScanError>,
    tx: Sender<Done>,
    rx: Receiver<Done>,
}

impl App {
    pub fn new(walk: WalkOptions, filters: PathFilters, opts: Options, styles: Styles) -> App {
        let (tx, rx) = channel();
        App {
            state: State::new(crate::tree::TreeBuilder::new().into_tree(), opts),
            styles,
            mapper: Mapper::default(),
            walk: WalkOptions {
                keep_identity: true,
                sparse_identity: false,
                keep_times: true, // the mtime column and sort
                ..walk
            },
            filters,
            walking: None,
            lent: false,
            extents: false,
            paths: Vec::new(),
            errors: Vec::new(),
            tx,
            rx,
        }
    }

    /// Starts walking `paths` in the background; the view shows the tree as it grows.
    pub fn start_scan(&mut self, paths: Vec<OsString>) {
        self.start_scan_watched(paths, Arc::new(LiveScan::keeping_tree()));
    }

    /// [`App::start_scan`] through a given [`LiveScan`] (tests hold its lock to pause the walk).
    pub fn start_scan_watched(&mut self, paths: Vec<OsString>, live: Arc<LiveScan>) {
        let progress = Arc::new(Progress::default());
        self.paths.clone_from(&paths);
        let (l, p, opts, tx) = (
            Arc::clone(&live),
            Arc::clone(&progress),
            self.walk.clone(),
            self.tx.clone(),
        );
        let extents = self.extents.then(|| self.filters.clone());
        std::thread::spawn(move || {
            let mut scan = walk_live(&paths, &opts, &p, &l);
            let mut loaded = Loaded::Raw;
            if let Some(filters) = extents {
                // measured apart: the view goes on with the walk's tree meanwhile
                if l.keep_tree {
                    let kept = l.builder.lock().unwrap_or_else(PoisonError::into_inner);
                    scan.tree = kept.tree().clone();
                }
                let threads = opts.threads;
                let plan = settle_plan(&filters, Extents::Measure { threads });
                let settled = settle(std::mem::take(&mut scan.tree), &plan);
                scan.tree = settled.tree;
                loaded = Loaded::Settled(settled.note);
            }
            let _ = tx.send(Done::Scan(Box::new(scan), loaded));
        });
        self.watch(live, progress);
    }

    /// Shows a scan loaded from an export (`--import`). Its entries may not be on this disk,
    /// or not be the same ones: deleting and rescanning are off.
    pub fn show_imported(&mut self, scan: Scan) {
        self.state.set_imported();
        self.handle(Done::Scan(Box::new(scan), Loaded::Raw));
    }

    /// Shows the tree of a walk that runs elsewhere, growing as `live` does.
    pub fn watch(&mut self, live: Arc<LiveScan>, progress: Arc<Progress>) {
        self.state.scan_started();
        self.walking = Some(LiveWalk {
            live,
            progress,
            // the first sum comes after one interval: the first frame does not wait
            last_sum: Instant::now(),
            interval: MIN_SUM_INTERVAL,
            lent_once: false,
        });
    }

    /// Runs `f` with the scan's tree in the state. While a walk runs that is the walk's own
    /// tree, lent under its lock (the walk's threads wait meanwhile, as they do for each
    /// other); until it was first had, the empty tree the state holds if the walk is in the
    /// lock (a view that never waits for a walk that has read nothing yet).
    pub fn lend<R>(&mut self, f: impl FnOnce(&mut App) -> R) -> R {
        let (live, first) = match &self.walking {
            Some(w) if !self.lent => (Arc::clone(&w.live), !w.lent_once),
            _ => return f(self),
        };
        let guard = if first {
            match live.builder.try_lock() {
                Ok(g) => Some(g),
                Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
                Err(std::sync::TryLockError::WouldBlock) => None,
            }
        } else {
            Some(live.builder.lock().unwrap_or_else(PoisonError::into_inner))
        };
        let Some(builder) = guard else {
            return f(self);
        };
        let mut loan = Loan::new(self, builder);
        f(&mut loan)
    }

    /// Blocks until the background walk has finished and its tree is shown (tests).
    pub fn wait_for_scan(&mut self) {
        while self.walking.is_some() {
            match self.rx.recv() {
                Ok(done) => self.handle(done),
                Err(_) => break,
            }
        }
    }

    /// Blocks until the delete or rescan in progress has finished (tests).
    pub fn wait_for_work(&mut self) {
        while self.state.work().busy().is_some() {
            match self.rx.recv_timeout(Duration::from_secs(300)) {
                Ok(done) => self.handle(done),
                Err(_) => break,
            }
        }
    }

    /// Starts what the state asked for.
    pub fn start(&mut self, req: Request) {
        self.lend(|app| app.start_lent(req));
    }

    fn start_lent(&mut self, req: Request) {
        match req {
            Request::StopScan => {
                if let Some(w) = &self.walking {
                    w.live.cancel.store(true, Ordering::Relaxed);
                    self.state.scan_stopped();
                }
            }
            Request::Delete { targets, trash } => {
                let (targets, refused) = delete::plan(self.state.tree(), &targets);
                let tx = self.tx.clone();
                std::thread::spawn(move || {
                    let total = targets.len();
                    let outcome = delete::run(&targets, trash, |done| {
                        let _ = tx.send(Done::DeleteProgress(done, total));
                    });
                    let _ = tx.send(Done::Deleted {
                        outcome,
                        refused,
                        trash,
                    });
                });
            }
            Request::Rescan(_) if self.extents => {
                self.state
                    .start_over("--extents: reading the whole scan again");
                self.start_scan(self.paths.clone());
            }
            Request::Rescan(id) => {
                let path = OsString::from_vec(self.state.tree().path(id));
                let (opts, filters, tx) =
                    (self.walk.clone(), self.filters.clone(), self.tx.clone());
                std::thread::spawn(move || {
                    let scan = walk(std::slice::from_ref(&path), &opts, &Progress::default());
                    let result = if scan.tree.roots().is_empty() {
                        match scan.errors.first().map(|e| e.errno) {
                            None | Some(libc::ENOENT | libc::ENOTDIR) => Rescanned::Gone,
                            Some(errno) => Rescanned::Failed(format!(
                                "cannot rescan: {}",
                                crate::sys::describe(errno)
                            )),
                        }
                    } else {
                        let errors = super::errors::lines(&scan.errors, &scan.tree);
                        let plan = settle_plan(&filters, Extents::Saved);
                        Rescanned::Tree(Box::new(settle(scan.tree, &plan).tree), errors)
                    };
                    let _ = tx.send(Done::Rescanned(id, result));
                });
            }
        }
    }

    fn handle(&mut self, done: Done) {
        match done {
            Done::Scan(scan, loaded) => self.scan_done(*scan, loaded),
            other => self.lend(|app| app.handle_lent(other)),
        }
    }

    /// The walk ended (or an export was loaded): its tree, filtered and summed, is shown.
    fn scan_done(&mut self, mut scan: Scan, loaded: Loaded) {
        debug_assert!(!self.lent, "the walk's tree is taken back, never lent");
        if let (0, Some(w)) = (scan.tree.len(), &self.walking) {
            let mut kept = w
                .live
                .builder
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            scan.tree = std::mem::take(&mut *kept).into_tree();
        }
        let (tree, note) = match loaded {
            Loaded::Settled(note) => (scan.tree, note),
            Loaded::Raw => {
                let plan = settle_plan(&self.filters, Extents::Saved);
                (settle(scan.tree, &plan).tree, None)
            }
        };
        self.state.scan_done(tree, &scan.errors, note);
        if let Some(w) = self.walking.take() {
            let p = &w.progress;
            let (entries, bytes) = (&p.entries, &p.bytes);
            self.state.scan_progress(
                entries.load(Ordering::Relaxed),
                bytes.load(Ordering::Relaxed),
            );
        }
        self.errors = scan.errors;
    }

    fn handle_lent(&mut self, done: Done) {
        match done {
            Done::Scan(..) => {} // (taken by `handle`, never lent)
            Done::DeleteProgress(done, total) => {
                self.state.set_busy(format!("deleting {done}/{total}"));
            }
            Done::Deleted {
                outcome,
                mut refused,
                trash,
            } => {
                refused.extend(outcome.failed);
                self.state
                    .delete_done(&outcome.removed, &refused, outcome.partial.len(), trash);
                if let Some(req) = self.state.trash_in_scan(&outcome.trashed_to) {
                    self.start(req);
                }
            }
            Done::Rescanned(id, result) => self.state.rescan_done(id, result),
        }
    }

    /// Applies finished background work and, while walking, fresh sums of the walk's tree
    /// when they are due (at most once per [`MIN_SUM_INTERVAL`]). Returns whether anything
    /// changed on screen.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Ok(done) = self.rx.try_recv() {
            self.handle(done);
            changed = true;
        }
        let due = self
            .walking
            .as_ref()
            .is_some_and(|w| w.last_sum.elapsed() >= w.interval);
        if due {
            let started = Instant::now();
            self.lend(|app| app.sum_walk());
            if let Some(w) = &mut self.walking {
                let p = &w.progress;
                let (entries, bytes) = (&p.entries, &p.bytes);
                self.state.scan_progress(
                    entries.load(Ordering::Relaxed),
                    bytes.load(Ordering::Relaxed),
                );
                w.interval = MIN_SUM_INTERVAL.max(started.elapsed() * 10);
                w.last_sum = Instant::now();
            }
            changed = true;
        }
        changed
    }

    /// Sums the totals of the walk's tree as it is now (lent to the state), never more than
    /// is on disk: a hard link counts once from its first name on, removed entries not.
    fn sum_walk(&mut self) {
        if !self.lent {
            return; // the walk holds its lock yet: nothing read
        }
        settle_live(self.state.tree_mut(), &self.filters);
        self.state.tree_changed();
    }

    fn wait_time(&self) -> Duration {
        match &self.walking {
            Some(w) => w.interval.saturating_sub(w.last_sum.elapsed()),
            None if self.state.work().busy().is_some() => MIN_SUM_INTERVAL,
            None => IDLE_WAIT,
        }
    }

    /// One input event: mapped to an action and applied. Returns whether it did anything.
    pub fn on_event(&mut self, event: &ratatui::crossterm::event::Event) -> bool {
        let Some(action) = self
            .mapper
            .map(event, self.state.input_mode(), Instant::now())
        else {
            return false;
        };
        self.lend(|app| {
            if let Some(req) = app.state.apply(action) {
                app.start(req);
            }
        });
        true
    }

    /// Lays the screen out for this size (the state needs to know where rows are).
    pub fn resize(&mut self, width: u16, height: u16) {
        self.lend(|app| {
            let areas = view::layout(Rect::new(0, 0, width, height), &app.state);
            app.state.set_list_area(areas.list.y, areas.list.height);
        });
    }

    /// Draws one frame.
    pub fn draw<B: Backend>(&mut self, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        B::Error: Send + Sync + 'static,
    {
        let size = terminal.size().map_err(io::Error::other)?;
        self.lend(|app| {
            app.resize(size.width, size.height);
            let (state, styles) = (&app.state, &app.styles);
            terminal
                .draw(|f| view::draw(f, state, styles))
                .map_err(io::Error::other)?;
            Ok(())
        })
    }
}

/// The walk's tree lent to the state ([`App::lend`]): swapped in when made, given back to
/// the walk when dropped, whatever way the borrower ends (a panic included), and only then
/// is the walk's lock released.
struct Loan<'a, 'b> {
    app: &'a mut App,
    builder: MutexGuard<'b, TreeBuilder>,
}

impl<'a, 'b> Loan<'a, 'b> {
    fn new(app: &'a mut App, mut builder: MutexGuard<'b, TreeBuilder>) -> Loan<'a, 'b> {
        std::mem::swap(app.state.tree_mut(), builder.tree_mut());
        app.lent = true;
        if let Some(w) = &mut app.walking {
            w.lent_once = true;
        }
        Loan { app, builder }
    }
}

impl std::ops::Deref for Loan<'_, '_> {
    type Target = App;
    fn deref(&self) -> &App {
        self.app
    }
}

impl std::ops::DerefMut for Loan<'_, '_> {
    fn deref_mut(&mut self) -> &mut App {
        self.app
    }
}

impl Drop for Loan<'_, '_> {
    fn drop(&mut self) {
        self.app.lent = false;
        std::mem::swap(self.app.state.tree_mut(), self.builder.tree_mut());
    }
}

impl Session for App {
    fn on_event(&mut self, event: &ratatui::crossterm::event::Event) -> bool {
        App::on_event(self, event)
    }

    fn poll(&mut self) -> bool {
        App::poll(self)
    }

    fn wait_time(&self) -> Duration {
        App::wait_time(self)
    }

    fn draw<B: Backend>(&mut self, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        B::Error: Send + Sync + 'static,
    {
        App::draw(self, terminal)
    }

    fn quit(&self) -> bool {
        self.state.quit()
    }

    fn close(&mut self) {
        if let Some(w) = &self.walking {
            w.live.cancel.store(true, Ordering::Relaxed);
        }
    }

    fn report(&mut self, config: &Config) -> ExitStatus {
        super::report_scan_errors_after(self, config.terminals.stderr)
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
        // quit while the walk ran: the marks are entries of the walk's tree
        self.lend(|app| {
            let state = &app.state;
            super::marks::print(state.marks(), state.tree(), out, terminal, null)
        })
    }
}

#[cfg(test)]
#[path = "app_tests.rs"]
mod tests;
