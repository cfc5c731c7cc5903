//! Walks along a directory's chain of children (`prev` from its `sub`), bounded and
//! loop-checked, and its children in the stored order.

use super::{damaged, Facts, ItemId, LazyTree, NONE, SEGMENT};
use crate::formats::ncdu_bin::spec::etype;
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

/// The children of one directory in the stored order: the segments between the marks of
/// [`LazyTree::list`] from the last mark (the first children) back.
pub struct Children<'t, S> {
    pub(super) tree: &'t LazyTree<S>,
    pub(super) dir: u64,
    pub(super) marks: Vec<u64>,
    pub(super) segment: Vec<u64>,
    /// Leave out the entries that could not be read (`err` items: no entry of the tree).
    pub(super) entries_only: bool,
}

impl<S: ReadAt> Iterator for Children<'_, S> {
    type Item = ItemId;

    fn next(&mut self) -> Option<ItemId> {
        while self.segment.is_empty() {
            let mark = self.marks.pop()?;
            let mut walk = Chain::from(self.dir, SEGMENT as u64, Some(mark));
            let mut read = 0;
            while let Some((at, f)) = walk.next(self.tree) {
                if !(self.entries_only && f.etype == etype::ERR) {
                    self.segment.push(at);
                }
                read += 1;
                if read == SEGMENT {
                    break;
                }
            }
        }
        let item = self.segment.pop()?;
        Some(ItemId {
            item,
            parent: self.dir,
        })
    }
}
