//! Subtree totals in one reverse sweep (children always have larger ids than their parent).

use super::{flags, Node, NodeId, Tree, TOTAL};

/// What a run of siblings adds into their parent.
struct Sums {
    disk: u64,
    apparent: u64,
    entries: u32,
    mtime: i64,
}

impl Default for Sums {
    fn default() -> Self {
        Sums {
            disk: 0,
            apparent: 0,
            entries: 0,
            mtime: i64::MIN,
        }
    }
}

impl Sums {
    /// (Saturating sums of unsigned numbers: the order of the additions does not matter.)
    fn add_into(&self, p: &mut Node) {
        p.disk = p.disk.saturating_add(self.disk);
        p.apparent = p.apparent.saturating_add(self.apparent);
        p.entries = p.entries.saturating_add(self.entries);
        p.mtime = p.mtime.max(self.mtime);
    }
}

impl Tree {
    /// Marks every counted name of a hard-linked file but the first one met (in node
    /// order) [`flags::LIVE_DUPLICATE`], for a tree still being walked: the walk settles
    /// which name counts only at its end, and until then each name would add the file's
    /// bytes, so totals shown during the scan would exceed what is on disk. Names removed
    /// from the disk meanwhile give way to the next. Needs the identities (`keep_identity`);
    /// without them every name counts. [`Tree::forget_live_sums`] takes the marks off again.
    pub fn mark_live_duplicates(&mut self) {
        self.live_sums = true;
        let mut seen = rustc_hash::FxHashSet::default();
        let mut linked = Vec::new();
        let mut repeated = Vec::new();
        let mut keys = self.identity_reader();
        for id in 0..self.len() as NodeId {
            let f = self.head(id).flags();
            if f & flags::HARDLINK == 0 {
                continue;
            }
            linked.push(id);
            let first = f & (flags::DUPLICATE | flags::REMOVED) == 0
                && keys.of(id).is_none_or(|key| seen.insert(key));
            if !first {
                repeated.push(id);
            }
        }
        for id in linked {
            self.head_mut(id).clear_flag(flags::LIVE_DUPLICATE);
        }
        for id in repeated {
            self.head_mut(id).set_flag(flags::LIVE_DUPLICATE);
        }
    }

    /// Turns every node's own sizes into totals of its subtree. Duplicates, filtered-out
    /// entries and mount points not entered (-x: as `du -x`, which counts no part of another
    /// filesystem) contribute nothing of their own, and their sizes become 0. The last step of
    /// `settle::settle`, which alone calls it (after the filters and extents).
    pub fn finish(&mut self) {
        self.sum_up(true);
    }

    /// [`Tree::finish`] for a tree still being walked, which the view shows as it grows: no
    /// entry loses its own values (the walk may still change which names count), so it can
    /// run again as entries come. Entries removed from the disk count nothing; repeated
    /// names of hard links ([`Tree::mark_live_duplicates`]) neither.
    pub fn sum_live(&mut self) {
        self.live_sums = true;
        self.sum_up(false);
    }

    /// Puts the tree back as the walk built it, for the walk's end: directories hold their own
    /// values again, and no name is marked a live duplicate.
    pub fn forget_live_sums(&mut self) {
        if !std::mem::take(&mut self.live_sums) {
            return; // as the walk built it: nothing to forget (a pass over every entry saved)
        }
        self.forget_totals();
        for id in 0..self.len() as NodeId {
            self.head_mut(id).clear_flag(flags::LIVE_DUPLICATE);
        }
    }

    /// Skipped directories lose their own sizes first; then one sweep over the blocks of
    /// children from the last to the first: a block's children (larger ids than their
    /// parent, and than any block before theirs) are summed in registers and added into
    /// their parent once, before the parent's own block is met.
    fn sum_up(&mut self, zero_skipped: bool) {
        const LEFT_OUT: u8 = flags::UNCOUNTED | flags::LIVE_DUPLICATE | flags::REMOVED;
        self.reset_to_own(|id, f| id == TOTAL || f & flags::UNCOUNTED != 0);
        let mut end = self.len();
        let mut others = Vec::new();
        for k in (0..self.blocks.len()).rev() {
            let (first, parent) = self.blocks[k];
            let mut sums = Sums::default();
            // files first, straight from their slots; directories, skipped entries and
            // values kept whole after them (the sums do not depend on the order)
            self.for_each_slot(first, end, |id, slot| {
                if slot.is_small_leaf(LEFT_OUT) {
                    let (disk, apparent, entries, mtime) = slot.values_unchecked();
                    sums.disk = sums.disk.saturating_add(disk);
                    sums.apparent = sums.apparent.saturating_add(apparent);
                    sums.entries += entries; // at most one each: no overflow before 4 billion
                    sums.mtime = sums.mtime.max(mtime);
                } else {
                    others.push(id);
                }
            });
            for id in others.drain(..) {
                let mut n = self.node(id);
                if n.has(flags::REMOVED) {
                    continue; // neither its own values nor its subtree's
                }
                let is_dir = self.has_dir_info(id);
                if n.has(LEFT_OUT) && !is_dir {
                    let counted = n.disk | n.apparent | u64::from(n.entries) != 0;
                    if zero_skipped && counted {
                        (n.disk, n.apparent, n.entries) = (0, 0, 0);
                        self.set_node(id, &n);
                    }
                    continue;
                }
                sums.disk = sums.disk.saturating_add(n.disk);
                sums.apparent = sums.apparent.saturating_add(n.apparent);
                sums.entries = sums.entries.saturating_add(n.entries);
                if !n.has(LEFT_OUT) {
                    sums.mtime = sums.mtime.max(n.mtime);
                }
            }
            let mut p = self.node(parent);
            sums.add_into(&mut p);
            self.set_node(parent, &p);
            end = first as usize;
        }
    }

    /// `-m`: makes each entry's chosen time its node's time, so that [`Tree::finish`]
    /// carries the newest time up: a directory's time is the newest of its own and its
    /// entries', as dust's (dir_walker.rs `clean_inodes`: the max of the children and the
    /// directory's own). A step of `settle::settle`, before the totals.
    pub fn use_time(&mut self, field: crate::vocab::TimeField) {
        use crate::vocab::TimeField;
        if field == TimeField::Modified {
            return;
        }
        for id in 1..self.len() as NodeId {
            let e = self.extra.get(id as usize);
            let mut n = self.node(id);
            n.mtime = match field {
                TimeField::Accessed => e.map_or(0, |e| e.atime),
                _ => e.map_or(0, |e| e.ctime),
            };
            self.set_node(id, &n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{EntryKind, Node, NodeId, TreeBuilder};

    /// Issue 22, item 4: a tree still being walked (nothing settled) with one inode under
    /// two names and a hard-linked file of its own: counted once each, from the first name;
    /// summed again as the walk adds entries, and given back as the walk built it.
    #[test]
    fn repeated_links_count_once_before_the_walk_settles() {
        let dir = |d| Node::new(EntryKind::Dir, d, d, 0, 0);
        let linked = |d| Node::new(EntryKind::File, d, d, 0, flags::HARDLINK);
        let mut b = TreeBuilder::with_identity(true);
        let r = b.add_roots(vec![(b"r".to_vec(), dir(4))]);
        b.set_identity(r, (1, 1));
        let a = b.add_children(r, [(dir(4), &b"A"[..]), (dir(4), &b"B"[..])].into_iter());
        let f = b.add_children(a, [(linked(100), &b"f"[..])].into_iter());
        for (id, ino) in [(a, 2), (a + 1, 3), (f, 10)] {
            b.set_identity(id, (1, ino));
        }
        let sum = |b: &mut TreeBuilder| {
            let t = b.tree_mut();
            t.mark_live_duplicates();
            t.mark_live_duplicates(); // idempotent
            t.sum_live();
        };
        sum(&mut b);
        assert_eq!(b.tree().node(r).disk, 4 + 4 + 4 + 100);
        // B's entries come after a sum: A's directory keeps its own size apart
        let g = b.add_children(
            a + 1,
            [(linked(100), &b"g"[..]), (linked(7), &b"h"[..])].into_iter(),
        );
        b.set_identity(g, (1, 10));
        b.set_identity(g + 1, (1, 11));
        b.update(a + 1, |n| n.disk = 8); // its own stat, read late
        sum(&mut b);
        sum(&mut b);
        let t = b.tree();
        assert_eq!(
            t.node(r).disk,
            4 + 4 + 8 + 100 + 7,
            "the inode once, h once"
        );
        assert_eq!(t.node(a).disk, 4 + 100, "the first name keeps it");
        assert_eq!(t.node(a + 1).disk, 8 + 7);
        assert_eq!(t.node(g).disk, 100, "a repeated name keeps its own size");
        // the walk's end: the tree as built, which settles and sums as any other
        let mut t = b.into_tree();
        t.forget_live_sums();
        assert_eq!(
            (0..t.len() as NodeId)
                .map(|id| (t.node(id).disk, t.node(id).flags()))
                .collect::<Vec<_>>(),
            [
                (0, 0),
                (4, 0),
                (4, 0),
                (8, 0),
                (100, flags::HARDLINK),
                (100, flags::HARDLINK),
                (7, flags::HARDLINK)
            ]
        );
        t.set_flag(g, flags::DUPLICATE);
        t.finish();
        assert_eq!(t.node(r).disk, 4 + 4 + 8 + 100 + 7);
    }

    /// Removed entries count nothing in a live sum, whatever is below them.
    #[test]
    fn removed_entries_leave_the_live_sums() {
        let dir = |d| Node::new(EntryKind::Dir, d, d, 0, 0);
        let file = |d| Node::new(EntryKind::File, d, d, 0, 0);
        let mut b = TreeBuilder::new();
        let r = b.add_roots(vec![(b"r".to_vec(), dir(4))]);
        let a = b.add_children(r, [(dir(4), &b"A"[..]), (file(9), &b"f"[..])].into_iter());
        b.tree_mut().sum_live();
        b.tree_mut().remove_all(&[a, a + 1]);
        assert_eq!(b.tree().node(r).disk, 4);
        b.add_children(a, [(file(100), &b"x"[..])].into_iter());
        b.tree_mut().sum_live();
        assert_eq!(b.tree().node(r).disk, 4, "nor what comes below them later");
    }

    /// The two sweeps `finish` was before it was one, node by node through the parents.
    fn finish_in_two_sweeps(t: &mut Tree) {
        let skipped =
            |n: &Node| n.has(flags::DUPLICATE) || n.has(flags::FILTERED) || n.has(flags::OTHER_FS);
        for id in 1..t.len() as NodeId {
            let mut n = t.node(id);
            if skipped(&n) {
                (n.disk, n.apparent, n.entries) = (0, 0, 0);
                t.set_node(id, &n);
            }
        }
        let mut total = t.node(TOTAL);
        (total.disk, total.apparent, total.entries) = (0, 0, 0);
        t.set_node(TOTAL, &total);
        for id in (1..t.len() as NodeId).rev() {
            let n = t.node(id);
            let parent = t.parent(id);
            let mut p = t.node(parent);
            p.disk = p.disk.saturating_add(n.disk);
            p.apparent = p.apparent.saturating_add(n.apparent);
            p.entries = p.entries.saturating_add(n.entries);
            if !skipped(&n) {
                p.mtime = p.mtime.max(n.mtime);
            }
            t.set_node(parent, &p);
        }
    }

    #[test]
    fn one_sweep_gives_what_two_gave() {
        // a pseudo-random tree: directories with 0-5 children appended in a scrambled order
        // (as threads finish them), every flag on some nodes, directories among them
        let mut next = crate::tree::xorshift(0x9E37_79B9_7F4A_7C15);
        let mut b = TreeBuilder::new();
        let root = Node::new(EntryKind::Dir, 4096, 4096, 5, 0);
        b.add_roots(vec![(b"r".to_vec(), root)]);
        let mut open: Vec<NodeId> = vec![1];
        let mut count = 1;
        while let Some(i) = (!open.is_empty()).then(|| next(open.len() as u64) as usize) {
            let dir = open.swap_remove(i);
            let n = if dir == 1 { 8 } else { next(12) };
            let kids: Vec<(Node, &[u8])> = (0..n)
                .map(|_| {
                    let kind = if dir == 1 || next(3) == 0 && count < 3000 {
                        EntryKind::Dir
                    } else {
                        EntryKind::File
                    };
                    let flag = [0, 0, 0, flags::DUPLICATE, flags::FILTERED, flags::OTHER_FS]
                        [next(6) as usize];
                    let size = next(100_000);
                    let node = Node::new(kind, size, size / 2 + 1, next(1000) as i64, flag);
                    (node, &b"x"[..])
                })
                .collect();
            count += kids.len();
            let dirs: Vec<bool> = kids.iter().map(|(n, _)| n.is_dir()).collect();
            let first = b.add_children(dir, kids.into_iter());
            for (k, is_dir) in dirs.into_iter().enumerate() {
                if is_dir {
                    open.push(first + k as NodeId);
                }
            }
        }
        let mut want = b.into_tree();
        assert!(want.len() > 1000, "a tree of {} nodes", want.len());
        let mut got = want.clone();
        finish_in_two_sweeps(&mut want);
        got.finish();
        for id in 0..got.len() as NodeId {
            let (g, w) = (got.node(id), want.node(id));
            let g = (g.disk, g.apparent, g.entries, g.mtime);
            let w = (w.disk, w.apparent, w.entries, w.mtime);
            assert_eq!(g, w, "node {id}: (disk, apparent, entries, mtime)");
        }
    }
}
