//! The directories a view has listed, numbered: an entry's id names its directory by that
//! number and says where the entry is in the directory's listing, so that what is kept of
//! an entry ([`super::listing`]) is found with no search, as a loaded tree finds a node,
//! and an id stays 16 bytes.

use rustc_hash::FxHashMap;

use super::{ItemId, NONE, NO_DIR};

/// The directories listed: each one's itemref and its own id (where it is listed), once a
/// view has gone down into it.
#[derive(Default)]
pub(super) struct Dirs {
    dirs: Vec<(u64, ItemId)>,
    by_item: FxHashMap<u64, u32>,
}

impl Dirs {
    /// The number of directory `item`, given one if it has none.
    pub(super) fn number(&mut self, item: u64) -> u32 {
        if let Some(&n) = self.by_item.get(&item) {
            return n;
        }
        // (more directories than u32 numbers would need more items than a file may claim)
        let n = u32::try_from(self.dirs.len()).unwrap_or(NO_DIR - 1);
        self.dirs.push((item, ItemId::root_of(item)));
        self.by_item.insert(item, n);
        n
    }

    /// Records `id` as the id of the directory it names (a view went down into it).
    pub(super) fn went_into(&mut self, id: ItemId) {
        let n = self.number(id.item);
        if let Some(d) = self.dirs.get_mut(n as usize) {
            d.1 = id;
        }
    }

    /// The itemref of directory number `n` (`NONE` for no directory).
    pub(super) fn item(&self, n: u32) -> u64 {
        self.dirs.get(n as usize).map_or(NONE, |d| d.0)
    }

    /// The id of directory number `n`, as the view went into it.
    pub(super) fn id(&self, n: u32) -> Option<ItemId> {
        self.dirs.get(n as usize).map(|d| d.1)
    }

    /// How many are numbered.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.dirs.len()
    }
}
