//! `-t`: the files grouped by extension, as dust does: the biggest groups, then one
//! `(others)` for the rest, under a `(total)` root.

use std::path::PathBuf;

use rustc_hash::FxHashMap;

use super::{flags, EntryKind, Node, NodeId, Tree, TreeBuilder};
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
    fn add(&mut self, n: &Node) {
        self.disk = self.disk.saturating_add(n.disk);
        self.apparent = self.apparent.saturating_add(n.apparent);
        self.files = self.files.saturating_add(1);
        self.mtime = self.mtime.max(n.mtime);
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
pub fn by_file_type(tree: &Tree, mode: SizeMode, groups: usize) -> Tree {
    let mut sums: FxHashMap<Option<&[u8]>, Sums> = FxHashMap::default();
    for id in 1..tree.len() as NodeId {
        let n = tree.node(id);
        let left_out = n.has(flags::DUPLICATE) || n.has(flags::FILTERED);
        if n.kind() == EntryKind::File && !left_out && !tree.is_root(id) {
            sums.entry(extension(tree.name(id))).or_default().add(&n);
        } else if n.kind() == EntryKind::File && !left_out {
            // a file given as a path: its name is the path, its extension the last one's
            let base = tree.name(id).rsplit(|&b| b == b'/').next().unwrap_or(b"");
            sums.entry(extension(base)).or_default().add(&n);
        }
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

    #[test]
    fn extensions_as_path_extension() {
        assert_eq!(extension(b"a.tar.gz"), Some(&b".gz"[..]));
        assert_eq!(extension(b"Makefile"), None);
        assert_eq!(extension(b".bashrc"), None);
        assert_eq!(extension(b"a."), Some(&b"."[..]));
        assert_eq!(extension(b"x.\xff"), Some(&b".\xff"[..]));
    }
}
