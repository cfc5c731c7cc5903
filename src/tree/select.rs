//! Which nodes a view shows, and in what order.
//!
//! Like dust: take the biggest node not yet shown whose parent is shown, until the line budget
//! is spent; then lay the chosen nodes out depth-first with siblings biggest first.

use std::cmp::Reverse;
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
    pub fn is_visible(&self, tree: &Tree, id: NodeId) -> bool {
        let n = tree.node(id);
        let size = n.size(self.mode);
        !(self.only_dirs && n.kind() != EntryKind::Dir
            || self.hide_empty && size == 0
            || self.min_size.is_some_and(|m| size < m))
    }

    fn key(&self, tree: &Tree, id: NodeId) -> (u64, Reverse<NodeId>) {
        (tree.node(id).size(self.mode), Reverse(id))
    }
}

/// Chooses the rows under each of `tops` (shown whatever their size).
pub fn select_rows(tree: &Tree, tops: &[NodeId], sel: &Selection) -> Vec<Row> {
    let mut heap: BinaryHeap<((u64, Reverse<NodeId>), usize)> = BinaryHeap::new();
    let mut chosen: FxHashMap<NodeId, Vec<NodeId>> = FxHashMap::default();
    let mut count = 0usize;
    let admit = |heap: &mut BinaryHeap<_>, id: NodeId, depth: usize, count: usize| {
        if sel.max_depth.is_some_and(|d| depth > d) {
            return;
        }
        let n = tree.node(id);
        if n.child_count == 0 {
            return;
        }
        // only the biggest `budget` children can ever be shown: don't heap a million of them
        let budget = sel.max_rows.saturating_sub(count);
        let mut kids: Vec<NodeId> = n.children().filter(|&c| sel.is_visible(tree, c)).collect();
        if kids.len() > budget {
            if budget == 0 {
                return;
            }
            kids.select_nth_unstable_by_key(budget - 1, |&c| Reverse(sel.key(tree, c)));
            kids.truncate(budget);
        }
        heap.extend(kids.into_iter().map(|c| (sel.key(tree, c), depth)));
    };
    for &t in tops {
        if count >= sel.max_rows {
            break;
        }
        chosen.entry(t).or_default();
        count += 1;
        admit(&mut heap, t, 1, count);
        while count < sel.max_rows {
            let Some(((_, Reverse(id)), depth)) = heap.pop() else {
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
        kids.sort_by_key(|&c| Reverse(sel.key(tree, c)));
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
    let mut heap: BinaryHeap<Reverse<(u64, Reverse<NodeId>)>> = BinaryHeap::new();
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
            heap.push(Reverse(sel.key(tree, id)));
            if heap.len() > sel.max_rows {
                heap.pop();
            }
        }
    }
    let mut files: Vec<_> = heap.into_iter().map(|Reverse(k)| k).collect();
    files.sort_by(|a, b| b.cmp(a));
    files.into_iter().map(|(_, Reverse(id))| id).collect()
}
