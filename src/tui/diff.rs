//! `hogs i --diff OLD`: the comparison with an earlier scan, kept beside the state.
//!
//! The rows of a directory are the nodes of the tree on screen (they can be entered, marked
//! and deleted) and, once the walk is done, the entries of the old scan that are gone: rows
//! of their own, entered read-only, never marked, deleted or rescanned (they are not on the
//! disk). Such a "removed row" is the old node's id with [`REMOVED_ROW`] set, so rows,
//! marks and the selection stay plain node ids; everything that reads a row's node goes
//! through the state ([`super::state::State::node`]), and every destructive path checks
//! [`removed_of`] first. The matching is redone whenever the tree changes (a snapshot, a
//! delete, a rescan) or the size mode does: one linear pass.
//!
//! Part of the diff feature: [`crate::diff`] matches the trees, [`crate::app::diff`] loads
//! the two sides (for this view too), [`crate::render::diff`] prints a comparison.

use crate::diff::{Diff, Entry, Matching, Status};
use crate::tree::{Node, NodeId, Tree};
use crate::vocab::SizeMode;

/// Set in the id of a row that is an entry of the old scan only. A tree never has 2^31
/// nodes (that would be 96 GiB of them); removed rows are not listed if one did.
pub const REMOVED_ROW: NodeId = 1 << 31;

/// The old scan's node of a removed row; `None` for a node of the tree on screen.
pub fn removed_of(id: NodeId) -> Option<NodeId> {
    (id & REMOVED_ROW != 0).then_some(id & !REMOVED_ROW)
}

/// The comparison's entry of a row.
fn entry(id: NodeId) -> Entry {
    match removed_of(id) {
        Some(o) => Entry::Old(o),
        None => Entry::New(id),
    }
}

/// The row of a comparison's entry.
fn row(e: Entry) -> NodeId {
    match e {
        Entry::New(n) => n,
        Entry::Old(o) => o | REMOVED_ROW,
    }
}

#[derive(Debug)]
pub struct Delta {
    old: Tree,
    old_root: NodeId,
    /// The matching with the tree as it was at the last update, and that tree's length: a
    /// tree of another length has not been matched yet.
    matching: Option<(Matching, usize)>,
}

/// What became of one row.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Not in the old scan.
    Added,
    /// In both; new size minus old (0 for the same size).
    Size(i128),
    /// Only in the old scan: minus its old size.
    Removed(i128),
}

impl Delta {
    /// `old` is a finished tree (totals) with one root; `None` without a root.
    pub fn new(old: Tree) -> Option<Delta> {
        let old_root = old.roots().next()?;
        Some(Delta {
            old,
            old_root,
            matching: None,
        })
    }

    /// Matches the tree now shown (its first root) with the old scan, in `mode`.
    pub fn update(&mut self, new: &Tree, mode: SizeMode) {
        self.matching = new.roots().next().map(|root| {
            (
                Matching::new(&self.old, self.old_root, new, root, mode),
                new.len(),
            )
        });
    }

    /// The comparison with `new`, if it is the tree last matched.
    pub fn diff<'a>(&'a self, new: &'a Tree) -> Option<Diff<'a>> {
        match &self.matching {
            Some((m, len)) if *len == new.len() => Some(m.with(&self.old, new)),
            _ => None,
        }
    }

    /// The earlier scan (finished: totals).
    pub fn old(&self) -> &Tree {
        &self.old
    }

    /// What became of a row.
    pub fn change(&self, new: &Tree, id: NodeId) -> Option<Change> {
        let d = self.diff(new)?;
        let e = entry(id);
        Some(match d.status(e) {
            Status::Added => Change::Added,
            Status::Removed => Change::Removed(d.delta(e)),
            _ => Change::Size(d.delta(e)),
        })
    }

    /// What a sort by change orders by: the size of the change, whatever its sign (an added
    /// or removed entry changed by all of its size).
    pub fn magnitude(&self, new: &Tree, id: NodeId) -> u128 {
        self.diff(new)
            .map_or(0, |d| d.delta(entry(id)).unsigned_abs())
    }

    /// The removed entries among the children of `dir` (a node of `new` or a removed row),
    /// as rows; none until `new` is matched.
    pub fn removed_rows(&self, new: &Tree, dir: NodeId) -> Vec<NodeId> {
        let Some(d) = self.diff(new) else {
            return Vec::new();
        };
        if new.len() >= REMOVED_ROW as usize || self.old.len() >= REMOVED_ROW as usize {
            return Vec::new();
        }
        let mut kids = Vec::new();
        d.children_into(entry(dir), &mut kids);
        kids.into_iter()
            .filter(|e| matches!(e, Entry::Old(_)))
            .map(row)
            .collect()
    }

    /// Whether a removed row is one in the comparison with `new`.
    pub fn is_removed(&self, new: &Tree, id: NodeId) -> bool {
        removed_of(id).is_some()
            && self
                .diff(new)
                .is_some_and(|d| d.status(entry(id)) == Status::Removed)
    }

    /// The directory a removed row is listed in: another removed row, or a node of `new`.
    pub fn parent_row(&self, new: &Tree, id: NodeId) -> Option<NodeId> {
        self.diff(new)?.parent(entry(id)).map(row)
    }

    /// The old scan's node of a removed row.
    pub fn old_node(&self, id: NodeId) -> Option<Node> {
        removed_of(id)
            .filter(|&o| (o as usize) < self.old.len())
            .map(|o| self.old.node(o))
    }

    /// Entries of the directory `dir` (a node of `new` or a removed row) that are only in
    /// the old scan: how many, and their old size.
    pub fn removed_in(&self, new: &Tree, dir: NodeId) -> (usize, u64) {
        let Some(d) = self.diff(new) else {
            return (0, 0);
        };
        let mut kids = Vec::new();
        d.children_into(entry(dir), &mut kids);
        kids.iter()
            .filter(|e| matches!(e, Entry::Old(_)))
            .fold((0, 0), |(n, size), &e| {
                (n + 1, size.saturating_add(d.old_size(e)))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{EntryKind, Node, TreeBuilder};

    fn tree(files: &[(&str, u64)]) -> Tree {
        let mut b = TreeBuilder::new();
        b.add_roots(vec![(
            b"/r".to_vec(),
            Node::new(EntryKind::Dir, 0, 0, 0, 0),
        )]);
        b.add_children(
            1,
            files
                .iter()
                .map(|&(n, s)| (Node::new(EntryKind::File, s, s, 0, 0), n.as_bytes()))
                .collect::<Vec<_>>()
                .into_iter(),
        );
        let mut t = b.into_tree();
        t.finish();
        t
    }

    #[test]
    fn changes_follow_the_tree_they_were_matched_with() {
        let mut delta = Delta::new(tree(&[("a", 10), ("b", 20), ("gone", 5)])).expect("root");
        let new = tree(&[("a", 15), ("b", 20), ("c", 7)]);
        assert_eq!(delta.change(&new, 2), None, "not matched yet");
        delta.update(&new, SizeMode::Disk);
        assert_eq!(delta.change(&new, 2), Some(Change::Size(5)));
        assert_eq!(delta.change(&new, 3), Some(Change::Size(0)));
        assert_eq!(delta.change(&new, 4), Some(Change::Added));
        assert_eq!(delta.magnitude(&new, 4), 7);
        assert_eq!(delta.change(&new, 1), Some(Change::Size(42 - 35)));
        assert_eq!(delta.removed_in(&new, 1), (1, 5));
        // the removed file as a row: old node 4 ("gone"), tagged
        let gone = delta.removed_rows(&new, 1);
        assert_eq!(gone, [4 | REMOVED_ROW]);
        assert_eq!(removed_of(gone[0]), Some(4));
        assert_eq!(delta.change(&new, gone[0]), Some(Change::Removed(-5)));
        assert_eq!(delta.magnitude(&new, gone[0]), 5);
        assert_eq!(delta.parent_row(&new, gone[0]), Some(1));
        assert!(delta.is_removed(&new, gone[0]) && !delta.is_removed(&new, 2));
        assert_eq!(delta.old_node(gone[0]).map(|n| n.disk), Some(5));
        assert!(delta.removed_rows(&new, 2).is_empty());
        let bigger = tree(&[("a", 15), ("b", 20), ("c", 7), ("d", 1)]);
        assert_eq!(delta.change(&bigger, 2), None, "another tree");
    }
}
