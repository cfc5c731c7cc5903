//! Whether names that share an inode number share an inode: in `-f` mode files claim
//! without a stat, and on most filesystems a number repeated on one device is a hard link,
//! but pseudo-filesystems (procfs gives every `/proc/PID/net/*` of a namespace one number)
//! reuse numbers for different files, each with one link. A repeated number is believed
//! only after a stat: one name per device says whether the device reuses numbers
//! (`st_nlink` 1 beside a repeated number: two inodes), and on a device that does, every
//! name of a repeated number is stat'ed. On a filesystem with real numbers that is one stat
//! for the whole scan.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirEntryExt, MetadataExt};

use rustc_hash::{FxHashMap, FxHashSet};

use super::{ClaimLog, FileClaim};
use crate::tree::{NodeId, Tree};

/// The link count of the file at `path` (as the walk spells it), `None` when it cannot be
/// told (gone meanwhile, a path too long): the repeated number is then believed, which can
/// only make a count smaller, never bigger than the truth.
fn links_at(path: &[u8]) -> Option<u64> {
    std::fs::symlink_metadata(OsStr::from_bytes(path))
        .ok()
        .map(|m| m.nlink())
}

/// What is known of a device's inode numbers.
#[derive(Default)]
struct Devices(FxHashMap<u32, bool>);

impl Devices {
    /// Whether names on `dev` must each be stat'ed: asks `links` of the first name met.
    fn reuses_numbers(&mut self, dev: u32, links: impl FnOnce() -> Option<u64>) -> bool {
        *self.0.entry(dev).or_insert_with(|| links() == Some(1))
    }
}

/// The claims (nodes of files) among those of repeated numbers that are inodes of their
/// own: a link count of 1 on a device that reuses numbers.
pub(super) fn lone_inodes(
    claims: impl Iterator<Item = FileClaim>,
    tree: &Tree,
) -> FxHashSet<NodeId> {
    let mut devices = Devices::default();
    let mut lone = FxHashSet::default();
    for c in claims {
        let mut links = None;
        let reuses = devices.reuses_numbers(c.dev, || {
            links = links_at(&tree.path(c.id));
            links
        });
        if reuses {
            let n = links.or_else(|| links_at(&tree.path(c.id)));
            if n == Some(1) {
                lone.insert(c.id);
            }
        }
    }
    lone
}

/// For files summed into their directories (`id` is the directory): how many inodes hide
/// behind the repeated numbers beyond one each. The names are found again by listing the
/// directories concerned (their files have no node), first one per device, for its verdict,
/// then, on a device that reuses numbers, every one that holds a repeated number.
pub(super) fn hidden_inodes(
    logs: &[ClaimLog],
    repeated: impl Fn(u32, u64) -> bool,
    devices_in_scan: usize,
    tree: &Tree,
) -> usize {
    let mut listings: FxHashMap<NodeId, FxHashMap<u64, Vec<Vec<u8>>>> = FxHashMap::default();
    let mut names_of = |dir: NodeId, ino: u64| -> Vec<Vec<u8>> {
        let listing = listings.entry(dir).or_insert_with(|| list(tree, dir));
        let names = listing.get(&ino).map(Vec::as_slice).unwrap_or_default();
        names
            .iter()
            .map(|name| {
                let mut path = tree.path(dir);
                path.push(b'/');
                path.extend_from_slice(name);
                path
            })
            .collect()
    };
    let mut devices = Devices::default();
    let mut groups: FxHashMap<(u32, u64), FxHashSet<NodeId>> = FxHashMap::default();
    for c in logs.iter().flat_map(ClaimLog::iter) {
        if devices.0.len() == devices_in_scan && devices.0.values().all(|reuses| !reuses) {
            break; // every device named its inodes: nothing hides
        }
        if devices.0.get(&c.dev) == Some(&false) || !repeated(c.dev, c.ino) {
            continue; // a device whose numbers name inodes, or a number met once
        }
        if devices.reuses_numbers(c.dev, || first_name_links(tree, c.id, c.ino)) {
            groups.entry((c.dev, c.ino)).or_default().insert(c.id);
        }
    }
    let mut hidden = 0;
    for ((_, ino), dirs) in groups {
        let counts: Vec<Option<u64>> = dirs
            .into_iter()
            .flat_map(|dir| names_of(dir, ino))
            .map(|p| links_at(&p))
            .collect();
        let lone = counts.iter().filter(|n| **n == Some(1)).count();
        let linked = counts.iter().any(|n| n.is_some_and(|n| n > 1));
        hidden += (lone + usize::from(linked)).saturating_sub(1);
    }
    hidden
}

/// The link count of the first name in directory `dir` of inode number `ino` (listed until
/// it is found: a device's verdict needs one name).
fn first_name_links(tree: &Tree, dir: NodeId, ino: u64) -> Option<u64> {
    let path = tree.path(dir);
    let entries = std::fs::read_dir(OsStr::from_bytes(&path)).ok()?;
    let entry = entries.filter_map(Result::ok).find(|e| e.ino() == ino)?;
    entry.metadata().ok().map(|m| m.nlink())
}

/// A directory's names by inode number (empty if it cannot be read now).
fn list(tree: &Tree, dir: NodeId) -> FxHashMap<u64, Vec<Vec<u8>>> {
    let mut names: FxHashMap<u64, Vec<Vec<u8>>> = FxHashMap::default();
    let path = tree.path(dir);
    if let Ok(entries) = std::fs::read_dir(OsStr::from_bytes(&path)) {
        for e in entries.filter_map(Result::ok) {
            names
                .entry(e.ino())
                .or_default()
                .push(e.file_name().as_bytes().to_vec());
        }
    }
    names
}
