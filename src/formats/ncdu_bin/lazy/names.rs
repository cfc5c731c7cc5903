//! Names handed out by a file-backed tree: a view borrows them for as long as it borrows the
//! tree, so each one asked for is copied once into a slot that never moves or is freed
//! before the tree (`OnceCell`s in chunks that double in size: no `unsafe`, no copy of the
//! ones already given). Only the names of what a view shows are asked for; names compared
//! for order are read and dropped ([`crate::tree::TreeView::cmp_entry_names`]).

use std::cell::{Cell, OnceCell, RefCell};

use rustc_hash::FxHashMap;

/// The first chunk's slots; each next chunk has twice its predecessor's.
const FIRST: usize = 64;

struct Chunk {
    slots: Box<[OnceCell<Box<[u8]>>]>,
    next: OnceCell<Box<Chunk>>,
}

impl Chunk {
    fn new(len: usize) -> Chunk {
        Chunk {
            slots: (0..len).map(|_| OnceCell::new()).collect(),
            next: OnceCell::new(),
        }
    }
}

/// Names interned by key (an itemref).
pub(super) struct Names {
    by_key: RefCell<FxHashMap<u64, usize>>,
    len: Cell<usize>,
    first: Chunk,
}

impl Names {
    pub(super) fn new() -> Names {
        Names {
            by_key: RefCell::default(),
            len: Cell::new(0),
            first: Chunk::new(FIRST),
        }
    }

    /// How many names are kept.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len.get()
    }

    /// The slot `i`, its chunk made when it is the first of it.
    fn slot(&self, mut i: usize) -> &OnceCell<Box<[u8]>> {
        let mut chunk = &self.first;
        while i >= chunk.slots.len() {
            i -= chunk.slots.len();
            let len = chunk.slots.len() * 2;
            chunk = chunk.next.get_or_init(|| Box::new(Chunk::new(len)));
        }
        &chunk.slots[i]
    }

    /// The name kept for `key`, or `make`'s, kept from now on.
    pub(super) fn get_or_insert(&self, key: u64, make: impl FnOnce() -> Vec<u8>) -> &[u8] {
        let known = self.by_key.borrow().get(&key).copied();
        let i = match known {
            Some(i) => i,
            None => {
                let i = self.len.get();
                // a slot is set once: a fresh one always takes the name
                let _ = self.slot(i).set(make().into_boxed_slice());
                self.len.set(i + 1);
                self.by_key.borrow_mut().insert(key, i);
                i
            }
        };
        self.slot(i).get().map_or(&[], |b| &b[..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stay_where_they_were_handed_out() {
        let names = Names::new();
        let first = names.get_or_insert(7, || b"seven".to_vec());
        let many: Vec<&[u8]> = (0..1000u64)
            .map(|k| names.get_or_insert(k + 100, || k.to_string().into_bytes()))
            .collect();
        assert_eq!(first, b"seven");
        assert_eq!(names.get_or_insert(7, || b"other".to_vec()), b"seven");
        for (k, n) in many.iter().enumerate() {
            assert_eq!(*n, k.to_string().as_bytes());
        }
    }
}
