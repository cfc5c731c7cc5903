//! How directory tasks run: the root (and the chain below it, until it branches) on the
//! calling thread, then the rest on the pool (a chain staying on one thread), or with -T 1
//! depth-first from a stack; each with the thread's scratch buffers (see `dir` for what one
//! task does).

use std::os::fd::AsFd;

use super::entries::SCRATCH;
use super::job::{DirHandle, DirJob};
use super::Walker;

impl Walker<'_> {
    /// Reads the root directory on the calling thread, then its subdirectories on the pool
    /// (or, with -T 1, depth-first from a stack on this thread).
    pub(super) fn walk_root(&self, job: DirJob) {
        self.threads.enter_root(job.dev);
        let root_fd = match &job.handle {
            DirHandle::Root(fd) => Some(fd.as_fd()),
            _ => None,
        };
        self.hints.enter_root(root_fd, job.dev);
        let mut jobs = Vec::new();
        self.scan_dir(job, &mut |j| jobs.push(j));
        // A chain is followed here until it branches: one directory at a time is all it
        // offers, and a pool started for it only hands it to another thread.
        while jobs.len() == 1 {
            if let Some(job) = jobs.pop() {
                self.scan_dir(job, &mut |j| jobs.push(j));
            }
        }
        if jobs.is_empty() {
            return;
        }
        match self.threads.pool() {
            Some(pool) => pool.scope(|s| {
                for job in jobs.into_iter().rev() {
                    s.spawn(move |s| self.scan_dir_in(s, job));
                }
            }),
            None => {
                // a stack, its top the next directory in depth-first order
                jobs.reverse();
                while let Some(job) = jobs.pop() {
                    let kids = jobs.len();
                    self.scan_dir(job, &mut |j| jobs.push(j));
                    jobs[kids..].reverse();
                }
            }
        }
    }

    /// A directory task on the pool: its subdirectories become tasks of the same scope. A
    /// directory with a single subdirectory goes on with it itself (in a loop, not by
    /// recursion): a chain then stays on one thread with no task handed over. With more
    /// subdirectories all are spawned (continuing with one of them was slower: the others
    /// wait in the scope's queue while this thread goes deep).
    fn scan_dir_in<'s>(&'s self, scope: &rayon::Scope<'s>, job: DirJob) {
        let mut next = Some(job);
        while let Some(job) = next.take() {
            self.threads.check_cold();
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
        let node = job.node;
        if !self.live.is_cancelled() {
            // Taken, not borrowed: a large directory's parallel stats may run another
            // directory's task on this thread, which then simply starts with empty buffers.
            let mut scratch = SCRATCH.take().unwrap_or_default();
            self.scan_dir_with(job, spawn, &mut scratch);
            scratch.clear();
            SCRATCH.set(Some(scratch));
        }
        self.dir_done(node);
    }
}
