//! The commit phase of a directory task: its entries into the tree under one short lock,
//! then the claims of their inodes, their errors and the progress counters.

use std::sync::atomic::Ordering;

use super::{set_own, DirTask, PARALLEL_STAT_MIN};
use crate::sys;
use crate::tree::NodeId;
use crate::walk::entries::{Scratch, StatBatch};
use crate::walk::placed::{Placed, Subdir};
use crate::walk::plan::Fold;
use crate::walk::{lock, lock_briefly_held, DirSink};

/// Directories with more entries than this have the pages of their nodes faulted in by
/// another thread while they are built (starting the pool for it in -f mode if need be).
const PREFAULT_MIN: usize = 16 * 1024;

impl DirTask<'_, '_> {
    /// Into the tree. The nodes, their names and what to do next are worked out before the
    /// lock is taken (ids relative to the first child until the lock says where they go), so
    /// that it is held for copies only; a huge directory's are built in place under the lock
    /// instead (its copy would cost more than other threads' wait). Gives the id of the
    /// first child.
    pub(super) fn commit(&self, scratch: &mut Scratch, batches: &mut [StatBatch]) -> NodeId {
        if let Some(sink) = self.walker.sink {
            self.commit_streamed(sink, scratch, batches);
            return 0;
        }
        let Scratch {
            listed: here,
            placed,
            nodes,
            node_names,
        } = scratch;
        let builder = self.walker.builder();
        let fused_count = nodes.len();
        let listed_count: usize =
            fused_count + here.ents.len() + batches.iter().map(|b| b.nodes.len()).sum::<usize>();
        if listed_count >= PREFAULT_MIN {
            let name_bytes = node_names.len()
                + here.names.len()
                + batches.iter().map(|b| b.node_names.len()).sum::<usize>();
            self.prefault_children(listed_count, name_bytes);
        }
        // (a batch holds names read after the first PARALLEL_STAT_MIN: it never goes without)
        let in_place = listed_count >= PARALLEL_STAT_MIN || !batches.is_empty();
        let mut held = in_place.then(|| lock(builder));
        if let Some(b) = held.as_mut().filter(|_| fused_count > 0) {
            // the entries made nodes as they were read come first (closed with the rest)
            b.append_children(self.node, nodes, node_names);
        }
        placed.count = fused_count as NodeId;
        self.placer
            .place(here, placed, |node, name| match held.as_mut() {
                Some(b) => b.push_child(self.node, node, name),
                None => {
                    nodes.push(node.with_local_name(node_names.len(), name.len()));
                    node_names.extend_from_slice(name);
                }
            });
        if let Some(b) = held.as_mut() {
            for batch in batches.iter_mut() {
                placed.append(&mut batch.placed);
                b.extend_children(self.node, &batch.nodes, &batch.node_names);
            }
        }
        let count = placed.count;
        let (first, room) = {
            let built_in_place = held.is_some();
            let mut b = held.unwrap_or_else(|| lock_briefly_held(builder));
            if let Some((meta, times)) = &self.own {
                set_own(&mut b, self.node, meta, *times);
            }
            b.update(self.node, |n| placed.folded.into_dir(n));
            let first = if built_in_place {
                b.close_children(self.node, count)
            } else {
                b.append_children(self.node, nodes, node_names)
            };
            // (the entries made nodes as they were read have none: -f keeps no facts)
            let ids = first + fused_count as NodeId..;
            for (id, facts) in ids.zip(placed.facts.iter()) {
                b.set_extra(id, facts.extra);
                b.set_identity(id, facts.identity);
                if facts.links > 0 {
                    b.set_links(id, facts.links);
                }
            }
            (first, b.room_ahead())
        };
        // the tree's next pages, faulted in at once while no lock is held
        for (addr, len) in room.into_iter().flatten() {
            sys::prefault(addr, len);
        }
        first
    }

    /// [`DirTask::commit`] of a streamed walk: the entries placed, then handed to the sink
    /// (which gives their ids in `placed.ids`).
    fn commit_streamed(
        &self,
        sink: &dyn DirSink,
        scratch: &mut Scratch,
        batches: &mut [StatBatch],
    ) {
        let Scratch {
            listed: here,
            placed,
            nodes,
            node_names,
        } = scratch;
        // (no entry is made a node as it is read: that is -f's, which has no sizes to stream)
        placed.count = nodes.len() as NodeId;
        self.placer.place(here, placed, |node, name| {
            nodes.push(node.with_local_name(node_names.len(), name.len()));
            node_names.extend_from_slice(name);
        });
        for batch in batches.iter_mut() {
            placed.append(&mut batch.placed);
        }
        let mut chunks = Vec::with_capacity(1 + batches.len());
        chunks.push((&nodes[..], &node_names[..]));
        chunks.extend(batches.iter().map(|b| (&b.nodes[..], &b.node_names[..])));
        if let Some((meta, times)) = &self.own {
            self.walker.set_own(self.node, meta, *times, 0);
        }
        sink.listed(
            self.node,
            &chunks,
            &placed.facts,
            &placed.failed,
            &mut placed.ids,
        );
    }

    /// A huge directory's nodes are built in the tree on this thread alone: the pages they
    /// go to are faulted in on another one meanwhile, in one call (with one thread, here, in
    /// one call: cheaper than a fault a page).
    fn prefault_children(&self, nodes: usize, name_bytes: usize) {
        let regions = lock(self.walker.builder()).spare_regions(nodes, name_bytes);
        let prefault = move || {
            for (addr, len) in regions {
                sys::prefault(addr, len);
            }
        };
        match self.walker.threads.pool() {
            Some(pool) => pool.spawn(prefault),
            None => prefault(),
        }
    }

    /// Once the children have their ids (from `first`): the subdirectories to walk, the
    /// claims of their inodes, the errors of the entries whose stat failed, the progress.
    pub(super) fn claim_and_count(&self, first: NodeId, placed: &mut Placed) {
        let walker = self.walker;
        let kept = u64::from(placed.count) + u64::from(placed.folded.entries);
        let Placed {
            bytes,
            subdirs,
            dir_claims,
            file_claims,
            failed,
            ids,
            ..
        } = placed;
        // a streamed walk's ids are the sink's, a tree's follow from the first child's
        let streamed = walker.sink.is_some();
        let id_of = |local: NodeId| match streamed {
            true => ids.get(local as usize).copied().unwrap_or(NodeId::MAX),
            false => first + local,
        };
        for sd in subdirs.iter_mut() {
            sd.node = id_of(sd.node);
        }
        if self.plan.fold == Fold::EveryFile {
            // every claim is of a file summed into this directory
            walker.claims.count_folded(self.node, file_claims);
            file_claims.clear();
        }
        for c in dir_claims.iter() {
            let node = id_of(c.node);
            if walker.claims.claim_dir(c.key, node) {
                let (dev, _) = c.key;
                subdirs.push(Subdir {
                    node,
                    name_off: c.name_off,
                    dev,
                    perm: Some(c.perm),
                });
            } else {
                walker.dir_repeated(node);
                walker.dir_done(node);
            }
        }
        // (a sink counts each inode as it writes it: nothing to settle after the walk)
        if !streamed {
            for c in file_claims.iter_mut() {
                c.node += first;
            }
            walker.claims.claim_files(file_claims);
        }
        for (name, errno) in failed.drain(..) {
            walker.entry_failed(self.node, name, errno);
        }
        walker.progress.entries.fetch_add(kept, Ordering::Relaxed);
        walker.progress.bytes.fetch_add(*bytes, Ordering::Relaxed);
    }
}
