//! An ncdu 2 binary export read as a tree on demand ([`LazyTree`], a [`TreeView`]): the index
//! is read at open, then only the blocks that hold what a view asks of (through
//! [`BinFile`]'s small cache), each item parsed when asked. Sizes are the stored cumulative
//! ones (`cumdsize`, `cumasize`), which hogs's writer sums as the tree does; entries are
//! counted below the directories a view asks of.
//!
//! What the stored totals cannot answer exactly as the whole import would (a hard link
//! whose directory does not add up, ncdu's shared sizes, an error its directory does not
//! record, times), and damage in the file, stop the view: from then on no directory lists
//! anything, so the view ends soon, and [`LazyTree::outcome`] says why, so the caller loads the
//! file whole or reports the damage, and never prints what was rendered. An entry's answers
//! never depend on whether the view stopped: the views sort with them, and std's sort may
//! panic on comparisons that change.
//!
//! What is kept is bounded by what the view shows: the parent of each directory listed (an
//! itemref does not say where it is listed), the names of the rows shown ([`names`]), a
//! fixed cache of parsed items, and a count of entries per directory asked.

mod below;
mod chain;
mod dirs;
mod listing;
mod names;
mod verify;

use std::cell::RefCell;
use std::cmp::Ordering;

use rustc_hash::{FxHashMap, FxHashSet};

use super::spec::{etype, Item};
use super::{kind_and_flags, BinFile, ReadAt};
use crate::formats::builder::bad_name;
use crate::formats::ImportError;
use crate::tree::ids::{EntryId, Sparse};
use crate::tree::{EntryKind, TreeView};
use crate::vocab::SizeMode;
use dirs::Dirs;
use listing::{Children, Listings};
use names::Names;

/// No item: the parent of a root, the total's itemref.
const NONE: u64 = u64::MAX;

/// Items parsed and kept, by itemref (a direct-mapped cache).
const FACTS: usize = 4096;

/// Names compared and kept, by itemref (a direct-mapped cache).
const COMPARED: usize = 1024;

/// The most directories whose entry counts are kept.
const COUNTS: usize = 1 << 16;

/// No directory: the parent of a root, and of the total.
const NO_DIR: u32 = u32::MAX;

/// An entry: its itemref, the number of the directory that lists it ([`dirs`]; `NO_DIR` for
/// the root) and where it is in that directory's children (0 for the root).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct ItemId {
    item: u64,
    parent: u32,
    at: u32,
}

impl ItemId {
    /// The id of directory `item` seen as a root (where it is listed unknown).
    fn root_of(item: u64) -> ItemId {
        ItemId {
            item,
            parent: NO_DIR,
            at: 0,
        }
    }
}

const TOTAL: ItemId = ItemId {
    item: NONE,
    parent: NO_DIR,
    at: NO_DIR,
};

/// Tables by entry, for the views that keep them (the comparison): hashed, as itemrefs are
/// offsets. Its "none" is no entry's and not the total's (an entry's item is never `NONE`).
impl EntryId for ItemId {
    const NONE: ItemId = ItemId {
        item: NONE,
        parent: 0,
        at: 0,
    };
    type Map<V: EntryId> = Sparse<ItemId, V>;
    type Set = FxHashSet<ItemId>;
}

/// Why a view hands the run to the whole import.
const UNSURE_LINK: &str = "a hard link whose name that counts only the whole file tells";
const UNRECORDED_ERROR: &str = "an error its directory does not record";

/// Why a view of a [`LazyTree`] stopped.
#[derive(Debug)]
pub enum Stop {
    /// The file is damaged.
    Damaged(ImportError),
    /// The view asked what only the whole import answers exactly: why.
    Load(&'static str),
}

/// What a view reads of one item.
#[derive(Clone, Copy, Debug)]
struct Facts {
    etype: i64,
    kind: EntryKind,
    flags: u8,
    disk: u64,
    apparent: u64,
    /// A directory: how many entries below it the file claims.
    items: u64,
    sub: Option<u64>,
    prev: Option<u64>,
    /// A directory whose listing, or something below it, could not be read.
    errors: bool,
    /// A directory ncdu says shares sizes with hard links elsewhere.
    shares: bool,
    /// A directory's own sizes (disk, apparent).
    own: (u64, u64),
    /// The entry's own modification time (0 when not stored).
    mtime: i64,
}

const NOTHING: Facts = Facts {
    etype: etype::REG,
    kind: EntryKind::File,
    flags: 0,
    disk: 0,
    apparent: 0,
    items: 0,
    sub: None,
    prev: None,
    errors: false,
    shares: false,
    own: (0, 0),
    mtime: 0,
};

/// An ncdu 2 binary export read on demand.
pub struct LazyTree<S> {
    file: RefCell<BinFile<S>>,
    item: RefCell<Item>,
    facts: RefCell<Vec<(u64, Facts)>>,
    /// The name of each item in `facts`, beside it: a comparison matches every name of a
    /// directory it reads, just after listing it (one parse an item, not two).
    fact_names: RefCell<Vec<(u64, Vec<u8>)>>,
    /// The directories listed, numbered, and the directory that lists each.
    dirs: RefCell<Dirs>,
    counts: RefCell<FxHashMap<u64, u64>>,
    /// Directories whose hard links are known to count, or not.
    links: RefCell<FxHashMap<u64, bool>>,
    /// The children of the directories listed last ([`listing`]).
    listings: Listings,
    /// Directories checked against their entries ([`verify`]).
    verified: verify::Verified,
    names: Names,
    compared_names: RefCell<Vec<(u64, Vec<u8>)>>,
    /// The two names being compared.
    compared: RefCell<(Vec<u8>, Vec<u8>)>,
    root: u64,
    root_name: Vec<u8>,
    root_facts: Facts,
    stop: RefCell<Option<Stop>>,
    /// Browsed (`hogs i`): damage is recorded, not a stop, and what the whole import would
    /// answer otherwise is answered with the stored values (see [`LazyTree::browse`]).
    browsing: bool,
    damage: RefCell<Damage>,
}

/// Damage met while browsing.
#[derive(Default)]
struct Damage {
    /// The first damage met: what the run reports at its end.
    first: Option<String>,
    /// Damage met since the view last asked ([`LazyTree::new_damage`]).
    unseen: Option<String>,
    /// What was said already: a damaged block is read again at each frame that shows it,
    /// and said once.
    said: FxHashSet<String>,
}

/// The most distinct damages remembered as said.
const SAID: usize = 256;

fn damaged(msg: String) -> Stop {
    Stop::Damaged(ImportError::Format(msg))
}

impl<S: ReadAt> LazyTree<S> {
    /// Opens the export: its index and its root, which must be a directory named by a path.
    pub fn open(src: S) -> Result<LazyTree<S>, Stop> {
        let mut file = BinFile::open(src).map_err(Stop::Damaged)?;
        let root = file.root();
        let mut item = Item::default();
        file.root_item(&mut item).map_err(Stop::Damaged)?;
        if item.etype != etype::DIR || item.name.is_empty() || item.name.contains(&0) {
            return Err(damaged(format!(
                "the root item {root:#x} is not a directory with a name (a path)"
            )));
        }
        if item.items.unwrap_or(0) >= u64::from(u32::MAX - 2) {
            return Err(damaged(format!(
                "directory item {root:#x} claims too many entries (more than 4 billion)"
            )));
        }
        let tree = LazyTree {
            file: RefCell::new(file),
            item: RefCell::new(Item::default()),
            facts: RefCell::new(vec![(NONE, NOTHING); FACTS]),
            fact_names: RefCell::new(vec![(NONE, Vec::new()); FACTS]),
            dirs: RefCell::default(),
            counts: RefCell::default(),
            links: RefCell::default(),
            listings: Listings::default(),
            verified: verify::Verified::default(),
            names: Names::new(),
            compared_names: RefCell::new(vec![(NONE, Vec::new()); COMPARED]),
            compared: RefCell::default(),
            root,
            root_facts: facts_of(&item),
            root_name: std::mem::take(&mut item.name),
            stop: RefCell::new(None),
            browsing: false,
            damage: RefCell::default(),
        };
        if tree.root_facts.shares {
            return Err(Stop::Load("ncdu's shared sizes of hard links"));
        }
        tree.dirs.borrow_mut().went_into(ItemId::root_of(root));
        Ok(tree)
    }

    /// Whether every answer given was whole: the reason it stopped otherwise.
    pub fn outcome(self) -> Result<(), Stop> {
        match self.stop.into_inner() {
            Some(stop) => Err(stop),
            None => Ok(()),
        }
    }

    /// The tree to be browsed (`hogs i`) rather than printed, or why only the whole import
    /// shows it as it is. The whole file is read once first (the entries of the root, which
    /// the header shows, need it anyway): every directory's hard links, shared sizes and
    /// errors checked as for a printed view, so that from then on the stored values are the
    /// whole import's. Damage found then, or met later while browsing, stops nothing: a
    /// damaged item or block is an entry of nothing (a chain of children ends there),
    /// recorded for [`LazyTree::new_damage`] and [`LazyTree::first_damage`], and the rest of
    /// the tree is answered as before. Times are each entry's own, as the loaded view's.
    pub fn browse(mut self) -> Result<LazyTree<S>, &'static str> {
        self.count(self.root);
        match self.stop.get_mut().take() {
            Some(Stop::Load(why)) => return Err(why),
            Some(Stop::Damaged(e)) => {
                self.browsing = true;
                self.fail(Stop::Damaged(e));
                // the root's count, not read again at every frame
                self.counts.get_mut().insert(self.root, 0);
            }
            None => self.browsing = true,
        }
        Ok(self)
    }

    /// Damage met while browsing since the last call, worded.
    pub fn new_damage(&self) -> Option<String> {
        self.damage.borrow_mut().unseen.take()
    }

    /// The first damage met while browsing, worded.
    pub fn first_damage(&self) -> Option<String> {
        self.damage.borrow().first.clone()
    }

    fn fail(&self, stop: Stop) {
        if self.browsing {
            if let Stop::Damaged(e) = stop {
                let mut d = self.damage.borrow_mut();
                let msg = e.to_string();
                d.first.get_or_insert_with(|| msg.clone());
                if d.said.len() < SAID && d.said.insert(msg.clone()) {
                    d.unseen = Some(msg);
                }
            }
            return;
        }
        self.stop.borrow_mut().get_or_insert(stop);
    }

    fn stopped(&self) -> bool {
        self.stop.borrow().is_some()
    }

    /// The item at `itemref`, parsed (once while it stays in the cache); [`NOTHING`] if it
    /// cannot be read.
    fn facts(&self, itemref: u64) -> Facts {
        if itemref == self.root {
            return self.root_facts;
        }
        let at = slot(itemref, FACTS);
        if let Some(&(_, f)) = self.facts.borrow().get(at).filter(|e| e.0 == itemref) {
            return f;
        }
        let mut item = self.item.borrow_mut();
        if let Err(e) = self.file.borrow_mut().item(itemref, &mut item) {
            self.fail(Stop::Damaged(e));
            return NOTHING;
        }
        if let Some(why) = bad_name(&item.name) {
            self.fail(damaged(format!("item {itemref:#x} has {why}")));
            return NOTHING;
        }
        let f = facts_of(&item);
        self.facts.borrow_mut()[at] = (itemref, f);
        let named = &mut self.fact_names.borrow_mut()[at];
        named.0 = itemref;
        named.1.clone_from(&item.name);
        f
    }

    /// [`LazyTree::facts`] of an entry a view shows, or stops where the stored totals do
    /// not say what the whole import would.
    fn shown(&self, id: ItemId) -> Facts {
        let f = match id == TOTAL {
            true => self.root_facts,
            false => self.entry_facts(id),
        };
        let why = match f.etype {
            etype::LINK
                if id.parent != NO_DIR && (self.browsing || self.links_count(self.dir(id))) =>
            {
                return Facts {
                    flags: f.flags | crate::tree::flags::HARDLINK,
                    ..f
                }
            }
            etype::LINK => UNSURE_LINK,
            _ if f.shares && !self.browsing => "ncdu's shared sizes of hard links",
            _ => return f,
        };
        self.fail(Stop::Load(why));
        NOTHING
    }
}

/// Where a direct-mapped cache of `len` slots keeps `itemref`.
fn slot(itemref: u64, len: usize) -> usize {
    (itemref ^ itemref >> 17) as usize % len
}

/// What a view reads of `item`.
fn facts_of(item: &Item) -> Facts {
    let is_dir = item.etype == etype::DIR;
    let (kind, flags) = match item.etype {
        etype::ERR => (EntryKind::File, 0),
        _ => kind_and_flags(item),
    };
    let (disk, apparent) = match item.etype {
        etype::DIR => (item.cumdsize.unwrap_or(0), item.cumasize.unwrap_or(0)),
        n if n < 0 => (0, 0),
        _ => (item.dsize.unwrap_or(0), item.asize.unwrap_or(0)),
    };
    let shares = item.shrasize.unwrap_or(0) | item.shrdsize.unwrap_or(0) != 0;
    Facts {
        etype: item.etype,
        kind,
        flags,
        disk,
        apparent,
        items: item.items.filter(|_| is_dir).unwrap_or(0),
        sub: item.sub.filter(|_| is_dir),
        prev: item.prev,
        errors: is_dir && item.rderr.is_some(),
        shares: is_dir && shares,
        own: match is_dir {
            true => (item.dsize.unwrap_or(0), item.asize.unwrap_or(0)),
            false => (0, 0),
        },
        mtime: item
            .mtime
            .map_or(0, |t| i64::try_from(t).unwrap_or(i64::MAX)),
    }
}

impl<S: ReadAt> TreeView for LazyTree<S> {
    type Id = ItemId;

    fn total(&self) -> ItemId {
        TOTAL
    }

    fn roots(&self) -> impl Iterator<Item = ItemId> + '_ {
        std::iter::once(ItemId::root_of(self.root))
    }

    fn name(&self, id: ItemId) -> &[u8] {
        match id {
            TOTAL => b"(total)",
            _ if id.item == self.root => &self.root_name,
            _ => self.entry_name(id),
        }
    }

    fn entry_name(&self, id: ItemId) -> &[u8] {
        self.names.get_or_insert(id.item, || {
            let mut name = Vec::new();
            self.entry_name_of(id, &mut name);
            name
        })
    }

    fn entry_name_into(&self, id: ItemId, out: &mut Vec<u8>) {
        self.entry_name_of(id, out);
    }

    fn cmp_entry_names(&self, a: ItemId, b: ItemId) -> Ordering {
        if a.parent == b.parent {
            let listed = self.listings.peek(a.parent, |l| {
                Some(l.name(a.at, a.item)?.cmp(l.name(b.at, b.item)?))
            });
            if let Some(order) = listed.flatten() {
                return order;
            }
        }
        let mut pair = self.compared.borrow_mut();
        let (first, second) = &mut *pair;
        self.compared_name(a, first);
        self.compared_name(b, second);
        first.cmp(&second)
    }

    fn kind(&self, id: ItemId) -> EntryKind {
        self.shown(id).kind
    }

    fn flags(&self, id: ItemId) -> u8 {
        self.shown(id).flags
    }

    fn size(&self, id: ItemId, mode: SizeMode) -> u64 {
        let f = self.shown(id);
        if f.etype == etype::DIR && matches!(mode, SizeMode::Disk | SizeMode::Apparent) {
            self.verify_shown(self.root_if_total(id));
        }
        match mode {
            SizeMode::Disk => f.disk,
            SizeMode::Apparent => f.apparent,
            SizeMode::Count if f.etype == etype::DIR => self.count(self.root_if_total(id)),
            SizeMode::Count => u64::from(f.flags & crate::tree::flags::UNCOUNTED == 0),
            SizeMode::Time => {
                self.fail(Stop::Load("times are not stored as totals"));
                0
            }
        }
    }

    fn mtime(&self, id: ItemId) -> i64 {
        if self.browsing {
            return self.shown(id).mtime;
        }
        self.fail(Stop::Load("times are not stored as totals"));
        0
    }

    fn parent(&self, id: ItemId) -> ItemId {
        if id.parent == NO_DIR {
            return TOTAL;
        }
        let dirs = self.dirs.borrow();
        let above = dirs.id(id.parent);
        above.unwrap_or_else(|| ItemId::root_of(dirs.item(id.parent)))
    }

    fn child_count(&self, id: ItemId) -> usize {
        match id {
            _ if self.stopped() => 0,
            TOTAL => 1,
            _ if self.shown(id).etype != etype::DIR => 0,
            _ => self.list(id.item).count,
        }
    }

    fn children(&self, id: ItemId) -> impl Iterator<Item = ItemId> + '_ {
        if id != TOTAL && !self.stopped() && self.shown(id).etype == etype::DIR {
            self.dirs.borrow_mut().went_into(id);
        }
        self.children_passing(id)
    }

    fn children_passing(&self, id: ItemId) -> impl Iterator<Item = ItemId> + '_ {
        let listing = match id {
            _ if self.stopped() => None,
            TOTAL => None,
            _ if self.shown(id).etype != etype::DIR => None,
            _ => Some(self.list(id.item)),
        };
        let root = (id == TOTAL && !self.stopped())
            .then(|| self.roots().next())
            .flatten();
        let parent = match &listing {
            Some(l) => self.dirs.borrow_mut().number(l.dir),
            None => NO_DIR,
        };
        root.into_iter().chain(Children {
            listing,
            parent,
            next: 0,
            entries_only: true,
        })
    }

    fn is_root(&self, id: ItemId) -> bool {
        id != TOTAL && id.parent == NO_DIR
    }
}

impl<S> LazyTree<S> {
    /// The itemref of the directory that lists `id` (`NONE` for a root).
    fn dir(&self, id: ItemId) -> u64 {
        self.dirs.borrow().item(id.parent)
    }

    fn root_if_total(&self, id: ItemId) -> u64 {
        if id == TOTAL {
            self.root
        } else {
            id.item
        }
    }
}

#[cfg(test)]
mod tests;
