//! A walk streamed into a [`BinWriter`] ([`crate::walk::walk_streamed`]): the entries of a
//! directory are written as soon as it is listed, the directory itself once its last
//! subdirectory is written, with the sums of what is below it. Held meanwhile: a small record
//! per directory still open, and the inodes of the hard-linked files met (the first name met
//! counts, the others are written as ncdu writes further names of an inode), so memory
//! follows the directories being walked, not the tree.
//!
//! A directory's children are written in the order it listed them, as a walk into a tree
//! stores them: an entry listed after a subdirectory still being walked waits for it (in
//! `Open::queue`). A reader then meets the names of an inode in the order du does, and counts
//! the one du counts.
//!
//! Items are laid out in blocks under the lock, but a block that fills up is compressed and
//! written after it is released (blocks may lie in the file in any order), so the other
//! threads go on walking meanwhile.

use std::collections::hash_map::Entry;
use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::{Mutex, MutexGuard, PoisonError};

use rustc_hash::FxHashMap;

use super::spec::{etype, Item};
use super::tree::{dir_item, leaf_item, Below};
use super::{compressor, BinWriter, Block, Filler, Output};
use crate::tree::{flags, LinkKey, Node, NodeId, StatExtra};
use crate::walk::{DirSink, Facts};

/// The parent of the root.
const NONE: NodeId = NodeId::MAX;

/// A directory still open: listed or not, with subdirectories not yet written.
struct Open {
    name: Box<[u8]>,
    parent: NodeId,
    node: Node,
    dev: u64,
    extra: Option<StatExtra>,
    below: Below,
    /// Its own task, and each subdirectory, until they are written.
    pending: u32,
    /// Its position among its parent's children.
    seq: u64,
    /// Which directory opened it is, of all the walk's (its id is reused once it is written).
    serial: u64,
    /// Children listed and not yet written, in order, from position `front`; `next` is the
    /// position of the next child listed.
    queue: VecDeque<Waiting>,
    front: u64,
    next: u64,
}

/// A child waiting for the subdirectories listed before it. Small (a leaf boxed): each
/// directory open holds a queue of them from its first subdirectory on, and a 20,000-deep
/// tree holds 20,000 queues.
enum Waiting {
    Leaf(Box<Leaf>),
    Failed(Box<[u8]>),
    /// A subdirectory: its item once it is closed.
    Dir(Option<Box<Item>>),
    /// A subdirectory closed that is not written: a name of a directory walked under another
    /// (-L), which counts nothing, as in du and in a walk's views.
    Repeated,
}

/// A non-directory waiting.
struct Leaf {
    node: Node,
    name: Box<[u8]>,
    facts: Facts,
}

/// The block being filled and the open directories, under one lock.
struct State {
    /// None once writing failed.
    fill: Option<Filler>,
    /// Blocks filled, to be written once the lock is released.
    full: Vec<Block>,
    failed: Option<io::Error>,
    /// Open directories by id; the ids of closed ones are reused (`free`).
    open: Vec<Option<Open>>,
    free: Vec<NodeId>,
    /// The inodes of hard-linked files whose counted name is written, and the
    /// [`Open::serial`] of the directory that holds it.
    links: FxHashMap<LinkKey, u64>,
    /// A further name of one of them was written in another directory: the name that counts
    /// is the first the threads met, not always du's (see [`WalkWriter::relinked`]). (In one
    /// directory its names are written in the order listed: the first counts, as in du.)
    relinked: bool,
    /// Directories opened so far ([`Open::serial`]).
    opened: u64,
    /// The root's itemref once written; whether the root was not a directory.
    root: Option<u64>,
    root_not_dir: bool,
    item: Item,
}

/// What a streamed walk writes into: see the module's doc.
pub struct WalkWriter<W: Write> {
    state: Mutex<State>,
    output: Mutex<Output<W>>,
    /// Compressors free for a thread to take.
    zstd: Mutex<Vec<zstd::bulk::Compressor<'static>>>,
    /// The name the root is written with (the absolute path; a walk's path is as typed).
    root_name: Vec<u8>,
    extended: bool,
}

/// How a streamed export ended.
pub enum WalkEnd<W> {
    Written(W),
    /// The path given is not a directory: nothing written (the format needs one).
    NotADirectory,
    /// The path given could not be read at all (its error was reported).
    NoRoot,
}

impl<W: Write + Send> WalkWriter<W> {
    /// `root_name`: the name of the root item; `extended`: owners, modes and mtimes written.
    pub fn new(out: BinWriter<W>, root_name: Vec<u8>, extended: bool) -> Self {
        WalkWriter {
            state: Mutex::new(State {
                fill: Some(out.fill),
                full: Vec::new(),
                failed: None,
                open: Vec::new(),
                free: Vec::new(),
                links: FxHashMap::default(),
                relinked: false,
                opened: 0,
                root: None,
                root_not_dir: false,
                item: Item::default(),
            }),
            output: Mutex::new(out.out),
            zstd: Mutex::new(vec![out.zstd]),
            root_name,
            extended,
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Compresses and writes the blocks filled under the lock `s`, released first.
    fn release(&self, mut s: MutexGuard<'_, State>) {
        let full = std::mem::take(&mut s.full);
        drop(s);
        for block in full {
            if let Err(e) = self.write_block(&block) {
                self.state().fail(e);
            }
        }
    }

    fn write_block(&self, block: &Block) -> io::Result<()> {
        let pool = || self.zstd.lock().unwrap_or_else(PoisonError::into_inner);
        let mut zstd = match pool().pop() {
            Some(zstd) => zstd,
            None => compressor()?,
        };
        let frame = block.compress(&mut zstd);
        pool().push(zstd);
        let mut output = self.output.lock().unwrap_or_else(PoisonError::into_inner);
        output.frame(block.num, &frame?)
    }

    /// Whether a hard-linked file was met at names in two directories. The name that counts is then
    /// the first the threads met, which need not be the first of a depth-first walk in
    /// directory order (du's, and what an import of the file counts): the export is to be
    /// written again from itself in that order ([`crate::app`] does, through the merge).
    pub fn relinked(&self) -> bool {
        self.state().relinked
    }

    /// Writes the index once the walk is over and gives the output back.
    pub fn finish(self) -> io::Result<WalkEnd<W>> {
        let mut state = self
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(e) = state.failed {
            return Err(e);
        }
        if state.root_not_dir {
            return Ok(WalkEnd::NotADirectory);
        }
        let (Some(mut fill), Some(root)) = (state.fill, state.root) else {
            return Ok(WalkEnd::NoRoot);
        };
        let last = fill.take()?;
        let mut output = self
            .output
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let mut zstd = self
            .zstd
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let mut zstd = match zstd.pop() {
            Some(zstd) => zstd,
            None => compressor()?,
        };
        for block in state.full.drain(..).chain(last) {
            output.block(&mut zstd, &block)?;
        }
        output.finish(root).map(WalkEnd::Written)
    }

    /// Writes the item made into directory `dir`; `skipped`: its sizes count elsewhere.
    fn write_child(&self, s: &mut State, dir: NodeId, skipped: bool) {
        let Some(Some(open)) = s.open.get(dir as usize) else {
            return;
        };
        s.item.prev = open.below.last;
        let Some(itemref) = s.put() else { return };
        if let Some(Some(open)) = s.open.get_mut(dir as usize) {
            open.below.child(itemref, &s.item, skipped);
        }
    }

    /// A non-directory (or a directory not entered) of `dir`; a further name of a hard-linked
    /// inode is written as one, its sizes not counted in the sums.
    fn leaf(&self, s: &mut State, dir: NodeId, mut node: Node, name: &[u8], f: &Facts) {
        let linked = node.has(flags::HARDLINK);
        if linked {
            let serial = s
                .open
                .get(dir as usize)
                .and_then(Option::as_ref)
                .map(|o| o.serial);
            let serial = serial.unwrap_or(u64::MAX);
            match s.links.entry(f.identity) {
                Entry::Vacant(first) => {
                    first.insert(serial);
                }
                Entry::Occupied(counted) => {
                    node.set_flag(flags::DUPLICATE);
                    s.relinked |= *counted.get() != serial;
                }
            }
        }
        let ino = Some(f.identity.1).filter(|&ino| linked && ino != 0);
        let nlink = u32::try_from(f.links).unwrap_or(u32::MAX);
        let extra = Some(f.extra).filter(|_| self.extended);
        leaf_item(name, &node, ino, nlink, extra, self.extended, &mut s.item);
        self.write_child(s, dir, !node.is_counted());
    }

    /// A new open directory in `parent` (or the root): its id.
    fn open_dir(
        &self,
        s: &mut State,
        parent: NodeId,
        name: &[u8],
        node: Node,
        f: &Facts,
    ) -> NodeId {
        let mut seq = 0;
        if let Some(Some(p)) = s.open.get_mut(parent as usize) {
            p.pending += 1;
            seq = p.next;
            p.next += 1;
            p.queue.push_back(Waiting::Dir(None));
        }
        s.opened += 1;
        let open = Open {
            seq,
            serial: s.opened,
            queue: VecDeque::new(),
            front: 0,
            next: 0,
            name: name.into(),
            parent,
            node,
            dev: f.identity.0,
            extra: Some(f.extra).filter(|_| self.extended),
            below: Below::default(),
            pending: 1,
        };
        match s.free.pop() {
            Some(id) => {
                s.open[id as usize] = Some(open);
                id
            }
            None => {
                s.open.push(Some(open));
                (s.open.len() - 1) as NodeId
            }
        }
    }

    /// A child of `dir` listed: written now if nothing listed before it waits, else queued.
    fn child(&self, s: &mut State, dir: NodeId, waiting: Waiting) {
        let Some(Some(open)) = s.open.get_mut(dir as usize) else {
            return;
        };
        open.next += 1;
        if open.queue.is_empty() {
            open.front += 1;
            self.write_waiting(s, dir, waiting);
        } else {
            open.queue.push_back(waiting);
        }
    }

    /// Writes a child that waited (or had no need to) into `dir`.
    fn write_waiting(&self, s: &mut State, dir: NodeId, waiting: Waiting) {
        match waiting {
            Waiting::Leaf(leaf) => {
                let Leaf { node, name, facts } = *leaf;
                self.leaf(s, dir, node, &name, &facts);
            }
            Waiting::Failed(name) => {
                s.item.clear();
                s.item.etype = etype::ERR;
                s.item.name.extend_from_slice(&name);
                self.write_child(s, dir, false);
            }
            Waiting::Dir(Some(item)) => {
                s.item = *item;
                self.write_child(s, dir, false);
                if let Some(Some(open)) = s.open.get_mut(dir as usize) {
                    open.pending -= 1;
                }
            }
            Waiting::Repeated => {
                if let Some(Some(open)) = s.open.get_mut(dir as usize) {
                    open.pending -= 1;
                }
            }
            Waiting::Dir(None) => {}
        }
    }

    /// Writes the children of `dir` at the head of its queue that no longer wait.
    fn drain(&self, s: &mut State, dir: NodeId) {
        loop {
            let Some(Some(open)) = s.open.get_mut(dir as usize) else {
                return;
            };
            if matches!(open.queue.front(), None | Some(Waiting::Dir(None))) {
                return;
            }
            let Some(waiting) = open.queue.pop_front() else {
                return;
            };
            open.front += 1;
            self.write_waiting(s, dir, waiting);
        }
    }

    /// `id`'s own task is over: when its subdirectories are written too, the directory is
    /// written into its parent, which may then close in turn (a loop up the parents).
    fn close(&self, s: &mut State, mut id: NodeId) {
        if let Some(Some(open)) = s.open.get_mut(id as usize) {
            open.pending -= 1;
        }
        loop {
            match s.open.get(id as usize) {
                Some(Some(open)) if open.pending == 0 => {}
                _ => return,
            }
            let Some(dir) = s.open[id as usize].take() else {
                return;
            };
            s.free.push(id);
            let parent_dev = s
                .open
                .get(dir.parent as usize)
                .and_then(|p| p.as_ref())
                .map(|p| p.dev);
            let (item, ext) = (&mut s.item, self.extended);
            if dir.parent == NONE {
                if !dir.node.is_dir() {
                    s.root_not_dir = true;
                    return;
                }
                dir_item(
                    &self.root_name,
                    &dir.node,
                    Some(dir.dev),
                    &dir.below,
                    dir.extra,
                    ext,
                    item,
                );
                s.root = s.put();
                return;
            }
            let repeated = dir.node.has(flags::DUPLICATE);
            if dir.node.has(flags::FILTERED | flags::OTHER_FS) {
                leaf_item(&dir.name, &dir.node, None, 1, dir.extra, ext, item);
            } else {
                let dev = Some(dir.dev).filter(|&d| parent_dev != Some(d));
                dir_item(&dir.name, &dir.node, dev, &dir.below, dir.extra, ext, item);
            }
            id = dir.parent;
            let Some(Some(parent)) = s.open.get_mut(id as usize) else {
                return;
            };
            let at = dir.seq.wrapping_sub(parent.front);
            if let Some(slot) = usize::try_from(at)
                .ok()
                .and_then(|at| parent.queue.get_mut(at))
            {
                *slot = match repeated {
                    true => Waiting::Repeated,
                    false => Waiting::Dir(Some(Box::new(std::mem::take(&mut s.item)))),
                };
            }
            self.drain(s, id);
        }
    }
}

impl State {
    /// Lays out `self.item`: its itemref, or None once writing failed.
    fn put(&mut self) -> Option<u64> {
        let fill = self.fill.as_mut()?;
        let laid = fill.make_room(&self.item).and_then(|block| {
            self.full.extend(block);
            fill.push(&self.item)
        });
        laid.map_err(|e| self.fail(e)).ok()
    }

    /// Writing failed: the first error is kept, and nothing more is written.
    fn fail(&mut self, e: io::Error) {
        self.failed.get_or_insert(e);
        self.fill = None;
    }
}

impl<W: Write + Send> DirSink for WalkWriter<W> {
    fn root(&self, path: &[u8], node: Node, facts: &Facts) -> NodeId {
        let mut s = self.state();
        self.open_dir(&mut s, NONE, path, node, facts)
    }

    fn listed(
        &self,
        dir: NodeId,
        chunks: &[(&[Node], &[u8])],
        facts: &[Facts],
        failed: &[(Box<[u8]>, i32)],
        ids: &mut Vec<NodeId>,
    ) {
        ids.clear();
        let mut s = self.state();
        let mut k = 0;
        for &(nodes, names) in chunks {
            for node in nodes {
                let f = facts.get(k).copied().unwrap_or_default();
                k += 1;
                let name = node.local_name(names);
                if node.is_dir() && !node.has(flags::FILTERED | flags::OTHER_FS) {
                    let id = self.open_dir(&mut s, dir, name, node.clone(), &f);
                    ids.push(id);
                    continue;
                }
                ids.push(NONE);
                let queued = s.open.get(dir as usize).and_then(|o| o.as_ref());
                if queued.is_some_and(|o| o.queue.is_empty()) {
                    // (the common case, written at once: no copy of the name)
                    if let Some(Some(open)) = s.open.get_mut(dir as usize) {
                        open.next += 1;
                        open.front += 1;
                    }
                    self.leaf(&mut s, dir, node.clone(), name, &f);
                } else {
                    let (node, name, facts) = (node.clone(), name.into(), f);
                    let leaf = Box::new(Leaf { node, name, facts });
                    self.child(&mut s, dir, Waiting::Leaf(leaf));
                }
            }
        }
        for (name, _) in failed {
            self.child(&mut s, dir, Waiting::Failed(name.clone()));
        }
        self.release(s);
    }

    fn set_own(&self, dir: NodeId, disk: u64, apparent: u64, mtime: i64, facts: &Facts) {
        let extended = self.extended;
        if let Some(Some(open)) = self.state().open.get_mut(dir as usize) {
            open.node.disk = disk;
            open.node.apparent = apparent;
            open.node.mtime = mtime;
            open.dev = facts.identity.0;
            open.extra = Some(facts.extra).filter(|_| extended);
        }
    }

    fn set_flag(&self, dir: NodeId, flag: u8) {
        if let Some(Some(open)) = self.state().open.get_mut(dir as usize) {
            open.node.set_flag(flag);
        }
    }

    fn path(&self, dir: NodeId) -> Vec<u8> {
        let s = self.state();
        let mut chain = Vec::new();
        let mut id = dir;
        while let Some(Some(open)) = s.open.get(id as usize) {
            chain.push(&open.name);
            id = open.parent;
        }
        let mut path = Vec::new();
        for (i, name) in chain.iter().rev().enumerate() {
            if i > 0 && path.last() != Some(&b'/') {
                path.push(b'/');
            }
            path.extend_from_slice(name);
        }
        path
    }

    fn done(&self, dir: NodeId) {
        let mut s = self.state();
        self.close(&mut s, dir);
        self.release(s);
    }
}
