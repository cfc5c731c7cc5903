//! `-e` / `-v` (and `-M`/`-A`/`-y`): count only the entries whose full path the regexes
//! accept and whose times the time filters accept, as dust does: a rejected file is left out
//! (not counted, not shown); a rejected directory is still walked and shown, but its own
//! blocks are not counted (`-v '\.gz$'` keeps every directory's blocks, `-e '\.gz$'` drops
//! those of the directories whose path does not match).
//!
//! Done on the finished walk rather than inside it, so the walker stays free of view logic and
//! builds no paths: one depth-first pass here keeps a single path buffer.

use super::{flags, Tree};
use regex::bytes::Regex;

use crate::vocab::TimeField;

/// `-M`/`-A`/`-y [+-]N`: files whose time falls in `[from, to)` (seconds) are counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeFilter {
    pub field: TimeField,
    pub from: i64,
    pub to: i64,
}

impl TimeFilter {
    /// Day counts as dust reads them (config.rs `get_filter_time_operator`): from the local
    /// midnight that began today (`M`), counted back in whole days of 86,400 s: `-N` since
    /// `M - N days` (`-0`: today), `N` the day that ends at `M - N days` (`0`: yesterday),
    /// `+N` up to and including `M - (N + 1) days`. `now` in seconds since the epoch.
    pub fn parse(value: &str, field: TimeField, now: i64) -> Option<TimeFilter> {
        const DAY: i64 = 86_400;
        let v = value.trim();
        let (sign, digits) = match v.as_bytes().first()? {
            b'+' | b'-' => (v.as_bytes()[0], &v[1..]),
            _ => (b'=', v),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: i64 = digits.parse().ok()?;
        let midnight = local_midnight(now);
        let ago = |days: i64| midnight.saturating_sub(days.saturating_mul(DAY));
        let (from, to) = match sign {
            b'+' => (i64::MIN, ago(n.saturating_add(1)).saturating_add(1)),
            b'-' => (ago(n), i64::MAX),
            _ => (ago(n.saturating_add(1)), ago(n)),
        };
        Some(TimeFilter { field, from, to })
    }

    pub fn accepts(&self, t: i64) -> bool {
        self.from <= t && t < self.to
    }
}

/// The local midnight that began the day of `now` (seconds since the epoch): the earliest
/// one when a clock change repeats it, `now` itself if the zone skips midnight that day.
pub fn local_midnight(now: i64) -> i64 {
    use chrono::{Local, TimeZone};
    let Some(today) = Local.timestamp_opt(now, 0).earliest() else {
        return now;
    };
    today
        .date_naive()
        .and_hms_opt(0, 0, 0)
        .and_then(|m| Local.from_local_datetime(&m).earliest())
        .map_or(now, |m| m.timestamp())
}

/// Regex filters applied to files after the walk (`-e`, `-v`).
#[derive(Clone, Debug, Default)]
pub struct PathFilters {
    pub include: Vec<Regex>,
    pub exclude: Vec<Regex>,
    /// `-M`/`-A`/`-y`: every one must accept a file's time.
    pub times: Vec<TimeFilter>,
}

impl PathFilters {
    pub fn is_active(&self) -> bool {
        !self.include.is_empty() || !self.exclude.is_empty() || !self.times.is_empty()
    }

    /// Whether a file with these times (modification, access, change) is counted.
    pub fn accepts_times(&self, mtime: i64, atime: i64, ctime: i64) -> bool {
        self.times.iter().all(|f| {
            f.accepts(match f.field {
                TimeField::Modified => mtime,
                TimeField::Accessed => atime,
                TimeField::Changed => ctime,
            })
        })
    }

    /// With `-e`/`-v` (dust's "using a filter"; not the time filters), entries left with
    /// nothing but files are noise: directories of size 0 are hidden, empty files stay.
    pub fn hides_empty_dirs(&self) -> bool {
        !self.include.is_empty() || !self.exclude.is_empty()
    }

    /// Whether an entry with this full path is counted.
    pub fn accepts(&self, path: &[u8]) -> bool {
        (self.include.is_empty() || self.include.iter().any(|r| r.is_match(path)))
            && !self.exclude.iter().any(|r| r.is_match(path))
    }
}

impl Tree {
    /// Marks rejected files [`flags::FILTERED`] and drops the own sizes of rejected
    /// directories (their contents are judged one by one), as dust counts. No-op without
    /// filters. A step of `settle::settle`, before the totals.
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
        let mut stack: Vec<(u32, usize)> = self.roots().rev().map(|r| (r, 0)).collect();
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
            // (its own values: a view that shows a walk in progress sums totals meanwhile)
            let mut node = self.own_node(id);
            let accepted =
                filters.accepts(&path) && filters.accepts_times(node.mtime, atime, ctime);
            if node.is_dir() {
                if zero_dirs && !accepted {
                    (node.disk, node.apparent, node.entries) = (0, 0, 0);
                    self.set_own_node(id, &node);
                }
                let len = path.len();
                stack.extend(node.children().rev().map(|c| (c, len)));
            } else if !accepted {
                self.set_flag(id, flags::FILTERED);
            }
        }
    }
}
