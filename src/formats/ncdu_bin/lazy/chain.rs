//! Walks along a directory's chain of children (`prev` from its `sub`), bounded and
//! loop-checked.

use super::{damaged, Facts, LazyTree, NONE};
use crate::formats::ncdu_bin::ReadAt;

/// A walk along a directory's chain of children, from its last: never longer than the
/// entries the directory claims, and stopped at a loop (Brent's: one itemref kept).
pub(super) struct Chain {
    dir: u64,
    claimed: u64,
    next: Option<u64>,
    pub(super) steps: u64,
    power: u64,
    lap: u64,
    mark: u64,
}

impl Chain {
    pub(super) fn new(dir: u64, f: &Facts) -> Chain {
        Chain::from(dir, f.items, f.sub)
    }

    pub(super) fn from(dir: u64, claimed: u64, next: Option<u64>) -> Chain {
        Chain {
            dir,
            claimed,
            next,
            steps: 0,
            power: 1,
            lap: 0,
            mark: NONE,
        }
    }

    pub(super) fn next<S: ReadAt>(&mut self, tree: &LazyTree<S>) -> Option<(u64, Facts)> {
        let at = self.next.take()?;
        self.steps += 1;
        let (dir, claimed) = (self.dir, self.claimed);
        if at == self.mark {
            tree.fail(damaged(format!(
                "the children of directory item {dir:#x} loop back to item {at:#x}"
            )));
            return None;
        }
        if self.steps > claimed {
            tree.fail(damaged(format!(
                "directory item {dir:#x} lists more than the {claimed} entries it claims"
            )));
            return None;
        }
        self.lap += 1;
        if self.lap == self.power {
            (self.mark, self.power, self.lap) = (at, self.power * 2, 0);
        }
        let f = tree.facts(at);
        self.next = f.prev;
        Some((at, f))
    }
}
