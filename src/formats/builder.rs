//! What every reader of an export builds from the entries it reads ([`Sink`]): the tree a walk
//! builds ([`PostOrderBuilder`]: own sizes, not yet totals), or, for a merge written as it is
//! read, a binary export ([`Streamed`]); with what both readers check of an entry (its name,
//! its hard links, the times the filters need), and the hooks by which a merge
//! ([`crate::import::merge`]) places its parts ([`Mount`], [`Graft`]).

use rustc_hash::FxHashSet;

use super::ImportError;
use crate::tree::{
    flags, Built, EntryKind, Node, NodeId, PostOrderBuilder, Sharing, StatExtra, Tree, TOTAL,
};
use crate::vocab::TimeField;
use crate::walk::{ErrorAt, ErrorKind, Scan, ScanError};

mod out;

pub use out::Streamed;

use out::Out;

/// The longest name an entry below the root may have (Linux's NAME_MAX).
pub(crate) const NAME_MAX: usize = 255;

/// The metadata block and version of an export.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    pub major: u64,
    pub minor: u64,
    pub progname: Option<String>,
    pub progver: Option<String>,
    /// When the file was written (seconds since the epoch), as the writer says.
    pub timestamp: Option<u64>,
    /// Entries the file marks as hard links (`hlnkc`).
    pub hard_links: u64,
    /// An ncdu 2 binary export: its writer marks every hard link (the format has no
    /// `progname`).
    pub binary: bool,
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
    /// `dev`/`ino` as [`Tree::identity_of`] and `nlink` as [`Tree::links`] (for exporting
    /// again, and for deleting).
    pub identity: bool,
    /// `uid`/`gid`/`mode` as [`Tree::extra`], when the export has them.
    pub extra: bool,
    /// The time the time filters read: an export that does not record it for every entry is
    /// refused, for a missing time read as 0 would filter by a date no entry has.
    pub time: Option<TimeField>,
}

impl Keep {
    pub const ALL: Keep = Keep {
        identity: true,
        extra: true,
        time: None,
    };
}

/// The time the filters `fields` read that an export must record: access and change times
/// (which no export records) before modification times.
pub fn time_needed(fields: impl IntoIterator<Item = TimeField>) -> Option<TimeField> {
    fields
        .into_iter()
        .max_by_key(|f| !matches!(f, TimeField::Modified))
}

/// Why an export without the times `field` is refused.
/// What is wrong with a name below the root, if anything (both readers: a directory could
/// not hold it).
pub(crate) fn bad_name(n: &[u8]) -> Option<&'static str> {
    Some(if n.len() > NAME_MAX {
        "a name longer than 255 bytes"
    } else if n.contains(&b'/') {
        "a name with '/' in it"
    } else if n.contains(&0) {
        "a name with a NUL byte in it"
    } else if n == b"." || n == b".." {
        "the name '.' or '..'"
    } else {
        return None;
    })
}

/// The owner and mode an export records of an entry (its extended fields), when it has all
/// three.
pub(crate) fn owner_of(uid: Option<u64>, gid: Option<u64>, mode: Option<u64>) -> Option<StatExtra> {
    Some(StatExtra {
        uid: uid? as u32,
        gid: gid? as u32,
        mode: mode? as u32,
        ..StatExtra::default()
    })
}

fn no_times(field: TimeField) -> &'static str {
    match field {
        TimeField::Modified => {
            "it records no modification times, which --mtime needs (export it with hogs --export-extended or ncdu -e)"
        }
        TimeField::Accessed => {
            "no export records access times, which --atime needs (filter a scan of the directory)"
        }
        TimeField::Changed => {
            "no export records change times, which --ctime needs (filter a scan of the directory)"
        }
    }
}

/// What the entries read so far have built: one export's, or every part's of a merge
/// ([`crate::import::merge`]), which reads its parts one after the other into the same tree.
pub(crate) struct Sink {
    /// The tree, grown as the entries are read (never a second copy of them), or the binary
    /// export they are written to.
    pub(crate) out: Out,
    /// Entries (nodes) so far.
    pub(crate) count: u32,
    /// Directories recorded as unreadable, by sequence number (they keep their node, as in a
    /// walk).
    unreadable: Vec<u32>,
    /// Entries recorded as unreadable that are not directories: (parent's sequence number,
    /// name). A walk keeps no node for them either, only the error.
    failed: Vec<(u32, Box<[u8]>)>,
    /// Directories a part left out that no part of the merge scanned, by sequence number,
    /// with the name of that part's file.
    unfilled: Vec<(u32, Vec<u8>)>,
    /// (dev, ino) of the hard links met so far: later names are duplicates (in a merge, in
    /// any part).
    links_seen: FxHashSet<(u64, u64)>,
    keep: Keep,
    /// What each node read so far holds exclusively and shares (`--extents`), in the order
    /// read; `None` once an entry has none (an export without the mode, or a merge).
    pub(crate) sharing: Option<Vec<Sharing>>,
}

impl Sink {
    pub(crate) fn new(keep: Keep) -> Sink {
        Sink {
            out: Out::Tree(PostOrderBuilder::new(keep.identity, keep.extra)),
            count: 0,
            unreadable: Vec::new(),
            failed: Vec::new(),
            unfilled: Vec::new(),
            links_seen: FxHashSet::default(),
            keep,
            sharing: Some(Vec::new()),
        }
    }

    /// A sink that writes what it is given into a binary export, keeping no tree.
    pub(crate) fn streaming(to: Streamed) -> Sink {
        let keep = Keep {
            identity: true,
            extra: true,
            time: None,
        };
        let mut sink = Sink::new(keep);
        sink.out = Out::Binary(Box::new(to));
        sink.sharing = None; // the binary format has no `--extents` values
        sink
    }

    /// The binary export a [`Sink::streaming`] writes to.
    pub(crate) fn into_streamed(self) -> Option<Streamed> {
        match self.out {
            Out::Binary(b) => Some(*b),
            Out::Tree(_) => None,
        }
    }

    /// An entry of the directory `parent` (its sequence number, the directory open) that
    /// could not be read: a walk keeps no node for it either, only the error.
    pub(crate) fn entry_failed(&mut self, parent: u32, name: &[u8]) {
        match &mut self.out {
            Out::Tree(_) => self.failed.push((parent, name.into())),
            Out::Binary(b) => {
                b.writer.failed(name);
                b.report(ErrorKind::Access, Some(name));
            }
        }
    }

    /// The directory just opened (sequence number `seq`) could not be read.
    pub(crate) fn dir_unreadable(&mut self, seq: u32) {
        match &mut self.out {
            Out::Tree(_) => self.unreadable.push(seq),
            Out::Binary(b) => b.report(ErrorKind::ReadDir, None),
        }
    }

    /// The directory `name` just opened (sequence number `seq`) was left out by the part `by`
    /// of a merge, and no part scanned it: nothing of it is counted.
    pub(super) fn unfilled(&mut self, seq: u32, name: &[u8], by: Vec<u8>) {
        match &mut self.out {
            Out::Tree(_) => self.unfilled.push((seq, by)),
            Out::Binary(b) => b.report_unfilled(name, &by),
        }
    }

    /// The tree and the errors it records, by path as a walk reports them.
    pub(crate) fn into_scan(self) -> Scan {
        let builder = match self.out {
            Out::Tree(t) => t,
            Out::Binary(_) => PostOrderBuilder::new(false, false), // its entries were written
        };
        let Built { mut tree, dir_ids } = builder.into_tree();
        if let Some(read) = self.sharing.filter(|s| s.len() + 1 == tree.len()) {
            tree.sharing = in_preorder(&tree, &read);
        }
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
            .chain(self.unfilled.into_iter().map(|(seq, by)| ScanError {
                at: ErrorAt::Unfilled {
                    path: tree.path(dir(seq)),
                    by,
                },
                kind: ErrorKind::Unfilled,
                errno: 0,
            }))
            .collect();
        Scan::with_errors_by_path(tree, errors)
    }

    /// A directory no part scanned, between the parts of a merge: no size and no entry of
    /// its own ([`flags::UNSCANNED`]). `None`: the root of the merge. Opened: what follows
    /// is in it.
    pub(crate) fn unscanned_dir(&mut self, name: &[u8], root: bool) {
        // a directory between the parts: what it shares is no part's to say
        self.sharing = None;
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

impl Sink {
    /// The flags and link count of a hard-linked file (both readers): a name of an inode
    /// (`dev`, `ino`) met before in this import is a duplicate, counted once; the link count
    /// is kept with the identities.
    pub(crate) fn hard_link(
        &mut self,
        dev: u64,
        ino: Option<u64>,
        nlink: Option<u64>,
    ) -> (u8, Option<u32>) {
        let mut f = flags::HARDLINK;
        if ino.is_some_and(|ino| !self.links_seen.insert((dev, ino))) {
            f |= flags::DUPLICATE;
        }
        let links = nlink.filter(|_| self.keep.identity);
        (f, links.map(|n| u32::try_from(n).unwrap_or(u32::MAX)))
    }

    /// Refuses an entry that counts (`counted`) without the time the filters read (it has a
    /// modification time: `has_mtime`; no export records the others).
    pub(crate) fn check_time_of(&self, counted: bool, has_mtime: bool) -> Result<(), ImportError> {
        match self.keep.time {
            Some(TimeField::Modified) if !counted || has_mtime => Ok(()),
            Some(field) => Err(ImportError::Missing(no_times(field))),
            None => Ok(()),
        }
    }

    /// Records what the node just made holds exclusively and shares (`--extents`): the first
    /// entry without it means the export has none.
    pub(crate) fn record_sharing_of(&mut self, sharing: Option<Sharing>) {
        match (&mut self.sharing, sharing) {
            (Some(v), Some(s)) => v.push(s),
            (Some(v), None) if v.is_empty() => self.sharing = None,
            // an entry that holds nothing of its own (left out, a duplicate) writes nothing
            (Some(v), None) => v.push(Sharing::default()),
            (None, _) => {}
        }
    }
}

/// The values read, one per node in the order of the file (a depth-first walk in directory
/// order, which is how the tree keeps its children), by node id; the total's are its root's.
fn in_preorder(tree: &Tree, read: &[Sharing]) -> Vec<Sharing> {
    let mut out = vec![Sharing::default(); tree.len()];
    let mut next = read.iter();
    let mut stack: Vec<NodeId> = tree.roots().rev().collect();
    while let Some(id) = stack.pop() {
        out[id as usize] = next.next().copied().unwrap_or_default();
        stack.extend(tree.node(id).children().rev());
    }
    if let Some(root) = tree.roots().next() {
        out[TOTAL as usize] = out[root as usize];
    }
    out
}

/// What a merge does where a part being read meets the place of another part.
#[derive(Clone, Copy)]
pub(crate) enum Meet {
    /// Nothing there: the entry is read as usual.
    Plain,
    /// A directory with other parts below it: read as usual, its merge position given.
    Descend(usize),
    /// Left out: another part, given first, has it.
    Skip,
    /// An entry the part left out (`"excluded"`) that another part scanned, at this merge
    /// position: that part is read in its place, now, so that the merge meets every name in
    /// directory order, as du does (a hard link shared by two parts counts where du counts it).
    Fill(usize),
}

/// The hooks of a merge ([`crate::import::merge`]) into the reading of one of its parts. A merge
/// position is where a directory is in the merge's tree of part roots.
pub(crate) trait Graft {
    /// An entry `name` of the directory at merge position `at` was read: what to do with it.
    /// `excluded`: the entry says it was not scanned (`Some(true)`: another filesystem;
    /// `Some(false)`: a pattern).
    fn meet(
        &mut self,
        at: usize,
        name: &[u8],
        is_dir: bool,
        excluded: Option<bool>,
    ) -> Result<Meet, ImportError>;
    /// Reads what belongs at merge position `at` into the directory open in the sink, where
    /// the part being read left it out ([`Meet::Fill`]).
    fn fill(&mut self, sink: &mut Sink, at: usize) -> Result<(), ImportError>;
    /// A directory the part being read left out by a pattern was not filled by another part:
    /// the name of the part's file, when the merge reports it (a merge of one file, an
    /// export written again from itself, does not).
    fn unfilled_by(&self) -> Option<Vec<u8>>;
    /// The directory at merge position `at` is about to close: the parts that belong in it and
    /// were not met are read into it now.
    fn closing(&mut self, sink: &mut Sink, at: usize) -> Result<(), ImportError>;
}

/// Where a part's root goes in a merge: into the directory open in the sink, under `name`
/// (or as the merge's root, with its own path as name, when `name` is None), at merge position
/// `at`.
pub(crate) struct Mount<'a> {
    pub(crate) at: usize,
    pub(crate) name: Option<&'a [u8]>,
    pub(crate) graft: &'a mut dyn Graft,
}
