//! `-t`: the files grouped by extension, as dust does: the biggest groups, then one
//! `(others)` for the rest, under a `(total)` root.

use std::path::PathBuf;

use rustc_hash::FxHashMap;

use super::{flags, EntryKind, Node, Tree, TreeBuilder, TreeView};
use crate::vocab::SizeMode;

/// What one group adds up.
#[derive(Default, Clone, Copy)]
struct Sums {
    disk: u64,
    apparent: u64,
    files: u32,
    mtime: i64,
}

impl Sums {
    fn add<T: TreeView>(&mut self, tree: &T, id: T::Id) {
        self.disk = self.disk.saturating_add(tree.size(id, SizeMode::Disk));
        self.apparent = self
            .apparent
            .saturating_add(tree.size(id, SizeMode::Apparent));
        self.files = self.files.saturating_add(1);
        self.mtime = self.mtime.max(tree.mtime(id));
    }

    fn merge(&mut self, o: &Sums) {
        self.disk = self.disk.saturating_add(o.disk);
        self.apparent = self.apparent.saturating_add(o.apparent);
        self.files = self.files.saturating_add(o.files);
        self.mtime = self.mtime.max(o.mtime);
    }

    fn size(&self, mode: SizeMode) -> u64 {
        match mode {
            SizeMode::Disk => self.disk,
            SizeMode::Apparent => self.apparent,
            SizeMode::Count => self.files as u64,
            SizeMode::Time => self.mtime.max(0) as u64,
        }
    }

    fn node(&self) -> Node {
        let mut n = Node::new(EntryKind::File, self.disk, self.apparent, self.mtime, 0);
        n.entries = self.files;
        n
    }
}

/// The extension of a file name as `Path::extension` finds it (after the last '.', unless the
/// name starts with it), with its dot: `.gz` for `a.tar.gz`; `None` for `Makefile`, `.bashrc`.
fn extension(name: &[u8]) -> Option<&[u8]> {
    let dot = name.iter().rposition(|&b| b == b'.')?;
    (dot > 0).then(|| &name[dot..])
}

/// A finished tree's counted files by extension, as a new finished tree: one root
/// `(total)` with the `groups - 1` biggest groups (in `mode`) and `(others)`.
pub fn by_file_type<T: TreeView>(tree: &T, mode: SizeMode, groups: usize) -> Tree {
    let mut sums: FxHashMap<Option<&[u8]>, Sums> = FxHashMap::default();
    for id in tree.entries() {
        let left_out = tree.flags(id) & (flags::DUPLICATE | flags::FILTERED) != 0;
        if tree.kind(id) != EntryKind::File || left_out {
            continue;
        }
        let name = match tree.is_root(id) {
            // a file given as a path: its name is the path, its extension the last one's
            true => tree.name(id).rsplit(|&b| b == b'/').next().unwrap_or(b""),
            false => tree.entry_name(id),
        };
        sums.entry(extension(name)).or_default().add(tree, id);
    }
    let mut groups_v: Vec<(Option<&[u8]>, Sums)> = sums.into_iter().collect();
    // dust's order: biggest first, ties by extension, the greatest first ("(no extension)"
    // last); it does not depend on hashing
    groups_v
        .sort_by(|(a_ext, a), (b_ext, b)| b.size(mode).cmp(&a.size(mode)).then(b_ext.cmp(a_ext)));
    let shown = groups.saturating_sub(1).max(1).min(groups_v.len());
    let mut others = Sums {
        mtime: i64::MIN,
        ..Sums::default()
    };
    for (_, s) in &groups_v[shown..] {
        others.merge(s);
    }

    let mut b = TreeBuilder::new();
    let root = b.add_roots(vec![(
        b"(total)".to_vec(),
        Node::new(EntryKind::Dir, 0, 0, i64::MIN, 0),
    )]);
    let mut kids: Vec<(Node, &[u8], u64)> = groups_v[..shown]
        .iter()
        .map(|(ext, s)| (s.node(), ext.unwrap_or(b"(no extension)"), s.size(mode)))
        .collect();
    if shown < groups_v.len() {
        kids.push((others.node(), b"(others)", others.size(mode)));
        // dust sorts again, for "(others)" may be bigger than groups above it: ties by the
        // names as paths, of the text shown ("." is a path's `.`, before any name)
        let as_path = |name: &[u8]| PathBuf::from(String::from_utf8_lossy(name).into_owned());
        kids.sort_by(|(_, a_name, a), (_, b_name, b)| {
            b.cmp(a).then_with(|| as_path(b_name).cmp(&as_path(a_name)))
        });
    }
    // the view keeps this order for ties (`Ties::Stored`)
    let kids = kids.into_iter().map(|(n, name, _)| (n, name));
    b.add_children(root, kids);
    b.update(root, |n| n.entries = 0); // the root is not a file
    let mut out = b.into_tree();
    out.finish();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::NodeId;

    #[test]
    fn extensions_as_path_extension() {
        assert_eq!(extension(b"a.tar.gz"), Some(&b".gz"[..]));
        assert_eq!(extension(b"Makefile"), None);
        assert_eq!(extension(b".bashrc"), None);
        assert_eq!(extension(b"a."), Some(&b"."[..]));
        assert_eq!(extension(b"x.\xff"), Some(&b".\xff"[..]));
    }

    /// Groups read through sparse `u64` ids (as a file-backed tree's), whose entries are
    /// found depth-first, are the in-memory tree's.
    #[test]
    fn groups_through_sparse_ids_are_the_trees() {
        use crate::tree::Sparse;
        let mut b = TreeBuilder::new();
        let dir = || Node::new(EntryKind::Dir, 4096, 4096, 0, 0);
        let file = |s: u64, t: i64| Node::new(EntryKind::File, s, s, t, 0);
        b.add_roots(vec![
            (b"r".to_vec(), dir()),
            (b"x/y.tar.gz".to_vec(), file(700, 9)),
        ]);
        let names: [&[u8]; 6] = [b"a.c", b"b.gz", b"Makefile", b"d", b"e.c", b".rc"];
        let first = b.add_children(
            1,
            names.iter().enumerate().map(|(i, &n)| match i {
                3 => (dir(), n),
                _ => (file(100 * i as u64 + 1, i as i64), n),
            }),
        );
        b.add_children(first + 3, names.iter().map(|&n| (file(3, 4), n)));
        let mut tree = b.into_tree();
        tree.finish();
        let rows = |t: &Tree| {
            let kid = |id| {
                (
                    t.path(id),
                    t.node(id).disk,
                    t.node(id).entries,
                    t.node(id).mtime,
                )
            };
            (0..t.len() as NodeId).map(kid).collect::<Vec<_>>()
        };
        for (mode, groups) in [
            (SizeMode::Disk, 3),
            (SizeMode::Count, 10),
            (SizeMode::Time, 2),
        ] {
            let want = rows(&by_file_type(&tree, mode, groups));
            assert!(want.len() > 2);
            assert_eq!(rows(&by_file_type(&Sparse(&tree), mode, groups)), want);
        }
        let mut seen: Vec<NodeId> = Sparse(&tree).entries().map(Sparse::node).collect();
        seen.sort_unstable();
        assert_eq!(seen, (1..tree.len() as NodeId).collect::<Vec<_>>());
    }
}
