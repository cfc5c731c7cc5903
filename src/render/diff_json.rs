//! `--diff -j`: the comparison as one JSON document, written depth-first without recursion.
//!
//! Every node: `{"name", "type", "old", "new", "delta", "status", "children"}`; sizes in the
//! chosen mode as JSON numbers (`old` is 0 for an added entry and `new` 0 for a removed one:
//! `status` says which), `status` one of `same`, `changed`, `added`, `removed`. Children
//! biggest change first; unchanged entries are left out (the top is always there). Names as
//! in `-j`: not UTF-8, they come with `"name_bytes"` too.
//!
//! One view of the diff feature ([`crate::diff`]); the run that prints it is
//! [`crate::app::diff`].

use std::io::{self, Write};

use super::json::write_name;
use crate::diff::select::DiffSelection;
use crate::diff::{Diff, EntryOf, Pairs};
use crate::tree::TreeView;

fn write_node<O: TreeView, N: TreeView, M: Pairs<O, N>>(
    out: &mut dyn Write,
    d: &Diff<'_, O, N, M>,
    e: EntryOf<O, N>,
) -> io::Result<()> {
    out.write_all(b"{")?;
    write_name(out, d.name(e))?;
    write!(
        out,
        ",\"type\":\"{}\",\"old\":{},\"new\":{},\"delta\":{},\"status\":\"{}\",\"children\":[",
        d.kind(e).json_name(),
        d.old_size(e),
        d.new_size(e),
        d.delta(e),
        d.status(e).label()
    )
}

/// Writes the top of the comparison and every visible entry down to the selection's depth
/// (`max_rows` does not apply: a document has no screen to fill).
pub fn render_diff_json<O: TreeView, N: TreeView, M: Pairs<O, N>>(
    d: &Diff<'_, O, N, M>,
    sel: &DiffSelection,
    out: &mut dyn Write,
) -> io::Result<()> {
    enum Step<E> {
        Open(E, usize, bool),
        Close,
    }
    let mut kids = Vec::new();
    let mut stack = vec![Step::Open(d.top(), 0, true)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Close => out.write_all(b"]}")?,
            Step::Open(e, depth, first) => {
                if !first {
                    out.write_all(b",")?;
                }
                write_node(out, d, e)?;
                stack.push(Step::Close);
                if sel.max_depth.is_none_or(|m| depth < m) {
                    kids.clear();
                    d.children_into(e, &mut kids);
                    kids.retain(|&c| sel.is_visible(d, c));
                    kids.sort_by(|&a, &b| sel.order(d, a, b));
                    for (i, &c) in kids.iter().enumerate().rev() {
                        stack.push(Step::Open(c, depth + 1, i == 0));
                    }
                }
            }
        }
    }
    out.write_all(b"\n")
}
