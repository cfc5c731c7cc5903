//! The list phase of a directory task: its entries read (getdents64), left out (-X, hidden),
//! stat'ed and placed as its plan says, on this thread, in stat batches on the pool, or in
//! spans of a split listing.

use std::ffi::CStr;
use std::mem::take;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::{Mutex, PoisonError};

use rustix::fs::FileType;

use super::{is_child_path, DirTask, PARALLEL_STAT_MIN};
use crate::sys::{self, Errno, Span, Stopped, Times};
use crate::tree::{spare_room, EntryKind, Node, NodeId};
use crate::walk::dedup::NameClaim;
use crate::walk::entries::{
    name_at, Ent, Finished, Listed, Scratch, StatBatch, EXCLUDED, NO_STAT, READY_STEP, STAT_BATCH,
};
use crate::walk::place::{left_out_node, Entry};
use crate::walk::placed::Subdir;
use crate::walk::plan::{Fold, Intake, Spread};
use crate::walk::split::{drop_empty_spans, SplitPlan, SPAN_BASE};
use crate::walk::{lock, Walker};

/// A directory read past this many entries on one thread has the memory its listing grows
/// into faulted in by another thread while it reads on (see `Walker::grow_ahead`).
const GROW_AHEAD_MIN: usize = 8 * 1024;

/// The reading thread's side of a listing: where its entries go as they are read.
pub(super) struct Reader<'s> {
    scratch: &'s mut Scratch,
    /// Entries read and kept (not left out by -X or hidden), for where placing them as they
    /// are read stops.
    kept: usize,
    /// A stat made as an entry was read failed with EACCES.
    pub(super) denied: bool,
    /// Names on their way to a stat batch (past the first PARALLEL_STAT_MIN).
    batch: StatBatch,
    /// Stat batches go to the pool: the plan spreads them and the pool is there.
    hands_out: bool,
    /// The listing is split: the other threads are busy reading (see `grow_ahead`).
    split: bool,
}

impl<'s> Reader<'s> {
    pub(super) fn new(scratch: &'s mut Scratch) -> Reader<'s> {
        Reader {
            scratch,
            kept: 0,
            denied: false,
            batch: StatBatch::default(),
            hands_out: false,
            split: false,
        }
    }

    pub(super) fn scratch(&self) -> &Scratch {
        self.scratch
    }

    pub(super) fn into_scratch(self) -> &'s mut Scratch {
        self.scratch
    }

    /// One entry as it is read, with its name still in the getdents buffer. The first
    /// PARALLEL_STAT_MIN are stat'ed (or not) and placed at once where the plan allows;
    /// past them, a directory whose stats are spread hands its names out in batches that
    /// other threads stat while this one reads on; the rest are recorded, to be placed
    /// after the listing.
    #[inline]
    fn take(
        &mut self,
        task: &DirTask<'_, '_>,
        name: &CStr,
        t: FileType,
        ino: u64,
        hand_out: &mut dyn FnMut(StatBatch),
    ) {
        let b = name.to_bytes();
        if task.filtering && !task.keeps(b) {
            if task.walker.opts.exclusions.mark {
                self.left_out(task, name, sys::kind_of_dirent(t), ino, hand_out);
            }
            return;
        }
        let kind = sys::kind_of_dirent(t);
        self.kept += 1;
        let early = self.kept <= PARALLEL_STAT_MIN;
        match task.plan.intake {
            Intake::StatAndPlaceAsRead if early || self.places_all(task) => {
                return self.stat_and_place(task, name, kind, ino);
            }
            Intake::NodeAsRead => {
                let every_file = task.plan.fold == Fold::EveryFile;
                if let Some(kind) = kind.filter(|_| every_file || early) {
                    return self.node_as_read(task, name, kind, ino);
                }
            }
            _ => {}
        }
        if self.hands_out && !early {
            self.batch.push(name, kind, ino, NO_STAT);
            if self.batch.listed.ents.len() == STAT_BATCH {
                hand_out(take(&mut self.batch));
            }
            return;
        }
        self.record(task, name, kind, ino);
    }

    /// An entry left out (-X, hidden) kept as a mark where it was listed: it goes the way the
    /// next entry kept would go, so that the directory's entries stay in listing order.
    fn left_out(
        &mut self,
        task: &DirTask<'_, '_>,
        name: &CStr,
        kind: Option<EntryKind>,
        ino: u64,
        hand_out: &mut dyn FnMut(StatBatch),
    ) {
        let early = self.kept < PARALLEL_STAT_MIN;
        let as_read = match task.plan.intake {
            Intake::StatAndPlaceAsRead => early || self.places_all(task),
            Intake::NodeAsRead => kind.is_some() && (task.plan.fold == Fold::EveryFile || early),
            _ => false,
        };
        if as_read {
            let b = name.to_bytes();
            let Scratch {
                nodes, node_names, ..
            } = &mut *self.scratch;
            nodes.push(left_out_node(kind).with_local_name(node_names.len(), b.len()));
            node_names.extend_from_slice(b);
        } else if self.hands_out && !early {
            self.batch.push(name, kind, ino, EXCLUDED);
            if self.batch.listed.ents.len() == STAT_BATCH {
                hand_out(take(&mut self.batch));
            }
        } else {
            let Listed {
                names, ents, times, ..
            } = &mut self.scratch.listed;
            if task.walker.opts.keep_extra {
                times.push(Times::default()); // one per entry, as `record` keeps them
            }
            let off = names.len() as u32;
            names.extend_from_slice(name.to_bytes_with_nul());
            ents.push(Ent {
                name_off: off,
                name_len: name.to_bytes().len() as u32,
                kind,
                ino,
                stat: EXCLUDED,
            });
        }
    }

    /// Files summed as they are stat'ed, and no other thread to hand stats to: every entry
    /// is stat'ed and placed as it is read (only subdirectories become nodes), none kept
    /// with its name and stat to place later.
    fn places_all(&self, task: &DirTask<'_, '_>) -> bool {
        task.plan.fold != Fold::Never && !self.hands_out
    }

    #[inline]
    fn stat_and_place(
        &mut self,
        task: &DirTask<'_, '_>,
        name: &CStr,
        kind: Option<EntryKind>,
        ino: u64,
    ) {
        let stat = task
            .plan
            .stat
            .wants(kind)
            .then(|| task.stat_entry(task.fd.as_fd(), name));
        self.denied |= matches!(stat, Some(Err(Errno::ACCESS)));
        let entry = Entry {
            stat: stat.as_ref(),
            kind,
            ino,
            name: name.to_bytes(),
            times: Times::default(),
        };
        let Scratch {
            placed,
            nodes,
            node_names,
            ..
        } = &mut *self.scratch;
        task.placer.place_one(entry, placed, &mut |n, nb| {
            nodes.push(n.with_local_name(node_names.len(), nb.len()));
            node_names.extend_from_slice(nb);
        });
    }

    /// An entry of a known type with nothing to stat becomes its node as it is read: no copy
    /// of its name or record of it to build the node from later.
    #[inline]
    fn node_as_read(&mut self, task: &DirTask<'_, '_>, name: &CStr, kind: EntryKind, ino: u64) {
        let Scratch {
            placed,
            nodes,
            node_names,
            ..
        } = &mut *self.scratch;
        if task.plan.fold == Fold::EveryFile && kind != EntryKind::Dir {
            return task.walker.fold_file(task.node, placed, (task.dev, ino));
        }
        let j = nodes.len() as NodeId;
        if kind == EntryKind::Dir {
            let off = placed.sub_names.len() as u32;
            placed.sub_names.extend_from_slice(name.to_bytes_with_nul());
            placed.subdirs.push(Subdir {
                node: j,
                name_off: off,
                dev: task.dev,
                perm: None,
            });
        } else {
            // no link count without a stat: every inode goes through the set
            placed.file_claims.push(NameClaim {
                key: (task.dev, ino),
                node: j,
            });
        }
        let b = name.to_bytes();
        nodes.push(Node::new(kind, 0, 0, 0, 0).with_local_name(node_names.len(), b.len()));
        node_names.extend_from_slice(b);
    }

    /// An entry kept with its name (and stat, made now) to be placed after the listing.
    #[inline]
    fn record(&mut self, task: &DirTask<'_, '_>, name: &CStr, kind: Option<EntryKind>, ino: u64) {
        let Scratch {
            listed: here,
            placed,
            ..
        } = &mut *self.scratch;
        let n = here.ents.len();
        if n >= GROW_AHEAD_MIN {
            if n == here.ents.capacity() {
                task.walker
                    .grow_ahead(here, &mut placed.file_claims, self.split);
            }
            if n % READY_STEP == 0 && (self.split || task.walker.threads.pool().is_none()) {
                here.ready_ahead();
            }
        }
        let Listed {
            names,
            ents,
            stats,
            times,
            ..
        } = here;
        let off = names.len() as u32;
        names.extend_from_slice(name.to_bytes_with_nul());
        let keep_times = task.walker.opts.keep_extra;
        let mut stat = NO_STAT;
        if task.plan.stat.wants(kind) {
            stat = stats.len() as u32;
            stats.push(if keep_times {
                task.stat_entry_times(task.fd.as_fd(), name).map(|(m, t)| {
                    times.push(t);
                    m
                })
            } else {
                task.stat_entry(task.fd.as_fd(), name)
            });
        }
        if keep_times && times.len() == ents.len() {
            times.push(Times::default()); // not stat'ed, or it failed
        }
        ents.push(Ent {
            name_off: off,
            name_len: name.to_bytes().len() as u32,
            kind,
            ino,
            stat,
        });
    }
}

impl DirTask<'_, '_> {
    /// The list phase: every entry read and stat'ed as the plan says. Gives the batches
    /// stat'ed on other threads (and the reader's last, partial one), in listing order;
    /// what was read on this thread is in the reader's scratch.
    pub(super) fn list(&self, reader: &mut Reader<'_>) -> Result<Vec<StatBatch>, Errno> {
        let done: Mutex<Vec<Finished>> = Mutex::new(Vec::new());
        let pool = match self.plan.spread {
            Spread::StatBatches => self.walker.threads.pool(),
            Spread::Alone | Spread::SplitAfterFirstRead => None,
        };
        reader.hands_out = pool.is_some();
        let listed = match pool {
            None => self.read_alone(reader, &done),
            Some(pool) => pool.in_place_scope(|s| {
                let mut next = 0u32;
                let done = &done;
                let mut hand_out = |batch| {
                    let order = next;
                    next += 1;
                    s.spawn(move |_| {
                        // stat before taking the lock (not as an argument of push)
                        let batch = self.stat_batch(batch);
                        lock(done).push(Finished { order, batch });
                    });
                };
                self.read(reader, &mut hand_out, Span::WHOLE)
            }),
        };
        // the batches stat'ed by now, and the last, partial one: ours; they are read where
        // they are, not copied together
        let mut done = done.into_inner().unwrap_or_else(PoisonError::into_inner);
        if !reader.batch.listed.ents.is_empty() {
            let order = done.iter().filter(|f| f.order < SPAN_BASE).count() as u32;
            let batch = self.stat_batch(take(&mut reader.batch));
            done.push(Finished { order, batch });
        }
        done.sort_unstable_by_key(|f| f.order);
        listed.and_then(|_| drop_empty_spans(&mut done))?;
        Ok(done.into_iter().map(|f| f.batch).collect())
    }

    /// The listing read on this thread, or, with nothing to stat, split between threads once
    /// its first read shows it is long (a huge directory is known only once read).
    fn read_alone(
        &self,
        reader: &mut Reader<'_>,
        done: &Mutex<Vec<Finished>>,
    ) -> Result<Stopped, Errno> {
        let first_read = Span {
            one_read: self.plan.spread == Spread::SplitAfterFirstRead,
            ..Span::WHOLE
        };
        let first = match self.read(reader, &mut |_| {}, first_read) {
            Ok(st) if st.more => st,
            other => return other,
        };
        let Some(SplitPlan { pool, bounds, fds }) = self.walker.split_plan(self.fd.as_fd(), first)
        else {
            let rest = Span {
                from: first.next,
                ..Span::WHOLE
            };
            return self.read(reader, &mut |_| {}, rest);
        };
        pool.in_place_scope(|s| {
            reader.split = true;
            let spans = bounds.windows(2).enumerate().skip(1).zip(fds);
            for ((i, w), fd) in spans {
                let (from, end) = (w[0], w[1]);
                s.spawn(move |_| {
                    let part = self.read_other_span(fd, from, end);
                    let order = SPAN_BASE + i as u32;
                    lock(done).push(Finished { order, batch: part });
                });
            }
            let span = Span {
                from: first.next,
                end: bounds[1],
                one_read: false,
            };
            self.read(reader, &mut |_| {}, span)
        })
    }

    /// Reads a span of the listing on this thread's fd into `reader`.
    fn read(
        &self,
        reader: &mut Reader<'_>,
        hand_out: &mut dyn FnMut(StatBatch),
        span: Span,
    ) -> Result<Stopped, Errno> {
        sys::read_span(&self.fd, self.ext4, span, |name, t, ino| {
            reader.take(self, name, t, ino, hand_out)
        })
    }

    /// Whether an entry is kept: not left out by -X or as a hidden file (the same for every
    /// reader of a listing).
    fn keeps(&self, b: &[u8]) -> bool {
        let ex = &self.walker.opts.exclusions;
        if ex.hidden && b.first() == Some(&b'.') {
            return false;
        }
        if ex.names.iter().any(|n| n.as_slice() == b) {
            return false;
        }
        if let Some(dp) = &self.dir_path {
            if ex.paths.iter().any(|p| is_child_path(p, dp, b)) {
                return false;
            }
        }
        true
    }

    /// Stats a batch of names (on the thread it was handed to) and makes its entries nodes.
    fn stat_batch(&self, mut batch: StatBatch) -> StatBatch {
        let keep_times = self.walker.opts.keep_extra;
        let dirfd = self.fd.as_fd();
        let l = &mut batch.listed;
        if keep_times {
            l.times = vec![Times::default(); l.ents.len()];
        }
        for (i, e) in l.ents.iter_mut().enumerate() {
            if !self.plan.stat.wants(e.kind) || e.stat == EXCLUDED {
                continue;
            }
            let name = name_at(&l.names, e.name_off);
            e.stat = l.stats.len() as u32;
            l.stats.push(if keep_times {
                self.stat_entry_times(dirfd, name).map(|(m, t)| {
                    l.times[i] = t;
                    m
                })
            } else {
                self.stat_entry(dirfd, name)
            });
        }
        self.placer.place_batch(&mut batch);
        batch
    }

    /// A span of a split listing, read on another thread on its own fd: its entries are
    /// stat'ed and made nodes there too, as a stat batch's are (see `Walker::split_plan`).
    fn read_other_span(&self, fd: OwnedFd, from: u64, end: u64) -> StatBatch {
        let mut batch = StatBatch::default();
        let (mut met, mut first) = (0usize, None);
        let every_file = self.plan.fold == Fold::EveryFile;
        let span = Span {
            from,
            end,
            one_read: false,
        };
        let read = sys::read_span(&fd, self.ext4, span, |name, t, ino| {
            let b = name.to_bytes();
            if met == 0 {
                first = Some(Box::from(b));
            }
            met += 1;
            let kept = !self.filtering || self.keeps(b);
            if !kept && !self.walker.opts.exclusions.mark {
                return;
            }
            let kind = sys::kind_of_dirent(t);
            if !kept {
                return batch.push(name, kind, ino, EXCLUDED);
            }
            if every_file && kind.is_some_and(|k| k != EntryKind::Dir) {
                // summed into the directory: no name or record to keep
                return self
                    .walker
                    .fold_file(self.node, &mut batch.placed, (self.dev, ino));
            }
            let l = &mut batch.listed;
            if l.ents.is_empty() && self.walker.reserve_ahead {
                l.make_room();
            }
            if l.ents.len() % READY_STEP == 0 {
                l.ready_ahead();
            }
            batch.push(name, kind, ino, NO_STAT);
        });
        drop(fd);
        let mut batch = self.stat_batch(batch);
        (batch.span_entries, batch.span_first) = (met, first);
        batch.span_error = read.err();
        batch
    }
}

impl Walker<'_> {
    /// Doubles the room of a huge directory's listing, of the tree and of the hard-link log
    /// for what it will hold, and has another thread fault all of it in while this one reads
    /// on. Each fresh page costs a fault that zeroes it; taken as the reading thread came to
    /// them, in its buffers, then in the tree and the log as the entries were placed, they
    /// were a large share of `-f` on a huge directory, all on one thread.
    /// (With a pool, only -f lists so many names here: a walk that stats them hands a huge
    /// directory's names out in batches past its first 1,024.)
    /// With the listing split (`split`), the other threads read spans of it: this one makes
    /// its own pages ready, as with one thread.
    fn grow_ahead(&self, listed: &mut Listed, claims: &mut Vec<NameClaim>, split: bool) {
        let Some(pool) = self.threads.pool().filter(|_| !split) else {
            // one thread: room for the rest at once, made ready as it fills (ready_ahead)
            if self.reserve_ahead {
                listed.make_room();
            }
            return;
        };
        let Listed { names, ents, .. } = listed;
        ents.reserve(ents.len());
        names.reserve(names.len());
        let (n, name_bytes) = (ents.capacity(), names.capacity());
        claims.reserve(n.saturating_sub(claims.len()));
        let mut regions = vec![spare_room(ents), spare_room(names), spare_room(claims)];
        // the tree's arrays are reserved up front (they never move): its room past what it
        // holds now, where this directory's nodes will go unless other directories come first
        if self.sink.is_none() {
            regions.extend(lock(self.builder()).spare_regions(n, name_bytes));
        }
        regions.push(self.claims.file_log_room(n));
        pool.spawn(move || {
            for (addr, len) in regions {
                sys::prefault(addr, len);
            }
        });
    }
}
