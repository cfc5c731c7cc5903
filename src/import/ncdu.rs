//! Reading ncdu's JSON export format (`ncdu -o`, `gdu -o`, `hogs -O`) into the tree a walk
//! builds.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let file = std::fs::File::open("scan.json")?;
//! let mut tree = hogs::import::ncdu::read_tree(file)?;
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
//! `mode` says so), `uid`/`gid`/`mode` the extra table.

use std::io::{BufReader, Read};

use rustc_hash::FxHashSet;

use super::json::{Lexer, Number, Pos};
use super::ImportError;
use crate::tree::{flags, Built, EntryKind, Node, NodeId, PostOrderBuilder, StatExtra, Tree};
use crate::walk::{ErrorAt, ErrorKind, Scan, ScanError};

/// The longest name an entry below the root may have (Linux's NAME_MAX).
const NAME_MAX: usize = 255;
/// The longest root name (a path) accepted.
const ROOT_NAME_MAX: usize = 64 * 1024;
/// Keys longer than any the format defines are unknown keys.
const KEY_MAX: usize = 16;

/// The metadata block and version of an export.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    pub major: u64,
    pub minor: u64,
    pub progname: Option<String>,
    pub progver: Option<String>,
    /// When the file was written (seconds since the epoch), as the writer says.
    pub timestamp: Option<u64>,
}

/// A loaded export: the scan it records and who wrote it.
#[derive(Debug)]
pub struct Import {
    /// The tree (own sizes: call [`Tree::finish`] for totals) and the errors the scan recorded
    /// (their `errno` is 0: the file does not say which error it was).
    pub scan: Scan,
    pub meta: Metadata,
}

/// What of an export to keep beyond the tree: each costs memory for every entry, and most
/// views read neither.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Keep {
    /// `dev`/`ino` as [`Tree::identity`] and `nlink` as [`Tree::links`] (for exporting
    /// again, and for deleting).
    pub identity: bool,
    /// `uid`/`gid`/`mode` as [`Tree::extra`], when the export has them.
    pub extra: bool,
}

impl Keep {
    pub const ALL: Keep = Keep {
        identity: true,
        extra: true,
    };
}

/// Reads a whole export, keeping everything it records. The reader is buffered here.
pub fn read(reader: impl Read) -> Result<Import, ImportError> {
    read_keeping(reader, Keep::ALL)
}

/// Reads a whole export, keeping identities and extra facts only as asked.
pub fn read_keeping(reader: impl Read, keep: Keep) -> Result<Import, ImportError> {
    Parser::new(BufReader::with_capacity(256 * 1024, reader), keep).parse()
}

/// Reads an export and returns only its tree (own sizes, not yet totals).
pub fn read_tree(reader: impl Read) -> Result<Tree, ImportError> {
    read(reader).map(|i| i.scan.tree)
}

/// Recognises what an export is not: compressed files and ncdu's binary format.
fn check_magic(head: &[u8]) -> Result<(), ImportError> {
    let what = if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        "the file is zstd-compressed: decompress it first (zstd -dc FILE | hogs --import -)"
    } else if head.starts_with(&[0x1f, 0x8b]) {
        "the file is gzip-compressed: decompress it first (gzip -dc FILE | hogs --import -)"
    } else if head.starts_with(b"\xfd7zXZ") {
        "the file is xz-compressed: decompress it first (xz -dc FILE | hogs --import -)"
    } else if head.starts_with(b"\xbfncduEX1") {
        "this is ncdu's binary export format: convert it with ncdu -f FILE -o FILE.json"
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
    mtime: u64,
    uid: Option<u64>,
    gid: Option<u64>,
    mode: Option<u64>,
    hlnkc: bool,
    read_error: bool,
    notreg: bool,
    excluded: Option<bool>, // Some(true): another filesystem; Some(false): a pattern
}

struct Parser<R> {
    lx: Lexer<R>,
    key: Vec<u8>,
    name: Vec<u8>,
    scratch: Vec<u8>,
    /// The tree, grown as the entries are read (never a second copy of them).
    out: PostOrderBuilder,
    /// Entries (nodes) so far.
    count: u32,
    /// Directories recorded as unreadable, by sequence number (they keep their node, as in a
    /// walk).
    unreadable: Vec<u32>,
    /// Entries recorded as unreadable that are not directories: (parent's sequence number,
    /// name). A walk keeps no node for them either, only the error.
    failed: Vec<(u32, Box<[u8]>)>,
    /// (dev, ino) of the hard links met so far: later names are duplicates.
    links_seen: FxHashSet<(u64, u64)>,
    keep: Keep,
}

impl<R: std::io::BufRead> Parser<R> {
    fn new(r: R, keep: Keep) -> Self {
        Parser {
            lx: Lexer::new(r),
            key: Vec::new(),
            name: Vec::new(),
            scratch: Vec::new(),
            out: PostOrderBuilder::new(keep.identity, keep.extra),
            count: 0,
            unreadable: Vec::new(),
            failed: Vec::new(),
            links_seen: FxHashSet::default(),
            keep,
        }
    }

    /// The tree and the errors it records, by path as a walk reports them.
    fn into_scan(self) -> Scan {
        let Built { tree, dir_ids } = self.out.into_tree();
        let dir = |seq: u32| -> NodeId { dir_ids[seq as usize] };
        let errors: Vec<ScanError> = self
            .unreadable
            .iter()
            .map(|&seq| ScanError {
                at: ErrorAt::Node(dir(seq)),
                kind: ErrorKind::ReadDir,
                errno: 0,
            })
            .chain(self.failed.into_iter().map(|(seq, name)| ScanError {
                at: ErrorAt::Entry(dir(seq), name),
                kind: ErrorKind::Access,
                errno: 0,
            }))
            .collect();
        Scan::with_errors_by_path(tree, errors)
    }

    fn parse(mut self) -> Result<Import, ImportError> {
        check_magic(self.lx.head()?)?;
        let mut meta = Metadata::default();
        self.lx
            .expect(b'[', "'[' (an ncdu export starts with [1,)")?;
        meta.major = self.version("the major version")?;
        if meta.major != 1 {
            return Err(self.lx.error(format!(
                "unsupported format version {} (only version 1 exists)",
                meta.major
            )));
        }
        self.lx.expect(b',', "','")?;
        meta.minor = self.version("the minor version")?;
        self.lx.expect(b',', "','")?;
        self.metadata(&mut meta)?;
        self.lx.expect(b',', "','")?;
        self.lx.skip_ws()?;
        if self.lx.peek()? != Some(b'[') {
            let found = self.lx.peek()?;
            return Err(self
                .lx
                .unexpected(found, "'[' (the top-level entry must be a directory)"));
        }
        self.entries()?;
        self.lx.expect(b']', "']' (the end of the export)")?;
        self.lx.skip_ws()?;
        if let Some(b) = self.lx.peek()? {
            return Err(self.lx.unexpected(Some(b), "the end of the input"));
        }
        Ok(Import {
            scan: self.into_scan(),
            meta,
        })
    }

    fn version(&mut self, what: &str) -> Result<u64, ImportError> {
        self.lx.skip_ws()?;
        match self.lx.number()? {
            Number::Unsigned(v) => Ok(v),
            Number::Other => Err(self.lx.error(format!("{what} must be a whole number"))),
        }
    }

    fn metadata(&mut self, meta: &mut Metadata) -> Result<(), ImportError> {
        self.lx.skip_ws()?;
        if self.lx.peek()? != Some(b'{') {
            return self.lx.skip_value(); // ncdu ignores it; so do we
        }
        self.lx.expect(b'{', "'{'")?;
        self.lx.skip_ws()?;
        if self.lx.peek()? == Some(b'}') {
            return self.lx.expect(b'}', "'}'");
        }
        loop {
            let known = self.lx.string(&mut self.key, KEY_MAX)?;
            self.lx.expect(b':', "':'")?;
            self.lx.skip_ws()?;
            let is_string = self.lx.peek()? == Some(b'"');
            match (known, self.key.as_slice(), is_string) {
                (true, b"progname" | b"progver", true) => {
                    self.lx.string(&mut self.scratch, 256)?;
                    let text = String::from_utf8_lossy(&self.scratch).into_owned();
                    if self.key == b"progname" {
                        meta.progname = Some(text);
                    } else {
                        meta.progver = Some(text);
                    }
                }
                (true, b"timestamp", false) => match self.lx.number()? {
                    Number::Unsigned(t) => meta.timestamp = Some(t),
                    Number::Other => {}
                },
                _ => self.lx.skip_value()?,
            }
            if self.lx.one_of(b",}", "',' or '}'")? == b'}' {
                return Ok(());
            }
        }
    }

    /// The root directory and everything in it. Open directories are a stack of (sequence
    /// number, device).
    fn entries(&mut self) -> Result<(), ImportError> {
        let mut open: Vec<(u32, u64)> = Vec::new();
        self.lx.expect(b'[', "'['")?;
        let root_dev = self.entry(None, true)?.map(|(_, dev)| dev).unwrap_or(0);
        open.push((0, root_dev));
        while let Some(&(parent, dev)) = open.last() {
            if self.lx.one_of(b",]", "',' or ']'")? == b']' {
                open.pop();
                self.out.close();
                continue;
            }
            self.lx.skip_ws()?;
            let is_dir = match self.lx.peek()? {
                Some(b'[') => true,
                Some(b'{') => false,
                found => {
                    return Err(self
                        .lx
                        .unexpected(found, "'[' (a directory) or '{' (a file)"))
                }
            };
            if is_dir {
                self.lx.expect(b'[', "'['")?;
            }
            let added = self.entry(Some((parent, dev)), is_dir)?;
            if is_dir {
                match added {
                    Some(index_dev) => open.push(index_dev),
                    // not possible for a directory (read_error keeps it), but stay safe
                    None => return Err(self.lx.error("directory could not be added")),
                }
            }
        }
        Ok(())
    }

    /// Reads one info object and records the entry; returns its (sequence number, device) if
    /// it is a directory (now open), or None when it is not (or only an error: a file that
    /// could not be stat'ed).
    fn entry(
        &mut self,
        parent: Option<(u32, u64)>,
        is_dir: bool,
    ) -> Result<Option<(u32, u64)>, ImportError> {
        self.lx.skip_ws()?;
        let start = self.lx.pos();
        let (info, name_pos) = self.info(parent.is_none())?;
        if !info.has_name {
            return Err(self
                .lx
                .error_at(start, "entry without a \"name\" (every entry needs one)"));
        }
        if parent.is_some() {
            self.check_name(name_pos)?;
        } else if self.name.is_empty() || self.name.contains(&0) {
            return Err(self.lx.error_at(name_pos, "the root needs a name (a path)"));
        }
        let (parent_index, parent_dev) = parent.unwrap_or((0, 0));
        let dev = info.dev.unwrap_or(parent_dev);
        if info.read_error && !is_dir {
            let name = self.name.clone().into_boxed_slice();
            self.failed.push((parent_index, name));
            return Ok(None);
        }
        if self.count >= u32::MAX - 2 {
            return Err(self
                .lx
                .error_at(start, "too many entries (more than 4 billion)"));
        }
        self.count += 1;

        let kind = match (is_dir, info.mode) {
            (true, _) => EntryKind::Dir,
            (false, Some(mode)) => match mode & 0o170000 {
                0o040000 => EntryKind::Dir,
                0o100000 => EntryKind::File,
                0o120000 => EntryKind::Symlink,
                _ => EntryKind::Other,
            },
            (false, None) if info.notreg => EntryKind::Other,
            (false, None) => EntryKind::File,
        };
        let mut f = 0;
        let unreadable = info.read_error;
        if unreadable {
            f |= flags::UNREADABLE;
        }
        match info.excluded {
            Some(true) => f |= flags::OTHER_FS,
            Some(false) => f |= flags::FILTERED,
            None => {}
        }
        let mut links = None;
        if info.hlnkc && !is_dir {
            f |= flags::HARDLINK;
            if let Some(ino) = info.ino {
                if !self.links_seen.insert((dev, ino)) {
                    f |= flags::DUPLICATE;
                }
            }
            if let (Some(n), true) = (info.nlink, self.keep.identity) {
                links = Some(u32::try_from(n).unwrap_or(u32::MAX));
            }
        }
        let mtime = i64::try_from(info.mtime).unwrap_or(i64::MAX);
        let node = Node::new(kind, info.dsize, info.asize, mtime, f);
        let extra = match (info.uid, info.gid, info.mode) {
            (Some(uid), Some(gid), Some(mode)) => Some(StatExtra {
                uid: uid as u32,
                gid: gid as u32,
                mode: mode as u32,
                ..StatExtra::default()
            }),
            _ => None,
        };
        let key = (dev, info.ino.unwrap_or(0));
        let seq = match (parent, is_dir) {
            (None, _) => {
                self.out.root(self.name.clone(), node, key, extra);
                0
            }
            (Some(_), true) => self.out.open_dir(node, &self.name, key, extra),
            (Some(_), false) => {
                self.out.add(node, &self.name, key, extra, links);
                return Ok(None);
            }
        };
        if unreadable {
            self.unreadable.push(seq);
        }
        Ok(Some((seq, dev)))
    }

    /// A name below the root must be one a directory can hold.
    fn check_name(&self, pos: Pos) -> Result<(), ImportError> {
        let n = &self.name;
        let why = if n.is_empty() {
            "an empty name"
        } else if n.len() > NAME_MAX {
            "a name longer than 255 bytes"
        } else if n.contains(&b'/') {
            "a name with '/' in it"
        } else if n.contains(&0) {
            "a name with a NUL byte in it"
        } else if n == b"." || n == b".." {
            "the name '.' or '..'"
        } else {
            return Ok(());
        };
        Err(self.lx.error_at(pos, format!("{why} below the root")))
    }

    /// An info object: `{"name": …, …}`. Returns it and where its name starts.
    fn info(&mut self, is_root: bool) -> Result<(Info, Pos), ImportError> {
        let mut info = Info::default();
        let mut name_pos = self.lx.pos();
        self.lx.expect(b'{', "'{' (an entry's info object)")?;
        self.lx.skip_ws()?;
        if self.lx.peek()? == Some(b'}') {
            self.lx.expect(b'}', "'}'")?;
            return Ok((info, name_pos));
        }
        loop {
            let known = self.lx.string(&mut self.key, KEY_MAX)?;
            self.lx.expect(b':', "':'")?;
            self.lx.skip_ws()?;
            let key: &[u8] = if known { &self.key } else { b"" };
            match key {
                b"name" => {
                    name_pos = self.lx.pos();
                    let max = if is_root { ROOT_NAME_MAX } else { NAME_MAX + 1 };
                    if !self.lx.string(&mut self.name, max)? {
                        return Err(self.lx.error_at(name_pos, "name too long"));
                    }
                    info.has_name = true;
                }
                b"asize" => info.asize = self.unsigned("asize")?,
                b"dsize" => info.dsize = self.unsigned("dsize")?,
                b"dev" => info.dev = Some(self.unsigned("dev")?),
                b"ino" => info.ino = Some(self.unsigned("ino")?),
                b"nlink" => info.nlink = Some(self.unsigned("nlink")?),
                b"mtime" => info.mtime = self.unsigned("mtime")?,
                b"uid" => info.uid = Some(self.unsigned("uid")?),
                b"gid" => info.gid = Some(self.unsigned("gid")?),
                b"mode" => info.mode = Some(self.unsigned("mode")?),
                b"hlnkc" => info.hlnkc = self.boolean("hlnkc")?,
                b"read_error" => info.read_error = self.boolean("read_error")?,
                b"notreg" => info.notreg = self.boolean("notreg")?,
                b"excluded" => {
                    self.lx.string(&mut self.scratch, KEY_MAX)?;
                    let other_fs = matches!(
                        self.scratch.as_slice(),
                        b"othfs" | b"otherfs" | b"kernfs" | b"frmlnk"
                    );
                    info.excluded = Some(other_fs);
                }
                _ => self.lx.skip_value()?,
            }
            if self.lx.one_of(b",}", "',' or '}'")? == b'}' {
                return Ok((info, name_pos));
            }
        }
    }

    fn unsigned(&mut self, key: &str) -> Result<u64, ImportError> {
        let pos = self.lx.pos();
        let ok = matches!(self.lx.peek()?, Some(b'-' | b'0'..=b'9'));
        match ok.then(|| self.lx.number()).transpose()? {
            Some(Number::Unsigned(v)) => Ok(v),
            _ => Err(self.lx.error_at(
                pos,
                format!("\"{key}\" must be a whole number from 0 to 2^64-1"),
            )),
        }
    }

    fn boolean(&mut self, key: &str) -> Result<bool, ImportError> {
        let pos = self.lx.pos();
        let ok = matches!(self.lx.peek()?, Some(b't' | b'f'));
        match ok.then(|| self.lx.literal()).transpose()? {
            Some(Some(b)) => Ok(b),
            _ => Err(self
                .lx
                .error_at(pos, format!("\"{key}\" must be true or false"))),
        }
    }
}
