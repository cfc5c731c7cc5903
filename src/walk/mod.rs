//! The parallel walk: one rayon task per directory, no recursion on any thread's stack.
//!
//! A directory task reads its entries (getdents64), stats them relative to its own fd (split
//! across threads when the directory is large), appends them to the tree under one lock, and
//! spawns a task per subdirectory. A subdirectory is opened by its task through the parent's fd,
//! which stays open (shared in an `Arc`) only until the last child has opened itself: a chain
//! 20,000 deep holds two descriptors, not 20,000.
//!
//! The walker knows nothing about output. Errors are values ([`ScanError`]); `main` words them.

pub mod dedup;
pub mod sys;

use std::cell::RefCell;
use std::ffi::{CStr, OsString};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use crate::config::{default_threads, SizeMode, WalkOptions};
use crate::tree::{flags, EntryKind, LinkKey, Node, NodeId, Tree, TreeBuilder};
use dedup::LinkSet;
use sys::{Errno, Meta, Times};

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
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        Scan {
            tree,
            errors: keyed.into_iter().map(|(_, e)| e).collect(),
        }
    }
}

/// Directories with more entries than this have their stats spread across threads.
const PARALLEL_STAT_MIN: usize = 1024;
/// A root directory this size or larger (bytes, as `st_size` reports it) probably has more
/// than PARALLEL_STAT_MIN entries: its stats may start the pool before it is fully read.
const LARGE_DIR_BYTES: u64 = 16 * 1024;
/// Time the walk may take before the pool starts, and per entry read by then, beyond which
/// the metadata is taken to be on disk, not in the page cache (see `Walker::pool`).
const COLD_START: Duration = Duration::from_micros(300);
const COLD_PER_ENTRY: Duration = Duration::from_micros(8);
/// Blocks (512 bytes) read from a device since the walk started beyond which its metadata is
/// taken to be on disk: eight 4 KiB reads. A walk of cached metadata reads none.
const COLD_BLOCKS: u64 = 64;
/// Directories a pool thread reads between two looks at how much was read from disk (a look
/// is one getrusage, about 0.3 µs: every directory would cost 1% of a warm walk).
const COLD_CHECK_EVERY: u32 = 32;
/// Directories with more entries than this have the pages of their nodes faulted in by
/// another thread while they are built (starting the pool for it in -f mode if need be).
const PREFAULT_MIN: usize = 16 * 1024;
/// Size (`st_size`) of an ext4 directory too small to hold PARALLEL_STAT_MIN names.
const EXT4_SMALL_DIR_BYTES: u64 = 8192;
/// Names per batch handed to another thread: enough to pay for the task, small enough that
/// every thread gets some of a directory of a few thousand.
const STAT_BATCH: usize = 512;

/// Names of a large directory on their way to another thread to be stat'ed.
#[derive(Default)]
struct StatBatch {
    /// NUL-terminated names; `Ent::name_off` is relative to this buffer until merged back.
    names: Vec<u8>,
    ents: Vec<Ent>,
    /// Results of the stats made; `Ent::stat` is relative to this until merged back.
    stats: Vec<StatResult>,
    /// Access and change times of `ents`, index for index, when the walk keeps them.
    times: Vec<Times>,
}

impl StatBatch {
    fn push(&mut self, name: &CStr, kind: Option<EntryKind>, ino: u64) {
        if self.ents.is_empty() {
            self.ents.reserve(STAT_BATCH);
            self.names.reserve(STAT_BATCH * 24);
        }
        let off = self.names.len() as u32;
        self.names.extend_from_slice(name.to_bytes_with_nul());
        self.ents.push(Ent {
            name_off: off,
            name_len: name.to_bytes().len() as u32,
            kind,
            ino,
            stat: NO_STAT,
        });
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
}

impl LiveScan {
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
    /// (warm, cold) worker counts without -T, asked of the system once, when first needed.
    default_threads: OnceLock<(usize, usize)>,
    started: Instant,
    links: LinkSet,
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
}

/// The names of a directory's subdirectories, and how to reach it to open them.
struct OpenParent {
    dir: ParentDir,
    /// NUL-terminated names of the subdirectories.
    names: Box<[u8]>,
}

/// A directory whose subdirectories are still to be opened. Normally its fd stays open until
/// the last of them is; past the fd budget (see `Walker::fd_budget`) only its path is kept
/// and it is reopened by path for each of them, so a tree both wide and deep walks under any
/// `ulimit -n` (each open parent costs one fd until all its subdirectories are open).
enum ParentDir {
    Fd {
        fd: OwnedFd,
        _permit: FdPermit,
    },
    /// Reopened by its path, rebuilt from the tree when needed (not stored: thousands of
    /// pending parents in a deep tree would hold a long path each).
    Path(NodeId),
}

/// One unit of the fd budget, given back when the parent's fd closes.
struct FdPermit(Arc<AtomicUsize>);

impl Drop for FdPermit {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

enum DirHandle {
    Open(OwnedFd),
    Below(Arc<OpenParent>, u32),
}

struct DirJob {
    node: NodeId,
    handle: DirHandle,
    /// Device of this directory (size mode: from the parent's stat); 0 when not known yet.
    dev: u64,
    /// Device of the root it belongs to (for -x).
    root_dev: u64,
    /// The parent stat'ed this directory (and applied -x and the loop guard). Otherwise the
    /// task does it with one fstat of the fd it opened: an fstat needs no name lookup, where
    /// a stat from the parent and then an open would look the name up twice.
    stat_done: bool,
    /// Permission bits of this directory when the parent stat'ed it.
    perm: Option<u32>,
    /// May have so many entries that their stats are worth spreading over the pool (always
    /// true below a root: the pool runs those tasks anyway).
    may_be_large: bool,
}

/// Per-thread buffers reused from one directory to the next (a directory costs no allocation
/// but its share of the tree and, when it has subdirectories, their names).
#[derive(Default)]
struct Scratch {
    /// NUL-terminated names, as read.
    names: Vec<u8>,
    ents: Vec<Ent>,
    /// Stats of the entries that have one (see [`Ent::stat`]).
    stats: Vec<StatResult>,
    /// Access and change times of `ents`, index for index, when the walk keeps
    /// [`crate::tree::StatExtra`] (empty otherwise: `Ent` stays small).
    times: Vec<Times>,
    /// (node, offset of its name in the parent's `OpenParent::names`, device, permission
    /// bits when stat'ed) of the directories to walk.
    subdirs: Vec<(NodeId, u32, u64, Option<u32>)>,
    /// (inode, node, name) of the directories that are walked only if they win their claim.
    dir_claims: Vec<(LinkKey, NodeId, SubdirName)>,
    /// (inode, node) of the files that may share their inode with another name.
    file_claims: Vec<(LinkKey, NodeId)>,
    /// The directory's nodes, built before the tree's lock is taken, and their names.
    nodes: Vec<Node>,
    node_names: Vec<u8>,
    /// NUL-terminated names of the subdirectories, copied once into their `OpenParent`
    /// (grown in place, they cost a chain of reallocs a directory, and the threads then met
    /// on the allocator's lock).
    sub_names: Vec<u8>,
}

impl Scratch {
    fn clear(&mut self) {
        self.names.clear();
        self.ents.clear();
        self.stats.clear();
        self.times.clear();
        self.subdirs.clear();
        self.dir_claims.clear();
        self.file_claims.clear();
        self.nodes.clear();
        self.node_names.clear();
        self.sub_names.clear();
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    /// Directories this pool thread read since it last looked for disk reads.
    static DIRS_READ: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Entries of a directory as read and stat'ed: on the reading thread, or a [`StatBatch`].
#[derive(Copy, Clone)]
struct Chunk<'c> {
    names: &'c [u8],
    ents: &'c [Ent],
    stats: &'c [StatResult],
    times: &'c [Times],
}

impl<'c> Chunk<'c> {
    fn of_batch(b: &'c StatBatch) -> Chunk<'c> {
        Chunk {
            names: &b.names,
            ents: &b.ents,
            stats: &b.stats,
            times: &b.times,
        }
    }
}

/// A subdirectory waiting for its hard-link claim: (name offset, permission bits).
type SubdirName = (u32, u32);

type StatResult = Result<Meta, Errno>;

/// [`Ent::stat`] of an entry that was not stat'ed.
const NO_STAT: u32 = u32::MAX;

/// One directory entry on its way into the tree: 24 bytes, its stat (64) kept apart, as most
/// entries of a -f walk have none.
struct Ent {
    ino: u64,
    name_off: u32,
    name_len: u32,
    /// Index of its stat in the directory's `stats`, or [`NO_STAT`].
    stat: u32,
    kind: Option<EntryKind>,
}

impl Ent {
    fn stat<'s>(&self, stats: &'s [StatResult]) -> Option<&'s StatResult> {
        stats.get(self.stat as usize)
    }
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
/// works in the pool instead of waiting on it, and the pool is never torn down: starting one
/// thread fewer, and no wake-up of a sleeping caller at the end, took 0.2 ms (16%) off a
/// walk of a tiny tree; joining the threads or unmapping their stacks is left to exit.
pub fn walk_once(paths: &[OsString], opts: &WalkOptions, progress: &Progress) -> Scan {
    walk_with(paths, opts, progress, &LiveScan::default(), true)
}

/// [`walk`], with the tree visible (and the walk stoppable) through `live` while it runs.
/// When it returns, the finished tree has moved out of `live.builder` into the [`Scan`].
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
    *lock(&live.builder) = TreeBuilder::with_identity(opts.keep_identity)
        .with_extra(opts.keep_extra)
        .reserved_for_walk();
    let mut walker = Walker {
        opts,
        builder: &live.builder,
        live,
        pool: OnceLock::new(),
        held_threads: Mutex::new(Vec::new()),
        may_grow: AtomicBool::new(false),
        blocks_at_start: sys::blocks_read(),
        judge_by_time: AtomicBool::new(false),
        ext4_dev: AtomicU64::new(u64::MAX),
        default_threads: OnceLock::new(),
        started: Instant::now(),
        links: LinkSet::new(),
        errors: Mutex::new(Vec::new()),
        progress,
        open_parents: Arc::new(AtomicUsize::new(0)),
        fd_budget: OnceLock::new(),
        one_shot,
        dedup_dirs: paths.len() > 1 || opts.follow_links,
        dedup_files: opts.follow_links,
    };

    // Stat every argument first (in order), so the roots are contiguous children of TOTAL.
    let mut roots = Vec::new();
    let mut root_metas = Vec::new();
    let mut root_times = Vec::new();
    for p in paths {
        let bytes = p.as_bytes();
        if bytes.is_empty() {
            walker.error(ErrorAt::Argument(Vec::new()), ErrorKind::EmptyName, 0);
            continue;
        }
        let stat = if opts.keep_extra {
            sys::stat_path_times(bytes, opts.follow_links)
        } else {
            sys::stat_path(bytes, opts.follow_links).map(|m| (m, Times::default()))
        };
        match stat {
            Ok((meta, times)) => {
                root_times.push(times);
                let mut node = node_for(&meta, opts.mode);
                if opts.mode == SizeMode::Count {
                    node.disk = meta.disk_bytes();
                    node.apparent = meta.size;
                    node.mtime = meta.mtime;
                }
                roots.push((bytes.to_vec(), node));
                root_metas.push((bytes.to_vec(), meta));
            }
            Err(e) => walker.error(
                ErrorAt::Argument(bytes.to_vec()),
                ErrorKind::Access,
                e.raw_os_error(),
            ),
        }
    }
    walker.dedup_files |=
        root_metas.len() > 1 && root_metas.iter().any(|(_, m)| m.kind != EntryKind::Dir);
    let first_root = {
        let mut b = lock(walker.builder);
        let first = b.add_roots(roots);
        for (i, (_, meta)) in root_metas.iter().enumerate() {
            let id = first + i as NodeId;
            b.set_identity(id, (meta.dev, meta.ino));
            b.set_extra(id, meta.extra(root_times[i]));
            if meta.nlink > 1 && meta.kind != EntryKind::Dir {
                b.set_links(id, meta.nlink);
            }
        }
        first
    };
    progress
        .entries
        .fetch_add(root_metas.len() as u64, Ordering::Relaxed);

    for (i, (path, meta)) in root_metas.into_iter().enumerate() {
        let id = first_root + i as NodeId;
        if !walker.claim_root(id, &meta) || meta.kind != EntryKind::Dir {
            continue;
        }
        let fd = match sys::open_dir_path(&path, opts.follow_links) {
            Ok(fd) => fd,
            Err(e) => {
                walker.unreadable(id, e);
                continue;
            }
        };
        let job = DirJob {
            node: id,
            handle: DirHandle::Open(fd),
            dev: meta.dev,
            root_dev: meta.dev,
            stat_done: true,
            perm: Some(meta.mode & 0o7777),
            may_be_large: meta.size >= LARGE_DIR_BYTES,
        };
        walker.walk_root(job);
    }

    let mut tree = std::mem::take(&mut *lock(walker.builder)).into_tree();
    walker.links.settle(&mut tree);
    let errors = walker
        .errors
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    if one_shot {
        std::mem::forget(walker.pool);
    }
    Scan::with_errors_by_path(tree, errors)
}

/// A node for an entry whose stat we have; sizes are left at 0 in count mode.
fn node_for(meta: &Meta, mode: SizeMode) -> Node {
    let mut f = 0;
    if meta.nlink > 1 && meta.kind != EntryKind::Dir {
        f |= flags::HARDLINK;
    }
    match mode {
        SizeMode::Count => Node::new(meta.kind, 0, 0, meta.mtime, f),
        _ => Node::new(meta.kind, meta.disk_bytes(), meta.size, meta.mtime, f),
    }
}

impl Walker<'_> {
    fn error(&self, at: ErrorAt, kind: ErrorKind, errno: i32) {
        lock(&self.errors).push(ScanError { at, kind, errno });
    }

    fn unreadable(&self, id: NodeId, e: Errno) {
        if e == Errno::NOENT {
            return; // vanished since it was listed: as if it never was
        }
        lock(self.builder).node_mut(id).set_flag(flags::UNREADABLE);
        self.error(ErrorAt::Node(id), ErrorKind::ReadDir, e.raw_os_error());
    }

    /// `stat_at`, with the access and change times when the walk keeps them.
    fn stat_at(&self, dir: BorrowedFd<'_>, name: &CStr) -> Result<(Meta, Times), Errno> {
        let follow = self.opts.follow_links;
        if self.opts.keep_extra {
            sys::stat_at_times(dir, name, follow)
        } else {
            sys::stat_at(dir, name, follow).map(|m| (m, Times::default()))
        }
    }

    /// Sizes of a directory that was not stat'ed before it failed to open.
    fn set_own_stat(&self, id: NodeId, stat: Result<(Meta, Times), Errno>) {
        if let Ok((meta, times)) = stat {
            set_own(&mut lock(self.builder), id, &meta, times);
        }
    }

    /// Runs `f` with an fd of `parent`: its own, or one opened by path for the call.
    fn with_parent_fd<T>(
        &self,
        parent: &OpenParent,
        f: impl FnOnce(BorrowedFd<'_>) -> Result<T, Errno>,
    ) -> Result<T, Errno> {
        match &parent.dir {
            ParentDir::Fd { fd, .. } => f(fd.as_fd()),
            ParentDir::Path(node) => {
                let path = lock(self.builder).tree().path(*node);
                let fd = sys::open_dir_long_path(&path, self.opts.follow_links)?;
                f(fd.as_fd())
            }
        }
    }

    /// A permit to keep one more parent directory open, if the budget has room.
    fn fd_permit(&self) -> Option<FdPermit> {
        let budget = *self.fd_budget.get_or_init(sys::parent_fd_budget);
        if self.open_parents.fetch_add(1, Ordering::Relaxed) < budget {
            Some(FdPermit(Arc::clone(&self.open_parents)))
        } else {
            self.open_parents.fetch_sub(1, Ordering::Relaxed);
            None
        }
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
            self.links.claim_files(&[((meta.dev, meta.ino), id)]);
            true
        }
    }

    /// The worker threads, started only when a walk turns out to need them: a scan of a small
    /// directory starts no thread at all (startup as fast as `du -s`).
    ///
    /// How many depends on where the metadata is. In the page cache, a walk is CPU-bound: a
    /// thread per core. On disk, every thread waits on the device: then many more requests in
    /// flight than cores is what makes it fast (cold `big`, 2 cores: 8 threads 3.65 s, 16
    /// threads 3.03 s; warm, 16 threads cost 10% more than 8). What the root's read cost, done
    /// before the pool exists, tells which it is; when it looks warm, the pool is built with the
    /// cold count but only the warm count of threads start, and the rest wait in
    /// `held_threads` until a pool thread sees the walk read from disk (`check_cold`). Cold
    /// /usr needs that: the shell that dropped the caches has just looked up /usr/bin and
    /// /usr/lib again, so the root reads warm while everything below it is on disk.
    fn pool(&self) -> Option<&rayon::ThreadPool> {
        let (warm, cold) = match self.opts.threads {
            Some(n) => (n, n),
            None => *self.default_threads.get_or_init(|| {
                default_threads(std::thread::available_parallelism().map_or(1, |n| n.get()))
            }),
        };
        if warm.max(cold) < 2 {
            return None;
        }
        self.pool
            .get_or_init(|| {
                let start_now = if cold > warm && self.looks_cold() {
                    cold
                } else {
                    warm
                };
                let mut held = Vec::new();
                let home = sys::CpuHome::here();
                let mut build = |join: bool| {
                    let mut builder = rayon::ThreadPoolBuilder::new().num_threads(cold.max(warm));
                    if join {
                        builder = builder.use_current_thread();
                    }
                    let pool = builder
                        .spawn_handler(|thread| {
                            if thread.index() < start_now {
                                home.spawn_elsewhere(move || thread.run())?;
                                self.progress.threads.fetch_add(1, Ordering::Relaxed);
                            } else {
                                held.push(thread);
                            }
                            Ok(())
                        })
                        .build()
                        .ok();
                    if join && pool.is_some() {
                        self.progress.threads.fetch_add(1, Ordering::Relaxed);
                    }
                    pool
                };
                // (a thread already working in a pool cannot join another one)
                let pool = match self.one_shot {
                    true => build(true).or_else(|| build(false)),
                    false => build(false),
                };
                if !held.is_empty() {
                    *lock(&self.held_threads) = held;
                    self.may_grow.store(true, Ordering::Relaxed);
                }
                pool
            })
            .as_ref()
    }

    /// Whether the walk so far read from disk. On a filesystem with no block device of its
    /// own (NFS, FUSE; also overlayfs and btrfs), whose reads may not be counted as this
    /// process's, also whether it took the time of device reads rather than of cached lookups:
    /// a cached stat or directory entry costs a few microseconds, a read a hundred or more.
    /// Timing is the weaker signal: a loaded machine, or a debug build, makes cached reads
    /// slow too.
    fn looks_cold(&self) -> bool {
        let entries = self.progress.entries.load(Ordering::Relaxed);
        self.read_from_disk()
            || (self.judge_by_time.load(Ordering::Relaxed)
                && self.started.elapsed()
                    > COLD_START + COLD_PER_ENTRY * entries.min(1 << 20) as u32)
    }

    fn read_from_disk(&self) -> bool {
        sys::blocks_read().saturating_sub(self.blocks_at_start) >= COLD_BLOCKS
    }

    /// On a pool thread, every `COLD_CHECK_EVERY` directories while threads are held back:
    /// starts them once the walk has read from disk.
    fn check_cold(&self) {
        if !self.may_grow.load(Ordering::Relaxed) {
            return;
        }
        let due = DIRS_READ.with(|n| {
            let dirs = n.get() + 1;
            n.set(if dirs < COLD_CHECK_EVERY { dirs } else { 0 });
            dirs >= COLD_CHECK_EVERY
        });
        if !due || !self.read_from_disk() {
            return;
        }
        self.may_grow.store(false, Ordering::Relaxed);
        self.progress.threads_grew.store(true, Ordering::Relaxed);
        for thread in std::mem::take(&mut *lock(&self.held_threads)) {
            // a thread that cannot start leaves the walk to those that did
            if std::thread::Builder::new()
                .spawn(move || thread.run())
                .is_ok()
            {
                self.progress.threads.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Reads the root directory on the calling thread, then its subdirectories on the pool
    /// (or, with -T 1, depth-first from a stack on this thread).
    fn walk_root(&self, job: DirJob) {
        self.judge_by_time
            .store(rustix::fs::major(job.dev) == 0, Ordering::Relaxed);
        let ext4 = match &job.handle {
            DirHandle::Open(fd) if sys::marks_listing_end(fd.as_fd()) => job.dev,
            _ => u64::MAX,
        };
        self.ext4_dev.store(ext4, Ordering::Relaxed);
        let mut jobs = Vec::new();
        self.scan_dir(job, &mut |j| jobs.push(j));
        if jobs.is_empty() {
            return;
        }
        match self.pool() {
            Some(pool) => pool.scope(|s| {
                for job in jobs.into_iter().rev() {
                    s.spawn(move |s| self.scan_dir_in(s, job));
                }
            }),
            None => {
                jobs.reverse();
                while let Some(job) = jobs.pop() {
                    let mut kids = Vec::new();
                    self.scan_dir(job, &mut |j| kids.push(j));
                    jobs.extend(kids.into_iter().rev());
                }
            }
        }
    }

    /// A directory task on the pool: its subdirectories become tasks of the same scope. A
    /// directory with a single subdirectory goes on with it itself (in a loop, not by
    /// recursion): a chain then stays on one thread with no task handed over (1500-deep
    /// chain: 10% faster). With more subdirectories all are spawned (continuing with one of
    /// them measured 4-11% slower on `balanced`).
    fn scan_dir_in<'s>(&'s self, scope: &rayon::Scope<'s>, job: DirJob) {
        let mut next = Some(job);
        while let Some(job) = next.take() {
            self.check_cold();
            let mut spawned = false;
            self.scan_dir(job, &mut |j| {
                if !spawned && next.is_none() {
                    next = Some(j);
                    return;
                }
                // a second subdirectory: spawn both, in the order they came
                if let Some(held) = next.take() {
                    scope.spawn(move |s| self.scan_dir_in(s, held));
                }
                scope.spawn(move |s| self.scan_dir_in(s, j));
                spawned = true;
            });
        }
    }

    fn scan_dir(&self, job: DirJob, spawn: &mut dyn FnMut(DirJob)) {
        if self.live.is_cancelled() {
            return;
        }
        // Taken, not borrowed: a large directory's parallel stats may run another directory's
        // task on this thread, which then simply starts with empty buffers.
        let mut scratch = SCRATCH.with(RefCell::take);
        self.scan_dir_with(job, spawn, &mut scratch);
        scratch.clear();
        SCRATCH.with(|cell| cell.replace(scratch));
    }

    fn scan_dir_with(&self, job: DirJob, spawn: &mut dyn FnMut(DirJob), scratch: &mut Scratch) {
        let follow = self.opts.follow_links;
        let is_root = matches!(job.handle, DirHandle::Open(_));
        let fd = match job.handle {
            DirHandle::Open(fd) => fd,
            DirHandle::Below(parent, off) => {
                let name = name_at(&parent.names, off);
                match self.with_parent_fd(&parent, |pfd| sys::open_dir_at(pfd, name, follow)) {
                    Ok(fd) => fd,
                    Err(e) => {
                        if !job.stat_done {
                            // it still counts its own size, as du does
                            self.set_own_stat(
                                job.node,
                                self.with_parent_fd(&parent, |pfd| self.stat_at(pfd, name)),
                            );
                        }
                        return self.unreadable(job.node, e);
                    }
                }
            }
        };
        // counting entries needs no stat of files, unless their times are wanted
        let count_mode = self.opts.mode == SizeMode::Count && !self.opts.keep_extra;

        // Nobody stat'ed this directory yet: one fstat gives its device (for -x and for
        // hard-link keys) and its own sizes.
        let mut dev = job.dev;
        let mut perm = job.perm;
        // its own sizes go into the tree under the lock its children are appended under
        let mut own: Option<(Meta, Times)> = None;
        if !job.stat_done && !is_root {
            let stat = if self.opts.keep_extra {
                sys::fstat_times(fd.as_fd())
            } else {
                sys::fstat(fd.as_fd()).map(|m| (m, Times::default()))
            };
            match stat {
                Ok((meta, times)) => {
                    dev = meta.dev;
                    perm = Some(meta.mode & 0o7777);
                    if self.opts.one_filesystem && meta.dev != job.root_dev {
                        let mut b = lock(self.builder);
                        set_own(&mut b, job.node, &meta, times);
                        b.node_mut(job.node).set_flag(flags::OTHER_FS);
                        return;
                    }
                    if !count_mode {
                        self.progress
                            .bytes
                            .fetch_add(meta.disk_bytes(), Ordering::Relaxed);
                    }
                    if self.dedup_dirs && !self.links.claim_dir((meta.dev, meta.ino), job.node) {
                        return set_own(&mut lock(self.builder), job.node, &meta, times);
                    }
                    own = Some((meta, times));
                }
                Err(e) => return self.unreadable(job.node, e),
            }
        }
        let unreadable = |e: Errno| {
            if let Some((meta, times)) = &own {
                set_own(&mut lock(self.builder), job.node, meta, *times);
            }
            self.unreadable(job.node, e)
        };

        // 1. names
        let Scratch {
            names,
            ents,
            stats,
            times,
            subdirs,
            dir_claims,
            file_claims,
            nodes,
            node_names,
            sub_names,
        } = scratch;
        let ex = &self.opts.exclusions;
        let dir_path = if ex.paths.is_empty() {
            None
        } else {
            Some(lock(self.builder).tree().path(job.node))
        };
        // Directories stat themselves once open (see `DirJob::stat_done`), except with -x,
        // where a directory on another filesystem must not even be opened.
        let one_fs = self.opts.one_filesystem;
        let needs_stat = |kind: Option<EntryKind>| match kind {
            None => true,
            Some(EntryKind::Dir) => one_fs,
            Some(EntryKind::Symlink) => follow || !count_mode,
            Some(_) => !count_mode,
        };
        // The first entries are stat'ed as they are read, with the name still in the
        // getdents buffer. Past PARALLEL_STAT_MIN the names go out in batches that the other
        // threads stat while this one reads on: a huge directory's stats are spread over every
        // thread from its first thousand names on, not only once its last name is read.
        // (a small root is read without starting the pool: a tiny scan starts no thread)
        // (-f stats nothing but directories of another filesystem and followed links: no
        // batches to hand out, and the copying back of names they cost)
        let stats_files = !count_mode || one_fs || follow;
        // With nothing to stat, an entry of a known kind becomes its node as it is read: no
        // copy of its name or record of it to build the node from later. (For the first
        // PARALLEL_STAT_MIN entries only: a huge directory's others are built in the tree
        // itself after the listing. Not where the tree keeps each entry's identity.)
        let fused = !stats_files && !self.opts.keep_identity;
        // An ext4 directory of two blocks or less holds fewer names than PARALLEL_STAT_MIN
        // (a record takes 12 bytes or more): no batches to hand out, so no scope to open for
        // them (two atomics and a latch per directory).
        let ext4 = dev == self.ext4_dev.load(Ordering::Relaxed);
        let surely_small = ext4
            && own
                .as_ref()
                .is_some_and(|(m, _)| m.size <= EXT4_SMALL_DIR_BYTES);
        let pool = if job.may_be_large && stats_files && !surely_small {
            self.pool()
        } else {
            None
        };
        let dirfd = fd.as_fd();
        let needs_stat = &needs_stat;
        let keep_times = self.opts.keep_extra;
        let stat_batch = |mut batch: StatBatch| {
            if keep_times {
                batch.times = vec![Times::default(); batch.ents.len()];
            }
            for (i, e) in batch.ents.iter_mut().enumerate() {
                if !needs_stat(e.kind) {
                    continue;
                }
                let name = name_at(&batch.names, e.name_off);
                e.stat = batch.stats.len() as u32;
                batch.stats.push(if keep_times {
                    sys::stat_at_times(dirfd, name, follow).map(|(m, t)| {
                        batch.times[i] = t;
                        m
                    })
                } else {
                    sys::stat_at(dirfd, name, follow)
                });
            }
            batch
        };
        let done: Mutex<Vec<(u32, StatBatch)>> = Mutex::new(Vec::new());
        let mut batches: Vec<StatBatch> = Vec::new();
        let mut read = |spawn: &mut dyn FnMut(StatBatch)| {
            let mut batch = StatBatch::default();
            let listed = sys::read_entries_until(&fd, ext4, |name, t, ino| {
                let b = name.to_bytes();
                if ex.hidden && b.first() == Some(&b'.') {
                    return;
                }
                if ex.names.iter().any(|n| n.as_slice() == b) {
                    return;
                }
                if let Some(dp) = &dir_path {
                    if ex.paths.iter().any(|p| is_child_path(p, dp, b)) {
                        return;
                    }
                }
                let kind = sys::kind_of_dirent(t);
                if let Some(kind) = kind.filter(|_| fused && nodes.len() < PARALLEL_STAT_MIN) {
                    let j = nodes.len() as NodeId;
                    if kind == EntryKind::Dir {
                        let off = sub_names.len() as u32;
                        sub_names.extend_from_slice(name.to_bytes_with_nul());
                        subdirs.push((j, off, dev, None));
                    } else {
                        // no link count without a stat: every inode goes through the set
                        file_claims.push(((dev, ino), j));
                    }
                    nodes.push(
                        Node::new(kind, 0, 0, 0, 0).with_local_name(node_names.len(), b.len()),
                    );
                    node_names.extend_from_slice(b);
                    return;
                }
                if pool.is_some() && ents.len() >= PARALLEL_STAT_MIN {
                    batch.push(name, kind, ino);
                    if batch.ents.len() == STAT_BATCH {
                        spawn(std::mem::take(&mut batch));
                    }
                    return;
                }
                let off = names.len() as u32;
                names.extend_from_slice(name.to_bytes_with_nul());
                let mut stat = NO_STAT;
                if needs_stat(kind) {
                    stat = stats.len() as u32;
                    stats.push(if keep_times {
                        sys::stat_at_times(dirfd, name, follow).map(|(m, t)| {
                            times.push(t);
                            m
                        })
                    } else {
                        sys::stat_at(dirfd, name, follow)
                    });
                }
                if keep_times && times.len() == ents.len() {
                    times.push(Times::default()); // not stat'ed, or it failed
                }
                ents.push(Ent {
                    name_off: off,
                    name_len: b.len() as u32,
                    kind,
                    ino,
                    stat,
                });
            });
            (listed, batch)
        };
        let listed = match pool {
            None => read(&mut |_| {}).0,
            Some(pool) => {
                let (listed, last) = pool.in_place_scope(|s| {
                    let mut next = 0u32;
                    let (done, stat_batch) = (&done, &stat_batch);
                    read(&mut |batch| {
                        let i = next;
                        next += 1;
                        s.spawn(move |_| {
                            // stat before taking the lock (not as an argument of push)
                            let batch = stat_batch(batch);
                            lock(done).push((i, batch));
                        });
                    })
                });
                // the last, partial batch: ours (the others are stat'ed by now); the batches
                // are read where they are, not copied together (11 MB on wide_flat)
                let mut done = done.into_inner().unwrap_or_else(PoisonError::into_inner);
                let last_index = done.len() as u32;
                done.push((last_index, stat_batch(last)));
                done.sort_unstable_by_key(|(i, _)| *i);
                batches.extend(done.into_iter().map(|(_, batch)| batch));
                listed
            }
        };
        if let Err(e) = listed {
            // a directory that can't be listed keeps its own size; what was read is dropped
            return unreadable(e);
        }
        // the entries read and stat'ed on this thread, then each batch, in order
        let own_chunk = Chunk {
            names: &*names,
            ents: &*ents,
            stats: &*stats,
            times: &*times,
        };
        let chunks = || std::iter::once(own_chunk).chain(batches.iter().map(Chunk::of_batch));
        // No search permission: names are readable but nothing can be stat'ed.
        if chunks().any(|c| c.stats.iter().any(|s| matches!(s, Err(Errno::ACCESS)))) {
            return unreadable(Errno::ACCESS);
        }
        // Count mode stats no file, so a directory with read but no search permission would
        // go unnoticed (its names listed, none of them reachable): ask once, as du's stats do.
        let fused_count = nodes.len();
        if count_mode
            && (fused_count > 0 || chunks().any(|c| c.ents.iter().any(|e| e.stat == NO_STAT)))
            && !sys::may_search(fd.as_fd(), perm)
        {
            return unreadable(Errno::ACCESS);
        }
        let mode = self.opts.mode;
        let node_of = |e: &Ent, stats: &[StatResult]| match e.stat(stats) {
            Some(Ok(meta)) => node_for(meta, mode),
            _ => Node::new(e.kind.unwrap_or(EntryKind::Other), 0, 0, 0, 0),
        };

        // 3. into the tree. The nodes, their names and what to do next are worked out before
        // the lock is taken (ids relative to the first child until the lock says where they
        // go), so that it is held for copies only; a huge directory's are built in place
        // under the lock instead (its copy would cost more than other threads' wait).
        let listed_count: usize = fused_count + chunks().map(|c| c.ents.len()).sum::<usize>();
        if listed_count >= PREFAULT_MIN {
            // The nodes are built in the tree below, on this thread alone; the pages they go
            // to are faulted in on another one meanwhile, in one call (a fault costs 1.3 us
            // on the benchmark VM: 1,450 of them for wide_flat's nodes and names).
            let name_bytes = node_names.len() + chunks().map(|c| c.names.len()).sum::<usize>();
            if let Some(pool) = self.pool() {
                let regions = lock(self.builder).spare_regions(listed_count, name_bytes);
                pool.spawn(move || {
                    for (addr, len) in regions {
                        sys::prefault(addr, len);
                    }
                });
            }
        }
        let mut held = (listed_count >= PARALLEL_STAT_MIN).then(|| lock(self.builder));
        if let Some(b) = held.as_mut().filter(|_| fused_count > 0) {
            // the entries made nodes as they were read come first (closed with the rest)
            b.append_children(job.node, nodes, node_names);
        }
        let mut bytes = 0u64;
        let mut failed: Vec<(Box<[u8]>, i32)> = Vec::new();
        let mut count = fused_count as NodeId;
        for c in chunks() {
            for e in c.ents {
                let (edev, eino, nlink, eperm) = match e.stat(c.stats) {
                    Some(Err(err)) => {
                        // vanished since listed: silent, unless -L met a dangling link
                        if *err != Errno::NOENT || follow {
                            failed.push((name_bytes(c.names, e).into(), err.raw_os_error()));
                        }
                        continue;
                    }
                    Some(Ok(m)) => (m.dev, m.ino, m.nlink, m.mode & 0o7777),
                    None => (dev, e.ino, 0, 0),
                };
                let j = count;
                let mut node = node_of(e, c.stats);
                let name = name_bytes(c.names, e);
                bytes = bytes.saturating_add(node.disk);
                if node.is_dir() {
                    let stat_done = e.stat != NO_STAT;
                    if stat_done && self.opts.one_filesystem && edev != job.root_dev {
                        node.set_flag(flags::OTHER_FS);
                    } else {
                        let off = sub_names.len() as u32;
                        sub_names.extend_from_slice(name);
                        sub_names.push(0);
                        if stat_done && self.dedup_dirs {
                            dir_claims.push(((edev, eino), j, (off, eperm)));
                        } else {
                            subdirs.push((j, off, edev, stat_done.then_some(eperm)));
                        }
                    }
                } else if nlink > 1 || self.dedup_files || (count_mode && e.stat == NO_STAT) {
                    // count mode has no link count: every inode goes through the set
                    file_claims.push(((edev, eino), j));
                }
                match held.as_mut() {
                    Some(b) => b.push_child(job.node, node, name),
                    None => {
                        nodes.push(node.with_local_name(node_names.len(), name.len()));
                        node_names.extend_from_slice(name);
                    }
                }
                count += 1;
            }
        }
        let kept = u64::from(count);
        let first = {
            let built_in_place = held.is_some();
            let mut b = held.unwrap_or_else(|| lock_briefly_held(self.builder));
            if let Some((meta, times)) = &own {
                set_own(&mut b, job.node, meta, *times);
            }
            let first = if built_in_place {
                b.close_children(job.node, count)
            } else {
                b.append_children(job.node, nodes, node_names)
            };
            if b.keeps_per_node_facts() {
                let mut id = first;
                for c in chunks() {
                    for (i, e) in c.ents.iter().enumerate() {
                        match e.stat(c.stats) {
                            Some(Err(_)) => continue, // not in the tree
                            Some(Ok(m)) => {
                                let t = c.times.get(i).copied().unwrap_or_default();
                                b.set_extra(id, m.extra(t));
                                b.set_identity(id, (m.dev, m.ino));
                                if m.nlink > 1 && m.kind != EntryKind::Dir {
                                    b.set_links(id, m.nlink);
                                }
                            }
                            None => b.set_identity(id, (dev, e.ino)),
                        }
                        id += 1;
                    }
                }
            }
            first
        };
        for sd in subdirs.iter_mut() {
            sd.0 += first;
        }
        for c in file_claims.iter_mut() {
            c.1 += first;
        }
        for &(key, j, (off, perm)) in dir_claims.iter() {
            let id = first + j;
            if self.links.claim_dir(key, id) {
                subdirs.push((id, off, key.0, Some(perm)));
            }
        }
        self.links.claim_files(file_claims);
        for (name, errno) in failed {
            self.error(ErrorAt::Entry(job.node, name), ErrorKind::Access, errno);
        }
        self.progress.entries.fetch_add(kept, Ordering::Relaxed);
        self.progress.bytes.fetch_add(bytes, Ordering::Relaxed);

        // 4. one task per subdirectory; they share this fd to open themselves
        if subdirs.is_empty() {
            return;
        }
        let dir = match self.fd_permit() {
            Some(permit) => ParentDir::Fd {
                fd,
                _permit: permit,
            },
            None => {
                drop(fd);
                ParentDir::Path(job.node)
            }
        };
        let parent = Arc::new(OpenParent {
            dir,
            names: Box::from(sub_names.as_slice()),
        });
        for &(id, off, edev, perm) in subdirs.iter().rev() {
            let job = DirJob {
                node: id,
                handle: DirHandle::Below(Arc::clone(&parent), off),
                dev: edev,
                root_dev: job.root_dev,
                stat_done: perm.is_some(),
                perm,
                may_be_large: true,
            };
            spawn(job);
        }
    }
}

/// The sizes and identity of a directory from its own stat.
fn set_own(b: &mut TreeBuilder, id: NodeId, meta: &Meta, times: Times) {
    b.set_identity(id, (meta.dev, meta.ino));
    b.set_extra(id, meta.extra(times));
    let n = b.node_mut(id);
    n.disk = meta.disk_bytes();
    n.apparent = meta.size;
    n.mtime = meta.mtime;
}

fn name_at(names: &[u8], off: u32) -> &CStr {
    // every name was stored with its NUL; a malformed buffer would be a bug, not bad input
    CStr::from_bytes_until_nul(&names[off as usize..]).unwrap_or(c"")
}

fn name_bytes<'n>(names: &'n [u8], e: &Ent) -> &'n [u8] {
    &names[e.name_off as usize..(e.name_off + e.name_len) as usize]
}

/// Whether `dir/name` is `pattern` (an -X path, trailing slashes already trimmed).
fn is_child_path(pattern: &[u8], dir: &[u8], name: &[u8]) -> bool {
    let dir = crate::config::trim_trailing_slashes(dir);
    let sep = usize::from(dir != b"/");
    pattern.len() == dir.len() + sep + name.len()
        && pattern.starts_with(dir)
        && pattern.ends_with(name)
        && (sep == 0 || pattern[dir.len()] == b'/')
}
