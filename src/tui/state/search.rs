//! `F`: every entry below the directory shown whose name matches a glob (`*.iso`) or
//! contains a word, biggest first, as rows to browse and mark; `Esc` returns. Generic over
//! the tree's ids: the search lists each directory below the view from the top, so a tree
//! read on demand has met every parent a found entry's path is built from.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use regex::bytes::{Regex, RegexBuilder};

use super::{AsScan, State};
use crate::tree::EntryKind;
use crate::tui::action::Action;
use crate::tui::shown::removed;

/// The most matches kept (the biggest); the rest are counted, "N more not shown".
pub const MAX_FOUND: usize = 10_000;

/// A match as the search ranks it: size, then path (the first in order wins a tie).
type Match<I> = (u64, Reverse<Vec<u8>>, I);

/// The result of a search: the rows shown instead of the directory's.
#[derive(Debug)]
pub struct Found<I> {
    pub pattern: String,
    /// The directory searched (the rows' paths are relative to it).
    pub below: I,
    /// The matches kept, biggest first.
    pub rows: Vec<I>,
    /// Matches beyond [`MAX_FOUND`], not kept.
    pub more: u64,
    pub largest: u64,
    /// The size of the matches kept, each counted once (not again inside a match).
    pub total: u64,
    /// Where the cursor was in the directory: `Esc` puts it back.
    pub(super) saved: (Option<I>, usize, usize),
}

/// A glob when the text has `*`, `?` or `[` (the whole name, as `find -name`), else the text
/// found anywhere in a name; case-sensitive, as `find -name`.
pub fn matcher(text: &str) -> Option<Regex> {
    let glob = text.contains(['*', '?', '[']);
    let mut pattern = String::from(if glob { "^(?s:" } else { "" });
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' if glob => pattern.push_str(".*"),
            '?' if glob => pattern.push('.'),
            '[' if glob && text.contains(']') => {
                pattern.push('[');
                if chars.peek() == Some(&'!') {
                    chars.next();
                    pattern.push('^');
                }
                for c in chars.by_ref() {
                    if c == ']' {
                        break;
                    }
                    if matches!(c, '\\' | '[' | '&' | '~') {
                        pattern.push('\\');
                    }
                    pattern.push(c);
                }
                pattern.push(']');
            }
            c => pattern.push_str(&regex::escape(c.encode_utf8(&mut [0; 4]))),
        }
    }
    if glob {
        pattern.push_str(")$");
    }
    RegexBuilder::new(&pattern).size_limit(1 << 20).build().ok()
}

impl<T: AsScan> State<T> {
    /// The search shown instead of the directory's rows, if one is.
    pub fn found(&self) -> Option<&Found<T::Id>> {
        self.nav.found()
    }

    /// A row's name as drawn: in the search's rows, its path below the directory searched.
    pub fn row_name(&self, id: T::Id) -> Cow<'_, [u8]> {
        let src = self.source();
        let Some(found) = self.found() else {
            return Cow::Borrowed(src.name(id));
        };
        let mut parts = vec![src.name(id)];
        let mut at = id;
        while at != found.below && !self.tree.is_root(at) && at != self.tree.total() {
            at = self.tree.parent(at);
            if at == found.below {
                break;
            }
            parts.push(src.name(at));
        }
        parts.reverse();
        Cow::Owned(parts.join(&b'/'))
    }

    /// Keys that mean something else over the search's rows; returns whether it took one.
    pub(super) fn search_action(&mut self, action: &Action) -> bool {
        if self.found().is_none() {
            return false;
        }
        match *action {
            Action::FilterClear | Action::Back => self.nav.end_search(),
            Action::Enter => match self.selected() {
                Some(id) => self.show_found(id),
                None => return true,
            },
            Action::DoubleClick(line) => match self.nav.row_at(line) {
                Some(i) => self.show_found(self.rows()[i]),
                None => return true,
            },
            Action::FilterStart | Action::SearchStart => {
                self.display.say("Esc leaves the search first");
                return true;
            }
            _ => return false,
        }
        self.refresh();
        true
    }

    /// Enter on a found entry: its directory, the cursor on it.
    fn show_found(&mut self, id: T::Id) {
        let parent = self.tree.parent(id);
        self.nav.end_search();
        self.nav.show_in(parent, id);
        self.display.clear_filter();
    }

    /// Enter after `F`: searches below the directory shown.
    pub(super) fn search(&mut self) {
        let Some(text) = self.display.take_search() else {
            return;
        };
        if text.is_empty() {
            return;
        }
        let Some(re) = matcher(&text) else {
            self.display
                .say(format!("not a pattern: {}", text.escape_debug()));
            return;
        };
        let found = self.find(&re, text);
        if found.rows.is_empty() {
            let what = found.pattern.escape_debug().to_string();
            self.display.say(format!("nothing below matches {what}"));
            return;
        }
        self.nav.start_search(found);
        self.refresh();
    }

    /// The sum of the matches with no match above them (below `below`).
    fn outermost_size(&self, below: T::Id, rows: &[(u64, T::Id)]) -> u64 {
        let kept: rustc_hash::FxHashSet<T::Id> = rows.iter().map(|r| r.1).collect();
        let inside_another = |id: T::Id| {
            let mut at = id;
            while at != below && !self.tree.is_root(at) && at != self.tree.total() {
                at = self.tree.parent(at);
                if kept.contains(&at) {
                    return true;
                }
            }
            false
        };
        rows.iter()
            .filter(|r| !inside_another(r.1))
            .map(|r| r.0)
            .fold(0, u64::saturating_add)
    }

    /// Every shown entry below the directory shown whose name `re` matches, the biggest
    /// [`MAX_FOUND`] kept (a heap of them: memory stays bounded whatever matches).
    fn find(&self, re: &Regex, pattern: String) -> Found<T::Id> {
        let src = self.source();
        let mode = self.mode();
        let below = self.dir();
        // the worst match on top, to drop: the smallest, of those the last path (ties go by
        // path, not by id, so a tree read on demand lists them as its loaded import does)
        let mut heap: BinaryHeap<Reverse<Match<T::Id>>> = BinaryHeap::new();
        let mut more = 0u64;
        let mut stack = vec![below];
        while let Some(dir) = stack.pop() {
            for c in src.children(dir) {
                if removed::<T>(c).is_some() {
                    continue; // not on the disk: it has no path to show or mark
                }
                let node = src.node(c);
                if node.kind() == EntryKind::Dir {
                    stack.push(c);
                }
                if !re.is_match(src.name(c)) {
                    continue;
                }
                heap.push(Reverse((node.size(mode), Reverse(src.path(c)), c)));
                if heap.len() > MAX_FOUND {
                    heap.pop();
                    more += 1;
                }
            }
        }
        let mut found: Vec<Match<T::Id>> = heap.into_iter().map(|Reverse(m)| m).collect();
        found.sort_by(|a, b| b.cmp(a));
        let rows: Vec<(u64, T::Id)> = found.into_iter().map(|(size, _, id)| (size, id)).collect();
        let total = self.outermost_size(below, &rows);
        Found {
            total,
            pattern,
            below,
            largest: rows.first().map_or(0, |r| r.0),
            rows: rows.into_iter().map(|r| r.1).collect(),
            more,
            saved: (None, 0, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::matcher;

    #[test]
    fn globs_match_whole_names_words_anywhere() {
        let m = |p: &str, name: &str| matcher(p).is_some_and(|r| r.is_match(name.as_bytes()));
        assert!(m("*.iso", "a.iso"));
        assert!(!m("*.iso", "a.iso.bak"));
        assert!(m("iso", "a.iso.bak"));
        assert!(!m("ISO", "a.iso"));
        assert!(m("a?c", "abc"));
        assert!(!m("a?c", "abbc"));
        assert!(m("[ab]*", "bee"));
        assert!(!m("[!ab]*", "bee"));
        assert!(m("a.c", "xa.cx"));
        assert!(!m("a.c", "abc"));
        assert!(m("*", "anything"));
    }
}
