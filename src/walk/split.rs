//! A huge directory's listing read by several threads at once (-f).
//!
//! ext4 lists a hashed directory in the order of its names' hashes: an entry's position is
//! its hash (`d_off` is the next entry's), and a position that is sought goes on from the
//! first name whose hash is there or past it. Readers of disjoint spans of hashes thus read
//! disjoint entries, each on an fd of its own (`sys::read_span`). Here: when and where a
//! listing splits, and how the spans' results are put back together.

use std::os::fd::{BorrowedFd, OwnedFd};
use std::sync::atomic::Ordering;

use super::entries::Finished;
use super::Walker;
use crate::sys::{self, Errno};

/// Batch index of the first span of a split listing read by another thread: after every
/// stat batch of the reader of the first span (see [`drop_empty_spans`]).
pub(super) const SPAN_BASE: u32 = 1 << 31;

/// Entries a listing must have left after its first read to be split: fewer are read sooner
/// than split (directories of a couple of thousand names, split after a first read, were
/// slower than read whole: the other readers' opens and scopes cost more than they save).
const SPLIT_MIN: usize = 8192;

/// Readers of one listing at most (each opens the directory once more).
const MAX_SPANS: usize = 8;

/// How a listing is split (see `Walker::split_plan`).
pub(super) struct SplitPlan<'p> {
    pub(super) pool: &'p rayon::ThreadPool,
    /// Bounds of the spans: the first from where the first read stopped, the last to the end.
    pub(super) bounds: Vec<u64>,
    /// An fd for each span but the first, at its start.
    pub(super) fds: Vec<OwnedFd>,
}

impl Walker<'_> {
    /// Whether, and where, to split the rest of a listing between threads, its first read
    /// having stopped where `first` says: bounds of the spans, the first from where it
    /// stopped, the last to the end. Reading a huge directory is most of its walk (a
    /// getdents64 of ext4 hashes every name and sorts them), and one fd reads on one thread;
    /// each span gets its own fd (`sys::read_span`). Only a hashed ext4 directory splits, and
    /// only when [`SPLIT_MIN`] entries or more are left: a hash position tells how far a
    /// listing got, the names' hashes being spread evenly.
    ///
    /// Each span but the first comes with its fd, opened here: a directory that cannot be
    /// opened again now (no descriptor left, say) is read on as one, not taken for
    /// unreadable.
    pub(super) fn split_plan(
        &self,
        dir: BorrowedFd<'_>,
        first: sys::Stopped,
    ) -> Option<SplitPlan<'_>> {
        let (end, next) = (sys::HASH_END, first.next);
        if next == 0 || next >= end {
            return None;
        }
        // the hashes being spread evenly, the entries left are about those read times the
        // hashes left over the hashes read
        let left = first.taken as f64 * ((end - next) as f64 / next as f64);
        if left < SPLIT_MIN as f64 {
            return None;
        }
        let pool = self.threads.pool()?;
        if !sys::is_hash_indexed(dir) {
            return None;
        }
        let threads = self.progress.threads.load(Ordering::Relaxed);
        let spans = threads.clamp(2, MAX_SPANS) as u64;
        let step = (end - next) / spans;
        let mut bounds: Vec<u64> = (0..spans).map(|i| next + step * i).collect();
        bounds.push(u64::MAX);
        let fds = bounds[1..bounds.len() - 1]
            .iter()
            .map(|&from| sys::reopen_dir_at(dir, from).ok())
            .collect::<Option<Vec<_>>>()?;
        self.progress.split_listings.fetch_add(1, Ordering::Relaxed);
        Some(SplitPlan { pool, bounds, fds })
    }
}

/// Drops the spans of a split listing that held no entry, and fails as the listing does when
/// a span could not be read. A reader takes its first entry unseen (`sys::read_span`): in a
/// span that holds none, that is the first entry of the next span that holds any, and it is
/// the only one the reader took (the next is past its span's end). Such a span is the one
/// met entry whose name is the next kept span's first (two entries of a directory never share
/// a name; the first span, ours, starts at an entry's own position and always holds one).
pub(super) fn drop_empty_spans(done: &mut Vec<Finished>) -> Result<(), Errno> {
    if let Some(e) = done.iter().find_map(|f| f.batch.span_error) {
        return Err(e);
    }
    let mut next_first: Option<Box<[u8]>> = None;
    let mut i = done.len();
    while i > 0 && done[i - 1].order >= SPAN_BASE {
        i -= 1;
        let span = &done[i].batch;
        if span.span_entries == 1 && next_first.is_some() && span.span_first == next_first {
            done.remove(i);
        } else {
            next_first = span.span_first.clone();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::entries::StatBatch;

    fn span(index: u32, met: usize, first: &str) -> Finished {
        let batch = StatBatch {
            span_entries: met,
            span_first: (met > 0).then(|| Box::from(first.as_bytes())),
            ..StatBatch::default()
        };
        Finished {
            order: SPAN_BASE + index,
            batch,
        }
    }

    fn kept(done: &[Finished]) -> Vec<u32> {
        done.iter().map(|f| f.order - SPAN_BASE).collect()
    }

    /// A span reader whose span held no entry took the first of the next span that held
    /// any: that span goes, however many empty ones come in a row; a span whose one entry is
    /// its own stays.
    #[test]
    fn empty_spans_of_a_split_listing_are_dropped() {
        let mut done = vec![span(1, 1, "x"), span(2, 1, "x"), span(3, 7, "x")];
        assert!(drop_empty_spans(&mut done).is_ok());
        assert_eq!(kept(&done), [3]);

        let mut done = vec![span(1, 1, "a"), span(2, 1, "b"), span(3, 2, "c")];
        assert!(drop_empty_spans(&mut done).is_ok());
        assert_eq!(kept(&done), [1, 2, 3]);

        // past the last entry a reader meets none; the span before it kept its one entry
        let mut done = vec![span(1, 1, "z"), span(2, 0, "")];
        assert!(drop_empty_spans(&mut done).is_ok());
        assert_eq!(kept(&done), [1, 2]);

        // the first reader's own batches are never a span
        let own = Finished {
            order: 0,
            batch: StatBatch::default(),
        };
        let mut done = vec![own, span(1, 4, "q")];
        assert!(drop_empty_spans(&mut done).is_ok());
        assert_eq!(done.len(), 2);

        let mut done = vec![span(1, 3, "a")];
        done[0].batch.span_error = Some(Errno::IO);
        assert_eq!(drop_empty_spans(&mut done).err(), Some(Errno::IO));
    }
}
