//! `-e` / `-v` (and `-M`/`-A`/`-y`): count only the files whose full path the regexes
//! accept and whose times the time filters accept.
//!
//! Done on the finished walk rather than inside it, so the walker stays free of view logic and
//! builds no paths: one depth-first pass here keeps a single path buffer.

use super::{flags, Tree, TOTAL};
use crate::config::PathFilters;

impl Tree {
    /// Marks rejected files [`flags::FILTERED`] and drops directories' own sizes, so totals
    /// are the sizes of matching files only. No-op without filters. Call before `finish`.
    pub fn apply_filters(&mut self, filters: &PathFilters) {
        self.filter(filters, true);
    }

    /// Only marks rejected files [`flags::FILTERED`]; directories keep their own sizes. An
    /// export records what was left out next to the sizes of what was scanned, as ncdu's
    /// `--exclude` does, and lets the reader add them up.
    pub fn mark_filtered(&mut self, filters: &PathFilters) {
        self.filter(filters, false);
    }

    fn filter(&mut self, filters: &PathFilters, zero_dirs: bool) {
        if !filters.is_active() {
            return;
        }
        let mut path = Vec::new();
        // (node, length of its parent's path in `path`)
        let mut stack: Vec<(u32, usize)> = self.nodes[TOTAL as usize]
            .children()
            .rev()
            .map(|r| (r, 0))
            .collect();
        while let Some((id, parent_len)) = stack.pop() {
            path.truncate(parent_len);
            if parent_len > 0 && path.last() != Some(&b'/') {
                path.push(b'/');
            }
            path.extend_from_slice(self.name(id));
            let (atime, ctime) = self
                .extra
                .get(id as usize)
                .map_or((0, 0), |e| (e.atime, e.ctime));
            let node = &mut self.nodes[id as usize];
            if node.is_dir() {
                if zero_dirs {
                    node.disk = 0;
                    node.apparent = 0;
                    node.entries = 0;
                }
                let len = path.len();
                stack.extend(node.children().rev().map(|c| (c, len)));
            } else if !filters.accepts(&path) || !filters.accepts_times(node.mtime, atime, ctime) {
                node.set_flag(flags::FILTERED);
            }
        }
    }
}
