//! Which entries the page holds: every child of the top first (the page opens on it), then
//! the biggest entries wherever they are, chosen by the project's one best-first selection
//! ([`crate::tree::best_first`]) until a budget of entries is spent; then, with what the
//! budget kept back, every child of a kept directory that has only a few more. What each
//! directory has beyond that is one folded entry, "(N smaller entries)", of their summed size.
//! A rectangle smaller than the biggest few thousand of the tree is a few pixels wide even
//! two or three zooms deep, so what is folded is what could not be seen; the budget keeps a
//! tree of millions of entries a page of a few megabytes that a browser opens in a second.

use std::cmp::Ordering;
use std::hash::Hash;

use rustc_hash::FxHashSet;

use crate::tree::{best_first, Ranking, Row};

/// What the page needs of an entry, whatever it was read from (a scan or a comparison).
pub trait Source {
    type Id: Copy + Eq + Hash;
    /// The entry the page starts at.
    fn top(&self) -> Self::Id;
    /// The children of `id` that are shown (none for a file).
    fn children(&self, id: Self::Id, out: &mut Vec<Self::Id>);
    /// The number the page sizes rectangles by.
    fn size(&self, id: Self::Id) -> u64;
    /// How much an entry matters to the page (its size; in a comparison, what is gone by its
    /// size then, so that it is listed though it has no area).
    fn rank(&self, id: Self::Id) -> u64 {
        self.size(id)
    }
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

/// At most this many children of one directory: a rectangle needs a few pixels, a table a
/// few thousand rows at most to be read. (The top's children of at least [`VISIBLE`] of it
/// are all kept, beyond this: at most 2,000 of them.)
const MAX_KIDS: usize = 1000;

/// A child of the top at least this fraction of it is always kept: 0.05%, a rectangle of
/// 20 by 20 pixels on a phone's map.
const VISIBLE: u64 = 2000;

/// A kept directory with at most this many children left out lists them all (from the part
/// of the budget kept back for them): a listing of 11 entries reads better whole than as 9
/// and "(2 smaller entries)".
const FEW: usize = 32;

/// The entries ranked for [`best_first`]: by [`Source::rank`], the top's children first.
struct Pick<'s, S: Source> {
    src: &'s S,
    top: S::Id,
    first: FxHashSet<S::Id>,
}

impl<S: Source> Ranking for Pick<'_, S> {
    type Item = S::Id;

    fn rank(&self, id: S::Id) -> u128 {
        let boost = if self.first.contains(&id) { 1 << 64 } else { 0 };
        u128::from(self.src.rank(id)) | boost
    }

    fn tie(&self, a: S::Id, b: S::Id) -> Ordering {
        // of one size, by name (the first name is shown first)
        self.src.name(b).cmp(self.src.name(a))
    }

    fn candidates(&self, item: S::Id, budget: usize, out: &mut Vec<S::Id>) {
        self.src.children(item, out);
        let cap = if item == self.top {
            self.first.len()
        } else {
            budget.min(MAX_KIDS)
        };
        if out.len() > cap && cap > 0 {
            out.select_nth_unstable_by(cap - 1, |&a, &b| self.display_order(a, b));
        }
        out.truncate(cap);
    }
}

/// The children of the top that are kept whatever else is: the biggest [`MAX_KIDS`], and any
/// other of at least [`VISIBLE`] of the top.
fn first_kept<S: Source>(pick: &Pick<'_, S>) -> FxHashSet<S::Id> {
    let mut kids = Vec::new();
    pick.src.children(pick.top, &mut kids);
    kids.sort_by(|&a, &b| pick.display_order(a, b));
    let whole = pick.src.size(pick.top);
    let visible = |&id: &S::Id| pick.src.size(id).saturating_mul(VISIBLE) >= whole;
    let mut first: FxHashSet<S::Id> = kids.iter().take(MAX_KIDS).copied().collect();
    first.extend(kids.iter().skip(MAX_KIDS).take_while(|k| visible(k)));
    first
}

/// The kept entries below `src.top()`, at most about `budget` of them (the folded ones come
/// on top: one per directory at most; the top's children beyond the budget if it has more).
pub fn prune<S: Source>(src: &S, budget: usize) -> Vec<Kept<S::Id>> {
    let top = src.top();
    let mut pick = Pick {
        src,
        top,
        first: FxHashSet::default(),
    };
    pick.first = first_kept(&pick);
    let reserve = budget / 10;
    let chosen = budget.saturating_sub(reserve).max(pick.first.len() + 1);
    let rows = best_first(&pick, &[top], chosen, None);
    lay_out(&pick, &rows, reserve)
}

/// The chosen rows as the page holds them: each entry with its number of children, each
/// directory's folded entry after its children; a directory with [`FEW`] children left out
/// lists them instead, while `reserve` lasts.
fn lay_out<S: Source>(
    pick: &Pick<'_, S>,
    rows: &[Row<S::Id>],
    mut reserve: usize,
) -> Vec<Kept<S::Id>> {
    let src = pick.src;
    let mut out = Vec::with_capacity(rows.len() + rows.len() / 4);
    // (index in `out` of an open directory's entry, its depth, its kept children, their size)
    let mut open: Vec<(usize, usize, Vec<S::Id>)> = Vec::new();
    let mut all = Vec::new();
    let mut close = |out: &mut Vec<Kept<S::Id>>, (at, _, kept): (usize, usize, Vec<S::Id>)| {
        let Kept::Entry { id, .. } = out[at] else {
            return;
        };
        all.clear();
        src.children(id, &mut all);
        let mut n = kept.len();
        let left = all.len().saturating_sub(n);
        if left > 0 && left <= FEW && left <= reserve {
            reserve -= left;
            let mut rest: Vec<S::Id> = all.iter().filter(|c| !kept.contains(c)).copied().collect();
            rest.sort_by(|&a, &b| pick.display_order(a, b));
            for c in rest {
                push_leaf(src, c, out);
                n += 1;
            }
        } else if left > 0 {
            let size = all.iter().map(|&c| src.size(c)).sum::<u64>();
            let shown = kept.iter().map(|&c| src.size(c)).sum::<u64>();
            out.push(Kept::Folded {
                count: left as u64,
                size: size.saturating_sub(shown),
            });
            n += 1;
        }
        out[at] = Kept::Entry {
            id,
            kids: u32::try_from(n).unwrap_or(u32::MAX),
        };
    };
    for row in rows {
        while open.last().is_some_and(|o| o.1 >= row.depth) {
            let o = open.pop().expect("an open directory");
            close(&mut out, o);
        }
        if let Some(parent) = open.last_mut() {
            parent.2.push(row.id);
        }
        open.push((out.len(), row.depth, Vec::new()));
        out.push(Kept::Entry {
            id: row.id,
            kids: 0,
        });
    }
    while let Some(o) = open.pop() {
        close(&mut out, o);
    }
    out
}

/// An entry listed without its children: a directory with any has them as one folded entry.
fn push_leaf<S: Source>(src: &S, id: S::Id, out: &mut Vec<Kept<S::Id>>) {
    let mut kids = Vec::new();
    src.children(id, &mut kids);
    let kids_n = u32::from(!kids.is_empty());
    out.push(Kept::Entry { id, kids: kids_n });
    if !kids.is_empty() {
        out.push(Kept::Folded {
            count: kids.len() as u64,
            size: kids.iter().map(|&c| src.size(c)).sum(),
        });
    }
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

    fn entries(kept: &[Kept<usize>]) -> Vec<(usize, u32)> {
        kept.iter()
            .map(|k| match k {
                Kept::Entry { id, kids } => (*id, *kids),
                Kept::Folded { .. } => panic!("nothing to fold"),
            })
            .collect()
    }

    #[test]
    fn a_big_budget_keeps_everything_biggest_first() {
        let kept = prune(&toy(), 100);
        assert_eq!(
            entries(&kept),
            [(0, 3), (2, 2), (4, 0), (5, 0), (3, 0), (1, 0)]
        );
    }

    #[test]
    fn every_child_of_the_top_comes_before_anything_deeper() {
        // a budget of 4 and nothing kept back: top, then a, b, c though b1 is bigger than
        // a and c; b's two children are folded
        let kept = prune(&toy(), 4);
        assert_eq!(
            kept,
            [
                Kept::Entry { id: 0, kids: 3 },
                Kept::Entry { id: 2, kids: 1 },
                Kept::Folded { count: 2, size: 60 },
                Kept::Entry { id: 3, kids: 0 },
                Kept::Entry { id: 1, kids: 0 },
            ]
        );
    }

    #[test]
    fn a_directory_with_a_few_more_children_lists_them_all() {
        // a budget of 50 keeps back 5: b's children would fit in either way; make the
        // best-first part choose b1 only, and see b2 listed from what was kept back
        let mut t = toy();
        for i in 0..40 {
            let name: &'static str = Box::leak(format!("x{i}").into_boxed_str());
            t.0.push((name, 0, vec![]));
            let at = t.0.len() - 1;
            t.0[0].2.push(at);
        }
        let kept = prune(&t, 50);
        let ids: Vec<usize> = kept
            .iter()
            .filter_map(|k| match k {
                Kept::Entry { id, .. } => Some(*id),
                Kept::Folded { .. } => None,
            })
            .collect();
        assert!(ids.contains(&4) && ids.contains(&5), "{kept:?}");
        assert!(
            !kept.iter().any(|k| matches!(k, Kept::Folded { .. })),
            "{kept:?}"
        );
    }
}
