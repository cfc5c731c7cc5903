//! Where the user is: the directory listed, its rows (sorted once and kept), the cursor and
//! the scroll offset, and the entry that was selected in each directory left.

use std::fmt::Debug;
use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::display::Display;
use crate::tree::{NodeId, Tree, TreeView, TOTAL};
use crate::tui::diff::{removed_of, Delta};
use crate::tui::listing::{Listing, Source};
use crate::tui::shown::Shown;

#[derive(Debug)]
pub struct Nav<I = NodeId> {
    /// The directory whose children are the rows.
    dir: I,
    /// The highest directory (a single root, or the total above several).
    top: I,
    listing: Listing<I>,
    /// Bumped whenever sizes change: cached orders are then stale.
    generation: u64,
    cursor: usize,
    /// The entry the cursor is on, which it follows as rows re-sort; `None` until the user
    /// moves in this directory: the cursor stays on the top row.
    selected: Option<I>,
    /// First row on screen.
    offset: usize,
    /// Screen lines of the row list: first line and count (set from the layout).
    list_top: u16,
    page: usize,
    /// The child that was selected when each directory was left.
    memory: FxHashMap<I, I>,
}

/// The highest directory of a tree: its single root, or the total above several.
pub fn top_of<T: TreeView>(tree: &T) -> T::Id {
    let mut roots = tree.roots();
    match (roots.next(), roots.next()) {
        (Some(root), None) => root,
        _ => tree.total(),
    }
}

impl<I: Copy + Eq + Hash + Debug> Nav<I> {
    pub fn new(top: I) -> Nav<I> {
        Nav {
            dir: top,
            top,
            listing: Listing::default(),
            generation: 0,
            cursor: 0,
            selected: None,
            offset: 0,
            list_top: 0,
            page: 10,
            memory: FxHashMap::default(),
        }
    }

    /// A fresh start at `top` on a screen laid out as this one is.
    pub fn restart(&self, top: I) -> Nav<I> {
        Nav {
            list_top: self.list_top,
            page: self.page,
            ..Nav::new(top)
        }
    }

    pub fn dir(&self) -> I {
        self.dir
    }

    pub fn top(&self) -> I {
        self.top
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn offset(&self) -> usize {
        self.offset
    }

    pub fn page(&self) -> usize {
        self.page
    }

    pub fn list_top(&self) -> u16 {
        self.list_top
    }

    /// Rows of the current directory, in display order (filtered).
    pub fn rows(&self) -> &[I] {
        self.listing.rows()
    }

    /// The largest size among the current directory's children.
    pub fn largest(&self) -> u64 {
        self.listing.largest()
    }

    pub fn selected(&self) -> Option<I> {
        self.rows().get(self.cursor).copied()
    }

    /// Sets where the rows are drawn (from the layout of the current frame).
    pub fn set_area(&mut self, top: u16, height: u16) {
        self.list_top = top;
        self.page = (height as usize).max(1);
    }

    /// Brings the cached rows, the cursor and the scroll offset in line with the state.
    pub fn refresh<T: Shown<Id = I>>(&mut self, src: &Source<'_, T>, display: &Display) {
        self.listing.refresh(
            src,
            self.dir,
            display.sort(),
            display.mode(),
            self.generation,
            display.filter(),
        );
        self.follow();
    }

    /// Keeps the cursor on the selected entry (or in range) and on screen.
    fn follow(&mut self) {
        let rows = self.listing.rows();
        if rows.is_empty() {
            self.cursor = 0;
            self.offset = 0;
            return;
        }
        match self.selected {
            Some(id) if rows.get(self.cursor) == Some(&id) => {}
            Some(id) => match rows.iter().position(|&r| r == id) {
                Some(i) => self.cursor = i,
                None => {
                    self.cursor = self.cursor.min(rows.len() - 1);
                    self.selected = Some(rows[self.cursor]);
                }
            },
            // not moved yet: the top row, whichever it is now (mid-scan the rows re-sort)
            None => self.cursor = 0,
        }
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + self.page {
            self.offset = self.cursor + 1 - self.page;
        }
        self.offset = self.offset.min(rows.len().saturating_sub(self.page));
    }

    /// Moves the cursor to a row (clamped to the rows there are).
    pub fn move_to(&mut self, index: isize) {
        let len = self.rows().len();
        if len == 0 {
            return;
        }
        self.cursor = index.clamp(0, len as isize - 1) as usize;
        self.selected = Some(self.rows()[self.cursor]);
        self.follow();
    }

    pub fn move_by(&mut self, delta: isize) {
        self.move_to(self.cursor as isize + delta);
    }

    /// Into the directory `id`, on the entry selected when it was last left (the caller
    /// refreshes the rows).
    pub fn enter(&mut self, id: I) {
        if let Some(sel) = self.selected {
            self.memory.insert(self.dir, sel);
        }
        self.dir = id;
        self.selected = self.memory.get(&id).copied();
        self.cursor = 0;
        self.offset = 0;
    }

    /// Up to `parent`, on the directory just left (the caller refreshes the rows).
    pub fn back_to(&mut self, parent: I) {
        let from = self.dir;
        if let Some(sel) = self.selected {
            self.memory.insert(from, sel);
        }
        self.dir = parent;
        self.selected = Some(from);
    }

    /// The row index of a screen line, if a row is drawn there.
    pub fn row_at(&self, line: u16) -> Option<usize> {
        let i = self.offset + line.checked_sub(self.list_top)? as usize;
        (line < self.list_top + self.page as u16 && i < self.rows().len()).then_some(i)
    }
}

impl Nav<NodeId> {
    /// The tree changed: cached orders are stale, and the directory listed must still be
    /// one to show (`gone`: a removed row that is not one any more).
    pub fn tree_changed(&mut self, tree: &Tree, delta: Option<&Delta>) {
        self.generation += 1;
        self.listing.invalidate();
        let top = top_of(tree);
        if top != self.top {
            // the walk has just added its roots
            if self.dir == self.top {
                self.dir = top;
            }
            self.top = top;
        }
        let gone = match delta {
            Some(d) if removed_of(self.dir).is_some() => !d.is_removed(tree, self.dir),
            _ => false,
        };
        if gone {
            // a removed entry that is not one any more (or not shown now)
            self.selected = None;
            self.dir = self.top;
        }
        while self.dir != TOTAL && removed_of(self.dir).is_none() && !tree.is_live(self.dir) {
            // deleted, or replaced by a rescan: show the nearest directory still there
            self.selected = None;
            self.dir = tree.parent(self.dir);
        }
    }
}
