//! The one place the page reads a tree: a scan ([`ScanSource`]) or a comparison of two
//! ([`DiffSource`]), each seen through [`Source`] (what pruning needs) and [`Describe`]
//! (what the page shows of an entry).

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use super::prune::Source;
use crate::diff::select::DiffSelection;
use crate::diff::{Diff, Entry, Status};
use crate::render::labels::Labels;
use crate::tree::{EntryKind, Selection, Sharing, Tree, TreeView};
use crate::vocab::SizeMode;

/// What the page shows of one entry besides its size.
pub struct Info<'a> {
    /// Its name (a path given: the path, as `-j` names it).
    pub name: Cow<'a, [u8]>,
    pub kind: EntryKind,
    /// Entries in its subtree, itself included.
    pub items: u64,
    /// Newest modification time below it, when the scan kept times.
    pub mtime: Option<i64>,
    /// Its colour where the page colours by something else than the kind: the index of its
    /// owner in the legend, or of its change ([`growth`]).
    pub class: Option<u32>,
    /// Its size in the earlier scan (a comparison only).
    pub old: Option<u64>,
    /// `--extents`: what only it holds and what it shares (subtree values, as `-j` gives).
    pub sharing: Option<Sharing>,
}

pub trait Describe: Source {
    fn info(&self, id: Self::Id) -> Info<'_>;
}

/// A scan, as the printed views see it: what `sel` shows below `top`.
pub struct ScanSource<'a, T: TreeView = Tree> {
    pub tree: &'a T,
    pub top: T::Id,
    pub sel: &'a Selection<T::Id>,
    pub labels: &'a Labels<T::Id>,
    /// `--by-owner`: the legend's index of each uid (the others share the last one).
    pub owners: Option<(&'a FxHashMap<u32, u32>, u32)>,
}

impl<T: TreeView> Source for ScanSource<'_, T> {
    type Id = T::Id;
    fn top(&self) -> T::Id {
        self.top
    }
    fn children(&self, id: T::Id, out: &mut Vec<T::Id>) {
        if self.sel.is_collapsed(id) {
            return;
        }
        let kids = self.tree.children(id);
        out.extend(kids.filter(|&c| self.sel.is_visible(self.tree, c)));
    }
    fn size(&self, id: T::Id) -> u64 {
        self.tree.size(id, self.sel.mode)
    }
    fn name(&self, id: T::Id) -> &[u8] {
        self.tree.name(id)
    }
}

impl<T: TreeView> Describe for ScanSource<'_, T> {
    fn info(&self, id: T::Id) -> Info<'_> {
        let tree = self.tree;
        let is_total = id == tree.total();
        let name = match id {
            _ if is_total => Cow::Borrowed(&b"(total)"[..]),
            _ if tree.is_root(id) => Cow::Owned(self.labels.json_root(tree, id)),
            _ => Cow::Borrowed(tree.name(id)),
        };
        let class = self.owners.map(|(index, others)| {
            let uid = tree.extra(id).map(|x| x.uid);
            uid.and_then(|u| index.get(&u).copied()).unwrap_or(others)
        });
        let mtime = tree.mtime(id);
        Info {
            name,
            kind: if is_total {
                EntryKind::Dir
            } else {
                tree.kind(id)
            },
            items: tree.size(id, SizeMode::Count),
            mtime: (mtime > 0).then_some(mtime),
            class,
            old: None,
            sharing: tree.sharing(id),
        }
    }
}

/// The changes a comparison page colours by, in the legend's order.
pub const GROWTH: [&str; 5] = ["grown", "shrunk", "new", "gone", "unchanged"];

/// The index in [`GROWTH`] of what happened to `e`.
pub fn growth(d: &Diff<'_>, e: Entry) -> u32 {
    match d.status(e) {
        Status::Added => 2,
        Status::Removed => 3,
        Status::Changed if d.delta(e) > 0 => 0,
        Status::Changed if d.delta(e) < 0 => 1,
        _ => 4,
    }
}

/// A comparison: every entry there now, sized by its size now, and what is gone, listed with
/// its size then and drawn without area.
pub struct DiffSource<'a> {
    pub diff: &'a Diff<'a>,
    pub sel: &'a DiffSelection,
    /// The top's name: the path given, or the export's root.
    pub top_name: &'a [u8],
}

impl Source for DiffSource<'_> {
    type Id = Entry;
    fn top(&self) -> Entry {
        self.diff.top()
    }
    fn children(&self, e: Entry, out: &mut Vec<Entry>) {
        let start = out.len();
        self.diff.children_into(e, out);
        let d = self.diff;
        let sel = self.sel;
        // the unchanged entries are shown too: they are most of the picture
        let mut i = start;
        while i < out.len() {
            let c = out[i];
            let keep = d.status(c) == Status::Same && (d.is_dir(c) || !sel.only_dirs)
                || sel.is_visible(d, c);
            if keep {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }
    /// What is gone has no area: the shares of what is there add up to its directory's.
    fn size(&self, e: Entry) -> u64 {
        self.diff.new_size(e)
    }
    /// What is gone is kept by its size then: it is listed, "was 2.6Mi".
    fn rank(&self, e: Entry) -> u64 {
        self.diff.new_size(e).max(self.diff.old_size(e))
    }
    fn name(&self, e: Entry) -> &[u8] {
        self.diff.name(e)
    }
}

impl Describe for DiffSource<'_> {
    fn info(&self, e: Entry) -> Info<'_> {
        let d = self.diff;
        let node = d.new_node(e).or_else(|| d.old_node(e));
        Info {
            name: Cow::Borrowed(if e == d.top() {
                self.top_name
            } else {
                d.name(e)
            }),
            kind: d.kind(e),
            items: node.as_ref().map_or(0, |n| u64::from(n.entries)),
            mtime: node.and_then(|n| (n.mtime > 0).then_some(n.mtime)),
            class: Some(growth(d, e)),
            old: Some(d.old_size(e)),
            sharing: None,
        }
    }
}
