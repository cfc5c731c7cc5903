//! A finished tree into a [`BinWriter`]: each directory after its children, its cumulative
//! sizes summed on the way up.

use std::io::{self, Write};

use rustc_hash::FxHashMap;

use super::format::{etype, Item};
use super::BinWriter;
use crate::export::ncdu::NcduOptions;
use crate::tree::{flags, EntryKind, NodeId, Tree};
use crate::walk::{ErrorAt, ScanError};

/// What a directory still open has gathered from the children written so far.
struct Open {
    id: NodeId,
    /// The last child written: the next one's `prev`, the directory's own `sub`.
    last: Option<u64>,
    /// Entries below it, at any depth.
    items: u64,
    /// What the children count, as the tree's totals count it (each hard link once).
    asize: u64,
    dsize: u64,
    /// Something below it could not be read.
    suberr: bool,
}

/// Writes `root` (a directory) and everything below it, as [`crate::export::ncdu::write_ncdu`]
/// writes JSON (own sizes, not yet totals; `errors` the walk's), and returns the root's
/// itemref for [`BinWriter::finish`]. Siblings are written last first: a reader follows
/// `prev` from the last, and so meets them in the tree's order.
pub fn write_tree<W: Write>(
    tree: &Tree,
    root: NodeId,
    errors: &[ScanError],
    opts: &NcduOptions<'_>,
    out: &mut BinWriter<W>,
) -> io::Result<u64> {
    if !tree.node(root).is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the ncdu format needs a directory at the top",
        ));
    }
    let mut failed: FxHashMap<NodeId, Vec<&[u8]>> = FxHashMap::default();
    for e in errors {
        if let ErrorAt::Entry(parent, name) = &e.at {
            failed.entry(*parent).or_default().push(name);
        }
    }
    enum Step {
        Enter(NodeId),
        Close,
    }
    let mut item = Item::default();
    let mut open: Vec<Open> = Vec::new();
    let mut stack = vec![Step::Enter(root)];
    let mut root_ref = 0;
    while let Some(step) = stack.pop() {
        match step {
            Step::Enter(id) if tree.node(id).is_dir() && (id == root || !is_special(tree, id)) => {
                open.push(Open {
                    id,
                    last: None,
                    items: 0,
                    asize: 0,
                    dsize: 0,
                    suberr: false,
                });
                for name in failed.get(&id).into_iter().flatten() {
                    item.clear();
                    item.etype = etype::ERR;
                    item.name.extend_from_slice(name);
                    let dir = open.last_mut().expect("just pushed");
                    item.prev = dir.last;
                    dir.last = Some(out.item(&item)?);
                    dir.items += 1;
                    dir.suberr = true;
                }
                stack.push(Step::Close);
                stack.extend(tree.node(id).children().map(Step::Enter));
            }
            Step::Enter(id) => {
                let dir = open.last_mut().expect("a file is never the root");
                leaf(tree, id, opts.extended, &mut item);
                item.prev = dir.last;
                dir.last = Some(out.item(&item)?);
                dir.items += 1;
                // a further name of a hard link is written with its sizes (ncdu counts an
                // inode once itself), but the name that counts is another
                if tree.node(id).is_counted() {
                    dir.asize = dir.asize.saturating_add(item.asize.unwrap_or(0));
                    dir.dsize = dir.dsize.saturating_add(item.dsize.unwrap_or(0));
                }
            }
            Step::Close => {
                let dir = open.pop().expect("a Close follows its Enter");
                let parent = open.last_mut();
                directory(tree, &dir, root, opts, &mut item);
                item.prev = parent.as_ref().and_then(|p| p.last);
                let itemref = out.item(&item)?;
                match parent {
                    Some(p) => {
                        p.last = Some(itemref);
                        p.items = p.items.saturating_add(dir.items + 1);
                        p.asize = p.asize.saturating_add(item.cumasize.unwrap_or(0));
                        p.dsize = p.dsize.saturating_add(item.cumdsize.unwrap_or(0));
                        p.suberr |= dir.suberr || item.rderr == Some(true);
                    }
                    None => root_ref = itemref,
                }
            }
        }
    }
    Ok(root_ref)
}

/// An entry written with a name and nothing else: left out by a pattern, on another
/// filesystem (anything below it is not written: it counts nothing).
fn is_special(tree: &Tree, id: NodeId) -> bool {
    tree.node(id).has(flags::FILTERED | flags::OTHER_FS)
}

/// Fills `item` with what a non-directory (or a directory written as a special) is.
fn leaf(tree: &Tree, id: NodeId, extended: bool, item: &mut Item) {
    item.clear();
    item.name.extend_from_slice(tree.name(id));
    let node = tree.node(id);
    if node.has(flags::FILTERED) {
        item.etype = etype::PATTERN;
        return;
    }
    if node.has(flags::OTHER_FS) {
        item.etype = etype::OTHERFS;
        return;
    }
    let linked = node.has(flags::HARDLINK) || node.has(flags::DUPLICATE);
    let identity = linked.then(|| tree.identity_of(id)).flatten();
    item.etype = match (node.kind(), identity) {
        (_, Some((_, ino))) => {
            item.ino = Some(ino);
            item.nlink = Some(u64::from(tree.links_of(id).unwrap_or(1).max(1)));
            etype::LINK
        }
        (EntryKind::File, None) => etype::REG,
        _ => etype::NONREG,
    };
    item.asize = Some(node.apparent);
    item.dsize = Some(node.disk);
    if extended {
        extended_fields(tree, id, item);
    }
}

/// Fills `item` with a directory, its children written (`dir` says what they hold).
fn directory(tree: &Tree, dir: &Open, root: NodeId, opts: &NcduOptions<'_>, item: &mut Item) {
    let id = dir.id;
    item.clear();
    item.etype = etype::DIR;
    item.name.extend_from_slice(if id == root {
        opts.root_name
    } else {
        tree.name(id)
    });
    let node = tree.node(id);
    let own = |v: u64| if node.is_counted() { v } else { 0 };
    item.asize = Some(node.apparent);
    item.dsize = Some(node.disk);
    if let Some(dev) = tree.device_of(id) {
        if id == root || tree.device_of(tree.parent(id)) != Some(dev) {
            item.dev = Some(dev);
        }
    }
    if node.has(flags::UNREADABLE) {
        item.rderr = Some(true);
    } else if dir.suberr {
        item.rderr = Some(false);
    }
    item.cumasize = Some(own(node.apparent).saturating_add(dir.asize));
    item.cumdsize = Some(own(node.disk).saturating_add(dir.dsize));
    item.items = Some(dir.items);
    item.sub = dir.last;
    if opts.extended {
        extended_fields(tree, id, item);
    }
}

/// uid, gid and mode when the tree kept them, and mtime (ncdu's `-e`).
fn extended_fields(tree: &Tree, id: NodeId, item: &mut Item) {
    if let Some(o) = tree.extra_of(id) {
        item.uid = Some(u64::from(o.uid));
        item.gid = Some(u64::from(o.gid));
        // the format keeps 16 bits: the type and the permission bits
        item.mode = Some(u64::from(o.mode & 0xffff));
    }
    item.mtime = Some(tree.node(id).mtime.max(0) as u64);
}
