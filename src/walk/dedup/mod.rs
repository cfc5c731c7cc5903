//! Counting every inode once: hard links, overlapping arguments and `-L` loops.
//!
//! Directories and files are kept apart because they need different things.
//!
//! A directory must know at once whether it is the first name of its inode (only then is it
//! walked), so directory claims go through a set split into shards with a lock each: two
//! threads rarely want the same shard, and no claim waits for the tree lock. The first
//! claimant wins and is the one walked; later names are duplicates.
//!
//! A file needs no answer during the walk, only a name that owns its inode by the end, and
//! in `-f` mode every file claims (without a stat there is no link count to say which may
//! be shared). So file claims are only logged, packed (a directory's files in one run, their
//! inode numbers as varint differences: a byte or two each, see `claim_log`), and duplicates
//! are found after the walk in one pass over a bitmap indexed by inode number. A hash set
//! of every inode costs many times the memory of a claim, and its growth (page faults
//! included) a large share of the -f walk's time. The owner of a shared inode is the name
//! a depth-first walk in directory order meets first — what GNU du counts — whatever
//! thread got there first.

use std::collections::hash_map::Entry;
use std::sync::{Mutex, MutexGuard, PoisonError};

use rustc_hash::{FxHashMap, FxHashSet};

use super::inode_bitmap::InodeBitmap;
use crate::tree::{LinkKey, NodeId};

mod claim_log;
mod settle;
mod verify;

use claim_log::ClaimLog;

pub use settle::SettledClaims;

const SHARDS: usize = 64;

/// A name of an inode that may have others: the inode, and the node that names it (or
/// `FOLDED_INTO_DIR` for a file summed into its directory).
#[derive(Copy, Clone, Debug)]
pub struct NameClaim {
    pub key: LinkKey,
    pub node: NodeId,
}

/// Directory claims of one shard.
#[derive(Default)]
struct Shard {
    /// Inode → the directory that claimed it first.
    owners: FxHashMap<LinkKey, NodeId>,
    /// Later claims of an inode already owned: duplicates, never walked.
    contested: Vec<NodeId>,
}

/// One file name of an inode that may have others, as a [`ClaimLog`] gives it back. `dev` is
/// an index into [`LinkSet::devs`]: a scan meets a handful of devices.
#[derive(Copy, Clone)]
struct FileClaim {
    ino: u64,
    dev: u32,
    id: NodeId,
}

/// The file claims of one thread (see [`LinkSet::claim_files`]).
struct FileClaims {
    /// (device, its index in `LinkSet::devs`) of the devices this thread met.
    devs: Vec<(u64, u32)>,
    log: ClaimLog,
    /// Bytes of the log its pages are faulted in for (see [`crate::tree::span_ahead`]).
    ready: usize,
    /// The inodes of `log`, and those met more than once in it, as they are logged: on the
    /// thread that walks, so that settling only merges each thread's bitmap with the others'
    /// (finding them after the walk, on one thread, was much of the settling). `None` once
    /// its inode numbers turned out too sparse.
    seen: Option<InodeBitmap>,
    /// Files summed into their directories ([`LinkSet::count_folded`]): how many claimed,
    /// and how many in each directory; their inodes go into `seen`, or, once that gave up,
    /// into `folded_set`.
    folded: usize,
    folded_dirs: Vec<(NodeId, u32)>,
    folded_set: Option<FxHashSet<(u32, u64)>>,
    /// The folded files' claims, their directory as `id`, when the claims are unverified
    /// ([`LinkSet::unverified`]): a repeated number is then checked by its names.
    folded_log: ClaimLog,
}

impl FileClaims {
    /// Counts the inode of a file summed into its directory.
    fn count_folded(&mut self, dev: u32, ino: u64) {
        self.folded += 1;
        if let Some(set) = self.folded_set.as_mut() {
            set.insert((dev, ino));
        } else if let Some(seen) = self.seen.as_mut() {
            if !seen.insert(dev, ino, self.folded) {
                // sparse numbers: a set from here on
                let mut set = FxHashSet::default();
                seen.for_each(|d, i| {
                    set.insert((d, i));
                });
                set.insert((dev, ino));
                self.folded_set = Some(set);
                self.seen = None;
            }
        }
    }
}

impl Default for FileClaims {
    fn default() -> Self {
        FileClaims {
            devs: Vec::new(),
            log: ClaimLog::default(),
            ready: 0,
            seen: Some(InodeBitmap::new()),
            folded: 0,
            folded_dirs: Vec::new(),
            folded_set: None,
            folded_log: ClaimLog::default(),
        }
    }
}

/// Bytes a thread's log has room for from its first (address space only: its pages are
/// taken as it fills, 64 KiB at a time past its first 64 KiB, as the tree's are), so that
/// growing it never copies it: in -f mode every file claims, 1 to 3 bytes each mostly.
const LOG_RESERVE: usize = 16 << 20;
const LOG_AHEAD: usize = 64 << 10;
/// Bytes of log a claim is given room for ahead of it ([`LinkSet::file_log_room`]): more
/// than most take; what a claim takes beyond is faulted in as the log fills.
const ROOM_PER_CLAIM: usize = 4;

pub struct LinkSet {
    dirs: Box<[Mutex<Shard>]>,
    /// Every device a file claim was made on, in the order met.
    devs: Mutex<Vec<u64>>,
    /// One log per pool thread (by its index, modulo): in -f mode every directory logs its
    /// files, and with one shared log the threads met on its lock and slept on it (balanced,
    /// 2 threads: 3 futex waits per walk).
    files: Box<[Mutex<FileClaims>]>,
    /// Whether a thread's log takes room for [`LOG_RESERVE`] claims at its first.
    reserve_ahead: bool,
    /// Claims are made without a stat (`-f`): a repeated inode number may be two inodes
    /// (see `verify`).
    unverified: bool,
}

impl Default for LinkSet {
    fn default() -> Self {
        Self::new(true)
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl LinkSet {
    pub fn new(reserve_ahead: bool) -> LinkSet {
        LinkSet {
            dirs: (0..SHARDS).map(|_| Mutex::default()).collect(),
            devs: Mutex::default(),
            files: (0..SHARDS).map(|_| Mutex::default()).collect(),
            reserve_ahead,
            unverified: false,
        }
    }

    /// Says that file claims are made without a stat (`-f`): settling checks repeated
    /// inode numbers by their names' link counts.
    pub fn with_unverified_claims(mut self, unverified: bool) -> LinkSet {
        self.unverified = unverified;
        self
    }

    fn shard_of(key: LinkKey) -> usize {
        // inode numbers are dense: mix them so that neighbours spread over the shards
        let (dev, ino) = key;
        let h = (ino ^ dev.rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 58) as usize % SHARDS
    }

    /// Records that directory `id` is a name of inode `key`; true when it is the first to
    /// claim it (and so the one to walk).
    pub fn claim_dir(&self, key: LinkKey, id: NodeId) -> bool {
        let mut guard = lock(&self.dirs[Self::shard_of(key)]);
        let shard = &mut *guard;
        match shard.owners.entry(key) {
            Entry::Vacant(v) => {
                v.insert(id);
                true
            }
            Entry::Occupied(_) => {
                shard.contested.push(id);
                false
            }
        }
    }

    /// The file-claim log of the calling thread.
    fn thread_log(&self) -> MutexGuard<'_, FileClaims> {
        let thread = rayon::current_thread_index().unwrap_or(0);
        lock(&self.files[thread % SHARDS])
    }

    /// Makes room in this thread's log for `n` more file claims, and gives the address and
    /// length of the room (see [`crate::sys::prefault`]).
    pub fn file_log_room(&self, n: usize) -> (usize, usize) {
        let mut files = self.thread_log();
        let files = &mut *files;
        let room = n.saturating_mul(ROOM_PER_CLAIM);
        let bytes = files.log.bytes_mut();
        bytes.reserve(room);
        let (addr, spare) = crate::tree::spare_room(bytes);
        let len = spare.min(room);
        files.ready = bytes.len() + len;
        (addr, len)
    }

    /// Records file names whose inodes may have other names (one directory's at a time: one
    /// lock per directory). Which name counts is decided in [`LinkSet::settle`].
    pub fn claim_files(&self, claims: &[NameClaim]) {
        if claims.is_empty() {
            return;
        }
        let mut files = self.thread_log();
        let files = &mut *files;
        let mut last: Option<(u64, u32)> = None;
        if files.log.bytes_mut().capacity() == 0 && self.reserve_ahead {
            // address space; refused (strict overcommit), the log grows as it did
            let _ = files.log.bytes_mut().try_reserve(LOG_RESERVE);
        }
        // a run per device (a directory's files are all on its device, but for a mount)
        for run in claims.chunk_by(|a, b| a.key.0 == b.key.0) {
            let dev = self.dev_of(&mut files.devs, &mut last, run[0].key.0);
            let before = files.log.len();
            files
                .log
                .push_named(dev, run.iter().map(|c| (c.key.1, c.node)));
            if let Some(seen) = files.seen.as_mut() {
                for (i, c) in run.iter().enumerate() {
                    if !seen.insert(dev, c.key.1, before + i + 1) {
                        files.seen = None; // sparse numbers: sorted at the end instead
                        break;
                    }
                }
            }
        }
        let bytes = files.log.bytes_mut();
        let (ready, (addr, len)) =
            crate::tree::span_ahead(bytes, files.ready.max(LOG_AHEAD), LOG_AHEAD);
        files.ready = ready;
        crate::sys::prefault(addr, len);
    }

    /// Records that the files of directory `dir` named these inodes, each summed into it
    /// (totals only, -f, one path): how many names each inode has does not matter, only
    /// how many inodes there are, so no claim is logged, only its inode in a bitmap.
    pub fn count_folded(&self, dir: NodeId, claims: &[NameClaim]) {
        if claims.is_empty() {
            return;
        }
        let mut files = self.thread_log();
        let files = &mut *files;
        let mut last: Option<(u64, u32)> = None;
        files.folded_dirs.push((dir, claims.len() as u32));
        for run in claims.chunk_by(|a, b| a.key.0 == b.key.0) {
            let dev = self.dev_of(&mut files.devs, &mut last, run[0].key.0);
            if self.unverified {
                files
                    .folded_log
                    .push_folded(dev, dir, run.iter().map(|c| c.key.1));
            }
            for c in run {
                files.count_folded(dev, c.key.1);
            }
        }
    }

    /// The index of `dev` in [`LinkSet::devs`], known to this thread or asked.
    fn dev_of(&self, devs: &mut Vec<(u64, u32)>, last: &mut Option<(u64, u32)>, dev: u64) -> u32 {
        match *last {
            Some((d, i)) if d == dev => i,
            _ => {
                let i = match devs.iter().rfind(|(d, _)| *d == dev) {
                    Some(&(_, i)) => i,
                    None => {
                        let i = self.dev_index(dev);
                        devs.push((dev, i));
                        i
                    }
                };
                *last = Some((dev, i));
                i
            }
        }
    }

    fn dev_index(&self, dev: u64) -> u32 {
        let mut devs = lock(&self.devs);
        match devs.iter().rposition(|&d| d == dev) {
            Some(i) => i as u32,
            None => {
                devs.push(dev);
                devs.len() as u32 - 1
            }
        }
    }
}
