//! Test-only trees for the views: the in-memory tree seen through sparse ids, and a tree
//! whose sizes tie.

use super::TreeView;
use crate::tree::{EntryKind, LinkKey, NodeId, Sharing, StatExtra, Tree, TOTAL};
use crate::vocab::SizeMode;

/// The in-memory tree seen through ids that are neither dense nor a range of children (as a
/// file-backed tree's offsets are not), for tests that a view reads only through the trait.
#[derive(Debug)]
pub(crate) struct Sparse<'t>(pub &'t Tree);

impl Sparse<'_> {
    pub(crate) fn id(n: NodeId) -> u64 {
        u64::from(n) * 4096 + 24
    }

    pub(crate) fn node(id: u64) -> NodeId {
        ((id - 24) / 4096) as NodeId
    }
}

impl TreeView for Sparse<'_> {
    type Id = u64;
    fn total(&self) -> u64 {
        Self::id(TOTAL)
    }
    fn roots(&self) -> impl Iterator<Item = u64> + '_ {
        self.0.roots().map(Self::id)
    }
    fn name(&self, id: u64) -> &[u8] {
        self.0.name(Self::node(id))
    }
    fn kind(&self, id: u64) -> EntryKind {
        TreeView::kind(self.0, Self::node(id))
    }
    fn flags(&self, id: u64) -> u8 {
        TreeView::flags(self.0, Self::node(id))
    }
    fn size(&self, id: u64, mode: SizeMode) -> u64 {
        self.0.size_of(Self::node(id), mode)
    }
    fn mtime(&self, id: u64) -> i64 {
        TreeView::mtime(self.0, Self::node(id))
    }
    fn records_owners(&self) -> bool {
        self.0.records_owners()
    }
    fn owner(&self, id: u64) -> Option<u32> {
        self.0.owner(Self::node(id))
    }
    fn parent(&self, id: u64) -> u64 {
        Self::id(self.0.parent(Self::node(id)))
    }
    fn child_count(&self, id: u64) -> usize {
        TreeView::child_count(self.0, Self::node(id))
    }
    fn children(&self, id: u64) -> impl Iterator<Item = u64> + '_ {
        TreeView::children(self.0, Self::node(id)).map(Self::id)
    }
    fn own_sizes(&self, id: u64) -> (u64, u64) {
        TreeView::own_sizes(self.0, Self::node(id))
    }
    fn device(&self, id: u64) -> Option<u64> {
        self.0.device_of(Self::node(id))
    }
    fn identity(&self, id: u64) -> Option<LinkKey> {
        self.0.identity_of(Self::node(id))
    }
    fn links(&self, id: u64) -> Option<u32> {
        self.0.links_of(Self::node(id))
    }
    fn extra(&self, id: u64) -> Option<StatExtra> {
        self.0.extra_of(Self::node(id))
    }
    fn sharing(&self, id: u64) -> Option<Sharing> {
        TreeView::sharing(self.0, Self::node(id))
    }
    fn counts_sharing(&self) -> bool {
        self.0.counts_sharing()
    }
}

/// A tree of several paths given (two of one name), with sizes that tie.
pub(crate) fn tied_tree() -> Tree {
    use crate::tree::{Node, TreeBuilder};
    let mut b = TreeBuilder::new();
    let dir = || Node::new(EntryKind::Dir, 4096, 4096, 0, 0);
    let file = |s: u64| Node::new(EntryKind::File, s, s, 0, 0);
    let tops: [&[u8]; 3] = [b"s/dup", b"t/dup", b"u"];
    b.add_roots(tops.iter().map(|t| (t.to_vec(), dir())).collect());
    let names: Vec<Vec<u8>> = (0..40)
        .map(|i| format!("f{}", i % 7 * 3 + i).into_bytes())
        .collect();
    for top in 1..=3 {
        let kids = names.iter().enumerate().map(|(i, n)| {
            let node = if i % 5 == 0 {
                dir()
            } else {
                file(i as u64 % 4 * 512)
            };
            (node, &n[..])
        });
        let first = b.add_children(top, kids);
        b.add_children(first, names[..9].iter().map(|n| (file(512), &n[..])));
    }
    let mut tree = b.into_tree();
    tree.finish();
    tree
}
