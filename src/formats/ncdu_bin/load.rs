//! ncdu 2's binary export loaded into the tree a walk builds, through the same [`Sink`] as
//! the JSON reader: from the root item down, each directory's children in the order they were
//! written (the chain of `prev` from its `sub` is collected first, an itemref a child, and
//! read backwards): the order ncdu and hogs scanned them in, so the name of a hard link that
//! counts is the one du counts.
//!
//! What each item becomes: a directory's `asize`/`dsize` its own sizes (the tree sums its
//! totals as after a walk, each hard link once, which is du's count; `cumasize`/`cumdsize`
//! and `shrasize`/`shrdsize` are ncdu's, counted its own way, and left to it); `items` is
//! checked against the entries really below the directory; `dev` a directory's device (its
//! parent's when absent); `rderr` true an unreadable directory; a `link` item (`ino`,
//! `nlink`) a hard link, counted once per `(dev, ino)`; `err` an entry that could not be
//! read (an error, no node, as in a walk); `pattern` a file left out by a pattern;
//! `otherfs`/`kernfs` a mount point not entered; `uid`/`gid`/`mode`/`mtime` as the JSON's.
//!
//! Every item is reached once at most (a bit per byte offset of each block read so far):
//! references that loop or share an item are refused, so a hostile file ends. And each
//! directory's stored totals (`cumdsize`, `cumasize`, which a view read on demand shows) must
//! be what its entries add up to, each hard link counted at its first name in the file as the
//! tree counts it (ncdu's totals of a directory that shares an inode with others, which count
//! it in each, lie between that sum and the sum with every name counted): otherwise the file
//! is refused, naming the directory, so the loaded view never shows other numbers than the
//! view on demand.

use rustc_hash::FxHashMap;

use super::spec::{etype, Item, OFFSET_BITS, OFFSET_MASK};
use super::{BinFile, ReadAt};
use crate::formats::builder::{bad_name, owner_of, Import, Keep, Meet, Metadata, Mount, Sink};
use crate::formats::ImportError;
use crate::render::escape::shown;
use crate::tree::{flags, EntryKind, Node};

/// Reads a whole binary export, keeping identities and extra facts only as asked.
pub fn read_binary<S: ReadAt>(src: S, keep: Keep) -> Result<Import, ImportError> {
    read_whole(src, keep, true)
}

/// [`read_binary`] of an export a streamed walk wrote and nothing wrote again in du's order
/// (`--diff OLD PATH`'s temporary export): a hard link's name that counts in its totals is
/// the first the walk's threads met, so they are checked as a merge's part's are.
pub fn read_binary_walked<S: ReadAt>(src: S, keep: Keep) -> Result<Import, ImportError> {
    read_whole(src, keep, false)
}

fn read_whole<S: ReadAt>(src: S, keep: Keep, exact: bool) -> Result<Import, ImportError> {
    let mut sink = Sink::new(keep);
    sink.sharing = None; // the format has no `--extents` values
    let mut loader = Loader::new(BinFile::open(src)?, &mut sink, None);
    loader.exact = exact;
    let meta = loader.run()?;
    Ok(Import {
        scan: sink.into_scan(),
        meta,
    })
}

/// Reads one binary part of a merge into `sink`, its root placed as `mount` says: item by
/// item, holding only the directories open and a few blocks.
pub fn read_binary_part<'a, S: ReadAt>(
    src: S,
    sink: &'a mut Sink,
    mount: Mount<'a>,
) -> Result<Metadata, ImportError> {
    sink.sharing = None;
    Loader::new(BinFile::open(src)?, sink, Some(mount)).run()
}

/// The name of a binary export's root (the path it was scanned at).
pub fn read_binary_root_name<S: ReadAt>(src: S) -> Result<Vec<u8>, ImportError> {
    let mut file = BinFile::open(src)?;
    let mut item = Item::default();
    let root = file.root();
    file.root_item(&mut item)?;
    if item.etype != etype::DIR || item.name.is_empty() || item.name.contains(&0) {
        return Err(damaged(format!(
            "the root item {root:#x} is not a directory with a name (a path)"
        )));
    }
    Ok(item.name)
}

/// A directory being read.
struct Open {
    seq: u32,
    dev: u64,
    /// The children still to read, the next last.
    kids: Vec<u64>,
    itemref: u64,
    /// What its `items` says is below it, and what has been found so far.
    claimed: Option<u64>,
    found: u64,
    /// Its merge position (a merge's part, where other parts go below).
    at: Option<usize>,
    /// Its name, and what its entries add up to against what it says they do.
    name: Vec<u8>,
    sums: Sums,
}

/// A directory's totals, stored and summed from its entries: (disk, apparent) each.
#[derive(Default, Clone, Copy)]
struct Sums {
    stored: (u64, u64),
    /// ncdu says it shares sizes with directories elsewhere.
    shares: bool,
    /// Its own sizes and its entries'.
    added: Added,
}

/// What entries add up to, (disk, apparent) each: each hard link counted at its first name
/// met, every name counted, and none.
#[derive(Default, Clone, Copy)]
struct Added {
    counted: (u64, u64),
    every: (u64, u64),
    no_link: (u64, u64),
}

fn plus(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0.saturating_add(b.0), a.1.saturating_add(b.1))
}

impl Open {
    fn new(seq: u32, dev: u64, itemref: u64, item: &Item, sums: Sums) -> Open {
        Open {
            seq,
            dev,
            kids: Vec::new(),
            itemref,
            claimed: item.items,
            found: 0,
            at: None,
            name: item.name.clone(),
            sums,
        }
    }
}

impl Added {
    /// What an entry that is no directory adds, its flags `f` and sizes (disk, apparent).
    fn of_entry(f: u8, sizes: (u64, u64)) -> Added {
        let every = match f & (flags::FILTERED | flags::OTHER_FS) {
            0 => sizes,
            _ => (0, 0),
        };
        let unless = |flag: u8| if f & flag == 0 { every } else { (0, 0) };
        Added {
            counted: unless(flags::DUPLICATE),
            every,
            no_link: unless(flags::HARDLINK),
        }
    }

    fn all(sizes: (u64, u64)) -> Added {
        Added {
            counted: sizes,
            every: sizes,
            no_link: sizes,
        }
    }

    fn add(&mut self, a: Added) {
        self.counted = plus(self.counted, a.counted);
        self.every = plus(self.every, a.every);
        self.no_link = plus(self.no_link, a.no_link);
    }
}

impl Sums {
    /// A directory's, its own sizes `own` (disk, apparent).
    fn of_dir(item: &Item, own: (u64, u64)) -> Sums {
        Sums {
            stored: (item.cumdsize.unwrap_or(0), item.cumasize.unwrap_or(0)),
            shares: item.shrasize.unwrap_or(0) | item.shrdsize.unwrap_or(0) != 0,
            added: Added::all(own),
        }
    }

    /// Whether the stored totals are what the entries add up to: exactly, or, where the file
    /// says the names that count are not the first met (ncdu's shared sizes: it counts an
    /// inode in every directory that holds a name; a merge's part, whose names were met in
    /// another order), within what no name and every name of each hard link add up to.
    fn agree(&self, exact: bool) -> bool {
        let a = &self.added;
        let (lo, hi) = match exact && !self.shares {
            true => return self.stored == a.counted,
            false if self.shares => (a.counted, a.every),
            false => (a.no_link, a.every),
        };
        let within = |i: fn((u64, u64)) -> u64| (i(lo)..=i(hi)).contains(&i(self.stored));
        within(|p| p.0) && within(|p| p.1)
    }
}

struct Loader<'s, S> {
    file: BinFile<S>,
    sink: &'s mut Sink,
    /// The offsets reached in each block, a bit each.
    seen: FxHashMap<u32, Vec<u64>>,
    item: Item,
    mount: Option<Mount<'s>>,
    /// Hard links met (`link` items).
    hard_links: u64,
    /// Whether the stored totals count each hard link at its first name in the file.
    exact: bool,
}

/// What [`Loader::enter`] made of an item.
enum Entered {
    Dir(Open),
    /// An entry that is no directory, and what it adds to its directory's totals.
    Entry(Added),
}

fn damaged(msg: String) -> ImportError {
    ImportError::Format(msg)
}

impl<'s, S: ReadAt> Loader<'s, S> {
    fn new(file: BinFile<S>, sink: &'s mut Sink, mount: Option<Mount<'s>>) -> Self {
        Loader {
            file,
            sink,
            seen: FxHashMap::default(),
            item: Item::default(),
            hard_links: 0,
            exact: mount.is_none(),
            mount,
        }
    }

    fn run(mut self) -> Result<Metadata, ImportError> {
        let root = self.file.root();
        self.file.root_item(&mut self.item)?;
        self.read(root)?;
        if self.item.etype != etype::DIR {
            return Err(damaged(format!(
                "the root item {root:#x} is not a directory"
            )));
        }
        if self.item.name.contains(&0) {
            return Err(damaged("the root's name has a NUL byte in it".into()));
        }
        let Entered::Dir(mut first) = self.enter(None, root)? else {
            return Err(damaged(format!(
                "the root item {root:#x} is not a directory"
            )));
        };
        first.at = self.mount.as_ref().map(|m| m.at);
        first.kids = self.chain(self.item.sub)?;
        let mut open = vec![first];
        while let Some(top) = open.last_mut() {
            let Some(next) = top.kids.pop() else {
                self.close(&mut open)?;
                continue;
            };
            self.file.item(next, &mut self.item)?;
            top.found += 1;
            let parent = (top.seq, top.dev);
            let at = match self.meet(top.at)? {
                Meet::Plain => None,
                Meet::Descend(k) => Some(k),
                Meet::Skip => {
                    // left out whole: what it holds counts toward its parent's `items`, and
                    // its stored totals toward its parent's
                    top.found += self.item.items.unwrap_or(0);
                    top.sums
                        .added
                        .add(Added::all(Sums::of_dir(&self.item, (0, 0)).stored));
                    continue;
                }
                Meet::Fill(k) => {
                    top.found += self.item.items.unwrap_or(0);
                    if let Some(m) = self.mount.as_mut() {
                        m.graft.fill(self.sink, k)?;
                    }
                    continue;
                }
            };
            match self.enter(Some(parent), next)? {
                Entered::Dir(mut dir) => {
                    dir.at = at;
                    if self.item.etype == etype::DIR {
                        dir.kids = self.chain(self.item.sub)?;
                    }
                    open.push(dir);
                }
                Entered::Entry(added) => top.sums.added.add(added),
            }
        }
        Ok(Metadata {
            hard_links: self.hard_links,
            binary: true,
            ..Metadata::default()
        })
    }

    /// Closes the directory last opened, its claims checked: the entries below it and its
    /// stored totals.
    fn close(&mut self, open: &mut Vec<Open>) -> Result<(), ImportError> {
        let done = open.pop().expect("not empty");
        if let Some(claimed) = done.claimed.filter(|&c| c != done.found) {
            return Err(damaged(format!(
                "directory item {:#x} claims {claimed} entries below it, the file holds {}",
                done.itemref, done.found
            )));
        }
        if !done.sums.agree(self.exact) {
            let mut path = Vec::new();
            for dir in open.iter().chain([&done]) {
                if !path.is_empty() && path.last() != Some(&b'/') {
                    path.push(b'/');
                }
                path.extend_from_slice(&dir.name);
            }
            let s = done.sums;
            return Err(damaged(format!(
                "directory {} (item {:#x}) says it holds {} bytes on disk, {} apparent; its \
                 entries add up to {}, {}",
                shown(&path, true),
                done.itemref,
                s.stored.0,
                s.stored.1,
                s.added.counted.0,
                s.added.counted.1
            )));
        }
        if let Some(parent) = open.last_mut() {
            parent.found += done.found;
            parent.sums.added.add(done.sums.added);
        }
        if let (Some(at), Some(m)) = (done.at, self.mount.as_mut()) {
            m.graft.closing(self.sink, at)?;
        }
        self.sink.out.close();
        Ok(())
    }

    /// What a merge does with the item just read, in the directory at merge position `at`.
    fn meet(&mut self, at: Option<usize>) -> Result<Meet, ImportError> {
        let (Some(at), Some(m)) = (at, self.mount.as_mut()) else {
            return Ok(Meet::Plain);
        };
        let item = &self.item;
        let (kind, f) = kind_and_flags(item);
        let excluded = match item.etype {
            etype::OTHERFS | etype::KERNFS => Some(true),
            etype::ERR => None,
            _ => (f & flags::FILTERED != 0).then_some(false),
        };
        m.graft
            .meet(at, &item.name, kind == EntryKind::Dir, excluded)
    }

    /// Of a directory left out by a pattern (`left_out`) in a part of a merge, which no part
    /// filled (a part never written?): the name of the part's file, when the merge says so.
    fn unfilled_by(&self, left_out: bool) -> Option<Vec<u8>> {
        self.mount
            .as_ref()
            .filter(|_| left_out)
            .and_then(|m| m.graft.unfilled_by())
    }

    /// The children of a directory whose last child is `sub`: the last written first.
    fn chain(&mut self, sub: Option<u64>) -> Result<Vec<u64>, ImportError> {
        let mut kids = Vec::new();
        let mut next = sub;
        while let Some(itemref) = next {
            self.read(itemref)?;
            kids.push(itemref);
            next = self.item.prev;
        }
        Ok(kids)
    }

    /// Reads item `itemref` into `self.item`, refusing one reached before.
    fn read(&mut self, itemref: u64) -> Result<(), ImportError> {
        self.file.item(itemref, &mut self.item)?;
        let num = (itemref >> OFFSET_BITS) as u32;
        let len = self.file.block_len(num)?;
        let bits = self
            .seen
            .entry(num)
            .or_insert_with(|| vec![0; len.div_ceil(64)]);
        let off = (itemref & OFFSET_MASK) as usize;
        let (word, bit) = (off / 64, 1u64 << (off % 64));
        if bits[word] & bit != 0 {
            return Err(damaged(format!(
                "item {itemref:#x} is reached twice: the file's references loop"
            )));
        }
        bits[word] |= bit;
        Ok(())
    }

    /// Records the item just read, in the directory `parent` (sequence number, device), or as
    /// the root; returns it opened if it is a directory.
    fn enter(&mut self, parent: Option<(u32, u64)>, itemref: u64) -> Result<Entered, ImportError> {
        let item = &self.item;
        if parent.is_some() {
            if let Some(why) = bad_name(&item.name) {
                return Err(damaged(format!("item {itemref:#x} has {why}")));
            }
        }
        let (parent_seq, parent_dev) = parent.unwrap_or((0, 0));
        if item.etype == etype::ERR {
            self.sink.entry_failed(parent_seq, &item.name);
            return Ok(Entered::Entry(Added::default()));
        }
        if self.sink.count >= u32::MAX - 2 {
            return Err(damaged("too many entries (more than 4 billion)".into()));
        }
        self.sink.count += 1;
        let (kind, mut f) = kind_and_flags(item);
        // (a directory left out is one too, of nothing: opened and closed at once)
        let is_dir = kind == EntryKind::Dir;
        let unfilled = self.unfilled_by(is_dir && parent.is_some() && f & flags::FILTERED != 0);
        if unfilled.is_some() {
            f |= flags::UNSCANNED; // shown as left out, with nothing below it
        }
        let dev = item.dev.filter(|_| is_dir).unwrap_or(parent_dev);
        let mut links = None;
        if item.etype == etype::LINK && !is_dir {
            self.hard_links += 1;
            let (linked, count) = self.sink.hard_link(dev, item.ino, item.nlink);
            f |= linked;
            links = count;
        }
        let (disk, apparent) = match item.etype {
            n if n < 0 => (0, 0),
            _ => (item.dsize.unwrap_or(0), item.asize.unwrap_or(0)),
        };
        let counted = f & (flags::FILTERED | flags::OTHER_FS) == 0;
        let added = Added::of_entry(f, (disk, apparent));
        self.sink.check_time_of(counted, item.mtime.is_some())?;
        let mtime = i64::try_from(item.mtime.unwrap_or(0)).unwrap_or(i64::MAX);
        let node = Node::new(kind, disk, apparent, mtime, f);
        let extra = owner_of(item.uid, item.gid, item.mode);
        let key = (dev, item.ino.unwrap_or(0));
        let mount_name = self.mount.as_ref().and_then(|m| m.name);
        let seq = match (parent, is_dir) {
            (None, _) => match mount_name {
                Some(name) => self.sink.out.open_dir(node, name, key, extra),
                None => {
                    self.sink.out.root(item.name.clone(), node, key, extra);
                    0
                }
            },
            (Some(_), true) => {
                let seq = self.sink.out.open_dir(node, &item.name, key, extra);
                if let Some(by) = unfilled {
                    self.sink.unfilled(seq, &item.name, by);
                }
                seq
            }
            (Some(_), false) => {
                self.sink.out.add(node, &item.name, key, extra, links);
                return Ok(Entered::Entry(added));
            }
        };
        if f & flags::UNREADABLE != 0 {
            self.sink.dir_unreadable(seq);
        }
        let sums = Sums::of_dir(item, (disk, apparent));
        Ok(Entered::Dir(Open::new(seq, dev, itemref, item, sums)))
    }
}

/// What an item other than an error (`err`) is in the tree: its kind and its flags (a hard
/// link's, which depend on the other names met, aside).
pub(crate) fn kind_and_flags(item: &Item) -> (EntryKind, u8) {
    let mut f = 0;
    let kind = match (item.etype, item.mode) {
        (etype::DIR, _) => EntryKind::Dir,
        (etype::REG | etype::NONREG | etype::LINK, Some(mode)) => kind_of_mode(mode),
        (etype::REG | etype::LINK, None) => EntryKind::File,
        (etype::OTHERFS | etype::KERNFS, _) => {
            f |= flags::OTHER_FS;
            EntryKind::File
        }
        (n, mode) if n < 0 => {
            // a pattern, or a kind of exclusion not known yet; hogs writes the type of a
            // directory left out (a part of a split scan may fill it)
            f |= flags::FILTERED;
            match mode.map(kind_of_mode) {
                Some(EntryKind::Dir) => EntryKind::Dir,
                _ => EntryKind::File,
            }
        }
        _ => EntryKind::Other,
    };
    if item.etype == etype::DIR && item.rderr == Some(true) {
        f |= flags::UNREADABLE;
    }
    (kind, f)
}

fn kind_of_mode(mode: u64) -> EntryKind {
    match mode & 0o170000 {
        0o040000 => EntryKind::Dir,
        0o100000 => EntryKind::File,
        0o120000 => EntryKind::Symlink,
        _ => EntryKind::Other,
    }
}
