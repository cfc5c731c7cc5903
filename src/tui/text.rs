//! Names and paths as the view's widgets show them: escaped (a name never drives the
//! terminal), valid UTF-8, cut to the room there is. Read by the screen ([`super::view`]) and
//! by the boxes drawn over it ([`super::overlay`]).

use unicode_width::UnicodeWidthChar;

use super::state::{AsScan, State};
use crate::render::escape::{escape, shown, truncate};

/// A name or path as it may be shown: escaped, valid UTF-8.
pub fn display(bytes: &[u8]) -> String {
    shown(bytes, true)
}

/// The path of an entry as shown (escaped); `(all paths)` for the total of several roots.
pub fn path_text<T: AsScan>(state: &State<T>, id: T::Id) -> String {
    if id == state.tree().total() {
        return "(all paths)".into();
    }
    display(&state.path(id))
}

/// Cut to `max` columns keeping the end (paths: the interesting part is the tail).
pub fn keep_tail(text: &str, max: usize) -> String {
    let width: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    if width <= max {
        return text.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut kept = Vec::new();
    let mut w = 0;
    for c in text.chars().rev() {
        let cw = c.width().unwrap_or(0);
        if w + cw > max - 1 {
            break;
        }
        w += cw;
        kept.push(c);
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

/// Cut to `max` columns keeping the start, escaped.
pub fn keep_head(text: &str, max: usize) -> String {
    let (cut, _) = truncate(&escape(text.as_bytes(), false), max);
    String::from_utf8_lossy(&cut).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_keep_the_end_by_width() {
        assert_eq!(keep_tail("abcdef", 4), "…def");
        assert_eq!(keep_tail("ab日本", 4), "…本");
        assert_eq!(keep_tail("abc", 3), "abc");
    }
}
