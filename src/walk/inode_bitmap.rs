//! One bit per inode number: which inodes a walk's file claims met, and which more than
//! once (see `dedup`).

use std::cell::Cell;

use rustc_hash::FxHashMap;

/// Bits per page: 512 bytes of bitmap cover 4,096 inode numbers. (Pages of 4 KiB, 32,768
/// numbers, were mostly empty where a tree's inodes spread over many block groups: a page
/// fault each, and their bits zeroed and merged.)
const PAGE_BITS: u32 = 12;
const PAGE_WORDS: usize = (1 << PAGE_BITS) / 64;

/// Claims that took as much memory as a page when a claim was 16 bytes (a packed claim
/// takes 1 to 3 now, see `dedup::claim_log`): the budget of pages is left as it was, so
/// that where the numbers are too sparse for a bitmap is what it was.
const CLAIMS_PER_PAGE: usize = PAGE_WORDS * 8 / 16;

/// One bit per inode number, in pages allocated as numbers are met. Inode numbers of one
/// filesystem cluster (ext4 hands them out per block group, btrfs and tmpfs in sequence), so
/// a few pages cover a whole scan.
#[derive(Clone)]
pub(super) struct InodeBitmap {
    pages: FxHashMap<(u32, u64), u32>,
    bits: Vec<[u64; PAGE_WORDS]>,
    /// Per page: where in `again` the bits of its inodes met more than once are,
    /// or [`NO_PAGE`] while it has none (most pages never do).
    again_page: Vec<u32>,
    again: Vec<[u64; PAGE_WORDS]>,
    /// Per word of `again`: how many bits are set in the words before it (of every page of
    /// `again`), so that each inode met more than once has an index of its own, from 0 to
    /// the number of them (see [`InodeBitmap::shared_index`]). Filled by `merged`.
    ranks: Vec<u32>,
    /// The page of the last lookup: the inodes of a directory's files are mostly close.
    last: Cell<Option<((u32, u64), u32)>>,
}

const NO_PAGE: u32 = u32::MAX;

/// Pages a bitmap may always take (64 KiB); past them, one per [`CLAIMS_PER_PAGE`] claims:
/// no larger than the claims themselves, plus a little.
const BASE_PAGES: usize = 128;

impl InodeBitmap {
    pub(super) fn new() -> InodeBitmap {
        InodeBitmap {
            pages: FxHashMap::default(),
            bits: Vec::new(),
            again_page: Vec::new(),
            again: Vec::new(),
            ranks: Vec::new(),
            last: Cell::new(None),
        }
    }

    fn page_of(&self, key: (u32, u64)) -> Option<u32> {
        match self.last.get() {
            Some((k, p)) if k == key => Some(p),
            _ => {
                let p = *self.pages.get(&key)?;
                self.last.set(Some((key, p)));
                Some(p)
            }
        }
    }

    /// Counts one more name of `(dev, ino)`, the `claims`-th met; false when that would take
    /// a page more than so many claims may (sparse inode numbers: sorted instead).
    pub(super) fn insert(&mut self, dev: u32, ino: u64, claims: usize) -> bool {
        let key = (dev, ino >> PAGE_BITS);
        let page = match self.page_of(key) {
            Some(p) => p,
            None => {
                if self.bits.len() >= BASE_PAGES + claims / CLAIMS_PER_PAGE {
                    return false;
                }
                if self.bits.capacity() == 0 {
                    self.make_room(BASE_PAGES);
                }
                let p = self.bits.len() as u32;
                self.pages.insert(key, p);
                self.bits.push([0; PAGE_WORDS]);
                self.again_page.push(NO_PAGE);
                self.last.set(Some((key, p)));
                p
            }
        };
        let (word, mask) = bit_of(ino);
        let bits = &mut self.bits[page as usize][word];
        if *bits & mask == 0 {
            *bits |= mask;
        } else {
            self.again_mut(page)[word] |= mask;
        }
        true
    }

    /// The bitmaps of several threads' claims as one: an inode met more than once is one met
    /// twice by a thread, or by two of them. What it gives is only to be asked
    /// [`InodeBitmap::shared_index`] (a page met by one thread alone may keep no bits).
    pub(super) fn merged(mut bitmaps: Vec<InodeBitmap>) -> (InodeBitmap, usize) {
        // the largest is the one added to: the fewest pages to add
        let Some(largest) = (0..bitmaps.len()).max_by_key(|&i| bitmaps[i].bits.len()) else {
            return (InodeBitmap::new(), 0);
        };
        let mut acc = bitmaps.swap_remove(largest);
        let others = bitmaps.len();
        for (n, b) in bitmaps.into_iter().enumerate() {
            let last = n + 1 == others;
            acc.pages.reserve(b.pages.len());
            for (&key, &page) in &b.pages {
                let (bits, again) = (&b.bits[page as usize], b.again_of(page));
                match acc.pages.get(&key).copied() {
                    // No bitmap comes after this one: of a page the others never met, only
                    // the inodes met twice matter, and its bits are not copied (they were
                    // half the merging of two threads' bitmaps, and a page fault each). Its
                    // number is past the pages with bits (`again_page` outgrows `bits`).
                    None if last => {
                        if let Some(again) = again {
                            let p = acc.again_page.len() as u32;
                            acc.pages.insert(key, p);
                            acc.again_page.push(NO_PAGE);
                            acc.again_mut(p).copy_from_slice(again);
                        }
                    }
                    None => {
                        let p = acc.bits.len() as u32;
                        acc.pages.insert(key, p);
                        acc.bits.push(*bits);
                        acc.again_page.push(NO_PAGE);
                        if let Some(again) = again {
                            acc.again_mut(p).copy_from_slice(again);
                        }
                    }
                    Some(p) => {
                        let mut twice = [0u64; PAGE_WORDS];
                        let mine = &mut acc.bits[p as usize];
                        for (w, t) in twice.iter_mut().enumerate() {
                            *t = mine[w] & bits[w] | again.map_or(0, |a| a[w]);
                            mine[w] |= bits[w];
                        }
                        if twice.iter().any(|&w| w != 0) {
                            for (a, t) in acc.again_mut(p).iter_mut().zip(twice) {
                                *a |= t;
                            }
                        }
                    }
                }
            }
        }
        let mut shared = 0u32;
        acc.ranks = acc
            .again
            .iter()
            .flatten()
            .map(|w| {
                let before = shared;
                shared += w.count_ones();
                before
            })
            .collect();
        acc.last.set(None);
        (acc, shared as usize)
    }

    /// Calls `f` with every (device index, inode) inserted.
    pub(super) fn for_each(&self, mut f: impl FnMut(u32, u64)) {
        for (&(dev, hi), &page) in &self.pages {
            let Some(bits) = self.bits.get(page as usize) else {
                continue; // (a merged bitmap's pages past `bits` keep only repeats)
            };
            for (w, &word) in bits.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let bit = word.trailing_zeros() as u64;
                    f(dev, (hi << PAGE_BITS) | (w as u64 * 64 + bit));
                    word &= word - 1;
                }
            }
        }
    }

    /// How many different inodes these bitmaps hold together.
    pub(super) fn union_len(mut bitmaps: Vec<InodeBitmap>) -> usize {
        let Some(largest) = (0..bitmaps.len()).max_by_key(|&i| bitmaps[i].bits.len()) else {
            return 0;
        };
        let mut acc = bitmaps.swap_remove(largest);
        for b in bitmaps {
            for (&key, &page) in &b.pages {
                let bits = &b.bits[page as usize];
                match acc.pages.get(&key).copied() {
                    Some(p) => {
                        for (m, w) in acc.bits[p as usize].iter_mut().zip(bits) {
                            *m |= w;
                        }
                    }
                    None => {
                        acc.pages.insert(key, acc.bits.len() as u32);
                        acc.bits.push(*bits);
                    }
                }
            }
        }
        acc.bits
            .iter()
            .flatten()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// Room for `pages` more pages, in one allocation: grown a page at a time, the pages
    /// were copied at every doubling, each copy into memory not yet touched.
    fn make_room(&mut self, pages: usize) {
        self.bits.reserve_exact(pages);
        self.again_page.reserve_exact(pages);
        self.pages.reserve(pages);
    }

    /// The bits of a page's inodes met more than once, if any were.
    fn again_of(&self, page: u32) -> Option<&[u64; PAGE_WORDS]> {
        let a = self.again_page[page as usize];
        (a != NO_PAGE).then(|| &self.again[a as usize])
    }

    fn again_mut(&mut self, page: u32) -> &mut [u64; PAGE_WORDS] {
        if self.again_page[page as usize] == NO_PAGE {
            self.again_page[page as usize] = self.again.len() as u32;
            self.again.push([0; PAGE_WORDS]);
        }
        &mut self.again[self.again_page[page as usize] as usize]
    }

    /// The index of `(dev, ino)` among the inodes inserted more than once (in the order of
    /// their bits), or `None` when it was inserted once or never. Only after `merged`.
    pub(super) fn shared_index(&self, dev: u32, ino: u64) -> Option<usize> {
        let page = self.page_of((dev, ino >> PAGE_BITS))?;
        let a = self.again_page[page as usize];
        if a == NO_PAGE {
            return None;
        }
        let (word, mask) = bit_of(ino);
        let bits = self.again[a as usize][word];
        if bits & mask == 0 {
            return None;
        }
        let at = a as usize * PAGE_WORDS + word;
        Some(self.ranks[at] as usize + (bits & (mask - 1)).count_ones() as usize)
    }
}

/// The word of a page, and the bit in it, of an inode number.
fn bit_of(ino: u64) -> (usize, u64) {
    let bit = (ino & ((1 << PAGE_BITS) - 1)) as usize;
    (bit / 64, 1u64 << (bit % 64))
}
