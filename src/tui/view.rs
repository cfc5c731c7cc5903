//! State → widgets. Draws only what is on screen: a frame costs the same for a directory of
//! ten entries or of a million. Every name goes through `render::escape` first, so control
//! characters and escape sequences in names never reach the terminal.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};
use ratatui::Frame;

use super::cells::{put_line, put_str};
use super::diff::{Change, Delta};
use super::shown::READ_ONLY;
use super::state::{AsScan, Can, State};
use super::style::Styles;
pub use super::text::display;
use super::text::{keep_tail, path_text as path_of};
use crate::render::diff::signed_size;
use crate::tree::Tree;

/// Where each part of the screen goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Areas {
    pub header: Rect,
    pub list: Rect,
    pub marks: Rect,
    pub footer: Rect,
}

const HEADER_LINES: u16 = 2;

/// Splits the screen: two header lines, the rows, the mark pane (when something is marked
/// and there is room), one footer line.
pub fn layout<T: AsScan>(area: Rect, state: &State<T>) -> Areas {
    let header = Rect {
        height: area.height.min(HEADER_LINES),
        ..area
    };
    let footer_h = u16::from(area.height > HEADER_LINES);
    let footer = Rect {
        y: area.bottom().saturating_sub(footer_h),
        height: footer_h,
        ..area
    };
    let middle_top = header.bottom();
    let middle_h = footer.y.saturating_sub(middle_top);
    let marks_h = if state.marks().is_empty() || area.height < 16 {
        0
    } else {
        (state.marks().len() as u16 + 2).min(middle_h / 3)
    };
    let list = Rect {
        y: middle_top,
        height: middle_h - marks_h,
        ..area
    };
    let marks = Rect {
        y: list.bottom(),
        height: marks_h,
        ..area
    };
    Areas {
        header,
        list,
        marks,
        footer,
    }
}

/// Draws the whole screen.
pub fn draw<T: AsScan>(frame: &mut Frame<'_>, state: &State<T>, styles: &Styles) {
    let area = frame.area();
    let areas = layout(area, state);
    let buf = frame.buffer_mut();
    draw_header(buf, areas.header, state);
    super::rows::draw_rows(buf, areas.list, state, styles);
    draw_marks(buf, areas.marks, state);
    draw_footer(buf, areas.footer, state);
    super::overlay::draw(buf, area, state);
}

fn draw_header<T: AsScan>(buf: &mut Buffer, area: Rect, state: &State<T>) {
    if area.height == 0 {
        return;
    }
    let w = area.width as usize;
    let path = keep_tail(&path_of(state, state.dir()), w.saturating_sub(6));
    let line = Line::from(vec![
        Span::styled(" hogs ", Style::new().bg(Color::Blue).fg(Color::White)),
        Span::raw(" "),
        Span::styled(path, Style::new().add_modifier(Modifier::BOLD)),
    ]);
    put_line(buf, area.x, area.y, &line, area.width);
    if area.height < 2 {
        return;
    }
    let node = state.node(state.dir());
    let mode = match state.mode() {
        crate::vocab::SizeMode::Disk => "disk",
        crate::vocab::SizeMode::Apparent => "apparent",
        crate::vocab::SizeMode::Count => "count",
        crate::vocab::SizeMode::Time => "time",
    };
    // the directory counted with what is in it, as `-f`, the page and `find` count
    let entries = u64::from(node.entries);
    let count = crate::units::format_size(
        entries,
        crate::vocab::SizeMode::Count,
        state.display().units(),
    );
    let totals = format!(
        " {} · {count} {}",
        state.format(node.size(state.mode())),
        if entries == 1 { "entry" } else { "entries" },
    );
    let (status, color) = scan_status(state);
    let mut rest = format!(
        " · {mode}{} · by {}",
        super::extents::header(state),
        state.sort_label()
    );
    if let Some(what) = state.work().busy() {
        rest.push_str(&format!(" · {what}…"));
    }
    if let Some((state, delta)) = T::scan_state(state).and_then(|s| Some((s, s.delta()?))) {
        rest.push_str(&header_change(state, delta));
    }
    // the scan's state right after the totals: a narrow screen cuts the rest first
    let line = Line::from(vec![
        Span::styled(totals, Style::new().fg(Color::Gray)),
        Span::styled(status, Style::new().fg(color)),
        Span::styled(rest, Style::new().fg(Color::Gray)),
    ]);
    put_line(buf, area.x, area.y + 1, &line, area.width);
}

/// What the header says of the scan: running (its totals are the directory's, summed as
/// it goes: one total on the line), stopping, stopped, what it could not read, imported.
fn scan_status<T: AsScan>(state: &State<T>) -> (String, Color) {
    let scan = state.scan();
    if scan.running && scan.stopped {
        (" · stopping…".to_string(), Color::Yellow)
    } else if scan.running {
        (" · scanning…".to_string(), Color::Yellow)
    } else if scan.stopped {
        (" · INCOMPLETE: scan stopped".to_string(), Color::Red)
    } else if scan.errors > 0 {
        (
            format!(" · {} unreadable (e lists)", scan.errors),
            Color::Red,
        )
    } else if state.imported() {
        (" · imported".to_string(), Color::Reset)
    } else {
        (String::new(), Color::Reset)
    }
}

/// ` · Δ +1.2Gi · 3 removed (40Mi)` for the current directory.
fn header_change(state: &State<Tree>, delta: &Delta) -> String {
    if state.scan().running {
        return " · Δ after the scan".into();
    }
    let mut text = match delta.change(state.tree(), state.dir()) {
        Some(Change::Size(d)) => format!(
            " · Δ {}",
            signed_size(d, state.mode(), state.display().units())
        ),
        Some(Change::Removed(d)) => {
            format!(
                " · removed: Δ {}",
                signed_size(d, state.mode(), state.display().units())
            )
        }
        Some(Change::Added) => " · Δ new".into(),
        None => return String::new(),
    };
    let (removed, size) = delta.removed_in(state.tree(), state.dir());
    if removed > 0 {
        text.push_str(&format!(" · {removed} removed ({})", state.format(size)));
    }
    text
}

fn draw_marks<T: AsScan>(buf: &mut Buffer, area: Rect, state: &State<T>) {
    if area.height == 0 {
        return;
    }
    let total = state.marks().total(state.tree(), state.mode());
    let title = format!(
        " Marked: {} · {} · d delete, t trash ",
        state.marks().len(),
        state.format(total)
    );
    let block = Block::new()
        .borders(Borders::TOP)
        .title(title)
        .border_style(Style::new().fg(Color::Yellow));
    let inner = block.inner(area);
    block.render(area, buf);
    let w = inner.width as usize;
    for (i, id) in state.marks().iter().take(inner.height as usize).enumerate() {
        let size = state.format(state.tree().size(id, state.mode()));
        let path = keep_tail(&path_of(state, id), w.saturating_sub(size.len() + 2));
        put_str(
            buf,
            inner.x,
            inner.y + i as u16,
            &format!("{size:>7} {path}"),
            inner.width,
            Style::new(),
        );
    }
}

/// The keys the footer offers: only what works (no delete with `--no-delete` or a saved
/// scan, no rescan of a saved scan), and why on a read-only tree.
fn footer_keys<T: AsScan>(state: &State<T>) -> String {
    let mut keys = vec!["?:help", "␣:mark"];
    if state.allow_delete() {
        keys.push("d:delete");
    }
    if state.capabilities().rescan == Can::Yes {
        keys.push("r:rescan");
    }
    keys.extend(["/:filter", "q:quit"]);
    if state.read_only_tree() {
        keys.push("·");
        keys.push(READ_ONLY);
    }
    keys.join(" ")
}

/// ` disk 1.2Gi · apparent 1.1Gi ` of the directory shown (nothing when only entries were
/// counted, `-f`).
fn footer_totals<T: AsScan>(state: &State<T>) -> String {
    let node = state.node(state.dir());
    let units = state.display().units();
    let size = |v| crate::units::format_size(v, crate::vocab::SizeMode::Disk, units);
    match state.mode() {
        crate::vocab::SizeMode::Count => String::new(),
        _ => format!(
            " disk {} · apparent {} ",
            size(node.disk),
            size(node.apparent)
        ),
    }
}

fn draw_footer<T: AsScan>(buf: &mut Buffer, area: Rect, state: &State<T>) {
    if area.height == 0 {
        return;
    }
    let (left, style) = if state.display().filter().editing || state.display().filter().is_active()
    {
        let cursor = if state.display().filter().editing {
            "▏"
        } else {
            ""
        };
        (
            format!(
                "/{}{cursor}  {} shown · Esc clears",
                state.display().filter().text.escape_debug(),
                state.rows().len()
            ),
            Style::new().fg(Color::Cyan),
        )
    } else if let Some(m) = state.display().message() {
        (m.to_string(), Style::new().fg(Color::Yellow))
    } else {
        (footer_keys(state), Style::new().fg(Color::DarkGray))
    };
    let right = (!state.marks().is_empty()).then(|| {
        format!(
            " {} marked ({}) ",
            state.marks().len(),
            state.format(state.marks().total(state.tree(), state.mode()))
        )
    });
    let right_w = right.as_ref().map_or(0, |r| r.len() as u16);
    if right_w >= area.width {
        put_str(buf, area.x, area.y, &left, area.width, style);
        return;
    }
    // the message stops where the count begins: no wide character cut in half under it
    put_str(buf, area.x, area.y, &left, area.width - right_w, style);
    // the totals of the directory shown, as ncdu and gdu, where they fit beside the rest
    let totals = footer_totals(state);
    let totals_w = super::cells::width(&totals) as u16;
    if super::cells::width(&left) as u16 + totals_w + right_w <= area.width {
        let x = area.right() - right_w - totals_w;
        let gray = Style::new().fg(Color::Gray);
        put_str(buf, x, area.y, &totals, totals_w, gray);
    }
    if let Some(right) = right {
        let style = Style::new().fg(Color::Black).bg(Color::Yellow);
        put_str(buf, area.right() - right_w, area.y, &right, right_w, style);
    }
}
