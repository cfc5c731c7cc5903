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

/// Reads one part of a merge into `sink`, its root placed as `mount` says.
pub(super) fn read_part<'a>(
    reader: impl Read,
    sink: &'a mut Sink,
    mount: Mount<'a>,
) -> Result<(), ImportError> {
    Parser::new(
        BufReader::with_capacity(256 * 1024, reader),
        sink,
        Some(mount),
    )
    .parse()
    .map(drop)
}

/// The name of an export's root (the path it was scanned at), reading no further.
pub(super) fn read_root_name(reader: impl Read, keep: Keep) -> Result<Vec<u8>, ImportError> {
    let mut sink = Sink::new(keep);
    Parser::new(BufReader::with_capacity(64 * 1024, reader), &mut sink, None).root_name()
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
    unscanned: bool,
    excluded: Option<bool>, // Some(true): another filesystem; Some(false): a pattern
}

/// What the entries read so far have built: one export's, or every part's of a merge
/// ([`super::merge`]), which reads its parts one after the other into the same tree.
pub(super) struct Sink {
    /// The tree, grown as the entries are read (never a second copy of them).
    pub(super) out: PostOrderBuilder,
    /// Entries (nodes) so far.
    count: u32,
    /// Directories recorded as unreadable, by sequence number (they keep their node, as in a
    /// walk).
    unreadable: Vec<u32>,
    /// Entries recorded as unreadable that are not directories: (parent's sequence number,
    /// name). A walk keeps no node for them either, only the error.
    failed: Vec<(u32, Box<[u8]>)>,
    /// (dev, ino) of the hard links met so far: later names are duplicates (in a merge, in
    /// any part).
    links_seen: FxHashSet<(u64, u64)>,
    keep: Keep,
}

impl Sink {
    pub(super) fn new(keep: Keep) -> Sink {
        Sink {
            out: PostOrderBuilder::new(keep.identity, keep.extra),
            count: 0,
            unreadable: Vec::new(),
            failed: Vec::new(),
            links_seen: FxHashSet::default(),
            keep,
        }
    }

    /// The tree and the errors it records, by path as a walk reports them.
    pub(super) fn into_scan(self) -> Scan {
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

    /// A directory no part scanned, between the parts of a merge: no size and no entry of
    /// its own ([`flags::UNSCANNED`]). `None`: the root of the merge. Opened: what follows
    /// is in it.
    pub(super) fn unscanned_dir(&mut self, name: &[u8], root: bool) {
        let mut node = Node::new(EntryKind::Dir, 0, 0, 0, flags::UNSCANNED);
        node.entries = 0;
        self.count = self.count.saturating_add(1);
        if root {
            self.out.root(name.to_vec(), node, (0, 0), None);
        } else {
            self.out.open_dir(node, name, (0, 0), None);
        }
    }
}

/// What a merge does where a part being read meets the place of another part.
pub(super) enum Meet {
    /// Nothing there: the entry is read as usual.
    Plain,
    /// A directory with other parts below it: read as usual, its merge position given.
    Descend(usize),
    /// Left out: another part, given first, has it.
    Skip,
}

/// The hooks of a merge ([`super::merge`]) into the reading of one of its parts. A merge
/// position is where a directory is in the merge's tree of part roots.
pub(super) trait Graft {
    /// An entry `name` of the directory at merge position `at` was read: what to do with it.
    /// `excluded`: the entry says it was not scanned (another filesystem, a pattern).
    fn meet(
        &mut self,
        at: usize,
        name: &[u8],
        is_dir: bool,
        excluded: bool,
    ) -> Result<Meet, ImportError>;
    /// The directory at merge position `at` is about to close: the parts that belong in it and
    /// were not met are read into it now.
    fn closing(&mut self, sink: &mut Sink, at: usize) -> Result<(), ImportError>;
}

/// Where a part's root goes in a merge: into the directory open in the sink, under `name`
/// (or as the merge's root, with its own path as name, when `name` is None), at merge position
/// `at`.
pub(super) struct Mount<'a> {
    pub(super) at: usize,
    pub(super) name: Option<&'a [u8]>,
    pub(super) graft: &'a mut dyn Graft,
}

/// An open directory: its sequence number, device and merge position.
type Open = (u32, u64, Option<usize>);

struct Parser<'s, R> {
    lx: Lexer<R>,
    key: Vec<u8>,
    name: Vec<u8>,
    scratch: Vec<u8>,
    sink: &'s mut Sink,
    mount: Option<Mount<'s>>,
}

impl<'s, R: std::io::BufRead> Parser<'s, R> {
    fn new(r: R, sink: &'s mut Sink, mount: Option<Mount<'s>>) -> Self {
        Parser {
            lx: Lexer::new(r),
            key: Vec::new(),
            name: Vec::new(),
            scratch: Vec::new(),
            sink,
            mount,
        }
    }

    /// The version and metadata, up to the root entry.
    fn header(&mut self) -> Result<Metadata, ImportError> {
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
        Ok(meta)
    }

    /// The root's name (the path it was scanned at), read from the start of an export.
    fn root_name(mut self) -> Result<Vec<u8>, ImportError> {
        self.header()?;
        self.lx.expect(b'[', "'['")?;
        self.lx.skip_ws()?;
        let start = self.lx.pos();
        let (info, name_pos) = self.info(true)?;
        if !info.has_name {
            return Err(self
                .lx
                .error_at(start, "entry without a \"name\" (every entry needs one)"));
        }
        if self.name.is_empty() || self.name.contains(&0) {
            return Err(self.lx.error_at(name_pos, "the root needs a name (a path)"));
        }
        Ok(std::mem::take(&mut self.name))
    }

    fn parse(mut self) -> Result<Metadata, ImportError> {
        let meta = self.header()?;
        self.entries()?;
        self.lx.expect(b']', "']' (the end of the export)")?;
        self.lx.skip_ws()?;
        if let Some(b) = self.lx.peek()? {
            return Err(self.lx.unexpected(Some(b), "the end of the input"));
        }
        Ok(meta)
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
    /// number, device, merge position).
    fn entries(&mut self) -> Result<(), ImportError> {
        let mut open: Vec<Open> = Vec::new();
        self.lx.expect(b'[', "'['")?;
        match self.entry(None, true)? {
            Some(root) => open.push(root),
            None => return Err(self.lx.error("the root could not be added")),
        }
        while let Some(&(parent, dev, at)) = open.last() {
            if self.lx.one_of(b",]", "',' or ']'")? == b']' {
                open.pop();
                if let (Some(at), Some(m)) = (at, self.mount.as_mut()) {
                    m.graft.closing(self.sink, at)?;
                }
                self.sink.out.close();
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
            // None for a directory: left out of a merge (read_error keeps a directory)
            if let Some(opened) = self.entry(Some((parent, dev, at)), is_dir)? {
                open.push(opened);
            }
        }
        Ok(())
    }

    /// The rest of a directory left out, up to its closing ']'.
    fn skip_rest_of_dir(&mut self) -> Result<(), ImportError> {
        while self.lx.one_of(b",]", "',' or ']'")? == b',' {
            self.lx.skip_value()?;
        }
        Ok(())
    }

    /// Reads one info object and records the entry; returns its (sequence number, device) if
    /// it is a directory (now open), or None when it is not (or only an error: a file that
    /// could not be stat'ed).
    fn entry(&mut self, parent: Option<Open>, is_dir: bool) -> Result<Option<Open>, ImportError> {
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
        let (parent_index, parent_dev, parent_at) = parent.unwrap_or((0, 0, None));
        let mut at = None;
        if let (Some(at_parent), Some(m)) = (parent_at, self.mount.as_mut()) {
            match m
                .graft
                .meet(at_parent, &self.name, is_dir, info.excluded.is_some())?
            {
                Meet::Plain => {}
                Meet::Descend(here) => at = Some(here),
                Meet::Skip => {
                    if is_dir {
                        self.skip_rest_of_dir()?;
                    }
                    return Ok(None);
                }
            }
        }
        if parent.is_none() {
            at = self.mount.as_ref().map(|m| m.at);
        }
        let dev = info.dev.unwrap_or(parent_dev);
        if info.read_error && !is_dir {
            let name = self.name.clone().into_boxed_slice();
            self.sink.failed.push((parent_index, name));
            return Ok(None);
        }
        if self.sink.count >= u32::MAX - 2 {
            return Err(self
                .lx
                .error_at(start, "too many entries (more than 4 billion)"));
        }
        self.sink.count += 1;

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
        if info.unscanned && is_dir {
            f |= flags::UNSCANNED;
        }
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
                if !self.sink.links_seen.insert((dev, ino)) {
                    f |= flags::DUPLICATE;
                }
            }
            if let (Some(n), true) = (info.nlink, self.sink.keep.identity) {
                links = Some(u32::try_from(n).unwrap_or(u32::MAX));
            }
        }
        let mtime = i64::try_from(info.mtime).unwrap_or(i64::MAX);
        let mut node = Node::new(kind, info.dsize, info.asize, mtime, f);
        if info.unscanned && is_dir {
            node.entries = 0; // not an entry of any scan
        }
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
        let mount_name = self.mount.as_ref().and_then(|m| m.name);
        let seq = match (parent, is_dir, mount_name) {
            (None, _, None) => {
                self.sink.out.root(self.name.clone(), node, key, extra);
                0
            }
            (None, _, Some(name)) => self.sink.out.open_dir(node, name, key, extra),
            (Some(_), true, _) => self.sink.out.open_dir(node, &self.name, key, extra),
            (Some(_), false, _) => {
                self.sink.out.add(node, &self.name, key, extra, links);
                return Ok(None);
            }
        };
        if unreadable {
            self.sink.unreadable.push(seq);
        }
        Ok(Some((seq, dev, at)))
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
                b"unscanned" => info.unscanned = self.boolean("unscanned")?,
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
