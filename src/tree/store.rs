//! How the tree keeps its entries: a [`Slot`] each (12 to 20 bytes, see `slot`), and a
//! [`DirInfo`] of 40 bytes more for each directory (about one entry in ten to twenty).
//! Readers get a whole [`Node`] by value ([`Tree::node`]) and writers give one back
//! ([`Tree::set_node`]); only the hot sweeps over every entry (totals, filters) read the
//! slots themselves.
//!
//! A file's parent is not kept: every directory's children are one block of ids, and the
//! blocks start in the order they were appended, so [`Tree::parent`] finds the block that
//! holds an id by binary search in [`Tree::blocks`]. A directory keeps its parent in its
//! [`DirInfo`], so a path upwards costs one search, at its file.

use super::slot::{
    wide_key, Field, Slot, ESC, FIELD_BITS, HAS_DIR, NO_ENTRY, TOTALS, WIDE_ENTRIES,
};
use super::{EntryKind, Node, NodeId, Tree, TOTAL};

/// What only a directory has: its children and (after [`Tree::finish`]) its subtree totals.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct DirInfo {
    pub(super) parent: NodeId,
    pub(super) first_child: NodeId,
    pub(super) child_count: u32,
    pub(super) entries: u32,
    /// With [`TOTALS`]: the directory's own disk size in 512-byte units ([`ESC`]: whole in
    /// [`Tree::wide`]).
    pub(super) own_disk: u32,
    /// Seconds since 1970 ([`ESC`]: whole in [`Tree::wide`], as [`Field::DirTime`]): read
    /// through [`Tree::dir_time`].
    mtime: u32,
    pub(super) disk: u64,
    pub(super) apparent: u64,
}

impl DirInfo {
    /// `n`'s children, count and sizes, listed in `parent`.
    fn of(parent: NodeId, n: &Node) -> DirInfo {
        DirInfo {
            parent,
            first_child: n.first_child,
            child_count: n.child_count,
            entries: n.entries,
            disk: n.disk,
            apparent: n.apparent,
            mtime: 0, // (set by `Tree::set_dir_time`: it may need the wide map)
            own_disk: 0,
        }
    }

    /// Puts its children, count and sizes into `n`.
    fn fill(&self, n: &mut Node) {
        n.first_child = self.first_child;
        n.child_count = self.child_count;
        n.entries = self.entries;
        n.disk = self.disk;
        n.apparent = self.apparent;
    }
}

impl Tree {
    /// A tree of just [`TOTAL`], with no size and no entries of its own.
    pub(super) fn with_total() -> Tree {
        let mut t = Tree::default();
        let mut total = Node::new(EntryKind::Dir, 0, 0, i64::MIN, 0);
        total.entries = 0;
        t.push_node(TOTAL, &total);
        t
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.len() <= 1
    }

    #[inline]
    pub(super) fn dir_index(&self, id: NodeId) -> Option<usize> {
        let h = self.head(id);
        h.has_dir().then_some(h.disk() as usize)
    }

    #[inline]
    fn wide_or(&self, id: NodeId, f: Field, v: u32) -> u64 {
        if v == ESC {
            self.wide.get(&wide_key(id, f)).copied().unwrap_or(0)
        } else {
            u64::from(v)
        }
    }

    /// The entry's size in `mode` ([`Node::size`]), read straight from its slot when it can.
    #[inline]
    pub fn size_of(&self, id: NodeId, mode: crate::vocab::SizeMode) -> u64 {
        use crate::vocab::SizeMode;
        match self.slot(id).small_values() {
            Some((disk, apparent, entries, mtime)) => match mode {
                SizeMode::Disk => disk,
                SizeMode::Apparent => apparent,
                SizeMode::Count => u64::from(entries),
                SizeMode::Time => mtime.max(0) as u64,
            },
            None => self.node(id).size(mode),
        }
    }

    /// The entry's disk and apparent sizes and entries at once, read as [`Tree::size_of`] does.
    #[inline]
    pub fn sizes_of(&self, id: NodeId) -> super::Sizes {
        let (disk, apparent, entries) = match self.slot(id).small_values() {
            Some((disk, apparent, entries, _)) => (disk, apparent, entries),
            None => {
                let n = self.node(id);
                (n.disk, n.apparent, n.entries)
            }
        };
        super::Sizes {
            disk,
            apparent,
            entries: u64::from(entries),
        }
    }

    /// What a view asks of every entry before it shows it: its size in `mode`, its kind and
    /// its flags.
    #[inline]
    pub fn size_kind_flags(
        &self,
        id: NodeId,
        mode: crate::vocab::SizeMode,
    ) -> (u64, EntryKind, u8) {
        let h = self.head(id);
        let kind = EntryKind::from_bits(u64::from(h.meta() >> 16));
        (self.size_of(id, mode), kind, h.flags())
    }

    /// The entry, whole, by value.
    #[inline]
    pub fn node(&self, id: NodeId) -> Node {
        let s = self.slot(id);
        let mut n = Node {
            first_child: 0,
            child_count: 0,
            entries: 0,
            packed: s.packed(),
            disk: 0,
            apparent: 0,
            mtime: 0,
        };
        if let Some(d) = self.dir_index(id) {
            self.dirs[d].fill(&mut n);
            n.mtime = self.dir_time(id, d);
            return n;
        }
        (n.disk, n.apparent, n.entries, n.mtime) = self.leaf_values(id, s.disk);
        n
    }

    /// (disk, apparent, entries, mtime) kept in the slot's leaf fields, its disk size being
    /// `disk_units` (a file's slot has it; a directory's own, [`DirInfo::own_disk`]).
    fn leaf_values(&self, id: NodeId, disk_units: u32) -> (u64, u64, u32, i64) {
        let s = self.slot(id);
        let disk = match disk_units {
            ESC => self.wide_or(id, Field::Disk, ESC),
            v => u64::from(v) * 512,
        };
        let apparent = self.wide_or(id, Field::Apparent, s.apparent);
        let mtime = match s.time {
            ESC => self
                .wide
                .get(&wide_key(id, Field::Time))
                .map_or(0, |&t| t as i64),
            t => i64::from(t),
        };
        let entries = if s.meta & WIDE_ENTRIES != 0 {
            self.wide_or(id, Field::Entries, ESC) as u32
        } else {
            u32::from(s.meta & NO_ENTRY == 0)
        };
        (disk, apparent, entries, mtime)
    }

    /// The time in directory `id`'s [`DirInfo`] (index `d`).
    #[inline]
    fn dir_time(&self, id: NodeId, d: usize) -> i64 {
        match self.dirs[d].mtime {
            ESC => self
                .wide
                .get(&wide_key(id, Field::DirTime))
                .map_or(0, |&t| t as i64),
            t => i64::from(t),
        }
    }

    /// Sets the time in directory `id`'s [`DirInfo`] (index `d`): 32 bits almost always.
    fn set_dir_time(&mut self, id: NodeId, d: usize, mtime: i64) {
        let t = u32::try_from(mtime)
            .ok()
            .filter(|&t| t != ESC)
            .unwrap_or(ESC);
        let was = std::mem::replace(&mut self.dirs[d].mtime, t);
        if t == ESC {
            self.wide.insert(wide_key(id, Field::DirTime), mtime as u64);
        } else if was == ESC {
            self.wide.remove(&wide_key(id, Field::DirTime));
        }
    }

    /// A directory whose [`DirInfo`] holds totals summed during the walk ([`TOTALS`]).
    fn totalled_dir(&self, id: NodeId) -> Option<usize> {
        let h = self.head(id);
        (h.meta() & TOTALS != 0).then_some(h.disk() as usize)
    }

    /// The entry as the walk gave it: for a directory whose totals were summed while the
    /// walk runs ([`Tree::sum_live`]), its own sizes, time and count rather than the totals.
    pub(super) fn own_node(&self, id: NodeId) -> Node {
        let mut n = self.node(id);
        if let Some(d) = self.totalled_dir(id) {
            let own_disk = self.dirs[d].own_disk;
            (n.disk, n.apparent, n.entries, n.mtime) = self.leaf_values(id, own_disk);
        }
        n
    }

    /// Stores `n` as the entry's own values ([`Tree::own_node`]): a directory whose totals
    /// were summed keeps them (the next sum uses these values); anything else as
    /// [`Tree::set_node`].
    pub(super) fn set_own_node(&mut self, id: NodeId, n: &Node) {
        let Some(d) = self.totalled_dir(id).filter(|_| n.is_dir()) else {
            self.set_node(id, n);
            return;
        };
        let mut kept = n.clone();
        let info = self.dirs[d];
        (kept.disk, kept.apparent, kept.entries, kept.mtime) =
            (info.disk, info.apparent, info.entries, self.dir_time(id, d));
        self.set_node(id, &kept);
        self.store_own(id, d, n);
    }

    /// Keeps `n`'s values as the own values of directory `id` (index `d`), in its slot's leaf
    /// fields and [`DirInfo::own_disk`].
    fn store_own(&mut self, id: NodeId, d: usize, n: &Node) {
        // the slot's disk field is the directory's index: lend it to the leaf encoding
        let own_disk = self.dirs[d].own_disk;
        let index = self.head_mut(id).replace_disk(own_disk);
        self.set_leaf_values(id, n);
        self.dirs[d].own_disk = self.head_mut(id).replace_disk(index);
        self.head_mut(id).set_meta_bits(TOTALS);
    }

    /// Makes every directory's [`DirInfo`] hold its own values before its totals are summed
    /// (those of `zero` hold none: disk, apparent and count 0), keeping them apart the first
    /// time: a sum can then run again and again while the walk adds entries.
    pub(super) fn reset_to_own(&mut self, zero: impl Fn(NodeId, u8) -> bool) {
        for id in 0..self.len() as NodeId {
            let Some(d) = self.dir_index(id) else {
                continue;
            };
            if self.head(id).meta() & TOTALS == 0 {
                let n = self.node(id);
                self.dirs[d].own_disk = 0;
                self.store_own(id, d, &n);
            }
            let (disk, apparent, entries, mtime) = self.leaf_values(id, self.dirs[d].own_disk);
            self.set_dir_time(id, d, mtime);
            let zeroed = zero(id, self.head(id).flags());
            let info = &mut self.dirs[d];
            if zeroed {
                (info.disk, info.apparent, info.entries) = (0, 0, 0);
            } else {
                (info.disk, info.apparent, info.entries) = (disk, apparent, entries);
            }
        }
    }

    /// Puts every directory's own values back in its [`DirInfo`], as if no totals had been
    /// summed: what the walk hands over when it ends.
    pub(super) fn forget_totals(&mut self) {
        for id in 0..self.len() as NodeId {
            let Some(d) = self.totalled_dir(id) else {
                continue;
            };
            let n = self.own_node(id);
            self.clear_wide(id);
            let mut s = self.slot(id);
            s.meta &= !(TOTALS | NO_ENTRY | WIDE_ENTRIES);
            (s.apparent, s.time) = (0, 0);
            self.set_slot(id, s);
            self.set_dir_time(id, d, n.mtime);
            let info = &mut self.dirs[d];
            (info.disk, info.apparent, info.entries) = (n.disk, n.apparent, n.entries);
            info.own_disk = 0;
        }
    }

    /// The directory that lists `id` ([`TOTAL`] for a scanned root and for [`TOTAL`]).
    #[inline]
    pub fn parent(&self, id: NodeId) -> NodeId {
        if id == TOTAL {
            return TOTAL;
        }
        if let Some(d) = self.dir_index(id) {
            return self.dirs[d].parent;
        }
        let k = self.blocks.partition_point(|&(first, _)| first <= id);
        match k {
            0 => TOTAL,
            k => self.blocks[k - 1].1,
        }
    }

    /// Stores `n` as entry `id`: its kind, flags, sizes, time, count and children (the name
    /// stays). A directory gets a [`DirInfo`] the first time it needs one.
    pub fn set_node(&mut self, id: NodeId, n: &Node) {
        let needs_dir = n.is_dir() || n.child_count > 0;
        let had_dir = self.head(id).has_dir();
        if needs_dir && !had_dir {
            let mut s = self.slot(id);
            let parent = self.parent(id);
            self.clear_wide(id);
            let d = self.dirs.len() as u32;
            self.dirs.push(DirInfo {
                parent,
                ..DirInfo::default()
            });
            s.meta = (s.meta & !(NO_ENTRY | WIDE_ENTRIES | TOTALS)) | HAS_DIR;
            (s.disk, s.apparent, s.time) = (d, 0, 0);
            self.set_slot(id, s);
        } else if !needs_dir && had_dir {
            // a directory rescanned as a file: its DirInfo stays behind, unused
            let mut s = self.slot(id);
            if s.meta & TOTALS != 0 {
                s.meta &= !(TOTALS | NO_ENTRY | WIDE_ENTRIES);
                (s.apparent, s.time) = (0, 0);
                self.clear_wide(id);
            }
            s.meta &= !HAS_DIR;
            self.set_slot(id, s);
        }
        self.head_mut(id).set_kind_and_flags(n.packed);
        if let Some(d) = self.dir_index(id) {
            let DirInfo {
                parent, own_disk, ..
            } = self.dirs[d];
            let mtime = self.dirs[d].mtime;
            self.dirs[d] = DirInfo {
                own_disk,
                mtime,
                ..DirInfo::of(parent, n)
            };
            self.set_dir_time(id, d, n.mtime);
        } else {
            self.set_leaf_values(id, n);
        }
    }

    /// Forgets every value of `id` kept whole.
    fn clear_wide(&mut self, id: NodeId) {
        self.clear_wide_leaf(id);
        if !self.wide.is_empty() {
            self.wide.remove(&wide_key(id, Field::DirTime));
        }
    }

    /// Forgets the values of `id`'s slot kept whole (not its [`DirInfo`]'s time).
    fn clear_wide_leaf(&mut self, id: NodeId) {
        if !self.wide.is_empty() {
            for f in [Field::Disk, Field::Apparent, Field::Time, Field::Entries] {
                self.wide.remove(&wide_key(id, f));
            }
        }
    }

    fn set_leaf_values(&mut self, id: NodeId, n: &Node) {
        let disk = match n.disk {
            d if d.is_multiple_of(512) && d / 512 < u64::from(ESC) => (d / 512) as u32,
            _ => ESC,
        };
        let apparent = u32::try_from(n.apparent)
            .ok()
            .filter(|&a| a != ESC)
            .unwrap_or(ESC);
        let time = u32::try_from(n.mtime)
            .ok()
            .filter(|&t| t != ESC)
            .unwrap_or(ESC);
        let entries = match n.entries {
            0 => NO_ENTRY,
            1 => 0,
            _ => WIDE_ENTRIES,
        };
        let mut s = self.slot(id);
        if s.has_wide() {
            self.clear_wide_leaf(id);
        }
        let wide = [
            (disk == ESC, Field::Disk, n.disk),
            (apparent == ESC, Field::Apparent, n.apparent),
            (time == ESC, Field::Time, n.mtime as u64),
            (
                entries == WIDE_ENTRIES,
                Field::Entries,
                u64::from(n.entries),
            ),
        ];
        for (escaped, f, v) in wide {
            if escaped {
                self.wide.insert(wide_key(id, f), v);
            }
        }
        (s.disk, s.apparent, s.time) = (disk, apparent, time);
        s.meta = (s.meta & !(NO_ENTRY | WIDE_ENTRIES)) | entries;
        self.set_slot(id, s);
    }

    /// Appends `n` (its name already in the arena at its span) as a child of `parent`;
    /// [`Tree::close_block`] then records the block. Returns its id.
    pub(super) fn push_node(&mut self, parent: NodeId, n: &Node) -> NodeId {
        self.push_node_named(parent, n, 0)
    }

    /// [`Tree::push_node`] of a node whose name is `name_base` bytes further on in the arena
    /// than its span says (a directory's names built apart, then appended at `name_base`).
    #[inline(always)]
    pub(super) fn push_node_named(&mut self, parent: NodeId, n: &Node, name_base: u64) -> NodeId {
        let mut slot = Slot::named(n.packed + name_base); // the offset is the low bits
        if n.is_dir() || n.child_count > 0 {
            slot.meta |= HAS_DIR;
            slot.disk = self.dirs.len() as u32;
            let id = self.push_slot(slot);
            self.dirs.push(DirInfo::of(parent, n));
            let d = self.dirs.len() - 1;
            self.set_dir_time(id, d, n.mtime);
            id
        } else if let Some(small) = slot.with_small_values(n) {
            // the common case, kept apart from set_node: a walk appends every entry here
            self.push_slot(small)
        } else {
            let id = self.push_slot(slot);
            self.set_leaf_values(id, n);
            id
        }
    }

    /// Records `first .. first + count` (appended last) as the children of `parent`.
    pub(super) fn close_block(&mut self, parent: NodeId, first: NodeId, count: u32) {
        match self.blocks.last_mut() {
            // the same block again, longer (entries appended, then more of them)
            Some(last) if last.0 == first => *last = (first, parent),
            _ if count > 0 => {
                debug_assert!(self.blocks.last().is_none_or(|&(f, _)| f < first));
                self.blocks.push((first, parent));
            }
            _ => {}
        }
        let mut p = self.node(parent);
        p.first_child = first;
        p.child_count = count;
        self.set_node(parent, &p);
    }

    /// Turns a tree laid out last entry first (each block of children placed before its
    /// parent, whose `first_child` is its block's first id then) around: `flip` maps an id
    /// to its place. Parents and blocks are found from the children's ranges.
    pub(super) fn reverse_placed(&mut self, flip: impl Fn(NodeId) -> NodeId) {
        self.reverse_slots();
        self.wide = std::mem::take(&mut self.wide)
            .into_iter()
            .map(|(k, v)| {
                let id = flip((k >> FIELD_BITS) as NodeId);
                (
                    (u64::from(id) << FIELD_BITS) | (k & ((1 << FIELD_BITS) - 1)),
                    v,
                )
            })
            .collect();
        for d in &mut self.dirs {
            if d.child_count > 0 {
                d.first_child = flip(d.first_child + d.child_count - 1);
            }
        }
        self.blocks.clear();
        for id in 0..self.len() as NodeId {
            let Some(d) = self.dir_index(id) else {
                continue;
            };
            let DirInfo {
                first_child,
                child_count,
                ..
            } = self.dirs[d];
            if child_count > 0 {
                self.blocks.push((first_child, id));
            }
            for c in first_child..first_child + child_count {
                if let Some(cd) = self.dir_index(c) {
                    self.dirs[cd].parent = id;
                }
            }
        }
        self.blocks.sort_unstable();
        if let Some(d) = self.dir_index(TOTAL) {
            self.dirs[d].parent = TOTAL;
        }
    }

    /// Whether `id` keeps its sizes in a [`DirInfo`] (a directory, or anything with children).
    #[inline]
    pub(super) fn has_dir_info(&self, id: NodeId) -> bool {
        self.head(id).has_dir()
    }
}

#[cfg(test)]
mod tests;
