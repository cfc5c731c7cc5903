//! Changing a finished tree in place: what the interactive view does after deleting an entry or
//! rescanning one. Totals stay consistent by applying differences along the parent chain, so
//! an edit costs O(depth) (plus the size of a grafted subtree), never a pass of totals over
//! the tree; only a deletion that takes counted hard links reads the tree for their other
//! names ([`Tree::removal`]).

use rustc_hash::FxHashMap;

use super::{flags, LinkKey, NodeId, Tree, TOTAL};
use crate::vocab::SizeMode;

/// Sizes that an edit moves around.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Sizes {
    pub disk: u64,
    pub apparent: u64,
    pub entries: u64,
}

impl Sizes {
    fn add(&mut self, o: Sizes) {
        self.disk = self.disk.saturating_add(o.disk);
        self.apparent = self.apparent.saturating_add(o.apparent);
        self.entries = self.entries.saturating_add(o.entries);
    }

    /// In the given mode (a count counts entries; times are not sizes: 0).
    pub fn size(&self, mode: SizeMode) -> u64 {
        match mode {
            SizeMode::Disk => self.disk,
            SizeMode::Apparent => self.apparent,
            SizeMode::Count => self.entries,
            SizeMode::Time => 0,
        }
    }

    pub fn is_zero(&self) -> bool {
        *self == Sizes::default()
    }
}

/// What taking entries off the disk does. A file's inode is counted once, in one of its
/// names (the owner); removing names of an inode that keeps another name frees nothing: its
/// bytes move to a name still in the tree (the first in depth-first order, as a scan would
/// pick), or, when its other names are all outside the scan, they leave the tree but stay on
/// the disk.
#[derive(Clone, Debug, Default)]
pub struct Removal {
    /// What leaves the tree's totals: `freed` and `elsewhere`.
    pub leaves: Sizes,
    /// Freed on the disk: inodes whose last name goes.
    pub freed: Sizes,
    /// Kept by hard links elsewhere in the tree (their bytes move there).
    pub moved: Sizes,
    /// Kept by hard links outside the scan.
    pub elsewhere: Sizes,
    /// (new owner, the inode's sizes): names in the tree that count their inode from now on.
    transfers: Vec<(NodeId, Sizes)>,
}

impl Tree {
    /// What removing `ids` (and so their subtrees) from the disk does; see [`Removal`]. Ids
    /// already removed, and ids inside another of `ids`, count once.
    pub fn removal(&self, ids: &[NodeId]) -> Removal {
        let outer = self.outermost_live(ids);
        let mut r = Removal::default();
        for &t in &outer {
            let n = self.node(t);
            r.leaves.add(Sizes {
                disk: n.disk,
                apparent: n.apparent,
                entries: n.entries as u64,
            });
        }
        if self.has_identity() {
            let owners = self.counted_links_below(&outer);
            if !owners.is_empty() {
                self.follow_links(&mut r, owners, &outer);
            }
        }
        r.freed = Sizes {
            disk: r
                .leaves
                .disk
                .saturating_sub(r.moved.disk)
                .saturating_sub(r.elsewhere.disk),
            apparent: r
                .leaves
                .apparent
                .saturating_sub(r.moved.apparent)
                .saturating_sub(r.elsewhere.apparent),
            entries: r.leaves.entries,
        };
        r.leaves.disk = r.leaves.disk.saturating_sub(r.moved.disk);
        r.leaves.apparent = r.leaves.apparent.saturating_sub(r.moved.apparent);
        r
    }

    /// The live ids of `ids`, once each, without those inside another of them.
    fn outermost_live(&self, ids: &[NodeId]) -> Vec<NodeId> {
        let mut targets: Vec<NodeId> = ids
            .iter()
            .copied()
            .filter(|&id| id != TOTAL && (id as usize) < self.len() && self.is_live(id))
            .collect();
        targets.sort_unstable();
        targets.dedup();
        let inner = |t: &[NodeId], id: NodeId| {
            let p = self.parent(id);
            p != TOTAL && t.iter().any(|&o| self.is_within(p, o))
        };
        targets
            .iter()
            .copied()
            .filter(|&id| !inner(&targets, id))
            .collect()
    }

    /// The counted names of shared inodes below `outer`.
    fn counted_links_below(&self, outer: &[NodeId]) -> FxHashMap<LinkKey, NodeId> {
        let mut owners: FxHashMap<LinkKey, NodeId> = FxHashMap::default();
        for &t in outer {
            let mut stack = vec![t];
            while let Some(id) = stack.pop() {
                let n = self.node(id);
                if n.has(flags::REMOVED) {
                    continue;
                }
                stack.extend(n.children());
                if n.has(flags::HARDLINK) && n.is_counted() && !n.is_dir() {
                    if let Some(key) = self.identity_of(id) {
                        owners.insert(key, id);
                    }
                }
            }
        }
        owners
    }

    /// Where the bytes of each inode in `owners` go once `outer` is gone: to a name left in
    /// the tree (moved), to names outside the scan (elsewhere), or nowhere (freed).
    fn follow_links(&self, r: &mut Removal, owners: FxHashMap<LinkKey, NodeId>, outer: &[NodeId]) {
        let names = self.names_of(&owners);
        let mut keys: Vec<(LinkKey, NodeId)> = owners.into_iter().collect();
        keys.sort_unstable_by_key(|&(_, owner)| owner);
        for (key, owner) in keys {
            let n = self.node(owner);
            let sizes = Sizes {
                disk: n.disk,
                apparent: n.apparent,
                entries: 1,
            };
            let all = names.get(&key).map_or(&[][..], |v| &v[..]);
            let left: Vec<NodeId> = all
                .iter()
                .copied()
                .filter(|&id| {
                    let m = self.node(id);
                    !m.has(flags::FILTERED | flags::REMOVED)
                        && self.is_live(id)
                        && !outer.iter().any(|&t| self.is_within(id, t))
                })
                .collect();
            // a name left that counts the inode already (a tree not settled yet, as the
            // snapshots of a walk in progress) needs nothing more
            let counted = left.iter().any(|&id| !self.node(id).has(flags::DUPLICATE));
            let heir = left.iter().copied().min_by(|&a, &b| self.dfs_order(a, b));
            let nlink = self.links_of(owner).unwrap_or(0) as usize;
            match heir {
                Some(h) => {
                    r.moved.add(Sizes {
                        entries: 0,
                        ..sizes
                    });
                    if !counted {
                        r.transfers.push((h, sizes));
                    }
                }
                None if nlink > all.len() => r.elsewhere.add(Sizes {
                    entries: 0,
                    ..sizes
                }),
                None => {}
            }
        }
    }

    /// Every name in the tree of the inodes `owners` holds.
    fn names_of(&self, owners: &FxHashMap<LinkKey, NodeId>) -> FxHashMap<LinkKey, Vec<NodeId>> {
        let mut names: FxHashMap<LinkKey, Vec<NodeId>> = FxHashMap::default();
        let mut keys = self.identity_reader();
        for id in 1..self.len() {
            let n = self.node(id as NodeId);
            if n.has(flags::HARDLINK) && !n.is_dir() {
                if let Some(key) = keys.of(id as NodeId) {
                    if owners.contains_key(&key) {
                        names.entry(key).or_default().push(id as NodeId);
                    }
                }
            }
        }
        names
    }

    /// Takes `ids` off the tree after they were deleted from the disk ([`Tree::remove`] each),
    /// and gives each shared inode that lost its counted name to the name that counts it now
    /// (see [`Removal`]): every ancestor total says what a rescan would. Returns what it did.
    pub fn remove_all(&mut self, ids: &[NodeId]) -> Removal {
        let r = self.removal(ids);
        for &id in ids {
            if (id as usize) < self.len() {
                self.remove(id);
            }
        }
        for &(heir, s) in &r.transfers {
            let mut n = self.node(heir);
            n.packed &= !((flags::DUPLICATE as u64) << 56);
            n.disk = s.disk;
            n.apparent = s.apparent;
            n.entries = 1;
            self.set_node(heir, &n);
            let mut p = self.parent(heir);
            loop {
                let mut a = self.node(p);
                a.disk = a.disk.saturating_add(s.disk);
                a.apparent = a.apparent.saturating_add(s.apparent);
                a.entries = a.entries.saturating_add(1);
                self.set_node(p, &a);
                if p == TOTAL {
                    break;
                }
                p = self.parent(p);
            }
        }
        r
    }

    /// Whether `id` is `ancestor` or lies below it.
    pub fn is_within(&self, mut id: NodeId, ancestor: NodeId) -> bool {
        loop {
            if id == ancestor {
                return true;
            }
            if id == TOTAL {
                return false;
            }
            id = self.parent(id);
        }
    }

    /// Whether a node is still part of the tree: not removed, and not inside a subtree that a
    /// rescan replaced (its parent no longer lists it) or that was removed.
    pub fn is_live(&self, mut id: NodeId) -> bool {
        while id != TOTAL {
            if self.head(id).flags() & flags::REMOVED != 0 {
                return false;
            }
            let parent = self.parent(id);
            if !self.node(parent).children().contains(&id) {
                return false;
            }
            id = parent;
        }
        true
    }

    /// Takes a node (and so its subtree) out of the totals after it was deleted from the disk.
    /// It stays in the arena, flagged [`flags::REMOVED`], so node ids do not move.
    pub fn remove(&mut self, id: NodeId) {
        if id == TOTAL || self.node(id).has(flags::REMOVED) {
            return;
        }
        let mut n = self.node(id);
        let (disk, apparent, entries) = (n.disk, n.apparent, n.entries);
        n.set_flag(flags::REMOVED);
        (n.disk, n.apparent, n.entries) = (0, 0, 0);
        self.set_node(id, &n);
        let mut p = self.parent(id);
        loop {
            let mut a = self.node(p);
            a.disk = a.disk.saturating_sub(disk);
            a.apparent = a.apparent.saturating_sub(apparent);
            a.entries = a.entries.saturating_sub(entries);
            self.set_node(p, &a);
            if p == TOTAL {
                break;
            }
            p = self.parent(p);
        }
    }

    /// Replaces the contents of `at` with a fresh scan of it: `sub` is a finished tree whose
    /// single root is the same directory (or file). Its nodes are appended (ids stay unique and
    /// children stay after their parent); the old children become unreachable. The totals of
    /// `at` and of every ancestor change by the difference.
    pub fn graft(&mut self, at: NodeId, sub: &Tree) {
        let Some(sub_root) = sub.roots().next() else {
            return;
        };
        let base = self.len() as NodeId;
        // sub ids: TOTAL, the root, then its descendants from sub_root + 1 on
        let first = sub_root + 1;
        let map = |id: NodeId| {
            if id == sub_root {
                at
            } else {
                base + (id - first)
            }
        };
        for id in first..sub.len() as NodeId {
            let mut n = sub.node(id);
            if n.child_count > 0 {
                n.first_child = map(n.first_child);
            }
            let name = sub.name(id);
            n.set_name(self.names.len() as u64, name.len());
            self.names.extend_from_slice(name);
            self.push_node(map(sub.parent(id)), &n);
            if let Some(links) = sub.links_of(id) {
                self.links.insert(map(id), links);
            }
        }
        match sub.links_of(sub_root) {
            Some(links) => self.links.insert(at, links),
            None => self.links.remove(&at),
        };
        // the blocks of children below the root, in order: all of them after every block here
        let blocks = sub.blocks.iter().filter(|&&(f, _)| f >= first);
        let blocks: Vec<_> = blocks.map(|&(f, p)| (map(f), map(p))).collect();
        self.blocks.extend(blocks);
        let fresh = sub.node(sub_root);
        let old = self.node(at);
        {
            let mut n = old.clone();
            n.child_count = fresh.child_count;
            n.first_child = if fresh.child_count > 0 {
                map(fresh.first_child)
            } else {
                0
            };
            n.disk = fresh.disk;
            n.apparent = fresh.apparent;
            n.entries = fresh.entries;
            n.mtime = fresh.mtime;
            // flags and kind both: a directory may be a file now
            const KIND_AND_FLAGS: u64 = (0xffu64 << 56) | (3u64 << 48);
            n.packed = (n.packed & !KIND_AND_FLAGS) | (fresh.packed & KIND_AND_FLAGS);
            self.set_node(at, &n);
        }
        if self.has_identity() {
            // in id order, each directory before its entries (as a walk sets them): the new
            // ids come after every id recorded, and append to the log
            let ids = std::iter::once(sub_root).chain(first..sub.len() as NodeId);
            for id in ids {
                if let Some(key) = sub.identity_of(id) {
                    self.set_exact_identity(map(id), key);
                }
            }
        }
        let mut p = at;
        while p != TOTAL {
            p = self.parent(p);
            let mut a = self.node(p);
            a.disk = a.disk.saturating_sub(old.disk).saturating_add(fresh.disk);
            a.apparent = a
                .apparent
                .saturating_sub(old.apparent)
                .saturating_add(fresh.apparent);
            a.entries = a
                .entries
                .saturating_sub(old.entries)
                .saturating_add(fresh.entries);
            a.mtime = a.mtime.max(fresh.mtime);
            self.set_node(p, &a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{EntryKind, Node, TreeBuilder};
    use super::*;

    fn file(size: u64) -> Node {
        Node::new(EntryKind::File, size, size, 5, 0)
    }

    fn dir() -> Node {
        Node::new(EntryKind::Dir, 10, 10, 1, 0)
    }

    /// r/{a/{x 100, y 200}, b 1000}
    fn sample() -> Tree {
        let mut b = TreeBuilder::new();
        b.add_roots(vec![(b"r".to_vec(), dir())]);
        let a = b.add_children(1, [(dir(), &b"a"[..]), (file(1000), &b"b"[..])].into_iter());
        b.add_children(
            a,
            [(file(100), &b"x"[..]), (file(200), &b"y"[..])].into_iter(),
        );
        let mut t = b.into_tree();
        t.finish();
        t
    }

    #[test]
    fn remove_subtracts_from_every_ancestor() {
        let mut t = sample();
        assert_eq!(t.node(1).disk, 1320);
        let x = t.node(2).first_child;
        t.remove(x);
        assert_eq!(
            (t.node(2).disk, t.node(1).disk, t.node(TOTAL).disk),
            (210, 1220, 1220)
        );
        assert_eq!(t.node(1).entries, 4);
        assert!(!t.is_live(x) && t.is_live(2));
        t.remove(x); // twice: no double subtraction
        assert_eq!(t.node(1).disk, 1220);
        t.remove(2);
        assert_eq!(t.node(1).disk, 1010);
        assert!(
            !t.is_live(t.node(2).first_child + 1),
            "inside a removed dir"
        );
    }

    #[test]
    fn graft_replaces_children_and_fixes_totals() {
        let mut t = sample();
        let old_kids = t.node(2).children();
        // a rescan of r/a finds z (50) inside a new directory d
        let mut b = TreeBuilder::new();
        b.add_roots(vec![(b"r/a".to_vec(), dir())]);
        let d = b.add_children(1, [(dir(), &b"d"[..])].into_iter());
        b.add_children(d, [(file(50), &b"z"[..])].into_iter());
        let mut sub = b.into_tree();
        sub.finish();
        t.graft(2, &sub);
        assert_eq!(t.node(2).disk, 70);
        assert_eq!(t.node(1).disk, 10 + 70 + 1000);
        assert_eq!(t.node(TOTAL).disk, 1080);
        let d = t.node(2).first_child;
        assert_eq!(t.name(d), b"d");
        assert_eq!(t.path(t.node(d).first_child), b"r/a/d/z");
        assert!(old_kids.clone().all(|k| !t.is_live(k)));
        assert!(t.is_within(t.node(d).first_child, 2));
    }

    /// r/{A/{f 100 (counted)}, B/{g (the same inode, a duplicate)}, c 7}
    fn linked() -> (Tree, NodeId, NodeId, NodeId, NodeId) {
        let mut b = TreeBuilder::with_identity(true);
        b.add_roots(vec![(b"r".to_vec(), dir())]);
        b.set_identity(1, (1, 1));
        let a = b.add_children(
            1,
            [(dir(), &b"A"[..]), (dir(), &b"B"[..]), (file(7), &b"c"[..])].into_iter(),
        );
        for (i, id) in (a..a + 3).enumerate() {
            b.set_identity(id, (1, 10 + i as u64));
        }
        let hard = Node::new(EntryKind::File, 100, 100, 5, flags::HARDLINK);
        let f = b.add_children(a, [(hard.clone(), &b"f"[..])].into_iter());
        let g = b.add_children(a + 1, [(hard, &b"g"[..])].into_iter());
        for id in [f, g] {
            b.set_identity(id, (1, 99));
            b.set_links(id, 2);
        }
        let mut t = b.into_tree();
        t.set_flag(g, flags::DUPLICATE);
        t.finish();
        (t, a, a + 1, f, g)
    }

    #[test]
    fn removing_the_counted_name_of_a_shared_inode_moves_its_bytes_to_the_other() {
        let (mut t, a, b, _f, g) = linked();
        assert_eq!((t.node(a).disk, t.node(b).disk), (110, 10));
        let r = t.removal(&[a]);
        assert_eq!((r.freed.disk, r.moved.disk, r.leaves.disk), (10, 100, 10));
        t.remove_all(&[a]);
        assert_eq!(t.node(b).disk, 110);
        assert_eq!(t.node(g).entries, 1);
        assert!(!t.node(g).has(flags::DUPLICATE));
        assert_eq!(t.node(1).disk, 10 + 110 + 7);
        assert_eq!(t.node(TOTAL).entries, 4, "r, B, g (counted now) and c");
    }

    #[test]
    fn removing_every_name_frees_the_inode_and_a_duplicate_alone_frees_nothing() {
        let (t, a, b, _f, g) = linked();
        let r = t.removal(&[a, b]);
        assert_eq!((r.freed.disk, r.moved.disk), (120, 0));
        let r = t.removal(&[g]);
        assert_eq!((r.freed.disk, r.moved.disk, r.leaves.disk), (0, 0, 0));
    }

    #[test]
    fn a_name_outside_the_scan_keeps_the_inode_but_not_in_the_tree() {
        let (mut t, a, b, f, _g) = linked();
        t.links.insert(f, 3); // one more name, not scanned
        let r = t.removal(&[a, b]);
        assert_eq!(
            (r.freed.disk, r.elsewhere.disk, r.leaves.disk),
            (20, 100, 120)
        );
    }
}
