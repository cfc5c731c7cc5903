//! The rows of the current directory as the view draws them: size, share, the optional
//! columns (sharing, change, bar, count, mtime), flags and the name cut to what is left.
//! Only the rows on screen are measured and drawn.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::cells::put_line;
use super::diff::Change;
use super::listing::SortKey;
use super::shown::removed;
use super::state::{AsScan, State};
use super::style::Styles;
use crate::render::diff::signed_size;
use crate::render::escape::{escape, str_width, truncate};
use crate::tree::{flags, EntryKind};

/// Widths of the optional columns at a screen width.
fn bar_width(width: u16) -> usize {
    match width {
        0..=55 => 0,
        56..=79 => 10,
        80..=119 => 16,
        120..=159 => 24,
        // a wide terminal: a fifth of it (40 cells at 200 columns)
        _ => usize::from(width / 5).min(64),
    }
}

/// From this width on the count and mtime columns are shown without asking: the room is
/// there (at 200 columns ~140 stayed empty).
const WIDE: u16 = 160;

/// `YYYY-MM-DD` in local time (TZ, /etc/localtime) of a time in seconds since the epoch, as
/// the printed views write `-m`'s dates.
pub fn date(secs: i64) -> String {
    use chrono::{Local, TimeZone};
    match Local.timestamp_opt(secs, 0).earliest() {
        Some(t) if secs > 0 => t.format("%Y-%m-%d").to_string(),
        _ => "         -".into(),
    }
}

fn flag_char<T: AsScan>(state: &State<T>, id: T::Id) -> char {
    let n = state.node(id);
    if n.has(flags::UNREADABLE) {
        '!'
    } else if n.has(flags::OTHER_FS) {
        '>'
    } else if flags::is_left_unscanned(n.flags()) {
        '<' // left out (-X) by a part of a merge, scanned by no part: ncdu's mark of excluded
    } else if n.has(flags::UNSCANNED) {
        '~' // between the parts of a merge of scans: scanned by none
    } else if n.kind() == EntryKind::Symlink {
        '@'
    } else if n.has(flags::HARDLINK) {
        'H'
    } else {
        ' '
    }
}

/// The change column of one row, and its colour.
fn change_text<T: AsScan>(state: &State<T>, change: Option<Change>) -> (String, Color) {
    match change {
        None => (String::new(), Color::Reset),
        Some(Change::Added) => ("new".into(), Color::Cyan),
        Some(Change::Size(0)) => ("=".into(), Color::DarkGray),
        Some(Change::Size(d) | Change::Removed(d)) => (
            signed_size(d, state.mode(), state.display().units()),
            if d > 0 { Color::Red } else { Color::Green },
        ),
    }
}

/// The old size of a removed row's directory: what its percentage is of.
fn removed_parent_size<T: AsScan>(state: &State<T>, id: T::Id) -> u64 {
    let old = state.delta().map(|d| d.old());
    match (removed::<T>(id), old) {
        (Some(o), Some(old)) if (o as usize) < old.len() => {
            old.node(old.parent(o)).size(state.mode())
        }
        _ => 0,
    }
}

fn bar(filled: f64, width: usize) -> String {
    let full = (filled.clamp(0.0, 1.0) * width as f64).round() as usize;
    let mut s = "█".repeat(full);
    s.push_str(&"░".repeat(width - full));
    s
}

pub fn draw_rows<T: AsScan>(buf: &mut Buffer, area: Rect, state: &State<T>, styles: &Styles) {
    let rows = state.rows();
    if rows.is_empty() {
        let text = if state.display().filter().is_active() {
            "  no entry matches the filter"
        } else if state.scan().running {
            "  (nothing read here yet)"
        } else {
            "  (empty)"
        };
        if area.height > 0 {
            buf.set_string(area.x, area.y, text, Style::new().fg(Color::DarkGray));
        }
        return;
    }
    let end = (state.nav().offset() + area.height as usize).min(rows.len());
    let visible = &rows[state.nav().offset()..end];
    let columns = Columns::of(state, visible, area.width);
    for (i, &id) in visible.iter().enumerate() {
        let y = area.y + i as u16;
        let line = row_line(state, styles, &columns, i, id, area.width);
        let line_area = Rect {
            y,
            height: 1,
            ..area
        };
        put_line(buf, area.x, y, &line, area.width);
        if state.is_removed_row(id) {
            // not on the disk: the whole row dimmed
            buf.set_style(line_area, Style::new().add_modifier(Modifier::DIM));
        }
        if state.nav().offset() + i == state.cursor() {
            mark_cursor(buf, line_area, styles.colored(), columns.bar_cells());
        }
    }
}

/// The background of the cursor's row.
pub const CURSOR_BG: Color = Color::DarkGray;

/// Marks the cursor's row without turning its bar inside out (reverse video draws `█` as an
/// empty cell and `░` as a full one): a background colour, text left in the terminal's
/// colour made white on it. Without colours (`-c`, `NO_COLOR`) the row is reversed but for
/// the bar's cells (`bar`, counted from the row's start).
fn mark_cursor(buf: &mut Buffer, row: Rect, colored: bool, bar: std::ops::Range<u16>) {
    for x in row.left()..row.right() {
        let cell = &mut buf[(x, row.y)];
        if colored {
            if cell.fg == Color::Reset {
                cell.set_fg(Color::White);
            }
            cell.set_bg(CURSOR_BG);
        } else if !bar.contains(&(x - row.left())) {
            cell.modifier.insert(Modifier::REVERSED);
        }
    }
}

/// What the columns of the visible rows share: their texts measured together.
struct Columns {
    /// The size of every visible row, formatted.
    sizes: Vec<String>,
    size_w: usize,
    bar_w: usize,
    /// The change of every visible row, when a comparison is shown.
    changes: Option<Vec<(String, Color)>>,
    change_w: usize,
    /// `--extents`: the `excl` and `shared` cells of every visible row.
    sharing: Option<Vec<String>>,
    /// The current directory's size: what a row's percentage is of.
    dir_size: u64,
    /// The biggest row's size: what fills a bar.
    largest: u64,
    /// The item count and mtime columns, when asked for and there is room.
    count: bool,
    mtime: bool,
}

/// The fewest columns a name keeps before the optional columns give way to it.
const NAME_ROOM: usize = 12;

impl Columns {
    fn of<T: AsScan>(state: &State<T>, visible: &[T::Id], width: u16) -> Columns {
        let src = state.source();
        let sort = state.display().sort().key;
        let sizes: Vec<String> = visible
            .iter()
            .map(|&id| state.format(src.node(id).size(state.mode())))
            .collect();
        let changes: Option<Vec<(String, Color)>> = src.shown_delta().map(|_| {
            visible
                .iter()
                .map(|&id| change_text(state, src.change(id)))
                .collect()
        });
        let change_w = changes
            .iter()
            .flatten()
            .map(|(t, _)| t.len())
            .max()
            .unwrap_or(0)
            .max(6);
        let mut cols = Columns {
            size_w: sizes.iter().map(String::len).max().unwrap_or(0).max(5),
            sizes,
            bar_w: bar_width(width),
            changes,
            change_w,
            sharing: super::extents::cells(state, visible),
            dir_size: src.node(state.dir()).size(state.mode()),
            largest: state.largest(),
            // a sort by a column shows it
            // (on a wide screen `c` and `M` hide them)
            count: (state.display().show_count() != (width >= WIDE)) || sort == SortKey::Count,
            mtime: (state.display().show_mtime() != (width >= WIDE)) || sort == SortKey::Mtime,
        };
        cols.make_room(width as usize);
        cols
    }

    /// The cells of the bar in a row (empty without one).
    fn bar_cells(&self) -> std::ops::Range<u16> {
        let change = self.changes.as_ref().map_or(0, |_| self.change_w + 1);
        let start = self.size_w + 8 + self.sharing_w() + change;
        let end = start + self.bar_w;
        u16::try_from(start).unwrap_or(u16::MAX)..u16::try_from(end).unwrap_or(u16::MAX)
    }

    fn sharing_w(&self) -> usize {
        self.sharing
            .as_ref()
            .map_or(0, |c| c.iter().map(|t| str_width(t)).max().unwrap_or(0))
    }

    /// Columns before the name: size, share, sharing, change, bar, count, mtime, flags.
    fn used(&self) -> usize {
        let sharing = self.sharing_w();
        let change = self.changes.as_ref().map_or(0, |_| self.change_w + 1);
        let bar = if self.bar_w > 0 { self.bar_w + 1 } else { 0 };
        self.size_w
            + 8
            + sharing
            + change
            + bar
            + 7 * usize::from(self.count)
            + 11 * usize::from(self.mtime)
            + 2
    }

    /// Names first: on a narrow screen the mtime column goes, then the count column, rather
    /// than the names (rows of numbers with nothing to say whose they are).
    fn make_room(&mut self, width: usize) {
        if width.saturating_sub(self.used()) < NAME_ROOM {
            self.mtime = false;
        }
        if width.saturating_sub(self.used()) < NAME_ROOM {
            self.count = false;
        }
    }
}

/// The `i`th visible row, entry `id`: size, share, change, bar, optional columns, flags and
/// the name cut to what is left of `width`.
fn row_line<T: AsScan>(
    state: &State<T>,
    styles: &Styles,
    cols: &Columns,
    i: usize,
    id: T::Id,
    width: u16,
) -> Line<'static> {
    let src = state.source();
    let n = src.node(id);
    let removed = state.is_removed_row(id);
    let value = n.size(state.mode());
    // a removed entry's share of its directory as it was
    let parent_size = match removed {
        true => removed_parent_size(state, id),
        false => cols.dir_size,
    };
    let pct = if parent_size > 0 {
        value as f64 * 100.0 / parent_size as f64
    } else {
        0.0
    };
    let marked = state.marks().contains(id);
    let (size, size_w, change_w) = (&cols.sizes[i], cols.size_w, cols.change_w);
    let mut spans = vec![Span::raw(format!("{size:>size_w$} {pct:>5.1}% "))];
    if let Some(cells) = &cols.sharing {
        spans.push(Span::styled(cells[i].clone(), Style::new().fg(Color::Cyan)));
    }
    if let Some(changes) = &cols.changes {
        let (text, color) = &changes[i];
        spans.push(Span::styled(
            format!("{text:>change_w$} "),
            Style::new().fg(*color),
        ));
    }
    if cols.bar_w > 0 {
        let fill = if cols.largest > 0 {
            value as f64 / cols.largest as f64
        } else {
            0.0
        };
        spans.push(Span::styled(
            bar(fill, cols.bar_w),
            Style::new().fg(Color::Green),
        ));
        spans.push(Span::raw(" "));
    }
    if cols.count {
        spans.push(Span::raw(format!(
            "{:>6} ",
            crate::units::format_size(
                n.entries as u64,
                crate::vocab::SizeMode::Count,
                state.display().units()
            )
        )));
    }
    if cols.mtime {
        spans.push(Span::raw(format!("{} ", date(n.mtime))));
    }
    let mark = if marked { '*' } else { ' ' };
    spans.push(Span::styled(
        format!("{mark}{}", flag_char(state, id)),
        Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
    ));
    let used: usize = spans.iter().map(|s| s.width()).sum();
    let suffix = match (n.is_dir(), removed) {
        (true, true) => "/ (removed)",
        (false, true) => " (removed)",
        (true, false) => "/",
        (false, false) => "",
    };
    let room = (width as usize).saturating_sub(used + suffix.len());
    let name = src.name(id);
    let (cut, _) = truncate(&escape(name, false), room);
    let mut name_style = styles.for_entry(n.kind(), name);
    if marked {
        name_style = name_style.fg(Color::Yellow).add_modifier(Modifier::BOLD);
    }
    if removed {
        name_style = name_style.fg(Color::DarkGray);
    }
    spans.push(Span::styled(
        format!("{}{suffix}", String::from_utf8_lossy(&cut)),
        name_style,
    ));
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Local dates: the same day as the static view's `-m` (whatever TZ the tests run in).
    #[test]
    fn dates_are_local() {
        assert_eq!(date(0), "         -");
        assert_eq!(date(-5), "         -");
        for secs in [86_400, 951_782_400, 1_700_000_000, 1_700_040_000] {
            let full = crate::units::format_time(secs as u64);
            assert_eq!(date(secs), full[..10], "{secs}: {full}");
        }
    }
}
