//! What each listed entry becomes: a node, and for some a subdirectory to walk, an inode to
//! claim (hard links) or an error. Worked out on the thread that read the entries, or, for
//! the batches of a huge directory, on the thread that stat'ed them, so that all the tree's
//! lock sees is copies.

use super::entries::{name_bytes, spare_room, Listed, StatBatch, StatResult, SubdirName};
use crate::sys::{Errno, Meta, Times};
use crate::tree::{flags, EntryKind, LinkKey, Node, NodeId, StatExtra};
use crate::vocab::SizeMode;

/// A node for an entry whose stat we have; sizes are left at 0 in count mode.
pub(super) fn node_for(meta: &Meta, mode: SizeMode) -> Node {
    let mut f = 0;
    if meta.nlink > 1 && meta.kind != EntryKind::Dir {
        f |= flags::HARDLINK;
    }
    match mode {
        SizeMode::Count => Node::new(meta.kind, 0, 0, meta.mtime, f),
        _ => Node::new(meta.kind, meta.disk_bytes(), meta.size, meta.mtime, f),
    }
}

/// What the tree keeps of a stat beyond the node, when asked: owner, mode and times.
pub(super) fn stat_extra(meta: &Meta, times: Times) -> StatExtra {
    StatExtra {
        uid: meta.uid,
        gid: meta.gid,
        mode: meta.mode,
        atime: times.atime,
        ctime: times.ctime,
    }
}

/// What decides what an entry becomes: the same for every entry of a directory.
#[derive(Copy, Clone)]
pub(super) struct Placer {
    pub(super) mode: SizeMode,
    /// Files are not stat'ed: every inode goes through the hard-link set.
    pub(super) count_mode: bool,
    pub(super) follow: bool,
    pub(super) one_filesystem: bool,
    pub(super) dedup_dirs: bool,
    pub(super) dedup_files: bool,
    /// The tree keeps each node's identity or owner and times ([`Placed::facts`]).
    pub(super) keep_facts: bool,
    /// Files are summed into their directory, not made nodes ([`Placed::folded`]): those
    /// that claim no inode (one name, as their stat says); with `fold_unstated` (-f, one
    /// path) every one, its inode counted by `LinkSet::count_folded`. Otherwise a file of
    /// several names stays a node: which name counts its size is settled after the walk.
    pub(super) fold_files: bool,
    pub(super) fold_unstated: bool,
    /// Device of the directory, and of the root it is under (for -x).
    pub(super) dev: u64,
    pub(super) root_dev: u64,
}

/// The claim of a file summed into its directory ([`Placer::fold_unstated`]): only its
/// inode counts (see `LinkSet::count_folded`).
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
    fn add(&mut self, n: &Node) {
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

/// What placing a directory's entries gives besides their nodes. Node ids are relative to
/// the first entry placed until the tree's lock says where the children go.
#[derive(Default)]
pub(super) struct Placed {
    /// Entries placed: the next one's id.
    pub(super) count: NodeId,
    pub(super) bytes: u64,
    /// (node, offset of its name in `sub_names`, device, permission bits when stat'ed) of
    /// the directories to walk.
    pub(super) subdirs: Vec<(NodeId, u32, u64, Option<u32>)>,
    /// (inode, node, name) of the directories that are walked only if they win their claim.
    pub(super) dir_claims: Vec<(LinkKey, NodeId, SubdirName)>,
    /// (inode, node) of the files that may share their inode with another name (the node
    /// [`FOLDED_INTO_DIR`] for a file summed into `folded`).
    pub(super) file_claims: Vec<(LinkKey, NodeId)>,
    /// The files not made nodes ([`Placer::fold_files`]).
    pub(super) folded: Folded,
    /// NUL-terminated names of the subdirectories (grown in place, not per directory: a
    /// chain of reallocs a directory made the threads meet on the allocator's lock).
    pub(super) sub_names: Vec<u8>,
    /// (name, errno) of the entries whose stat failed: they are not placed.
    pub(super) failed: Vec<(Box<[u8]>, i32)>,
    /// Per entry placed, when the tree keeps them: (owner, mode and times; identity; link
    /// count of a hard-linked file, else 0).
    pub(super) facts: Vec<(StatExtra, LinkKey, u64)>,
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
        self.folded = Folded::default();
    }

    /// Takes in what a batch placed, after what is here.
    pub(super) fn append(&mut self, other: &mut Placed) {
        let (base, sub_base) = (self.count, self.sub_names.len() as u32);
        let subdirs = other.subdirs.iter();
        self.subdirs
            .extend(subdirs.map(|&(j, off, dev, perm)| (j + base, off + sub_base, dev, perm)));
        let dir_claims = other.dir_claims.iter();
        self.dir_claims.extend(
            dir_claims.map(|&(key, j, (off, perm))| (key, j + base, (off + sub_base, perm))),
        );
        let file_claims = other.file_claims.iter();
        self.file_claims
            .extend(file_claims.map(|&(key, j)| match j {
                FOLDED_INTO_DIR => (key, j),
                _ => (key, j + base),
            }));
        self.folded.add_all(&other.folded);
        self.sub_names.extend_from_slice(&other.sub_names);
        self.failed.append(&mut other.failed);
        self.facts.append(&mut other.facts);
        self.bytes = self.bytes.saturating_add(other.bytes);
        self.count += other.count;
    }
}

impl Placer {
    /// Places every entry of `c` in order: `emit` gets the node and name of each one whose
    /// stat did not fail.
    pub(super) fn place(&self, c: &Listed, out: &mut Placed, mut emit: impl FnMut(Node, &[u8])) {
        for (i, e) in c.ents.iter().enumerate() {
            let times = c.times.get(i).copied().unwrap_or_default();
            let name = name_bytes(&c.names, e);
            self.place_one(e.stat(&c.stats), e.kind, e.ino, name, times, out, &mut emit);
        }
    }

    /// Places one entry: its stat (`None` when it was not stat'ed), its type and inode
    /// from the listing, its name.
    #[allow(clippy::too_many_arguments)] // an entry's parts, as the listing gives them
    #[inline]
    pub(super) fn place_one(
        &self,
        stat: Option<&StatResult>,
        kind: Option<EntryKind>,
        ino: u64,
        name: &[u8],
        times: Times,
        out: &mut Placed,
        emit: &mut impl FnMut(Node, &[u8]),
    ) {
        let (edev, eino, nlink, eperm) = match stat {
            Some(Err(err)) => {
                // vanished since listed: silent, unless -L met a dangling link
                if *err != Errno::NOENT || self.follow {
                    out.failed.push((name.into(), err.raw_os_error()));
                }
                return;
            }
            Some(Ok(m)) => (m.dev, m.ino, m.nlink, m.mode & 0o7777),
            None => (self.dev, ino, 0, 0),
        };
        let j = out.count;
        let mut node = match stat {
            Some(Ok(meta)) => node_for(meta, self.mode),
            _ => Node::new(kind.unwrap_or(EntryKind::Other), 0, 0, 0, 0),
        };
        out.bytes = out.bytes.saturating_add(node.disk);
        let stat_done = stat.is_some();
        let claims = nlink > 1 || self.dedup_files || (self.count_mode && !stat_done);
        // a file summed into its directory, unless it is a name of an inode that may be
        // shared: which of its names counts is decided after the walk, a node each
        // (without a stat, -f, under one path, its repeats are taken off the directory)
        if self.fold_files && !node.is_dir() && (!claims || (!stat_done && self.fold_unstated)) {
            if claims {
                out.file_claims.push(((edev, eino), FOLDED_INTO_DIR));
            }
            out.folded.add(&node);
            return;
        }
        if node.is_dir() {
            if stat_done && self.one_filesystem && edev != self.root_dev {
                node.set_flag(flags::OTHER_FS);
            } else {
                let off = out.sub_names.len() as u32;
                out.sub_names.extend_from_slice(name);
                out.sub_names.push(0);
                if stat_done && self.dedup_dirs {
                    out.dir_claims.push(((edev, eino), j, (off, eperm)));
                } else {
                    out.subdirs.push((j, off, edev, stat_done.then_some(eperm)));
                }
            }
        } else if claims {
            // count mode has no link count: every inode goes through the set
            out.file_claims.push(((edev, eino), j));
        }
        if self.keep_facts {
            out.facts.push(match stat {
                Some(Ok(m)) => {
                    let links = if m.nlink > 1 && m.kind != EntryKind::Dir {
                        m.nlink
                    } else {
                        0
                    };
                    (stat_extra(m, times), (m.dev, m.ino), links)
                }
                _ => (StatExtra::default(), (self.dev, ino), 0),
            });
        }
        emit(node, name);
        out.count += 1;
    }

    /// Makes a stat'ed batch its nodes, on the thread that stat'ed it, and lets go of its
    /// names, records and stats (a huge directory kept them all until its last name was
    /// read and stat'ed: 11 MB for 100,000 entries).
    pub(super) fn place_batch(&self, batch: &mut StatBatch) {
        let c = &batch.listed;
        batch.access_denied = c.access_denied();
        batch.unstated = c.unstated();
        let (nodes, node_names) = (&mut batch.nodes, &mut batch.node_names);
        nodes.reserve(c.ents.len());
        node_names.reserve(c.names.len());
        if c.ents.len() >= super::entries::READY_STEP {
            // a span of a split listing: its nodes' pages in one call, not a fault each
            for (addr, len) in [spare_room(nodes), spare_room(node_names)] {
                crate::sys::prefault(addr, len);
            }
        }
        self.place(c, &mut batch.placed, |node, name| {
            nodes.push(node.with_local_name(node_names.len(), name.len()));
            node_names.extend_from_slice(name);
        });
        batch.listed = Listed::default();
    }
}
