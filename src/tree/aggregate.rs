//! Subtree totals in one reverse sweep (children always have larger ids than their parent).

use super::{flags, Tree, TOTAL};

impl Tree {
    /// Turns every node's own sizes into totals of its subtree. Duplicates, filtered-out
    /// entries and mount points not entered (-x: as `du -x`, which counts no part of another
    /// filesystem) contribute nothing. Call once, after [`Tree::apply_filters`].
    pub fn finish(&mut self) {
        for n in self.nodes.iter_mut().skip(1) {
            if n.has(flags::DUPLICATE) || n.has(flags::FILTERED) || n.has(flags::OTHER_FS) {
                n.disk = 0;
                n.apparent = 0;
                n.entries = 0;
            }
        }
        let total = &mut self.nodes[TOTAL as usize];
        total.disk = 0;
        total.apparent = 0;
        total.entries = 0;
        for id in (1..self.nodes.len()).rev() {
            let (disk, apparent, entries, mtime, parent) = {
                let n = &self.nodes[id];
                (n.disk, n.apparent, n.entries, n.mtime, n.parent as usize)
            };
            let p = &mut self.nodes[parent];
            p.disk = p.disk.saturating_add(disk);
            p.apparent = p.apparent.saturating_add(apparent);
            p.entries = p.entries.saturating_add(entries);
            p.mtime = p.mtime.max(mtime);
        }
    }
}
