//! `-j`: the tree as one JSON document, written depth-first without recursion.
//!
//! A superset of dust's `-j` (docs/JSON.md): every node is `{"size", "name", …, "children"}`
//! with dust's values — `size` the string dust prints (`"12Ki"`), `name` the path dust builds
//! (the argument, then `/` and each name) — and hogs's numbers under their own names: `type`,
//! `value` (the number `size` formats), `disk_bytes`, `apparent_bytes`, `entries`. Children
//! come biggest first, as the bars order them. A path that is not UTF-8 is given twice: `"name"` with U+FFFD for the
//! bad bytes, and `"name_bytes"` with every raw byte, so nothing is lost.
//! A directory of a merge of scans that no part scanned also has `"unscanned": true`.
//! With `--extents`, `"exclusive_bytes"` and `"shared_bytes"` come before `"children"`.

use std::io::{self, Write};

use super::labels::Labels;
use crate::owners::{Usage, NOT_RECORDED};
use crate::tree::{flags, EntryKind, Selection, TreeView};
use crate::units::format_json_size;
use crate::vocab::{SizeMode, UnitStyle};

fn write_str(out: &mut dyn Write, s: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: Option<&[u8]> = match b {
            b'"' => Some(b"\\\""),
            b'\\' => Some(b"\\\\"),
            b'\n' => Some(b"\\n"),
            b'\r' => Some(b"\\r"),
            b'\t' => Some(b"\\t"),
            0..=0x1f | 0x7f => None,
            _ => continue,
        };
        out.write_all(&s.as_bytes()[start..i])?;
        match esc {
            Some(e) => out.write_all(e)?,
            None => write!(out, "\\u{b:04x}")?,
        }
        start = i + 1;
    }
    out.write_all(&s.as_bytes()[start..])?;
    out.write_all(b"\"")
}

/// `"name":"…"`, and `,"name_bytes":[…]` when the name is not UTF-8.
pub(crate) fn write_name(out: &mut dyn Write, name: &[u8]) -> io::Result<()> {
    out.write_all(b"\"name\":")?;
    write_str(out, &String::from_utf8_lossy(name))?;
    if std::str::from_utf8(name).is_err() {
        out.write_all(b",\"name_bytes\":[")?;
        for (i, b) in name.iter().enumerate() {
            write!(out, "{}{b}", if i > 0 { "," } else { "" })?;
        }
        out.write_all(b"]")?;
    }
    Ok(())
}

/// One node without its closing `]}`: dust's `size` (its formatted string) and `name` (the
/// path from the argument), then hogs's numbers, then `"children":[`.
fn write_node<T: TreeView>(
    out: &mut dyn Write,
    tree: &T,
    id: T::Id,
    path: &[u8],
    mode: SizeMode,
    units: UnitStyle,
) -> io::Result<()> {
    let value = tree.size(id, mode);
    out.write_all(b"{\"size\":")?;
    write_str(out, &format_json_size(value, mode, units))?;
    out.write_all(b",")?;
    write_name(out, path)?;
    let kind = if id == tree.total() {
        EntryKind::Dir
    } else {
        tree.kind(id)
    };
    write!(
        out,
        ",\"type\":\"{}\",\"value\":{value},\"disk_bytes\":{},\"apparent_bytes\":{},\"entries\":{}",
        kind.json_name(),
        tree.size(id, SizeMode::Disk),
        tree.size(id, SizeMode::Apparent),
        tree.size(id, SizeMode::Count)
    )?;
    if tree.flags(id) & flags::UNSCANNED != 0 {
        // a directory of a merge of scans that no part scanned (`--import A B`)
        out.write_all(b",\"unscanned\":true")?;
    }
    if flags::is_left_unscanned(tree.flags(id)) {
        // and one a part left out (-X): what it holds is not counted
        out.write_all(b",\"excluded\":true")?;
    }
    // --extents: what deleting it frees, and what it shares
    if let Some(s) = tree.sharing(id) {
        write!(
            out,
            ",\"exclusive_bytes\":{},\"shared_bytes\":{}",
            s.exclusive, s.shared
        )?;
    }
    out.write_all(b",\"children\":[")
}

/// Writes `top` and every visible node down to the selection's depth; the paths given are
/// named by `labels` (as dust names them, `Labels::dust`).
pub fn render_json<T: TreeView>(
    tree: &T,
    top: T::Id,
    sel: &Selection<T::Id>,
    units: UnitStyle,
    labels: &Labels<T::Id>,
    out: &mut dyn Write,
) -> io::Result<()> {
    enum Step<I> {
        /// A node, its depth, whether it is its parent's first child, and the length of its
        /// parent's path in `path` (`None`: a top, named by itself).
        Open(I, usize, bool, Option<usize>),
        Close,
    }
    let mut path: Vec<u8> = Vec::new();
    let mut stack = vec![Step::Open(top, 0, true, None)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Close => out.write_all(b"]}")?,
            Step::Open(id, depth, first, parent_len) => {
                if !first {
                    out.write_all(b",")?;
                }
                match parent_len {
                    Some(len) => {
                        path.truncate(len);
                        if path.last() != Some(&b'/') {
                            path.push(b'/');
                        }
                        path.extend_from_slice(tree.name(id));
                    }
                    None => path = super::labels::dust_path(tree.name(id)),
                }
                if parent_len.is_none() && tree.is_root(id) {
                    write_node(out, tree, id, &labels.json_root(tree, id), sel.mode, units)?;
                } else {
                    write_node(out, tree, id, &path, sel.mode, units)?;
                }
                stack.push(Step::Close);
                if sel.max_depth.is_none_or(|d| depth < d) && !sel.is_collapsed(id) {
                    let mut kids: Vec<T::Id> = tree
                        .children(id)
                        .filter(|&c| sel.is_visible(tree, c))
                        .collect();
                    kids.sort_by(|&a, &b| sel.display_order(tree, a, b));
                    // the paths below "(total)" (several paths, or -t's groups) are named
                    // by themselves, as in dust
                    let total =
                        id == tree.total() || parent_len.is_none() && tree.name(id) == b"(total)";
                    let below = (!total).then_some(path.len());
                    for (i, c) in kids.into_iter().enumerate().rev() {
                        stack.push(Step::Open(c, depth + 1, i == 0, below));
                    }
                }
            }
        }
    }
    out.write_all(b"\n")
}

/// `-F -j`: `top` with the files `files` as its children, flat, each named by its path (as
/// dust writes `-F -j`: the files a `-F` tree lists, under the path or `"(total)"`).
pub fn render_json_files<T: TreeView>(
    tree: &T,
    top: T::Id,
    files: &[T::Id],
    mode: SizeMode,
    units: UnitStyle,
    labels: &Labels<T::Id>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let name = match tree.is_root(top) {
        true => labels.json_root(tree, top),
        false => super::labels::dust_path(tree.name(top)),
    };
    write_node(out, tree, top, &name, mode, units)?;
    for (i, &f) in files.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        let path = super::labels::dust_path(&tree.path(f));
        write_node(out, tree, f, &path, mode, units)?;
        out.write_all(b"]}")?;
    }
    out.write_all(b"]}\n")
}

/// `--by-owner -j`: the owners' tree ([`crate::owners::owners_tree`], every owner, in the
/// order of `owners`) under its root, each owner `"type":"owner"` with its `"uid"` (`null`:
/// not recorded) and its user name as `"name"`, not a path: an owner is no entry of the tree.
pub fn render_json_owners<T: TreeView>(
    tree: &T,
    owners: &[Usage],
    mode: SizeMode,
    units: UnitStyle,
    labels: &Labels<T::Id>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let Some(root) = tree.roots().next() else {
        return Ok(());
    };
    write_node(out, tree, root, &labels.json_root(tree, root), mode, units)?;
    for (i, (kid, u)) in tree.children(root).zip(owners).enumerate() {
        let value = tree.size(kid, mode);
        out.write_all(if i > 0 { b",{\"size\":" } else { b"{\"size\":" })?;
        write_str(out, &format_json_size(value, mode, units))?;
        out.write_all(b",")?;
        write_name(out, tree.name(kid))?;
        out.write_all(b",\"type\":\"owner\",\"uid\":")?;
        match u.uid {
            NOT_RECORDED => out.write_all(b"null")?,
            uid => write!(out, "{uid}")?,
        }
        write!(
            out,
            ",\"value\":{value},\"disk_bytes\":{},\"apparent_bytes\":{},\"entries\":{},\"children\":[]}}",
            tree.size(kid, SizeMode::Disk),
            tree.size(kid, SizeMode::Apparent),
            tree.size(kid, SizeMode::Count)
        )?;
    }
    out.write_all(b"]}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{biggest_files, tied_tree, NodeId, Sparse, Ties, TOTAL};

    fn sel<I>(ties: Ties<I>) -> Selection<I> {
        Selection {
            mode: SizeMode::Disk,
            max_rows: 40,
            max_depth: Some(2),
            min_size: None,
            only_dirs: false,
            hide_empty: false,
            collapsed: Vec::new(),
            ties,
        }
    }

    /// -j and -F -j of a tree seen through ids that are not dense (as a file-backed tree's)
    /// are the in-memory tree's, byte for byte.
    #[test]
    fn json_through_sparse_ids_is_the_trees() -> io::Result<()> {
        let tree = tied_tree();
        let sparse = Sparse(&tree);
        let roots: Vec<NodeId> = tree.roots().collect();
        let sparse_roots: Vec<u64> = roots.iter().copied().map(Sparse::id).collect();
        let (labels, sparse_labels) = (
            Labels::dust(&tree, &roots, false),
            Labels::dust(&sparse, &sparse_roots, false),
        );
        let (sel, sparse_sel) = (sel(labels.ties(&tree)), sel(sparse_labels.ties(&sparse)));
        assert!(matches!(&sparse_sel.ties, Ties::Paths { renamed } if renamed.len() == 2));
        let units = UnitStyle::HumanIec;
        let (mut want, mut got) = (Vec::new(), Vec::new());
        render_json(&tree, TOTAL, &sel, units, &labels, &mut want)?;
        let top = Sparse::id(TOTAL);
        render_json(&sparse, top, &sparse_sel, units, &sparse_labels, &mut got)?;
        assert!(want.len() > 1000);
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want)
        );
        let files = biggest_files(&tree, TOTAL, &sel);
        let sparse_files = biggest_files(&sparse, top, &sparse_sel);
        let (mut want, mut got) = (Vec::new(), Vec::new());
        render_json_files(&tree, TOTAL, &files, sel.mode, units, &labels, &mut want)?;
        let (mode, l) = (sel.mode, &sparse_labels);
        render_json_files(&sparse, top, &sparse_files, mode, units, l, &mut got)?;
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want)
        );
        Ok(())
    }
}
