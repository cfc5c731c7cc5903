//! Growing the tree during a parallel walk.
//!
//! Each directory task appends all its children under one short lock, so the lock is taken
//! once per directory, never per entry. Which name owns a hard-linked inode is decided apart
//! from this lock (`walk::dedup`).

use super::{slot::Head, Node, NodeId, StatExtra, Tree, TOTAL};

/// `(st_dev, st_ino)`: what makes two names the same file.
pub type LinkKey = (u64, u64);

#[derive(Debug)]
pub struct TreeBuilder {
    tree: Tree,
    keep_identity: bool,
    sparse_identity: bool,
    keep_extra: bool,
    /// Whether nodes keep their times (else every time is 0, and the tree makes no column of
    /// them: see `slot`).
    keep_times: bool,
    /// How many nodes, name bytes, apparent sizes and times [`TreeBuilder::room_ahead`] has
    /// handed out so far.
    ready_nodes: usize,
    ready_names: usize,
    ready_tails: [usize; 2],
}

/// Address and length of the spare capacity of `v`: memory that `sys::prefault` may fault
/// in before `v` grows into it.
pub fn spare_room<T>(v: &mut Vec<T>) -> (usize, usize) {
    let spare = v.spare_capacity_mut();
    (spare.as_mut_ptr() as usize, std::mem::size_of_val(spare))
}

/// Where `v` is to be made ready next, for a vector whose room is reserved ahead and filled
/// in spans of `want` elements: `ready` elements are (or are being) made ready so far. Once
/// `v` holds more than that less half a span, the next span past them (or past its end, if
/// it got further), within its capacity: (elements ready then, (address, length in bytes)).
/// Otherwise `(ready, (0, 0))`.
pub fn span_ahead<T>(v: &Vec<T>, ready: usize, want: usize) -> (usize, (usize, usize)) {
    if v.len() + want / 2 < ready {
        return (ready, (0, 0));
    }
    let size = std::mem::size_of::<T>();
    let from = ready.max(v.len()).min(v.capacity());
    let to = (from + want).min(v.capacity());
    (to, (v.as_ptr() as usize + from * size, (to - from) * size))
}

/// Nodes and name bytes [`TreeBuilder::room_ahead`] hands out at a time: 64 KiB of each.
/// The first such span is left to ordinary page faults (a tiny scan needs no more).
const AHEAD_NODES: usize = (64 << 10) / std::mem::size_of::<Head>();
const AHEAD_NAMES: usize = 64 << 10;

impl Default for TreeBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl TreeBuilder {
    pub fn new() -> TreeBuilder {
        TreeBuilder {
            tree: Tree::with_total(),
            keep_identity: false,
            sparse_identity: false,
            keep_extra: false,
            keep_times: true,
            ready_nodes: AHEAD_NODES,
            ready_names: AHEAD_NAMES,
            ready_tails: [AHEAD_NODES; 2],
        }
    }

    /// A builder that also records every node's `(dev, ino)` ([`Tree::identity_of`]).
    pub fn with_identity(keep: bool) -> TreeBuilder {
        let mut b = TreeBuilder {
            keep_identity: keep,
            ..TreeBuilder::new()
        };
        if keep {
            b.tree.keep_identity(false);
        }
        b
    }

    /// Of the identities, keeps only what an export reads: the device of every directory,
    /// and `(dev, ino)` of a scanned file, of hard-linked files and of files on another
    /// device than their directory. Set their flags before their identities.
    pub fn sparse_identity(mut self, sparse: bool) -> TreeBuilder {
        if self.keep_identity {
            self.tree.keep_identity(sparse);
        }
        TreeBuilder {
            sparse_identity: sparse,
            ..self
        }
    }

    /// Also records every node's owner, mode and times ([`Tree::extra`]).
    pub fn with_extra(self, keep: bool) -> TreeBuilder {
        TreeBuilder {
            keep_extra: keep,
            ..self
        }
    }

    /// Keeps the nodes' times (the default), or none: for a walk whose views show no time,
    /// which then takes 4 bytes an entry less.
    pub fn with_times(self, keep: bool) -> TreeBuilder {
        TreeBuilder {
            keep_times: keep,
            ..self
        }
    }

    /// Address space for a million nodes and their names, taken before the walk and touched
    /// only as the walk fills it (no memory until then): growing the arrays means
    /// moving them, under the lock every directory task takes, and on a large array the move
    /// is an mremap whose TLB flush interrupts the other threads, which then queue on the
    /// lock and sleep (balanced, 2 threads: ~90 futex calls and 25 IPIs per walk).
    pub fn reserved_for_walk(mut self) -> TreeBuilder {
        const NODES: usize = 1 << 20;
        // address space asked for, not memory: where it is refused (strict overcommit, a
        // small address-space limit) the arrays grow as they fill, as any vector does
        let _ = self.tree.slots.try_reserve(NODES);
        let _ = self.tree.names.try_reserve(NODES * 16);
        let _ = self.tree.dirs.try_reserve(NODES / 8);
        let _ = self.tree.blocks.try_reserve(NODES / 8);
        self.tree.reserve_identity(NODES);
        if self.keep_extra {
            let _ = self.tree.extra.try_reserve(NODES);
        }
        self
    }

    /// Where the next `nodes` nodes and `name_bytes` bytes of names will go, as (address,
    /// length) pairs within the space already reserved: a huge directory's nodes are built
    /// here under the tree's lock, and another thread can fault these pages in first
    /// (`sys::prefault`).
    pub fn spare_regions(&self, nodes: usize, name_bytes: usize) -> [(usize, usize); 4] {
        fn region<T>(v: &Vec<T>, want: usize) -> (usize, usize) {
            let size = std::mem::size_of::<T>();
            let spare = (v.capacity() - v.len()).min(want);
            (v.as_ptr() as usize + v.len() * size, spare * size)
        }
        [
            region(&self.tree.slots, nodes),
            region(&self.tree.names, name_bytes),
            region(&self.tree.tail_columns()[0], nodes),
            region(&self.tree.tail_columns()[1], nodes),
        ]
    }

    /// Once the tree has used half of the room handed out before, the next span of it, as
    /// (address, length) pairs within the space already reserved, to be faulted in as a
    /// whole (`sys::prefault`): a page taken by a fault costs twice what it costs in
    /// one call for sixteen, and even a modest walk takes hundreds of pages of nodes and
    /// names. None while there is room enough.
    pub fn room_ahead(&mut self) -> Option<[(usize, usize); 4]> {
        let (ready_nodes, nodes) = span_ahead(&self.tree.slots, self.ready_nodes, AHEAD_NODES);
        let (ready_names, names) = span_ahead(&self.tree.names, self.ready_names, AHEAD_NAMES);
        let [apparent, time] = self.tree.tail_columns();
        let (ready_apparent, apparent) = span_ahead(apparent, self.ready_tails[0], AHEAD_NODES);
        let (ready_time, time) = span_ahead(time, self.ready_tails[1], AHEAD_NODES);
        (self.ready_nodes, self.ready_names) = (ready_nodes, ready_names);
        self.ready_tails = [ready_apparent, ready_time];
        let spans = [nodes, names, apparent, time];
        spans.iter().any(|&(_, bytes)| bytes > 0).then_some(spans)
    }

    /// Records the link count of a hard-linked file, when identities are kept.
    pub fn set_links(&mut self, id: NodeId, nlink: u64) {
        if self.keep_identity {
            let n = u32::try_from(nlink).unwrap_or(u32::MAX);
            self.tree.links.insert(id, n);
        }
    }

    /// Records the extra stat facts of a node, when they are kept (a no-op otherwise).
    pub fn set_extra(&mut self, id: NodeId, extra: StatExtra) {
        if !self.keep_extra {
            return;
        }
        let all = &mut self.tree.extra;
        if all.len() < self.tree.slots.len() {
            all.resize(self.tree.slots.len(), StatExtra::default());
        }
        all[id as usize] = extra;
    }

    /// Records the `(dev, ino)` of a node, when identities are kept (a no-op otherwise).
    pub fn set_identity(&mut self, id: NodeId, key: LinkKey) {
        if !self.keep_identity {
            return;
        }
        if self.sparse_identity {
            self.tree.set_sparse_identity(id, key);
        } else {
            self.tree.set_exact_identity(id, key);
        }
    }

    /// Adds the scanned paths, in order, as the children of [`TOTAL`]; returns the first id.
    /// Call once.
    pub fn add_roots(&mut self, roots: Vec<(Vec<u8>, Node)>) -> NodeId {
        let first = self.tree.len() as NodeId;
        let count = roots.len() as u32;
        for (name, mut node) in roots {
            self.tree.root_names.push(name);
            if !self.keep_times {
                node.mtime = 0;
            }
            self.tree.push_node(TOTAL, &node.with_local_name(0, 0));
        }
        self.tree.close_block(TOTAL, first, count);
        first
    }

    /// Changes node `id` in place: its own values, also once a view summed totals while
    /// the walk runs ([`Tree::sum_live`]).
    pub fn update(&mut self, id: NodeId, change: impl FnOnce(&mut Node)) {
        let mut n = self.tree.own_node(id);
        change(&mut n);
        if !self.keep_times {
            n.mtime = 0;
        }
        self.tree.set_own_node(id, &n);
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The tree being built, for a view that shows it as it grows (under the lock the walk
    /// takes): it may sum totals ([`Tree::sum_live`]), mark flags and remove entries, never
    /// add any.
    pub fn tree_mut(&mut self) -> &mut Tree {
        &mut self.tree
    }

    /// Appends the children of `parent` (which must have none yet) and returns the first id.
    /// Names longer than 255 bytes cannot come from a directory and are cut.
    pub fn add_children<'a>(
        &mut self,
        parent: NodeId,
        children: impl ExactSizeIterator<Item = (Node, &'a [u8])>,
    ) -> NodeId {
        let count = children.len() as NodeId;
        self.tree.slots.reserve(children.len());
        for (node, name) in children {
            self.push_child(parent, node, name);
        }
        self.close_children(parent, count)
    }

    /// Appends the children of `parent` (which must have none yet), built by the caller
    /// before it took the lock: their names are spans of `names` ([`Node::with_local_name`]).
    /// Only copies, so the lock a parallel walk holds around it is short (with per-entry work
    /// under it, two threads met on it thousands of times per second and slept on a futex).
    pub fn append_children(&mut self, parent: NodeId, nodes: &[Node], names: &[u8]) -> NodeId {
        let first = self.tree.len() as NodeId;
        self.extend_children(parent, nodes, names);
        self.tree.close_block(parent, first, nodes.len() as u32);
        first
    }

    /// Appends more children of `parent` built before the lock was taken, as
    /// [`TreeBuilder::append_children`] does, but leaves them open like
    /// [`TreeBuilder::push_child`]: [`TreeBuilder::close_children`] ends them.
    pub fn extend_children(&mut self, parent: NodeId, nodes: &[Node], names: &[u8]) {
        let base = self.tree.names.len() as u64;
        debug_assert!(base + names.len() as u64 <= super::NAME_OFF_MASK);
        self.tree.names.extend_from_slice(names);
        self.tree.slots.reserve(nodes.len());
        for n in nodes {
            if self.keep_times {
                self.tree.push_node_named(parent, n, base);
            } else {
                let timeless = Node {
                    mtime: 0,
                    ..n.clone()
                };
                self.tree.push_node_named(parent, &timeless, base);
            }
        }
    }

    /// Appends one child of `parent`, which must have none yet; [`TreeBuilder::close_children`]
    /// then makes the last `count` nodes pushed its children.
    pub fn push_child(&mut self, parent: NodeId, mut node: Node, name: &[u8]) {
        let name = &name[..name.len().min(255)];
        if !self.keep_times {
            node.mtime = 0;
        }
        node.set_name(self.tree.names.len() as u64, name.len());
        self.tree.names.extend_from_slice(name);
        self.tree.push_node(parent, &node);
    }

    /// Records the last `count` nodes pushed as the children of `parent`; returns the first.
    pub fn close_children(&mut self, parent: NodeId, count: NodeId) -> NodeId {
        let first = self.tree.len() as NodeId - count;
        self.tree.close_block(parent, first, count);
        first
    }

    /// Whether [`TreeBuilder::set_identity`], `set_links` or `set_extra` record anything.
    pub fn keeps_per_node_facts(&self) -> bool {
        self.keep_identity || self.keep_extra
    }

    pub fn into_tree(mut self) -> Tree {
        if self.keep_extra {
            let n = self.tree.len();
            self.tree.extra.resize(n, StatExtra::default());
        }
        self.tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::EntryKind;

    /// The spans handed out follow each other without a gap or an overlap, stay within the
    /// reserved room, start only once half the room before is used, and a small tree gets
    /// none (its pages are left to ordinary faults).
    #[test]
    fn room_ahead_hands_out_the_reserved_room_in_order() {
        let mut b = TreeBuilder::new().reserved_for_walk();
        let root = b.add_roots(vec![(b"r".to_vec(), Node::new(EntryKind::Dir, 0, 0, 0, 0))]);
        let node_size = std::mem::size_of::<Head>();
        let base = b.tree().slots.as_ptr() as usize;
        let mut next_nodes = base + AHEAD_NODES * node_size;
        let mut spans = 0;
        for i in 0..20 * AHEAD_NODES {
            b.push_child(root, Node::new(EntryKind::File, 0, 0, 0, 0), b"n");
            let len = b.tree().len();
            match b.room_ahead() {
                Some([(at, bytes), ..]) if bytes > 0 => {
                    assert_eq!(at, next_nodes, "span {spans} starts where the last ended");
                    assert_eq!(bytes, AHEAD_NODES * node_size);
                    assert!(
                        len + AHEAD_NODES / 2 >= (at - base) / node_size,
                        "not before half the room is used (node {i})"
                    );
                    next_nodes = at + bytes;
                    spans += 1;
                }
                _ => assert!(
                    len <= AHEAD_NODES / 2 || (next_nodes - base) / node_size > len,
                    "room is ready ahead of node {i}"
                ),
            }
            assert!(next_nodes <= base + b.tree().slots.capacity() * node_size);
        }
        assert!(spans >= 19, "{spans} spans for 20 spans' worth of nodes");

        let mut small = TreeBuilder::new().reserved_for_walk();
        let r = small.add_roots(vec![(b"r".to_vec(), Node::new(EntryKind::Dir, 0, 0, 0, 0))]);
        for _ in 0..100 {
            small.push_child(r, Node::new(EntryKind::File, 0, 0, 0, 0), b"name");
        }
        assert!(
            small.room_ahead().is_none(),
            "a tiny tree faults its own pages"
        );
    }

    /// A builder without times keeps none, whatever its nodes say, and its tree makes no
    /// column for them; with them, as they came. Sizes stay either way.
    #[test]
    fn a_walk_without_times_keeps_none() {
        for keep in [false, true] {
            let mut b = TreeBuilder::new().with_times(keep);
            let root = b.add_roots(vec![(
                b"r".to_vec(),
                Node::new(EntryKind::Dir, 4096, 4096, 7, 0),
            )]);
            for i in 1..=100 {
                let n = Node::new(EntryKind::File, 512, i, 1_000 + i as i64, 0);
                b.push_child(root, n, b"n");
            }
            b.close_children(root, 100);
            b.update(root, |n| n.mtime = 5_000);
            let mut t = b.into_tree();
            t.finish();
            let n = t.node(root);
            let times = if keep { (5_000, 1_100) } else { (0, 0) };
            assert_eq!((n.mtime, t.node(root + 100).mtime), times, "keep {keep}");
            assert_eq!((n.disk, n.apparent), (4096 + 100 * 512, 4096 + 5050));
            assert_eq!(t.made_columns(), [true, keep]);
        }
    }

    /// Faulting in the tree's spare space must leave what is there as it was, and the space
    /// must start where the next node will go.
    #[test]
    fn prefault_keeps_the_tree_and_covers_what_comes_next() {
        let mut b = TreeBuilder::new().reserved_for_walk();
        let root = b.add_roots(vec![(b"r".to_vec(), Node::new(EntryKind::Dir, 0, 0, 0, 0))]);
        for i in 0..1000u64 {
            b.push_child(root, Node::new(EntryKind::File, i, i, 0, 0), b"name");
        }
        let first = b.close_children(root, 1000);
        let last = first + 999;
        let [(nodes_at, nodes_len), (names_at, names_len), (tails_at, tails_len), _] =
            b.spare_regions(5000, 40_000);
        let tree = b.tree();
        assert_eq!(
            nodes_at,
            std::ptr::from_ref(tree.head(last)) as usize + std::mem::size_of::<Head>(),
            "the node region starts right after the last node"
        );
        assert_eq!(nodes_len, 5000 * std::mem::size_of::<Head>());
        assert_eq!(
            (tails_at, tails_len),
            (
                tree.tail_columns()[0].as_ptr() as usize + tree.len() * 4,
                5000 * 4
            ),
            "the tail region starts right after the last tail"
        );
        assert_eq!(
            names_at,
            tree.name(last).as_ptr() as usize + 4,
            "the name region starts right after the last name"
        );
        assert_eq!(names_len, 40_000);
        crate::sys::prefault(nodes_at - 100, nodes_len + 100); // starts inside the last nodes
        crate::sys::prefault(names_at - 10, names_len + 10);
        crate::sys::prefault(tails_at - 10, tails_len + 10);
        for (i, id) in (first..=last).enumerate() {
            assert_eq!(tree.node(id).disk, i as u64, "node {id} unchanged");
            assert_eq!(tree.name(id), b"name", "name of node {id} unchanged");
        }
    }
}
