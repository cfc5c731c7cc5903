//! What each listed entry becomes: a node, and for some a subdirectory to walk, an inode to
//! claim (hard links) or an error. Worked out on the thread that read the entries, or, for
//! the batches of a huge directory, on the thread that stat'ed them, so that all the tree's
//! lock sees is copies.

use super::dedup::NameClaim;
use super::entries::{name_bytes, Listed, StatBatch, StatResult, EXCLUDED, READY_STEP};
use super::placed::{DirClaim, Facts, Placed, Subdir, FOLDED_INTO_DIR};
use super::plan::Fold;
use crate::sys::{Meta, Times};
use crate::tree::{flags, spare_room, EntryKind, Node, StatExtra};
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

/// The node of an entry left out by -X or as hidden, kept as a mark
/// ([`crate::walk::Exclusions::mark`]): its kind from the listing, no size, counted nowhere.
pub(crate) fn left_out_node(kind: Option<EntryKind>) -> Node {
    Node::new(kind.unwrap_or(EntryKind::File), 0, 0, 0, flags::FILTERED)
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

/// One listed entry as placing takes it: its stat (`None` when it was not stat'ed), its type
/// and inode from the listing, its name, its times when kept.
pub(super) struct Entry<'a> {
    pub(super) stat: Option<&'a StatResult>,
    pub(super) kind: Option<EntryKind>,
    pub(super) ino: u64,
    pub(super) name: &'a [u8],
    pub(super) times: Times,
}

/// What decides what an entry becomes: the same for every entry of a directory.
#[derive(Copy, Clone)]
pub(super) struct Placer {
    pub(super) mode: SizeMode,
    /// Files are not stat'ed: every inode goes through the hard-link set.
    pub(super) count_mode: bool,
    pub(super) one_filesystem: bool,
    pub(super) dedup_dirs: bool,
    pub(super) dedup_files: bool,
    /// The tree keeps each node's identity or owner and times ([`Placed::facts`]).
    pub(super) keep_facts: bool,
    /// Which files are summed into their directory, not made nodes ([`Placed::folded`]).
    pub(super) fold: Fold,
    /// Device of the directory, and of the root it is under (for -x).
    pub(super) dev: u64,
    pub(super) root_dev: u64,
}

impl Placer {
    /// Places every entry of `c` in order: `emit` gets the node and name of each one whose
    /// stat did not fail.
    pub(super) fn place(&self, c: &Listed, out: &mut Placed, mut emit: impl FnMut(Node, &[u8])) {
        for (i, e) in c.ents.iter().enumerate() {
            if e.stat == EXCLUDED {
                self.place_left_out(e.kind, e.ino, name_bytes(&c.names, e), out, &mut emit);
                continue;
            }
            let entry = Entry {
                stat: e.stat(&c.stats),
                kind: e.kind,
                ino: e.ino,
                name: name_bytes(&c.names, e),
                times: c.times.get(i).copied().unwrap_or_default(),
            };
            self.place_one(entry, out, &mut emit);
        }
    }

    /// Places one entry.
    #[inline]
    pub(super) fn place_one(
        &self,
        entry: Entry<'_>,
        out: &mut Placed,
        emit: &mut impl FnMut(Node, &[u8]),
    ) {
        let Entry {
            stat,
            kind,
            ino,
            name,
            times,
        } = entry;
        let (edev, eino, nlink, eperm) = match stat {
            Some(Err(err)) => {
                // vanished since listed (renamed, removed) included: left out, so named, as du
                // names it; a total silently short of a whole directory is a wrong number
                out.failed.push((name.into(), err.raw_os_error()));
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
        let folds = match self.fold {
            Fold::Never => false,
            Fold::LoneFiles => !claims,
            Fold::EveryFile => !claims || !stat_done,
        };
        if folds && !node.is_dir() {
            if claims {
                out.file_claims.push(NameClaim {
                    key: (edev, eino),
                    node: FOLDED_INTO_DIR,
                });
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
                    out.dir_claims.push(DirClaim {
                        key: (edev, eino),
                        node: j,
                        name_off: off,
                        perm: eperm,
                    });
                } else {
                    out.subdirs.push(Subdir {
                        node: j,
                        name_off: off,
                        dev: edev,
                        perm: stat_done.then_some(eperm),
                    });
                }
            }
        } else if claims {
            // count mode has no link count: every inode goes through the set
            out.file_claims.push(NameClaim {
                key: (edev, eino),
                node: j,
            });
        }
        if self.keep_facts {
            out.facts.push(self.facts_of(stat, ino, times));
        }
        emit(node, name);
        out.count += 1;
    }

    /// Places an entry left out (-X, hidden) as its mark ([`EXCLUDED`]): no stat, no walk,
    /// no claim.
    fn place_left_out(
        &self,
        kind: Option<EntryKind>,
        ino: u64,
        name: &[u8],
        out: &mut Placed,
        emit: &mut impl FnMut(Node, &[u8]),
    ) {
        if self.keep_facts {
            out.facts.push(self.facts_of(None, ino, Times::default()));
        }
        emit(left_out_node(kind), name);
        out.count += 1;
    }

    /// What the tree keeps of an entry beyond its node: from its stat, or (not stat'ed) its
    /// identity from the listing.
    fn facts_of(&self, stat: Option<&StatResult>, ino: u64, times: Times) -> Facts {
        match stat {
            Some(Ok(m)) => {
                let links = if m.nlink > 1 && m.kind != EntryKind::Dir {
                    m.nlink
                } else {
                    0
                };
                Facts {
                    extra: stat_extra(m, times),
                    identity: (m.dev, m.ino),
                    links,
                }
            }
            _ => Facts {
                extra: StatExtra::default(),
                identity: (self.dev, ino),
                links: 0,
            },
        }
    }

    /// Makes a stat'ed batch its nodes, on the thread that stat'ed it, and lets go of its
    /// names, records and stats (a huge directory would otherwise keep them all until its
    /// last name was read and stat'ed).
    pub(super) fn place_batch(&self, batch: &mut StatBatch) {
        let c = &batch.listed;
        batch.access_denied = c.access_denied();
        batch.unstated = c.unstated();
        let (nodes, node_names) = (&mut batch.nodes, &mut batch.node_names);
        nodes.reserve(c.ents.len());
        node_names.reserve(c.names.len());
        if c.ents.len() >= READY_STEP {
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
