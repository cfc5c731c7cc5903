//! Comparing two scans of the same directory: which entries grew, shrank, appeared or went.
//!
//! Entries are matched by their path relative to the root, one directory pair at a time from
//! an explicit stack (any depth). Within a pair, children are first compared position by
//! position — two scans of one filesystem usually list a directory in the same order, and an
//! import keeps the order of its export — and only what is left is matched through a hash of
//! the old names, so the whole match is linear in the entries.
//!
//! Nothing is copied: a [`Matching`] holds one counterpart index per node of each tree and two
//! bit sets (about 8 bytes an entry next to the two trees' ~60). An entry of the comparison is
//! a node of the new tree (matched or added) or an unmatched node of the old one (removed).
//! A directory replaced by a file, or the reverse, is never matched: the old one is removed
//! and the new one added.
//!
//! This is the model of the diff feature (`--diff`). Its runs are [`crate::app::diff`] (which
//! loads both scans), its printed views [`crate::render::diff`] and [`crate::render::diff_json`],
//! and the interactive view's column [`crate::tui::diff`].

pub mod select;

use rustc_hash::FxHashMap;

use crate::tree::{flags, EntryKind, Node, NodeId, Tree};
use crate::vocab::SizeMode;

/// "No counterpart".
const NONE: NodeId = NodeId::MAX;

/// One entry of the comparison.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// A node of the new tree: there now (matched with its old self, or added).
    New(NodeId),
    /// A node of the old tree that has no counterpart: removed.
    Old(NodeId),
}

/// What happened to an entry between the two scans.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// The same size (in the compared mode), and nothing below it changed.
    Same,
    /// There in both; its size differs, or something below it changed (a rename inside
    /// leaves the totals alone but is a change).
    Changed,
    /// Only in the new scan.
    Added,
    /// Only in the old scan.
    Removed,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Same => "same",
            Status::Changed => "changed",
            Status::Added => "added",
            Status::Removed => "removed",
        }
    }
}

/// A set of node ids, one bit each.
#[derive(Clone, Debug, Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64)])
    }

    fn set(&mut self, i: NodeId) {
        self.0[i as usize / 64] |= 1 << (i % 64);
    }

    fn get(&self, i: NodeId) -> bool {
        self.0
            .get(i as usize / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
}

/// Which node of one tree is which node of the other, and what changed. Owns no tree: pair it
/// with the two it was built from through [`Matching::with`].
#[derive(Clone, Debug)]
pub struct Matching {
    /// For every node of the new tree, its old counterpart or [`NONE`].
    old_of: Vec<NodeId>,
    /// For every node of the old tree, its new counterpart or [`NONE`].
    new_of: Vec<NodeId>,
    /// Matched new nodes whose own totals differ from the old, or with a change below.
    changed: Bits,
    new_root: NodeId,
    mode: SizeMode,
}

/// Whether an entry takes part in a comparison: deleted entries (the interactive view) are
/// gone, whatever the arena still holds, and files left out by -e / -v are not counted, so
/// renaming one is no change.
fn live(n: &Node) -> bool {
    !n.has(flags::REMOVED) && !n.has(flags::FILTERED)
}

/// A directory the new scan could not read: what was in it is not known to be gone.
fn unread(n: &Node) -> bool {
    n.has(flags::UNREADABLE)
}

/// Whether two nodes of the same name are the same entry. Only directory versus anything
/// else counts: an export without ncdu's extended mode cannot tell a symlink from a FIFO, so a
/// stricter test would call every symlink replaced when an export is compared with a walk.
fn same_kind(a: &Node, b: &Node) -> bool {
    (a.kind() == EntryKind::Dir) == (b.kind() == EntryKind::Dir)
}

impl Matching {
    /// Matches the subtree at `new_root` of `new` with the one at `old_root` of `old`. The two
    /// roots are paired whatever their names (whether they should be is the caller's call).
    /// Both trees must be finished ([`Tree::finish`]): totals in `mode` are compared (only
    /// what the mode measures: a walk with -f never read the sizes of files).
    pub fn new(
        old: &Tree,
        old_root: NodeId,
        new: &Tree,
        new_root: NodeId,
        mode: SizeMode,
    ) -> Matching {
        let mut m = Matching {
            old_of: vec![NONE; new.len()],
            new_of: vec![NONE; old.len()],
            changed: Bits::new(new.len()),
            new_root,
            mode,
        };
        let mut old_names: FxHashMap<&[u8], NodeId> = FxHashMap::default();
        // matched directory pairs in the order they were matched (parents first): walked
        // backwards afterwards to carry "changed" up to the root
        let mut dirs: Vec<NodeId> = Vec::new();
        let mut stack = vec![(new_root, old_root)];
        m.pair(new_root, old_root, old, new);
        while let Some((n_dir, o_dir)) = stack.pop() {
            dirs.push(n_dir);
            if unread(&new.node(n_dir)) {
                continue; // its contents now are unknown, not gone
            }
            let n_kids = new.node(n_dir).children();
            let o_kids = old.node(o_dir).children();
            let mut unmatched = false;
            // position by position while the names agree
            let common = n_kids.len().min(o_kids.len()) as NodeId;
            let mut i = 0;
            while i < common {
                let (n, o) = (n_kids.start + i, o_kids.start + i);
                let (nn, on) = (new.node(n), old.node(o));
                if !live(&nn) || !live(&on) || !same_kind(&nn, &on) || new.name(n) != old.name(o) {
                    break;
                }
                m.pair(n, o, old, new);
                if nn.is_dir() {
                    stack.push((n, o));
                }
                i += 1;
            }
            // the rest by name (the first of two equal names in a hand-made export wins)
            if i < n_kids.len() as NodeId {
                old_names.clear();
                for o in o_kids.start + i..o_kids.end {
                    if live(&old.node(o)) {
                        old_names.entry(old.name(o)).or_insert(o);
                    }
                }
                for n in n_kids.start + i..n_kids.end {
                    let nn = new.node(n);
                    if !live(&nn) {
                        continue;
                    }
                    match old_names.get(new.name(n)) {
                        Some(&o) if same_kind(&nn, &old.node(o)) => {
                            old_names.remove(new.name(n));
                            m.pair(n, o, old, new);
                            if nn.is_dir() {
                                stack.push((n, o));
                            }
                        }
                        _ => unmatched = true, // added
                    }
                }
            }
            if !unmatched {
                // anything old left without a counterpart was removed
                unmatched = (o_kids.start + i..o_kids.end)
                    .any(|o| live(&old.node(o)) && m.new_of[o as usize] == NONE);
            }
            if unmatched {
                m.changed.set(n_dir);
            }
        }
        for &d in dirs.iter().rev() {
            if d != new_root && m.changed.get(d) {
                m.changed.set(new.parent(d));
            }
        }
        m
    }

    fn pair(&mut self, n: NodeId, o: NodeId, old: &Tree, new: &Tree) {
        self.old_of[n as usize] = o;
        self.new_of[o as usize] = n;
        if new.node(n).size(self.mode) != old.node(o).size(self.mode) {
            self.changed.set(n);
            // a file's change shows in its directory; a directory carries its own up later
            if !new.node(n).is_dir() && n != self.new_root {
                self.changed.set(new.parent(n));
            }
        }
    }

    /// The comparison, readable through the two trees it was built from.
    pub fn with<'a>(&'a self, old: &'a Tree, new: &'a Tree) -> Diff<'a> {
        Diff {
            old,
            new,
            matching: self,
        }
    }
}

/// A [`Matching`] with its two trees: everything the views ask about an entry.
#[derive(Copy, Clone, Debug)]
pub struct Diff<'a> {
    pub old: &'a Tree,
    pub new: &'a Tree,
    matching: &'a Matching,
}

impl<'a> Diff<'a> {
    /// The compared root (a node of the new tree).
    pub fn top(&self) -> Entry {
        Entry::New(self.matching.new_root)
    }

    pub fn status(&self, e: Entry) -> Status {
        match e {
            Entry::Old(_) => Status::Removed,
            Entry::New(n) if self.matching.old_of[n as usize] == NONE => Status::Added,
            Entry::New(n) if self.matching.changed.get(n) => Status::Changed,
            Entry::New(_) => Status::Same,
        }
    }

    /// The entry in the old scan, if it was there.
    pub fn old_node(&self, e: Entry) -> Option<Node> {
        match e {
            Entry::Old(o) => Some(self.old.node(o)),
            Entry::New(n) => match self.matching.old_of[n as usize] {
                NONE => None,
                o => Some(self.old.node(o)),
            },
        }
    }

    /// The entry in the new scan, if it is there.
    pub fn new_node(&self, e: Entry) -> Option<Node> {
        match e {
            Entry::New(n) => Some(self.new.node(n)),
            Entry::Old(_) => None,
        }
    }

    /// What sizes mean here: the mode the scans were compared in.
    pub fn mode(&self) -> SizeMode {
        self.matching.mode
    }

    /// Size before (0 when it was not there: [`Diff::status`] says which).
    pub fn old_size(&self, e: Entry) -> u64 {
        self.old_node(e).map_or(0, |n| n.size(self.mode()))
    }

    /// Size now (0 when it is gone).
    pub fn new_size(&self, e: Entry) -> u64 {
        self.new_node(e).map_or(0, |n| n.size(self.mode()))
    }

    /// New size minus old size.
    pub fn delta(&self, e: Entry) -> i128 {
        i128::from(self.new_size(e)) - i128::from(self.old_size(e))
    }

    /// The entry's name; the top's is the new scan's root name.
    pub fn name(&self, e: Entry) -> &'a [u8] {
        match e {
            Entry::New(n) => self.new.name(n),
            Entry::Old(o) => self.old.name(o),
        }
    }

    pub fn kind(&self, e: Entry) -> EntryKind {
        match e {
            Entry::New(n) => self.new.node(n).kind(),
            Entry::Old(o) => self.old.node(o).kind(),
        }
    }

    pub fn is_dir(&self, e: Entry) -> bool {
        self.kind(e) == EntryKind::Dir
    }

    /// The entry's directory in the comparison; `None` for the top.
    pub fn parent(&self, e: Entry) -> Option<Entry> {
        match e {
            Entry::New(n) if n == self.matching.new_root => None,
            Entry::New(n) => Some(Entry::New(self.new.parent(n))),
            Entry::Old(o) => {
                let p = self.old.parent(o);
                Some(match self.matching.new_of[p as usize] {
                    NONE => Entry::Old(p),
                    n => Entry::New(n),
                })
            }
        }
    }

    /// Whether the entry has anything below it, in either scan.
    pub fn has_children(&self, e: Entry) -> bool {
        self.new_node(e).is_some_and(|n| n.child_count > 0)
            || self.old_node(e).is_some_and(|n| n.child_count > 0)
    }

    /// Appends the entry's children: what is there now, then what was removed.
    pub fn children_into(&self, e: Entry, out: &mut Vec<Entry>) {
        let m = self.matching;
        match e {
            Entry::New(n) => {
                out.extend(
                    self.new
                        .node(n)
                        .children()
                        .filter(|&c| live(&self.new.node(c)))
                        .map(Entry::New),
                );
                let o = m.old_of[n as usize];
                if o != NONE && !unread(&self.new.node(n)) {
                    out.extend(
                        self.old
                            .node(o)
                            .children()
                            .filter(|&c| live(&self.old.node(c)) && m.new_of[c as usize] == NONE)
                            .map(Entry::Old),
                    );
                }
            }
            Entry::Old(o) => out.extend(
                self.old
                    .node(o)
                    .children()
                    .filter(|&c| live(&self.old.node(c)))
                    .map(Entry::Old),
            ),
        }
    }

    pub fn children(&self, e: Entry) -> Vec<Entry> {
        let mut v = Vec::new();
        self.children_into(e, &mut v);
        v
    }

    /// Path below the top, `/`-joined (the top itself is empty).
    pub fn rel_path(&self, e: Entry) -> Vec<u8> {
        let mut chain = Vec::new();
        let mut cur = e;
        while let Some(p) = self.parent(cur) {
            chain.push(cur);
            cur = p;
        }
        let mut out = Vec::new();
        for (i, c) in chain.iter().rev().enumerate() {
            if i > 0 {
                out.push(b'/');
            }
            out.extend_from_slice(self.name(*c));
        }
        out
    }

    /// Full path: the top's name, then the path below it.
    pub fn path(&self, e: Entry) -> Vec<u8> {
        let mut out = self.name(self.top()).to_vec();
        let rel = self.rel_path(e);
        if !rel.is_empty() {
            if out.last() != Some(&b'/') {
                out.push(b'/');
            }
            out.extend_from_slice(&rel);
        }
        out
    }
}

#[cfg(test)]
mod tests;
