//! A finished tree into a [`BinWriter`]: each directory after its children, its cumulative
//! sizes summed on the way up.

use std::io::{self, Write};

use super::spec::{etype, Item};
use super::BinWriter;
use crate::formats::ncdu_json::write::NcduOptions;
use rustc_hash::FxHashMap;

use crate::tree::{flags, EntryKind, Node, NodeId, StatExtra, Tree, TreeView};
use crate::walk::ScanError;

/// What a directory still open has gathered from the children written so far.
#[derive(Default)]
pub(super) struct Below {
    /// The last child written: the next one's `prev`, the directory's own `sub`.
    pub(super) last: Option<u64>,
    /// Entries below it, at any depth.
    pub(super) items: u64,
    /// What the children count, as the tree's totals count it (each hard link once).
    pub(super) asize: u64,
    pub(super) dsize: u64,
    /// Something below it could not be read.
    pub(super) suberr: bool,
}

impl Below {
    /// Records a child just written as `itemref` (`item`): its sizes count unless `skipped`
    /// (a further name of a hard link is written with its sizes, as ncdu counts an inode once
    /// itself, but the name that counts is another).
    pub(super) fn child(&mut self, itemref: u64, item: &Item, skipped: bool) {
        self.last = Some(itemref);
        self.items = self.items.saturating_add(1 + item.items.unwrap_or(0));
        if item.etype == etype::DIR {
            self.asize = self.asize.saturating_add(item.cumasize.unwrap_or(0));
            self.dsize = self.dsize.saturating_add(item.cumdsize.unwrap_or(0));
            self.suberr |= item.rderr.is_some();
        } else if item.etype == etype::ERR {
            self.suberr = true;
        } else if !skipped {
            self.asize = self.asize.saturating_add(item.asize.unwrap_or(0));
            self.dsize = self.dsize.saturating_add(item.dsize.unwrap_or(0));
        }
    }
}

struct Open<I> {
    id: I,
    below: Below,
}

/// Writes `root` (a directory) and everything below it, as [`crate::formats::ncdu_json::write::write_ncdu`]
/// writes JSON (own sizes, not yet totals; `errors` the walk's), and returns the root's
/// itemref for [`BinWriter::finish`]. Siblings are written in the tree's order, each
/// one's `prev` the one before it (a reader collects the chain back from the directory's
/// `sub` and reads it the other way).
pub fn write_tree<W: Write>(
    tree: &Tree,
    root: NodeId,
    errors: &[ScanError],
    opts: &NcduOptions<'_>,
    out: &mut BinWriter<W>,
) -> io::Result<u64> {
    let failed = crate::export::failed_entries(tree, root, errors)?;
    write_view(tree, root, &failed, opts, out)
}

/// [`write_tree`] of any tree: `failed` the names that could not be stat'ed, by directory.
pub fn write_view<T: TreeView, W: Write>(
    tree: &T,
    root: T::Id,
    failed: &FxHashMap<T::Id, Vec<&[u8]>>,
    opts: &NcduOptions<'_>,
    out: &mut BinWriter<W>,
) -> io::Result<u64> {
    enum Step<I> {
        Enter(I),
        Close,
    }
    let mut item = Item::default();
    let mut open: Vec<Open<T::Id>> = Vec::new();
    let mut stack = vec![Step::Enter(root)];
    let mut root_ref = 0;
    while let Some(step) = stack.pop() {
        match step {
            Step::Enter(id)
                if tree.kind(id) == EntryKind::Dir && (id == root || !is_special(tree, id)) =>
            {
                let mut below = Below::default();
                for name in failed.get(&id).into_iter().flatten() {
                    item.clear();
                    item.etype = etype::ERR;
                    item.name.extend_from_slice(name);
                    item.prev = below.last;
                    below.child(out.item(&item)?, &item, false);
                }
                open.push(Open { id, below });
                stack.push(Step::Close);
                let first = stack.len();
                stack.extend(tree.children(id).map(Step::Enter));
                stack[first..].reverse();
            }
            Step::Enter(id) => {
                let dir = open.last_mut().expect("a file is never the root");
                leaf(tree, id, opts.extended, &mut item);
                item.prev = dir.below.last;
                let itemref = out.item(&item)?;
                dir.below.child(itemref, &item, !tree.is_counted(id));
            }
            Step::Close => {
                let dir = open.pop().expect("a Close follows its Enter");
                directory(tree, &dir, root, opts, &mut item);
                let parent = open.last_mut();
                item.prev = parent.as_ref().and_then(|p| p.below.last);
                let itemref = out.item(&item)?;
                match parent {
                    Some(p) => p.below.child(itemref, &item, false),
                    None => root_ref = itemref,
                }
            }
        }
    }
    Ok(root_ref)
}

/// An entry written with a name and nothing else: left out by a pattern, on another
/// filesystem (anything below it is not written: it counts nothing).
fn is_special<T: TreeView>(tree: &T, id: T::Id) -> bool {
    tree.flags(id) & (flags::FILTERED | flags::OTHER_FS) != 0
}

/// The entry's own values as a [`Node`] (what the items are made from).
fn own_node<T: TreeView>(tree: &T, id: T::Id) -> Node {
    let (apparent, disk) = tree.own_sizes(id);
    Node::new(
        tree.kind(id),
        disk,
        apparent,
        tree.mtime(id),
        tree.flags(id),
    )
}

/// Fills `item` with what a non-directory (or a directory written as a special) is.
fn leaf<T: TreeView>(tree: &T, id: T::Id, extended: bool, item: &mut Item) {
    let node = own_node(tree, id);
    let linked = node.has(flags::HARDLINK) || node.has(flags::DUPLICATE);
    let identity = linked.then(|| tree.identity(id)).flatten();
    let ino = identity.map(|(_, ino)| ino);
    let nlink = tree.links(id).unwrap_or(1);
    let extra = extended.then(|| tree.extra(id)).flatten();
    leaf_item(tree.name(id), &node, ino, nlink, extra, extended, item);
}

/// The mode written of a directory left out by a pattern: its type, no permissions (it was
/// never stat'ed).
const DIR_MODE: u64 = 0o040000;

/// Fills `item` with a non-directory (or a directory written as a special): its name, node,
/// inode number when it is a hard link, link count, and its owner and mode (written only
/// when `extended`, with its mtime).
pub(super) fn leaf_item(
    name: &[u8],
    node: &Node,
    ino: Option<u64>,
    nlink: u32,
    extra: Option<StatExtra>,
    extended: bool,
    item: &mut Item,
) {
    item.clear();
    item.name.extend_from_slice(name);
    if node.has(flags::FILTERED) {
        item.etype = etype::PATTERN;
        // a directory's type (ncdu writes none): a merge of split scans knows it left out a
        // directory that a part should fill (ncdu reads the key of any item, and uses it
        // only where it shows modes)
        if node.is_dir() {
            item.mode = Some(DIR_MODE);
        }
        return;
    }
    if node.has(flags::OTHER_FS) {
        item.etype = etype::OTHERFS;
        return;
    }
    item.etype = match (node.kind(), ino) {
        (_, Some(ino)) => {
            item.ino = Some(ino);
            item.nlink = Some(u64::from(nlink.max(1)));
            etype::LINK
        }
        (EntryKind::File, None) => etype::REG,
        _ => etype::NONREG,
    };
    item.asize = Some(node.apparent);
    item.dsize = Some(node.disk);
    if extended {
        extended_fields(node, extra, item);
    }
}

/// Fills `item` with a directory, its children written (`dir` says what they hold).
fn directory<T: TreeView>(
    tree: &T,
    dir: &Open<T::Id>,
    root: T::Id,
    opts: &NcduOptions<'_>,
    item: &mut Item,
) {
    let id = dir.id;
    let node = own_node(tree, id);
    let name = if id == root {
        opts.root_name
    } else {
        tree.name(id)
    };
    let dev = tree
        .device(id)
        .filter(|&dev| id == root || tree.device(tree.parent(id)) != Some(dev));
    let extra = opts.extended.then(|| tree.extra(id)).flatten();
    dir_item(name, &node, dev, &dir.below, extra, opts.extended, item);
}

/// Fills `item` with a directory: its name, node, device (when it is the root or differs
/// from its parent's), what its children hold, and its owner and mode when `extended`.
pub(super) fn dir_item(
    name: &[u8],
    node: &Node,
    dev: Option<u64>,
    below: &Below,
    extra: Option<StatExtra>,
    extended: bool,
    item: &mut Item,
) {
    item.clear();
    item.etype = etype::DIR;
    item.name.extend_from_slice(name);
    let own = |v: u64| if node.is_counted() { v } else { 0 };
    item.asize = Some(node.apparent);
    item.dsize = Some(node.disk);
    item.dev = dev;
    if node.has(flags::UNREADABLE) {
        item.rderr = Some(true);
    } else if below.suberr {
        item.rderr = Some(false);
    }
    item.cumasize = Some(own(node.apparent).saturating_add(below.asize));
    item.cumdsize = Some(own(node.disk).saturating_add(below.dsize));
    item.items = Some(below.items);
    item.sub = below.last;
    if extended {
        extended_fields(node, extra, item);
    }
}

/// uid, gid and mode when kept, and mtime (ncdu's `-e`).
fn extended_fields(node: &Node, extra: Option<StatExtra>, item: &mut Item) {
    if let Some(o) = extra {
        item.uid = Some(u64::from(o.uid));
        item.gid = Some(u64::from(o.gid));
        // the format keeps 16 bits: the type and the permission bits
        item.mode = Some(u64::from(o.mode & 0xffff));
    }
    item.mtime = Some(node.mtime.max(0) as u64);
}
