//! Boxes drawn over the rows: help, the yes/no questions, the report of a failed delete.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::widgets::{Block, Clear, Widget};

use super::cells::{put_str, width};
use super::state::{AsScan, Overlay, State};
use super::text::{keep_head, keep_tail, path_text as path_of};
use crate::tree::NodeId;

/// Draws the state's overlay, if any, over `area`.
pub fn draw<T: AsScan>(buf: &mut Buffer, area: Rect, state: &State<T>) {
    match state.overlay() {
        Overlay::None => {}
        Overlay::Help => draw_help(buf, area, state.display().scroll()),
        Overlay::ConfirmQuit => draw_box(
            buf,
            area,
            "Quit?",
            &[
                match state.marks().len() {
                    0 => "The scan was stopped: what it found is shown.".to_string(),
                    1 => "1 entry is marked.".to_string(),
                    n => format!("{n} entries are marked."),
                },
                "Quit anyway?  y: yes   any other key: no".into(),
            ],
            Color::Yellow,
        ),
        Overlay::Confirm { targets, trash } => {
            // (asked only of the in-memory scan: nothing else is deleted)
            let Some(state) = T::scan_state(state) else {
                return;
            };
            // a path keeps its end, the name: the box's borders, margin and indent are 5
            let room = usize::from(area.width).saturating_sub(5);
            let (title, lines) = confirm_lines(state, targets, *trash, room);
            draw_box(buf, area, &title, &lines, Color::Red)
        }
        Overlay::Report(lines) => draw_box(buf, area, "Not everything went", lines, Color::Red),
        Overlay::Owners { title, lines } | Overlay::Item { title, lines } => {
            draw_box(buf, area, title, lines, Color::Cyan)
        }
        Overlay::Errors => {
            let title = format!(
                "Could not be read: {} (any key closes)",
                state.work().errors().len()
            );
            draw_box(
                buf,
                area,
                &title,
                &state.work().error_lines(area.height),
                Color::Red,
            )
        }
    }
}

fn confirm_lines(
    state: &State,
    targets: &[NodeId],
    trash: bool,
    room: usize,
) -> (String, Vec<String>) {
    let effect = state.tree().removal(targets);
    let verb = if trash { "Move to the trash" } else { "Delete" };
    // --extents: what is really freed, the bytes only the targets hold
    let words = match super::extents::freed(state.tree(), targets) {
        Some(f) if !trash && super::extents::shown(state) => {
            super::extents::words(state, f, targets.len())
        }
        _ => state.removal_words(&effect, trash),
    };
    let mut lines = vec![format!(
        "{verb} {} {} ({words})?",
        targets.len(),
        if targets.len() == 1 {
            "entry"
        } else {
            "entries"
        },
    )];
    for &id in targets.iter().take(5) {
        lines.push(format!("  {}", keep_tail(&path_of(state, id), room)));
    }
    if targets.len() > 5 {
        lines.push(format!("  … and {} more", targets.len() - 5));
    }
    lines.push(String::new());
    lines.push("y: yes    any other key: No".into());
    (format!(" {verb}? "), lines)
}

/// The keys and the row marks, from line `scroll` on when they do not fit: the title says
/// how to scroll then.
fn draw_help(buf: &mut Buffer, area: Rect, scroll: usize) {
    let lines = super::help::LINES;
    let room = usize::from(area.height.saturating_sub(2));
    if lines.len() <= room {
        let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        return draw_box(buf, area, "Keys (q or Esc closes)", &lines, Color::Cyan);
    }
    let first = scroll.min(lines.len() - room);
    let shown: Vec<String> = lines[first..first + room]
        .iter()
        .map(|l| l.to_string())
        .collect();
    let title = format!(
        "Keys {}-{}/{} (j k scroll, other keys close)",
        first + 1,
        first + room,
        lines.len()
    );
    draw_box(buf, area, &title, &shown, Color::Cyan)
}

/// A bordered box in the middle of the screen (cut to fit a small one).
fn draw_box(buf: &mut Buffer, area: Rect, title: &str, lines: &[String], color: Color) {
    let text_w = lines.iter().map(|l| width(l)).max().unwrap_or(0);
    let w = (text_w as u16 + 4)
        .max(width(title) as u16 + 4)
        .min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    Clear.render(rect, buf);
    let block = Block::bordered().border_style(Style::new().fg(color));
    let inner = block.inner(rect);
    block.render(rect, buf);
    // the title drawn as names are (it may hold a path): on the top border, after its corner
    let title = keep_head(title, usize::from(rect.width.saturating_sub(2)));
    put_str(
        buf,
        rect.x + 1,
        rect.y,
        &title,
        rect.width.saturating_sub(2),
        Style::new(),
    );
    // a blank column inside the left border; lines cut to what is left, `…` included
    let text_area = Rect {
        x: inner.x + 1,
        width: inner.width.saturating_sub(1),
        ..inner
    };
    for (i, l) in lines.iter().take(usize::from(text_area.height)).enumerate() {
        let cut = keep_head(l, usize::from(text_area.width));
        let y = text_area.y + i as u16;
        put_str(buf, text_area.x, y, &cut, text_area.width, Style::new());
    }
}
