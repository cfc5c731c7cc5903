//! Each directory a view reads checked once against its entries, as the whole import checks
//! it: its stored totals (`cumdsize`, `cumasize`, which the view shows) must be its own sizes
//! and its entries' added up, and no entry may be listed by two directories. A damaged or
//! crafted file is then refused on demand as it is when loaded, never shown with other
//! numbers.
//!
//! The hard links among the entries are counted as the format records them: all of them
//! when they add up (none was left out), otherwise only the whole file tells which name
//! counts, and the view hands the run to the whole import, which checks the totals exactly;
//! totals below what the other entries add up to, or above what every name adds up to, are
//! damage.

use std::cell::RefCell;
use std::collections::hash_map::Entry;

use rustc_hash::{FxHashMap, FxHashSet};

use super::{damaged, Facts, LazyTree, Stop, UNSURE_LINK};
use crate::formats::ncdu_bin::spec::{etype, OFFSET_BITS, OFFSET_MASK};
use crate::formats::ncdu_bin::ReadAt;

/// The directories checked, and the entries they list (a bit per byte offset of each block).
#[derive(Default)]
pub(super) struct Verified {
    checked: RefCell<FxHashSet<u64>>,
    seen: RefCell<FxHashMap<u32, Vec<u64>>>,
}

/// One directory's entries being read: added up and marked as met the first time only.
pub(super) struct Check {
    fresh: bool,
    added: Added,
}

impl Check {
    pub(super) fn new<S: ReadAt>(tree: &LazyTree<S>, dir: u64) -> Check {
        Check {
            fresh: tree.unchecked(dir),
            added: Added::default(),
        }
    }

    /// Directory `dir` lists entry `at` (its facts `c`).
    pub(super) fn entry<S: ReadAt>(&mut self, tree: &LazyTree<S>, dir: u64, at: u64, c: &Facts) {
        if self.fresh {
            tree.met(dir, at);
            self.added.add(c);
        }
    }

    /// Every entry of directory `dir` (its facts `f`) read: its totals checked.
    pub(super) fn finish<S: ReadAt>(&self, tree: &LazyTree<S>, dir: u64, f: &Facts) {
        if self.fresh && !tree.stopped() {
            tree.verify(dir, f, &self.added);
        }
    }
}

/// Hard links kept to find which of them a directory's totals count: more hand the run to
/// the whole import (2^16 subsets tried at most).
const LINKS_TRIED: usize = 16;

/// What the entries of one directory add up to, hard links apart.
#[derive(Default)]
struct Added {
    /// Entries other than hard links: (disk, apparent).
    plain: (u64, u64),
    /// Hard links, every name counted (and directories ncdu says share some).
    links: (u64, u64),
    has_links: bool,
    /// The first [`LINKS_TRIED`] of them, and whether there were more.
    each: Vec<(u64, u64)>,
    more: bool,
}

fn plus(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0.saturating_add(b.0), a.1.saturating_add(b.1))
}

impl Added {
    fn add(&mut self, c: &Facts) {
        let counted = c.etype == etype::DIR || c.flags & crate::tree::flags::UNCOUNTED == 0;
        if !counted || c.etype == etype::ERR {
            return;
        }
        // a hard link, or a directory whose totals ncdu says count inodes that directories
        // elsewhere count too: how much of it counts here only the whole file tells
        match c.etype {
            _ if c.etype == etype::LINK || c.shares => {
                self.links = plus(self.links, (c.disk, c.apparent));
                self.has_links = true;
                match self.each.len() < LINKS_TRIED && !c.shares {
                    true => self.each.push((c.disk, c.apparent)),
                    false => self.more = true,
                }
            }
            _ => self.plain = plus(self.plain, (c.disk, c.apparent)),
        }
    }

    /// Whether `extra` is what some of the hard links add up to (each name counts in one
    /// directory: the stored totals count some of them).
    fn some_links_make(&self, extra: (u64, u64)) -> bool {
        (0u32..1 << self.each.len()).any(|set| {
            let picked = self
                .each
                .iter()
                .enumerate()
                .filter(|(i, _)| set >> i & 1 != 0);
            picked.fold((0, 0), |sum, (_, &l)| plus(sum, l)) == extra
        })
    }
}

impl<S: ReadAt> LazyTree<S> {
    /// Whether directory `dir`'s entries are still to be checked (and marked as met).
    pub(super) fn unchecked(&self, dir: u64) -> bool {
        !self.verified.checked.borrow().contains(&dir)
    }

    /// Records entry `at` as listed by directory `dir`, refusing one another directory lists.
    fn met(&self, dir: u64, at: u64) {
        let num = (at >> OFFSET_BITS) as u32;
        let mut seen = self.verified.seen.borrow_mut();
        let bits = match seen.entry(num) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let Ok(len) = self.file.borrow_mut().block_len(num) else {
                    return; // read already: not reached
                };
                e.insert(vec![0; len.div_ceil(64)])
            }
        };
        let off = (at & OFFSET_MASK) as usize;
        let (word, bit) = (off / 64, 1u64 << (off % 64));
        let Some(w) = bits.get_mut(word) else { return };
        if *w & bit != 0 {
            drop(seen);
            self.fail(damaged(format!(
                "item {at:#x} is listed by two directories (one of them item {dir:#x})"
            )));
            return;
        }
        *w |= bit;
    }

    /// Checks directory `dir` (its facts `f`) against what its entries add up to, once.
    fn verify(&self, dir: u64, f: &Facts, added: &Added) {
        if !self.verified.checked.borrow_mut().insert(dir) {
            return;
        }
        let stored = (f.disk, f.apparent);
        let least = plus(f.own, added.plain);
        let most = plus(least, added.links);
        if stored == most {
            return;
        }
        let within = |i: fn((u64, u64)) -> u64| (i(least)..=i(most)).contains(&i(stored));
        let within = within(|p| p.0) && within(|p| p.1);
        if added.has_links && within && !f.shares {
            let extra = (stored.0 - least.0, stored.1 - least.1);
            if added.more {
                // which links count only the whole import tells
                if !self.browsing {
                    self.fail(Stop::Load(UNSURE_LINK));
                }
                return;
            }
            if added.some_links_make(extra) {
                return;
            }
        }
        if f.shares && within {
            return; // ncdu's totals: the view hands the run to the whole import anyway
        }
        let mut name = Vec::new();
        match dir == self.root {
            true => name.clone_from(&self.root_name),
            false => self.read_name(dir, &mut name),
        }
        self.fail(damaged(format!(
            "directory {} (item {dir:#x}) says it holds {} bytes on disk, {} apparent; its \
             entries add up to {}, {}",
            crate::render::escape::shown(&name, true),
            stored.0,
            stored.1,
            most.0,
            most.1
        )));
    }

    /// Checks the directory behind a size a view shows (the root's, or one it has not
    /// listed): the totals shown are what its entries add up to.
    pub(super) fn verify_shown(&self, dir: u64) {
        if self.unchecked(dir) && !self.stopped() {
            self.list(dir);
        }
    }
}
