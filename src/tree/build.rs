//! Growing the tree during a parallel walk.
//!
//! Each directory task appends all its children under one short lock, so the lock is taken
//! once per directory, never per entry. Hard links are settled in the same critical section:
//! the owner of an inode is the occurrence a depth-first walk in directory order meets first
//! (what GNU du counts), decided by tree position rather than by which thread got there first,
//! so `-T 1` and `-T 8` print the same numbers.

use rustc_hash::FxHashMap;

use super::{flags, Node, NodeId, Tree, TOTAL};

/// `(st_dev, st_ino)`: what makes two names the same file.
pub type LinkKey = (u64, u64);

#[derive(Debug)]
pub struct TreeBuilder {
    tree: Tree,
    /// Inodes already counted, with the node that owns them.
    owners: FxHashMap<LinkKey, NodeId>,
}

impl Default for TreeBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl TreeBuilder {
    pub fn new() -> TreeBuilder {
        let mut tree = Tree::default();
        let mut total = Node::new(super::EntryKind::Dir, 0, 0, i64::MIN, 0);
        total.entries = 0;
        total.parent = TOTAL;
        tree.nodes.push(total);
        TreeBuilder {
            tree,
            owners: FxHashMap::default(),
        }
    }

    /// Adds the scanned paths, in order, as the children of [`TOTAL`]. Call once.
    pub fn add_roots(&mut self, roots: Vec<(Vec<u8>, Node)>) {
        let first = self.tree.nodes.len() as NodeId;
        self.tree.nodes[0].first_child = first;
        self.tree.nodes[0].child_count = roots.len() as u32;
        for (name, mut node) in roots {
            node.parent = TOTAL;
            self.tree.root_names.push(name);
            self.tree.nodes.push(node);
        }
    }

    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.tree.nodes[id as usize]
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Appends the children of `parent` (which must have none yet) and returns the first id.
    /// Names longer than 255 bytes cannot come from a directory and are cut.
    pub fn add_children<'a>(
        &mut self,
        parent: NodeId,
        children: impl ExactSizeIterator<Item = (Node, &'a [u8])>,
    ) -> NodeId {
        let first = self.tree.nodes.len() as NodeId;
        let count = children.len() as u32;
        self.tree.nodes.reserve(children.len());
        for (mut node, name) in children {
            let name = &name[..name.len().min(255)];
            node.parent = parent;
            node.set_name(self.tree.names.len() as u64, name.len());
            self.tree.names.extend_from_slice(name);
            self.tree.nodes.push(node);
        }
        let p = &mut self.tree.nodes[parent as usize];
        p.first_child = first;
        p.child_count = count;
        first
    }

    /// Records that `id` is a name of inode `key`. Returns true when `id` is the one that
    /// counts. A later claim that comes earlier in walk order takes the inode over (only for
    /// non-directories: a directory's contents are walked once, by whoever claimed it first).
    pub fn claim(&mut self, key: LinkKey, id: NodeId) -> bool {
        use std::collections::hash_map::Entry;
        match self.owners.entry(key) {
            Entry::Vacant(v) => {
                v.insert(id);
                true
            }
            Entry::Occupied(mut o) => {
                let owner = *o.get();
                let may_take_over = !self.tree.nodes[id as usize].is_dir()
                    && !self.tree.nodes[owner as usize].is_dir()
                    && self.tree.precedes(id, owner);
                if may_take_over {
                    o.insert(id);
                    self.tree.nodes[owner as usize].set_flag(flags::DUPLICATE);
                    true
                } else {
                    self.tree.nodes[id as usize].set_flag(flags::DUPLICATE);
                    false
                }
            }
        }
    }

    pub fn into_tree(self) -> Tree {
        self.tree
    }
}
