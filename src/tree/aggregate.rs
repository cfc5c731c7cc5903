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
            let (disk, apparent, entries, mtime, parent, counted) = {
                let n = &self.nodes[id];
                let skipped =
                    n.has(flags::DUPLICATE) || n.has(flags::FILTERED) || n.has(flags::OTHER_FS);
                (
                    n.disk,
                    n.apparent,
                    n.entries,
                    n.mtime,
                    n.parent as usize,
                    !skipped,
                )
            };
            let p = &mut self.nodes[parent];
            p.disk = p.disk.saturating_add(disk);
            p.apparent = p.apparent.saturating_add(apparent);
            p.entries = p.entries.saturating_add(entries);
            if counted {
                p.mtime = p.mtime.max(mtime);
            }
        }
    }

    /// `-m`: makes each file's chosen time its node's time and gives directories none of
    /// their own, so that [`Tree::finish`] carries the newest file time up (as dust: a
    /// directory's time is its newest file's; its own access time changes whenever it is
    /// listed, by this very scan). Call before `finish`.
    pub fn use_time(&mut self, field: crate::config::TimeField) {
        use crate::config::TimeField;
        for (id, n) in self.nodes.iter_mut().enumerate().skip(1) {
            if n.is_dir() {
                n.mtime = i64::MIN;
                continue;
            }
            let e = self.extra.get(id);
            match field {
                TimeField::Modified => {}
                TimeField::Accessed => n.mtime = e.map_or(0, |e| e.atime),
                TimeField::Changed => n.mtime = e.map_or(0, |e| e.ctime),
            }
        }
    }
}
