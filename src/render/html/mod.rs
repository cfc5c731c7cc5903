//! `--html FILE`: the scan as one self-contained HTML page — a zoomable treemap and a table of
//! the zoomed directory's children, drawn in the browser from the entries the page holds.
//!
//! The page is a fixed skeleton, style and script (`page.html`, `page.css`, `page.js`,
//! embedded at build time) and one JSON document in a `<script type="application/json">`:
//! the scan's facts, the legend and the pruned tree ([`prune`]), depth-first, each entry an
//! array `[name, size, kind, items, mtime, children, class, old size]`, followed by
//! `exclusive, shared` when the scan counted extents. Names reach the page
//! only as JSON strings (with `<`, `>` and `&` escaped, so nothing in a name ends the script
//! element) and the script puts them in the document as text, never as markup. A
//! Content-Security-Policy of `default-src 'none'` keeps the page from loading anything.

pub mod prune;
pub mod source;

use std::io::{self, Write};

use prune::Kept;
use source::Describe;

use crate::render::escape::escape;
use crate::tree::EntryKind;
use crate::vocab::SizeMode;

const HEAD: &str = include_str!("page_head.html");
const CSS: &str = include_str!("page.css");
const BODY: &str = include_str!("page_body.html");
/// The script, one function in five files: what the page holds, the map, the details and
/// the breadcrumb, the table and the search, the header and the drawing of a zoom.
const JS: [&str; 5] = [
    include_str!("page.js"),
    include_str!("map.js"),
    include_str!("table.js"),
    include_str!("listing.js"),
    include_str!("head.js"),
];

/// Entries the page holds at most (the folded ones come on top): about 3 MB of page, drawn
/// in well under a second.
pub const BUDGET: usize = 50_000;

/// What the page's header says of the scan, and what its colours mean.
pub struct Facts {
    /// The paths scanned, or the files imported.
    pub paths: Vec<Vec<u8>>,
    /// When the page was made (seconds since the epoch).
    pub when: u64,
    pub mode: SizeMode,
    /// The disk sizes are counted by extents (`--extents`, or an export saved with it): each
    /// range of disk once in the scan.
    pub extents: bool,
    /// Units in powers of 1000 (`-o si`) rather than 1024.
    pub si: bool,
    /// The children of the top are paths given, named by themselves (several paths).
    pub total_top: bool,
    /// `--diff`: the total of the earlier scan.
    pub old_total: Option<u64>,
    pub colours: Colours,
    /// Other facts worth a line: filters, `--extents`, the earlier scan.
    pub notes: Vec<String>,
}

/// What the rectangles' colours say.
pub enum Colours {
    /// The kind of entry (files by the kind of their name's extension, in the page).
    Kind,
    /// `--by-owner`: each owner's name and usage, biggest first; the last is "others" when
    /// there are owners past the legend's colours, whose names come second (an entry's class
    /// past the legend is the place of its owner's name there).
    Owner(Vec<(Vec<u8>, u64)>, Vec<Vec<u8>>),
    /// `--diff`: [`source::GROWTH`].
    Growth,
}

/// Writes the page of what `src` holds below its top.
pub fn render_html<S: Describe>(src: &S, facts: &Facts, out: &mut dyn Write) -> io::Result<()> {
    let kept = prune::prune(src, BUDGET);
    out.write_all(HEAD.as_bytes())?;
    out.write_all(CSS.as_bytes())?;
    out.write_all(BODY.as_bytes())?;
    out.write_all(b"<script type=\"application/json\" id=\"hogs-data\">{\"facts\":")?;
    write_facts(facts, src.size(src.top()), out)?;
    out.write_all(b",\"nodes\":[")?;
    for (i, k) in kept.iter().enumerate() {
        if i > 0 {
            out.write_all(b",\n")?;
        }
        write_kept(src, k, out)?;
    }
    out.write_all(b"]}</script>\n<script>\n(function () {\n")?;
    for part in JS {
        out.write_all(part.as_bytes())?;
    }
    out.write_all(b"})();\n")?;
    out.write_all(b"</script>\n</body>\n</html>\n")
}

fn write_facts(facts: &Facts, total: u64, out: &mut dyn Write) -> io::Result<()> {
    let mode = match facts.mode {
        SizeMode::Disk => "disk",
        SizeMode::Apparent => "apparent",
        SizeMode::Count => "count",
        SizeMode::Time => "time",
    };
    write!(
        out,
        "{{\"version\":\"{}\",\"when\":{},\"mode\":\"{mode}\",\"extents\":{},\"si\":{},\"total\":{total},\"totalTop\":{},\"paths\":[",
        env!("CARGO_PKG_VERSION"),
        facts.when,
        facts.extents,
        facts.si,
        facts.total_top,
    )?;
    for (i, p) in facts.paths.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_str(out, &page_name(p))?;
    }
    if let Some(old) = facts.old_total {
        write!(out, "],\"oldTotal\":{old},\"notes\":[")?;
    } else {
        out.write_all(b"],\"notes\":[")?;
    }
    for (i, n) in facts.notes.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_str(out, n.as_bytes())?;
    }
    out.write_all(b"],\"colours\":")?;
    match &facts.colours {
        Colours::Kind => out.write_all(b"\"kind\"")?,
        Colours::Growth => out.write_all(b"\"growth\"")?,
        Colours::Owner(owners, others) => {
            out.write_all(b"\"owner\",\"otherOwners\":[")?;
            for (i, name) in others.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write_str(out, &page_name(name))?;
            }
            out.write_all(b"],\"owners\":[")?;
            for (i, (name, size)) in owners.iter().enumerate() {
                out.write_all(if i > 0 { b",[" } else { b"[" })?;
                write_str(out, &page_name(name))?;
                write!(out, ",{size}]")?;
            }
            out.write_all(b"]")?;
        }
    }
    out.write_all(b"}")
}

/// One entry of the page: `[name, size, kind, items, mtime, children, class, old size]`, and
/// `exclusive, shared` after them where the scan counted extents.
fn write_kept<S: Describe>(src: &S, k: &Kept<S::Id>, out: &mut dyn Write) -> io::Result<()> {
    let (id, kids) = match *k {
        Kept::Folded { count, size } => {
            let name = format!("({count} smaller entries)");
            out.write_all(b"[")?;
            write_str(out, name.as_bytes())?;
            return write!(out, ",{size},\"m\",{count},0,0,null,null]");
        }
        Kept::Entry { id, kids } => (id, kids),
    };
    let info = src.info(id);
    out.write_all(b"[")?;
    write_str(out, &page_name(&info.name))?;
    let kind = match info.kind {
        EntryKind::Dir => "d",
        EntryKind::File => "f",
        EntryKind::Symlink => "l",
        EntryKind::Other => "o",
    };
    write!(
        out,
        ",{},\"{kind}\",{},{},{kids},",
        src.size(id),
        info.items,
        info.mtime.unwrap_or(0)
    )?;
    match info.class {
        Some(c) => write!(out, "{c},")?,
        None => out.write_all(b"null,")?,
    }
    match info.old {
        Some(o) => write!(out, "{o}")?,
        None => out.write_all(b"null")?,
    }
    match info.sharing {
        Some(s) => write!(out, ",{},{}]", s.exclusive, s.shared),
        None => out.write_all(b"]"),
    }
}

/// A name as the page holds it: as the terminal views show it (a control, direction or
/// zero-width character as `\n`, `\u{202e}`, a byte that is not UTF-8 as `\xff`), a
/// backslash of the name itself doubled, so that two names never become one (`dir\xff` the
/// bytes and `dir\\xff` the text). The page shows it with backslashes single again.
fn page_name(name: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len());
    for (i, part) in name.split(|&b| b == b'\\').enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\\\\");
        }
        out.extend_from_slice(&escape(part, false).bytes);
    }
    out
}

/// A JSON string that is safe inside a `<script>` element of an HTML page: no `<`, `>` or
/// `&` (nothing can end the element or start a comment), no line or paragraph separator
/// (which old parsers took for ends of lines). Bytes that are not UTF-8 become U+FFFD.
fn write_str(out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
    let s = String::from_utf8_lossy(bytes);
    out.write_all(b"\"")?;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let escaped = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' | '\0'..='\u{1f}' | '\u{7f}' => None,
            _ => continue,
        };
        out.write_all(&s.as_bytes()[start..i])?;
        match escaped {
            Some(e) => out.write_all(e.as_bytes())?,
            None => write!(out, "\\u{:04x}", c as u32)?,
        }
        start = i + c.len_utf8();
    }
    out.write_all(&s.as_bytes()[start..])?;
    out.write_all(b"\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(bytes: &[u8]) -> String {
        let mut out = Vec::new();
        write_str(&mut out, bytes).expect("write to a Vec");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn names_stay_distinct_and_escaped() {
        let a = page_name(b"dir\xff\xfe");
        let b = page_name(b"dir\xfd\xfc");
        let c = page_name(b"dir\\xff\\xfe");
        assert_eq!(a, b"dir\\xff\\xfe");
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_eq!(
            page_name("\u{202e}evil\u{202c}.exe".as_bytes()),
            b"\\u{202e}evil\\u{202c}.exe"
        );
        assert_eq!(page_name(b"dir\nnewline"), b"dir\\nnewline");
    }

    #[test]
    fn names_cannot_end_the_script_element() {
        assert_eq!(
            json(b"</script><!--\"&\xff"),
            "\"\\u003c/script\\u003e\\u003c!--\\\"\\u0026\u{fffd}\""
        );
        assert_eq!(json("a\u{2028}b\n".as_bytes()), "\"a\\u2028b\\n\"");
    }
}
