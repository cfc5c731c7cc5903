//! One entry as the tree keeps it: a [`Head`] of 12 bytes (name, kind, flags, and disk size
//! or, for a directory, the index of its `DirInfo`) and, in a column beside the heads, its
//! apparent size and time ([`Tails`], 8 bytes more). Readers and writers see the two
//! together as a [`Slot`], by value.
//!
//! The column is made only once an entry has an apparent size or a time that is not 0. A
//! walk that reads no sizes (`-f`: no stat) never makes it and holds 12 bytes an entry where
//! it held 20 (4 MB of `big`'s 507k entries). Until then the few entries that have such
//! values (the scanned roots, stat'd for their device; the total's time) keep them whole in
//! `Tree::wide`, marked [`SPILLED`]; past [`MAX_SPILLED`] of them the column is made and
//! they go back into it.
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
/// While the tree has no [`Tails`] column: this slot's apparent size and time are in
/// `Tree::wide` (0 where it has none).
const SPILLED: u32 = 1 << 22;
pub(super) const NODE_META_BITS: u32 = !(HAS_DIR | NO_ENTRY | WIDE_ENTRIES | TOTALS | SPILLED);

/// Slots whose values wait in `Tree::wide` before the tree makes its [`Tails`] column: a
/// walk that stats its files meets more within its first directory, one without stat only
/// the scanned roots and the total.
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

/// An entry's apparent size and time, in the column beside the heads.
type Tail = [u32; 2];

/// The column of [`Tail`]s, by id, once one is not 0.
#[derive(Clone, Debug, Default)]
pub(super) struct Tails {
    column: Vec<Tail>,
    kept: bool,
    /// Heads marked [`SPILLED`] while the column is not kept.
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

    /// The tail of a head while the column is not kept.
    #[inline(always)]
    fn unkept_tail(&self) -> Tail {
        if self.meta & SPILLED != 0 {
            [ESC, ESC]
        } else {
            [0, 0]
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
        let h = self.slots[id as usize];
        let tail = match self.tails.kept {
            true => self.tails.column[id as usize],
            false => h.unkept_tail(),
        };
        Slot::of(h, tail)
    }

    /// Calls `f` with every slot of `first .. end`, in order: the sweeps over every entry.
    #[inline(always)]
    pub(super) fn for_each_slot(&self, first: NodeId, end: usize, mut f: impl FnMut(NodeId, Slot)) {
        let heads = &self.slots[first as usize..end];
        if self.tails.kept {
            let tails = &self.tails.column[first as usize..end];
            for ((id, &h), &t) in (first..).zip(heads).zip(tails) {
                f(id, Slot::of(h, t));
            }
        } else {
            for (id, &h) in (first..).zip(heads) {
                f(id, Slot::of(h, h.unkept_tail()));
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
        if self.tails.kept {
            self.tails.column[i] = tail;
        } else {
            self.spill(id, tail, was_spilled);
        }
    }

    /// Appends `s` (as [`Tree::set_slot`] stores it); returns its id.
    pub(super) fn push_slot(&mut self, s: Slot) -> NodeId {
        let id = self.slots.len() as NodeId;
        let (head, tail) = s.split();
        self.slots.push(head);
        if self.tails.kept {
            self.tails.column.push(tail);
        } else if tail != [0, 0] {
            self.spill(id, tail, false);
        }
        id
    }

    /// Stores the tail of slot `id` while the column is not kept: in `Tree::wide`, or in the
    /// column made now that too many wait there.
    fn spill(&mut self, id: NodeId, tail: Tail, was_spilled: bool) {
        let i = id as usize;
        if tail == [0, 0] {
            if was_spilled {
                self.wide.remove(&wide_key(id, Field::Apparent));
                self.wide.remove(&wide_key(id, Field::Time));
                self.tails.spilled -= 1;
            }
            return;
        }
        if !was_spilled && self.tails.spilled >= MAX_SPILLED {
            self.keep_tails();
            self.tails.column[i] = tail;
            return;
        }
        for (v, f) in [(tail[0], Field::Apparent), (tail[1], Field::Time)] {
            match v {
                ESC => {}
                0 => {
                    self.wide.remove(&wide_key(id, f));
                }
                v => {
                    self.wide.insert(wide_key(id, f), u64::from(v));
                }
            }
        }
        self.slots[i].meta |= SPILLED;
        self.tails.spilled += u32::from(!was_spilled);
    }

    /// Makes the column of tails, and puts back into it those waiting in `Tree::wide`.
    pub(super) fn keep_tails(&mut self) {
        let mut column = Vec::new();
        // as much room as the heads have: a walk reserves theirs up front so that they never
        // move under its lock (`TreeBuilder::reserved_for_walk`)
        let _ = column.try_reserve_exact(self.slots.capacity());
        column.resize(self.slots.len(), [0, 0]);
        for (id, head) in (0..).zip(self.slots.iter_mut()) {
            if head.meta & SPILLED == 0 {
                continue;
            }
            head.meta &= !SPILLED;
            for (k, f) in [(0, Field::Apparent), (1, Field::Time)] {
                let key = wide_key(id, f);
                column[id as usize][k] = match self.wide.get(&key) {
                    None => 0,
                    Some(&v) if v < u64::from(ESC) => {
                        self.wide.remove(&key);
                        v as u32
                    }
                    Some(_) => ESC,
                };
            }
        }
        self.tails = Tails {
            column,
            kept: true,
            spilled: 0,
        };
    }

    /// Reverses the order of the slots (ids `0..len` become `len - 1..=0`).
    pub(super) fn reverse_slots(&mut self) {
        self.slots.reverse();
        self.tails.column.reverse();
    }

    /// The column of tails, for faulting in its room ahead of a walk (empty while not kept).
    pub(super) fn tail_column(&self) -> &Vec<Tail> {
        &self.tails.column
    }

    /// Whether the tree keeps the column of apparent sizes and times.
    #[cfg(test)]
    pub(super) fn keeps_tails(&self) -> bool {
        self.tails.kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{EntryKind, TOTAL};

    #[test]
    fn heads_stay_compact() {
        assert_eq!(std::mem::size_of::<Head>(), 12);
        assert_eq!(std::mem::size_of::<Tail>(), 8);
    }

    /// Entries without apparent size or time (a walk without stat) leave the column unmade,
    /// the few with one are read back whole; past [`MAX_SPILLED`] the column is made and
    /// every value reads the same, none left behind in `wide`.
    #[test]
    fn the_column_is_made_only_for_values() {
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
        assert!(!t.keeps_tails(), "no column for a walk without sizes");
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

        for (k, &id) in ids.iter().enumerate().take(MAX_SPILLED as usize + 1) {
            let n = Node::new(EntryKind::File, 0, k as u64 + 1, 3, 0);
            t.set_node(id, &n);
        }
        assert!(t.keeps_tails(), "the column, once values come");
        for (k, &id) in ids.iter().enumerate().take(MAX_SPILLED as usize + 1) {
            assert_eq!(values(&t, id), (0, k as u64 + 1, 3, 1));
        }
        for id in (0..t.len() as NodeId).filter(|id| !ids.contains(id)) {
            assert_eq!(values(&t, id), before[id as usize], "node {id}");
        }
        let kept: Vec<_> = t.wide.keys().map(|k| k >> FIELD_BITS).collect();
        let whole = [u64::from(TOTAL), u64::from(odd)];
        assert!(kept.iter().all(|id| whole.contains(id)), "{:?}", t.wide);
    }
}
