//! The dust-style tree: `SIZE TREE NAME │BAR│ PCT%`, written to any `Write`.
//!
//! Laid out root first (`-r`), then flipped line by line for the default view, where the root
//! sits at the bottom and `└`/`┬` become `┌`/`┴`. Bars are shaded by depth: the entry's own
//! share in `█`, its ancestors' shares in `░▒▓` from the shallowest, the root's in blank.
//!
//! The columns are shared as dust shares them ([`fit`]): names padded before the bars, or,
//! with no room for bars, cut with `..`; `-m`'s dates have no bars and no blank between the
//! guides and the name.
//!
//! `--skip-total` lays the rows out as without it and leaves the root's row out, as dust
//! does: the columns stay as wide as with the root (its name and size are measured), its
//! children are the top rows, joined by guides as siblings, and are shaded as the root was.

use std::io::{self, Write};

use super::color::{Palette, RESET, SIZE_RED};
use super::escape::{escape, truncate, truncate_dotted};
use super::labels::Labels;
use crate::render::ViewOptions;
use crate::tree::{NodeId, Row, TreeView};
use crate::units::format_size;
use crate::vocab::SizeMode;
use fit::{fit, Names};

mod fit;

/// SGR faint, for `--dim`.
const DIM: &str = "\x1b[2m";

/// The header of `--extents`'s columns: the size, what deleting frees, what is shared.
const DISK: &str = "Disk";
const EXCL: &str = "Excl";
const SHARED: &str = "Shared";

/// What the first pass keeps of a row for the second, which writes it: the columns are only
/// known once every row was measured, and the default view prints the rows in reverse.
#[derive(Copy, Clone)]
struct Measured<I = NodeId> {
    row: Row<I>,
    /// The sizes of the row's ancestors at the three levels below the top drawn (0 where it
    /// has none): the bar's shades. The top's own share is the blank.
    shades: [u64; 3],
    /// The biggest of its siblings (the first of its parent's rows): with colours, dust
    /// paints its size red.
    biggest: bool,
}

/// The widths every row is laid out in.
struct Columns {
    size_w: usize,
    names: Names,
    /// A blank between the guides and the name: none with `-m`, as dust writes its dates.
    spaced: bool,
    bar_w: usize,
    total: u64,
    /// `--extents`: the widths of the exclusive and shared columns after the size.
    sharing_w: Option<(usize, usize)>,
}

/// Everything the renderer needs besides the tree.
pub struct BarsView<'a, I = NodeId> {
    pub opts: &'a ViewOptions,
    pub mode: SizeMode,
    pub palette: Option<&'a Palette>,
    /// How the rows are named.
    pub labels: &'a Labels<I>,
}

impl<I: Copy + Ord + std::hash::Hash> BarsView<'_, I> {
    /// Writes `rows` (in layout order, parents first) as the bars view. Each line is written
    /// as soon as it is made: what is held besides the rows is a few words a row, whatever
    /// the width, depth and number of lines asked for.
    pub fn render<T: TreeView<Id = I>>(
        &self,
        tree: &T,
        rows: &[Row<I>],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        // --skip-total: the root (depth 0) is measured, not drawn, and its guide column
        // goes with it
        let hidden = usize::from(self.opts.skip_total);
        if rows.len() <= hidden {
            return Ok(());
        }
        let (measured, cols) = self.measure(tree, rows);
        let mut line = Vec::with_capacity(self.opts.width + 64);
        if let Some((excl_w, shared_w)) = cols.sharing_w {
            let size_w = cols.size_w;
            writeln!(out, "{DISK:>size_w$} {EXCL:>excl_w$} {SHARED:>shared_w$}")?;
        }
        if self.opts.reverse {
            // root first: a row's guides are its ancestors' "a later sibling follows"
            let mut guides: Vec<bool> = Vec::new();
            for m in &measured {
                guides.truncate(m.row.depth);
                if m.row.depth >= hidden {
                    let shown = guides.get(hidden..).unwrap_or_default();
                    self.write_row(tree, m, shown, &cols, &mut line, out)?;
                }
                guides.push(!m.row.last);
            }
        } else {
            // root last, rows from the bottom of the layout up: an ancestor at depth j has a
            // later sibling when the nearest row below it in the layout at depth j or less is
            // at depth j (the root has no sibling)
            let mut later: Vec<bool> = Vec::new();
            for m in measured.iter().rev() {
                let d = m.row.depth;
                later.resize(later.len().max(d), false);
                if d >= hidden {
                    self.write_row(tree, m, &later[hidden..d], &cols, &mut line, out)?;
                }
                later.truncate(d);
                later.push(d > 0);
            }
        }
        Ok(())
    }

    /// The first pass: each row's ancestors' sizes, and the columns that fit the widest.
    fn measure<T: TreeView<Id = I>>(
        &self,
        tree: &T,
        rows: &[Row<I>],
    ) -> (Vec<Measured<I>>, Columns) {
        let opts = self.opts;
        let raw_invalid = !opts.to_terminal;
        // the level whose share is the blank: the root, or under --skip-total the tops drawn
        let top = usize::from(opts.skip_total);
        let mut ancestors: Vec<u64> = Vec::new();
        let mut measured = Vec::with_capacity(rows.len());
        // rows come biggest first among siblings: the first row of each parent
        let mut seen_parents = rustc_hash::FxHashSet::default();
        let (mut size_w, mut longest) = (0, 0);
        // the deepest row drawn, counted from the top drawn
        let mut deepest = 0;
        let total = percent_base(tree, rows, self.mode);
        // --extents: two columns more, under a header line (their widths fit its words)
        let mut sharing_w = tree.counts_sharing().then_some((EXCL.len(), SHARED.len()));
        if sharing_w.is_some() {
            size_w = DISK.len();
        }
        if self.mode == SizeMode::Time {
            // a date's width even where no row has one ("-"): the guides start where they
            // would with times, not against the dash
            size_w = crate::units::TIME_WIDTH;
        }
        for r in rows {
            let size = tree.size(r.id, self.mode);
            size_w = size_w.max(format_size(size, self.mode, opts.units).len());
            if let (Some((e, s)), Some(sh)) = (&mut sharing_w, tree.sharing(r.id)) {
                *e = (*e).max(format_size(sh.exclusive, self.mode, opts.units).len());
                *s = (*s).max(format_size(sh.shared, self.mode, opts.units).len());
            }
            let name_w = escape(&self.name_of(tree, r.id), raw_invalid).width;
            longest = longest.max(2 * r.depth + 4 + name_w);
            deepest = deepest.max(r.depth.saturating_sub(top));
            ancestors.truncate(r.depth);
            let shade = |d: usize| ancestors.get(d).copied().unwrap_or(0);
            let parent = match r.depth {
                0 => None,
                _ => Some(tree.parent(r.id)),
            };
            measured.push(Measured {
                row: *r,
                shades: [shade(top + 1), shade(top + 2), shade(top + 3)],
                biggest: seen_parents.insert(parent),
            });
            ancestors.push(size);
        }
        let sharing_room = sharing_w.map_or(0, |(e, s)| e + s + 2);
        // times are not shares of a whole: no bars (as dust's -m)
        let bars = opts.bars && self.mode != SizeMode::Time;
        let left = size_w + 1 + sharing_room;
        let (names, bar_w) = fit(opts.width, left, longest, deepest, opts.bars, bars);
        let cols = Columns {
            size_w,
            names,
            spaced: self.mode != SizeMode::Time,
            bar_w,
            total,
            sharing_w,
        };
        (measured, cols)
    }

    fn name_of<'t, T: TreeView<Id = I>>(&self, tree: &'t T, id: I) -> std::borrow::Cow<'t, [u8]> {
        self.labels.of(tree, id)
    }

    /// Makes one row's line in `line` and writes it.
    fn write_row<T: TreeView<Id = I>>(
        &self,
        tree: &T,
        m: &Measured<I>,
        guides: &[bool],
        cols: &Columns,
        line: &mut Vec<u8>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let opts = self.opts;
        // --dim: guides and bars faint, so names and sizes stand out (colour only)
        let dim = opts.dim && self.palette.is_some();
        let flip = !opts.reverse;
        let id = m.row.id;
        let size = tree.size(id, self.mode);
        let name_bytes = self.name_of(tree, id);
        let name = escape(&name_bytes, !opts.to_terminal);
        line.clear();
        let size_text = format_size(size, self.mode, opts.units);
        if m.biggest && self.palette.is_some() {
            write!(line, "{SIZE_RED}{:>w$}{RESET} ", size_text, w = cols.size_w)?;
        } else {
            write!(line, "{:>w$} ", size_text, w = cols.size_w)?;
        }
        if let Some((excl_w, shared_w)) = cols.sharing_w {
            let sh = tree.sharing(id).unwrap_or_default();
            let excl = format_size(sh.exclusive, self.mode, opts.units);
            let shared = format_size(sh.shared, self.mode, opts.units);
            write!(line, "{excl:>excl_w$} {shared:>shared_w$} ")?;
        }
        let shape = (m.row.last, m.row.has_children);
        // the guides, the name, and the width they are padded to (with bars)
        let (mut prefix, prefix_w, (name, name_w), pad_to) = match cols.names {
            Names::Dust { longest, padded } => {
                let (prefix, prefix_w) = tree_prefix(guides, shape, flip, usize::MAX);
                // dust cuts a name to what its guides (without their blank) leave
                let cut = match padded {
                    true => (name.bytes.to_vec(), name.width),
                    false => truncate_dotted(&name, (longest + 1).saturating_sub(prefix_w)),
                };
                (prefix, prefix_w, cut, padded.then_some(longest))
            }
            Names::Elided { label_w } => {
                // the guides may take what the name leaves, but never more than half the
                // column
                let prefix_room = label_w.saturating_sub(name.width).max(label_w / 2);
                let (prefix, prefix_w) = tree_prefix(guides, shape, flip, prefix_room);
                let cut = truncate(&name, label_w.saturating_sub(prefix_w));
                (prefix, prefix_w, cut, (cols.bar_w > 0).then_some(label_w))
            }
        };
        if !cols.spaced && prefix.ends_with(' ') {
            // dust's -m writes the name against its guide (and pads it as if the blank were
            // there)
            prefix.pop();
        }
        if dim {
            line.extend_from_slice(DIM.as_bytes());
        }
        line.extend_from_slice(prefix.as_bytes());
        if dim {
            line.extend_from_slice(RESET.as_bytes());
        }
        // "(total)" is no entry on disk: dust leaves it uncoloured
        let color = self
            .palette
            .filter(|_| id != tree.total())
            .and_then(|p| p.start(tree.kind(id), tree.name(id)));
        if let Some(c) = &color {
            line.extend_from_slice(c.as_bytes());
        }
        line.extend_from_slice(&name);
        if let Some(w) = pad_to {
            // inside the name's colour, as dust pads it
            line.resize(line.len() + w.saturating_sub(prefix_w + name_w), b' ');
        }
        if color.is_some() {
            line.extend_from_slice(RESET.as_bytes());
        }
        if cols.bar_w > 0 {
            self.write_bar(m, size, cols, dim, line)?;
        }
        line.push(b'\n');
        out.write_all(line)
    }

    /// The row's bar between its frames, shaded by its ancestors' shares, and its percent.
    fn write_bar(
        &self,
        m: &Measured<I>,
        size: u64,
        cols: &Columns,
        dim: bool,
        line: &mut Vec<u8>,
    ) -> io::Result<()> {
        if dim {
            line.extend_from_slice(DIM.as_bytes());
        }
        line.extend_from_slice("│".as_bytes());
        // the top's share is the blank: its size does not matter here
        let ancestors = [0, m.shades[0], m.shades[1], m.shades[2]];
        let level = m
            .row
            .depth
            .saturating_sub(usize::from(self.opts.skip_total));
        let bar = shaded_bar(
            size,
            &ancestors[..level.min(ancestors.len())],
            cols.total,
            cols.bar_w,
            self.opts.bars_on_right,
        );
        line.extend_from_slice(bar.as_bytes());
        line.extend_from_slice("│".as_bytes());
        if dim {
            line.extend_from_slice(RESET.as_bytes());
        }
        write!(line, " {:>3}%", percent(size, cols.total))
    }
}

/// The share of `total` in whole percent, as dust computes it: in `f32`, written with `{:.0}`
/// (so an exact half goes to the even neighbour: 12.5% is `12`, 37.5% is `38`).
/// What the percentages are shares of: the top rows' sizes together, or, when the top is a
/// path given, the total of the paths given.
pub(crate) fn percent_base<T: TreeView>(tree: &T, rows: &[Row<T::Id>], mode: SizeMode) -> u64 {
    let tops = rows.iter().filter(|r| r.depth == 0).map(|r| r.id);
    if tops.clone().all(|id| tree.is_root(id)) {
        return tree.size(tree.total(), mode);
    }
    tops.map(|id| tree.size(id, mode)).sum()
}

pub(crate) fn percent(size: u64, total: u64) -> u64 {
    let share = size as f32 / total as f32;
    let share = if share.is_normal() { share } else { 0.0 };
    format!("{:.0}", share * 100.0).parse().unwrap_or(0)
}

/// `│ │ ├─┬ ` for a row, in at most `max_w` columns: when the tree is deeper than that, the
/// outer guides are elided with `…` so the name stays visible.
/// `shape` is (no later sibling shown, children shown).
pub(crate) fn tree_prefix(
    guides: &[bool],
    shape: (bool, bool),
    flip: bool,
    max_w: usize,
) -> (String, usize) {
    let (last, has_children) = shape;
    let connector = match (last, flip) {
        (true, false) => "└─",
        (true, true) => "┌─",
        (false, _) => "├─",
    };
    let tail = match (has_children, flip) {
        (true, false) => "┬ ",
        (true, true) => "┴ ",
        (false, _) => "─ ",
    };
    let full_w = 2 * guides.len() + 4;
    if max_w < 4 || (full_w > max_w && max_w < 5) {
        // too narrow for any tree (an elided one needs 5 columns): names only
        return (String::new(), 0);
    }
    let keep = if full_w <= max_w {
        guides.len()
    } else {
        max_w.saturating_sub(5) / 2
    };
    let mut s = String::with_capacity(4 * keep + 16);
    if keep < guides.len() {
        s.push('…');
    }
    for &more in &guides[guides.len() - keep..] {
        s.push_str(if more { "│ " } else { "  " });
    }
    s.push_str(connector);
    s.push_str(tail);
    let w = 2 * keep + 4 + usize::from(keep < guides.len());
    (s, w)
}

/// The bar for an entry of `size` whose ancestors (below the top) have `ancestors` sizes.
/// As dust draws it: `width - 1` cells and a blank, an entry's share of them rounded down
/// plus one (every entry, even an empty one, shows a cell), at most all of them.
fn shaded_bar(size: u64, ancestors: &[u64], total: u64, width: usize, from_right: bool) -> String {
    let n = width.saturating_sub(1);
    let len = |s: u64| -> usize {
        let share = match total {
            0 => 0,
            t => (s as u128 * n as u128 / t as u128) as usize,
        };
        (share + 1).min(n)
    };
    let mut cells = vec![' '; n];
    // ancestors[0] is the top (blank); then ░ ▒ ▓ by depth
    for (depth, &a) in ancestors.iter().enumerate().skip(1).take(3) {
        let shade = ['░', '▒', '▓'][depth - 1];
        for c in cells.iter_mut().take(len(a)) {
            *c = shade;
        }
    }
    for c in cells.iter_mut().take(len(size)) {
        *c = '█';
    }
    if from_right {
        cells.reverse();
    }
    if width > 0 {
        cells.push(' ');
    }
    cells.into_iter().collect()
}

/// Rows for `-F`: the files as a flat list under `top`, each named by its full path.
pub fn flat_rows<I: Copy>(top: I, files: &[I]) -> Vec<Row<I>> {
    let mut rows = vec![Row {
        id: top,
        depth: 0,
        last: true,
        has_children: !files.is_empty(),
    }];
    rows.extend(files.iter().enumerate().map(|(i, &id)| Row {
        id,
        depth: 1,
        last: i + 1 == files.len(),
        has_children: false,
    }));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_shade_by_depth() {
        // top 100, depth-1 ancestor 60, depth-2 ancestor 30, entry 10, 10 columns
        assert_eq!(shaded_bar(10, &[100, 60, 30], 100, 10, false), "█▒▒░░░    ");
        assert_eq!(shaded_bar(10, &[100, 60, 30], 100, 10, true), "   ░░░▒▒█ ");
        // dust: an empty entry still shows a cell; the whole fills all but the blank
        assert_eq!(shaded_bar(0, &[], 0, 3, false), "█  ");
        assert_eq!(shaded_bar(100, &[], 100, 5, false), "████ ");
        // 6% of 33 cells is 1.98: one, and the one every entry has
        assert_eq!(
            shaded_bar(6, &[100], 100, 34, false),
            format!("██{}", " ".repeat(32))
        );
    }

    #[test]
    fn prefixes_match_dust() {
        let row = |last, has_children| (last, has_children);
        assert_eq!(tree_prefix(&[], row(true, true), true, 80).0, "┌─┴ ");
        assert_eq!(
            tree_prefix(&[false], row(true, false), true, 80).0,
            "  ┌── "
        );
        assert_eq!(
            tree_prefix(&[false, true], row(false, true), false, 80).0,
            "  │ ├─┬ "
        );
        // deeper than the room: outer guides elided, never wider than asked
        let deep = vec![true; 1000];
        // found by the renderer fuzz test: 4 columns fit a bare connector, not an elided one
        for max in 0..12 {
            let (p, w) = tree_prefix(&[false], row(true, true), false, max);
            assert!(w <= max, "{p:?} is {w} columns for {max}");
        }
        let (p, w) = tree_prefix(&deep, row(true, false), true, 20);
        assert!(w <= 20 && p.starts_with('…'), "{p:?} {w}");
    }

    #[test]
    fn percent_rounds() {
        assert_eq!(percent(1, 3), 33);
        assert_eq!(percent(2, 3), 67);
        assert_eq!(percent(5, 0), 0);
        // dust's {:.0}: halves to even
        assert_eq!(percent(4, 32), 12);
        assert_eq!(percent(12, 32), 38);
        assert_eq!(percent(1, 200), 0);
        assert_eq!(percent(3, 200), 2);
    }
}
