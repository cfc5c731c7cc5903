//! Which nodes a view shows, and in what order: as dust, the biggest first ([`best_first`],
//! ranked by size). Entries of one size are ordered as dust orders them ([`Ties`]).

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::{EntryKind, NodeId, TreeView};
use crate::vocab::SizeMode;

mod best_first;
mod ties;

pub use best_first::{best_first, Ranked, Ranking, Row};
pub use ties::Ties;

/// What decides whether a node may be shown.
#[derive(Clone, Debug)]
pub struct Selection<I = NodeId> {
    pub mode: SizeMode,
    /// At most this many rows.
    pub max_rows: usize,
    /// Deepest level shown below the top nodes (0: only them).
    pub max_depth: Option<usize>,
    pub min_size: Option<u64>,
    pub only_dirs: bool,
    /// With -e / -v: directories left with nothing are noise (empty files stay, as in dust).
    pub hide_empty: bool,
    /// Directories shown without their contents (`--collapse`), sorted.
    pub collapsed: Vec<I>,
    /// How entries of one size are ordered.
    pub ties: Ties<I>,
}

impl<I: Copy + Ord> Selection<I> {
    /// Whether a directory's contents stay hidden.
    pub fn is_collapsed(&self, id: I) -> bool {
        self.collapsed.binary_search(&id).is_ok()
    }

    #[inline]
    pub fn is_visible<T: TreeView<Id = I>>(&self, tree: &T, id: I) -> bool {
        let (size, kind, flags) = tree.size_kind_flags(id, self.mode);
        let has = |flag| flags & flag != 0;
        // a file a filter left out is not shown at all (it was shown as `0B` when all empty
        // entries were hidden under a filter)
        // nor a second name of a hard-linked inode (counted once, under its first name),
        // which dust does not show either, nor a mount point -x did not enter, which dust
        // leaves out of its walk; -z keeps what is bigger than its size, as dust's does
        // (a directory a merge expected a part for and got none is shown: marked, 0B)
        !(has(super::flags::FILTERED) && !super::flags::is_left_unscanned(flags)
            || has(super::flags::DUPLICATE)
            || has(super::flags::OTHER_FS)
            || self.only_dirs && kind != EntryKind::Dir
            || self.hide_empty && size == 0 && kind != EntryKind::File
            || self.min_size.is_some_and(|m| size <= m))
    }

    /// Display order: bigger first, ties as [`Selection::ties`] says.
    pub fn display_order<T: TreeView<Id = I>>(&self, tree: &T, a: I, b: I) -> Ordering {
        Sizes { tree, sel: self }.display_order(a, b)
    }
}

/// A tree's entries ranked by size in the selection's mode, ties as [`Ties`] says.
struct Sizes<'t, T: TreeView> {
    tree: &'t T,
    sel: &'t Selection<T::Id>,
}

impl<T: TreeView> Ranking for Sizes<'_, T> {
    type Item = T::Id;

    #[inline]
    fn rank(&self, id: T::Id) -> u128 {
        u128::from(self.tree.size(id, self.sel.mode))
    }

    #[inline]
    fn tie(&self, a: T::Id, b: T::Id) -> Ordering {
        self.sel.ties.cmp(self.tree, a, b)
    }

    fn candidates(&self, id: T::Id, budget: usize, out: &mut Vec<T::Id>) {
        let (tree, sel) = (self.tree, self.sel);
        let count = tree.child_count(id);
        if count == 0 || sel.is_collapsed(id) {
            return;
        }
        let visible = tree.children(id).filter(|&c| sel.is_visible(tree, c));
        // (the paths given are few, and not ordered as siblings are)
        if count <= budget || id == tree.total() {
            out.extend(visible);
        } else {
            out.extend(first_siblings(tree, visible, budget, sel));
        }
    }
}

/// Chooses the rows under `tops` (shown whatever their size, as far as the row budget
/// goes). Several tops share one budget, as the children of a root that is not chosen
/// would: the biggest rows anywhere below any of them are chosen, and the tops come biggest
/// first, each at depth 0. (The views choose below one top, the total or the one path, and
/// `--skip-total` leaves that row out when drawing.)
pub fn select_rows<T: TreeView>(
    tree: &T,
    tops: &[T::Id],
    sel: &Selection<T::Id>,
) -> Vec<Row<T::Id>> {
    best_first(&Sizes { tree, sel }, tops, sel.max_rows, sel.max_depth)
}

/// The `k` of `siblings` (children of one directory) that a view shows first, in no
/// particular order: one pass with a heap of `k` (most children are turned away by one
/// comparison with its smallest), cheaper than collecting a huge directory's ids and
/// selecting among them by [`Ranked`].
fn first_siblings<T: TreeView>(
    tree: &T,
    siblings: impl Iterator<Item = T::Id>,
    k: usize,
    sel: &Selection<T::Id>,
) -> Vec<T::Id> {
    let mut heap: BinaryHeap<Reverse<Sibling<T>>> = BinaryHeap::new();
    for id in siblings {
        let s = Sibling {
            size: tree.size(id, sel.mode),
            id,
            tree,
            ties: &sel.ties,
        };
        if heap.len() < k {
            heap.push(Reverse(s));
        } else if let Some(mut least) = heap.peek_mut() {
            if s > least.0 {
                *least = Reverse(s);
            }
        }
    }
    heap.into_iter().map(|Reverse(s)| s.id).collect()
}

/// [`Ranked`] for children of one directory, whose ties need no walk up the tree.
struct Sibling<'t, T: TreeView> {
    size: u64,
    id: T::Id,
    tree: &'t T,
    ties: &'t Ties<T::Id>,
}

impl<T: TreeView> Ord for Sibling<'_, T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.size
            .cmp(&other.size)
            .then_with(|| self.ties.cmp_siblings(self.tree, self.id, other.id))
    }
}

impl<T: TreeView> PartialOrd for Sibling<'_, T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: TreeView> PartialEq for Sibling<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl<T: TreeView> Eq for Sibling<'_, T> {}

/// The biggest files anywhere below `top` (within `max_depth`), biggest first: `-F`. As
/// dust, which takes every entry with nothing below it for a file: an empty directory is
/// one, and so is a directory whose every entry the walk left out (filtered, a second name of
/// a hard link, another filesystem) or that could not be read. Below the top, only the
/// directories the tree view would show are searched (dust does not look inside a directory
/// `-z` or a filter hides).
pub fn biggest_files<T: TreeView>(tree: &T, top: T::Id, sel: &Selection<T::Id>) -> Vec<T::Id> {
    let sizes = Sizes { tree, sel };
    let mut heap: BinaryHeap<Reverse<Ranked<Sizes<T>>>> = BinaryHeap::new();
    let mut stack = vec![(top, 0usize)];
    while let Some((id, depth)) = stack.pop() {
        let visible = id == top || sel.is_visible(tree, id);
        if id == top || (tree.kind(id) == EntryKind::Dir && has_entries(tree, id)) {
            if visible && sel.max_depth.is_none_or(|d| depth < d) {
                stack.extend(tree.children(id).map(|c| (c, depth + 1)));
            }
            continue;
        }
        if visible {
            heap.push(Reverse(Ranked::new(&sizes, id)));
            if heap.len() > sel.max_rows {
                heap.pop();
            }
        }
    }
    let mut files: Vec<T::Id> = heap.into_iter().map(|Reverse(r)| r.item).collect();
    files.sort_by(|&a, &b| sizes.display_order(a, b));
    files
}

/// Whether a directory holds an entry the walk kept (dust's walk keeps no filtered file, no
/// second name of an inode and no other filesystem).
fn has_entries<T: TreeView>(tree: &T, id: T::Id) -> bool {
    tree.children(id).any(|c| tree.is_counted(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{Node, TreeBuilder};

    fn file(disk: u64) -> Node {
        Node::new(EntryKind::File, disk, disk, 0, 0)
    }

    #[test]
    fn first_siblings_are_those_display_order_puts_first() {
        // sizes with many ties (one size in three repeats), so the tie-break decides
        let sizes: Vec<u64> = (0..3000u64).map(|i| (i * 7919 % 101) / 3 * 512).collect();
        let mut b = TreeBuilder::new();
        b.add_roots(vec![(b"r".to_vec(), Node::new(EntryKind::Dir, 0, 0, 0, 0))]);
        let names: Vec<Vec<u8>> = (0..sizes.len())
            .map(|i| format!("f{i}").into_bytes())
            .collect();
        b.add_children(1, sizes.iter().zip(&names).map(|(&s, n)| (file(s), &n[..])));
        let tree = b.into_tree();
        for ties in [Ties::Stored, Ties::Paths { renamed: vec![] }] {
            let sel = Selection {
                mode: SizeMode::Disk,
                max_rows: 0,
                max_depth: None,
                min_size: None,
                only_dirs: false,
                hide_empty: false,
                collapsed: Vec::new(),
                ties,
            };
            let mut all: Vec<NodeId> = tree.node(1).children().collect();
            all.sort_by(|&a, &b| sel.display_order(&tree, a, b));
            for k in [1, 2, 33, 34, 35, 500, 2999, 3000, 4000] {
                let mut got = first_siblings(&tree, tree.node(1).children(), k, &sel);
                got.sort_by(|&a, &b| sel.display_order(&tree, a, b));
                assert_eq!(got, all[..k.min(all.len())], "{:?} k = {k}", sel.ties);
            }
        }
    }
}
