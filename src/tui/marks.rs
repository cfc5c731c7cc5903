//! Marked entries. Marks belong to tree nodes (ids never move), not to rows: they survive
//! sorting, filtering, navigation and live updates.

use std::hash::Hash;

use rustc_hash::FxHashSet;

use crate::tree::{NodeId, TreeView};
use crate::vocab::SizeMode;

#[derive(Debug)]
pub struct Marks<I = NodeId> {
    /// In the order they were marked (the mark pane lists them so).
    order: Vec<I>,
    set: FxHashSet<I>,
}

impl<I> Default for Marks<I> {
    fn default() -> Self {
        Marks {
            order: Vec::new(),
            set: FxHashSet::default(),
        }
    }
}

impl<I: Copy + Eq + Hash> Marks<I> {
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn contains(&self, id: I) -> bool {
        self.set.contains(&id)
    }

    /// Marks or unmarks; returns whether it is marked now.
    pub fn toggle(&mut self, id: I) -> bool {
        if self.set.remove(&id) {
            self.order.retain(|&m| m != id);
            false
        } else {
            self.set.insert(id);
            self.order.push(id);
            true
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = I> + '_ {
        self.order.iter().copied()
    }

    /// Drops every mark for which `keep` is false.
    pub fn retain(&mut self, mut keep: impl FnMut(I) -> bool) {
        let set = &mut self.set;
        self.order.retain(|&m| {
            let k = keep(m);
            if !k {
                set.remove(&m);
            }
            k
        });
    }

    pub fn clear(&mut self) {
        self.order.clear();
        self.set.clear();
    }

    /// The marks that are not inside another marked entry: what a delete acts on, and what
    /// the total counts (a marked file inside a marked directory is not counted twice).
    pub fn outermost<T: TreeView<Id = I>>(&self, tree: &T) -> Vec<I> {
        let total = tree.total();
        self.order
            .iter()
            .copied()
            .filter(|&m| {
                let mut p = m;
                while p != total {
                    p = tree.parent(p);
                    if self.set.contains(&p) {
                        return false;
                    }
                }
                true
            })
            .collect()
    }

    /// Total size of the outermost marks.
    pub fn total<T: TreeView<Id = I>>(&self, tree: &T, mode: SizeMode) -> u64 {
        self.outermost(tree)
            .into_iter()
            .map(|m| tree.size(m, mode))
            .fold(0, u64::saturating_add)
    }
}

/// `--print-marked`: the marked paths, in the order they were marked. To a terminal they are
/// escaped (a name must not drive it), one per line; elsewhere they are the raw bytes, so a
/// pipe gets paths it can use, ended by a newline, or with `null` (`-0`) by a NUL byte (a
/// name may hold a newline: `xargs -0` is the safe reader).
pub fn print<T: TreeView>(
    marks: &Marks<T::Id>,
    tree: &T,
    out: &mut dyn std::io::Write,
    terminal: bool,
    null: bool,
) -> std::io::Result<()> {
    let end: &[u8] = if null { b"\0" } else { b"\n" };
    for id in marks.iter() {
        let path = tree.path(id);
        if terminal {
            out.write_all(&crate::render::escape::escape(&path, false).bytes)?;
        } else {
            out.write_all(&path)?;
        }
        out.write_all(end)?;
    }
    out.flush()
}
