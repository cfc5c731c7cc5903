//! Counting every inode once: hard links, overlapping arguments and `-L` loops.
//!
//! Claims happen during the walk, from every thread, so the set is split into shards with a
//! lock each: two threads rarely want the same shard, and no claim waits for the tree lock.
//! The first claimant of an inode wins at once (a directory must know right away whether to
//! descend). Which *file* name owns an inode must not depend on thread timing, though, so
//! every losing claim is remembered and [`LinkSet::settle`] hands each contested file inode to
//! the name a depth-first walk in directory order meets first — what GNU du counts. That
//! pass only touches contested inodes, never the whole tree.

use std::collections::hash_map::Entry;
use std::sync::{Mutex, MutexGuard, PoisonError};

use rustc_hash::FxHashMap;

use crate::tree::{flags, LinkKey, NodeId, Tree};

const SHARDS: usize = 64;

#[derive(Default)]
struct Shard {
    /// Inode → the node that claimed it first.
    owners: FxHashMap<LinkKey, NodeId>,
    /// Later claims of an inode already owned: settled after the walk.
    contested: Vec<(LinkKey, NodeId)>,
}

pub struct LinkSet {
    shards: Box<[Mutex<Shard>]>,
}

impl Default for LinkSet {
    fn default() -> Self {
        Self::new()
    }
}

impl LinkSet {
    pub fn new() -> LinkSet {
        LinkSet {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
        }
    }

    fn shard_of(key: LinkKey) -> usize {
        // inode numbers are dense: mix them so that neighbours spread over the shards
        let h = (key.1 ^ key.0.rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 58) as usize % SHARDS
    }

    fn shard(&self, key: LinkKey) -> MutexGuard<'_, Shard> {
        self.lock_shard(Self::shard_of(key))
    }

    fn lock_shard(&self, i: usize) -> MutexGuard<'_, Shard> {
        self.shards[i]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// [`LinkSet::claim`] for all of one directory's claims. In -f mode every file claims:
    /// for a large directory the shards are grown once up front rather than step by step
    /// (rehashing cost 54 instructions per claim on a 100k-entry directory).
    /// `won` hears of every first claim.
    pub fn claim_all<T>(
        &self,
        claims: &[(LinkKey, NodeId, T)],
        mut won: impl FnMut(&(LinkKey, NodeId, T)),
    ) {
        if claims.len() >= 4 * SHARDS {
            // hashed keys spread evenly; a little slack for the unlucky shards
            let per_shard = claims.len() / SHARDS + claims.len() / SHARDS / 4;
            for i in 0..SHARDS {
                self.lock_shard(i).owners.reserve(per_shard);
            }
        }
        for c in claims {
            if self.claim(c.0, c.1) {
                won(c);
            }
        }
    }

    /// Records that node `id` is a name of inode `key`; true when it is the first to claim it.
    /// A directory that is not first must not be walked again.
    pub fn claim(&self, key: LinkKey, id: NodeId) -> bool {
        let mut guard = self.shard(key);
        let shard = &mut *guard;
        match shard.owners.entry(key) {
            Entry::Vacant(v) => {
                v.insert(id);
                true
            }
            Entry::Occupied(_) => {
                shard.contested.push((key, id));
                false
            }
        }
    }

    /// Marks every name that does not own its inode as a duplicate (it then adds nothing to
    /// any total). Among file names the one met first in a depth-first walk in directory order
    /// owns the inode, whatever thread got there first; a directory stays with the name that
    /// was walked.
    pub fn settle(self, tree: &mut Tree) {
        let mut contested: Vec<(LinkKey, NodeId)> = Vec::new();
        let mut owners: FxHashMap<LinkKey, NodeId> = FxHashMap::default();
        for shard in self.shards.into_vec() {
            let shard = shard.into_inner().unwrap_or_else(PoisonError::into_inner);
            if shard.contested.is_empty() {
                continue;
            }
            for &(key, _) in &shard.contested {
                if let Some(&o) = shard.owners.get(&key) {
                    owners.insert(key, o);
                }
            }
            contested.extend(shard.contested);
        }
        contested.sort_unstable_by_key(|&(key, id)| (key, id));
        for group in contested.chunk_by(|a, b| a.0 == b.0) {
            let key = group[0].0;
            let Some(&first) = owners.get(&key) else {
                continue;
            };
            let mut owner = first;
            if !tree.node(first).is_dir() {
                for &(_, id) in group {
                    if !tree.node(id).is_dir() && tree.dfs_order(id, owner).is_lt() {
                        owner = id;
                    }
                }
            }
            for id in std::iter::once(first).chain(group.iter().map(|&(_, id)| id)) {
                if id != owner {
                    tree.set_flag(id, flags::DUPLICATE);
                }
            }
        }
    }
}
