//! Tables by entry id, chosen by the type of the ids: the in-memory tree's `u32` ids are
//! dense indices, so a table is an array as long as the tree; a file-backed tree's `u64`
//! ids are offsets in a file, so a table holds only the entries put in it. A view that keeps
//! something per entry (the comparison's counterparts) names [`EntryId::Map`] and gets the
//! one that fits, with no branch at run time.

use std::fmt::Debug;
use std::hash::Hash;

use rustc_hash::{FxHashMap, FxHashSet};

/// What a tree's ids must be ([`super::TreeView::Id`]).
pub trait EntryId: Copy + Eq + Ord + Hash + Debug {
    /// An id no entry has: "none" in a table.
    const NONE: Self;
    /// From these ids to values (ids of another tree).
    type Map<V: EntryId>: IdMap<Self, V>;
    /// A set of these ids.
    type Set: IdSet<Self>;
}

/// A table from ids to ids; [`EntryId::NONE`] for an id never set.
pub trait IdMap<K, V>: Clone + Debug {
    /// Empty, for a tree whose ids are below `bound` (0: not known; the table grows).
    fn with_bound(bound: usize) -> Self;
    fn get(&self, k: K) -> V;
    fn set(&mut self, k: K, v: V);
}

/// A set of ids.
pub trait IdSet<K>: Clone + Debug {
    /// Empty, for a tree whose ids are below `bound` (0: not known; the set grows).
    fn with_bound(bound: usize) -> Self;
    fn insert(&mut self, k: K);
    fn contains(&self, k: K) -> bool;
}

impl EntryId for u32 {
    const NONE: u32 = u32::MAX;
    type Map<V: EntryId> = Dense<V>;
    type Set = Bits;
}

impl EntryId for u64 {
    const NONE: u64 = u64::MAX;
    type Map<V: EntryId> = Sparse<u64, V>;
    type Set = FxHashSet<u64>;
}

/// A value for every index below the tree's length.
#[derive(Clone, Debug)]
pub struct Dense<V>(Vec<V>);

impl<V: EntryId> IdMap<u32, V> for Dense<V> {
    fn with_bound(bound: usize) -> Self {
        Dense(vec![V::NONE; bound])
    }

    #[inline]
    fn get(&self, k: u32) -> V {
        self.0.get(k as usize).copied().unwrap_or(V::NONE)
    }

    #[inline]
    fn set(&mut self, k: u32, v: V) {
        let i = k as usize;
        if i >= self.0.len() {
            self.0.resize(i + 1, V::NONE);
        }
        self.0[i] = v;
    }
}

/// One bit for every index below the tree's length.
#[derive(Clone, Debug, Default)]
pub struct Bits(Vec<u64>);

impl IdSet<u32> for Bits {
    fn with_bound(bound: usize) -> Self {
        Bits(vec![0; bound.div_ceil(64)])
    }

    #[inline]
    fn insert(&mut self, i: u32) {
        let w = i as usize / 64;
        if w >= self.0.len() {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << (i % 64);
    }

    #[inline]
    fn contains(&self, i: u32) -> bool {
        self.0
            .get(i as usize / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
}

/// Values for the ids put in, hashed (ids that are not indices: offsets in a file).
#[derive(Clone, Debug)]
pub struct Sparse<K, V>(FxHashMap<K, V>);

impl<K: Copy + Eq + Hash + Debug, V: EntryId> IdMap<K, V> for Sparse<K, V> {
    fn with_bound(_: usize) -> Self {
        Sparse(FxHashMap::default())
    }

    fn get(&self, k: K) -> V {
        self.0.get(&k).copied().unwrap_or(V::NONE)
    }

    fn set(&mut self, k: K, v: V) {
        self.0.insert(k, v);
    }
}

impl<K: Copy + Eq + Hash + Debug> IdSet<K> for FxHashSet<K> {
    fn with_bound(_: usize) -> Self {
        FxHashSet::default()
    }

    fn insert(&mut self, k: K) {
        FxHashSet::insert(self, k);
    }

    fn contains(&self, k: K) -> bool {
        FxHashSet::contains(self, &k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip<K: EntryId>(keys: [K; 3]) {
        let mut m = K::Map::<u32>::with_bound(0);
        let mut s = K::Set::with_bound(0);
        m.set(keys[0], 7);
        s.insert(keys[1]);
        assert_eq!((m.get(keys[0]), m.get(keys[1])), (7, u32::NONE));
        assert!(s.contains(keys[1]) && !s.contains(keys[2]));
    }

    #[test]
    fn tables_grow_past_their_bound() {
        roundtrip::<u32>([3, 700, 5000]);
        roundtrip::<u64>([24, 4120, 1 << 40]);
    }
}
