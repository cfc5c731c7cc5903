//! One entry as the tree keeps it: a [`Head`] of 12 bytes (name, kind, flags, and disk size
//! or, for a directory, the index of its `DirInfo`) and, in two columns beside the heads, its
//! apparent size and its time (4 bytes each, [`Tails`]). Readers and writers see them
//! together as a [`Slot`], by value.
//!
//! A column is made only once a value in it is not 0. A walk that reads no sizes (`-f`: no
//! stat) makes neither and holds 12 bytes an entry where it held 20 (4 MB of `big`'s 507k
//! entries); one that keeps no times (no view of this run shows one) makes only the column
//! of apparent sizes. Until a column is made, the few entries that have a value for it (the
//! scanned roots, stat'd for their device; the total's time) keep it whole in `Tree::wide`,
//! marked [`SPILLED`]; past [`MAX_SPILLED`] of them the column is made and they go back into
//! it.
//!
//! A file's sizes and time fit 32 bits each almost always: disk bytes in 512-byte units
//! (`st_blocks`: two TiB a file), apparent bytes (four GiB) and seconds since 1970 (until
//! 2106). What does not fit (a huge file, a size no multiple of 512 read from an export, a
//! time before 1970) is kept whole in `Tree::wide` and its slot says so with [`ESC`].

use super::{Node, NodeId, Tree};

/// A slot value that did not fit: the whole value is in `Tree::wide`.
pub(super) const ESC: u32 = u32::MAX;

/// Bits of [`Head::meta`] beyond the ones [`Node`]'s `packed` has (its high half: name
/// offset's top byte, name length, kind, flags): this slot's `disk` is an index into
/// `Tree::dirs`.
pub(super) const HAS_DIR: u32 = 1 << 18;
/// A non-directory that counts as no entry (a removed or skipped file).
pub(super) const NO_ENTRY: u32 = 1 << 19;
/// A non-directory whose entry count is neither 0 nor 1: the count is in `Tree::wide`.
pub(super) const WIDE_ENTRIES: u32 = 1 << 20;
/// A directory whose `DirInfo` holds subtree totals, summed while the walk still runs
/// (`Tree::sum_live`): its own values are kept apart, in the slot's leaf fields (its disk
/// size in `DirInfo::own_disk`), so that the totals can be summed again as entries come.
pub(super) const TOTALS: u32 = 1 << 21;
/// This slot's values of the columns not made yet ([`Tails`]) are in `Tree::wide` (0 where it
/// has none).
const SPILLED: u32 = 1 << 22;
pub(super) const NODE_META_BITS: u32 = !(HAS_DIR | NO_ENTRY | WIDE_ENTRIES | TOTALS | SPILLED);

/// Slots whose values wait in `Tree::wide` before the tree makes the [`Tails`] columns they
/// need: a walk that stats its files meets more within its first directory, one without stat
/// only the scanned roots and the total.
const MAX_SPILLED: u32 = 64;

/// Which whole value of a slot `Tree::wide` holds.
#[derive(Copy, Clone)]
pub(super) enum Field {
    Disk = 0,
    Apparent = 1,
    Time = 2,
    Entries = 3,
    /// A directory's time in its `DirInfo` (its slot's time is its own, kept apart).
    DirTime = 4,
}

pub(super) const FIELD_BITS: u32 = 3;

pub(super) fn wide_key(id: NodeId, f: Field) -> u64 {
    (u64::from(id) << FIELD_BITS) | f as u64
}

/// What the tree keeps of every entry (see the module's comment).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Head {
    name_lo: u32,
    meta: u32,
    disk: u32,
}

/// An entry's apparent size and time, as the columns beside the heads hold them.
type Tail = [u32; 2];

/// The fields of a [`Tail`], in order.
const TAIL_FIELDS: [Field; 2] = [Field::Apparent, Field::Time];

/// The columns of apparent sizes and times, by id: each empty until a value in it is not 0,
/// then as long as the heads.
#[derive(Clone, Debug, Default)]
pub(super) struct Tails {
    columns: [Vec<u32>; 2],
    /// Heads marked [`SPILLED`].
    spilled: u32,
}

/// One entry, by value: its [`Head`] and its [`Tail`]. For a directory `disk` is the index of
/// its `DirInfo` and the rest is unused.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Slot {
    pub(super) name_lo: u32,
    pub(super) meta: u32,
    pub(super) disk: u32,
    pub(super) apparent: u32,
    pub(super) time: u32,
}

impl Head {
    pub(super) fn has_dir(&self) -> bool {
        self.meta & HAS_DIR != 0
    }

    /// The [`Slot::meta`] bits.
    pub(super) fn meta(&self) -> u32 {
        self.meta
    }

    /// The disk field: a size in 512-byte units, or a directory's index.
    pub(super) fn disk(&self) -> u32 {
        self.disk
    }

    /// Puts `disk` in the disk field; returns what was there.
    pub(super) fn replace_disk(&mut self, disk: u32) -> u32 {
        std::mem::replace(&mut self.disk, disk)
    }

    /// Sets `bits` of the meta field (of those the tree's nodes have, not [`SPILLED`]).
    pub(super) fn set_meta_bits(&mut self, bits: u32) {
        debug_assert_eq!(bits & SPILLED, 0);
        self.meta |= bits;
    }

    /// Takes the kind and flags of a [`Node`]'s `packed` (the name, and the bits of the tree's
    /// own, stay).
    pub(super) fn set_kind_and_flags(&mut self, packed: u64) {
        const KEPT: u32 = 0xffff | HAS_DIR | NO_ENTRY | WIDE_ENTRIES | TOTALS | SPILLED;
        self.meta = (self.meta & KEPT) | ((packed >> 32) as u32 & !KEPT);
    }

    pub(super) fn flags(&self) -> u8 {
        (self.meta >> 24) as u8
    }

    pub(super) fn set_flag(&mut self, flag: u8) {
        self.meta |= u32::from(flag) << 24;
    }

    pub(super) fn clear_flag(&mut self, flag: u8) {
        self.meta &= !(u32::from(flag) << 24);
    }

    pub(super) fn name_span(&self) -> (usize, usize) {
        let off = (u64::from(self.meta & 0xff) << 32) | u64::from(self.name_lo);
        (off as usize, ((self.meta >> 8) & 0xff) as usize)
    }

    /// What it holds in a column not made yet: [`ESC`] if its value is in `Tree::wide`.
    #[inline(always)]
    fn unmade(&self) -> u32 {
        if self.meta & SPILLED != 0 {
            ESC
        } else {
            0
        }
    }
}

impl Slot {
    /// A slot named by `packed`'s low bits and carrying its kind and flags.
    pub(super) fn named(packed: u64) -> Slot {
        Slot {
            name_lo: packed as u32,
            meta: (packed >> 32) as u32 & !(HAS_DIR | NO_ENTRY | WIDE_ENTRIES | SPILLED),
            ..Slot::default()
        }
    }

    #[inline(always)]
    fn of(h: Head, [apparent, time]: Tail) -> Slot {
        Slot {
            name_lo: h.name_lo,
            meta: h.meta,
            disk: h.disk,
            apparent,
            time,
        }
    }

    #[inline(always)]
    fn split(self) -> (Head, Tail) {
        let head = Head {
            name_lo: self.name_lo,
            meta: self.meta & !SPILLED,
            disk: self.disk,
        };
        (head, [self.apparent, self.time])
    }

    pub(super) fn packed(&self) -> u64 {
        (u64::from(self.meta & NODE_META_BITS) << 32) | u64::from(self.name_lo)
    }

    /// This slot holding `n`'s sizes, time and count, if they all fit.
    #[inline(always)]
    pub(super) fn with_small_values(mut self, n: &Node) -> Option<Slot> {
        let fits = n.disk.is_multiple_of(512)
            && n.disk / 512 < u64::from(ESC)
            && n.apparent < u64::from(ESC)
            && (0..i64::from(ESC)).contains(&n.mtime)
            && n.entries <= 1;
        fits.then(|| {
            self.disk = (n.disk / 512) as u32;
            self.apparent = n.apparent as u32;
            self.time = n.mtime as u32;
            if n.entries == 0 {
                self.meta |= NO_ENTRY;
            }
            self
        })
    }

    /// A leaf's (disk, apparent, entries, mtime), if none of them is kept whole elsewhere.
    #[inline(always)]
    pub(super) fn small_values(&self) -> Option<(u64, u64, u32, i64)> {
        self.is_small_leaf(0).then_some(self.values_unchecked())
    }

    /// (disk, apparent, entries, mtime) of a slot that [`Slot::is_small_leaf`].
    #[inline(always)]
    pub(super) fn values_unchecked(&self) -> (u64, u64, u32, i64) {
        (
            u64::from(self.disk) * 512,
            u64::from(self.apparent),
            u32::from(self.meta & NO_ENTRY == 0),
            i64::from(self.time),
        )
    }

    /// A leaf whose values all fit the slot, without any of the flags `unless`.
    #[inline(always)]
    pub(super) fn is_small_leaf(&self, unless: u8) -> bool {
        let wide = (self.disk == ESC) | (self.apparent == ESC) | (self.time == ESC);
        !wide && self.meta & (HAS_DIR | WIDE_ENTRIES | (u32::from(unless) << 24)) == 0
    }

    /// Whether a value of the slot is kept whole in `Tree::wide`.
    pub(super) fn has_wide(&self) -> bool {
        self.disk == ESC
            || self.apparent == ESC
            || self.time == ESC
            || self.meta & WIDE_ENTRIES != 0
    }
}

impl Tree {
    #[inline(always)]
    pub(super) fn head(&self, id: NodeId) -> &Head {
        &self.slots[id as usize]
    }

    /// The head, for its flags and disk field (its [`Slot::meta`] bits beyond the flags are
    /// the tree's: changed through [`Tree::set_slot`]).
    #[inline(always)]
    pub(super) fn head_mut(&mut self, id: NodeId) -> &mut Head {
        &mut self.slots[id as usize]
    }

    #[inline(always)]
    pub(super) fn slot(&self, id: NodeId) -> Slot {
        let i = id as usize;
        let h = self.slots[i];
        let [apparent, time] = &self.tails.columns;
        let unmade = h.unmade();
        let tail = [
            apparent.get(i).copied().unwrap_or(unmade),
            time.get(i).copied().unwrap_or(unmade),
        ];
        Slot::of(h, tail)
    }

    /// Calls `f` with every slot of `first .. end`, in order: the sweeps over every entry.
    #[inline(always)]
    pub(super) fn for_each_slot(&self, first: NodeId, end: usize, mut f: impl FnMut(NodeId, Slot)) {
        let range = first as usize..end;
        let heads = (first..).zip(&self.slots[range.clone()]);
        match &self.tails.columns {
            [a, t] if !a.is_empty() && !t.is_empty() => {
                for ((id, &h), (&a, &t)) in heads.zip(a[range.clone()].iter().zip(&t[range])) {
                    f(id, Slot::of(h, [a, t]));
                }
            }
            [a, _] if !a.is_empty() => {
                for ((id, &h), &a) in heads.zip(&a[range]) {
                    f(id, Slot::of(h, [a, h.unmade()]));
                }
            }
            [_, t] if !t.is_empty() => {
                for ((id, &h), &t) in heads.zip(&t[range]) {
                    f(id, Slot::of(h, [h.unmade(), t]));
                }
            }
            _ => {
                for (id, &h) in heads {
                    f(id, Slot::of(h, [h.unmade(); 2]));
                }
            }
        }
    }

    /// Stores `s` as slot `id`; an apparent size or time it holds [`ESC`] must be in
    /// `Tree::wide` already.
    pub(super) fn set_slot(&mut self, id: NodeId, s: Slot) {
        let i = id as usize;
        let was_spilled = self.slots[i].meta & SPILLED != 0;
        let (head, tail) = s.split();
        self.slots[i] = head;
        let mut waits = was_spilled;
        for (column, v) in self.tails.columns.iter_mut().zip(tail) {
            match column.get_mut(i) {
                Some(c) => *c = v,
                None => waits |= v != 0,
            }
        }
        if waits {
            self.store_tail(id, tail, was_spilled);
        }
    }

    /// Appends `s` (as [`Tree::set_slot`] stores it); returns its id.
    #[inline(always)]
    pub(super) fn push_slot(&mut self, s: Slot) -> NodeId {
        let id = self.slots.len() as NodeId;
        let (head, tail) = s.split();
        self.slots.push(head);
        let mut unmade = false;
        for (column, v) in self.tails.columns.iter_mut().zip(tail) {
            if column.is_empty() {
                unmade |= v != 0;
            } else {
                column.push(v);
            }
        }
        if unmade {
            self.store_tail(id, tail, false);
        }
        id
    }

    /// Stores the tail of slot `id` (its head stored, its [`SPILLED`] mark taken off): in the
    /// columns made, the rest in `Tree::wide`, or in columns made now that too many slots
    /// wait there.
    #[inline(never)]
    fn store_tail(&mut self, id: NodeId, tail: Tail, was_spilled: bool) {
        let i = id as usize;
        let waits = |tails: &Tails, k: usize| tails.columns[k].is_empty() && tail[k] != 0;
        let spills = waits(&self.tails, 0) || waits(&self.tails, 1);
        if spills && !was_spilled && self.tails.spilled >= MAX_SPILLED {
            for k in 0..2 {
                if waits(&self.tails, k) {
                    self.make_column(k);
                }
            }
        }
        let mut spilled = false;
        for ((column, v), f) in self.tails.columns.iter_mut().zip(tail).zip(TAIL_FIELDS) {
            if !column.is_empty() {
                column[i] = v;
                continue;
            }
            match v {
                0 if was_spilled => {
                    self.wide.remove(&wide_key(id, f));
                }
                0 => {}
                ESC => spilled = true,
                v => {
                    self.wide.insert(wide_key(id, f), u64::from(v));
                    spilled = true;
                }
            }
        }
        if spilled {
            self.slots[i].meta |= SPILLED;
        }
        match (was_spilled, spilled) {
            (false, true) => self.tails.spilled += 1,
            (true, false) => self.tails.spilled -= 1,
            _ => {}
        }
    }

    /// Makes column `k` of the tails, and puts back into it the values waiting in
    /// `Tree::wide`.
    fn make_column(&mut self, k: usize) {
        let mut column = Vec::new();
        // as much room as the heads have: a walk reserves theirs up front so that they never
        // move under its lock (`TreeBuilder::reserved_for_walk`)
        let _ = column.try_reserve_exact(self.slots.capacity());
        column.resize(self.slots.len(), 0);
        let other_made = !self.tails.columns[1 - k].is_empty();
        for (id, head) in (0..).zip(self.slots.iter_mut()) {
            if head.meta & SPILLED == 0 {
                continue;
            }
            let key = wide_key(id, TAIL_FIELDS[k]);
            column[id as usize] = match self.wide.get(&key) {
                None => 0,
                Some(&v) if v < u64::from(ESC) => {
                    self.wide.remove(&key);
                    v as u32
                }
                Some(_) => ESC,
            };
            let waits = !other_made && self.wide.contains_key(&wide_key(id, TAIL_FIELDS[1 - k]));
            if !waits {
                head.meta &= !SPILLED;
                self.tails.spilled -= 1;
            }
        }
        self.tails.columns[k] = column;
    }

    /// Reverses the order of the slots (ids `0..len` become `len - 1..=0`).
    pub(super) fn reverse_slots(&mut self) {
        self.slots.reverse();
        for column in &mut self.tails.columns {
            column.reverse();
        }
    }

    /// The columns of apparent sizes and of times, for faulting in their room ahead of a walk
    /// (empty while not made).
    pub(super) fn tail_columns(&self) -> &[Vec<u32>; 2] {
        &self.tails.columns
    }

    /// Makes the columns of apparent sizes and times, as if many values had come.
    #[cfg(test)]
    pub(super) fn make_columns(&mut self) {
        for k in 0..2 {
            if self.tails.columns[k].is_empty() {
                self.make_column(k);
            }
        }
    }

    /// Which columns of apparent sizes and times the tree has made.
    #[cfg(test)]
    pub(super) fn made_columns(&self) -> [bool; 2] {
        self.tails.columns.each_ref().map(|c| !c.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{EntryKind, TOTAL};

    #[test]
    fn heads_stay_compact() {
        assert_eq!(std::mem::size_of::<Head>(), 12);
    }

    /// Entries without apparent size or time (a walk without stat) leave both columns unmade,
    /// the few with one are read back whole; past [`MAX_SPILLED`] the column of what comes is
    /// made, and then the other, every value reading the same, none left behind in `wide`.
    #[test]
    fn a_column_is_made_only_for_its_values() {
        let mut t = Tree::with_total();
        let root = t.push_node(
            TOTAL,
            &Node::new(EntryKind::Dir, 4096, 4096, 1_700_000_000, 0),
        );
        t.close_block(TOTAL, root, 1);
        let mut ids = Vec::new();
        for _ in 0..10_000 {
            ids.push(t.push_node(root, &Node::new(EntryKind::File, 0, 0, 0, 0)));
        }
        let odd = t.push_node(root, &Node::new(EntryKind::File, 0, 5 << 32, -5, 0));
        let small = t.push_node(root, &Node::new(EntryKind::File, 512, 7, 9, 0));
        t.close_block(root, ids[0], ids.len() as u32 + 2);
        t.finish();
        assert_eq!(
            t.made_columns(),
            [false; 2],
            "no column for a walk without sizes"
        );
        let values = |t: &Tree, id| {
            let n = t.node(id);
            (n.disk, n.apparent, n.mtime, n.entries)
        };
        assert_eq!(values(&t, odd), (0, 5 << 32, -5, 1));
        assert_eq!(values(&t, small), (512, 7, 9, 1));
        assert_eq!(values(&t, ids[7]), (0, 0, 0, 1));
        assert_eq!(
            values(&t, root),
            (4096 + 512, 4096 + (5 << 32) + 7, 1_700_000_000, 10_003)
        );
        assert_eq!(values(&t, TOTAL).1, 4096 + (5 << 32) + 7);
        let before: Vec<_> = (0..t.len() as NodeId).map(|id| values(&t, id)).collect();

        // back to 0: nothing waits in wide for it
        t.set_node(small, &Node::new(EntryKind::File, 512, 0, 0, 0));
        assert_eq!(values(&t, small), (512, 0, 0, 1));
        assert!(!t.wide.contains_key(&wide_key(small, Field::Apparent)));
        t.set_node(small, &Node::new(EntryKind::File, 512, 7, 9, 0));
        let mut s = t.slot(small);
        s.apparent = 0;
        t.set_slot(small, s);
        assert_eq!(values(&t, small), (512, 0, 9, 1), "one value back to 0");
        t.set_node(small, &Node::new(EntryKind::File, 512, 7, 9, 0));

        let many = &ids[..MAX_SPILLED as usize + 1];
        for (k, &id) in (1..).zip(many) {
            t.set_node(id, &Node::new(EntryKind::File, 0, k, 0, 0));
        }
        assert_eq!(
            t.made_columns(),
            [true, false],
            "apparent sizes came, no times"
        );
        for (k, &id) in (1..).zip(many) {
            assert_eq!(values(&t, id), (0, k, 0, 1));
        }
        for (k, &id) in (1..).zip(many) {
            t.set_node(id, &Node::new(EntryKind::File, 0, k, k as i64 + 2, 0));
        }
        assert_eq!(t.made_columns(), [true; 2], "then times");
        for (k, &id) in (1..).zip(many) {
            assert_eq!(values(&t, id), (0, k, k as i64 + 2, 1));
        }
        for id in (0..t.len() as NodeId).filter(|id| !many.contains(id)) {
            assert_eq!(values(&t, id), before[id as usize], "node {id}");
        }
        let kept: Vec<_> = t.wide.keys().map(|k| k >> FIELD_BITS).collect();
        let whole = [u64::from(TOTAL), u64::from(odd)];
        assert!(kept.iter().all(|id| whole.contains(id)), "{:?}", t.wide);
    }
}
