//! Which entries of a comparison a view shows, and in what order: the biggest changes first.
//!
//! As for a plain tree (`tree::select`): take the biggest change not yet shown whose directory
//! is shown, until the line budget is spent; then lay the chosen entries out depth-first,
//! siblings biggest change first. Ties never fall back to node ids (they depend on which walker
//! thread finished first): they are broken by path, so every run prints the same rows.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::{Diff, Entry, Status};

/// What decides whether an entry of a comparison may be shown.
#[derive(Clone, Debug)]
pub struct DiffSelection {
    /// At most this many rows.
    pub max_rows: usize,
    /// Deepest level shown below the top (0: only the top).
    pub max_depth: Option<usize>,
    /// Hide entries whose size changed by less than this (`-z`), in the mode's unit.
    pub min_change: Option<u64>,
    pub only_dirs: bool,
    /// With -e / -v: entries with nothing in either scan are noise.
    pub hide_empty: bool,
}

/// One line of a comparison view, in layout order (parents before children).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DiffRow {
    pub entry: Entry,
    pub depth: usize,
    /// No later sibling is shown.
    pub last: bool,
    pub has_children: bool,
}

impl DiffSelection {
    /// Unchanged entries are never shown (the top always is, by the callers).
    pub fn is_visible(&self, d: &Diff<'_>, e: Entry) -> bool {
        if d.status(e) == Status::Same || self.only_dirs && !d.is_dir(e) {
            return false;
        }
        if self.hide_empty && d.old_size(e) == 0 && d.new_size(e) == 0 {
            return false;
        }
        self.min_change
            .is_none_or(|m| d.delta(e).unsigned_abs() >= u128::from(m))
    }

    /// Display order: bigger change first, ties by path.
    pub fn order(&self, d: &Diff<'_>, a: Entry, b: Entry) -> Ordering {
        let size = |e| d.delta(e).unsigned_abs();
        size(b).cmp(&size(a)).then_with(|| path_order(d, a, b))
    }
}

/// Siblings by name, then removed before added (a file replaced by a directory has both).
fn sibling_order(d: &Diff<'_>, a: Entry, b: Entry) -> Ordering {
    d.name(a)
        .cmp(d.name(b))
        .then_with(|| (d.status(b) == Status::Removed).cmp(&(d.status(a) == Status::Removed)))
}

/// Depth-first order by name: an ancestor before its descendants, then by the names of the
/// first ancestors that differ. O(depth), and cheap for siblings (the common tie).
pub fn path_order(d: &Diff<'_>, a: Entry, b: Entry) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let (pa, pb) = (d.parent(a), d.parent(b));
    if pa.is_some() && pa == pb {
        return sibling_order(d, a, b);
    }
    let chain = |mut e: Entry| {
        let mut v = vec![e];
        while let Some(p) = d.parent(e) {
            v.push(p);
            e = p;
        }
        v.reverse();
        v
    };
    let (ca, cb) = (chain(a), chain(b));
    match ca.iter().zip(&cb).position(|(x, y)| x != y) {
        Some(i) => sibling_order(d, ca[i], cb[i]),
        None => ca.len().cmp(&cb.len()),
    }
}

/// An entry ranked for the heap: greater is shown first.
struct Ranked<'d, 'a> {
    change: u128,
    entry: Entry,
    diff: &'d Diff<'a>,
}

impl Ord for Ranked<'_, '_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.change
            .cmp(&other.change)
            .then_with(|| path_order(self.diff, other.entry, self.entry))
    }
}

impl PartialOrd for Ranked<'_, '_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        self.entry == other.entry
    }
}

impl Eq for Ranked<'_, '_> {}

/// Chooses the rows below the top of the comparison (shown whatever its change).
pub fn select_diff_rows(d: &Diff<'_>, sel: &DiffSelection) -> Vec<DiffRow> {
    let top = d.top();
    if sel.max_rows == 0 {
        return Vec::new();
    }
    let mut heap: BinaryHeap<(Ranked, usize)> = BinaryHeap::new();
    let mut chosen: FxHashMap<Entry, Vec<Entry>> = FxHashMap::default();
    let mut kids: Vec<Entry> = Vec::new();
    let mut count = 1usize;
    let mut admit = |heap: &mut BinaryHeap<_>, e: Entry, depth: usize, count: usize| {
        if sel.max_depth.is_some_and(|m| depth > m) || !d.has_children(e) {
            return;
        }
        let budget = sel.max_rows.saturating_sub(count);
        if budget == 0 {
            return;
        }
        kids.clear();
        d.children_into(e, &mut kids);
        kids.retain(|&c| sel.is_visible(d, c));
        // only the biggest `budget` children can ever be shown: don't heap a million
        if kids.len() > budget {
            kids.select_nth_unstable_by(budget - 1, |&a, &b| sel.order(d, a, b));
            kids.truncate(budget);
        }
        heap.extend(kids.drain(..).map(|c| {
            let change = d.delta(c).unsigned_abs();
            (
                Ranked {
                    change,
                    entry: c,
                    diff: d,
                },
                depth,
            )
        }));
    };
    chosen.insert(top, Vec::new());
    admit(&mut heap, top, 1, count);
    while count < sel.max_rows {
        let Some((Ranked { entry, .. }, depth)) = heap.pop() else {
            break;
        };
        if let Some(p) = d.parent(entry) {
            chosen.entry(p).or_default().push(entry);
        }
        chosen.entry(entry).or_default();
        count += 1;
        admit(&mut heap, entry, depth + 1, count);
    }
    drop(heap);
    for kids in chosen.values_mut() {
        kids.sort_by(|&a, &b| sel.order(d, a, b));
    }

    // depth-first layout without recursion
    let mut rows = Vec::with_capacity(count);
    let mut stack: Vec<(Entry, usize, bool)> = vec![(top, 0, true)];
    while let Some((e, depth, last)) = stack.pop() {
        let kids = chosen.get(&e).map_or(&[][..], Vec::as_slice);
        rows.push(DiffRow {
            entry: e,
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
