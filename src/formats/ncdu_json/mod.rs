//! Reading ncdu's JSON export format (`ncdu -o`, `gdu -o`, `hogs -O`) into the tree a walk
//! builds.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let file = std::fs::File::open("scan.json")?;
//! let mut tree = hogs::formats::ncdu_json::read_tree(file)?;
//! tree.finish(); // own sizes → totals, as after a walk
//! println!("{} bytes on disk", tree.node(hogs::tree::TOTAL).disk);
//! # Ok(()) }
//! ```
//!
//! The parser streams: it holds one token and the tree read so far, never the document, and
//! the tree is grown as entries are read ([`PostOrderBuilder`]), so a load peaks at about the
//! size of the tree it returns. Open directories are kept on vectors, not the call stack, so
//! any depth loads. Unknown
//! keys (and their values, however nested) are skipped, as ncdu does; `excluded` accepts
//! ncdu 1's `"othfs"` and ncdu 2's `"otherfs"`. Anything malformed is an error with its line,
//! column and byte offset, and no tree.
//!
//! What each field becomes: `asize`/`dsize` the node's own apparent and disk sizes, `mtime`
//! its mtime, `dev`/`ino` its identity (a missing `dev` is the parent's), `hlnkc` a hard link
//! (names of one `(dev, ino)` after the first count nothing, as in a walk), `nlink` its link
//! count, `read_error` an unreadable directory (kept, with an error) or an entry that could
//! not be stat'ed (dropped, with an error), `excluded` a file left out by a pattern (counts
//! nothing) or a directory on another filesystem, `notreg` a non-regular file (a symlink when
//! `mode` says so), `uid`/`gid`/`mode` the extra table, hogs's `exclusive_bytes` and
//! `shared_bytes` (`--extents`: the subtree's, see `write.rs`) [`Tree::sharing`].

use std::io::{BufReader, Read};

use super::builder::{bad_name, owner_of, Import, Keep, Meet, Metadata, Mount, Sink, NAME_MAX};
use super::ImportError;
use crate::tree::{flags, EntryKind, Node, Sharing, Tree};
use lexer::{Lexer, Number, Pos};

pub mod lexer;
mod parser;
pub mod write;
pub mod zstd;

use parser::Parser;

/// The longest root name (a path) accepted.
const ROOT_NAME_MAX: usize = 64 * 1024;
/// Keys longer than any the format defines are unknown keys.
const KEY_MAX: usize = 16;

/// Reads a whole export, keeping everything it records. The reader is buffered here.
pub fn read(reader: impl Read) -> Result<Import, ImportError> {
    read_keeping(reader, Keep::ALL)
}

/// Reads a whole export, keeping identities and extra facts only as asked.
pub fn read_keeping(reader: impl Read, keep: Keep) -> Result<Import, ImportError> {
    let mut sink = Sink::new(keep);
    let meta = Parser::new(
        BufReader::with_capacity(256 * 1024, reader),
        &mut sink,
        None,
    )
    .parse()?;
    Ok(Import {
        scan: sink.into_scan(),
        meta,
    })
}

/// Reads one part of a merge into `sink`, its root placed as `mount` says; what its file says
/// of itself.
pub(crate) fn read_part<'a>(
    reader: impl Read,
    sink: &'a mut Sink,
    mount: Mount<'a>,
) -> Result<Metadata, ImportError> {
    Parser::new(
        BufReader::with_capacity(256 * 1024, reader),
        sink,
        Some(mount),
    )
    .parse()
}

/// The name of an export's root (the path it was scanned at), reading no further.
pub(crate) fn read_root_name(reader: impl Read, keep: Keep) -> Result<Vec<u8>, ImportError> {
    let mut sink = Sink::new(keep);
    Parser::new(BufReader::with_capacity(64 * 1024, reader), &mut sink, None).root_name()
}

/// Reads an export and returns only its tree (own sizes, not yet totals).
pub fn read_tree(reader: impl Read) -> Result<Tree, ImportError> {
    read(reader).map(|i| i.scan.tree)
}

/// Recognises what an export is not: compressed files and ncdu's binary format.
fn check_magic(head: &[u8]) -> Result<(), ImportError> {
    let what = if head.starts_with(&zstd::MAGIC) {
        "the file is zstd-compressed: decompress it first (zstd -dc FILE | hogs --import -)"
    } else if head.starts_with(&[0x1f, 0x8b]) {
        "the file is gzip-compressed: decompress it first (gzip -dc FILE | hogs --import -)"
    } else if head.starts_with(b"\xfd7zXZ") {
        "the file is xz-compressed: decompress it first (xz -dc FILE | hogs --import -)"
    } else if crate::formats::ncdu_bin::is_binary(head) {
        "this is ncdu's binary export format, which this reader does not read: import the file with hogs --import FILE"
    } else {
        return Ok(());
    };
    Err(ImportError::Unsupported(what))
}

/// One info object as read.
#[derive(Default)]
struct Info {
    has_name: bool,
    asize: u64,
    dsize: u64,
    dev: Option<u64>,
    ino: Option<u64>,
    nlink: Option<u64>,
    mtime: Option<u64>,
    uid: Option<u64>,
    gid: Option<u64>,
    mode: Option<u64>,
    hlnkc: bool,
    read_error: bool,
    notreg: bool,
    unscanned: bool,
    /// `exclusive_bytes`, `shared_bytes` (`--extents`).
    sharing: Option<Sharing>,
    excluded: Option<bool>, // Some(true): another filesystem; Some(false): a pattern
}

impl Sink {
    /// Refuses an entry that counts without the time the filters read.
    fn check_time(&self, info: &Info) -> Result<(), ImportError> {
        let counted = info.excluded.is_none() && !info.unscanned;
        self.check_time_of(counted, info.mtime.is_some())
    }

    /// Records what a node just made of an info object holds (`--extents`).
    fn record_sharing(&mut self, info: &Info) {
        self.record_sharing_of(info.sharing);
    }
}

#[cfg(test)]
mod tests;
