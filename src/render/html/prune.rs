//! Which entries the page holds: the biggest ones, wherever they are, until a budget of
//! entries is spent; what each directory has beyond that is one folded entry, "(N smaller
//! entries)", of their summed size. A rectangle smaller than the biggest few thousand of the
//! tree is a few pixels wide even two or three zooms deep, so what is folded is what could
//! not be seen; the budget keeps a tree of millions of entries a page of a few megabytes that
//! a browser opens in a second.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::hash::Hash;

use rustc_hash::FxHashMap;

/// What the page needs of an entry, whatever it was read from (a scan or a comparison).
pub trait Source {
    type Id: Copy + Eq + Hash;
    /// The entry the page starts at.
    fn top(&self) -> Self::Id;
    /// The children of `id` that are shown (none for a file).
    fn children(&self, id: Self::Id, out: &mut Vec<Self::Id>);
    /// The number the page sizes rectangles by.
    fn size(&self, id: Self::Id) -> u64;
    /// The name that orders entries of one size (any stable order will do).
    fn name(&self, id: Self::Id) -> &[u8];
}

/// One entry of the pruned tree, in depth-first order, biggest child first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kept<Id> {
    /// An entry and how many entries of the page are its children (its folded one included).
    Entry { id: Id, kids: u32 },
    /// The children of the entry above it that were left out: how many, their summed size.
    Folded { count: u64, size: u64 },
}

/// Every kept directory: its kept children, and the number and summed size of all of them.
type KeptDirs<Id> = FxHashMap<Id, (Vec<Id>, u64, u64)>;

/// At most this many children of one directory: a rectangle needs a few pixels, a table a
/// few thousand rows at most to be read.
const MAX_KIDS: usize = 1000;

/// The kept entries below `src.top()`, at most about `budget` of them (the folded ones come
/// on top: one per directory at most).
pub fn prune<S: Source>(src: &S, budget: usize) -> Vec<Kept<S::Id>> {
    let top = src.top();
    let order = |a: &S::Id, b: &S::Id| -> Ordering {
        (src.size(*b), Reverse(src.name(*b))).cmp(&(src.size(*a), Reverse(src.name(*a))))
    };
    let mut kept: KeptDirs<S::Id> = FxHashMap::default();
    // biggest first; equal sizes in the order they were offered (deterministic)
    let mut heap: BinaryHeap<(u64, Reverse<u64>, usize)> = BinaryHeap::new();
    let mut offered: Vec<(S::Id, S::Id)> = Vec::new();
    let mut kids = Vec::new();
    let mut count = 1usize;
    let mut expand = |id: S::Id, heap: &mut BinaryHeap<_>, offered: &mut Vec<_>, count: usize| {
        kids.clear();
        src.children(id, &mut kids);
        if kids.is_empty() {
            return None;
        }
        let all = (kids.len() as u64, kids.iter().map(|&k| src.size(k)).sum());
        let room = budget.saturating_sub(count).min(MAX_KIDS);
        if kids.len() > room && room > 0 {
            kids.select_nth_unstable_by(room - 1, order);
        }
        kids.truncate(room);
        kids.sort_by(order);
        for &k in &kids {
            heap.push((src.size(k), Reverse(offered.len() as u64), offered.len()));
            offered.push((k, id));
        }
        Some(all)
    };
    if let Some((n, size)) = expand(top, &mut heap, &mut offered, count) {
        kept.insert(top, (Vec::new(), n, size));
    }
    while count < budget {
        let Some((_, _, i)) = heap.pop() else { break };
        let (id, parent) = offered[i];
        if let Some(p) = kept.get_mut(&parent) {
            p.0.push(id);
        }
        count += 1;
        if let Some((n, size)) = expand(id, &mut heap, &mut offered, count) {
            kept.insert(id, (Vec::new(), n, size));
        }
    }
    lay_out(src, top, &kept)
}

/// The kept entries depth-first from `top`, each directory's folded entry after its children.
fn lay_out<S: Source>(src: &S, top: S::Id, kept: &KeptDirs<S::Id>) -> Vec<Kept<S::Id>> {
    enum Step<Id> {
        Entry(Id),
        Folded(u64, u64),
    }
    let mut out = Vec::new();
    let mut stack = vec![Step::Entry(top)];
    while let Some(step) = stack.pop() {
        let id = match step {
            Step::Folded(count, size) => {
                out.push(Kept::Folded { count, size });
                continue;
            }
            Step::Entry(id) => id,
        };
        let Some((kids, all, all_size)) = kept.get(&id) else {
            out.push(Kept::Entry { id, kids: 0 });
            continue;
        };
        let shown: u64 = kids.iter().map(|&k| src.size(k)).sum();
        let folded = all - kids.len() as u64;
        let n = kids.len() + usize::from(folded > 0);
        out.push(Kept::Entry {
            id,
            kids: u32::try_from(n).unwrap_or(u32::MAX),
        });
        if folded > 0 {
            stack.push(Step::Folded(folded, all_size.saturating_sub(shown)));
        }
        // (kept in order, biggest first: pushed last to first)
        stack.extend(kids.iter().rev().map(|&k| Step::Entry(k)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree as (name, size, children) by index.
    struct Toy(Vec<(&'static str, u64, Vec<usize>)>);

    impl Source for Toy {
        type Id = usize;
        fn top(&self) -> usize {
            0
        }
        fn children(&self, id: usize, out: &mut Vec<usize>) {
            out.extend(&self.0[id].2);
        }
        fn size(&self, id: usize) -> u64 {
            self.0[id].1
        }
        fn name(&self, id: usize) -> &[u8] {
            self.0[id].0.as_bytes()
        }
    }

    fn toy() -> Toy {
        Toy(vec![
            ("top", 100, vec![1, 2, 3]),
            ("a", 10, vec![]),
            ("b", 60, vec![4, 5]),
            ("c", 30, vec![]),
            ("b1", 50, vec![]),
            ("b2", 10, vec![]),
        ])
    }

    #[test]
    fn a_big_budget_keeps_everything_biggest_first() {
        let kept = prune(&toy(), 100);
        let ids: Vec<_> = kept
            .iter()
            .map(|k| match k {
                Kept::Entry { id, kids } => (*id, *kids),
                Kept::Folded { .. } => panic!("nothing to fold"),
            })
            .collect();
        assert_eq!(ids, [(0, 3), (2, 2), (4, 0), (5, 0), (3, 0), (1, 0)]);
    }

    #[test]
    fn what_the_budget_leaves_out_is_folded_per_directory() {
        // top, b, b1, c: "a" (10) and "b2" (10) are folded into their directories
        let kept = prune(&toy(), 4);
        assert_eq!(
            kept,
            [
                Kept::Entry { id: 0, kids: 3 },
                Kept::Entry { id: 2, kids: 2 },
                Kept::Entry { id: 4, kids: 0 },
                Kept::Folded { count: 1, size: 10 },
                Kept::Entry { id: 3, kids: 0 },
                Kept::Folded { count: 1, size: 10 },
            ]
        );
    }
}
