//! Which file on the disk each entry was: its `(st_dev, st_ino)`, kept in one of two forms.
//!
//! - Exact ([`Tree::has_identity`]: `hogs i`, an export of several paths or with -L, an
//!   import that keeps identities): every entry's, as it was set. Deleting re-checks every
//!   step of a path, directories included, and hard links are found by their key. The inodes
//!   are in an [`InodeLog`] (about 1.3 bytes an entry where 16 were a vector's), the devices
//!   in a [`SparseIdentity`]: a directory's as a 1-byte index, a file's is its directory's.
//!   Whatever these cannot give as it was set (a file on another device than its directory,
//!   a root file, an id set again with another value, as a mount point's own stat does) is
//!   kept whole in its `others`. Hard-linked files are not: a tree of hard links (backups)
//!   would hold 30 bytes and more an entry there; the sweeps that read all their keys read
//!   the log forward instead ([`IdentityReader`]).
//! - Sparse (`TreeBuilder::sparse_identity`: an export of one path): only what an export
//!   reads. The device of every directory, to say where a mount point starts, and `(dev,
//!   ino)` of the few other entries an export names (hard links, a file on another device
//!   than its directory). A map of every directory's `(dev, ino)` was most of what an export
//!   held beyond the tree (1.6 MB on `big`).

use rustc_hash::FxHashMap;

use super::inodes::{Cursor, InodeLog};
use super::{flags, LinkKey, NodeId, Tree, TOTAL};

const NO_DEVICE: u8 = u8::MAX;
/// A directory on a device met after the first [`MORE_DEVICES`]: in `more_devices`.
const MORE_DEVICES: u8 = u8::MAX - 1;

#[derive(Clone, Debug, Default)]
pub struct SparseIdentity {
    /// The first devices met (a scan meets a handful).
    devices: Vec<u64>,
    /// By directory index (the tree's `DirInfo`s): its device's index in `devices`, one
    /// byte (where four were 150 kB on `big`).
    dir_device: Vec<u8>,
    /// The device of a directory on none of `devices`, by directory index.
    more_devices: FxHashMap<usize, u64>,
    /// `(dev, ino)` of the other entries kept.
    others: FxHashMap<NodeId, LinkKey>,
}

impl SparseIdentity {
    pub(super) fn set_dir(&mut self, dir: usize, dev: u64) {
        let i = match self.devices.iter().position(|&d| d == dev) {
            Some(i) => i,
            None if self.devices.len() < usize::from(MORE_DEVICES) => {
                self.devices.push(dev);
                self.devices.len() - 1
            }
            None => usize::from(MORE_DEVICES),
        };
        if self.dir_device.len() <= dir {
            self.dir_device.resize(dir + 1, NO_DEVICE);
        }
        self.dir_device[dir] = i as u8;
        if i == usize::from(MORE_DEVICES) {
            self.more_devices.insert(dir, dev);
        } else if !self.more_devices.is_empty() {
            self.more_devices.remove(&dir);
        }
    }

    /// The device of a directory, by its index.
    pub(super) fn dir(&self, dir: usize) -> Option<u64> {
        match *self.dir_device.get(dir)? {
            NO_DEVICE => None,
            MORE_DEVICES => self.more_devices.get(&dir).copied(),
            i => self.devices.get(usize::from(i)).copied(),
        }
    }

    pub(super) fn set_other(&mut self, id: NodeId, key: LinkKey) {
        self.others.insert(id, key);
    }

    pub(super) fn other(&self, id: NodeId) -> Option<LinkKey> {
        if self.others.is_empty() {
            return None;
        }
        self.others.get(&id).copied()
    }

    fn forget_other(&mut self, id: NodeId) {
        if !self.others.is_empty() {
            self.others.remove(&id);
        }
    }
}

impl Tree {
    /// Whether every entry's exact `(dev, ino)` is kept ([`Tree::identity_of`] then gives
    /// each as the scan saw it): what deleting needs. An export's sparse identities are not.
    pub fn has_identity(&self) -> bool {
        self.inodes.is_some()
    }

    /// Forgets the identities, for a tree that will never need them.
    pub fn drop_identity(&mut self) {
        self.inodes = None;
        self.sparse_identity = SparseIdentity::default();
    }

    /// Keeps identities from now on: every entry's exactly, or (`sparse`) only what an
    /// export reads.
    pub(super) fn keep_identity(&mut self, sparse: bool) {
        if sparse {
            self.inodes = None;
        } else if self.inodes.is_none() {
            self.inodes = Some(InodeLog::default());
        }
    }

    /// Room for `ids` exact identities, taken ahead ([`InodeLog::reserve`]).
    pub(super) fn reserve_identity(&mut self, ids: usize) {
        if let Some(log) = self.inodes.as_mut() {
            log.reserve(ids);
        }
    }

    /// The scanned `(dev, ino)` of a node, if identities were kept. Of the sparse ones, a
    /// directory's inode is not kept (0); of the exact ones, a node never given one reads
    /// (0, 0). Decodes up to a run of the log (a sweep over many nodes in id order reads
    /// them through one `identity_reader`, which goes on from the last).
    pub fn identity_of(&self, id: NodeId) -> Option<LinkKey> {
        self.identity_reader().of(id)
    }

    /// The device [`Tree::identity_of`] gives, without decoding the inode: what an export
    /// writes of every entry (of an entry never given an identity, its directory's).
    pub fn device_of(&self, id: NodeId) -> Option<u64> {
        let s = &self.sparse_identity;
        if let Some((dev, _)) = s.other(id) {
            return Some(dev);
        }
        if id as usize >= self.len() {
            return None;
        }
        match self.dir_index(id) {
            Some(d) => s.dir(d),
            None if self.inodes.is_none() => None,
            None => self.device_of_dir(self.parent(id)),
        }
    }

    /// Identities of nodes looked up in ascending order, the log read forward.
    pub(super) fn identity_reader(&self) -> IdentityReader<'_> {
        IdentityReader {
            tree: self,
            inodes: self.inodes.as_ref().map(InodeLog::cursor),
        }
    }

    /// (bytes of inode differences, runs of them, entries kept whole) of the exact
    /// identities: what they cost.
    pub fn identity_size(&self) -> (usize, usize, usize) {
        let (bytes, runs) = self.inodes.as_ref().map_or((0, 0), InodeLog::size);
        (bytes, runs, self.sparse_identity.others.len())
    }

    fn device_of_dir(&self, id: NodeId) -> Option<u64> {
        self.sparse_identity.dir(self.dir_index(id)?)
    }

    /// Records `key` as the exact identity of `id`, which [`Tree::identity_of`] gives back
    /// whatever the order of the calls; compact when ids come as a walk gives them (each
    /// directory's children in order, after its own). A no-op unless exact identities are
    /// kept.
    pub(super) fn set_exact_identity(&mut self, id: NodeId, key: LinkKey) {
        let (dev, ino) = key;
        let Some(log) = self.inodes.as_mut() else {
            return;
        };
        let ino_kept = log.push(id, ino) || log.get(id) == Some(ino);
        let dev_kept = match self.dir_index(id) {
            Some(d) => {
                if self.sparse_identity.dir(d) != Some(dev) {
                    self.move_dir_device(id, d, dev);
                }
                true
            }
            None => id != TOTAL && self.device_of_dir(self.parent(id)) == Some(dev),
        };
        if ino_kept && dev_kept {
            self.sparse_identity.forget_other(id);
        } else {
            self.sparse_identity.set_other(id, key);
        }
    }

    /// Gives directory `id` (index `d`) the device `dev`. The files below it already
    /// recorded took their device from it: they keep the one they had, whole. (A walk gives
    /// a directory its device before its children theirs: none are.)
    fn move_dir_device(&mut self, id: NodeId, d: usize, dev: u64) {
        if let (Some(old), Some(log)) = (self.sparse_identity.dir(d), &self.inodes) {
            let s = &self.sparse_identity;
            let pinned: Vec<(NodeId, LinkKey)> = (self.node(id).children())
                .filter(|&c| self.dir_index(c).is_none() && s.other(c).is_none())
                .filter_map(|c| Some((c, (old, log.get(c)?))))
                .collect();
            for (c, key) in pinned {
                self.sparse_identity.set_other(c, key);
            }
        }
        self.sparse_identity.set_dir(d, dev);
    }

    /// Records what an export reads of `key`, the identity of `id` (see the module's
    /// comment). Flags set before.
    pub(super) fn set_sparse_identity(&mut self, id: NodeId, key: LinkKey) {
        if let Some(d) = self.dir_index(id) {
            self.sparse_identity.set_dir(d, key.0);
            return;
        }
        let parent = self.parent(id);
        let needed = parent == TOTAL
            || self.head(id).flags() & flags::HARDLINK != 0
            || self.identity_of(parent).map(|(dev, _)| dev) != Some(key.0);
        if needed {
            self.sparse_identity.set_other(id, key);
        }
    }
}

/// Reads identities ([`Tree::identity_of`]); lookups of ascending ids decode each byte of the
/// log once.
pub(super) struct IdentityReader<'a> {
    tree: &'a Tree,
    inodes: Option<Cursor<'a>>,
}

impl IdentityReader<'_> {
    pub(super) fn of(&mut self, id: NodeId) -> Option<LinkKey> {
        let t = self.tree;
        let s = &t.sparse_identity;
        if let Some(key) = s.other(id) {
            return Some(key);
        }
        let Some(inodes) = self.inodes.as_mut() else {
            return s.dir(t.dir_index(id)?).map(|dev| (dev, 0));
        };
        if id as usize >= t.len() {
            return None;
        }
        let dev = match t.dir_index(id) {
            Some(d) => s.dir(d),
            None => t.device_of_dir(t.parent(id)),
        };
        match (dev, inodes.get(id)) {
            (Some(dev), Some(ino)) => Some((dev, ino)),
            _ => Some((0, 0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_keep_their_device_and_others_their_identity() {
        let mut s = SparseIdentity::default();
        s.set_dir(3, 64);
        s.set_dir(0, 65);
        s.set_dir(7, 64);
        s.set_other(12, (64, 99));
        assert_eq!(
            (s.dir(3), s.dir(0), s.dir(7)),
            (Some(64), Some(65), Some(64))
        );
        assert_eq!((s.dir(1), s.dir(8)), (None, None), "never set");
        assert_eq!((s.other(12), s.other(3)), (Some((64, 99)), None));
        assert_eq!(s.devices.len(), 2);
    }

    /// A byte a directory names its device among the first 254 met; the rest are kept
    /// whole, and a directory set again moves between the two.
    #[test]
    fn directories_on_many_devices_keep_theirs() {
        let mut s = SparseIdentity::default();
        for dir in 0..600 {
            s.set_dir(dir, 1000 + dir as u64 % 300);
        }
        for dir in 0..600 {
            assert_eq!(s.dir(dir), Some(1000 + dir as u64 % 300), "{dir}");
        }
        assert_eq!(s.devices.len(), 254);
        s.set_dir(599, 1000); // from a device kept whole to one with an index
        s.set_dir(0, 1299);
        assert_eq!((s.dir(599), s.dir(0)), (Some(1000), Some(1299)));
        assert!(!s.more_devices.contains_key(&599));
        assert_eq!(s.dir(600), None);
    }

    use crate::tree::{EntryKind, Node, TreeBuilder};

    fn dir() -> Node {
        Node::new(EntryKind::Dir, 0, 0, 0, 0)
    }

    fn file(f: u8) -> Node {
        Node::new(EntryKind::File, 0, 0, 0, f)
    }

    /// r/{a/{x, y (hard-linked), w}, b, c/{z}}, c's children appended before a's (as a
    /// faster thread would): (builder, [r, a, b, c, z, x, y, w]).
    fn sample() -> (TreeBuilder, [NodeId; 8]) {
        let mut b = TreeBuilder::with_identity(true);
        let r = b.add_roots(vec![(b"r".to_vec(), dir())]);
        let a = b.add_children(
            r,
            [(dir(), &b"a"[..]), (file(0), b"b"), (dir(), b"c")].into_iter(),
        );
        let z = b.add_children(a + 2, [(file(0), &b"z"[..])].into_iter());
        let kids = [
            (file(0), &b"x"[..]),
            (file(flags::HARDLINK), b"y"),
            (file(0), b"w"),
        ];
        let x = b.add_children(a, kids.into_iter());
        (b, [r, a, a + 1, a + 2, z, x, x + 1, x + 2])
    }

    /// As a walk sets them ([r, a, b, c, z, x, y, w] of `sample`): each block in order after
    /// its directory; c, a mount point, is listed with its parent's device and the inode
    /// under it, then its own stat says its device and root inode; w is a file bound from
    /// another device; inodes above 2^63 (XFS inode64).
    const HIGH: u64 = 1 << 63;
    const WALK: [(usize, LinkKey); 9] = [
        (0, (1, 2)),
        (1, (1, HIGH + 10)),
        (2, (1, HIGH + 11)),
        (3, (1, HIGH + 9)),
        (3, (2, 128)),
        (4, (2, 131)),
        (5, (1, HIGH + 40)),
        (6, (1, HIGH + 38)),
        (7, (3, 7)),
    ];

    #[test]
    fn a_walk_keeps_whole_only_what_the_log_and_devices_cannot_give() {
        let (mut b, ids) = sample();
        for (i, key) in WALK {
            b.set_identity(ids[i], key);
        }
        let t = b.into_tree();
        for (i, key) in WALK.into_iter().skip(1).filter(|&(i, _)| i != 3) {
            assert_eq!(t.identity_of(ids[i]), Some(key), "entry {i}");
        }
        assert_eq!(
            t.identity_of(ids[3]),
            Some((2, 128)),
            "the mount point's own stat"
        );
        assert_eq!(t.identity_of(ids[0]), Some((1, 2)));
        assert_eq!(t.identity_of(TOTAL), Some((0, 0)), "never set");
        assert_eq!(t.identity_of(99), None, "no such entry");
        let (_, runs, others) = t.identity_size();
        assert_eq!(runs, 1, "each id the one after the last: one run");
        assert_eq!(others, 2, "the mount point and w");
        assert!(t.has_identity());
    }

    #[test]
    fn identities_set_in_any_order_come_back_as_last_set() {
        let mut next = crate::tree::xorshift(0x2545_F491_4F6C_DD1D);
        let extra: [(usize, LinkKey); 4] =
            [(3, (1, HIGH + 9)), (4, (1, 5)), (1, (2, 3)), (5, (1, 6))];
        for round in 0..200 {
            let (mut b, ids) = sample();
            let mut sets: Vec<(usize, LinkKey)> = WALK.into_iter().chain(extra).collect();
            for i in (1..sets.len()).rev() {
                sets.swap(i, next(i as u64 + 1) as usize);
            }
            sets.truncate(sets.len() - next(3) as usize);
            let mut want = [Some((0, 0)); 8];
            for (i, key) in sets {
                b.set_identity(ids[i], key);
                want[i] = Some(key);
            }
            let t = b.into_tree();
            let got = ids.map(|id| t.identity_of(id));
            assert_eq!(got, want, "round {round}");
        }
    }

    #[test]
    fn a_rescanned_subtree_keeps_exact_identities() {
        let (mut b, ids) = sample();
        for (i, key) in WALK {
            b.set_identity(ids[i], key);
        }
        let mut t = b.into_tree();
        t.finish();
        // c again: now on device 4, with z and a new directory n/{q}
        let mut b = TreeBuilder::with_identity(true);
        b.add_roots(vec![(b"r/c".to_vec(), dir())]);
        b.set_identity(1, (4, 2));
        let z = b.add_children(1, [(file(0), &b"z"[..]), (dir(), b"n")].into_iter());
        b.set_identity(z, (4, 12));
        b.set_identity(z + 1, (4, 13));
        let q = b.add_children(z + 1, [(file(0), &b"q"[..])].into_iter());
        b.set_identity(q, (5, 1));
        let mut sub = b.into_tree();
        sub.finish();
        t.graft(ids[3], &sub);
        let c = ids[3];
        let kids: Vec<NodeId> = t.node(c).children().collect();
        let q = t.node(kids[1]).first_child;
        let got = [c, kids[0], kids[1], q].map(|id| t.identity_of(id));
        assert_eq!(got, [(4, 2), (4, 12), (4, 13), (5, 1)].map(Some));
        for (i, key) in WALK.into_iter().filter(|&(i, _)| i != 3 && i != 4) {
            assert_eq!(t.identity_of(ids[i]), Some(key), "entry {i}, untouched");
        }
    }
}
