//! Writing a scan in ncdu's JSON export format (`ncdu -o`), which ncdu (`-f`) and gdu (`-f`)
//! read: `[1,2,{metadata},[{root info},…]]`, a directory as an array whose first element is its
//! own info object, a file as its info object.
//!
//! Sizes are each entry's own (readers add them up), so this must see the tree before
//! [`Tree::finish`] turns sizes into totals. Hard-linked files carry `ino`, `hlnkc` and
//! `nlink` and are written at every name: the reader counts each inode once. Names are the
//! raw bytes, escaped only where JSON requires it, exactly as ncdu 1.18 writes them: bytes that
//! are not UTF-8 stay raw (ncdu and gdu read them back).
//!
//! With `--extents`, `dsize` is what the entry holds counted by its extents (each range of
//! disk once in the export, as the scan counts it) and every entry also carries hogs's
//! `exclusive_bytes` and `shared_bytes` (see `write_info`), which `--import` reads back.
//!
//! The tree is written depth-first from an explicit stack: any depth works.

use std::io::{self, Write};

use crate::tree::{flags, EntryKind, NodeId, Tree};
use crate::walk::ScanError;

/// Format version written: 1.2 (ncdu 1.16 and later; minor 2 added `nlink`).
const MAJOR: u32 = 1;
const MINOR: u32 = 2;

/// What goes into the file besides the tree.
#[derive(Clone, Debug)]
pub struct NcduOptions<'a> {
    /// The root's name in the file. ncdu writes the absolute path of the scanned directory.
    pub root_name: &'a [u8],
    /// Also write `mtime` and, when the tree kept them, `uid`, `gid` and `mode` (ncdu's `-e`).
    pub extended: bool,
    /// Seconds since the epoch, for the metadata block.
    pub timestamp: u64,
}

/// Writes `root` (a directory) and everything below it. `errors` are the walk's: entries that
/// could not be stat'ed never became nodes and are written as `{"name":…,"read_error":true}`
/// inside their directory, as ncdu does.
pub fn write_ncdu(
    tree: &Tree,
    root: NodeId,
    errors: &[ScanError],
    opts: &NcduOptions<'_>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let failed = super::failed_entries(tree, root, errors)?;

    write!(
        out,
        "[{MAJOR},{MINOR},{{\"progname\":\"hogs\",\"progver\":\"{}\",\"timestamp\":{}}}",
        env!("CARGO_PKG_VERSION"),
        opts.timestamp
    )?;

    enum Step {
        Enter(NodeId),
        Close(NodeId),
    }
    let mut stack = vec![Step::Enter(root)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Enter(id) => {
                let node = tree.node(id);
                out.write_all(b",\n")?;
                if node.is_dir() {
                    out.write_all(b"[")?;
                }
                let name = if id == root {
                    opts.root_name
                } else {
                    tree.name(id)
                };
                write_info(tree, id, id == root, name, opts.extended, out)?;
                if node.is_dir() {
                    stack.push(Step::Close(id));
                    stack.extend(node.children().rev().map(Step::Enter));
                }
            }
            Step::Close(id) => {
                for name in failed.get(&id).into_iter().flatten() {
                    out.write_all(b",\n{\"name\":")?;
                    write_name(name, out)?;
                    out.write_all(b",\"read_error\":true}")?;
                }
                out.write_all(b"]")?;
            }
        }
    }
    out.write_all(b"]\n")
}

/// One info object, fields in ncdu's order.
fn write_info(
    tree: &Tree,
    id: NodeId,
    is_root: bool,
    name: &[u8],
    extended: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let node = tree.node(id);
    let is_dir = node.is_dir();
    out.write_all(b"{\"name\":")?;
    write_name(name, out)?;
    // Left out: counts nothing here (filtered out, another filesystem, or a directory already
    // counted at another name). A hard link keeps its sizes: the reader counts its inode once.
    let skipped = node.has(flags::FILTERED)
        || node.has(flags::OTHER_FS)
        || is_dir && node.has(flags::DUPLICATE);
    let counted = !skipped;
    if counted && node.apparent > 0 {
        write!(out, ",\"asize\":{}", node.apparent)?;
    }
    if counted && node.disk > 0 {
        write!(out, ",\"dsize\":{}", node.disk)?;
    }
    // (the devices alone: an inode may cost decoding a run of the log)
    if let Some(dev) = tree.device_of(id) {
        let parent_dev = tree.device_of(tree.parent(id));
        if is_root || parent_dev != Some(dev) {
            write!(out, ",\"dev\":{dev}")?;
        }
    }
    if extended {
        if let Some(o) = tree.extra_of(id) {
            write!(
                out,
                ",\"uid\":{},\"gid\":{},\"mode\":{}",
                o.uid, o.gid, o.mode
            )?;
        }
        write!(out, ",\"mtime\":{}", node.mtime.max(0))?;
    }
    let linked = !is_dir && (node.has(flags::HARDLINK) || node.has(flags::DUPLICATE));
    if let Some((_, ino)) = linked.then(|| tree.identity_of(id)).flatten() {
        write!(out, ",\"ino\":{ino},\"hlnkc\":true")?;
        if let Some(n) = tree.links_of(id) {
            write!(out, ",\"nlink\":{n}")?;
        }
    }
    if node.has(flags::UNREADABLE) {
        out.write_all(b",\"read_error\":true")?;
    }
    if is_dir && node.has(flags::UNSCANNED) {
        // hogs's own key (readers skip keys they do not know): a directory of a merge of
        // scans that no part scanned, so its own size is not known
        out.write_all(b",\"unscanned\":true")?;
    }
    let excluded = node.has(flags::FILTERED) || node.has(flags::OTHER_FS);
    if matches!(node.kind(), EntryKind::Symlink | EntryKind::Other)
        && !excluded
        && !node.has(flags::UNREADABLE)
    {
        out.write_all(b",\"notreg\":true")?;
    }
    if let Some(sh) = tree.sharing.get(id as usize).filter(|_| counted) {
        // hogs's own keys (`--extents`; readers skip keys they do not know): unlike the
        // sizes, the subtree's values, as `-j` gives them (what is shared is a union, which
        // a reader could not add up from the files); the root's always, which says the
        // export has them
        if sh.exclusive > 0 || is_root {
            write!(out, ",\"exclusive_bytes\":{}", sh.exclusive)?;
        }
        if sh.shared > 0 || is_root {
            write!(out, ",\"shared_bytes\":{}", sh.shared)?;
        }
    }
    if node.has(flags::FILTERED) {
        out.write_all(b",\"excluded\":\"pattern\"")?;
    } else if node.has(flags::OTHER_FS) {
        // ncdu 1.x writes "othfs"; ncdu 2 writes "otherfs" and reads both
        out.write_all(b",\"excluded\":\"othfs\"")?;
    }
    out.write_all(b"}")
}

/// A name as a JSON string the way ncdu writes it: `"`, `\` and control characters escaped,
/// every other byte raw (so a name that is not UTF-8 keeps its bytes).
pub fn write_name(name: &[u8], out: &mut dyn Write) -> io::Result<()> {
    out.write_all(b"\"")?;
    let mut start = 0;
    for (i, &b) in name.iter().enumerate() {
        let short: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f | 0x7f => b"",
            _ => continue,
        };
        out.write_all(&name[start..i])?;
        if short.is_empty() {
            write!(out, "\\u{b:04x}")?;
        } else {
            out.write_all(short)?;
        }
        start = i + 1;
    }
    out.write_all(&name[start..])?;
    out.write_all(b"\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(b: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        write_name(b, &mut v).expect("write to a Vec");
        v
    }

    #[test]
    fn names_are_escaped_as_ncdu_does() {
        assert_eq!(name(b"plain"), b"\"plain\"");
        assert_eq!(
            name(b"a\"b\\c\nd\re\tf\x08g\x0ch"),
            b"\"a\\\"b\\\\c\\nd\\re\\tf\\bg\\fh\"".to_vec()
        );
        assert_eq!(name(b"\x01\x1b\x7f"), b"\"\\u0001\\u001b\\u007f\"".to_vec());
        // not UTF-8, and UTF-8: raw
        assert_eq!(name(b"bad\xff\xfe"), b"\"bad\xff\xfe\"".to_vec());
        assert_eq!(name("é日本".as_bytes()), "\"é日本\"".as_bytes().to_vec());
    }
}
