//! Which nodes a view shows, and in what order.
//!
//! Like dust: take the biggest node not yet shown whose parent is shown, until the line budget
//! is spent; then lay the chosen nodes out depth-first with siblings biggest first.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::{EntryKind, NodeId, Tree};
use crate::config::SizeMode;

/// What decides whether a node may be shown.
#[derive(Clone, Debug)]
pub struct Selection {
    pub mode: SizeMode,
    /// At most this many rows.
    pub max_rows: usize,
    /// Deepest level shown below the top nodes (0: only them).
    pub max_depth: Option<usize>,
    pub min_size: Option<u64>,
    pub only_dirs: bool,
    /// With -e / -v: entries left with nothing are noise.
    pub hide_empty: bool,
    /// Directories shown without their contents (`--collapse`), sorted.
    pub collapsed: Vec<NodeId>,
}

/// One line of a tree view, in display order (parents before children).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub id: NodeId,
    pub depth: usize,
    /// No later sibling is shown.
    pub last: bool,
    pub has_children: bool,
}

impl Selection {
    /// Whether a directory's contents stay hidden.
    pub fn is_collapsed(&self, id: NodeId) -> bool {
        self.collapsed.binary_search(&id).is_ok()
    }

    pub fn is_visible(&self, tree: &Tree, id: NodeId) -> bool {
        let n = tree.node(id);
        let size = n.size(self.mode);
        !(self.only_dirs && n.kind() != EntryKind::Dir
            || self.hide_empty && size == 0
            || self.min_size.is_some_and(|m| size < m))
    }

    fn ranked<'t>(&self, tree: &'t Tree, id: NodeId) -> Ranked<'t> {
        Ranked {
            size: tree.node(id).size(self.mode),
            id,
            tree,
        }
    }

    /// Display order: bigger first, ties in depth-first directory order.
    fn display_order(&self, tree: &Tree, a: NodeId, b: NodeId) -> Ordering {
        self.ranked(tree, b).cmp(&self.ranked(tree, a))
    }
}

/// A node ranked for display: greater means shown first (bigger, or met earlier in a
/// depth-first walk when the sizes tie). Ties must not fall back to node ids, which depend
/// on thread timing: `-T 1` and `-T 8` have to print the same rows.
struct Ranked<'t> {
    size: u64,
    id: NodeId,
    tree: &'t Tree,
}

impl Ord for Ranked<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.size
            .cmp(&other.size)
            .then_with(|| self.tree.dfs_order(other.id, self.id))
    }
}

impl PartialOrd for Ranked<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Ranked<'_> {}

/// Chooses the rows under each of `tops` (shown whatever their size).
pub fn select_rows(tree: &Tree, tops: &[NodeId], sel: &Selection) -> Vec<Row> {
    let mut heap: BinaryHeap<(Ranked, usize)> = BinaryHeap::new();
    let mut chosen: FxHashMap<NodeId, Vec<NodeId>> = FxHashMap::default();
    let mut count = 0usize;
    let admit = |heap: &mut BinaryHeap<_>, id: NodeId, depth: usize, count: usize| {
        if sel.max_depth.is_some_and(|d| depth > d) {
            return;
        }
        let n = tree.node(id);
        if n.child_count == 0 || sel.is_collapsed(id) {
            return;
        }
        // only the biggest `budget` children can ever be shown: don't heap a million of them
        let budget = sel.max_rows.saturating_sub(count);
        let mut kids: Vec<NodeId> = n.children().filter(|&c| sel.is_visible(tree, c)).collect();
        if kids.len() > budget {
            if budget == 0 {
                return;
            }
            kids.select_nth_unstable_by(budget - 1, |&a, &b| sel.display_order(tree, a, b));
            kids.truncate(budget);
        }
        heap.extend(kids.into_iter().map(|c| (sel.ranked(tree, c), depth)));
    };
    for &t in tops {
        if count >= sel.max_rows {
            break;
        }
        chosen.entry(t).or_default();
        count += 1;
        admit(&mut heap, t, 1, count);
        while count < sel.max_rows {
            let Some((Ranked { id, .. }, depth)) = heap.pop() else {
                break;
            };
            chosen.entry(tree.node(id).parent).or_default().push(id);
            chosen.entry(id).or_default();
            count += 1;
            admit(&mut heap, id, depth + 1, count);
        }
        heap.clear();
    }
    for kids in chosen.values_mut() {
        kids.sort_by(|&a, &b| sel.display_order(tree, a, b));
    }

    // depth-first layout without recursion
    let mut rows = Vec::with_capacity(count);
    let mut stack: Vec<(NodeId, usize, bool)> = Vec::new();
    for (i, &t) in tops.iter().enumerate().rev() {
        if chosen.contains_key(&t) {
            stack.push((t, 0, i + 1 == tops.len()));
        }
    }
    while let Some((id, depth, last)) = stack.pop() {
        let kids = chosen.get(&id).map_or(&[][..], Vec::as_slice);
        rows.push(Row {
            id,
            depth,
            last,
            has_children: !kids.is_empty(),
        });
        for (i, &k) in kids.iter().enumerate().rev() {
            stack.push((k, depth + 1, i + 1 == kids.len()));
        }
    }
    rows
}

/// The biggest files anywhere below `top` (within `max_depth`), biggest first: `-F`.
pub fn biggest_files(tree: &Tree, top: NodeId, sel: &Selection) -> Vec<NodeId> {
    let mut heap: BinaryHeap<Reverse<Ranked>> = BinaryHeap::new();
    let mut stack = vec![(top, 0usize)];
    while let Some((id, depth)) = stack.pop() {
        let n = tree.node(id);
        if n.is_dir() {
            if sel.max_depth.is_none_or(|d| depth < d) {
                stack.extend(n.children().map(|c| (c, depth + 1)));
            }
            continue;
        }
        if sel.is_visible(tree, id) {
            heap.push(Reverse(sel.ranked(tree, id)));
            if heap.len() > sel.max_rows {
                heap.pop();
            }
        }
    }
    let mut files: Vec<NodeId> = heap.into_iter().map(|Reverse(r)| r.id).collect();
    files.sort_by(|&a, &b| sel.display_order(tree, a, b));
    files
}
