//! The start and the end of a walk: the walker set up, the path arguments stat'ed and made
//! the roots of the tree, each root directory walked, and the tree and errors handed back.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::Ordering;
use std::sync::{Mutex, PoisonError};

use super::claims::Claims;
use super::dedup::LinkSet;
use super::dir::LARGE_DIR_BYTES;
use super::fd_budget::FdBudget;
use super::hints::FsHints;
use super::job::{DirHandle, DirJob};
use super::place::{node_for, stat_extra};
use super::placed::Facts;
use super::pool::Threads;
use super::{lock, DirSink, ErrorAt, ErrorKind, LiveScan, Progress, Scan, WalkOptions, Walker};
use crate::sys::{self, Meta, Times};
use crate::tree::{EntryKind, NodeId, TreeBuilder};
use crate::vocab::SizeMode;

/// A path argument that could be stat'ed.
pub(super) struct Root {
    path: Vec<u8>,
    meta: Meta,
    times: Times,
}

impl<'a> Walker<'a> {
    /// A walker of `paths`, with an empty tree in `live.builder`.
    pub(super) fn new(
        paths: &[OsString],
        opts: &'a WalkOptions,
        progress: &'a Progress,
        live: &'a LiveScan,
        one_shot: bool,
        sink: Option<&'a dyn DirSink>,
    ) -> Walker<'a> {
        // A streamed walk builds no tree: nothing to reserve room for, and (as under
        // `ulimit -v`) one malloc arena, which its few allocations (a directory's) need no more.
        let reserve_ahead = sink.is_none() && !sys::address_space_limited();
        if !reserve_ahead {
            sys::one_malloc_arena();
        }
        let builder = TreeBuilder::with_identity(opts.keep_identity)
            .sparse_identity(opts.sparse_identity)
            .with_extra(opts.keep_extra)
            .with_times(opts.keep_times);
        *lock(&live.builder) = if reserve_ahead {
            builder.reserved_for_walk()
        } else {
            builder
        };
        let fold_unstated = opts.fold_files && paths.len() == 1;
        Walker {
            opts,
            live,
            sink,
            progress,
            threads: Threads::new(opts.threads, progress, one_shot),
            // (asked only in -f: a capget the size modes do not need at start-up)
            hints: FsHints::new(super::plan::counts_only(opts)),
            fds: FdBudget::default(),
            claims: Claims::new(
                // -f claims every file without a stat: a repeated number is checked
                LinkSet::new(reserve_ahead)
                    .with_unverified_claims(opts.measured() == SizeMode::Count),
                paths.len() > 1 || opts.follow_links || sys::DIRS_MAY_REPEAT,
                opts.follow_links,
                fold_unstated,
            ),
            reserve_ahead,
            errors: Mutex::new(Vec::new()),
        }
    }

    /// Every argument stat'ed (in order) and made a child of TOTAL, so that the roots are
    /// contiguous: the id of the first, and the roots.
    pub(super) fn add_roots(&mut self, paths: &[OsString]) -> (NodeId, Vec<Root>) {
        let roots = self.stat_roots(paths);
        if roots.len() > 1 && roots.iter().any(|r| r.meta.kind != EntryKind::Dir) {
            self.claims.claim_every_file();
        }
        let mode = self.opts.measured();
        if let Some(sink) = self.sink {
            return (self.stream_roots(sink, &roots), roots);
        }
        let nodes = roots.iter().map(|r| {
            let mut node = node_for(&r.meta, mode);
            if mode == SizeMode::Count {
                node.disk = r.meta.disk_bytes();
                node.apparent = r.meta.size;
                node.mtime = r.meta.mtime;
            }
            (r.path.clone(), node)
        });
        let mut b = lock(self.builder());
        let first = b.add_roots(nodes.collect());
        for (id, root) in (first..).zip(&roots) {
            let meta = &root.meta;
            b.set_identity(id, (meta.dev, meta.ino));
            b.set_extra(id, stat_extra(meta, root.times));
            if meta.nlink > 1 && meta.kind != EntryKind::Dir {
                b.set_links(id, meta.nlink);
            }
        }
        drop(b);
        self.progress
            .entries
            .fetch_add(roots.len() as u64, Ordering::Relaxed);
        (first, roots)
    }

    /// [`Walker::add_roots`] of a streamed walk: the sink's id of the first root (a streamed
    /// walk has one path).
    fn stream_roots(&self, sink: &dyn DirSink, roots: &[Root]) -> NodeId {
        let mut first = 0;
        for (i, r) in roots.iter().enumerate() {
            let meta = &r.meta;
            let links = if meta.nlink > 1 && meta.kind != EntryKind::Dir {
                meta.nlink
            } else {
                0
            };
            let facts = Facts {
                extra: stat_extra(meta, r.times),
                identity: (meta.dev, meta.ino),
                links,
            };
            let id = sink.root(&r.path, node_for(meta, self.opts.measured()), &facts);
            if i == 0 {
                first = id;
            }
        }
        self.progress
            .entries
            .fetch_add(roots.len() as u64, Ordering::Relaxed);
        first
    }

    /// The arguments that could be stat'ed; an error for each of the others.
    fn stat_roots(&self, paths: &[OsString]) -> Vec<Root> {
        // a symlink named on the command line is followed (du's -D, as dust, ncdu and gdu
        // do): the user asked for what it points at; -L is about the links below
        let (follow, keep_extra) = (true, self.opts.keep_extra);
        let mut roots = Vec::new();
        for p in paths {
            let bytes = p.as_bytes();
            if bytes.is_empty() {
                self.error(ErrorAt::Argument(Vec::new()), ErrorKind::EmptyName, 0);
                continue;
            }
            let stat = if keep_extra {
                sys::stat_path_times(bytes, follow)
            } else {
                sys::stat_path(bytes, follow).map(|m| (m, Times::default()))
            };
            match stat {
                Ok((meta, times)) => roots.push(Root {
                    path: bytes.to_vec(),
                    meta,
                    times,
                }),
                Err(e) => self.error(
                    ErrorAt::Argument(bytes.to_vec()),
                    ErrorKind::Access,
                    e.raw_os_error(),
                ),
            }
        }
        roots
    }

    /// Each root directory walked, in order (an argument repeating an earlier one counts
    /// nothing).
    pub(super) fn walk_roots(&self, first: NodeId, roots: Vec<Root>) {
        for (id, Root { path, meta, .. }) in (first..).zip(roots) {
            if !self.claims.claim_root(id, &meta) || meta.kind != EntryKind::Dir {
                self.dir_done(id);
                continue;
            }
            let fd = match sys::open_dir_path(&path, true) {
                Ok(fd) => fd,
                Err(e) => {
                    self.unreadable(id, e);
                    self.dir_done(id);
                    continue;
                }
            };
            self.walk_root(DirJob {
                node: id,
                handle: DirHandle::Root(fd),
                dev: meta.dev,
                root_dev: meta.dev,
                stat_done: true,
                perm: Some(meta.mode & 0o7777),
                may_be_large: meta.size >= LARGE_DIR_BYTES,
            });
        }
    }

    /// The finished tree (its hard links settled) and the errors, by path.
    pub(super) fn finish(self) -> Scan {
        if self.sink.is_some() {
            // no tree, so no file claims to settle: the sink counted each inode at once
            let errors = self
                .errors
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner);
            std::mem::forget(self.claims);
            self.threads.end();
            return Scan::with_errors_by_path(crate::tree::Tree::default(), errors);
        }
        let mut held = self.live.keep_tree.then(|| lock(self.builder()));
        let mut tree = match &mut held {
            Some(b) => {
                let mut tree = std::mem::take(&mut **b).into_tree();
                tree.forget_live_sums();
                tree
            }
            None => std::mem::take(&mut *lock(self.builder())).into_tree(),
        };
        let claims = self.claims.settle(&mut tree);
        let errors = self
            .errors
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let mut scan = Scan::with_errors_by_path(tree, errors);
        if let Some(mut b) = held {
            *b.tree_mut() = std::mem::take(&mut scan.tree);
        }
        if self.threads.one_shot() {
            // the process exits after printing: nothing to gain from unmapping the claim logs
            // (an unmapping flushes the TLB of every CPU a thread ran on: 85 µs of `balanced
            // -f`, docs/BENCHMARKS.md)
            std::mem::forget(claims);
        }
        self.threads.end();
        scan
    }
}
