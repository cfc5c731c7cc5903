//! Building a tree from a depth-first listing (an export) in one pass, as it is read.
//!
//! A listing interleaves a directory's children with their own contents, while the tree wants
//! every directory's children side by side and after it. Collecting the whole listing first and
//! laying it out afterwards holds two copies of everything; this holds the finished tree plus
//! the children of the directories still open (one level each, like the listing's own nesting).
//!
//! When a directory closes, its children go to the end of the node vector as one block, last
//! child first. The blocks of its subdirectories went there earlier, and it goes there itself
//! with its parent's block, later: every node ends up after its descendants. Reversing the
//! vector at the end gives the tree's order (parents first, each block in listing order), and
//! the ids are fixed up in two flat passes. Nothing recurses, whatever the depth.

use rustc_hash::FxHashMap;

use super::{EntryKind, LinkKey, Node, NodeId, StatExtra, Tree, TOTAL};

/// "Not a directory" / "not placed yet".
const NONE: u32 = u32::MAX;

/// Blocks of pending children bigger than this are freed rather than reused for the next
/// directory: they would sit beside the finished tree until the end.
const SPARE_MAX: usize = 4096;

/// A child read but not placed yet: its directory is still open. Its name span points into
/// its level's `names`; a closed directory's `first_child` is its block's pre-reversal start.
struct Kid {
    node: Node,
    key: LinkKey,
    /// Link count of a hard-linked file, if recorded.
    links: Option<u32>,
    /// The directory's sequence number ([`PostOrderBuilder::open_dir`]), or [`NONE`].
    seq: u32,
}

/// The pending children of one open directory.
#[derive(Default)]
struct Level {
    kids: Vec<Kid>,
    names: Vec<u8>,
    /// Empty, or the extra facts of the first `extra.len()` kids (the rest have none).
    extra: Vec<StatExtra>,
}

/// Grows a [`Tree`] from entries given depth-first: the root, then each entry of an open
/// directory in order, a directory's contents between [`PostOrderBuilder::open_dir`] and
/// [`PostOrderBuilder::close`].
pub struct PostOrderBuilder {
    /// Placed nodes, in reverse of their final order (no parents or blocks yet).
    placed: Tree,
    names: Vec<u8>,
    /// Parallel to `nodes` when identities are kept.
    identity: Vec<LinkKey>,
    /// Empty until an entry has extra facts (and they are kept), then parallel to `nodes`.
    extra: Vec<StatExtra>,
    /// Link counts by pre-reversal id.
    links: FxHashMap<NodeId, u32>,
    /// Pre-reversal id of each directory by sequence number ([`NONE`] until placed).
    dir_ids: Vec<NodeId>,
    root: Option<(Vec<u8>, Kid, Option<StatExtra>)>,
    /// Open directories, outermost (the root) first.
    levels: Vec<Level>,
    spare: Vec<Level>,
    keep_identity: bool,
    keep_extra: bool,
}

/// What [`PostOrderBuilder::into_tree`] returns.
pub struct Built {
    pub tree: Tree,
    /// Node id of each directory by its sequence number (the root is 0).
    pub dir_ids: Vec<NodeId>,
}

impl PostOrderBuilder {
    /// A builder that keeps identities and extra facts only when asked: each costs 16 or 32
    /// bytes an entry that most views never read.
    pub fn new(keep_identity: bool, keep_extra: bool) -> PostOrderBuilder {
        PostOrderBuilder {
            placed: Tree::default(),
            names: Vec::new(),
            identity: Vec::new(),
            extra: Vec::new(),
            links: FxHashMap::default(),
            dir_ids: Vec::new(),
            root: None,
            levels: Vec::new(),
            spare: Vec::new(),
            keep_identity,
            keep_extra,
        }
    }

    /// The one scanned path (a directory), opened: what follows is in it. Its sequence
    /// number is 0. Call once, first.
    pub fn root(&mut self, name: Vec<u8>, node: Node, key: LinkKey, extra: Option<StatExtra>) {
        let kid = Kid {
            node,
            key,
            links: None,
            seq: 0,
        };
        self.root = Some((name, kid, extra.filter(|_| self.keep_extra)));
        self.dir_ids.push(NONE);
        self.push_level();
    }

    /// Adds a non-directory (or a directory whose contents are not listed) to the innermost
    /// open directory, with the link count of a hard-linked file if known.
    pub fn add(
        &mut self,
        node: Node,
        name: &[u8],
        key: LinkKey,
        extra: Option<StatExtra>,
        links: Option<u32>,
    ) {
        self.push_kid(node, name, key, extra, links, NONE);
    }

    /// Adds a directory to the innermost open directory and opens it; returns its sequence
    /// number (1, 2, … in the order directories are opened).
    pub fn open_dir(
        &mut self,
        node: Node,
        name: &[u8],
        key: LinkKey,
        extra: Option<StatExtra>,
    ) -> u32 {
        let seq = self.dir_ids.len() as u32;
        self.dir_ids.push(NONE);
        self.push_kid(node, name, key, extra, None, seq);
        self.push_level();
        seq
    }

    /// Directories open now, the root included.
    pub fn depth(&self) -> usize {
        self.levels.len()
    }

    fn push_level(&mut self) {
        let level = self.spare.pop().unwrap_or_default();
        self.levels.push(level);
    }

    fn push_kid(
        &mut self,
        mut node: Node,
        name: &[u8],
        key: LinkKey,
        extra: Option<StatExtra>,
        links: Option<u32>,
        seq: u32,
    ) {
        let Some(level) = self.levels.last_mut() else {
            return; // nothing is open: the caller's listing is broken, and says so itself
        };
        let name = &name[..name.len().min(255)];
        node.set_name(level.names.len() as u64, name.len());
        level.names.extend_from_slice(name);
        if let (true, Some(e)) = (self.keep_extra, extra) {
            level.extra.resize(level.kids.len(), StatExtra::default());
            level.extra.push(e);
        }
        level.kids.push(Kid {
            node,
            key,
            links,
            seq,
        });
    }

    /// Closes the innermost open directory: its children are placed, as one block.
    pub fn close(&mut self) {
        let Some(mut level) = self.levels.pop() else {
            return;
        };
        let first = self.placed.len() as NodeId;
        let count = level.kids.len() as u32;
        let with_extra = !level.extra.is_empty() || !self.extra.is_empty();
        if with_extra {
            self.extra.resize(self.placed.len(), StatExtra::default());
        }
        self.placed.slots.reserve(level.kids.len());
        for (i, kid) in level.kids.drain(..).enumerate().rev() {
            let id = self.placed.len() as NodeId;
            let mut node = kid.node;
            let (off, len) = node.name_span();
            node.set_name(self.names.len() as u64, len);
            self.names.extend_from_slice(&level.names[off..off + len]);
            if kid.seq != NONE {
                self.dir_ids[kid.seq as usize] = id;
            }
            if let Some(links) = kid.links {
                self.links.insert(id, links);
            }
            if self.keep_identity {
                self.identity.push(kid.key);
            }
            if with_extra {
                self.extra
                    .push(level.extra.get(i).copied().unwrap_or_default());
            }
            self.placed.push_node(TOTAL, &node);
        }
        let dir = match self.levels.last_mut() {
            // a directory is the last entry of its parent until it closes
            Some(parent) => parent.kids.last_mut().map(|k| &mut k.node),
            None => self.root.as_mut().map(|(_, kid, _)| &mut kid.node),
        };
        if let (Some(dir), true) = (dir, count > 0) {
            dir.first_child = first;
            dir.child_count = count;
        }
        if level.kids.capacity() <= SPARE_MAX && level.names.capacity() <= SPARE_MAX * 16 {
            level.names.clear();
            level.extra.clear();
            self.spare.push(level);
        }
    }

    /// The finished tree (own sizes: call [`Tree::finish`] for totals). Directories still
    /// open are closed first.
    pub fn into_tree(mut self) -> Built {
        while !self.levels.is_empty() {
            self.close();
        }
        self.spare = Vec::new();
        let mut root_names = Vec::new();
        let mut total = Node::new(EntryKind::Dir, 0, 0, i64::MIN, 0);
        total.entries = 0;
        if let Some((name, kid, extra)) = self.root.take() {
            let id = self.placed.len() as NodeId;
            self.dir_ids[0] = id;
            root_names.push(name);
            if self.keep_identity {
                self.identity.push(kid.key);
            }
            if extra.is_some() || !self.extra.is_empty() {
                self.extra.resize(self.placed.len(), StatExtra::default());
                self.extra.push(extra.unwrap_or_default());
            }
            self.placed.push_node(TOTAL, &kid.node);
            total.first_child = id;
            total.child_count = 1;
        }
        if self.keep_identity {
            self.identity.push((0, 0));
        }
        if !self.extra.is_empty() {
            self.extra
                .resize(self.placed.len() + 1, StatExtra::default());
        }
        self.placed.push_node(TOTAL, &total);

        let n = self.placed.len() as NodeId;
        let flip = |id: NodeId| n - 1 - id;
        let mut tree = self.placed;
        tree.reverse_placed(flip);
        self.extra.reverse();
        let links = self
            .links
            .into_iter()
            .map(|(id, l)| (flip(id), l))
            .collect();
        let dir_ids = self
            .dir_ids
            .into_iter()
            .map(|id| if id == NONE { NONE } else { flip(id) })
            .collect();
        tree.names = self.names;
        tree.root_names = root_names;
        tree.links = links;
        tree.extra = self.extra;
        if self.keep_identity {
            keep_identities(&mut tree, self.identity);
        }
        Built { tree, dir_ids }
    }
}

/// Records `identity` (by pre-reversal id: the last is the tree's first) as the tree's exact
/// identities, in id order (what keeps them compact). The vector is given back as it empties,
/// so that both are not held whole at once.
fn keep_identities(tree: &mut Tree, mut identity: Vec<LinkKey>) {
    tree.keep_identity(false);
    let mut id = 0;
    while let Some(key) = identity.pop() {
        tree.set_exact_identity(id, key);
        id += 1;
        if identity.len() < identity.capacity() / 2 && identity.capacity() > 4096 {
            identity.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(size: u64) -> Node {
        Node::new(EntryKind::File, size, size, 0, 0)
    }

    fn dir() -> Node {
        Node::new(EntryKind::Dir, 0, 0, 0, 0)
    }

    #[test]
    fn listing_order_becomes_tree_order() {
        // r/{a, d/{x, e/{y}}, b}
        let mut b = PostOrderBuilder::new(true, true);
        b.root(b"r".to_vec(), dir(), (1, 1), None);
        b.add(file(1), b"a", (1, 2), None, None);
        let d = b.open_dir(dir(), b"d", (1, 3), None);
        b.add(
            file(2),
            b"x",
            (1, 4),
            Some(StatExtra {
                uid: 7,
                mode: 0o100644,
                ..StatExtra::default()
            }),
            Some(3),
        );
        let e = b.open_dir(dir(), b"e", (1, 5), None);
        b.add(file(4), b"y", (1, 6), None, None);
        b.close();
        b.close();
        b.add(file(8), b"b", (1, 7), None, None);
        b.close();
        let Built { mut tree, dir_ids } = b.into_tree();
        assert_eq!(tree.len(), 8);
        let paths: Vec<Vec<u8>> = (0..8).map(|id| tree.path(id)).collect();
        let want: [&[u8]; 8] = [
            b"(total)", b"r", b"r/a", b"r/d", b"r/b", b"r/d/x", b"r/d/e", b"r/d/e/y",
        ];
        assert_eq!(paths, want.map(|p| p.to_vec()));
        for id in 1..8 {
            assert!(tree.parent(id) < id);
            assert_eq!(
                tree.identity_of(id),
                Some((1, [0, 1, 2, 3, 7, 4, 5, 6][id as usize]))
            );
        }
        assert_eq!(dir_ids, vec![1, 3, 6]);
        assert_eq!((d, e), (1, 2));
        assert_eq!(tree.links_of(5), Some(3));
        assert_eq!(tree.extra_of(5).map(|x| x.uid), Some(7));
        assert_eq!(tree.extra_of(2).map(|x| x.uid), None);
        assert_eq!(tree.extra.len(), 8);
        tree.finish();
        assert_eq!(tree.node(TOTAL).disk, 15);
        assert_eq!(tree.node(3).disk, 6);
    }

    #[test]
    fn deep_chains_need_no_stack() {
        let mut b = PostOrderBuilder::new(false, false);
        b.root(b"r".to_vec(), dir(), (0, 0), None);
        for _ in 0..50_000 {
            b.open_dir(dir(), b"d", (0, 0), None);
        }
        b.add(file(1), b"f", (0, 0), None, None);
        let Built { mut tree, .. } = b.into_tree(); // closes what is still open
        assert_eq!(tree.len(), 50_003);
        assert!(!tree.has_identity() && tree.extra.is_empty());
        tree.finish();
        assert_eq!(tree.node(1).entries, 50_002);
        assert_eq!(tree.depth(50_002), 50_001);
    }
}
