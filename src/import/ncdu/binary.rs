//! ncdu 2's binary export loaded into the tree a walk builds, through the same [`Sink`] as
//! the JSON reader: from the root item down, each directory's children by following `prev`
//! from its `sub` (the last child written first, as ncdu lists them; hogs writes them last
//! first, so its own exports come back in the order they were scanned).
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
//! references that loop or share an item are refused, so a hostile file ends.

use rustc_hash::FxHashMap;

use super::*;
use crate::export::ncdu_bin::format::{etype, Item, OFFSET_BITS, OFFSET_MASK};
use crate::import::ncdu_bin::{BinFile, ReadAt};

/// Reads a whole binary export, keeping identities and extra facts only as asked.
pub fn read_binary<S: ReadAt>(src: S, keep: Keep) -> Result<Import, ImportError> {
    let mut sink = Sink::new(keep);
    sink.sharing = None; // the format has no `--extents` values
    let mut loader = Loader {
        file: BinFile::open(src)?,
        sink: &mut sink,
        seen: FxHashMap::default(),
        item: Item::default(),
    };
    loader.run()?;
    Ok(Import {
        scan: sink.into_scan(),
        meta: Metadata::default(),
    })
}

/// A directory being read.
struct Open {
    seq: u32,
    dev: u64,
    /// The next child to read (the one written before the last read).
    next: Option<u64>,
    itemref: u64,
    /// What its `items` says is below it, and what has been found so far.
    claimed: Option<u64>,
    found: u64,
}

struct Loader<'s, S> {
    file: BinFile<S>,
    sink: &'s mut Sink,
    /// The offsets reached in each block, a bit each.
    seen: FxHashMap<u32, Vec<u64>>,
    item: Item,
}

fn damaged(msg: String) -> ImportError {
    ImportError::Format(msg)
}

impl<S: ReadAt> Loader<'_, S> {
    fn run(&mut self) -> Result<(), ImportError> {
        let root = self.file.root();
        self.read(root)?;
        if self.item.etype != etype::DIR {
            return Err(damaged(format!(
                "the root item {root:#x} is not a directory"
            )));
        }
        if self.item.name.contains(&0) {
            return Err(damaged("the root's name has a NUL byte in it".into()));
        }
        let mut open = vec![self.enter(None, root)?.expect("a directory")];
        while let Some(top) = open.last_mut() {
            let Some(next) = top.next else {
                let done = open.pop().expect("not empty");
                if let Some(claimed) = done.claimed.filter(|&c| c != done.found) {
                    return Err(damaged(format!(
                        "directory item {:#x} claims {claimed} entries below it, the file holds {}",
                        done.itemref, done.found
                    )));
                }
                if let Some(parent) = open.last_mut() {
                    parent.found += done.found;
                }
                self.sink.out.close();
                continue;
            };
            self.read(next)?;
            top.next = self.item.prev;
            top.found += 1;
            let parent = (top.seq, top.dev);
            if let Some(dir) = self.enter(Some(parent), next)? {
                open.push(dir);
            }
        }
        Ok(())
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
    fn enter(
        &mut self,
        parent: Option<(u32, u64)>,
        itemref: u64,
    ) -> Result<Option<Open>, ImportError> {
        let item = &self.item;
        if parent.is_some() {
            if let Some(why) = bad_name(&item.name) {
                return Err(damaged(format!("item {itemref:#x} has {why}")));
            }
        }
        let (parent_seq, parent_dev) = parent.unwrap_or((0, 0));
        if item.etype == etype::ERR {
            let name = item.name.clone().into_boxed_slice();
            self.sink.failed.push((parent_seq, name));
            return Ok(None);
        }
        if self.sink.count >= u32::MAX - 2 {
            return Err(damaged("too many entries (more than 4 billion)".into()));
        }
        self.sink.count += 1;
        let is_dir = item.etype == etype::DIR;
        let dev = item.dev.filter(|_| is_dir).unwrap_or(parent_dev);
        let mut f = 0;
        let kind = match (item.etype, item.mode) {
            (etype::DIR, _) => EntryKind::Dir,
            (etype::REG | etype::NONREG | etype::LINK, Some(mode)) => kind_of_mode(mode),
            (etype::REG | etype::LINK, None) => EntryKind::File,
            (etype::OTHERFS | etype::KERNFS, _) => {
                f |= flags::OTHER_FS;
                EntryKind::File
            }
            (n, _) if n < 0 => {
                f |= flags::FILTERED; // a pattern, or a kind of exclusion not known yet
                EntryKind::File
            }
            _ => EntryKind::Other,
        };
        if is_dir && item.rderr == Some(true) {
            f |= flags::UNREADABLE;
        }
        let mut links = None;
        if item.etype == etype::LINK && !is_dir {
            f |= flags::HARDLINK;
            if let Some(ino) = item.ino {
                if !self.sink.links_seen.insert((dev, ino)) {
                    f |= flags::DUPLICATE;
                }
            }
            if let (Some(n), true) = (item.nlink, self.sink.keep.identity) {
                links = Some(u32::try_from(n).unwrap_or(u32::MAX));
            }
        }
        let (disk, apparent) = match item.etype {
            n if n < 0 => (0, 0),
            _ => (item.dsize.unwrap_or(0), item.asize.unwrap_or(0)),
        };
        let counted = f & (flags::FILTERED | flags::OTHER_FS) == 0;
        self.sink.check_time_of(counted, item.mtime.is_some())?;
        let mtime = i64::try_from(item.mtime.unwrap_or(0)).unwrap_or(i64::MAX);
        let node = Node::new(kind, disk, apparent, mtime, f);
        let extra = match (item.uid, item.gid, item.mode) {
            (Some(uid), Some(gid), Some(mode)) => Some(StatExtra {
                uid: uid as u32,
                gid: gid as u32,
                mode: mode as u32,
                ..StatExtra::default()
            }),
            _ => None,
        };
        let key = (dev, item.ino.unwrap_or(0));
        let seq = match (parent, is_dir) {
            (None, _) => {
                self.sink.out.root(item.name.clone(), node, key, extra);
                0
            }
            (Some(_), true) => self.sink.out.open_dir(node, &item.name, key, extra),
            (Some(_), false) => {
                self.sink.out.add(node, &item.name, key, extra, links);
                return Ok(None);
            }
        };
        if f & flags::UNREADABLE != 0 {
            self.sink.unreadable.push(seq);
        }
        Ok(Some(Open {
            seq,
            dev,
            next: item.sub,
            itemref,
            claimed: item.items,
            found: 0,
        }))
    }
}

fn kind_of_mode(mode: u64) -> EntryKind {
    match mode & 0o170000 {
        0o040000 => EntryKind::Dir,
        0o100000 => EntryKind::File,
        0o120000 => EntryKind::Symlink,
        _ => EntryKind::Other,
    }
}

/// What is wrong with a name below the root, if anything.
fn bad_name(n: &[u8]) -> Option<&'static str> {
    Some(if n.len() > NAME_MAX {
        "a name longer than 255 bytes"
    } else if n.contains(&b'/') {
        "a name with '/' in it"
    } else if n.contains(&0) {
        "a name with a NUL byte in it"
    } else if n == b"." || n == b".." {
        "the name '.' or '..'"
    } else {
        return None;
    })
}
