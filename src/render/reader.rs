//! `-R`: the tree as plain columns for screen readers, as dust lays them out: `NAME DEPTH
//! SIZE PCT%`. No tree drawing, no bars, no colours: nothing a reader would spell out.

use std::io::{self, Write};

use super::escape::escape;
use super::labels::Labels;
use crate::render::ViewOptions;
use crate::tree::{Row, TreeView};
use crate::units::format_size;
use crate::vocab::SizeMode;

/// Writes `rows` (layout order, parents first) as screen-reader lines, in the order the bars
/// view would print them (root last unless `-r`). `--skip-total` leaves the root's line out
/// and counts depths from its children, as dust does; the columns are as wide as with it.
pub fn render_reader<T: TreeView>(
    tree: &T,
    rows: &[Row<T::Id>],
    mode: SizeMode,
    opts: &ViewOptions,
    labels: &Labels<T::Id>,
    out: &mut dyn Write,
) -> io::Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let total = super::bars::percent_base(tree, rows, mode);
    let cells: Vec<(Vec<u8>, usize, String, u64)> = rows
        .iter()
        .map(|r| {
            let raw = labels.of(tree, r.id);
            let name = escape(&raw, !opts.to_terminal);
            let size = tree.size(r.id, mode);
            (
                name.bytes.to_vec(),
                name.width,
                format_size(size, mode, opts.units),
                size,
            )
        })
        .collect();
    let name_w = cells.iter().map(|c| c.1).max().unwrap_or(0);
    let size_w = cells.iter().map(|c| c.2.len()).max().unwrap_or(0);
    let hidden = usize::from(opts.skip_total);
    let mut lines: Vec<Vec<u8>> = rows
        .iter()
        .zip(&cells)
        .filter(|(row, _)| row.depth >= hidden)
        .map(|(row, (name, width, size, value))| {
            let mut line = name.clone();
            line.resize(line.len() + name_w - width, b' ');
            let pct = format!("{}%", super::bars::percent(*value, total));
            let depth = row.depth - hidden;
            line.extend_from_slice(format!(" {depth} {size:>size_w$} {pct:>4}\n").as_bytes());
            line
        })
        .collect();
    if !opts.reverse {
        lines.reverse();
    }
    for l in lines {
        out.write_all(&l)?;
    }
    Ok(())
}
