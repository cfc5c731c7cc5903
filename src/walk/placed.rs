//! What placing a directory's entries gives besides their nodes: the subdirectories to walk,
//! the inodes to claim, the files summed into the directory, the errors, the facts kept.

use super::dedup::NameClaim;
use crate::tree::{LinkKey, Node, NodeId, StatExtra};

/// The claim of a file summed into its directory ([`super::plan::Fold::EveryFile`]): only
/// its inode counts (see `LinkSet::count_folded`).
pub(super) const FOLDED_INTO_DIR: NodeId = NodeId::MAX;

/// Sizes of the files summed into their directory instead of made nodes.
#[derive(Default, Clone, Copy)]
pub(super) struct Folded {
    pub(super) disk: u64,
    pub(super) apparent: u64,
    pub(super) entries: u32,
    pub(super) mtime: Option<i64>,
}

impl Folded {
    pub(super) fn add(&mut self, n: &Node) {
        self.disk = self.disk.saturating_add(n.disk);
        self.apparent = self.apparent.saturating_add(n.apparent);
        self.entries = self.entries.saturating_add(n.entries);
        self.mtime = self.mtime.max(Some(n.mtime));
    }

    pub(super) fn add_all(&mut self, o: &Folded) {
        self.disk = self.disk.saturating_add(o.disk);
        self.apparent = self.apparent.saturating_add(o.apparent);
        self.entries = self.entries.saturating_add(o.entries);
        self.mtime = self.mtime.max(o.mtime);
    }

    /// Adds the files to the sizes of the directory they were read from.
    pub(super) fn into_dir(self, dir: &mut Node) {
        dir.disk = dir.disk.saturating_add(self.disk);
        dir.apparent = dir.apparent.saturating_add(self.apparent);
        dir.entries = dir.entries.saturating_add(self.entries);
        if let Some(t) = self.mtime {
            dir.mtime = dir.mtime.max(t);
        }
    }
}

/// A subdirectory to walk.
#[derive(Copy, Clone, Debug)]
pub(super) struct Subdir {
    pub(super) node: NodeId,
    /// Offset of its NUL-terminated name in [`Placed::sub_names`].
    pub(super) name_off: u32,
    pub(super) dev: u64,
    /// Its permission bits, when it was stat'ed from its parent.
    pub(super) perm: Option<u32>,
}

/// A stat'ed subdirectory that is walked only if it wins the claim of its inode.
#[derive(Copy, Clone, Debug)]
pub(super) struct DirClaim {
    pub(super) key: LinkKey,
    pub(super) node: NodeId,
    pub(super) name_off: u32,
    pub(super) perm: u32,
}

/// What the tree keeps of an entry beyond its node, when asked.
#[derive(Copy, Clone, Debug, Default)]
pub struct Facts {
    /// Owner, mode and times.
    pub extra: StatExtra,
    pub identity: LinkKey,
    /// Link count of a hard-linked file, else 0.
    pub links: u64,
}

/// What placing a directory's entries gives besides their nodes. Node ids are relative to
/// the first entry placed until the tree's lock says where the children go.
#[derive(Default)]
pub(super) struct Placed {
    /// Entries placed: the next one's id.
    pub(super) count: NodeId,
    pub(super) bytes: u64,
    /// The directories to walk.
    pub(super) subdirs: Vec<Subdir>,
    /// The directories that are walked only if they win their claim.
    pub(super) dir_claims: Vec<DirClaim>,
    /// The files that may share their inode with another name (the node
    /// [`FOLDED_INTO_DIR`] for a file summed into `folded`).
    pub(super) file_claims: Vec<NameClaim>,
    /// The files not made nodes ([`super::plan::Fold`]).
    pub(super) folded: Folded,
    /// NUL-terminated names of the subdirectories (grown in place, not per directory: a
    /// chain of reallocs a directory made the threads meet on the allocator's lock).
    pub(super) sub_names: Vec<u8>,
    /// (name, errno) of the entries whose stat failed: they are not placed.
    pub(super) failed: Vec<(Box<[u8]>, i32)>,
    /// Per entry placed, when the tree keeps them.
    pub(super) facts: Vec<Facts>,
    /// A streamed walk's: the sink's id of each entry placed (see `DirSink::listed`).
    pub(super) ids: Vec<NodeId>,
}

impl Placed {
    pub(super) fn clear(&mut self) {
        self.count = 0;
        self.bytes = 0;
        self.subdirs.clear();
        self.dir_claims.clear();
        self.file_claims.clear();
        self.sub_names.clear();
        self.failed.clear();
        self.facts.clear();
        self.ids.clear();
        self.folded = Folded::default();
    }

    /// Takes in what a batch placed, after what is here.
    pub(super) fn append(&mut self, other: &mut Placed) {
        let (base, sub_base) = (self.count, self.sub_names.len() as u32);
        self.subdirs.extend(other.subdirs.iter().map(|&s| Subdir {
            node: s.node + base,
            name_off: s.name_off + sub_base,
            ..s
        }));
        self.dir_claims
            .extend(other.dir_claims.iter().map(|&c| DirClaim {
                node: c.node + base,
                name_off: c.name_off + sub_base,
                ..c
            }));
        self.file_claims
            .extend(other.file_claims.iter().map(|&c| match c.node {
                FOLDED_INTO_DIR => c,
                node => NameClaim {
                    node: node + base,
                    ..c
                },
            }));
        self.folded.add_all(&other.folded);
        self.sub_names.extend_from_slice(&other.sub_names);
        self.failed.append(&mut other.failed);
        self.facts.append(&mut other.facts);
        self.bytes = self.bytes.saturating_add(other.bytes);
        self.count += other.count;
    }
}
