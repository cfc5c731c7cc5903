//! The rows a view shows, chosen best first: take the best entry not yet shown whose parent is
//! shown, until the line budget is spent; then lay the chosen entries out depth-first,
//! siblings best first. One algorithm for every view that shows a budget of rows of a tree: the
//! tree of sizes (`super::select_rows`) and the comparison (`crate::diff::select`), which differ
//! only in what "best" means and which entries may be shown ([`Ranking`]).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::hash::Hash;

use rustc_hash::FxHashMap;

use crate::tree::NodeId;

/// What a view ranks: which entries may be shown below one, and which comes first.
pub trait Ranking {
    type Item: Copy + Eq + Hash;

    /// How big an entry is for the view (bigger is shown first).
    fn rank(&self, item: Self::Item) -> u128;

    /// The order of two entries of one rank: `Greater` is shown first. Never by an id that
    /// depends on thread timing: `-T 1` and `-T 8` must print the same rows.
    fn tie(&self, a: Self::Item, b: Self::Item) -> Ordering;

    /// Fills `out` (empty) with the children of `item` that may be shown, or at least the
    /// first `budget` of them in display order (in any order: the heap sorts them); none when
    /// its contents are hidden.
    fn candidates(&self, item: Self::Item, budget: usize, out: &mut Vec<Self::Item>);

    /// Display order: `Less` is shown first.
    fn display_order(&self, a: Self::Item, b: Self::Item) -> Ordering {
        self.rank(b).cmp(&self.rank(a)).then_with(|| self.tie(b, a))
    }
}

/// One line of a view, in display order (parents before children).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Row<I = NodeId> {
    pub id: I,
    pub depth: usize,
    /// No later sibling is shown.
    pub last: bool,
    pub has_children: bool,
}

/// An entry ranked for a heap: greater is shown first.
pub struct Ranked<'r, R: Ranking> {
    rank: u128,
    pub item: R::Item,
    ranking: &'r R,
}

impl<'r, R: Ranking> Ranked<'r, R> {
    pub fn new(ranking: &'r R, item: R::Item) -> Self {
        Ranked {
            rank: ranking.rank(item),
            item,
            ranking,
        }
    }
}

impl<R: Ranking> Ord for Ranked<'_, R> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank
            .cmp(&other.rank)
            .then_with(|| self.ranking.tie(self.item, other.item))
    }
}

impl<R: Ranking> PartialOrd for Ranked<'_, R> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<R: Ranking> PartialEq for Ranked<'_, R> {
    fn eq(&self, other: &Self) -> bool {
        self.item == other.item
    }
}

impl<R: Ranking> Eq for Ranked<'_, R> {}

/// Chooses at most `max_rows` rows under `tops` (shown whatever their rank, as far as the
/// budget goes), at most `max_depth` levels below them. Several tops share one budget, as
/// the children of a top that is not shown would: the best rows anywhere below any of them
/// are chosen, and the tops come best first, each at depth 0.
pub fn best_first<R: Ranking>(
    ranking: &R,
    tops: &[R::Item],
    max_rows: usize,
    max_depth: Option<usize>,
) -> Vec<Row<R::Item>> {
    // (entry, its parent, its depth): the first two never tie, so the rest is never compared
    let mut heap: BinaryHeap<(Ranked<R>, Parent<R::Item>, usize)> = BinaryHeap::new();
    let mut chosen: FxHashMap<R::Item, Vec<R::Item>> = FxHashMap::default();
    let mut kids = Vec::new();
    let mut admit = |heap: &mut BinaryHeap<_>, item: R::Item, depth: usize, count: usize| {
        // only the best `budget` children can ever be shown: don't heap a million of them
        let budget = max_rows.saturating_sub(count);
        if budget == 0 || max_depth.is_some_and(|d| depth > d) {
            return;
        }
        kids.clear();
        ranking.candidates(item, budget, &mut kids);
        heap.extend(
            kids.drain(..)
                .map(|c| (Ranked::new(ranking, c), Parent(item), depth)),
        );
    };
    let mut tops = tops.to_vec();
    tops.sort_by(|&a, &b| ranking.display_order(a, b));
    tops.truncate(max_rows);
    let mut count = tops.len();
    for &t in &tops {
        chosen.entry(t).or_default();
    }
    for &t in &tops {
        admit(&mut heap, t, 1, count);
    }
    while count < max_rows {
        let Some((Ranked { item, .. }, Parent(parent), depth)) = heap.pop() else {
            break;
        };
        chosen.entry(parent).or_default().push(item);
        chosen.entry(item).or_default();
        count += 1;
        admit(&mut heap, item, depth + 1, count);
    }
    drop(heap);
    for kids in chosen.values_mut() {
        kids.sort_by(|&a, &b| ranking.display_order(a, b));
    }
    lay_out(&tops, &chosen, count)
}

/// A waiting entry's parent, which the heap's order ignores.
struct Parent<I>(I);

impl<I> PartialEq for Parent<I> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<I> Eq for Parent<I> {}

impl<I> PartialOrd for Parent<I> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<I> Ord for Parent<I> {
    fn cmp(&self, _: &Self) -> Ordering {
        Ordering::Equal
    }
}

/// The chosen entries depth-first from `tops`, without recursion.
fn lay_out<I: Copy + Eq + Hash>(
    tops: &[I],
    chosen: &FxHashMap<I, Vec<I>>,
    count: usize,
) -> Vec<Row<I>> {
    let mut rows = Vec::with_capacity(count);
    let mut stack: Vec<(I, usize, bool)> = tops.iter().rev().map(|&t| (t, 0, true)).collect();
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
