//! Making hostile names safe to print, and measuring them in terminal columns.
//!
//! Every writer that can reach a terminal (bars, errors, progress) goes through [`escape`]:
//! control characters (newline, ESC, C1), bidi overrides and zero-width characters never reach
//! the output raw; they are written as `\n`, `\x1b`, `\u{202e}`. Bytes that are not UTF-8 are
//! written as `\xff` on a terminal and passed through raw when the output is a pipe or a file
//! (so scripts get the real name back). Messages and widgets, which hold text, take
//! [`shown`].

use std::borrow::Cow;

use unicode_width::UnicodeWidthChar;

/// A printable form of a name and its width in terminal columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escaped<'a> {
    pub bytes: Cow<'a, [u8]>,
    pub width: usize,
}

/// Characters that are printable but rearrange or hide text: shown as `\u{…}`.
fn is_deceptive(c: char) -> bool {
    matches!(c,
        '\u{200b}'..='\u{200f}' // zero-width space/joiners, LRM/RLM
        | '\u{2028}'..='\u{202e}' // line/paragraph separators, bidi embeddings and overrides
        | '\u{2060}'..='\u{2064}' // word joiner, invisible operators
        | '\u{2066}'..='\u{2069}' // bidi isolates
        | '\u{feff}' // zero-width no-break space
        | '\u{00ad}' // soft hyphen
    )
}

fn push_char_escape(out: &mut Vec<u8>, c: char) -> usize {
    let s = match c {
        '\n' => "\\n".to_string(),
        '\t' => "\\t".to_string(),
        '\r' => "\\r".to_string(),
        c if (c as u32) < 0x100 => format!("\\x{:02x}", c as u32),
        c => format!("\\u{{{:x}}}", c as u32),
    };
    out.extend_from_slice(s.as_bytes());
    s.len()
}

/// Escapes `name` for display. `raw_invalid`: pass non-UTF-8 bytes through unchanged.
pub fn escape(name: &[u8], raw_invalid: bool) -> Escaped<'_> {
    if name.iter().all(|&b| (0x20..0x7f).contains(&b)) {
        return Escaped {
            bytes: Cow::Borrowed(name),
            width: name.len(),
        };
    }
    let mut out = Vec::with_capacity(name.len() + 8);
    let mut width = 0;
    for chunk in name.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() || is_deceptive(c) {
                width += push_char_escape(&mut out, c);
            } else {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                width += c.width().unwrap_or(0);
            }
        }
        for &b in chunk.invalid() {
            if raw_invalid {
                out.push(b);
                width += 1;
            } else {
                out.extend_from_slice(format!("\\x{b:02x}").as_bytes());
                width += 4;
            }
        }
    }
    Escaped {
        bytes: Cow::Owned(out),
        width,
    }
}

/// A name or path as a message or a widget shows it: escaped, as text. Bytes that are not
/// UTF-8 are `\xff` on a terminal; elsewhere they pass [`escape`] raw and become U+FFFD here
/// (a message is text: the raw bytes are in the output itself).
pub fn shown(name: &[u8], to_terminal: bool) -> String {
    String::from_utf8_lossy(&escape(name, !to_terminal).bytes).into_owned()
}

/// Cuts escaped text to at most `max` columns, ending with `…` when something was cut.
pub fn truncate(text: &Escaped<'_>, max: usize) -> (Vec<u8>, usize) {
    cut(text, max, "…")
}

/// Cuts escaped text to at most `max` columns as dust cuts a name: the characters that fit
/// in `max - 2` columns, then `..`.
pub fn truncate_dotted(text: &Escaped<'_>, max: usize) -> (Vec<u8>, usize) {
    cut(text, max, "..")
}

/// `text` in at most `max` columns: whole, or the characters that fit before `marker`, then
/// `marker`; nothing when not even `marker` fits.
fn cut(text: &Escaped<'_>, max: usize, marker: &str) -> (Vec<u8>, usize) {
    if text.width <= max {
        return (text.bytes.to_vec(), text.width);
    }
    let marker_w = str_width(marker);
    let Some(budget) = max.checked_sub(marker_w) else {
        return (Vec::new(), 0);
    };
    let mut out = Vec::with_capacity(budget + marker.len());
    let mut width = 0;
    'chunks: for chunk in text.bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let w = c.width().unwrap_or(0);
            if width + w > budget {
                break 'chunks;
            }
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            width += w;
        }
        for &b in chunk.invalid() {
            if width + 1 > budget {
                break 'chunks;
            }
            out.push(b);
            width += 1;
        }
    }
    out.extend_from_slice(marker.as_bytes());
    (out, width + marker_w)
}

/// Text width of a `str` in columns (for tree-drawing prefixes and units).
pub fn str_width(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn esc(b: &[u8], raw: bool) -> (String, usize) {
        let e = escape(b, raw);
        (String::from_utf8_lossy(&e.bytes).into_owned(), e.width)
    }

    #[test]
    fn plain_names_pass_unchanged() {
        assert_eq!(esc(b"hello.txt", false), ("hello.txt".into(), 9));
    }

    #[test]
    fn controls_and_escapes_are_defused() {
        assert_eq!(esc(b"a\nb", true).0, "a\\nb");
        assert_eq!(esc(b"\x1b]0;pwned\x07", true).0, "\\x1b]0;pwned\\x07");
        assert_eq!(esc("x\u{202e}y".as_bytes(), true).0, "x\\u{202e}y");
        assert_eq!(esc("\u{9b}31m".as_bytes(), true).0, "\\x9b31m");
        let e = escape(b"\x1b[2J", true);
        assert!(!e.bytes.contains(&0x1b));
    }

    #[test]
    fn invalid_utf8_raw_only_when_asked() {
        assert_eq!(escape(b"a\xffb", true).bytes.as_ref(), b"a\xffb");
        assert_eq!(esc(b"a\xffb", false), ("a\\xffb".into(), 6));
    }

    #[test]
    fn wide_characters_count_two_columns() {
        assert_eq!(esc("日本".as_bytes(), false).1, 4);
        let (cut, w) = truncate(&escape("日本語テキスト".as_bytes(), false), 7);
        assert_eq!(
            (String::from_utf8(cut).unwrap_or_default(), w),
            ("日本語…".into(), 7)
        );
        // dust's cut: what fits in two columns less, then ".."
        let (cut, w) = truncate_dotted(&escape("日本語テキスト".as_bytes(), false), 7);
        assert_eq!(
            (String::from_utf8(cut).unwrap_or_default(), w),
            ("日本..".into(), 6)
        );
        let whole = truncate_dotted(&escape(b"abc", false), 3);
        assert_eq!(whole, (b"abc".to_vec(), 3));
        assert_eq!(
            truncate_dotted(&escape(b"abcd", false), 3),
            (b"a..".to_vec(), 3)
        );
    }
}
