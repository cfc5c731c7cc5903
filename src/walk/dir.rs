//! One directory task: open the directory, list and stat its entries (spread over the pool
//! when it is large), append them to the tree under one short lock, and hand out its
//! subdirectories as new tasks (which `tasks` runs).

use std::ffi::CStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};

use super::entries::{
    name_at, spare_room, Ent, Listed, Scratch, StatBatch, NO_STAT, READY_STEP, STAT_BATCH,
};
use super::job::{DirHandle, DirJob, OpenParent, ParentDir};
use super::place::{stat_extra, Placed, Placer, FOLDED_INTO_DIR};
use super::split::{drop_empty_spans, SPAN_BASE};
use super::{lock, lock_briefly_held, ErrorAt, ErrorKind, Walker};
use crate::sys::{self, Errno, Meta, Times};
use crate::tree::{flags, EntryKind, LinkKey, Node, NodeId, TreeBuilder};
use crate::vocab::SizeMode;

/// Directories with more entries than this have their stats spread across threads.
const PARALLEL_STAT_MIN: usize = 1024;

/// A root directory this size or larger (bytes, as `st_size` reports it) probably has more
/// than PARALLEL_STAT_MIN entries: its stats may start the pool before it is fully read.
pub(super) const LARGE_DIR_BYTES: u64 = 16 * 1024;

/// Directories with more entries than this have the pages of their nodes faulted in by
/// another thread while they are built (starting the pool for it in -f mode if need be).
const PREFAULT_MIN: usize = 16 * 1024;

/// A directory read past this many entries on one thread has the memory its listing grows
/// into faulted in by another thread while it reads on (see `Walker::grow_ahead`).
const GROW_AHEAD_MIN: usize = 8 * 1024;

/// Files summed into a directory whose inodes are counted at a time (see
/// `LinkSet::count_folded`): their claims stay in the cache, not 2.4 MB of them for one
/// directory of 100,000 files.
const FOLD_CHUNK: usize = 4096;

/// Size (`st_size`) of an ext4 directory too small to hold PARALLEL_STAT_MIN names.
const EXT4_SMALL_DIR_BYTES: u64 = 8192;

impl Walker<'_> {
    /// `stat_at`, with the access and change times when the walk keeps them.
    fn stat_at(&self, dir: BorrowedFd<'_>, name: &CStr) -> Result<(Meta, Times), Errno> {
        let follow = self.opts.follow_links;
        if self.opts.keep_extra {
            sys::stat_at_times(dir, name, follow)
        } else {
            sys::stat_at(dir, name, follow).map(|m| (m, Times::default()))
        }
    }

    /// Doubles the room of a huge directory's listing, of the tree and of the hard-link log
    /// for what it will hold, and has another thread fault all of it in while this one reads
    /// on. Each fresh page costs a fault that zeroes it; taken as the reading thread came to
    /// them, in its buffers, then in the tree and the log as the entries were placed, they
    /// were a tenth of `-f` on a directory of 100,000 files (2,240 faults), all on one thread.
    /// (With a pool, only -f lists so many names here: a walk that stats them hands a huge
    /// directory's names out in batches past its first 1,024.)
    /// With the listing split (`split`), the other threads read spans of it: this one makes
    /// its own pages ready, as with one thread.
    fn grow_ahead(&self, listed: &mut Listed, claims: &mut Vec<(LinkKey, NodeId)>, split: bool) {
        let Some(pool) = self.pool().filter(|_| !split) else {
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
        regions.extend(lock(self.builder).spare_regions(n, name_bytes));
        regions.push(self.links.file_log_room(n));
        pool.spawn(move || {
            for (addr, len) in regions {
                sys::prefault(addr, len);
            }
        });
    }

    /// Opens a subdirectory for its task. `same_mount` (-f, see `scan_dir_with`): opened so
    /// that it fails on another mount, and then `true`: it is on its parent's device and
    /// needs no stat. (A mount point, or no openat2: opened as any other.)
    fn open_subdir(
        &self,
        parent: BorrowedFd<'_>,
        name: &CStr,
        same_mount: bool,
    ) -> Result<(OwnedFd, bool), Errno> {
        match same_mount.then(|| sys::open_dir_on_same_mount(parent, name)) {
            Some(Ok(Some(fd))) => Ok((fd, true)),
            Some(Err(e)) => Err(e),
            _ => sys::open_dir_at(parent, name, self.opts.follow_links).map(|fd| (fd, false)),
        }
    }

    /// Whether a directory's task may skip its stat when its open vouches for its device
    /// (see `open_subdir`): -f, nothing stat'ed it yet, and nothing needs its identity or
    /// permission bits.
    fn may_skip_stat(&self, count_mode: bool, stat_done: bool) -> bool {
        count_mode
            && !stat_done
            && !self.dedup_dirs
            && !self.opts.keep_identity
            && self.searches_everywhere
    }

    /// Sums a file -f read no link count of into directory `dir` (one path, totals only):
    /// its inode is counted with the others', FOLD_CHUNK at a time.
    fn fold_file(&self, dir: NodeId, placed: &mut Placed, key: LinkKey) {
        placed.file_claims.push((key, FOLDED_INTO_DIR));
        placed.folded.entries = placed.folded.entries.saturating_add(1);
        if placed.file_claims.len() == FOLD_CHUNK {
            self.links.count_folded(dir, &placed.file_claims);
            placed.file_claims.clear();
        }
    }

    /// Sizes of a directory that was not stat'ed before it failed to open.
    fn set_own_stat(&self, id: NodeId, stat: Result<(Meta, Times), Errno>) {
        if let Ok((meta, times)) = stat {
            set_own(&mut lock(self.builder), id, &meta, times);
        }
    }

    /// One directory: opened, listed, stat'ed and appended to the tree; its subdirectories
    /// go to `spawn`.
    pub(super) fn scan_dir_with(
        &self,
        job: DirJob,
        spawn: &mut dyn FnMut(DirJob),
        scratch: &mut Scratch,
    ) {
        let follow = self.opts.follow_links;
        let is_root = matches!(job.handle, DirHandle::Open(_));
        // counting entries needs no stat of files, unless their times are wanted
        let count_mode = self.opts.mode == SizeMode::Count && !self.opts.keep_extra;
        // -f: a directory that is not a mount point is on its parent's device, and its inode
        // came with its parent's listing; its entries are all -f wants of it (its own sizes
        // are not shown), so it is not stat'ed: `big -f` makes 37,000 fstat calls fewer and
        // takes 180.6 ms instead of 185.6 (the count floor: 167.0; 15 interleaved runs).
        // An identity to keep or to check (exports, several arguments, -L) still takes its
        // stat, and so does a directory of a process that may not search everywhere (its
        // permission bits tell whether its names can be looked up).
        let same_mount = self.may_skip_stat(count_mode, job.stat_done);
        let mut stat_done = job.stat_done;
        let fd = match job.handle {
            DirHandle::Open(fd) => fd,
            DirHandle::Opened(fd, same_device) => {
                stat_done |= same_device;
                fd
            }
            DirHandle::Below(parent, off) => {
                let name = name_at(&parent.names, off);
                let opened =
                    self.with_parent_fd(&parent, |pfd| self.open_subdir(pfd, name, same_mount));
                match opened {
                    Ok((fd, same_device)) => {
                        stat_done |= same_device;
                        fd
                    }
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

        // Nobody stat'ed this directory yet: one fstat gives its device (for -x and for
        // hard-link keys) and its own sizes.
        let mut dev = job.dev;
        let mut perm = job.perm;
        // its own sizes go into the tree under the lock its children are appended under
        let mut own: Option<(Meta, Times)> = None;
        if !stat_done && !is_root {
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
            listed: here,
            placed,
            nodes,
            node_names,
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
        // The same with stats: the first PARALLEL_STAT_MIN entries are stat'ed and placed as
        // they are read, with no record of them, their names or their stats kept to place
        // them from later. (Not where the tree keeps each entry's facts or times.)
        let stat_fused = stats_files && !self.opts.keep_identity && !self.opts.keep_extra;
        let mut fused_denied = false;
        // Only totals are shown: files are summed into this directory as they are read (no
        // node, no name kept), whatever its size.
        let fold = self.opts.fold_files;
        // (-f: every file's inode is counted, none logged: see `LinkSet::count_folded`)
        let fold_unstated = self.fold_unstated && count_mode;
        // entries read and kept (not left out by -X or -i), for where the fusing stops
        let mut kept_count = 0usize;
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
        // Files summed as they are stat'ed, and no other thread to hand stats to: every
        // entry is stat'ed and placed as it is read (only subdirectories become nodes), none
        // kept with its name and stat to place later (-T 1 `wide_flat`: 10 MB of them).
        let fuse_all = fold && pool.is_none();
        let dirfd = fd.as_fd();
        let needs_stat = &needs_stat;
        let keep_times = self.opts.keep_extra;
        let placer = Placer {
            mode: self.opts.mode,
            count_mode,
            follow,
            one_filesystem: self.opts.one_filesystem,
            dedup_dirs: self.dedup_dirs,
            dedup_files: self.dedup_files,
            keep_facts: self.opts.keep_identity || self.opts.keep_extra,
            fold_files: fold,
            fold_unstated,
            dev,
            root_dev: job.root_dev,
        };
        let stat_batch = |mut batch: StatBatch| {
            let l = &mut batch.listed;
            if keep_times {
                l.times = vec![Times::default(); l.ents.len()];
            }
            for (i, e) in l.ents.iter_mut().enumerate() {
                if !needs_stat(e.kind) {
                    continue;
                }
                let name = name_at(&l.names, e.name_off);
                e.stat = l.stats.len() as u32;
                l.stats.push(if keep_times {
                    sys::stat_at_times(dirfd, name, follow).map(|(m, t)| {
                        l.times[i] = t;
                        m
                    })
                } else {
                    sys::stat_at(dirfd, name, follow)
                });
            }
            placer.place_batch(&mut batch);
            batch
        };
        let done: Mutex<Vec<(u32, StatBatch)>> = Mutex::new(Vec::new());
        let mut batches: Vec<StatBatch> = Vec::new();
        // the entries -X and hidden files leave out (the same for every reader of a listing);
        // with none to leave out no call an entry (a call was 31 instructions an entry)
        let filtering = ex.hidden || !ex.names.is_empty() || dir_path.is_some();
        let kept = |b: &[u8]| {
            if ex.hidden && b.first() == Some(&b'.') {
                return false;
            }
            if ex.names.iter().any(|n| n.as_slice() == b) {
                return false;
            }
            if let Some(dp) = &dir_path {
                if ex.paths.iter().any(|p| is_child_path(p, dp, b)) {
                    return false;
                }
            }
            true
        };
        // A span of a split listing, read on another thread on its own fd: its entries are
        // stat'ed and made nodes there too, as a stat batch's are (see `Walker::split_plan`).
        let read_span = |fd: OwnedFd, from: u64, end: u64| {
            let mut batch = StatBatch::default();
            let (mut met, mut first) = (0usize, None);
            let read = {
                let span = sys::Span {
                    from,
                    end,
                    one_read: false,
                };
                sys::read_span(&fd, ext4, span, |name, t, ino| {
                    let b = name.to_bytes();
                    if met == 0 {
                        first = Some(Box::from(b));
                    }
                    met += 1;
                    if filtering && !kept(b) {
                        return;
                    }
                    let kind = sys::kind_of_dirent(t);
                    if fold_unstated && kind.is_some_and(|k| k != EntryKind::Dir) {
                        // summed into the directory: no name or record to keep
                        return self.fold_file(job.node, &mut batch.placed, (dev, ino));
                    }
                    let l = &mut batch.listed;
                    if l.ents.is_empty() && self.reserve_ahead {
                        l.make_room();
                    }
                    if l.ents.len() % READY_STEP == 0 {
                        l.ready_ahead();
                    }
                    batch.push(name, kind, ino);
                })
            };
            drop(fd);
            let mut batch = stat_batch(batch);
            (batch.span_entries, batch.span_first) = (met, first);
            batch.span_error = read.err();
            batch
        };
        let mut batch = StatBatch::default();
        // the listing is split: the other threads are busy reading (see `grow_ahead`)
        let split = std::cell::Cell::new(false);
        let mut read = |spawn: &mut dyn FnMut(StatBatch), span: sys::Span| {
            sys::read_span(&fd, ext4, span, |name, t, ino| {
                let b = name.to_bytes();
                if filtering && !kept(b) {
                    return;
                }
                let kind = sys::kind_of_dirent(t);
                kept_count += 1;
                if stat_fused && (kept_count <= PARALLEL_STAT_MIN || fuse_all) {
                    let stat = needs_stat(kind).then(|| sys::stat_at(dirfd, name, follow));
                    fused_denied |= matches!(stat, Some(Err(Errno::ACCESS)));
                    let times = Times::default();
                    placer.place_one(stat.as_ref(), kind, ino, b, times, placed, &mut |n, nb| {
                        nodes.push(n.with_local_name(node_names.len(), nb.len()));
                        node_names.extend_from_slice(nb);
                    });
                    return;
                }
                if let Some(kind) =
                    kind.filter(|_| fused && (fold_unstated || kept_count <= PARALLEL_STAT_MIN))
                {
                    if fold_unstated && kind != EntryKind::Dir {
                        return self.fold_file(job.node, placed, (dev, ino));
                    }
                    let j = nodes.len() as NodeId;
                    if kind == EntryKind::Dir {
                        let off = placed.sub_names.len() as u32;
                        placed.sub_names.extend_from_slice(name.to_bytes_with_nul());
                        placed.subdirs.push((j, off, dev, None));
                    } else {
                        // no link count without a stat: every inode goes through the set
                        placed.file_claims.push(((dev, ino), j));
                    }
                    nodes.push(
                        Node::new(kind, 0, 0, 0, 0).with_local_name(node_names.len(), b.len()),
                    );
                    node_names.extend_from_slice(b);
                    return;
                }
                if pool.is_some() && kept_count > PARALLEL_STAT_MIN {
                    batch.push(name, kind, ino);
                    if batch.listed.ents.len() == STAT_BATCH {
                        spawn(std::mem::take(&mut batch));
                    }
                    return;
                }
                let n = here.ents.len();
                if n >= GROW_AHEAD_MIN {
                    if n == here.ents.capacity() {
                        self.grow_ahead(here, &mut placed.file_claims, split.get());
                    }
                    if n % READY_STEP == 0 && (split.get() || self.pool().is_none()) {
                        here.ready_ahead();
                    }
                }
                let Listed {
                    names,
                    ents,
                    stats,
                    times,
                    ..
                } = &mut *here;
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
            })
        };
        // With nothing to stat (-f), a huge directory is known only once read: one read first,
        // then the rest, split between threads or not. (Where its entries are stat'ed, the
        // stat batches keep every thread busy already: split as well, the walk of 100,000
        // files took 87.0 ms instead of 83.7, 15 interleaved runs.)
        let first_read = sys::Span {
            one_read: ext4 && !stats_files && job.may_be_large && !surely_small,
            ..sys::Span::WHOLE
        };
        let listed = match pool {
            None => match read(&mut |_| {}, first_read) {
                Ok(st) if st.more => match self.split_plan(dirfd, st) {
                    None => read(
                        &mut |_| {},
                        sys::Span {
                            from: st.next,
                            ..sys::Span::WHOLE
                        },
                    ),
                    Some((pool, bounds, fds)) => pool.in_place_scope(|s| {
                        split.set(true);
                        let spans = bounds.windows(2).enumerate().skip(1).zip(fds);
                        for ((i, w), fd) in spans {
                            let (done, read_span, (from, end)) = (&done, &read_span, (w[0], w[1]));
                            s.spawn(move |_| {
                                let part = read_span(fd, from, end);
                                lock(done).push((SPAN_BASE + i as u32, part));
                            });
                        }
                        let span = sys::Span {
                            from: st.next,
                            end: bounds[1],
                            one_read: false,
                        };
                        read(&mut |_| {}, span)
                    }),
                },
                other => other,
            },
            Some(pool) => pool.in_place_scope(|s| {
                let mut next = 0u32;
                let (done, stat_batch) = (&done, &stat_batch);
                read(
                    &mut |batch| {
                        let i = next;
                        next += 1;
                        s.spawn(move |_| {
                            // stat before taking the lock (not as an argument of push)
                            let batch = stat_batch(batch);
                            lock(done).push((i, batch));
                        });
                    },
                    sys::Span::WHOLE,
                )
            }),
        };
        // the batches stat'ed by now, and the last, partial one: ours; they are read where
        // they are, not copied together (11 MB on wide_flat)
        let mut done = done.into_inner().unwrap_or_else(PoisonError::into_inner);
        if !batch.listed.ents.is_empty() {
            let last_index = done.iter().filter(|(i, _)| *i < SPAN_BASE).count() as u32;
            done.push((last_index, stat_batch(std::mem::take(&mut batch))));
        }
        done.sort_unstable_by_key(|(i, _)| *i);
        let listed = listed.and_then(|_| drop_empty_spans(&mut done));
        batches.extend(done.into_iter().map(|(_, batch)| batch));
        if let Err(e) = listed {
            // a directory that can't be listed keeps its own size; what was read is dropped
            return unreadable(e);
        }
        // the entries read and stat'ed on this thread, then each batch (made nodes), in order
        let here: &Listed = here;
        // No search permission: names are readable but nothing can be stat'ed. (Asked of the
        // kernel when a stat said EACCES: with -L, a link into a directory we may not search
        // fails alone, and is reported as du reports it.)
        if (fused_denied || here.access_denied() || batches.iter().any(|b| b.access_denied))
            && !sys::may_search(fd.as_fd(), None)
        {
            return unreadable(Errno::ACCESS);
        }
        // Count mode stats no file, so a directory with read but no search permission would
        // go unnoticed (its names listed, none of them reachable): ask once, as du's stats do.
        let fused_count = nodes.len();
        if count_mode
            && (fused_count > 0
                || placed.folded.entries > 0
                || batches.iter().any(|b| b.placed.folded.entries > 0)
                || here.unstated()
                || batches.iter().any(|b| b.unstated))
            && !self.searches_everywhere
            && !sys::may_search(fd.as_fd(), perm)
        {
            return unreadable(Errno::ACCESS);
        }

        // 3. into the tree. The nodes, their names and what to do next are worked out before
        // the lock is taken (ids relative to the first child until the lock says where they
        // go), so that it is held for copies only; a huge directory's are built in place
        // under the lock instead (its copy would cost more than other threads' wait).
        let listed_count: usize =
            fused_count + here.ents.len() + batches.iter().map(|b| b.nodes.len()).sum::<usize>();
        if listed_count >= PREFAULT_MIN {
            // The nodes are built in the tree below, on this thread alone; the pages they go
            // to are faulted in on another one meanwhile, in one call (a fault costs 1.3 us
            // on the benchmark VM: 1,450 of them for wide_flat's nodes and names).
            let name_bytes = node_names.len()
                + here.names.len()
                + batches.iter().map(|b| b.node_names.len()).sum::<usize>();
            // (with one thread, here, in one call: half what its faults would cost)
            let regions = lock(self.builder).spare_regions(listed_count, name_bytes);
            let prefault = move || {
                for (addr, len) in regions {
                    sys::prefault(addr, len);
                }
            };
            match self.pool() {
                Some(pool) => pool.spawn(prefault),
                None => prefault(),
            }
        }
        // (a batch holds names read after the first PARALLEL_STAT_MIN: it never goes without)
        let in_place = listed_count >= PARALLEL_STAT_MIN || !batches.is_empty();
        let mut held = in_place.then(|| lock(self.builder));
        if let Some(b) = held.as_mut().filter(|_| fused_count > 0) {
            // the entries made nodes as they were read come first (closed with the rest)
            b.append_children(job.node, nodes, node_names);
        }
        placed.count = fused_count as NodeId;
        placer.place(here, placed, |node, name| match held.as_mut() {
            Some(b) => b.push_child(job.node, node, name),
            None => {
                nodes.push(node.with_local_name(node_names.len(), name.len()));
                node_names.extend_from_slice(name);
            }
        });
        if let Some(b) = held.as_mut() {
            for batch in batches.iter_mut() {
                placed.append(&mut batch.placed);
                b.extend_children(job.node, &batch.nodes, &batch.node_names);
            }
        }
        let count = placed.count;
        let kept = u64::from(count) + u64::from(placed.folded.entries);
        let (first, room) = {
            let built_in_place = held.is_some();
            let mut b = held.unwrap_or_else(|| lock_briefly_held(self.builder));
            if let Some((meta, times)) = &own {
                set_own(&mut b, job.node, meta, *times);
            }
            placed.folded.into_dir(b.node_mut(job.node));
            let first = if built_in_place {
                b.close_children(job.node, count)
            } else {
                b.append_children(job.node, nodes, node_names)
            };
            // (the entries made nodes as they were read have none: -f keeps no facts)
            let ids = first + fused_count as NodeId..;
            for (id, &(extra, key, links)) in ids.zip(placed.facts.iter()) {
                b.set_extra(id, extra);
                b.set_identity(id, key);
                if links > 0 {
                    b.set_links(id, links);
                }
            }
            (first, b.room_ahead())
        };
        // the tree's next pages, faulted in at once while no lock is held
        for (addr, len) in room.into_iter().flatten() {
            sys::prefault(addr, len);
        }
        let Placed {
            bytes,
            subdirs,
            dir_claims,
            file_claims,
            sub_names,
            failed,
            ..
        } = placed;
        for sd in subdirs.iter_mut() {
            sd.0 += first;
        }
        if fold_unstated {
            // every claim is of a file summed into this directory
            self.links.count_folded(job.node, file_claims);
            file_claims.clear();
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
        for (name, errno) in failed.drain(..) {
            self.error(ErrorAt::Entry(job.node, name), ErrorKind::Access, errno);
        }
        self.progress.entries.fetch_add(kept, Ordering::Relaxed);
        self.progress.bytes.fetch_add(*bytes, Ordering::Relaxed);

        // 4. one task per subdirectory; they share this fd to open themselves
        if subdirs.is_empty() {
            return;
        }
        // A lone subdirectory is opened here, and this fd closed: no fd to share, so no
        // shared parent to build and free (a chain of 1,500 directories: 560 of the 2,100
        // instructions of each one's task).
        if let [(id, off, edev, perm)] = subdirs[..] {
            let name = name_at(sub_names, off);
            let stat_done = perm.is_some();
            match self.open_subdir(fd.as_fd(), name, self.may_skip_stat(count_mode, stat_done)) {
                Ok((sub, same_device)) => spawn(DirJob {
                    node: id,
                    handle: DirHandle::Opened(sub, same_device),
                    dev: edev,
                    root_dev: job.root_dev,
                    stat_done,
                    perm,
                    may_be_large: true,
                }),
                Err(e) => {
                    if !stat_done {
                        // it still counts its own size, as du does
                        self.set_own_stat(id, self.stat_at(fd.as_fd(), name));
                    }
                    self.unreadable(id, e);
                }
            }
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
    b.set_extra(id, stat_extra(meta, times));
    let n = b.node_mut(id);
    n.disk = meta.disk_bytes();
    n.apparent = meta.size;
    n.mtime = meta.mtime;
}

/// Whether `dir/name` is `pattern` (an -X path, trailing slashes already trimmed).
fn is_child_path(pattern: &[u8], dir: &[u8], name: &[u8]) -> bool {
    let dir = crate::vocab::trim_trailing_slashes(dir);
    let sep = usize::from(dir != b"/");
    pattern.len() == dir.len() + sep + name.len()
        && pattern.starts_with(dir)
        && pattern.ends_with(name)
        && (sep == 0 || pattern[dir.len()] == b'/')
}
