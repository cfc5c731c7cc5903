//! Which names of an inode the walk counts: the hard-link set, and when a name must go
//! through it at all (a directory reached twice, a file named by two arguments).

use super::dedup::{LinkSet, NameClaim, SettledClaims};
use crate::sys::Meta;
use crate::tree::{EntryKind, LinkKey, NodeId, Tree};

pub(super) struct Claims {
    links: LinkSet,
    /// With several arguments or -L the same directory can be reached twice: count it once.
    dirs: bool,
    /// A file argument may also be met inside a directory argument: then every file's inode
    /// goes through the set, as GNU du does with several arguments.
    files: bool,
    /// Only totals are shown (`WalkOptions::fold_files`) of one path: a file -f reads no
    /// link count of is summed into its directory too, its repeats taken off there (which
    /// of its names counts does not matter under one path; under several, the first
    /// path's must, as du counts it).
    fold_unstated: bool,
}

impl Claims {
    pub(super) fn new(links: LinkSet, dirs: bool, files: bool, fold_unstated: bool) -> Claims {
        Claims {
            links,
            dirs,
            files,
            fold_unstated,
        }
    }

    /// Every file's inode goes through the set from now on (see `files`).
    pub(super) fn claim_every_file(&mut self) {
        self.files = true;
    }

    /// Whether a directory may be reached twice, so that its inode must be claimed.
    pub(super) fn dirs(&self) -> bool {
        self.dirs
    }

    /// Whether every file's inode must be claimed, its link count whatever it is.
    pub(super) fn files(&self) -> bool {
        self.files
    }

    /// Whether a file -f reads no link count of may be summed into its directory.
    pub(super) fn fold_unstated(&self) -> bool {
        self.fold_unstated
    }

    /// Whether a root is counted (an argument repeating an earlier one counts nothing).
    pub(super) fn claim_root(&self, id: NodeId, meta: &Meta) -> bool {
        if !self.dirs {
            return true;
        }
        if meta.kind == EntryKind::Dir {
            self.links.claim_dir((meta.dev, meta.ino), id)
        } else {
            // which name of a file counts is settled after the walk
            let key = (meta.dev, meta.ino);
            self.links.claim_files(&[NameClaim { key, node: id }]);
            true
        }
    }

    /// Whether directory `node` is the first name of its inode met (the one walked); always
    /// when no directory can be reached twice.
    pub(super) fn first_dir_name(&self, key: LinkKey, node: NodeId) -> bool {
        !self.dirs || self.links.claim_dir(key, node)
    }

    /// See [`LinkSet::claim_dir`].
    pub(super) fn claim_dir(&self, key: LinkKey, node: NodeId) -> bool {
        self.links.claim_dir(key, node)
    }

    /// See [`LinkSet::claim_files`].
    pub(super) fn claim_files(&self, claims: &[NameClaim]) {
        self.links.claim_files(claims)
    }

    /// See [`LinkSet::count_folded`].
    pub(super) fn count_folded(&self, dir: NodeId, claims: &[NameClaim]) {
        self.links.count_folded(dir, claims)
    }

    /// See [`LinkSet::file_log_room`].
    pub(super) fn file_log_room(&self, n: usize) -> (usize, usize) {
        self.links.file_log_room(n)
    }

    /// The names that count settled in `tree` (see [`LinkSet::settle`]).
    pub(super) fn settle(self, tree: &mut Tree) -> SettledClaims {
        self.links.settle(tree)
    }
}
