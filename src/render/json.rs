//! `-j`: the tree as one JSON document, written depth-first without recursion.
//!
//! Every node: `{"name", "type", "size", "disk_bytes", "apparent_bytes", "entries",
//! "children"}` (with `--extents`, `"exclusive_bytes"` and `"shared_bytes"` before
//! `"children"`), numbers as JSON numbers, children biggest first. A name that is not UTF-8 is
//! given twice: `"name"` with U+FFFD for the bad bytes, and `"name_bytes"` with every raw byte,
//! so nothing is lost.

use std::cmp::Reverse;
use std::io::{self, Write};

use crate::tree::{EntryKind, NodeId, Selection, Tree};
use crate::vocab::SizeMode;

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

fn write_node(out: &mut dyn Write, tree: &Tree, id: NodeId, mode: SizeMode) -> io::Result<()> {
    let n = tree.node(id);
    out.write_all(b"{")?;
    write_name(out, tree.name(id))?;
    let kind = if id == crate::tree::TOTAL {
        EntryKind::Dir
    } else {
        n.kind()
    };
    write!(
        out,
        ",\"type\":\"{}\",\"size\":{},\"disk_bytes\":{},\"apparent_bytes\":{},\"entries\":{}",
        kind.json_name(),
        n.size(mode),
        n.disk,
        n.apparent,
        n.entries
    )?;
    // --extents: what deleting it frees, and what it shares
    if let Some(s) = tree.sharing.get(id as usize) {
        write!(
            out,
            ",\"exclusive_bytes\":{},\"shared_bytes\":{}",
            s.exclusive, s.shared
        )?;
    }
    Ok(())
}

/// Writes `top` and every visible node down to the selection's depth.
pub fn render_json(
    tree: &Tree,
    top: NodeId,
    sel: &Selection,
    out: &mut dyn Write,
) -> io::Result<()> {
    enum Step {
        Open(NodeId, usize, bool),
        Close,
    }
    let mut stack = vec![Step::Open(top, 0, true)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Close => out.write_all(b"]}")?,
            Step::Open(id, depth, first) => {
                if !first {
                    out.write_all(b",")?;
                }
                write_node(out, tree, id, sel.mode)?;
                out.write_all(b",\"children\":[")?;
                stack.push(Step::Close);
                if sel.max_depth.is_none_or(|d| depth < d) && !sel.is_collapsed(id) {
                    let mut kids: Vec<NodeId> = tree
                        .node(id)
                        .children()
                        .filter(|&c| sel.is_visible(tree, c))
                        .collect();
                    kids.sort_by_key(|&c| (Reverse(tree.node(c).size(sel.mode)), c));
                    for (i, c) in kids.into_iter().enumerate().rev() {
                        stack.push(Step::Open(c, depth + 1, i == 0));
                    }
                }
            }
        }
    }
    out.write_all(b"\n")
}
