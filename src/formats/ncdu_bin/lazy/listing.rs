//! A directory's children read once, in one walk along its chain, and kept with what a view
//! asks of each (sizes, kind, flags, time, name): a view that ranks, sorts and draws a
//! directory asks of its children again and again, in any order, and a child read from its
//! block each time (a block decompressed for one name) made a directory of 200,000 files
//! take minutes to show. An entry's id says where it is in its directory's listing
//! ([`super::dirs`]): found with no search. What a comparison of names reads (itemrefs,
//! where names end, the names) lies in arrays of its own, small enough to stay in the
//! processor's caches while a huge directory is sorted.
//!
//! Kept: 44 bytes and the name of each child of the directories listed last (at most
//! [`KEPT`] children in all, the directories listed longest ago dropped first), less than a
//! loaded tree holds for the same entries.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use super::chain::Chain;
use super::verify;
use super::{damaged, slot, Facts, ItemId, LazyTree, Stop, COMPARED, FACTS, UNRECORDED_ERROR};
use crate::formats::ncdu_bin::spec::etype;
use crate::formats::ncdu_bin::ReadAt;
use crate::tree::EntryKind;

/// The most children kept in all the listings (the one being made is kept whatever its size).
const KEPT: usize = 1 << 21;

/// What a view reads of one child but its name: [`Facts`] without the chain's link, a
/// directory's own fields apart (most children are files).
#[derive(Clone, Copy)]
struct Kid {
    disk: u64,
    apparent: u64,
    mtime: i64,
    /// Its row in [`Listing::dirs`] (a directory), or `u32::MAX`.
    dir: u32,
    /// The stored type, or `i8::MIN` for one no view tells apart from another unknown one.
    etype: i8,
    kind: EntryKind,
    flags: u8,
    /// `errors`, `shares`.
    bits: u8,
}

/// A directory child's own fields.
#[derive(Clone, Copy)]
struct DirPart {
    items: u64,
    sub: Option<u64>,
    own: (u64, u64),
}

/// The children of one directory, in the stored order.
pub(super) struct Listing {
    pub(super) dir: u64,
    /// Its entries (errors, which are none, aside).
    pub(super) count: usize,
    items: Vec<u64>,
    kids: Vec<Kid>,
    /// Where each child's name ends in `names`.
    ends: Vec<u32>,
    names: Vec<u8>,
    dirs: Vec<DirPart>,
}

impl Listing {
    pub(super) fn new(dir: u64) -> Listing {
        Listing {
            dir,
            count: 0,
            items: Vec::new(),
            kids: Vec::new(),
            ends: Vec::new(),
            names: Vec::new(),
            dirs: Vec::new(),
        }
    }

    /// Adds the next child (children come last first, as the chain runs).
    pub(super) fn push(&mut self, item: u64, f: &Facts, name: &[u8]) {
        self.count += usize::from(f.etype != etype::ERR);
        self.names.extend_from_slice(name);
        let dir = match f.etype == etype::DIR {
            true => {
                self.dirs.push(DirPart {
                    items: f.items,
                    sub: f.sub,
                    own: f.own,
                });
                u32::try_from(self.dirs.len() - 1).unwrap_or(u32::MAX)
            }
            false => u32::MAX,
        };
        self.items.push(item);
        self.ends
            .push(u32::try_from(self.names.len()).unwrap_or(u32::MAX));
        self.kids.push(Kid {
            disk: f.disk,
            apparent: f.apparent,
            mtime: f.mtime,
            dir,
            etype: i8::try_from(f.etype).unwrap_or(i8::MIN),
            kind: f.kind,
            flags: f.flags,
            bits: u8::from(f.errors) | u8::from(f.shares) << 1,
        });
    }

    /// Done: the children put in the stored order.
    pub(super) fn seal(mut self) -> Listing {
        // appended last child first: child i's name is names[end of i - 1..end of i]
        let mut names = Vec::with_capacity(self.names.len());
        let mut ends = Vec::with_capacity(self.ends.len());
        for i in (0..self.ends.len()).rev() {
            let start = i.checked_sub(1).map_or(0, |p| self.ends[p] as usize);
            let end = self.ends[i] as usize;
            names.extend_from_slice(self.names.get(start..end).unwrap_or_default());
            ends.push(u32::try_from(names.len()).unwrap_or(u32::MAX));
        }
        (self.names, self.ends) = (names, ends);
        self.items.reverse();
        self.kids.reverse();
        self.items.shrink_to_fit();
        self.kids.shrink_to_fit();
        self.dirs.shrink_to_fit();
        self
    }

    /// The itemref of child `i` in the stored order, and whether it is an error (no entry).
    pub(super) fn at(&self, i: usize) -> Option<(u64, bool)> {
        let k = self.kids.get(i)?;
        Some((self.items[i], i64::from(k.etype) == etype::ERR))
    }

    /// Child `at`, if it is `item` (an id names both).
    fn find(&self, at: u32, item: u64) -> Option<usize> {
        let at = at as usize;
        (self.items.get(at) == Some(&item)).then_some(at)
    }

    /// What is kept of child `at`, `item` (its chain link left out).
    pub(super) fn facts(&self, at: u32, item: u64) -> Option<Facts> {
        let k = *self.kids.get(self.find(at, item)?)?;
        let d = self.dirs.get(k.dir as usize).copied();
        Some(Facts {
            etype: i64::from(k.etype),
            kind: k.kind,
            flags: k.flags,
            disk: k.disk,
            apparent: k.apparent,
            items: d.map_or(0, |d| d.items),
            sub: d.and_then(|d| d.sub),
            prev: None,
            errors: k.bits & 1 != 0,
            shares: k.bits & 2 != 0,
            own: d.map_or((0, 0), |d| d.own),
            mtime: k.mtime,
        })
    }

    /// The name of child `at`, `item`.
    pub(super) fn name(&self, at: u32, item: u64) -> Option<&[u8]> {
        let i = self.find(at, item)?;
        let start = i.checked_sub(1).map_or(0, |p| self.ends[p] as usize);
        self.names.get(start..*self.ends.get(i)? as usize)
    }
}

/// The children of one directory in the stored order, from its listing.
pub struct Children {
    pub(super) listing: Option<Rc<Listing>>,
    /// The directory's number ([`super::dirs`]).
    pub(super) parent: u32,
    pub(super) next: usize,
    /// Leave out the entries that could not be read (`err` items: no entry of the tree).
    pub(super) entries_only: bool,
}

impl Iterator for Children {
    type Item = ItemId;

    fn next(&mut self) -> Option<ItemId> {
        let listing = self.listing.as_ref()?;
        loop {
            let (item, error) = listing.at(self.next)?;
            let at = u32::try_from(self.next).ok()?;
            self.next += 1;
            if !(self.entries_only && error) {
                return Some(ItemId {
                    item,
                    parent: self.parent,
                    at,
                });
            }
        }
    }
}

/// A listing kept, and when it was last listed.
type Kept = (Rc<Listing>, u64);

/// The listings kept, by directory number ([`super::dirs`]), the directories listed
/// longest ago dropped first once they hold more than [`KEPT`] children.
#[derive(Default)]
pub(super) struct Listings {
    by_dir: RefCell<Vec<Option<Kept>>>,
    /// Directory numbers by when they were last listed.
    order: RefCell<BTreeMap<u64, u32>>,
    tick: Cell<u64>,
    kept: Cell<usize>,
}

impl Listings {
    /// The listing of directory number `dir`, marked as listed now.
    pub(super) fn get(&self, dir: u32) -> Option<Rc<Listing>> {
        let mut by_dir = self.by_dir.borrow_mut();
        let (listing, when) = by_dir.get_mut(dir as usize)?.as_mut()?;
        let now = self.tick.get();
        if *when != now {
            let mut order = self.order.borrow_mut();
            order.remove(when);
            self.tick.set(now + 1);
            *when = now + 1;
            order.insert(now + 1, dir);
        }
        Some(Rc::clone(listing))
    }

    /// Keeps `listing` of directory number `dir`, dropping the oldest others while too many
    /// children are kept.
    pub(super) fn keep(&self, dir: u32, listing: Listing) -> Rc<Listing> {
        let listing = Rc::new(listing);
        let (mut by_dir, mut order) = (self.by_dir.borrow_mut(), self.order.borrow_mut());
        let mut kept = self.kept.get() + listing.items.len();
        while kept > KEPT {
            let Some((_, old)) = order.pop_first() else {
                break;
            };
            if let Some((l, _)) = by_dir.get_mut(old as usize).and_then(Option::take) {
                kept -= l.items.len();
            }
        }
        let now = self.tick.get() + 1;
        self.tick.set(now);
        let at = dir as usize;
        if by_dir.len() <= at {
            by_dir.resize_with(at + 1, || None);
        }
        if let Some((l, when)) = by_dir[at].replace((Rc::clone(&listing), now)) {
            order.remove(&when);
            kept -= l.items.len();
        }
        order.insert(now, dir);
        self.kept.set(kept);
        listing
    }

    /// The listing of directory number `dir` if it is kept, not marked as listed (an
    /// entry's facts or name).
    pub(super) fn peek<R>(&self, dir: u32, read: impl FnOnce(&Listing) -> R) -> Option<R> {
        let by_dir = self.by_dir.borrow();
        by_dir.get(dir as usize)?.as_ref().map(|(l, _)| read(l))
    }
}

impl<S: ReadAt> LazyTree<S> {
    /// What a view reads of entry `id`: kept in its directory's listing, or read.
    pub(super) fn entry_facts(&self, id: ItemId) -> Facts {
        let listed = self.listings.peek(id.parent, |l| l.facts(id.at, id.item));
        match listed.flatten() {
            Some(f) => f,
            None => self.facts(id.item),
        }
    }

    /// [`LazyTree::read_name`] through a small cache: the entries a view compares again and
    /// again are the few in its heap of the best so far.
    pub(super) fn compared_name(&self, id: ItemId, into: &mut Vec<u8>) {
        let at = slot(id.item, COMPARED);
        let mut cache = self.compared_names.borrow_mut();
        let cached = &mut cache[at];
        if cached.0 != id.item {
            self.entry_name_of(id, &mut cached.1);
            cached.0 = id.item;
        }
        into.clear();
        into.extend_from_slice(&cached.1);
    }

    /// The name of entry `id` (a copy): kept in its directory's listing, or read.
    pub(super) fn entry_name_of(&self, id: ItemId, into: &mut Vec<u8>) {
        let listed = self.listings.peek(id.parent, |l| {
            l.name(id.at, id.item).map(|name| {
                into.clear();
                into.extend_from_slice(name);
            })
        });
        if listed.flatten().is_none() {
            self.read_name(id.item, into);
        }
    }

    /// The name stored for `itemref` (a copy).
    pub(super) fn read_name(&self, itemref: u64, into: &mut Vec<u8>) {
        into.clear();
        if self.cached_name(itemref, into) {
            return;
        }
        let mut item = self.item.borrow_mut();
        match self.file.borrow_mut().item(itemref, &mut item) {
            Ok(()) => into.extend_from_slice(&item.name),
            Err(e) => self.fail(Stop::Damaged(e)),
        }
    }

    /// The name of `itemref` appended to `into` if the cache of parsed items has it.
    pub(super) fn cached_name(&self, itemref: u64, into: &mut Vec<u8>) -> bool {
        match self.fact_names.borrow().get(slot(itemref, FACTS)) {
            Some(named) if named.0 == itemref => {
                into.extend_from_slice(&named.1);
                true
            }
            _ => false,
        }
    }

    /// The children of directory `dir`, read once along its chain and kept
    /// ([`listing`]); `dir`'s totals checked against them the first time ([`super::verify`]),
    /// and each directory among them checked to claim fewer entries than `dir` (so that no
    /// chain of references leads back up).
    pub(super) fn list(&self, dir: u64) -> Rc<Listing> {
        let number = self.dirs.borrow_mut().number(dir);
        if let Some(l) = self.listings.get(number) {
            return l;
        }
        let f = self.facts(dir);
        let mut walk = Chain::new(dir, &f);
        let mut listing = Listing::new(dir);
        let mut name = Vec::new();
        let mut check = verify::Check::new(self, dir);
        while let Some((at, c)) = walk.next(self) {
            name.clear();
            // just parsed by the walk (none if it could not be)
            self.cached_name(at, &mut name);
            listing.push(at, &c, &name);
            check.entry(self, dir, at, &c);
            if c.etype == etype::ERR && !f.errors {
                // the errors found on demand would miss it
                self.fail(Stop::Load(UNRECORDED_ERROR));
            } else if c.etype == etype::DIR && c.items >= f.items {
                self.fail(damaged(format!(
                    "directory item {at:#x} claims {} entries, not fewer than the {} of the \
                     directory that lists it: the file's references loop",
                    c.items, f.items
                )));
            }
        }
        check.finish(self, dir, &f);
        self.listings.keep(number, listing.seal())
    }
}
