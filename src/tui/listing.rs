//! The rows of a directory in display order, sorted once and kept.
//!
//! Sorting a directory of a million entries takes tens of milliseconds; a key press must cost
//! far less than a frame. So every directory's sorted children are cached, keyed by the tree's
//! generation (bumped whenever sizes change) and the sort settings; moving, toggling columns
//! and redrawing never sort again.

use regex::bytes::{Regex, RegexBuilder};
use rustc_hash::FxHashMap;

use crate::config::SizeMode;
use crate::tree::{flags, NodeId, Tree};

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

/// Whether a child is shown at all (deleted entries and files left out by -e / -v are not).
pub fn shown(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    !n.has(flags::REMOVED) && !n.has(flags::FILTERED)
}

/// How much a node changed since an earlier scan, for [`SortKey::Change`] (without one, that
/// key sorts by size).
pub type ChangeOf<'a> = Option<&'a dyn Fn(NodeId) -> u128>;

/// Children of `dir` in display order. Ties are broken by name, then by id, so the order is
/// total and the same on every run.
pub fn sorted_children(
    tree: &Tree,
    dir: NodeId,
    sort: Sort,
    mode: SizeMode,
    change: ChangeOf<'_>,
) -> Vec<NodeId> {
    let mut rows: Vec<NodeId> = tree
        .node(dir)
        .children()
        .filter(|&c| shown(tree, c))
        .collect();
    let by_name = |a: &NodeId, b: &NodeId| tree.name(*a).cmp(tree.name(*b)).then(a.cmp(b));
    match sort.key {
        SortKey::Name => rows.sort_unstable_by(by_name),
        key => {
            let value = |id: NodeId| {
                let n = tree.node(id);
                match (key, change) {
                    (SortKey::Change, Some(f)) => f(id).min(i128::MAX as u128) as i128,
                    (SortKey::Count, _) => n.entries as i128,
                    (SortKey::Mtime, _) => n.mtime as i128,
                    _ => n.size(mode) as i128,
                }
            };
            // the key once per row, not once per comparison
            let mut keyed: Vec<(i128, NodeId)> = rows.iter().map(|&id| (value(id), id)).collect();
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
#[derive(Debug, Default)]
pub struct Listing {
    key: Option<CacheKey>,
    /// Per directory: its shown children in order, and the largest size among them (bars are
    /// drawn relative to it).
    sorted: FxHashMap<NodeId, (Vec<NodeId>, u64)>,
    dir: NodeId,
    /// The current directory's rows after the filter, when a filter is active.
    filtered: Option<Vec<NodeId>>,
    /// What `filtered` was computed for: moving the cursor must not run the filter again.
    filtered_for: Option<(NodeId, String, CacheKey)>,
}

impl Listing {
    /// Makes [`Listing::rows`] the rows of `dir`; sorts only what is not cached yet.
    #[allow(clippy::too_many_arguments)]
    pub fn refresh(
        &mut self,
        tree: &Tree,
        dir: NodeId,
        sort: Sort,
        mode: SizeMode,
        generation: u64,
        filter: &Filter,
        change: ChangeOf<'_>,
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
        self.dir = dir;
        let (sorted, _) = self.sorted.entry(dir).or_insert_with(|| {
            let rows = sorted_children(tree, dir, sort, mode, change);
            let largest = rows
                .iter()
                .map(|&id| tree.node(id).size(mode))
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
                .filter(|&id| filter.matches(tree.name(id)))
                .collect()
        });
    }

    /// Forgets every cached order (the tree changed).
    pub fn invalidate(&mut self) {
        self.key = None;
        self.sorted.clear();
        self.filtered_for = None;
    }

    pub fn rows(&self) -> &[NodeId] {
        match &self.filtered {
            Some(rows) => rows,
            None => self
                .sorted
                .get(&self.dir)
                .map_or(&[], |(r, _)| r.as_slice()),
        }
    }

    /// The largest size among the current directory's children.
    pub fn largest(&self) -> u64 {
        self.sorted.get(&self.dir).map_or(0, |&(_, l)| l)
    }
}
