//! Subtree totals in one reverse sweep (children always have larger ids than their parent).

use super::{flags, Node, Tree, TOTAL};

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
    /// Marks every name of a hard-linked file but the first one met (in node order) a
    /// duplicate, for a tree still being walked: the walk settles which name counts only at
    /// its end, and until then each name would add the file's bytes, so totals shown during
    /// the scan would exceed what is on disk. Needs the identities (`keep_identity`); a
    /// no-op without them.
    pub fn mark_repeated_links(&mut self) {
        if self.identity.len() < self.nodes.len() {
            return;
        }
        let mut seen = rustc_hash::FxHashSet::default();
        for (i, node) in self.nodes.iter_mut().enumerate() {
            if node.has(flags::HARDLINK)
                && !node.has(flags::DUPLICATE)
                && !seen.insert(self.identity[i])
            {
                node.set_flag(flags::DUPLICATE);
            }
        }
    }

    /// Turns every node's own sizes into totals of its subtree. Duplicates, filtered-out
    /// entries and mount points not entered (-x: as `du -x`, which counts no part of another
    /// filesystem) contribute nothing of their own. Call once, after [`Tree::apply_filters`].
    ///
    /// One sweep from the last id to the first: a node's children (larger ids, contiguous)
    /// are added into it before it is added into its parent. A skipped node's own sizes are
    /// dropped before anything is added into it: when its last child (the first of them the
    /// sweep meets) comes, or when the sweep reaches it if it has none. (A first sweep that
    /// dropped them all was a pass more over every node.)
    ///
    /// Siblings are met one after the other, so their sums are kept in registers and added
    /// into their parent once, when the sweep leaves them: added into the parent node by
    /// node, each addition waited for the one before it through memory.
    pub fn finish(&mut self) {
        const SKIPPED: u8 = flags::DUPLICATE | flags::FILTERED | flags::OTHER_FS;
        let nodes = &mut self.nodes;
        let total = &mut nodes[TOTAL as usize];
        total.disk = 0;
        total.apparent = 0;
        total.entries = 0;
        let mut sums = Sums::default();
        let mut parent = None;
        for id in (1..nodes.len()).rev() {
            let p = nodes[id].parent as usize;
            if parent != Some(p) {
                if let Some(q) = parent {
                    sums.add_into(&mut nodes[q]);
                }
                sums = Sums::default();
                parent = Some(p);
                let pn = &mut nodes[p];
                if p != TOTAL as usize
                    && pn.has(SKIPPED)
                    && id as u64 + 1 == u64::from(pn.first_child) + u64::from(pn.child_count)
                {
                    pn.disk = 0;
                    pn.apparent = 0;
                    pn.entries = 0;
                }
            }
            let n = &mut nodes[id];
            let skipped = n.has(SKIPPED);
            if skipped && n.child_count == 0 {
                n.disk = 0;
                n.apparent = 0;
                n.entries = 0;
            }
            sums.disk = sums.disk.saturating_add(n.disk);
            sums.apparent = sums.apparent.saturating_add(n.apparent);
            sums.entries = sums.entries.saturating_add(n.entries);
            if !skipped {
                sums.mtime = sums.mtime.max(n.mtime);
            }
        }
        if let Some(q) = parent {
            sums.add_into(&mut nodes[q]);
        }
    }

    /// `-m`: makes each entry's chosen time its node's time, so that [`Tree::finish`]
    /// carries the newest time up: a directory's time is the newest of its own and its
    /// entries', as dust's (dir_walker.rs `clean_inodes`: the max of the children and the
    /// directory's own). Call before `finish`.
    pub fn use_time(&mut self, field: crate::vocab::TimeField) {
        use crate::vocab::TimeField;
        for (id, n) in self.nodes.iter_mut().enumerate().skip(1) {
            let e = self.extra.get(id);
            match field {
                TimeField::Modified => {}
                TimeField::Accessed => n.mtime = e.map_or(0, |e| e.atime),
                TimeField::Changed => n.mtime = e.map_or(0, |e| e.ctime),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{EntryKind, Node, NodeId, TreeBuilder};

    /// Issue 22, item 4: a tree still being walked (nothing settled) with one inode under
    /// two names and a hard-linked file of its own: counted once each, from the first name.
    #[test]
    fn repeated_links_count_once_before_the_walk_settles() {
        let dir = |d| Node::new(EntryKind::Dir, d, d, 0, 0);
        let linked = |d| Node::new(EntryKind::File, d, d, 0, flags::HARDLINK);
        let mut b = TreeBuilder::with_identity(true);
        let r = b.add_roots(vec![(b"r".to_vec(), dir(4))]);
        b.set_identity(r, (1, 1));
        let a = b.add_children(r, [(dir(4), &b"A"[..]), (dir(4), &b"B"[..])].into_iter());
        let f = b.add_children(a, [(linked(100), &b"f"[..])].into_iter());
        let g = b.add_children(
            a + 1,
            [(linked(100), &b"g"[..]), (linked(7), &b"h"[..])].into_iter(),
        );
        for (id, ino) in [(a, 2), (a + 1, 3), (f, 10), (g, 10), (g + 1, 11)] {
            b.set_identity(id, (1, ino));
        }
        let mut t = b.into_tree();
        t.mark_repeated_links();
        t.mark_repeated_links(); // idempotent
        t.finish();
        assert_eq!(
            t.node(r).disk,
            4 + 4 + 4 + 100 + 7,
            "the inode once, h once"
        );
        assert_eq!(t.node(a).disk, 4 + 100, "the first name keeps it");
        assert_eq!(t.node(a + 1).disk, 4 + 7);
    }

    /// The two sweeps `finish` was before it was one.
    fn finish_in_two_sweeps(t: &mut Tree) {
        for n in t.nodes.iter_mut().skip(1) {
            if n.has(flags::DUPLICATE) || n.has(flags::FILTERED) || n.has(flags::OTHER_FS) {
                n.disk = 0;
                n.apparent = 0;
                n.entries = 0;
            }
        }
        let total = &mut t.nodes[TOTAL as usize];
        total.disk = 0;
        total.apparent = 0;
        total.entries = 0;
        for id in (1..t.nodes.len()).rev() {
            let n = t.nodes[id].clone();
            let counted =
                !(n.has(flags::DUPLICATE) || n.has(flags::FILTERED) || n.has(flags::OTHER_FS));
            let p = &mut t.nodes[n.parent as usize];
            p.disk = p.disk.saturating_add(n.disk);
            p.apparent = p.apparent.saturating_add(n.apparent);
            p.entries = p.entries.saturating_add(n.entries);
            if counted {
                p.mtime = p.mtime.max(n.mtime);
            }
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
        assert!(
            want.nodes.len() > 1000,
            "a tree of {} nodes",
            want.nodes.len()
        );
        let mut got = want.clone();
        finish_in_two_sweeps(&mut want);
        got.finish();
        for (id, (g, w)) in got.nodes.iter().zip(&want.nodes).enumerate() {
            let g = (g.disk, g.apparent, g.entries, g.mtime);
            let w = (w.disk, w.apparent, w.entries, w.mtime);
            assert_eq!(g, w, "node {id}: (disk, apparent, entries, mtime)");
        }
    }
}
