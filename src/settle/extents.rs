//! `--extents`: what the disk really holds. After the walk, every file is opened by its path
//! and its extents are read (FIEMAP; on btrfs also the file extent items, for compressed
//! sizes); an extent's bytes count once in the whole scan, where a depth-first walk in
//! directory order first meets them (as a hard link's do), and each node learns what of its
//! size is exclusive (freed by deleting it) and what it shares with other files.
//!
//! A pass of its own rather than a step of the walk: the walk's hot loop stays as it is when
//! the mode is off, and the pass is parallel on its own (one rayon task per batch of files).
//! A task takes up to 256 files of one directory, opens the directory once and each file
//! relative to it: an open and a FIEMAP per file, and a fstat (and on btrfs a tree search)
//! only for the files with something shared, compressed or inline (see docs/EXTENTS.md).
//!
//! How a file is counted:
//! - on btrfs with CAP_SYS_ADMIN, a file FIEMAP shows as compressed, shared or inline is
//!   counted by its file extent items as `compsize` counts it: a disk extent's compressed
//!   size once for the whole scan (key: the filesystem's UUID and the extent's address), an
//!   inline extent's bytes per file;
//! - elsewhere, a file's shared extents (FIEMAP_EXTENT_SHARED, not encoded) count once per
//!   physical range for the whole scan, and the rest of its `st_blocks` as du counts it: a
//!   file with no shared extent counts exactly what du counts (its holes nothing, its
//!   preallocated and delayed blocks all, its metadata blocks too);
//! - a file that cannot be opened or mapped (permission, a filesystem without FIEMAP) keeps
//!   the walk's size.
//!
//! What is exclusive never claims more than deleting would free: an extent is exclusive to a
//! node when the filesystem says no other file shares it and only this file refers to it;
//! a hard-linked file's bytes are never exclusive (its other names may be outside the scan).

use std::os::fd::{AsFd, OwnedFd};
use std::sync::Mutex;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::sys::{self, extent_flags as fl, BtrfsExtent, EntryKind, Extent};
use crate::tree::{flags, NodeId, Sharing, Tree, TOTAL};

/// A range of disk one file refers to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// What the addresses are relative to: a btrfs filesystem's UUID, or a device number.
    pub space: u128,
    pub start: u64,
    pub len: u64,
    /// The filesystem says another file (or a snapshot) refers to it too.
    pub shared: bool,
    /// A whole btrfs extent the file refers to only part of (a bookend): what of it no file
    /// refers to is on disk, counted where the extent is first met, and shared by nobody
    /// (as `btrfs filesystem du` counts a file's shared bytes: those it refers to).
    pub whole: bool,
}

/// What one node holds: `private` bytes no other file refers to (unless `linked`), and
/// `pieces` of disk other files may refer to as well.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holding {
    pub private: u64,
    /// Hard-linked: its other names may be anywhere, so nothing of it is exclusive.
    pub linked: bool,
    pub pieces: Vec<Piece>,
}

/// Measures every counted file of `tree` by its extents, sets its disk size to what it
/// holds and fills [`Tree::sharing`]. Called by [`super::settle`] after the filters, before the totals, on a
/// tree of own sizes. `threads`: as the walk's `-T`. Returns a note for the user when
/// compressed extents could not be measured (btrfs's tree search needs CAP_SYS_ADMIN).
pub fn measure(tree: &mut Tree, threads: Option<usize>) -> Option<&'static str> {
    // the counted files by directory (a directory's children are contiguous), in runs of at
    // most CHUNK: a task opens the directory once and each file relative to it
    const CHUNK: usize = 256;
    let mut chunks: Vec<(NodeId, Vec<NodeId>)> = Vec::new();
    for parent in 0..tree.len() {
        let n = tree.node(parent as NodeId);
        if parent != TOTAL as usize && (!n.is_dir() || !n.is_counted()) {
            continue;
        }
        let files: Vec<NodeId> = n
            .children()
            .filter(|&c| {
                let c = tree.node(c);
                c.kind() == EntryKind::File && c.is_counted()
            })
            .collect();
        for run in files.chunks(CHUNK) {
            chunks.push((parent as NodeId, run.to_vec()));
        }
    }
    let btrfs = BtrfsIds::default();
    let read = |(parent, files): &(NodeId, Vec<NodeId>)| read_files(tree, *parent, files, &btrfs);
    let run = || -> Vec<Vec<(NodeId, Holding)>> { chunks.par_iter().map(read).collect() };
    let n = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let measured = match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
        Ok(pool) if n > 1 => pool.install(run),
        _ => chunks.iter().map(read).collect(),
    };
    let mut holdings: Vec<Option<Holding>> = vec![None; tree.len()];
    for (id, h) in measured.into_iter().flatten() {
        holdings[id as usize] = Some(h);
    }
    settle(tree, holdings);
    btrfs
        .uncompressed
        .load(std::sync::atomic::Ordering::Relaxed)
        .then_some(
            "--extents: btrfs tells compressed sizes to root only (CAP_SYS_ADMIN): \
             compressed extents count more than they take (never more than du counts)",
        )
}

/// The btrfs filesystems met, by device number (each subvolume has its own): their UUIDs.
#[derive(Default)]
struct BtrfsIds {
    ids: Mutex<FxHashMap<u64, Option<u128>>>,
    /// The tree search was refused (no CAP_SYS_ADMIN): not asked again.
    no_search: std::sync::atomic::AtomicBool,
    /// A compressed file was counted by its `st_blocks` (uncompressed) for want of it.
    uncompressed: std::sync::atomic::AtomicBool,
}

impl BtrfsIds {
    fn fsid(&self, dev: u64, fd: std::os::fd::BorrowedFd<'_>) -> Option<u128> {
        let mut ids = self.ids.lock().unwrap_or_else(|p| p.into_inner());
        *ids.entry(dev).or_insert_with(|| {
            sys::is_btrfs(fd)
                .then(|| sys::btrfs_fsid(fd).ok())
                .flatten()
        })
    }
}

/// What the `files` of directory `parent` hold, where that differs from what the walk
/// counted; a file left out keeps the walk's size (it has nothing shared, compressed or
/// inline, or it cannot be opened or mapped).
fn read_files(
    tree: &Tree,
    parent: NodeId,
    files: &[NodeId],
    btrfs: &BtrfsIds,
) -> Vec<(NodeId, Holding)> {
    let mut extents = Vec::new();
    let mut got = Vec::new();
    let dir = (parent != TOTAL)
        .then(|| sys::open_dir_long_path(&tree.path(parent), true).ok())
        .flatten();
    if dir
        .as_ref()
        .is_some_and(|d| sys::never_shares_blocks(d.as_fd()))
    {
        // ext4, tmpfs: st_blocks tell all, and the walk has them
        return got;
    }
    for &id in files {
        let fd = match &dir {
            Some(dir) => sys::open_file_at(dir.as_fd(), tree.name(id)),
            None => sys::open_file_path(&tree.path(id)),
        };
        extents.clear();
        if let Some(h) = fd.ok().and_then(|fd| read_file(&fd, &mut extents, btrfs)) {
            got.push((id, h));
        }
    }
    got
}

/// What the open file `fd` holds, if it has anything shared, compressed or inline: `None`,
/// its `st_blocks` tell (and the walk has them), or it cannot be told.
fn read_file(fd: &OwnedFd, extents: &mut Vec<Extent>, btrfs: &BtrfsIds) -> Option<Holding> {
    sys::fiemap(fd.as_fd(), extents).ok()?;
    let special = fl::ENCODED | fl::SHARED | fl::DATA_INLINE;
    if !extents.iter().any(|e| e.flags & special != 0) {
        return None;
    }
    let meta = sys::fstat(fd.as_fd()).ok()?;
    if meta.kind != EntryKind::File {
        return None;
    }
    let extents = &extents[..];
    let linked = meta.nlink > 1;
    let fsid = btrfs.fsid(meta.dev, fd.as_fd());
    use std::sync::atomic::Ordering::Relaxed;
    if let Some(fsid) = fsid.filter(|_| !btrfs.no_search.load(Relaxed)) {
        let mut items = Vec::new();
        match sys::btrfs_extents(fd.as_fd(), meta.ino, &mut items) {
            Ok(()) => return Some(from_btrfs_items(fsid, &items, extents, linked)),
            Err(sys::Errno::PERM | sys::Errno::ACCESS) => btrfs.no_search.store(true, Relaxed),
            Err(_) => {}
        }
    }
    if fsid.is_some() && extents.iter().any(|e| e.flags & fl::ENCODED != 0) {
        btrfs.uncompressed.store(true, Relaxed);
    }
    let space = fsid.unwrap_or(u128::from(meta.dev) | 1 << 127);
    Some(from_fiemap(space, extents, meta.disk_bytes(), linked))
}

/// A file by its FIEMAP extents: the shared ones as pieces, the rest of `blocks` (its
/// `st_blocks` in bytes) private. A shared compressed extent (ENCODED, met only where
/// btrfs's tree search is refused) is the range of its length from its address: that
/// covers what it takes on disk, and what the clones of it cover is counted once — more
/// than its compressed size, never more than du counts.
pub fn from_fiemap(space: u128, extents: &[Extent], blocks: u64, linked: bool) -> Holding {
    let no_address = fl::DATA_INLINE | fl::DELALLOC | fl::UNKNOWN;
    let pieces: Vec<Piece> = extents
        .iter()
        .filter(|e| e.flags & fl::SHARED != 0 && e.flags & no_address == 0 && e.length > 0)
        .map(|e| Piece {
            space,
            start: e.physical,
            len: e.length,
            shared: true,
            whole: false,
        })
        .collect();
    let in_pieces: u64 = pieces.iter().map(|p| p.len).sum();
    Holding {
        private: blocks.saturating_sub(in_pieces),
        linked,
        pieces,
    }
}

/// A btrfs file by its file extent items (as compsize): the part of an uncompressed disk
/// extent it refers to as a piece (and the whole extent as a `whole` piece when that is only
/// part of it), a compressed extent as one piece of its compressed size; shared if FIEMAP
/// says any part of the file that refers to it is; inline data private.
pub fn from_btrfs_items(
    fsid: u128,
    items: &[BtrfsExtent],
    extents: &[Extent],
    linked: bool,
) -> Holding {
    let mut h = Holding {
        linked,
        ..Holding::default()
    };
    for item in items {
        match *item {
            BtrfsExtent::Inline { disk } => h.private += disk,
            BtrfsExtent::Regular { disk_bytenr: 0, .. } => {} // a hole
            BtrfsExtent::Regular {
                logical,
                disk_bytenr,
                disk_num_bytes,
                offset,
                num_bytes,
                compressed,
            } => {
                let end = logical.saturating_add(num_bytes.max(1));
                let shared = extents.iter().any(|e| {
                    e.flags & fl::SHARED != 0
                        && e.logical < end
                        && logical < e.logical.saturating_add(e.length)
                });
                let whole = Piece {
                    space: fsid,
                    start: disk_bytenr,
                    len: disk_num_bytes,
                    shared,
                    whole: false,
                };
                let used = disk_num_bytes.saturating_sub(offset).min(num_bytes);
                if compressed || used == disk_num_bytes {
                    h.pieces.push(whole);
                } else {
                    h.pieces.push(Piece {
                        start: disk_bytenr.saturating_add(offset),
                        len: used,
                        ..whole
                    });
                    h.pieces.push(Piece {
                        whole: true,
                        ..whole
                    });
                }
            }
        }
    }
    h
}

/// Counts every piece once, where the depth-first order first meets it; sets the measured
/// files' own disk sizes and fills [`Tree::sharing`] (subtree values). `holdings[id]`:
/// what node `id` holds, `None` for what was not measured (its own disk size is private).
pub fn settle(tree: &mut Tree, mut holdings: Vec<Option<Holding>>) {
    let len = tree.len();
    let rank = preorder_ranks(tree);
    let mut own_disk = vec![0u64; len];
    let mut exclusive = vec![0u64; len];
    let mut shared = vec![0u64; len];
    let mut ranges: Vec<Range> = Vec::new();
    for id in 1..len {
        let n = tree.node(id as NodeId);
        if !n.is_counted() {
            continue;
        }
        let h = holdings[id].take().unwrap_or_else(|| Holding {
            private: n.disk,
            linked: n.has(flags::HARDLINK),
            pieces: Vec::new(),
        });
        own_disk[id] = h.private;
        if h.linked {
            let mut a = id;
            loop {
                shared[a] += h.private;
                if a == TOTAL as usize {
                    break;
                }
                a = tree.parent(a as NodeId) as usize;
            }
        } else {
            exclusive[id] = h.private;
        }
        for p in h.pieces {
            let end = p.start.saturating_add(p.len);
            ranges.push(Range {
                space: p.space,
                start: p.start,
                end,
                node: id as NodeId,
                shared: p.shared || h.linked,
                whole: p.whole,
            });
        }
    }
    let mut stamps = Stamps {
        stamp: vec![0; len],
        now: 0,
    };
    let mut count = |bytes: u64, nodes: &[NodeId], shared_any: bool, referred: bool| {
        let Some(&first) = nodes.iter().min_by_key(|&&id| rank[id as usize]) else {
            return;
        };
        own_disk[first as usize] += bytes;
        if !shared_any && nodes.len() == 1 {
            exclusive[first as usize] += bytes;
        } else if referred {
            stamps.add_to_ancestors(tree, nodes, bytes, &mut shared);
        }
    };
    sweep(&mut ranges, &mut count);
    for (id, &disk) in own_disk.iter().enumerate().skip(1) {
        let mut n = tree.node(id as NodeId);
        if n.kind() == EntryKind::File && n.is_counted() {
            n.disk = disk;
            tree.set_node(id as NodeId, &n);
        }
    }
    for id in (1..len).rev() {
        if tree.node(id as NodeId).is_counted() {
            let p = tree.parent(id as NodeId) as usize;
            exclusive[p] += exclusive[id];
        }
    }
    tree.sharing = exclusive
        .into_iter()
        .zip(shared)
        .map(|(exclusive, shared)| Sharing { exclusive, shared })
        .collect();
}

/// Each node's place in a depth-first walk in directory order (the order du counts in).
fn preorder_ranks(tree: &Tree) -> Vec<u32> {
    let mut rank = vec![u32::MAX; tree.len()];
    let mut next = 0;
    let mut stack = vec![TOTAL];
    while let Some(id) = stack.pop() {
        rank[id as usize] = next;
        next += 1;
        stack.extend(tree.node(id).children().rev());
    }
    rank
}

/// Marks which nodes a range was added to, so that a directory counts it once however many
/// of its files refer to it.
struct Stamps {
    stamp: Vec<u32>,
    now: u32,
}

impl Stamps {
    fn add_to_ancestors(&mut self, tree: &Tree, nodes: &[NodeId], bytes: u64, to: &mut [u64]) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.fill(0);
            self.now = 1;
        }
        for &n in nodes {
            let mut a = n as usize;
            while self.stamp[a] != self.now {
                self.stamp[a] = self.now;
                to[a] += bytes;
                if a == TOTAL as usize {
                    break;
                }
                a = tree.parent(a as NodeId) as usize;
            }
        }
    }
}

/// A piece of disk a node holds, as the sweep takes it.
struct Range {
    space: u128,
    start: u64,
    end: u64,
    node: NodeId,
    shared: bool,
    whole: bool,
}

/// Cuts the ranges into the runs of disk referred to by one set of nodes, and hands each run
/// to `count` with its nodes (sorted, once each), whether any reference is shared, and
/// whether any file refers to it (false: the unreferenced part of a bookend extent, held by
/// the nodes whose `whole` pieces cover it).
fn sweep(ranges: &mut [Range], count: &mut impl FnMut(u64, &[NodeId], bool, bool)) {
    // (space, position, starts, index): ends sort before starts at the same place
    let mut events: Vec<(u128, u64, bool, usize)> = Vec::with_capacity(ranges.len() * 2);
    for (i, r) in ranges.iter().enumerate() {
        if r.end > r.start {
            events.push((r.space, r.start, true, i));
            events.push((r.space, r.end, false, i));
        }
    }
    events.sort_unstable();
    let mut active: Vec<usize> = Vec::new();
    let mut at: Option<(u128, u64)> = None;
    // the run being gathered: its length, nodes, sharing and whether it is referred to
    let mut run: (u64, Vec<NodeId>, bool, bool) = (0, Vec::new(), false, true);
    let mut nodes: Vec<NodeId> = Vec::new();
    let mut i = 0;
    while i < events.len() {
        let (space, pos) = (events[i].0, events[i].1);
        if let Some((s, from)) = at {
            if s == space && pos > from && !active.is_empty() {
                // what files refer to is theirs; a bookend's rest, its holders'
                let referred = active.iter().any(|&r| !ranges[r].whole);
                let holders = || active.iter().filter(|&&r| ranges[r].whole != referred);
                nodes.clear();
                nodes.extend(holders().map(|&r| ranges[r].node));
                nodes.sort_unstable();
                nodes.dedup();
                let shared = holders().any(|&r| ranges[r].shared);
                if run.1 == nodes && run.2 == shared && run.3 == referred {
                    run.0 += pos - from;
                } else {
                    count(run.0, &run.1, run.2, run.3);
                    run = (pos - from, nodes.clone(), shared, referred);
                }
            }
        }
        while i < events.len() && events[i].0 == space && events[i].1 == pos {
            let (_, _, start, r) = events[i];
            if start {
                active.push(r);
            } else if let Some(k) = active.iter().position(|&a| a == r) {
                active.swap_remove(k);
            }
            i += 1;
        }
        at = Some((space, pos));
    }
    count(run.0, &run.1, run.2, run.3);
}

#[cfg(test)]
#[path = "extents_tests.rs"]
mod tests;
