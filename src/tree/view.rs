//! What a view reads of a tree: [`TreeView`]. The in-memory [`Tree`] is its first
//! implementation; a tree read from a file on demand (an ncdu 2 binary export, whose items are
//! addressed by 64-bit offsets and whose children are chained from the last) is meant to be
//! another, so nothing here assumes ids are dense, that children are a range, or that a
//! node's parent is stored.

use std::cmp::Ordering;

use super::ids::EntryId;
use super::{flags, EntryKind, LinkKey, NodeId, Sharing, Sizes, StatExtra, Tree, TOTAL};
use crate::vocab::SizeMode;

/// A tree of settled totals, as the views read it: names, kinds, sizes and children. Sizes
/// are subtree totals (an entry's own for a file).
pub trait TreeView {
    /// How an entry is named. `Ord` is the order siblings were stored in (a view falls back
    /// on it for entries of one size in a tree it built in display order). [`EntryId`]
    /// chooses the tables a view keeps by id (an array for dense ids, a hash otherwise).
    type Id: EntryId;

    /// Every id is below this when ids are dense indices (the in-memory tree's length), else
    /// 0: how big a table by id ([`EntryId::Map`]) starts, so it never grows while filled.
    fn id_bound(&self) -> usize {
        0
    }

    /// The entry above the scanned paths, `(total)`.
    fn total(&self) -> Self::Id;

    /// The scanned paths (children of [`TreeView::total`]), in the order they were given.
    fn roots(&self) -> impl Iterator<Item = Self::Id> + '_;

    /// The entry's own name; a scanned path's is the path as typed.
    fn name(&self, id: Self::Id) -> &[u8];

    /// [`TreeView::name`] of an entry known to be neither a scanned path nor the total (a
    /// tree may skip a check there).
    fn entry_name(&self, id: Self::Id) -> &[u8] {
        self.name(id)
    }

    /// How the [`TreeView::entry_name`]s of two entries compare: a tree that reads names
    /// from a file compares them without keeping them.
    fn cmp_entry_names(&self, a: Self::Id, b: Self::Id) -> Ordering {
        self.entry_name(a).cmp(self.entry_name(b))
    }

    /// [`TreeView::entry_name`] copied into `out` (cleared first): a tree that reads names
    /// from a file reads it without keeping it (a comparison matches every name of a
    /// directory it opens, and shows few).
    fn entry_name_into(&self, id: Self::Id, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(self.entry_name(id));
    }

    fn kind(&self, id: Self::Id) -> EntryKind;

    /// The entry's [`flags`].
    fn flags(&self, id: Self::Id) -> u8;

    /// Size in `mode`: disk or apparent bytes, entries (this one included), newest time.
    fn size(&self, id: Self::Id, mode: SizeMode) -> u64;

    /// Newest modification time in the subtree (seconds since the epoch).
    fn mtime(&self, id: Self::Id) -> i64;

    /// Disk and apparent sizes and entries at once (`--by-owner` reads all three of every
    /// entry twice: a tree may read its storage once for them).
    fn sizes(&self, id: Self::Id) -> Sizes {
        Sizes {
            disk: self.size(id, SizeMode::Disk),
            apparent: self.size(id, SizeMode::Apparent),
            entries: self.size(id, SizeMode::Count),
        }
    }

    /// What of its disk size the subtree has alone and shares (`--extents`), if counted.
    fn sharing(&self, _id: Self::Id) -> Option<Sharing> {
        None
    }

    /// Whether the subtrees' sharing was counted (`--extents`): views add its columns.
    fn counts_sharing(&self) -> bool {
        false
    }

    /// The entry's own sizes, `(apparent, disk)`, without what it holds: what an export writes
    /// (its reader adds them up). A tree without them (only totals) gives a non-directory's
    /// sizes and 0 for a directory.
    fn own_sizes(&self, id: Self::Id) -> (u64, u64) {
        match self.kind(id) {
            EntryKind::Dir => (0, 0),
            _ => (
                self.size(id, SizeMode::Apparent),
                self.size(id, SizeMode::Disk),
            ),
        }
    }

    /// The entry's device, when the tree kept identities (an export writes it where it
    /// changes).
    fn device(&self, _id: Self::Id) -> Option<u64> {
        None
    }

    /// The entry's (device, inode), when the tree kept identities.
    fn identity(&self, _id: Self::Id) -> Option<LinkKey> {
        None
    }

    /// The entry's link count, when kept (a non-directory with more than one).
    fn links(&self, _id: Self::Id) -> Option<u32> {
        None
    }

    /// The entry's owner and mode, when kept.
    fn extra(&self, _id: Self::Id) -> Option<StatExtra> {
        None
    }

    /// Whether the entries' owners were recorded (`--by-owner` needs them; a walk records them
    /// when asked, an export written with `--export-extended` carries them).
    fn records_owners(&self) -> bool {
        false
    }

    /// The entry's owner (uid), when recorded for it.
    fn owner(&self, _id: Self::Id) -> Option<u32> {
        None
    }

    /// Every entry below the total, each once, in no particular order (the views that add
    /// up all of them, `-t`'s groups): depth-first by default; a tree stored as an array
    /// sweeps it.
    fn entries(&self) -> impl Iterator<Item = Self::Id> + '_ {
        let mut dirs = vec![self.total()];
        let mut next = Vec::new();
        std::iter::from_fn(move || loop {
            if let Some(id) = next.pop() {
                if self.child_count(id) > 0 {
                    dirs.push(id);
                }
                return Some(id);
            }
            next.extend(self.children(dirs.pop()?));
            next.reverse();
        })
    }

    /// The directory that lists `id` (the total for a scanned path and for itself).
    fn parent(&self, id: Self::Id) -> Self::Id;

    /// How many entries the directory lists (0 for a file).
    fn child_count(&self, id: Self::Id) -> usize;

    /// The entries the directory lists, in the order they were stored.
    fn children(&self, id: Self::Id) -> impl Iterator<Item = Self::Id> + '_;

    /// [`TreeView::children`] of a directory whose children will not be asked their parent:
    /// a tree that remembers each directory listed so that it can answer that (a file-backed
    /// tree) need not remember this one (a pass over a whole subtree keeps nothing).
    fn children_passing(&self, id: Self::Id) -> impl Iterator<Item = Self::Id> + '_ {
        self.children(id)
    }

    fn is_root(&self, id: Self::Id) -> bool {
        id != self.total() && self.parent(id) == self.total()
    }

    /// Whether the entry's own sizes count in its ancestors' totals (see [`flags::UNCOUNTED`]).
    fn is_counted(&self, id: Self::Id) -> bool {
        self.flags(id) & flags::UNCOUNTED == 0
    }

    /// What a view asks of every entry before it shows it.
    fn size_kind_flags(&self, id: Self::Id, mode: SizeMode) -> (u64, EntryKind, u8) {
        (self.size(id, mode), self.kind(id), self.flags(id))
    }

    /// Full path from the scanned path as typed: `root/a/b`, built by walking parents.
    fn path_into(&self, id: Self::Id, out: &mut Vec<u8>) {
        out.clear();
        let mut chain = Vec::new();
        let mut n = id;
        while n != self.total() {
            chain.push(n);
            n = self.parent(n);
        }
        if chain.is_empty() {
            out.extend_from_slice(self.name(id));
        }
        for (i, &n) in chain.iter().rev().enumerate() {
            if i > 0 && out.last() != Some(&b'/') {
                out.push(b'/');
            }
            out.extend_from_slice(self.name(n));
        }
    }

    fn path(&self, id: Self::Id) -> Vec<u8> {
        let mut v = Vec::new();
        self.path_into(id, &mut v);
        v
    }

    /// Order of two entries in a depth-first walk in stored order. O(depth), no allocation.
    fn dfs_order(&self, a: Self::Id, b: Self::Id) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        let total = self.total();
        if a != total && b != total && self.parent(a) == self.parent(b) {
            return a.cmp(&b);
        }
        match parting(self, a, b) {
            // one is an ancestor of the other: the ancestor comes first
            Parting::Nested(by_depth) => by_depth,
            Parting::Siblings(x, y) => x.cmp(&y),
        }
    }
}

/// Where the paths of two nodes part ([`parting`]).
pub(crate) enum Parting<I = NodeId> {
    /// One lies below the other (the node is the ancestor): how their depths compare.
    Nested(Ordering),
    /// The two siblings on their paths below the last directory they share (which may be
    /// the total).
    Siblings(I, I),
}

/// Where the paths of two different nodes part, found walking up from both. O(depth), no
/// allocation.
pub(crate) fn parting<T: TreeView + ?Sized>(tree: &T, a: T::Id, b: T::Id) -> Parting<T::Id> {
    let total = tree.total();
    let depth = |mut n: T::Id| {
        let mut d = 0usize;
        while n != total {
            n = tree.parent(n);
            d += 1;
        }
        d
    };
    let (da, db) = (depth(a), depth(b));
    let (mut x, mut y) = (a, b);
    for _ in db..da {
        x = tree.parent(x);
    }
    for _ in da..db {
        y = tree.parent(y);
    }
    if x == y {
        return Parting::Nested(da.cmp(&db));
    }
    while tree.parent(x) != tree.parent(y) {
        x = tree.parent(x);
        y = tree.parent(y);
    }
    Parting::Siblings(x, y)
}

/// The in-memory tree: each method forwards to the one it has of that name.
impl TreeView for Tree {
    type Id = NodeId;

    #[inline(always)]
    fn total(&self) -> NodeId {
        TOTAL
    }

    fn id_bound(&self) -> usize {
        self.len()
    }

    #[inline]
    fn roots(&self) -> impl Iterator<Item = NodeId> + '_ {
        Tree::roots(self)
    }

    fn records_owners(&self) -> bool {
        self.extra.len() >= self.len()
    }

    #[inline]
    fn owner(&self, id: NodeId) -> Option<u32> {
        self.extra_of(id).map(|e| e.uid)
    }

    fn entries(&self) -> impl Iterator<Item = NodeId> + '_ {
        1..self.len() as NodeId
    }

    #[inline]
    fn name(&self, id: NodeId) -> &[u8] {
        Tree::name(self, id)
    }

    #[inline]
    fn entry_name(&self, id: NodeId) -> &[u8] {
        let (off, len) = self.head(id).name_span();
        &self.names[off..off + len]
    }

    #[inline]
    fn kind(&self, id: NodeId) -> EntryKind {
        EntryKind::from_bits(u64::from(self.head(id).meta() >> 16))
    }

    #[inline]
    fn flags(&self, id: NodeId) -> u8 {
        self.head(id).flags()
    }

    #[inline]
    fn size(&self, id: NodeId, mode: SizeMode) -> u64 {
        self.size_of(id, mode)
    }

    #[inline]
    fn mtime(&self, id: NodeId) -> i64 {
        self.node(id).mtime
    }

    #[inline]
    fn sizes(&self, id: NodeId) -> Sizes {
        self.sizes_of(id)
    }

    #[inline]
    fn sharing(&self, id: NodeId) -> Option<Sharing> {
        self.sharing.get(id as usize).copied()
    }

    fn counts_sharing(&self) -> bool {
        !self.sharing.is_empty()
    }

    /// Own sizes while the tree is settled with `Totals::Own` (an export's): a directory's
    /// node holds its own until totals are summed.
    #[inline]
    fn own_sizes(&self, id: NodeId) -> (u64, u64) {
        let n = self.node(id);
        (n.apparent, n.disk)
    }

    #[inline]
    fn device(&self, id: NodeId) -> Option<u64> {
        self.device_of(id)
    }

    #[inline]
    fn identity(&self, id: NodeId) -> Option<LinkKey> {
        self.identity_of(id)
    }

    #[inline]
    fn links(&self, id: NodeId) -> Option<u32> {
        self.links_of(id)
    }

    #[inline]
    fn extra(&self, id: NodeId) -> Option<StatExtra> {
        self.extra_of(id)
    }

    #[inline]
    fn parent(&self, id: NodeId) -> NodeId {
        Tree::parent(self, id)
    }

    #[inline]
    fn child_count(&self, id: NodeId) -> usize {
        self.node(id).child_count as usize
    }

    #[inline]
    fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.node(id).children()
    }

    #[inline]
    fn is_root(&self, id: NodeId) -> bool {
        Tree::is_root(self, id)
    }

    #[inline]
    fn size_kind_flags(&self, id: NodeId, mode: SizeMode) -> (u64, EntryKind, u8) {
        Tree::size_kind_flags(self, id, mode)
    }

    #[inline]
    fn path_into(&self, id: NodeId, out: &mut Vec<u8>) {
        Tree::path_into(self, id, out)
    }
}

#[cfg(test)]
mod sparse;
#[cfg(test)]
pub(crate) use sparse::{tied_tree, Sparse};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{Node, TreeBuilder};

    /// A tree read only through the trait's provided methods (as a file-backed tree would
    /// be) agrees with the in-memory tree's own answers.
    struct Provided<'t>(&'t Tree);

    impl TreeView for Provided<'_> {
        type Id = NodeId;
        fn total(&self) -> NodeId {
            TOTAL
        }
        fn roots(&self) -> impl Iterator<Item = NodeId> + '_ {
            self.0.roots()
        }
        fn name(&self, id: NodeId) -> &[u8] {
            self.0.name(id)
        }
        fn kind(&self, id: NodeId) -> EntryKind {
            TreeView::kind(self.0, id)
        }
        fn flags(&self, id: NodeId) -> u8 {
            TreeView::flags(self.0, id)
        }
        fn size(&self, id: NodeId, mode: SizeMode) -> u64 {
            self.0.size_of(id, mode)
        }
        fn mtime(&self, id: NodeId) -> i64 {
            TreeView::mtime(self.0, id)
        }
        fn parent(&self, id: NodeId) -> NodeId {
            self.0.parent(id)
        }
        fn child_count(&self, id: NodeId) -> usize {
            TreeView::child_count(self.0, id)
        }
        fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
            TreeView::children(self.0, id)
        }
    }

    #[test]
    fn provided_methods_agree_with_the_tree() {
        let mut b = TreeBuilder::new();
        let dir = || Node::new(EntryKind::Dir, 0, 0, 0, 0);
        b.add_roots(vec![(b"r/".to_vec(), dir()), (b"s".to_vec(), dir())]);
        let names: [&[u8]; 3] = [b"a", b"b", b"c"];
        let first = b.add_children(1, names.iter().map(|&n| (dir(), n)));
        b.add_children(first + 1, names.iter().map(|&n| (dir(), n)));
        b.add_children(2, names.iter().map(|&n| (dir(), n)));
        let tree = b.into_tree();
        let view = Provided(&tree);
        let ids: Vec<NodeId> = (0..tree.len() as NodeId).collect();
        for &x in &ids {
            assert_eq!(view.path(x), tree.path(x), "{x}");
            assert_eq!(view.is_root(x), tree.is_root(x), "{x}");
            assert_eq!(view.is_counted(x), tree.node(x).is_counted(), "{x}");
            if x != TOTAL && !tree.is_root(x) {
                assert_eq!(TreeView::entry_name(&tree, x), tree.name(x), "{x}");
            }
            for &y in &ids {
                assert_eq!(view.dfs_order(x, y), tree.dfs_order(x, y), "{x} {y}");
            }
        }
    }

    /// `sel` for the same tree seen through [`Sparse`].
    fn sparse_sel(sel: &crate::tree::Selection) -> crate::tree::Selection<u64> {
        use crate::tree::{Selection, Ties};
        Selection {
            mode: sel.mode,
            max_rows: sel.max_rows,
            max_depth: sel.max_depth,
            min_size: sel.min_size,
            only_dirs: sel.only_dirs,
            hide_empty: sel.hide_empty,
            collapsed: sel.collapsed.iter().copied().map(Sparse::id).collect(),
            ties: match &sel.ties {
                Ties::Stored => Ties::Stored,
                Ties::Paths { renamed } => Ties::Paths {
                    renamed: renamed
                        .iter()
                        .map(|(r, n)| (Sparse::id(*r), n.clone()))
                        .collect(),
                },
            },
        }
    }

    #[test]
    fn rows_chosen_through_sparse_ids_are_the_trees() {
        use crate::tree::{biggest_files, select_rows, Selection, Ties};
        let tree = tied_tree();
        let sparse = Sparse(&tree);
        let cases = [(true, 12, None), (false, 30, Some(2)), (false, 500, None)];
        for (stored, max_rows, max_depth) in cases {
            let sel = Selection {
                mode: SizeMode::Disk,
                max_rows,
                max_depth,
                min_size: None,
                only_dirs: false,
                hide_empty: false,
                collapsed: vec![5],
                ties: match stored {
                    true => Ties::Stored,
                    false => Ties::Paths {
                        renamed: vec![(1, b"s/dup(s)".to_vec())],
                    },
                },
            };
            let want = select_rows(&tree, &[TOTAL], &sel);
            let got = select_rows(&sparse, &[Sparse::id(TOTAL)], &sparse_sel(&sel));
            let got: Vec<_> = got
                .iter()
                .map(|r| (Sparse::node(r.id), r.depth, r.last))
                .collect();
            let want: Vec<_> = want.iter().map(|r| (r.id, r.depth, r.last)).collect();
            assert!(want.len() > 10);
            assert_eq!(got, want, "rows {max_rows} {max_depth:?}");
            let files = biggest_files(&tree, TOTAL, &sel);
            let got = biggest_files(&sparse, Sparse::id(TOTAL), &sparse_sel(&sel));
            assert_eq!(got.into_iter().map(Sparse::node).collect::<Vec<_>>(), files);
        }
    }
}
