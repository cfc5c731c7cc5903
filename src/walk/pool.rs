//! How many threads a walk runs, and when it starts more: one per core while the metadata
//! is in the page cache, many more once the walk turns out to read from disk.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::{lock, Progress};
use crate::sys;

/// Time the walk may take before the pool starts, and per entry read by then, beyond which
/// the metadata is taken to be on disk, not in the page cache (see `Threads::pool`).
const COLD_START: Duration = Duration::from_micros(300);

const COLD_PER_ENTRY: Duration = Duration::from_micros(8);

/// Blocks (512 bytes) read from a device since the walk started beyond which its metadata is
/// taken to be on disk: eight 4 KiB reads. A walk of cached metadata reads none.
const COLD_BLOCKS: u64 = 64;

/// Whether `blocks` (512 bytes) read from a device by the time `entries` were counted say
/// the metadata is on disk. After a drop of the caches a walk reads 1.3 to 2.8 blocks an
/// entry (`big`, /usr, `balanced`); a cached one reads none, but pages evicted meanwhile
/// (a directory's block, the binary's own) can add a hundred or so, and taken for a cold
/// walk they start many threads a warm walk is slowed by. So the blocks must also be one
/// for every four entries.
fn disk_bound(blocks: u64, entries: u64) -> bool {
    blocks >= COLD_BLOCKS.max(entries / 4)
}

/// Directories a pool thread reads between two looks at how much was read from disk (a look
/// is one getrusage: one every directory would be a noticeable share of a warm walk).
const COLD_CHECK_EVERY: u32 = 32;

thread_local! {
    /// Directories this pool thread read since it last looked for disk reads.
    static DIRS_READ: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// A walk's threads: the pool, built when first needed, and the threads it holds back.
pub(super) struct Threads<'a> {
    /// -T, when given.
    asked: Option<usize>,
    progress: &'a Progress,
    pool: OnceLock<Option<rayon::ThreadPool>>,
    /// Pool threads built but not started: the walk looked warm when the pool started. They
    /// start when it turns out cold after all (see `Threads::pool`).
    held_threads: Mutex<Vec<rayon::ThreadBuilder>>,
    /// `held_threads` is not empty (read on every directory, without the lock).
    may_grow: AtomicBool,
    /// `sys::blocks_read` when the walk started.
    blocks_at_start: u64,
    /// The root being read is on a device with no major number (see `looks_cold`).
    judge_by_time: AtomicBool,
    /// (warm, cold) worker counts without -T, asked of the system once, when first needed.
    default_threads: OnceLock<(usize, usize)>,
    started: Instant,
    /// The process's only walk (`walk_once`): the calling thread is one of the pool's
    /// workers, and the pool is left to the process's exit.
    one_shot: bool,
}

impl<'a> Threads<'a> {
    /// No thread yet: `asked` is -T; the walk starts now.
    pub(super) fn new(asked: Option<usize>, progress: &'a Progress, one_shot: bool) -> Self {
        Threads {
            asked,
            progress,
            pool: OnceLock::new(),
            held_threads: Mutex::new(Vec::new()),
            may_grow: AtomicBool::new(false),
            blocks_at_start: sys::blocks_read(),
            judge_by_time: AtomicBool::new(false),
            default_threads: OnceLock::new(),
            started: Instant::now(),
            one_shot,
        }
    }

    /// Whether this is the process's only walk (see `walk_once`).
    pub(super) fn one_shot(&self) -> bool {
        self.one_shot
    }

    /// A root on `dev` is read next: on a device with no major number (no block device of
    /// its own) whether the walk is cold is judged by its time too (see `looks_cold`).
    pub(super) fn enter_root(&self, dev: u64) {
        self.judge_by_time
            .store(sys::major(dev) == 0, Ordering::Relaxed);
    }

    /// The end of the walk: the pool torn down, or, in the process's only walk, left to
    /// the exit (joining the threads or unmapping their stacks gains nothing then: 0.2 ms,
    /// 16% of a walk of a tiny tree, docs/BENCHMARKS.md).
    pub(super) fn end(self) {
        if self.one_shot {
            std::mem::forget(self.pool);
        }
    }

    /// The worker threads, started only when a walk turns out to need them: a scan of a small
    /// directory starts no thread at all (startup as fast as `du -s`).
    ///
    /// How many depends on where the metadata is. In the page cache, a walk is CPU-bound: a
    /// thread per core. On disk, every thread waits on the device: then many more requests in
    /// flight than cores is what makes it fast (and too many threads slow a warm walk down).
    /// What the root's read cost, done
    /// before the pool exists, tells which it is; when it looks warm, the pool is built with the
    /// cold count but only the warm count of threads start, and the rest wait in
    /// `held_threads` until a pool thread sees the walk read from disk (`check_cold`). Cold
    /// /usr needs that: the shell that dropped the caches has just looked up /usr/bin and
    /// /usr/lib again, so the root reads warm while everything below it is on disk.
    pub(super) fn pool(&self) -> Option<&rayon::ThreadPool> {
        let (warm, cold) = match self.asked {
            Some(n) => (n, n),
            None => *self
                .default_threads
                .get_or_init(|| default_threads(sys::usable_cpus())),
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
        let blocks = sys::blocks_read().saturating_sub(self.blocks_at_start);
        disk_bound(blocks, self.progress.entries.load(Ordering::Relaxed))
    }

    /// On a pool thread, every `COLD_CHECK_EVERY` directories while threads are held back:
    /// starts them once the walk has read from disk.
    pub(super) fn check_cold(&self) {
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
}

/// Walker threads for `cores` CPUs: (warm, cold). With the metadata in the page cache a walk
/// is CPU-bound and one thread per core is best (more threads only contend for the cores);
/// a cold walk waits on the device and wants many reads
/// in flight (see `Threads::pool`).
pub fn default_threads(cores: usize) -> (usize, usize) {
    let cores = cores.max(1);
    (cores, (8 * cores).clamp(16, 128))
}

#[cfg(test)]
mod tests {
    use super::disk_bound;

    #[test]
    fn a_few_blocks_read_in_a_long_cached_walk_are_not_a_disk() {
        assert!(!disk_bound(0, 0));
        assert!(!disk_bound(63, 10));
        // a cold walk, early and later (balanced after a drop: 2.8 blocks an entry)
        assert!(disk_bound(64, 10));
        assert!(disk_bound(1_400, 500));
        assert!(disk_bound(60_432, 21_211));
        // a cached walk that met a few evicted pages
        assert!(!disk_bound(144, 21_211));
        assert!(!disk_bound(144, 4_000));
    }
}
