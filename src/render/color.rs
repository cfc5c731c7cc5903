//! Name colours from `LS_COLORS`, as ANSI sequences (only used when colour was decided on).

use lscolors::{Color, Indicator, LsColors, Style};

use crate::tree::EntryKind;

pub struct Palette {
    colors: LsColors,
}

impl Palette {
    pub fn from_env() -> Palette {
        Palette {
            colors: LsColors::from_env().unwrap_or_default(),
        }
    }

    /// The SGR sequence that starts this entry's colour, if it has one.
    pub fn start(&self, kind: EntryKind, name: &[u8]) -> Option<String> {
        let style = match kind {
            EntryKind::Dir => self.colors.style_for_indicator(Indicator::Directory),
            EntryKind::Symlink => self.colors.style_for_indicator(Indicator::SymbolicLink),
            EntryKind::Other => self.colors.style_for_indicator(Indicator::FIFO),
            EntryKind::File => std::str::from_utf8(name)
                .ok()
                .and_then(|n| self.colors.style_for_str(n))
                .or_else(|| self.colors.style_for_indicator(Indicator::RegularFile)),
        }?;
        sgr(style)
    }
}

pub const RESET: &str = "\x1b[0m";

/// The size of the biggest of a set of siblings, as dust paints it (ansi_term's `Red`).
pub const SIZE_RED: &str = "\x1b[31m";

fn color_code(c: &Color, fg: bool) -> String {
    let base = if fg { 30 } else { 40 };
    match *c {
        Color::Black => (base).to_string(),
        Color::Red => (base + 1).to_string(),
        Color::Green => (base + 2).to_string(),
        Color::Yellow => (base + 3).to_string(),
        Color::Blue => (base + 4).to_string(),
        Color::Magenta => (base + 5).to_string(),
        Color::Cyan => (base + 6).to_string(),
        Color::White => (base + 7).to_string(),
        Color::BrightBlack => (base + 60).to_string(),
        Color::BrightRed => (base + 61).to_string(),
        Color::BrightGreen => (base + 62).to_string(),
        Color::BrightYellow => (base + 63).to_string(),
        Color::BrightBlue => (base + 64).to_string(),
        Color::BrightMagenta => (base + 65).to_string(),
        Color::BrightCyan => (base + 66).to_string(),
        Color::BrightWhite => (base + 67).to_string(),
        Color::Fixed(n) => format!("{};5;{n}", base + 8),
        Color::RGB(r, g, b) => format!("{};2;{r};{g};{b}", base + 8),
    }
}

fn sgr(style: &Style) -> Option<String> {
    let mut codes: Vec<String> = Vec::new();
    let f = &style.font_style;
    for (on, code) in [
        (f.bold, "1"),
        (f.dimmed, "2"),
        (f.italic, "3"),
        (f.underline, "4"),
        (f.reverse, "7"),
    ] {
        if on {
            codes.push(code.to_string());
        }
    }
    if let Some(c) = &style.foreground {
        codes.push(color_code(c, true));
    }
    if let Some(c) = &style.background {
        codes.push(color_code(c, false));
    }
    (!codes.is_empty()).then(|| format!("\x1b[{}m", codes.join(";")))
}
