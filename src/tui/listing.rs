//! The rows of a directory in display order, sorted once and kept.
//!
//! Sorting a directory of a million entries takes longer than a frame; a key press must cost
//! far less than one. So every directory's sorted children are cached, keyed by the tree's
//! generation (bumped whenever sizes change) and the sort settings; moving, toggling columns
//! and redrawing never sort again.

use std::hash::Hash;

use regex::bytes::{Regex, RegexBuilder};
use rustc_hash::FxHashMap;

use super::diff::{Change, Delta};
use super::shown::{removed, Shown};
use crate::tree::{flags, Node, NodeId, Tree, TOTAL};
use crate::vocab::SizeMode;

/// What the rows are ordered by.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SortKey {
    Size,
    Name,
    Count,
    Mtime,
    /// The change since an earlier scan (`--diff`), whatever its sign.
    Change,
}

impl SortKey {
    pub fn label(self) -> &'static str {
        match self {
            SortKey::Size => "size",
            SortKey::Name => "name",
            SortKey::Count => "count",
            SortKey::Mtime => "mtime",
            SortKey::Change => "change",
        }
    }
}

/// A sort key and its direction. The natural direction puts what matters first: biggest,
/// most entries, newest, and names A to Z; `reverse` flips it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sort {
    pub key: SortKey,
    pub reverse: bool,
}

impl Default for Sort {
    fn default() -> Self {
        Sort {
            key: SortKey::Size,
            reverse: false,
        }
    }
}

/// Rows of the current directory that match what is typed after `/`: a regex when the text
/// is one, else a plain substring; case-insensitive unless the text has an upper-case letter.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub text: String,
    /// Keys go into the text (after `/`, until Enter or Esc).
    pub editing: bool,
    matcher: Option<Regex>,
}

impl Filter {
    pub fn is_active(&self) -> bool {
        !self.text.is_empty()
    }

    pub fn set(&mut self, text: String) {
        let insensitive = !text.chars().any(char::is_uppercase);
        let build = |pattern: &str| {
            RegexBuilder::new(pattern)
                .case_insensitive(insensitive)
                .size_limit(1 << 20)
                .build()
                .ok()
        };
        // half-typed regexes ("foo(") still filter, as text
        self.matcher = build(&text).or_else(|| build(&regex::escape(&text)));
        self.text = text;
    }

    pub fn clear(&mut self) {
        *self = Filter::default();
    }

    pub fn matches(&self, name: &[u8]) -> bool {
        self.matcher.as_ref().is_none_or(|m| m.is_match(name))
    }
}

/// Whether a child is shown at all (deleted entries and files left out by -e / -v are not;
/// a directory a merge of scans left out and no part scanned is, marked).
pub fn shown(flags: u8) -> bool {
    flags & flags::REMOVED == 0 && (flags & flags::FILTERED == 0 || flags::is_left_unscanned(flags))
}

/// What rows are: entries of the tree on screen and, in a comparison with an earlier scan,
/// removed rows (entries of the old scan only, see [`super::diff`]).
pub struct Source<'a, T: Shown = Tree> {
    pub tree: &'a T,
    pub delta: Option<&'a Delta>,
    /// Whether the comparison is shown (not while walking: what is not read yet would look
    /// removed): changes, and removed entries listed.
    pub compared: bool,
}

impl<T: Shown> Clone for Source<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Shown> Copy for Source<'_, T> {}

impl<'a, T: Shown> Source<'a, T> {
    /// The node of a row (the old scan's for a removed row).
    pub fn node(&self, id: T::Id) -> Node {
        match (removed::<T>(id), self.delta) {
            (None, _) => self.tree.node(id),
            (Some(_), Some(d)) => d
                .old_node(T::scan_id(id).unwrap_or(TOTAL))
                .unwrap_or_else(|| self.tree.node(self.tree.total())),
            (Some(_), None) => self.tree.node(self.tree.total()),
        }
    }

    pub fn name(&self, id: T::Id) -> &'a [u8] {
        match (removed::<T>(id), self.delta) {
            (None, _) => self.tree.name(id),
            (Some(o), Some(d)) if (o as usize) < d.old().len() => d.old().name(o),
            (Some(_), _) => b"?",
        }
    }

    /// The full path of a row (a removed row's as it was).
    pub fn path(&self, id: T::Id) -> Vec<u8> {
        match (removed::<T>(id), self.delta) {
            (None, _) => self.tree.path(id),
            (Some(o), Some(d)) if (o as usize) < d.old().len() => d.old().path(o),
            (Some(_), _) => b"?".to_vec(),
        }
    }

    /// The comparison, when it is shown, and the scan it compares.
    pub fn shown_delta(&self) -> Option<(&'a Delta, &'a Tree)> {
        let scan = self.tree.scan()?;
        self.delta.filter(|_| self.compared).map(|d| (d, scan))
    }

    /// What became of a row since the earlier scan, when the comparison is shown.
    pub fn change(&self, id: T::Id) -> Option<Change> {
        let (d, scan) = self.shown_delta()?;
        d.change(scan, T::scan_id(id)?)
    }

    /// The rows of `dir`, unsorted: its shown children, then what was removed from it.
    pub fn children(&self, dir: T::Id) -> Vec<T::Id> {
        let tree = self.tree;
        let mut rows: Vec<T::Id> = match removed::<T>(dir) {
            Some(_) => Vec::new(),
            None => tree
                .children(dir)
                .filter(|&c| shown(tree.flags(c)))
                .collect(),
        };
        if let (Some((d, scan)), Some(dir)) = (self.shown_delta(), T::scan_id(dir)) {
            let removed = d.removed_rows(scan, dir);
            rows.extend(removed.into_iter().filter_map(T::from_scan_id));
        }
        rows
    }

    /// The change since the earlier scan, whatever its sign (a sort by change without one
    /// sorts by size).
    fn magnitude(&self, id: T::Id) -> Option<u128> {
        let (d, scan) = self.shown_delta()?;
        Some(T::scan_id(id).map_or(0, |n| d.magnitude(scan, n)))
    }
}

/// Children of `dir` in display order. Ties are broken by name, then by id, so the order is
/// total and the same on every run.
pub fn sorted_children<T: Shown>(
    src: &Source<'_, T>,
    dir: T::Id,
    sort: Sort,
    mode: SizeMode,
) -> Vec<T::Id> {
    let mut rows = src.children(dir);
    let by_name = |a: &T::Id, b: &T::Id| src.name(*a).cmp(src.name(*b)).then(a.cmp(b));
    match sort.key {
        SortKey::Name => rows.sort_unstable_by(by_name),
        key => {
            let value = |id: T::Id| {
                let n = src.node(id);
                match (key, src.magnitude(id)) {
                    (SortKey::Change, Some(c)) => c.min(i128::MAX as u128) as i128,
                    (SortKey::Count, _) => n.entries as i128,
                    (SortKey::Mtime, _) => n.mtime as i128,
                    _ => n.size(mode) as i128,
                }
            };
            // the key once per row, not once per comparison
            let mut keyed: Vec<(i128, T::Id)> = rows.iter().map(|&id| (value(id), id)).collect();
            keyed.sort_unstable_by(|a, b| b.0.cmp(&a.0).then_with(|| by_name(&a.1, &b.1)));
            rows.clear();
            rows.extend(keyed.into_iter().map(|(_, id)| id));
        }
    }
    if sort.reverse {
        rows.reverse();
    }
    rows
}

/// What the cached orders depend on besides the directory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct CacheKey {
    sort: Sort,
    mode: SizeMode,
    generation: u64,
}

/// Sorted children per directory, and the filtered rows of the current one.
#[derive(Debug)]
pub struct Listing<I = NodeId> {
    key: Option<CacheKey>,
    /// Per directory: its shown children in order, and the largest size among them (bars are
    /// drawn relative to it).
    sorted: FxHashMap<I, (Vec<I>, u64)>,
    dir: Option<I>,
    /// The current directory's rows after the filter, when a filter is active.
    filtered: Option<Vec<I>>,
    /// What `filtered` was computed for: moving the cursor must not run the filter again.
    filtered_for: Option<(I, String, CacheKey)>,
}

impl<I> Default for Listing<I> {
    fn default() -> Self {
        Listing {
            key: None,
            sorted: FxHashMap::default(),
            dir: None,
            filtered: None,
            filtered_for: None,
        }
    }
}

impl<I: Copy + Eq + Hash> Listing<I> {
    /// Makes [`Listing::rows`] the rows of `dir`; sorts only what is not cached yet.
    pub fn refresh<T: Shown<Id = I>>(
        &mut self,
        src: &Source<'_, T>,
        dir: I,
        sort: Sort,
        mode: SizeMode,
        generation: u64,
        filter: &Filter,
    ) {
        let key = CacheKey {
            sort,
            mode,
            generation,
        };
        if self.key != Some(key) {
            self.sorted.clear();
            self.key = Some(key);
        }
        self.dir = Some(dir);
        let (sorted, _) = self.sorted.entry(dir).or_insert_with(|| {
            let rows = sorted_children(src, dir, sort, mode);
            let largest = rows
                .iter()
                .map(|&id| src.node(id).size(mode))
                .max()
                .unwrap_or(0);
            (rows, largest)
        });
        let wanted = filter.is_active().then(|| (dir, filter.text.clone(), key));
        if wanted == self.filtered_for && (wanted.is_none() == self.filtered.is_none()) {
            return;
        }
        self.filtered_for = wanted;
        self.filtered = filter.is_active().then(|| {
            sorted
                .iter()
                .copied()
                .filter(|&id| filter.matches(src.name(id)))
                .collect()
        });
    }

    /// Forgets every cached order (the tree changed).
    pub fn invalidate(&mut self) {
        self.key = None;
        self.sorted.clear();
        self.filtered_for = None;
    }

    pub fn rows(&self) -> &[I] {
        match (&self.filtered, &self.dir) {
            (Some(rows), _) => rows,
            (None, Some(dir)) => self.sorted.get(dir).map_or(&[], |(r, _)| r.as_slice()),
            (None, None) => &[],
        }
    }

    /// The largest size among the current directory's children.
    pub fn largest(&self) -> u64 {
        let dir = self.dir.as_ref();
        dir.and_then(|d| self.sorted.get(d)).map_or(0, |&(_, l)| l)
    }
}
