//! `--diff` as text: one row per changed entry, `OLD → NEW CHANGE TREE NAME │BAR│`.
//!
//! Laid out as the bars view (the top at the bottom unless -r, the same tree guides). The
//! bar is split in the middle: growth fills the right half with `█`, shrinking the left half
//! with `▒`, both scaled to the biggest change shown. An entry that was not there is `-` in
//! the OLD column and marked `(new)`; one that is gone is `-` in NEW and marked `(removed)`.
//!
//! One view of the diff feature: the rows come from [`crate::diff::select`], the run that
//! prints them is [`crate::app::diff`].

use std::io::{self, Write};

use super::bars::tree_prefix;
use super::color::{Palette, RESET};
use super::escape::{escape, truncate, Escaped};
use crate::diff::select::DiffRow;
use crate::diff::{Diff, EntryOf, Pairs, Status};
use crate::render::ViewOptions;
use crate::tree::TreeView;
use crate::units::format_size;
use crate::vocab::{SizeMode, UnitStyle};

/// Columns taken by the two `│` of the bar.
const BAR_FRAME: usize = 2;
/// Narrower than this, the bar says nothing: drop it.
const MIN_BAR: usize = 6;

/// A change with its sign: `+1.2Gi`, `-30Mi`, `0B`.
pub fn signed_size(delta: i128, mode: SizeMode, units: UnitStyle) -> String {
    let magnitude = u64::try_from(delta.unsigned_abs()).unwrap_or(u64::MAX);
    let text = format_size(magnitude, mode, units);
    match delta.signum() {
        1 => format!("+{text}"),
        -1 => format!("-{text}"),
        _ => text,
    }
}

/// The mark after a name.
fn mark(status: Status) -> &'static str {
    match status {
        Status::Added => " (new)",
        Status::Removed => " (removed)",
        Status::Same | Status::Changed => "",
    }
}

struct Line<'t, E> {
    row: DiffRow<E>,
    old: String,
    new: String,
    delta: String,
    name: Escaped<'t>,
    mark: &'static str,
}

/// Everything the renderer needs besides the comparison.
pub struct DiffBarsView<'a> {
    pub opts: &'a ViewOptions,
    pub palette: Option<&'a Palette>,
}

impl DiffBarsView<'_> {
    /// Writes `rows` (in layout order, parents first).
    pub fn render<O: TreeView, N: TreeView, M: Pairs<O, N>>(
        &self,
        d: &Diff<'_, O, N, M>,
        rows: &[DiffRow<EntryOf<O, N>>],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let opts = self.opts;
        let mode = d.mode();
        let size = |v: u64| format_size(v, mode, opts.units);
        let names: Vec<Vec<u8>> = rows
            .iter()
            .map(|r| {
                if opts.full_paths {
                    d.path(r.id)
                } else {
                    d.name(r.id).to_vec()
                }
            })
            .collect();
        let lines: Vec<Line<'_, _>> = rows
            .iter()
            .zip(&names)
            .map(|(r, name)| {
                let status = d.status(r.id);
                Line {
                    row: *r,
                    old: match status {
                        Status::Added => "-".into(),
                        _ => size(d.old_size(r.id)),
                    },
                    new: match status {
                        Status::Removed => "-".into(),
                        _ => size(d.new_size(r.id)),
                    },
                    delta: signed_size(d.delta(r.id), mode, opts.units),
                    name: escape(name, !opts.to_terminal),
                    mark: mark(status),
                }
            })
            .collect();
        let scale = rows
            .iter()
            .map(|r| d.delta(r.id).unsigned_abs())
            .max()
            .unwrap_or(0);
        let layout = self.layout(&lines, scale);
        let flip = !opts.reverse;
        let mut guides: Vec<bool> = Vec::new();
        let mut out_lines: Vec<Vec<u8>> = Vec::with_capacity(lines.len());
        for l in &lines {
            guides.truncate(l.row.depth);
            out_lines.push(self.line(d, l, &layout, &guides)?);
            guides.push(!l.row.last);
        }
        if flip {
            out_lines.reverse();
        }
        for l in out_lines {
            out.write_all(&l)?;
        }
        Ok(())
    }

    /// The columns' widths, fitted to the widest of `lines` and to the terminal.
    fn layout<E>(&self, lines: &[Line<'_, E>], scale: u128) -> Layout {
        let opts = self.opts;
        let widest = |f: fn(&Line<'_, E>) -> usize| lines.iter().map(f).max().unwrap_or(0);
        let (old_w, new_w, delta_w) = (
            widest(|l| l.old.len()),
            widest(|l| l.new.len()),
            widest(|l| l.delta.len()),
        );
        let longest = widest(|l| 2 * l.row.depth + 4 + l.name.width + l.mark.len());
        // "OLD → NEW CHANGE "
        let after_sizes = opts
            .width
            .saturating_sub(old_w + 3 + new_w + 1 + delta_w + 1);
        let mut label_w = longest.min(after_sizes).max(1);
        let mut bar_w = 0;
        if opts.bars && after_sizes > BAR_FRAME + MIN_BAR {
            let room = after_sizes - BAR_FRAME;
            let min_bar = (room / 4).max(MIN_BAR);
            label_w = longest.min(room - min_bar).max(1);
            bar_w = room - label_w;
        }
        Layout {
            old_w,
            new_w,
            delta_w,
            label_w,
            bar_w,
            scale,
        }
    }

    /// One row, its tree guides drawn from `guides` (one per ancestor: a line goes on).
    fn line<O: TreeView, N: TreeView, M: Pairs<O, N>>(
        &self,
        d: &Diff<'_, O, N, M>,
        l: &Line<'_, EntryOf<O, N>>,
        lay: &Layout,
        guides: &[bool],
    ) -> io::Result<Vec<u8>> {
        let Layout {
            old_w,
            new_w,
            delta_w,
            label_w,
            bar_w,
            scale,
        } = *lay;
        let mut line = Vec::with_capacity(self.opts.width + 32);
        write!(
            line,
            "{:>old_w$} → {:>new_w$} {:>delta_w$} ",
            l.old, l.new, l.delta
        )?;
        let text_w = l.name.width + l.mark.len();
        let prefix_room = label_w.saturating_sub(text_w).max(label_w / 2);
        let shape = (l.row.last, l.row.has_children);
        let (prefix, prefix_w) = tree_prefix(guides, shape, !self.opts.reverse, prefix_room);
        line.extend_from_slice(prefix.as_bytes());
        let room = label_w.saturating_sub(prefix_w);
        let (name, name_w) = truncate(&l.name, room.saturating_sub(l.mark.len()));
        let color = self
            .palette
            .and_then(|p| p.start(d.kind(l.row.id), d.name(l.row.id)));
        if let Some(c) = &color {
            line.extend_from_slice(c.as_bytes());
        }
        line.extend_from_slice(&name);
        if color.is_some() {
            line.extend_from_slice(RESET.as_bytes());
        }
        let mark_w = l.mark.len().min(room.saturating_sub(name_w));
        line.extend_from_slice(&l.mark.as_bytes()[..mark_w]);
        if bar_w > 0 {
            line.resize(line.len() + room.saturating_sub(name_w + mark_w), b' ');
            line.extend_from_slice("│".as_bytes());
            let bar = change_bar(d.delta(l.row.id), scale, bar_w);
            line.extend_from_slice(bar.as_bytes());
            line.extend_from_slice("│".as_bytes());
        }
        line.push(b'\n');
        Ok(line)
    }
}

/// The widths of a diff's columns and the change the bars are scaled to.
#[derive(Copy, Clone)]
struct Layout {
    old_w: usize,
    new_w: usize,
    delta_w: usize,
    label_w: usize,
    /// 0: no bar.
    bar_w: usize,
    scale: u128,
}

/// The bar of one change: shrinking fills leftwards from the middle, growth rightwards.
/// Anything nonzero gets at least one cell.
fn change_bar(delta: i128, scale: u128, width: usize) -> String {
    let left = width / 2;
    let right = width - left;
    let cells = |half: usize| -> usize {
        let magnitude = delta.unsigned_abs();
        if scale == 0 || magnitude == 0 {
            0
        } else {
            ((magnitude * half as u128 + scale / 2) / scale).clamp(1, half as u128) as usize
        }
    };
    let mut bar = vec![' '; width];
    if delta < 0 {
        for c in &mut bar[left - cells(left)..left] {
            *c = '▒';
        }
    } else {
        for c in bar.iter_mut().skip(left).take(cells(right)) {
            *c = '█';
        }
    }
    bar.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_grow_right_and_shrink_left_of_the_middle() {
        assert_eq!(change_bar(100, 100, 10), "     █████");
        assert_eq!(change_bar(-40, 100, 10), "   ▒▒     ");
        assert_eq!(change_bar(1, 1000, 10), "     █    ");
        assert_eq!(change_bar(0, 1000, 10), "          ");
        assert_eq!(change_bar(0, 0, 4), "    ");
    }

    #[test]
    fn changes_carry_their_sign() {
        let iec = UnitStyle::HumanIec;
        assert_eq!(signed_size(1288490189, SizeMode::Disk, iec), "+1.2Gi");
        assert_eq!(signed_size(-30 << 20, SizeMode::Disk, iec), "-30Mi");
        assert_eq!(signed_size(0, SizeMode::Disk, iec), "0B");
        assert_eq!(signed_size(-3, SizeMode::Count, iec), "-3");
        assert_eq!(
            signed_size(-4096, SizeMode::Apparent, UnitStyle::Plain),
            "-4096B"
        );
    }

    /// The printed comparison of trees read through sparse `u64` ids (as a file-backed
    /// tree's) is the in-memory trees', byte for byte: the bars and `-j`.
    #[test]
    fn printed_through_sparse_ids_as_from_the_trees() -> io::Result<()> {
        use crate::diff::select::{select_diff_rows, DiffSelection};
        use crate::diff::Matching;
        use crate::tree::Sparse;
        let (old, new) = crate::diff::tests::changed_pair();
        let (so, sn) = (Sparse(&old), Sparse(&new));
        let opts = ViewOptions {
            depth: None,
            lines: 100,
            reverse: false,
            min_size: None,
            bars: true,
            bars_on_right: true,
            color: false,
            full_paths: true,
            only_dirs: false,
            width: 90,
            skip_total: false,
            dim: false,
            filetime: None,
            collapse: Default::default(),
            units: UnitStyle::HumanIec,
            to_terminal: false,
        };
        let view = DiffBarsView {
            opts: &opts,
            palette: None,
        };
        let sel = DiffSelection {
            max_rows: 100,
            max_depth: None,
            min_change: None,
            only_dirs: false,
            hide_empty: false,
        };
        let m = Matching::new(&old, 1, &new, 1, SizeMode::Disk);
        let d = m.with(&old, &new);
        let (mut bars, mut json) = (Vec::new(), Vec::new());
        view.render(&d, &select_diff_rows(&d, &sel), &mut bars)?;
        crate::render::diff_json::render_diff_json(&d, &sel, &mut json)?;
        let root = Sparse::id(1);
        let m = Matching::new(&so, root, &sn, root, SizeMode::Disk);
        let d = m.with(&so, &sn);
        let (mut sparse_bars, mut sparse_json) = (Vec::new(), Vec::new());
        view.render(&d, &select_diff_rows(&d, &sel), &mut sparse_bars)?;
        crate::render::diff_json::render_diff_json(&d, &sel, &mut sparse_json)?;
        assert!(bars.len() > 500 && json.len() > 500);
        assert_eq!(
            String::from_utf8_lossy(&sparse_bars),
            String::from_utf8_lossy(&bars)
        );
        assert_eq!(
            String::from_utf8_lossy(&sparse_json),
            String::from_utf8_lossy(&json)
        );
        Ok(())
    }
}
