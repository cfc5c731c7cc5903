//! The parallel walk: one rayon task per directory, no recursion on any thread's stack.
//!
//! A directory task reads its entries (getdents64), stats them relative to its own fd (split
//! across threads when the directory is large), appends them to the tree under one lock, and
//! spawns a task per subdirectory. A subdirectory is opened by its task through the parent's fd,
//! which stays open (shared in an `Arc`) only until the last child has opened itself: a chain
//! 20,000 deep holds two descriptors, not 20,000.
//!
//! The walker knows nothing about output. Errors are values ([`ScanError`]); `main` words them.
//!
//! Here: what a walk takes and gives, and the `Walker`, made of parts that own their fields:
//! `pool` (the threads: how many, and when to start more), `hints` (what is known of the
//! filesystems read: ext4, network, search permission), `fd_budget` (how many parents stay
//! open), `claims` (which names of an inode count; `dedup`, with `inode_bitmap`, keeps them).
//! `roots`: the walk's start (the arguments made roots) and end. `tasks`: how directory
//! tasks run (the pool, or a stack with -T 1). `dir`: one directory task, phase by phase
//! (`dir::list`, `dir::commit`), as its `plan` says. `entries`: a directory's entries
//! between getdents64 and the tree. `place`: what each entry becomes; `placed`: what placing
//! gives besides nodes. `job`: what a task is given (its fd, or its parent's). `split`: a
//! huge directory's listing read by several threads. The system calls are below, in
//! [`crate::sys`].
//!
//! Imports run downward: `inode_bitmap` ← `dedup` ← `claims`, `placed` ← `entries` ←
//! `place` ← `dir` ← `tasks`, `roots`; `options` ← `plan`; `fd_budget` ← `job`. The files
//! that extend `Walker` (`dir`, `job`, `split`, `tasks`, `roots`) name it and its locks
//! from here.

mod claims;
pub mod dedup;
mod dir;
mod entries;
mod fd_budget;
mod hints;
mod inode_bitmap;
mod job;
mod options;
mod place;
mod placed;
mod plan;
pub mod pool;
mod roots;
mod sink;
mod split;
mod tasks;

pub use options::{Exclusions, WalkOptions};
pub use placed::Facts;
pub use sink::DirSink;

use std::ffi::OsString;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::sys::Errno;
use crate::tree::{flags, NodeId, Tree, TreeBuilder};
use claims::Claims;
use fd_budget::FdBudget;
use hints::FsHints;
use pool::Threads;

/// Why something could not be counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The entry itself could not be stat'ed (`cannot access`).
    Access,
    /// A directory could not be listed (`cannot read directory`); its own size still counts.
    ReadDir,
    /// The argument was the empty string.
    EmptyName,
    /// A directory a part of a merge of split scans left out (`"excluded"`) and no other
    /// part scanned: nothing of it is counted ([`ErrorAt::Unfilled`] names the part).
    Unfilled,
}

/// Where an error happened: a node of the tree, or a name that never became one.
#[derive(Clone, Debug)]
pub enum ErrorAt {
    Node(NodeId),
    Entry(NodeId, Box<[u8]>),
    Argument(Vec<u8>),
    /// A whole path, spelled when the error happened: a streamed walk keeps no tree to
    /// spell it from afterwards.
    Path(Vec<u8>),
    /// The path of a directory left out in the part `by` (its file's name) of a merge, which
    /// no part scanned ([`ErrorKind::Unfilled`]).
    Unfilled {
        path: Vec<u8>,
        by: Vec<u8>,
    },
}

#[derive(Clone, Debug)]
pub struct ScanError {
    pub at: ErrorAt,
    pub kind: ErrorKind,
    pub errno: i32,
}

impl ScanError {
    /// The path as it would be displayed.
    pub fn path(&self, tree: &Tree) -> Vec<u8> {
        match &self.at {
            ErrorAt::Node(id) => tree.path(*id),
            ErrorAt::Entry(parent, name) => {
                let mut p = tree.path(*parent);
                if p.last() != Some(&b'/') {
                    p.push(b'/');
                }
                p.extend_from_slice(name);
                p
            }
            ErrorAt::Argument(a) | ErrorAt::Path(a) | ErrorAt::Unfilled { path: a, .. } => {
                a.clone()
            }
        }
    }
}

/// Counters a progress display may read while the walk runs.
#[derive(Debug, Default)]
pub struct Progress {
    pub entries: AtomicU64,
    pub bytes: AtomicU64,
    /// Worker threads started (0: the walk needed none).
    pub threads: AtomicUsize,
    /// Listings of huge directories read by several threads at once (`Walker::split_plan`).
    pub split_listings: AtomicUsize,
    /// The threads held back when the pool was built started later: the walk turned out to
    /// read from disk below a root that looked cached (see `Threads::pool`).
    pub threads_grew: AtomicBool,
}

/// The result of a walk: the tree (own sizes, not yet totals) and what could not be read.
#[derive(Debug)]
pub struct Scan {
    pub tree: Tree,
    pub errors: Vec<ScanError>,
}

impl Scan {
    /// A scan whose errors are listed by path: thread timing (or file order, for an import)
    /// must not change what is printed.
    pub fn with_errors_by_path(tree: Tree, errors: Vec<ScanError>) -> Scan {
        let mut keyed: Vec<(Vec<u8>, ScanError)> =
            errors.into_iter().map(|e| (e.path(&tree), e)).collect();
        keyed.sort_by(|(a, _), (b, _)| a.cmp(b));
        Scan {
            tree,
            errors: keyed.into_iter().map(|(_, e)| e).collect(),
        }
    }
}

/// What a caller may watch and steer while a walk runs (the interactive view browses the
/// partial tree and stops a scan early). [`walk`] makes a private one.
#[derive(Default)]
pub struct LiveScan {
    /// The tree as built so far: own sizes, children appended one directory at a time. Hold
    /// the lock briefly: every directory task takes it once to append its entries.
    pub builder: Mutex<TreeBuilder>,
    /// Set to stop the walk: directories not started yet are left unread.
    pub cancel: AtomicBool,
    /// The finished tree stays in `builder` (the [`Scan`] has an empty one), settled in
    /// place under the lock: a view that shows the tree as it grows never finds it gone.
    pub keep_tree: bool,
}

impl LiveScan {
    /// A live scan whose tree stays in `builder` when the walk ends (`keep_tree`).
    pub fn keeping_tree() -> LiveScan {
        LiveScan {
            keep_tree: true,
            ..LiveScan::default()
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// A walk in progress. Its parts own their fields: the threads (`pool`), what it knows of the
/// filesystems (`hints`), the descriptors parents hold (`fd_budget`), which names of an inode
/// count (`claims`).
struct Walker<'a> {
    opts: &'a WalkOptions,
    /// The tree being built (in `live.builder`), and the flag that stops the walk.
    live: &'a LiveScan,
    /// Where the entries go instead of the tree, in a streamed walk ([`walk_streamed`]).
    sink: Option<&'a dyn DirSink>,
    progress: &'a Progress,
    threads: Threads<'a>,
    hints: FsHints,
    fds: FdBudget,
    claims: Claims,
    /// Whether arrays may take their room ahead (address space) instead of growing as
    /// they fill: not under `ulimit -v` (see `sys::address_space_limited`).
    reserve_ahead: bool,
    errors: Mutex<Vec<ScanError>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// [`lock`] for a lock held a microsecond or two: spins that long before sleeping. std's
/// mutex spins about 100 rounds, less than a page fault in the holder takes, and a thread
/// that sleeps on the futex costs a context switch and a wake-up (on a VM, an interrupt to
/// the other vCPU) for a wait of a microsecond.
fn lock_briefly_held<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    for _ in 0..SPIN_ROUNDS {
        match m.try_lock() {
            Ok(guard) => return guard,
            Err(std::sync::TryLockError::Poisoned(p)) => return p.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => std::hint::spin_loop(),
        }
    }
    lock(m)
}

/// Rounds of `lock_briefly_held`: a spin-loop hint is 10-140 cycles, so a few to 50 µs.
const SPIN_ROUNDS: u32 = 1000;

/// Walks every path, in order; each root's directories in parallel (see `Threads::pool`).
pub fn walk(paths: &[OsString], opts: &WalkOptions, progress: &Progress) -> Scan {
    walk_live(paths, opts, progress, &LiveScan::default())
}

/// [`walk`] as the last thing a process does before it prints and exits. The calling thread
/// works in the pool instead of waiting on it, and the pool is never torn down: one thread
/// fewer to start, and no sleeping caller to wake at the end, are a large share of a walk
/// of a tiny tree; joining the threads or unmapping their stacks is left to exit.
pub fn walk_once(paths: &[OsString], opts: &WalkOptions, progress: &Progress) -> Scan {
    walk_with(paths, opts, progress, &LiveScan::default(), true)
}

/// [`walk`], with the tree visible (and the walk stoppable) through `live` while it runs.
/// When it returns, the finished tree has moved out of `live.builder` into the [`Scan`],
/// unless `live.keep_tree`.
pub fn walk_live(
    paths: &[OsString],
    opts: &WalkOptions,
    progress: &Progress,
    live: &LiveScan,
) -> Scan {
    walk_with(paths, opts, progress, live, false)
}

/// [`walk_once`] of one path whose entries go to `sink` as each directory is listed, not
/// into a tree: memory for the directories being walked, not for the tree. The [`Scan`]'s
/// tree is empty, its errors spelled by path. Needs what a tree-less walk can give: sizes
/// (not `-f`), no file summed into its directory (`fold_files` off), per-entry facts kept.
pub fn walk_streamed(
    path: &OsString,
    opts: &WalkOptions,
    progress: &Progress,
    sink: &dyn DirSink,
) -> Scan {
    let paths = std::slice::from_ref(path);
    let live = LiveScan::default();
    let mut walker = Walker::new(paths, opts, progress, &live, true, Some(sink));
    let (first_root, roots) = walker.add_roots(paths);
    walker.walk_roots(first_root, roots);
    walker.finish()
}

fn walk_with(
    paths: &[OsString],
    opts: &WalkOptions,
    progress: &Progress,
    live: &LiveScan,
    one_shot: bool,
) -> Scan {
    let mut walker = Walker::new(paths, opts, progress, live, one_shot, None);
    let (first_root, roots) = walker.add_roots(paths);
    walker.walk_roots(first_root, roots);
    walker.finish()
}

impl<'a> Walker<'a> {
    /// The tree being built.
    fn builder(&self) -> &'a Mutex<TreeBuilder> {
        &self.live.builder
    }

    fn error(&self, at: ErrorAt, kind: ErrorKind, errno: i32) {
        lock(&self.errors).push(ScanError { at, kind, errno });
    }

    /// A directory that was listed in its parent and could not be read, gone since (ENOENT)
    /// included: what it held is left out, so it is named and the run is incomplete, as du.
    fn unreadable(&self, id: NodeId, e: Errno) {
        let at = match self.sink {
            Some(sink) => {
                sink.set_flag(id, flags::UNREADABLE);
                ErrorAt::Path(sink.path(id))
            }
            None => {
                lock(self.builder()).update(id, |n| n.set_flag(flags::UNREADABLE));
                ErrorAt::Node(id)
            }
        };
        self.error(at, ErrorKind::ReadDir, e.raw_os_error());
    }

    /// An entry of directory `dir` that could not be stat'ed.
    fn entry_failed(&self, dir: NodeId, name: Box<[u8]>, errno: i32) {
        let at = match self.sink {
            Some(sink) => {
                let mut p = sink.path(dir);
                if p.last() != Some(&b'/') {
                    p.push(b'/');
                }
                p.extend_from_slice(&name);
                ErrorAt::Path(p)
            }
            None => ErrorAt::Entry(dir, name),
        };
        self.error(at, ErrorKind::Access, errno);
    }

    /// The path of directory `id`, as the walk spells it (the root as typed).
    fn path_of(&self, id: NodeId) -> Vec<u8> {
        match self.sink {
            Some(sink) => sink.path(id),
            None => lock(self.builder()).tree().path(id),
        }
    }

    /// Directory `id` is a name of a directory walked under another name (-L): it counts
    /// nothing. (A tree's are marked when its claims are settled.)
    fn dir_repeated(&self, id: NodeId) {
        if let Some(sink) = self.sink {
            sink.set_flag(id, flags::DUPLICATE);
        }
    }

    /// Directory `id`'s task is over (whether it read it or not): a streamed walk closes
    /// it once its subdirectories are too.
    fn dir_done(&self, id: NodeId) {
        if let Some(sink) = self.sink {
            sink.done(id);
        }
    }
}
