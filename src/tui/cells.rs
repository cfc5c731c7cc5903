//! Text into the screen's cells one code point at a time, so every view measures a name the
//! same way: the sum of its code points' widths (wcwidth, as tmux, screen and ncdu count, and
//! as the bar chart lays names out, `render::escape`).
//!
//! ratatui's own `set_line`/`set_string` put a whole grapheme cluster in one cell, measured
//! by unicode-width's cluster rules: 👍🏽 (a thumb and a skin-tone modifier) is one cell of
//! two columns there, four in a terminal that draws each code point, which then shows the
//! rest of the line two columns off and leaves a stray 🏽 behind. Here each code point with a
//! width has its own cell, so ratatui's layout agrees with such a terminal; a terminal that
//! draws the cluster narrower leaves blank cells, because ratatui's backend moves the cursor
//! explicitly after every wide cell. A zero-width code point (a combining accent) joins the
//! cell before it when that cell's measured width stays the same; otherwise (a variation
//! selector that would make ratatui call the cell wide) it is left out of the cell.

use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::Line;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Writes `line` from column `x` of row `y`, in at most `max` columns; returns the column
/// after it.
pub fn put_line(buf: &mut Buffer, x: u16, y: u16, line: &Line<'_>, max: u16) -> u16 {
    let end = x.saturating_add(max);
    let mut col = x;
    for span in &line.spans {
        let style = line.style.patch(span.style);
        col = put_str(buf, col, y, &span.content, end.saturating_sub(col), style);
    }
    col
}

/// Writes `text` from column `x` of row `y` in `style`, in at most `max` columns (a wide
/// character that would cross the limit is left out); returns the column after it.
pub fn put_str(buf: &mut Buffer, x: u16, y: u16, text: &str, max: u16, style: Style) -> u16 {
    let area = buf.area;
    if y < area.top() || y >= area.bottom() || x < area.left() {
        return x;
    }
    let end = x.saturating_add(max).min(area.right());
    let mut col = x;
    let mut last: Option<u16> = None;
    for c in text.chars() {
        if c.is_control() {
            continue; // (escaped before this; never sent raw)
        }
        let w = c.width().unwrap_or(0) as u16;
        if w == 0 {
            if let Some(at) = last {
                join(&mut buf[(at, y)], c);
            }
            continue;
        }
        if col + w > end {
            break;
        }
        buf[(col, y)].set_char(c).set_style(style);
        for hidden in col + 1..col + w {
            buf[(hidden, y)].reset();
            buf[(hidden, y)].set_style(style);
        }
        last = Some(col);
        col += w;
    }
    col
}

/// Adds a zero-width code point to a cell's symbol, if ratatui then measures the cell as
/// wide as before.
fn join(cell: &mut ratatui::buffer::Cell, c: char) {
    let before = cell.symbol().width();
    let mut symbol = cell.symbol().to_string();
    symbol.push(c);
    if symbol.width() == before {
        cell.set_symbol(&symbol);
    }
}

/// Columns `text` takes by the rule [`put_str`] follows.
pub fn width(text: &str) -> usize {
    text.chars()
        .filter(|c| !c.is_control())
        .map(|c| c.width().unwrap_or(0))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    fn row(text: &str, max: u16) -> Vec<String> {
        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
        put_str(&mut buf, 1, 0, text, max, Style::new());
        buf.content()
            .iter()
            .map(|c| c.symbol().to_string())
            .collect()
    }

    #[test]
    fn every_code_point_with_a_width_has_its_cell() {
        let cells = row("a👍🏽z", 9);
        assert_eq!(cells[..7], [" ", "a", "👍", " ", "🏽", " ", "z"]);
        assert_eq!(width("a👍🏽z"), 6);
        // a combining accent stays on its letter
        assert_eq!(row("e\u{301}x", 9)[1..3], ["e\u{301}", "x"]);
        // a variation selector that would make the cell wide is left out
        assert_eq!(row("\u{2764}\u{fe0f}x", 9)[1..3], ["\u{2764}", "x"]);
    }

    #[test]
    fn a_wide_character_past_the_limit_is_left_out() {
        let cells = row("ab日", 3);
        assert_eq!(cells[..5], [" ", "a", "b", " ", " "]);
    }
}
