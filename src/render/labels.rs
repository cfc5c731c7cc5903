//! The names rows are labelled with, as dust labels them: a path given on the command line by
//! its last component (`/usr/share/` is `share`), two of them with one name told apart by
//! their parents (`dup_name(andy)`, `dup_name(bob)`), and with `-p` every row by its path
//! written as dust writes paths (`d//a/./b/` is `d/a/b`). The tree keeps the paths as typed:
//! only what is shown changes.

use std::borrow::Cow;

use crate::tree::{NodeId, Ties, TreeView};

/// dust gives up telling equal names apart after this many parents.
const MAX_PARENTS: usize = 10;

/// A path given's labels: (short, JSON name).
type Label = (Vec<u8>, Vec<u8>);

/// How the rows of one view are named.
#[derive(Clone, Debug)]
pub struct Labels<I = NodeId> {
    /// `-p`: every row by its whole path.
    full_paths: bool,
    /// Name the paths given as dust does (else: as typed, for the trees the run makes
    /// itself, `-t`'s and `--by-owner`'s).
    dust: bool,
    /// The labelled roots in the tree's order, each with its label: (short, JSON name).
    roots: Vec<(I, Label)>,
}

impl<I: Copy + Ord> Labels<I> {
    /// Names as they are in the tree (a root's is the path as typed).
    pub fn as_named(full_paths: bool) -> Labels<I> {
        Labels {
            full_paths,
            dust: false,
            roots: Vec::new(),
        }
    }

    /// dust's names for a tree of scanned paths, whose shown roots are `roots`.
    pub fn dust<T: TreeView<Id = I>>(tree: &T, roots: &[I], full_paths: bool) -> Labels<I> {
        // the roots from the first shown to the last, each by its path as dust writes it
        let (first, last) = (roots.iter().min(), roots.iter().max());
        let ids: Vec<I> = match (first, last) {
            (Some(&f), Some(&l)) => tree.roots().filter(|&r| f <= r && r <= l).collect(),
            _ => Vec::new(),
        };
        let mut names: Vec<Vec<u8>> = ids.iter().map(|&id| dust_path(tree.name(id))).collect();
        if !full_paths && roots.len() > 1 {
            let shown: Vec<usize> = roots
                .iter()
                .filter_map(|r| ids.binary_search(r).ok())
                .collect();
            tell_apart(&mut names, &shown);
        }
        Labels {
            full_paths,
            dust: true,
            roots: ids
                .into_iter()
                .zip(names)
                .map(|(id, n)| (id, (short_name(&n).to_vec(), n)))
                .collect(),
        }
    }

    fn root<T: TreeView<Id = I>>(&self, tree: &T, id: I) -> Option<&Label> {
        if !self.dust || !tree.is_root(id) {
            return None;
        }
        let i = self.roots.binary_search_by(|(r, _)| r.cmp(&id)).ok()?;
        Some(&self.roots[i].1)
    }

    /// The label of a row.
    pub fn of<'t, T: TreeView<Id = I>>(&self, tree: &'t T, id: I) -> Cow<'t, [u8]> {
        if id == tree.total() {
            return Cow::Borrowed(tree.name(id));
        }
        match (self.full_paths, self.dust) {
            (true, true) => Cow::Owned(dust_path(&tree.path(id))),
            (true, false) => Cow::Owned(tree.path(id)),
            (false, _) => match self.root(tree, id) {
                Some((short, _)) => Cow::Owned(short.clone()),
                None => Cow::Borrowed(tree.name(id)),
            },
        }
    }

    /// How rows of one size are ordered: by their paths as dust builds them, for a tree of
    /// scanned paths (the renamed ones by their labels); in the tree's own order for the trees
    /// the run makes itself, which it builds in the order they are shown.
    pub fn ties<T: TreeView<Id = I>>(&self, tree: &T) -> Ties<I> {
        if !self.dust {
            return Ties::Stored;
        }
        let renamed = self
            .roots
            .iter()
            .filter(|&&(id, (_, ref json))| *json != dust_path(tree.name(id)))
            .map(|(id, (_, json))| (*id, json.clone()))
            .collect();
        Ties::Paths { renamed }
    }

    /// The JSON `name` of a root: its path as dust writes it, with dust's `(parent)` marks
    /// when another root has its name (the names below it keep the plain path, as in dust).
    pub fn json_root<T: TreeView<Id = I>>(&self, tree: &T, id: I) -> Vec<u8> {
        match self.root(tree, id) {
            Some((_, json)) => json.clone(),
            None => dust_path(tree.name(id)),
        }
    }
}

/// dust's label for a path: its last component (`/` and `.` are themselves).
fn short_name(path: &[u8]) -> &[u8] {
    if path == b"/" {
        return path;
    }
    path.rsplit(|&b| b == b'/').next().unwrap_or(path)
}

/// The components of a path as Rust's `Path::components` gives them: `/` first for an
/// absolute path, then the names (`.` only at the start).
fn components(path: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = Vec::new();
    if path.first() == Some(&b'/') {
        v.push(b"/");
    }
    for (i, part) in path.split(|&b| b == b'/').enumerate() {
        if !part.is_empty() && (part != b"." || i == 0) {
            v.push(part);
        }
    }
    v
}

fn have_duplicate(names: &[Vec<u8>], shown: &[usize]) -> bool {
    let mut seen = rustc_hash::FxHashSet::default();
    !shown.iter().all(|&i| seen.insert(short_name(&names[i])))
}

/// dust's way of telling roots with one name apart: while two of them share a label (at most
/// ten times), every root's name gets `(the next parent up)` appended, when it has one.
fn tell_apart(names: &mut [Vec<u8>], shown: &[usize]) {
    let mut up = 0;
    while have_duplicate(names, shown) && up < MAX_PARENTS {
        up += 1;
        for &i in shown {
            let parent = components(&names[i])
                .into_iter()
                .rev()
                .nth(up)
                .map(<[u8]>::to_vec);
            if let Some(p) = parent {
                let name = &mut names[i];
                name.push(b'(');
                name.extend_from_slice(&p);
                name.push(b')');
            }
        }
    }
}

/// A path as dust writes it (Rust's `Path::components` joined again): repeated and trailing
/// slashes go, and so do `.` components but a leading one (`./t/` → `./t`, `t/./a` → `t/a`).
pub fn dust_path(p: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(p.len());
    if p.first() == Some(&b'/') {
        out.push(b'/');
    }
    for (i, part) in p.split(|&b| b == b'/').enumerate() {
        if part.is_empty() || part == b"." && !(i == 0 && out.is_empty()) {
            continue;
        }
        if !out.is_empty() && out.last() != Some(&b'/') {
            out.push(b'/');
        }
        out.extend_from_slice(part);
    }
    if out.is_empty() && !p.is_empty() {
        out.push(b'.');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised_as_dust_does() {
        for (given, want) in [
            ("t", "t"),
            ("t/", "t"),
            ("t//a/", "t/a"),
            ("./t", "./t"),
            ("./t/./a", "./t/a"),
            (".", "."),
            ("./", "."),
            ("/", "/"),
            ("//usr//share/", "/usr/share"),
            ("/tmp/../t", "/tmp/../t"),
        ] {
            assert_eq!(dust_path(given.as_bytes()), want.as_bytes(), "{given:?}");
        }
    }

    #[test]
    fn short_names_are_the_last_component() {
        for (given, want) in [
            ("t", "t"),
            ("a/b/c", "c"),
            ("/usr/share", "share"),
            ("/", "/"),
            (".", "."),
            ("./t", "t"),
            ("d/..", ".."),
        ] {
            assert_eq!(short_name(given.as_bytes()), want.as_bytes(), "{given:?}");
        }
    }

    fn apart(given: &[&str]) -> Vec<String> {
        let mut names: Vec<Vec<u8>> = given.iter().map(|g| g.as_bytes().to_vec()).collect();
        let shown: Vec<usize> = (0..names.len()).collect();
        tell_apart(&mut names, &shown);
        names
            .iter()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect()
    }

    /// What dust 1.2.7 prints (`handle_duplicate_top_level_names`): every root gets its
    /// parent while two labels are equal, a root without one stays as it is.
    #[test]
    fn equal_names_get_their_parents() {
        assert_eq!(
            apart(&["andy/dup", "bob/dup"]),
            ["andy/dup(andy)", "bob/dup(bob)"]
        );
        assert_eq!(
            apart(&["a/x", "b/a/x", "y/z"]),
            ["a/x(a)", "b/a/x(a)(b)", "y/z(y)"]
        );
        assert_eq!(apart(&["x", "b/x"]), ["x", "b/x(b)"]);
        assert_eq!(apart(&["a", "b"]), ["a", "b"]);
        assert_eq!(apart(&["/x", "/a/x"]), ["/x(/)", "/a/x(a)"]);
    }
}
