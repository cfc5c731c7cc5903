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
//! Here: what a walk takes and gives. `roots`: the walk's start (the arguments made roots)
//! and end. `tasks`: how directory tasks run (the pool, or a stack with -T 1). `dir`: one
//! directory task, phase by phase (`dir::list`, `dir::commit`), as its `plan` says.
//! `entries`: a directory's entries between getdents64 and the tree. `place`: what each
//! entry becomes; `placed`: what placing gives besides nodes. `job`: what a task is given
//! (its fd, or its parent's). `pool`: how many threads, and when to start more. `split`: a
//! huge directory's listing read by several threads. `dedup`: hard links counted once
//! (`inode_bitmap`: the inodes met). The system calls are below, in [`crate::sys`].
//!
//! Imports run downward: `inode_bitmap` ← `dedup` ← `placed` ← `entries` ← `place` ←
//! `dir` ← `tasks`, `roots`; `options` ← `plan`. The files that extend `Walker` (`dir`,
//! `job`, `pool`, `split`, `tasks`, `roots`) name it and its locks from here.

pub mod dedup;
mod dir;
mod entries;
mod inode_bitmap;
mod job;
mod options;
mod place;
mod placed;
mod plan;
pub mod pool;
mod roots;
mod split;
mod tasks;

pub use options::{Exclusions, WalkOptions};

use std::ffi::OsString;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Instant;

use crate::sys::{Errno, Meta};
use crate::tree::{flags, EntryKind, NodeId, Tree, TreeBuilder};
use dedup::LinkSet;

/// Why something could not be counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The entry itself could not be stat'ed (`cannot access`).
    Access,
    /// A directory could not be listed (`cannot read directory`); its own size still counts.
    ReadDir,
    /// The argument was the empty string.
    EmptyName,
}

/// Where an error happened: a node of the tree, or a name that never became one.
#[derive(Clone, Debug)]
pub enum ErrorAt {
    Node(NodeId),
    Entry(NodeId, Box<[u8]>),
    Argument(Vec<u8>),
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
            ErrorAt::Argument(a) => a.clone(),
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
    /// read from disk below a root that looked cached (see `Walker::pool`).
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

struct Walker<'a> {
    opts: &'a WalkOptions,
    builder: &'a Mutex<TreeBuilder>,
    live: &'a LiveScan,
    pool: OnceLock<Option<rayon::ThreadPool>>,
    /// Pool threads built but not started: the walk looked warm when the pool started. They
    /// start when it turns out cold after all (see `Walker::pool`).
    held_threads: Mutex<Vec<rayon::ThreadBuilder>>,
    /// `held_threads` is not empty (read on every directory, without the lock).
    may_grow: AtomicBool,
    /// `sys::blocks_read` when the walk started.
    blocks_at_start: u64,
    /// The root being read is on a device with no major number (see `looks_cold`).
    judge_by_time: AtomicBool,
    /// Device of the root being read when it is on ext4, whose listings mark their end
    /// (`sys::read_entries_until`); u64::MAX otherwise.
    ext4_dev: AtomicU64,
    /// Device of the network filesystem the walk is on (its root's, or the last one it
    /// entered below it), whose entries are stat'ed from what the client holds
    /// (`sys::stat_at_cached`); u64::MAX when none.
    remote_dev: AtomicU64,
    /// (warm, cold) worker counts without -T, asked of the system once, when first needed.
    default_threads: OnceLock<(usize, usize)>,
    started: Instant,
    links: LinkSet,
    /// Whether arrays may take their room ahead (address space) instead of growing as
    /// they fill: not under `ulimit -v` (see `sys::address_space_limited`).
    reserve_ahead: bool,
    errors: Mutex<Vec<ScanError>>,
    progress: &'a Progress,
    /// Parent directories held open for their subdirectories, and how many may be.
    open_parents: Arc<AtomicUsize>,
    fd_budget: OnceLock<usize>,
    /// The process's only walk ([`walk_once`]): the calling thread is one of the pool's
    /// workers, and the pool is left to the process's exit.
    one_shot: bool,
    /// With several arguments or -L the same directory can be reached twice: count it once.
    dedup_dirs: bool,
    /// A file argument may also be met inside a directory argument: then every file's inode
    /// goes through the set, as GNU du does with several arguments.
    dedup_files: bool,
    /// -f, and the process may search any directory ([`sys::searches_everywhere`]): a
    /// directory that opens can be counted without a look at its permission bits, so it
    /// needs no stat unless it is a mount point (see `Walker::scan_dir_with`).
    searches_everywhere: bool,
    /// Only totals are shown ([`WalkOptions::fold_files`]) of one path: a file -f reads no
    /// link count of is summed into its directory too, its repeats taken off there (which
    /// of its names counts does not matter under one path; under several, the first
    /// path's must, as du counts it).
    fold_unstated: bool,
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

/// Walks every path, in order; each root's directories in parallel (see `Walker::pool`).
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

fn walk_with(
    paths: &[OsString],
    opts: &WalkOptions,
    progress: &Progress,
    live: &LiveScan,
    one_shot: bool,
) -> Scan {
    let mut walker = Walker::new(paths, opts, progress, live, one_shot);
    let (first_root, roots) = walker.add_roots(paths);
    walker.walk_roots(first_root, roots);
    walker.finish()
}

impl Walker<'_> {
    fn error(&self, at: ErrorAt, kind: ErrorKind, errno: i32) {
        lock(&self.errors).push(ScanError { at, kind, errno });
    }

    /// A directory that was listed in its parent and could not be read, gone since (ENOENT)
    /// included: what it held is left out, so it is named and the run is incomplete, as du.
    fn unreadable(&self, id: NodeId, e: Errno) {
        lock(self.builder).update(id, |n| n.set_flag(flags::UNREADABLE));
        self.error(ErrorAt::Node(id), ErrorKind::ReadDir, e.raw_os_error());
    }

    /// Whether a root is counted (an argument repeating an earlier one counts nothing).
    fn claim_root(&self, id: NodeId, meta: &Meta) -> bool {
        if !self.dedup_dirs {
            return true;
        }
        if meta.kind == EntryKind::Dir {
            self.links.claim_dir((meta.dev, meta.ino), id)
        } else {
            // which name of a file counts is settled after the walk
            let key = (meta.dev, meta.ino);
            self.links
                .claim_files(&[dedup::NameClaim { key, node: id }]);
            true
        }
    }
}
