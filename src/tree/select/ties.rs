//! How entries of one size are ordered: as dust orders them, by path.
//!
//! dust's `Ord for Node` is the size, then the path (a `PathBuf`: the path given, then `/` and
//! each name), and every view of it takes the greatest first: the rows a budget keeps, the
//! order of siblings, `-F`'s files. Paths compare component by component, as `Path` does, so
//! a directory's path comes before every path below it, and `a/b` before `a.b`, where a
//! comparison of bytes would put it after ('/' is below '.'). Below one path given, that is
//! the order of the names where the two paths part: found by walking up parents, with no path
//! built.

use std::cmp::Ordering;

use crate::tree::{parting, NodeId, Parting, TreeView};

/// How a view orders entries of one size.
#[derive(Clone, Debug)]
pub enum Ties<I = NodeId> {
    /// dust's: the greater path first. The paths given that dust names apart from another
    /// one of the same name (`dup(andy)`, `dup(bob)`) compare by that name, as in dust; the
    /// paths below them keep the plain path.
    Paths { renamed: Vec<(I, Vec<u8>)> },
    /// As the tree stores them, depth-first in the order entries were added: for the trees a
    /// view builds in its own order (`-t`'s groups, `--by-owner`'s owners).
    Stored,
}

impl<I: Copy + Ord> Ties<I> {
    /// The order of two entries of one size: `Greater` is shown first.
    #[inline]
    pub fn cmp<T: TreeView<Id = I>>(&self, tree: &T, a: I, b: I) -> Ordering {
        match self {
            Ties::Stored => tree.dfs_order(b, a),
            Ties::Paths { renamed } => path_cmp(tree, renamed, a, b),
        }
    }

    /// [`Ties::cmp`] of two children of one directory (not of the total).
    #[inline]
    pub fn cmp_siblings<T: TreeView<Id = I>>(&self, tree: &T, a: I, b: I) -> Ordering {
        match self {
            Ties::Stored => b.cmp(&a),
            Ties::Paths { .. } => tree.cmp_entry_names(a, b),
        }
    }
}

/// One component of a path, ordered as `std::path::Component` orders them on Unix: the root,
/// `.`, `..`, then names by their bytes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Part<'a> {
    Root,
    Cur,
    Parent,
    Name(&'a [u8]),
}

/// The components of a path as `Path::components` gives them: `/` first for an absolute path,
/// `.` only at the start, no empty ones.
fn parts(path: &[u8]) -> impl Iterator<Item = Part<'_>> {
    let root = path.first() == Some(&b'/');
    let cur = !root && (path == b"." || path.starts_with(b"./"));
    let names = path
        .split(|&b| b == b'/')
        .filter(|p| !p.is_empty() && *p != b".")
        .map(|p| {
            if p == b".." {
                Part::Parent
            } else {
                Part::Name(p)
            }
        });
    root.then_some(Part::Root)
        .into_iter()
        .chain(cur.then_some(Part::Cur))
        .chain(names)
}

/// dust's order of two paths: O(depth), no allocation, unless they are below different paths
/// given (only with several), or one is a renamed path given and the other below it.
fn path_cmp<T: TreeView>(tree: &T, renamed: &[(T::Id, Vec<u8>)], a: T::Id, b: T::Id) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let parent = |n: T::Id| tree.parent(n);
    let (pa, pb) = (parent(a), parent(b));
    if pa == pb && pa != tree.total() {
        return tree.cmp_entry_names(a, b);
    }
    match parting(tree, a, b) {
        Parting::Nested(by_depth) => {
            // one is below the other: a path comes before the paths below it, but for a
            // renamed path given, whose name is not where the paths below it start
            let above = if by_depth == Ordering::Less { a } else { b };
            if renamed.iter().any(|&(r, _)| r == above) {
                return whole_cmp(tree, renamed, a, b);
            }
            by_depth
        }
        Parting::Siblings(x, _) if parent(x) == tree.total() => whole_cmp(tree, renamed, a, b),
        Parting::Siblings(x, y) => tree.cmp_entry_names(x, y),
    }
}

/// [`path_cmp`] by every component: the path given (or its renamed name, for itself), then
/// the names below it.
fn whole_cmp<T: TreeView>(tree: &T, renamed: &[(T::Id, Vec<u8>)], a: T::Id, b: T::Id) -> Ordering {
    let chain = |mut n: T::Id| {
        let mut v = Vec::new();
        while n != tree.total() {
            v.push(n);
            n = tree.parent(n);
        }
        v.reverse();
        v
    };
    let (ca, cb) = (chain(a), chain(b));
    components(tree, renamed, &ca).cmp(components(tree, renamed, &cb))
}

/// The components of the path of the last of `chain` (ids from a path given down).
fn components<'t, T: TreeView>(
    tree: &'t T,
    renamed: &'t [(T::Id, Vec<u8>)],
    chain: &'t [T::Id],
) -> impl Iterator<Item = Part<'t>> {
    let (top, below): (&[u8], &[T::Id]) = match chain.split_first() {
        None => (b"", &[]),
        Some((&r, [])) => match renamed.iter().find(|&&(id, _)| id == r) {
            Some((_, name)) => (name, &[]),
            None => (tree.name(r), &[]),
        },
        Some((&r, rest)) => (tree.name(r), rest),
    };
    parts(top).chain(below.iter().map(|&n| Part::Name(tree.entry_name(n))))
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    use super::*;
    use crate::tree::{xorshift, EntryKind, Node, TreeBuilder};

    #[test]
    fn parts_are_path_components() {
        for p in [
            "", ".", "./", "./a", "a/./b", "a//b/", "/", "//a/", "/..", "../a/..", ".a/.", "a.b",
            "x(/)",
        ] {
            let ours: Vec<Part> = parts(p.as_bytes()).collect();
            let std: Vec<Part> = Path::new(p)
                .components()
                .map(|c| match c {
                    std::path::Component::RootDir => Part::Root,
                    std::path::Component::CurDir => Part::Cur,
                    std::path::Component::ParentDir => Part::Parent,
                    std::path::Component::Normal(n) => Part::Name(n.as_bytes()),
                    std::path::Component::Prefix(_) => unreachable!(),
                })
                .collect();
            assert_eq!(ours, std, "{p:?}");
        }
    }

    /// Random trees below several paths given, names full of '.' and bytes above '/': the
    /// order is `PathBuf`'s of the paths dust builds, whichever two nodes.
    #[test]
    fn paths_order_as_rusts_paths() {
        let mut rnd = xorshift(0x5eed_1e55);
        let alphabet: &[&[u8]] = &[b"a", b".", b"b", b"-", b"\xc3\xa9", b"0", b"A"];
        for round in 0..20 {
            let mut b = TreeBuilder::new();
            let tops: &[&[u8]] = match round % 4 {
                0 => &[b"t"],
                1 => &[b"./t/", b"t.b", b"t/x/../y"],
                2 => &[b"/r", b"a", b".."],
                _ => &[b"s/dup", b"t/dup", b"dup"],
            };
            let dir = || Node::new(EntryKind::Dir, 0, 0, 0, 0);
            b.add_roots(tops.iter().map(|t| (t.to_vec(), dir())).collect());
            let mut dirs: Vec<NodeId> = (1..=tops.len() as NodeId).collect();
            let mut i = 0;
            while i < dirs.len() && dirs.len() < 60 {
                let mut names: Vec<Vec<u8>> = Vec::new();
                for _ in 0..rnd(5) {
                    let mut n = Vec::new();
                    for _ in 0..1 + rnd(3) {
                        n.extend_from_slice(alphabet[rnd(alphabet.len() as u64) as usize]);
                    }
                    if n != b"." && n != b".." && !names.contains(&n) {
                        names.push(n);
                    }
                }
                let kids: Vec<(Node, &[u8])> = names.iter().map(|n| (dir(), &n[..])).collect();
                let first = b.add_children(dirs[i], kids.into_iter());
                dirs.extend(first..first + names.len() as NodeId);
                i += 1;
            }
            let tree = b.into_tree();
            // the third round's tops are renamed as dust names them apart
            let renamed: Vec<(NodeId, Vec<u8>)> = if round % 4 == 3 {
                vec![(1, b"s/dup(s)".to_vec()), (2, b"t/dup(t)".to_vec())]
            } else {
                Vec::new()
            };
            let dust_path = |id: NodeId| -> Vec<u8> {
                match renamed.iter().find(|&&(r, _)| r == id) {
                    Some((_, n)) => n.clone(),
                    None => tree.path(id),
                }
            };
            let ids: Vec<NodeId> = (1..tree.len() as NodeId).collect();
            let ties = Ties::Paths {
                renamed: renamed.clone(),
            };
            for &x in &ids {
                for &y in &ids {
                    let (px, py) = (dust_path(x), dust_path(y));
                    let want =
                        Path::new(OsStr::from_bytes(&px)).cmp(Path::new(OsStr::from_bytes(&py)));
                    assert_eq!(ties.cmp(&tree, x, y), want, "{px:?} vs {py:?}");
                }
            }
        }
    }
}
