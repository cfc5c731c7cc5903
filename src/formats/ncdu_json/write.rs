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

use rustc_hash::FxHashMap;

use crate::tree::{flags, EntryKind, NodeId, Tree, TreeView};
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
    let failed = crate::export::failed_entries(tree, root, errors)?;
    write_view(tree, root, &failed, opts, out)
}

/// [`write_ncdu`] of any tree: `failed` the names that could not be stat'ed, by directory.
pub fn write_view<T: TreeView>(
    tree: &T,
    root: T::Id,
    failed: &FxHashMap<T::Id, Vec<&[u8]>>,
    opts: &NcduOptions<'_>,
    out: &mut dyn Write,
) -> io::Result<()> {
    write!(
        out,
        "[{MAJOR},{MINOR},{{\"progname\":\"hogs\",\"progver\":\"{}\",\"timestamp\":{}}}",
        env!("CARGO_PKG_VERSION"),
        opts.timestamp
    )?;

    enum Step<I> {
        Enter(I),
        Close(I),
    }
    let mut stack = vec![Step::Enter(root)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Enter(id) => {
                let is_dir = tree.kind(id) == EntryKind::Dir;
                out.write_all(b",\n")?;
                if is_dir {
                    out.write_all(b"[")?;
                }
                let name = if id == root {
                    opts.root_name
                } else {
                    tree.name(id)
                };
                write_info(tree, id, id == root, name, opts.extended, out)?;
                if is_dir {
                    stack.push(Step::Close(id));
                    let first = stack.len();
                    stack.extend(tree.children(id).map(Step::Enter));
                    stack[first..].reverse();
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
fn write_info<T: TreeView>(
    tree: &T,
    id: T::Id,
    is_root: bool,
    name: &[u8],
    extended: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let (kind, node_flags) = (tree.kind(id), tree.flags(id));
    let has = |flag: u8| node_flags & flag != 0;
    let is_dir = kind == EntryKind::Dir;
    out.write_all(b"{\"name\":")?;
    write_name(name, out)?;
    // Left out: counts nothing here (filtered out, another filesystem, or a directory already
    // counted at another name). A hard link keeps its sizes: the reader counts its inode once.
    let skipped = has(flags::FILTERED) || has(flags::OTHER_FS) || is_dir && has(flags::DUPLICATE);
    let counted = !skipped;
    let (apparent, disk) = tree.own_sizes(id);
    if counted && apparent > 0 {
        write!(out, ",\"asize\":{apparent}")?;
    }
    if counted && disk > 0 {
        write!(out, ",\"dsize\":{disk}")?;
    }
    // (the devices alone: an inode may cost decoding a run of the log)
    if let Some(dev) = tree.device(id) {
        let parent_dev = tree.device(tree.parent(id));
        if is_root || parent_dev != Some(dev) {
            write!(out, ",\"dev\":{dev}")?;
        }
    }
    if extended {
        if let Some(o) = tree.extra(id) {
            write!(
                out,
                ",\"uid\":{},\"gid\":{},\"mode\":{}",
                o.uid, o.gid, o.mode
            )?;
        }
        // (none for what -X left out, never stat'ed: ncdu writes none either)
        let mtime = tree.mtime(id).max(0);
        if mtime > 0 || !has(flags::FILTERED) {
            write!(out, ",\"mtime\":{mtime}")?;
        }
    }
    let linked = !is_dir && (has(flags::HARDLINK) || has(flags::DUPLICATE));
    if let Some((_, ino)) = linked.then(|| tree.identity(id)).flatten() {
        write!(out, ",\"ino\":{ino},\"hlnkc\":true")?;
        if let Some(n) = tree.links(id) {
            write!(out, ",\"nlink\":{n}")?;
        }
    }
    if has(flags::UNREADABLE) {
        out.write_all(b",\"read_error\":true")?;
    }
    if is_dir && has(flags::UNSCANNED) {
        // hogs's own key (readers skip keys they do not know): a directory of a merge of
        // scans that no part scanned, so its own size is not known
        out.write_all(b",\"unscanned\":true")?;
    }
    let excluded = has(flags::FILTERED) || has(flags::OTHER_FS);
    if matches!(kind, EntryKind::Symlink | EntryKind::Other) && !excluded && !has(flags::UNREADABLE)
    {
        out.write_all(b",\"notreg\":true")?;
    }
    if let Some(sh) = tree.sharing(id).filter(|_| counted) {
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
    if has(flags::FILTERED) {
        out.write_all(b",\"excluded\":\"pattern\"")?;
    } else if has(flags::OTHER_FS) {
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

    /// An export reads the tree only through [`TreeView`]: the in-memory tree seen through
    /// sparse ids (as a file-backed tree's are) gives the same bytes, in both formats.
    #[test]
    fn exports_of_a_tree_seen_through_sparse_ids_are_the_trees() {
        use crate::formats::ncdu_bin::{write_view as write_bin, BinWriter};
        use crate::tree::view::{tied_tree, Sparse};
        let tree = tied_tree();
        let sparse = Sparse(&tree);
        let mut failed = FxHashMap::default();
        failed.insert(1, vec![&b"gone"[..]]);
        let failed_sparse = failed
            .iter()
            .map(|(&k, v)| (Sparse::id(k), v.clone()))
            .collect();
        let opts = NcduOptions {
            root_name: b"/r",
            extended: true,
            timestamp: 7,
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        write_view(&tree, 1, &failed, &opts, &mut a).expect("to a Vec");
        write_view(&sparse, Sparse::id(1), &failed_sparse, &opts, &mut b).expect("to a Vec");
        assert!(a.len() > 500 && a.windows(4).any(|w| w == b"gone"));
        assert_eq!(String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
        let bin = |view: &dyn Fn(&mut BinWriter<Vec<u8>>) -> io::Result<u64>| {
            let mut w = BinWriter::with_block_size(Vec::new(), Some(256)).expect("a Vec");
            let root = view(&mut w).expect("to a Vec");
            w.finish(root).expect("to a Vec")
        };
        let a = bin(&|w| write_bin(&tree, 1, &failed, &opts, w));
        let b = bin(&|w| write_bin(&sparse, Sparse::id(1), &failed_sparse, &opts, w));
        assert!(a.len() > 200);
        assert_eq!(a, b);
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
