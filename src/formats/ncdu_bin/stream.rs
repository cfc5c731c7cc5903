//! Entries given depth-first (a directory, then what is in it, then its close), as a reader
//! of an export meets them, into a [`BinWriter`]: each entry but a directory is written at
//! once, a directory when it closes. Only the directories still open are held, so a merge of
//! exports into one binary export takes memory for their depth, not their size.

use std::io::{self, Write};

use super::spec::{etype, Item};
use super::tree::{dir_item, leaf_item, Below};
use super::BinWriter;
use crate::tree::{flags, Node, StatExtra};

/// A directory opened and not yet closed.
struct Open {
    name: Vec<u8>,
    node: Node,
    dev: u64,
    extra: Option<StatExtra>,
    below: Below,
}

/// Writes entries given depth-first. Writing errors are kept: the first is returned by
/// [`StreamWriter::finish`], and nothing more is written after it.
pub struct StreamWriter<W: Write> {
    out: Option<BinWriter<W>>,
    failed: Option<io::Error>,
    open: Vec<Open>,
    /// Directories below one written as a special (left out): their contents are not.
    hidden: usize,
    root: Option<u64>,
    extended: bool,
    item: Item,
}

impl<W: Write> StreamWriter<W> {
    /// `extended`: owners, modes and mtimes are written (ncdu's `-e`).
    pub fn new(out: BinWriter<W>, extended: bool) -> Self {
        StreamWriter {
            out: Some(out),
            failed: None,
            open: Vec::new(),
            hidden: 0,
            root: None,
            extended,
            item: Item::default(),
        }
    }

    /// Opens a directory in the one open (or the root, when none is); `key` its device and
    /// inode number.
    pub fn open_dir(&mut self, node: Node, name: &[u8], key: (u64, u64), extra: Option<StatExtra>) {
        if self.hidden > 0 || (node.has(flags::FILTERED | flags::OTHER_FS) && !self.open.is_empty())
        {
            if self.hidden == 0 {
                self.add(node, name, key, extra, None); // a special: its name only
            }
            self.hidden += 1;
            return;
        }
        self.open.push(Open {
            name: name.to_vec(),
            node,
            dev: key.0,
            extra,
            below: Below::default(),
        });
    }

    /// Writes a non-directory into the directory open; `links` its link count.
    pub fn add(
        &mut self,
        node: Node,
        name: &[u8],
        key: (u64, u64),
        extra: Option<StatExtra>,
        links: Option<u32>,
    ) {
        if self.hidden > 0 {
            return;
        }
        let linked = node.has(flags::HARDLINK | flags::DUPLICATE);
        let ino = Some(key.1).filter(|&ino| linked && ino != 0);
        let extra = extra.filter(|_| self.extended);
        let nlink = links.unwrap_or(1);
        leaf_item(
            name,
            &node,
            ino,
            nlink,
            extra,
            self.extended,
            &mut self.item,
        );
        self.write_child(!node.is_counted());
    }

    /// Writes an entry that could not be read into the directory open.
    pub fn failed(&mut self, name: &[u8]) {
        if self.hidden > 0 {
            return;
        }
        self.item.clear();
        self.item.etype = etype::ERR;
        self.item.name.extend_from_slice(name);
        self.write_child(false);
    }

    /// Closes the directory open: it is written.
    pub fn close(&mut self) {
        if self.hidden > 0 {
            self.hidden -= 1;
            return;
        }
        let Some(dir) = self.open.pop() else { return };
        let parent_dev = self.open.last().map(|p| p.dev);
        let dev = Some(dir.dev).filter(|&d| parent_dev != Some(d));
        let extra = dir.extra.filter(|_| self.extended);
        let item = &mut self.item;
        dir_item(
            &dir.name,
            &dir.node,
            dev,
            &dir.below,
            extra,
            self.extended,
            item,
        );
        if self.open.is_empty() {
            self.root = self.write();
        } else {
            self.write_child(false);
        }
    }

    /// The path of the directory open, from the root's name (a path itself).
    pub fn path(&self) -> Vec<u8> {
        let mut path = Vec::new();
        for (i, dir) in self.open.iter().enumerate() {
            if i > 0 && path.last() != Some(&b'/') {
                path.push(b'/');
            }
            path.extend_from_slice(&dir.name);
        }
        path
    }

    /// Writes the item made into the directory open.
    fn write_child(&mut self, skipped: bool) {
        let Some(dir) = self.open.last() else { return };
        self.item.prev = dir.below.last;
        if let Some(itemref) = self.write() {
            let dir = self.open.last_mut().expect("checked above");
            dir.below.child(itemref, &self.item, skipped);
        }
    }

    fn write(&mut self) -> Option<u64> {
        let out = self.out.as_mut()?;
        match out.item(&self.item) {
            Ok(itemref) => Some(itemref),
            Err(e) => {
                self.failed = Some(e);
                self.out = None;
                None
            }
        }
    }

    /// Closes what is still open, writes the index and gives the output back.
    pub fn finish(mut self) -> io::Result<W> {
        while !self.open.is_empty() {
            self.close();
        }
        if let Some(e) = self.failed {
            return Err(e);
        }
        let (Some(out), Some(root)) = (self.out, self.root) else {
            return Err(io::Error::other("nothing to export"));
        };
        out.finish(root)
    }
}
