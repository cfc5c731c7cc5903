//! The identities an export reads, when only they are kept (`TreeBuilder::sparse_identity`):
//! the device of every directory, to say where a mount point starts, and `(dev, ino)` of the
//! few other entries an export names (hard links, a file on another device than its
//! directory). A map of every directory's `(dev, ino)` was most of what an export held
//! beyond the tree (1.6 MB on `big`); a device index a directory is 4 bytes.

use rustc_hash::FxHashMap;

use super::{LinkKey, NodeId};

const NO_DEVICE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub struct SparseIdentity {
    /// The devices met (a scan meets a handful).
    devices: Vec<u64>,
    /// By directory index (the tree's `DirInfo`s): its device's index in `devices`.
    dir_device: Vec<u32>,
    /// `(dev, ino)` of the other entries kept.
    others: FxHashMap<NodeId, LinkKey>,
}

impl SparseIdentity {
    pub(super) fn set_dir(&mut self, dir: usize, dev: u64) {
        let i = match self.devices.iter().position(|&d| d == dev) {
            Some(i) => i,
            None => {
                self.devices.push(dev);
                self.devices.len() - 1
            }
        };
        if self.dir_device.len() <= dir {
            self.dir_device.resize(dir + 1, NO_DEVICE);
        }
        self.dir_device[dir] = i as u32;
    }

    /// The device of a directory, by its index.
    pub(super) fn dir(&self, dir: usize) -> Option<u64> {
        let i = *self.dir_device.get(dir)?;
        self.devices.get(i as usize).copied()
    }

    pub(super) fn set_other(&mut self, id: NodeId, key: LinkKey) {
        self.others.insert(id, key);
    }

    pub(super) fn other(&self, id: NodeId) -> Option<LinkKey> {
        self.others.get(&id).copied()
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
}
