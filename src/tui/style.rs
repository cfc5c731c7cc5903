//! Name colours from `LS_COLORS` (as `ls` shows them), as ratatui styles.

use lscolors::{Color as LsColor, Indicator, LsColors};
use ratatui::style::{Color, Modifier, Style};

use crate::tree::EntryKind;

pub struct Styles {
    /// `None`: no colours (`-c`, `NO_COLOR`).
    colors: Option<LsColors>,
}

impl Styles {
    /// Colours from `LS_COLORS`, or ls's defaults when it is unset.
    pub fn from_env() -> Styles {
        Styles {
            colors: Some(LsColors::from_env().unwrap_or_default()),
        }
    }

    /// From an explicit `LS_COLORS` string (tests).
    pub fn from_string(spec: &str) -> Styles {
        Styles {
            colors: Some(LsColors::from_string(spec)),
        }
    }

    pub fn plain() -> Styles {
        Styles { colors: None }
    }

    /// Whether the view is drawn in colours (not with `-c` or `NO_COLOR`).
    pub fn colored(&self) -> bool {
        self.colors.is_some()
    }

    pub fn for_entry(&self, kind: EntryKind, name: &[u8]) -> Style {
        let Some(colors) = &self.colors else {
            return Style::new();
        };
        let style = match kind {
            EntryKind::Dir => colors.style_for_indicator(Indicator::Directory),
            EntryKind::Symlink => colors.style_for_indicator(Indicator::SymbolicLink),
            EntryKind::Other => colors.style_for_indicator(Indicator::FIFO),
            EntryKind::File => std::str::from_utf8(name)
                .ok()
                .and_then(|n| colors.style_for_str(n))
                .or_else(|| colors.style_for_indicator(Indicator::RegularFile)),
        };
        style.map_or_else(Style::new, convert)
    }
}

fn color(c: &LsColor) -> Color {
    match *c {
        LsColor::Black => Color::Black,
        LsColor::Red => Color::Red,
        LsColor::Green => Color::Green,
        LsColor::Yellow => Color::Yellow,
        LsColor::Blue => Color::Blue,
        LsColor::Magenta => Color::Magenta,
        LsColor::Cyan => Color::Cyan,
        LsColor::White => Color::Gray,
        LsColor::BrightBlack => Color::DarkGray,
        LsColor::BrightRed => Color::LightRed,
        LsColor::BrightGreen => Color::LightGreen,
        LsColor::BrightYellow => Color::LightYellow,
        LsColor::BrightBlue => Color::LightBlue,
        LsColor::BrightMagenta => Color::LightMagenta,
        LsColor::BrightCyan => Color::LightCyan,
        LsColor::BrightWhite => Color::White,
        LsColor::Fixed(n) => Color::Indexed(n),
        LsColor::RGB(r, g, b) => Color::Rgb(r, g, b),
    }
}

fn convert(s: &lscolors::Style) -> Style {
    let mut out = Style::new();
    if let Some(fg) = &s.foreground {
        out = out.fg(color(fg));
    }
    if let Some(bg) = &s.background {
        out = out.bg(color(bg));
    }
    let f = &s.font_style;
    for (on, m) in [
        (f.bold, Modifier::BOLD),
        (f.dimmed, Modifier::DIM),
        (f.italic, Modifier::ITALIC),
        (f.underline, Modifier::UNDERLINED),
        (f.reverse, Modifier::REVERSED),
    ] {
        if on {
            out = out.add_modifier(m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ls_colors_map_to_styles() {
        let s = Styles::from_string("di=01;34:ln=36:*.tar=31");
        assert_eq!(
            s.for_entry(EntryKind::Dir, b"x"),
            Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD)
        );
        assert_eq!(
            s.for_entry(EntryKind::Symlink, b"l"),
            Style::new().fg(Color::Cyan)
        );
        assert_eq!(
            s.for_entry(EntryKind::File, b"a.tar"),
            Style::new().fg(Color::Red)
        );
        assert_eq!(
            Styles::plain().for_entry(EntryKind::Dir, b"x"),
            Style::new()
        );
    }
}
