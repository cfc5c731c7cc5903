//! A directory's entries between getdents64 and the tree: names, records and stats in
//! per-thread buffers, or in batches that other threads stat.

use std::cell::Cell;
use std::ffi::CStr;

use super::placed::Placed;
use crate::sys::{Errno, Meta, Times};
use crate::tree::{EntryKind, Node};

/// Names per batch handed to another thread: enough to pay for the task, small enough that
/// every thread gets some of a directory of a few thousand.
pub(super) const STAT_BATCH: usize = 512;

/// [`Ent::stat`] of an entry that was not stat'ed.
pub(super) const NO_STAT: u32 = u32::MAX;
/// [`Ent::stat`] of an entry left out by -X or as hidden, kept only to be marked so
/// ([`crate::walk::Exclusions::mark`]): never stat'ed.
pub(super) const EXCLUDED: u32 = u32::MAX - 1;

pub(super) type StatResult = Result<Meta, Errno>;

/// A directory's entries as read (or some of them): names, records, and the stats and
/// times of those stat'ed.
#[derive(Default)]
pub(super) struct Listed {
    /// NUL-terminated names, as read; `Ent::name_off` is relative to this buffer.
    pub(super) names: Vec<u8>,
    pub(super) ents: Vec<Ent>,
    /// Results of the stats made (see [`Ent::stat`]).
    pub(super) stats: Vec<StatResult>,
    /// Access and change times of `ents`, index for index, when the walk keeps
    /// [`crate::tree::StatExtra`] (empty otherwise: `Ent` stays small).
    pub(super) times: Vec<Times>,
    /// How much of `names`, `ents` and `stats` has been faulted in ahead of them, with no
    /// other thread to do it (see [`Listed::ready_ahead`]).
    ready: [usize; 3],
}

/// Entries a one-thread walk makes room for at once when a directory gets huge: address
/// space only, so that the listing grows without being copied (a copy faults in its new
/// pages and moves every byte again).
const ONE_THREAD_ROOM: usize = 256 << 10;

/// Entries between two looks at whether the listing needs more pages made ready.
pub(super) const READY_STEP: usize = 1024;

impl Listed {
    pub(super) fn clear(&mut self) {
        self.names.clear();
        self.ents.clear();
        self.stats.clear();
        self.times.clear();
    }

    /// Room for the rest of a huge directory, when no other thread can fault its pages in
    /// (see `Walker::grow_ahead`): one move of what was read so far, then none.
    pub(super) fn make_room(&mut self) {
        // address space asked for, not memory: where it is refused (strict overcommit), the
        // vectors grow as they did
        let n = ONE_THREAD_ROOM.max(self.ents.capacity() * 2);
        let _ = self.ents.try_reserve(n - self.ents.len());
        let _ = self
            .names
            .try_reserve((n * 16).saturating_sub(self.names.len()));
        if !self.stats.is_empty() {
            // (-f stats no file: no room for them)
            let _ = self.stats.try_reserve(n - self.stats.len());
        }
        // what was ready is where the vectors were
        self.ready = [self.names.len(), self.ents.len(), self.stats.len()];
    }

    /// The next pages of the listing, 64 KiB of each vector at a time, faulted in at once
    /// instead of one fault a page (a page faulted in with others costs about half what a
    /// fault of its own costs).
    pub(super) fn ready_ahead(&mut self) {
        use crate::tree::span_ahead;
        const AHEAD: usize = 64 << 10;
        let spans = [
            span_ahead(&self.names, self.ready[0], AHEAD),
            span_ahead(&self.ents, self.ready[1], AHEAD / size_of::<Ent>()),
            span_ahead(&self.stats, self.ready[2], AHEAD / size_of::<StatResult>()),
        ];
        for (slot, (ready, (addr, len))) in self.ready.iter_mut().zip(spans) {
            *slot = ready;
            crate::sys::prefault(addr, len);
        }
    }

    /// A stat failed with EACCES: the directory may not be searchable.
    pub(super) fn access_denied(&self) -> bool {
        self.stats.iter().any(|s| matches!(s, Err(Errno::ACCESS)))
    }

    /// Some entry has no stat (count mode).
    pub(super) fn unstated(&self) -> bool {
        self.ents.iter().any(|e| e.stat == NO_STAT)
    }
}

/// Names of a large directory on their way to another thread to be stat'ed.
#[derive(Default)]
pub(super) struct StatBatch {
    pub(super) listed: Listed,
    /// Once stat'ed, the entries made nodes (`Placer::place_batch`), with
    /// names local to `node_names`, and the rest of what they gave; `listed` is then let go.
    pub(super) nodes: Vec<Node>,
    pub(super) node_names: Vec<u8>,
    pub(super) placed: Placed,
    /// [`Listed::access_denied`] and [`Listed::unstated`] of what was let go.
    pub(super) access_denied: bool,
    pub(super) unstated: bool,
    /// A span of a split listing (see `sys::read_span`): the entries it met, those left out
    /// (-X, hidden) included, the name of the first, and why it could not be read.
    pub(super) span_entries: usize,
    pub(super) span_first: Option<Box<[u8]>>,
    pub(super) span_error: Option<Errno>,
}

impl StatBatch {
    pub(super) fn push(&mut self, name: &CStr, kind: Option<EntryKind>, ino: u64, stat: u32) {
        let listed = &mut self.listed;
        if listed.ents.is_empty() {
            listed.ents.reserve(STAT_BATCH);
            listed.names.reserve(STAT_BATCH * 24);
        }
        let off = listed.names.len() as u32;
        listed.names.extend_from_slice(name.to_bytes_with_nul());
        listed.ents.push(Ent {
            name_off: off,
            name_len: name.to_bytes().len() as u32,
            kind,
            ino,
            stat,
        });
    }
}

/// A stat batch, or a span of a split listing, once stat'ed and placed, with its place in
/// the directory's order: the reader's batches from 0, other readers' spans from
/// `SPAN_BASE` (see `split`).
pub(super) struct Finished {
    pub(super) order: u32,
    pub(super) batch: StatBatch,
}

/// Per-thread buffers reused from one directory to the next (a directory costs no allocation
/// but its share of the tree and, when it has subdirectories, their names).
#[derive(Default)]
pub(super) struct Scratch {
    /// The entries read and stat'ed on this thread.
    pub(super) listed: Listed,
    /// What the entries placed gave besides their nodes.
    pub(super) placed: Placed,
    /// The directory's nodes, built before the tree's lock is taken, and their names.
    pub(super) nodes: Vec<Node>,
    pub(super) node_names: Vec<u8>,
}

impl Scratch {
    pub(super) fn clear(&mut self) {
        self.listed.clear();
        self.placed.clear();
        self.nodes.clear();
        self.node_names.clear();
    }
}

thread_local! {
    /// Boxed, so that taking it and putting it back moves a pointer, not the 300-byte struct
    /// (it was copied several times a directory, a large share of a chain's walk).
    pub(super) static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

/// One directory entry on its way into the tree: 24 bytes, its stat (64) kept apart, as most
/// entries of a -f walk have none.
pub(super) struct Ent {
    pub(super) ino: u64,
    pub(super) name_off: u32,
    pub(super) name_len: u32,
    /// Index of its stat in the directory's `stats`, or [`NO_STAT`].
    pub(super) stat: u32,
    pub(super) kind: Option<EntryKind>,
}

impl Ent {
    pub(super) fn stat<'s>(&self, stats: &'s [StatResult]) -> Option<&'s StatResult> {
        stats.get(self.stat as usize)
    }
}

pub(super) fn name_at(names: &[u8], off: u32) -> &CStr {
    // every name was stored with its NUL; a malformed buffer would be a bug, not bad input
    CStr::from_bytes_until_nul(&names[off as usize..]).unwrap_or(c"")
}

pub(super) fn name_bytes<'n>(names: &'n [u8], e: &Ent) -> &'n [u8] {
    &names[e.name_off as usize..(e.name_off + e.name_len) as usize]
}
