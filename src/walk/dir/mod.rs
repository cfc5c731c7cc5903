//! One directory task, in phases: open the directory (and stat it if nobody has), decide its
//! plan, list and stat its entries (spread over the pool when it is large: `list`), append
//! them to the tree under one short lock (`commit`), and hand out its subdirectories as new
//! tasks (which `tasks` runs).

mod commit;
mod list;

use std::ffi::CStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::dedup::NameClaim;
use super::entries::{name_at, Scratch};
use super::job::{DirHandle, DirJob, OpenParent, OpenedDir, ParentDir};
use super::place::{stat_extra, Placer};
use super::placed::{Facts, Placed, FOLDED_INTO_DIR};
use super::plan::{self, DirFacts, DirPlan};
use super::{lock, Walker};
use crate::sys::{self, Errno, Meta, Times};
use crate::tree::{flags, LinkKey, NodeId, TreeBuilder};

/// Directories with more entries than this have their stats spread across threads.
const PARALLEL_STAT_MIN: usize = 1024;

/// A root directory this size or larger (bytes, as `st_size` reports it) probably has more
/// than PARALLEL_STAT_MIN entries: its stats may start the pool before it is fully read.
pub(super) const LARGE_DIR_BYTES: u64 = 16 * 1024;

/// Files summed into a directory whose inodes are counted at a time (see
/// `LinkSet::count_folded`): their claims stay in the cache, not megabytes of them for one
/// huge directory.
const FOLD_CHUNK: usize = 4096;

/// One directory being read: open, stat'ed if it needed to be, its plan decided. Its phases,
/// in order: [`DirTask::list`], [`DirTask::check_search`], [`DirTask::commit`],
/// [`DirTask::claim_and_count`], [`DirTask::spawn_subdirs`].
pub(super) struct DirTask<'w, 'a> {
    walker: &'w Walker<'a>,
    node: NodeId,
    root_dev: u64,
    /// Its device (from its parent, or from its own stat).
    dev: u64,
    /// Its permission bits, when known.
    perm: Option<u32>,
    fd: OwnedFd,
    /// Its own stat, when this task made it: set in the tree under the lock its children are
    /// appended under.
    own: Option<(Meta, Times)>,
    plan: DirPlan,
    placer: Placer,
    /// Some entries may be left out (-X, hidden files); with none to leave out, no call an
    /// entry.
    filtering: bool,
    /// Its path, when -X names paths to match its entries against.
    dir_path: Option<Vec<u8>>,
    /// It is on the root's ext4 filesystem, whose listings mark their end.
    ext4: bool,
    /// It is on a network filesystem: its entries are stat'ed from what the client holds.
    remote: bool,
}

impl<'a> Walker<'a> {
    /// One directory: opened, listed, stat'ed and appended to the tree; its subdirectories
    /// go to `spawn`.
    pub(super) fn scan_dir_with(
        &self,
        job: DirJob,
        spawn: &mut dyn FnMut(DirJob),
        scratch: &mut Scratch,
    ) {
        if let Some(task) = self.open_task(job) {
            task.run(spawn, scratch);
        }
    }

    /// The open phase: the directory's fd, its own stat when nobody made it (one fstat gives
    /// its device, for -x and hard-link keys, and its own sizes), and its plan. `None` when
    /// it is not to be read: it failed to open, is on another filesystem (-x), or is a name
    /// of a directory already walked.
    fn open_task(&self, job: DirJob) -> Option<DirTask<'_, 'a>> {
        let DirJob {
            node,
            handle,
            dev,
            root_dev,
            stat_done,
            perm,
            may_be_large,
        } = job;
        let is_root = matches!(handle, DirHandle::Root(_));
        let opened = self.open_handle(handle, node, stat_done)?;
        let (mut dev, mut perm, mut own) = (dev, perm, None);
        let parent_remote = self.hints.is_remote(dev);
        if !stat_done && !opened.on_parent_mount && !is_root {
            let fd = opened.fd.as_fd();
            let (meta, times) = self.stat_own(node, root_dev, fd, parent_remote)?;
            self.hints.entered(fd, meta.dev, dev);
            dev = meta.dev;
            perm = Some(meta.mode & 0o7777);
            own = Some((meta, times));
        }
        let ext4 = self.hints.is_ext4(dev);
        let remote = self.hints.is_remote(dev);
        let facts = DirFacts {
            may_be_large,
            ext4,
            size: own.as_ref().map(|(m, _)| m.size),
        };
        let plan = DirPlan::decide(self.opts, self.claims.fold_unstated(), facts);
        let ex = &self.opts.exclusions;
        let dir_path = (!ex.paths.is_empty()).then(|| self.path_of(node));
        let placer = Placer {
            mode: self.opts.measured(),
            count_mode: plan.counts_only(),
            one_filesystem: self.opts.one_filesystem,
            dedup_dirs: self.claims.dirs(),
            dedup_files: self.claims.files(),
            keep_facts: self.opts.keep_identity || self.opts.keep_extra,
            fold: plan.fold,
            dev,
            root_dev,
        };
        Some(DirTask {
            walker: self,
            node,
            root_dev,
            dev,
            perm,
            fd: opened.fd,
            own,
            plan,
            placer,
            filtering: ex.hidden
                || !ex.names.is_empty()
                || !ex.written.is_empty()
                || dir_path.is_some(),
            dir_path,
            ext4,
            remote,
        })
    }

    /// The directory's fd: a root's, the one its parent opened, or opened here through the
    /// parent's fd. -f opens it so that the open vouches for its device when nothing else
    /// needs its stat (see [`Walker::may_skip_stat`]).
    fn open_handle(&self, handle: DirHandle, node: NodeId, stat_done: bool) -> Option<OpenedDir> {
        let same_mount = self.may_skip_stat(plan::counts_only(self.opts), stat_done);
        match handle {
            DirHandle::Root(fd) => Some(OpenedDir {
                fd,
                on_parent_mount: false,
            }),
            DirHandle::OpenedByParent(opened) => Some(opened),
            DirHandle::InParent { parent, name_off } => {
                let name = name_at(&parent.names, name_off);
                let opened =
                    self.with_parent_fd(&parent, |pfd| self.open_subdir(pfd, name, same_mount));
                match opened {
                    Ok(opened) => Some(opened),
                    Err(e) => {
                        if !stat_done {
                            // it still counts its own size, as du does
                            let stat = self.with_parent_fd(&parent, |pfd| self.stat_at(pfd, name));
                            self.set_own_stat(node, stat);
                        }
                        self.unreadable(node, e);
                        None
                    }
                }
            }
        }
    }

    /// The own stat of a directory nobody stat'ed yet, with -x and the loop guard applied:
    /// `None` when it is not to be read.
    /// `remote`: its parent is on a network filesystem (so, most likely, is it).
    fn stat_own(
        &self,
        node: NodeId,
        root_dev: u64,
        fd: BorrowedFd<'_>,
        remote: bool,
    ) -> Option<(Meta, Times)> {
        let stat = match (self.opts.keep_extra, remote) {
            (true, false) => sys::fstat_times(fd),
            (true, true) => sys::fstat_times_cached(fd),
            (false, false) => sys::fstat(fd).map(|m| (m, Times::default())),
            (false, true) => sys::fstat_cached(fd).map(|m| (m, Times::default())),
        };
        let (meta, times) = match stat {
            Ok(stat) => stat,
            Err(e) => {
                self.unreadable(node, e);
                return None;
            }
        };
        if self.opts.one_filesystem && meta.dev != root_dev {
            self.set_own(node, &meta, times, flags::OTHER_FS);
            return None;
        }
        if !plan::counts_only(self.opts) {
            self.progress
                .bytes
                .fetch_add(meta.disk_bytes(), Ordering::Relaxed);
        }
        if !self.claims.first_dir_name((meta.dev, meta.ino), node) {
            self.set_own(node, &meta, times, 0);
            self.dir_repeated(node);
            return None;
        }
        Some((meta, times))
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

    /// Opens a subdirectory for its task. `same_mount` (-f): opened so that it fails on
    /// another mount, and then it is on its parent's device and needs no stat. (A mount
    /// point, or no openat2: opened as any other.)
    fn open_subdir(
        &self,
        parent: BorrowedFd<'_>,
        name: &CStr,
        same_mount: bool,
    ) -> Result<OpenedDir, Errno> {
        match same_mount.then(|| sys::open_dir_on_same_mount(parent, name)) {
            Some(Ok(Some(fd))) => Ok(OpenedDir {
                fd,
                on_parent_mount: true,
            }),
            Some(Err(e)) => Err(e),
            _ => sys::open_dir_at(parent, name, self.opts.follow_links).map(|fd| OpenedDir {
                fd,
                on_parent_mount: false,
            }),
        }
    }

    /// Whether a directory's task may skip its stat when its open vouches for its device
    /// (see `open_subdir`): -f, nothing stat'ed it yet, and nothing needs its identity or
    /// permission bits. A directory that is not a mount point is on its parent's device, its
    /// inode came with its parent's listing, and its own sizes are not shown: its entries
    /// are all -f wants of it, so thousands of fstat calls are saved on a large tree. An
    /// identity to keep or to check (exports, several arguments, -L) still takes its stat,
    /// and so does a directory of a process that may not search everywhere (its permission
    /// bits tell whether its names can be looked up).
    fn may_skip_stat(&self, count_mode: bool, stat_done: bool) -> bool {
        count_mode
            && !stat_done
            && !self.claims.dirs()
            && !self.opts.keep_identity
            && self.hints.searches_everywhere()
    }

    /// Sums a file -f read no link count of into directory `dir` (one path, totals only):
    /// its inode is counted with the others', FOLD_CHUNK at a time.
    fn fold_file(&self, dir: NodeId, placed: &mut Placed, key: LinkKey) {
        placed.file_claims.push(NameClaim {
            key,
            node: FOLDED_INTO_DIR,
        });
        placed.folded.entries = placed.folded.entries.saturating_add(1);
        if placed.file_claims.len() == FOLD_CHUNK {
            self.claims.count_folded(dir, &placed.file_claims);
            placed.file_claims.clear();
        }
    }

    /// Sizes of a directory that was not stat'ed before it failed to open.
    fn set_own_stat(&self, id: NodeId, stat: Result<(Meta, Times), Errno>) {
        if let Ok((meta, times)) = stat {
            self.set_own(id, &meta, times, 0);
        }
    }

    /// A directory's own sizes and identity from its own stat, and `flag` set on it.
    fn set_own(&self, id: NodeId, meta: &Meta, times: Times, flag: u8) {
        match self.sink {
            Some(sink) => {
                let facts = Facts {
                    extra: stat_extra(meta, times),
                    identity: (meta.dev, meta.ino),
                    links: 0,
                };
                sink.set_own(id, meta.disk_bytes(), meta.size, meta.mtime, &facts);
                if flag != 0 {
                    sink.set_flag(id, flag);
                }
            }
            None => {
                let mut b = lock(self.builder());
                set_own(&mut b, id, meta, times);
                if flag != 0 {
                    b.update(id, |n| n.set_flag(flag));
                }
            }
        }
    }
}

impl DirTask<'_, '_> {
    /// Stat of an entry of this directory (`dir`: its fd, or another of it), from what the
    /// client holds on a network filesystem (see `sys::is_remote`).
    fn stat_entry(&self, dir: BorrowedFd<'_>, name: &CStr) -> Result<Meta, Errno> {
        let follow = self.walker.opts.follow_links;
        if self.remote {
            sys::stat_at_cached(dir, name, follow)
        } else {
            sys::stat_at(dir, name, follow)
        }
    }

    /// [`DirTask::stat_entry`] with the access and change times.
    fn stat_entry_times(&self, dir: BorrowedFd<'_>, name: &CStr) -> Result<(Meta, Times), Errno> {
        let follow = self.walker.opts.follow_links;
        if self.remote {
            sys::stat_at_times_cached(dir, name, follow)
        } else {
            sys::stat_at_times(dir, name, follow)
        }
    }

    /// The phases after the open, in order.
    fn run(self, spawn: &mut dyn FnMut(DirJob), scratch: &mut Scratch) {
        let mut reader = list::Reader::new(scratch);
        let mut batches = match self.list(&mut reader) {
            Ok(batches) => batches,
            // a directory that can't be listed keeps its own size; what was read is dropped
            Err(e) => return self.fail(e),
        };
        if let Err(e) = self.check_search(&reader, &batches) {
            return self.fail(e);
        }
        let scratch = reader.into_scratch();
        let first = self.commit(scratch, &mut batches);
        self.claim_and_count(first, &mut scratch.placed);
        self.spawn_subdirs(&scratch.placed, spawn);
    }

    /// The directory could not be read: its own size still counts.
    fn fail(&self, e: Errno) {
        if let Some((meta, times)) = &self.own {
            self.walker.set_own(self.node, meta, *times, 0);
        }
        self.walker.unreadable(self.node, e)
    }

    /// Whether the names read can be looked up. No search permission: names are readable but
    /// nothing can be stat'ed (asked of the kernel when a stat said EACCES: with -L, a link
    /// into a directory we may not search fails alone, and is reported as du reports it).
    /// Count mode stats no file, so a directory with read but no search permission would go
    /// unnoticed (its names listed, none of them reachable): asked once, as du's stats do.
    fn check_search(
        &self,
        reader: &list::Reader<'_>,
        batches: &[super::entries::StatBatch],
    ) -> Result<(), Errno> {
        let scratch = reader.scratch();
        let here = &scratch.listed;
        let denied =
            reader.denied || here.access_denied() || batches.iter().any(|b| b.access_denied);
        if denied && !sys::may_search(self.fd.as_fd(), None) {
            return Err(Errno::ACCESS);
        }
        let unstated = !scratch.nodes.is_empty()
            || scratch.placed.folded.entries > 0
            || batches.iter().any(|b| b.placed.folded.entries > 0)
            || here.unstated()
            || batches.iter().any(|b| b.unstated);
        if self.plan.counts_only()
            && unstated
            && !self.walker.hints.searches_everywhere()
            && !sys::may_search(self.fd.as_fd(), self.perm)
        {
            return Err(Errno::ACCESS);
        }
        Ok(())
    }

    /// One task per subdirectory; they share this fd to open themselves. A lone
    /// subdirectory is opened here, and this fd closed: no fd to share, so no shared parent
    /// to build and free (a chain of directories is mostly such tasks).
    fn spawn_subdirs(self, placed: &Placed, spawn: &mut dyn FnMut(DirJob)) {
        let walker = self.walker;
        let subdirs = &placed.subdirs;
        if let [sd] = subdirs[..] {
            let name = name_at(&placed.sub_names, sd.name_off);
            let stat_done = sd.perm.is_some();
            let same_mount = walker.may_skip_stat(self.plan.counts_only(), stat_done);
            match walker.open_subdir(self.fd.as_fd(), name, same_mount) {
                Ok(opened) => spawn(DirJob {
                    node: sd.node,
                    handle: DirHandle::OpenedByParent(opened),
                    dev: sd.dev,
                    root_dev: self.root_dev,
                    stat_done,
                    perm: sd.perm,
                    may_be_large: true,
                }),
                Err(e) => {
                    if !stat_done {
                        // it still counts its own size, as du does
                        walker.set_own_stat(sd.node, walker.stat_at(self.fd.as_fd(), name));
                    }
                    walker.unreadable(sd.node, e);
                    walker.dir_done(sd.node);
                }
            }
            return;
        }
        if subdirs.is_empty() {
            return;
        }
        let dir = match walker.fds.permit() {
            Some(permit) => ParentDir::Fd {
                fd: self.fd,
                _permit: permit,
            },
            None => {
                drop(self.fd);
                ParentDir::Path(self.node)
            }
        };
        let parent = Arc::new(OpenParent {
            dir,
            names: Box::from(placed.sub_names.as_slice()),
        });
        for sd in subdirs.iter().rev() {
            spawn(DirJob {
                node: sd.node,
                handle: DirHandle::InParent {
                    parent: Arc::clone(&parent),
                    name_off: sd.name_off,
                },
                dev: sd.dev,
                root_dev: self.root_dev,
                stat_done: sd.perm.is_some(),
                perm: sd.perm,
                may_be_large: true,
            });
        }
    }
}

/// The sizes and identity of a directory from its own stat.
fn set_own(b: &mut TreeBuilder, id: NodeId, meta: &Meta, times: Times) {
    b.set_identity(id, (meta.dev, meta.ino));
    b.set_extra(id, stat_extra(meta, times));
    b.update(id, |n| {
        n.disk = meta.disk_bytes();
        n.apparent = meta.size;
        n.mtime = meta.mtime;
    });
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
