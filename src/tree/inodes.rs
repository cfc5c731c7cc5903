//! Every entry's inode number in about a byte and a half, for the interactive view (its
//! deletes re-check every step of a path): 8 bytes an entry in a vector were a sixth of what
//! `hogs i` held. A walk gives each directory's children consecutive ids and their inodes in
//! the order the directory listed them, which on most filesystems are close to each other:
//! each is kept as the difference from the one before, zigzag-encoded (a step back is as
//! short as a step forward), in as few bytes as it needs (LEB128).
//!
//! The ids come in runs of consecutive ones (a directory's block of children); each run
//! starts over from 0 (its first inode is kept whole), so that a lookup finds its run by
//! binary search and decodes from there. A run is cut after [`RUN_MAX`] ids, so that a
//! lookup in a huge directory decodes a bounded number of bytes: lookups are rare
//! (deletes, exports, a directory's own stat checking its entry), but a directory of
//! a hundred thousand subdirectories has each of them look itself up once.
//!
//! Only ids after the last one recorded can be appended; the caller keeps any other value
//! elsewhere ([`InodeLog::push`] says when it did not take one).

use super::NodeId;

/// Ids a run holds at most: a lookup decodes up to this many values; a run costs its 8 bytes
/// and a whole first inode (3 to 10 bytes), under 0.1 byte an entry at this length.
const RUN_MAX: u32 = 128;

#[derive(Clone, Debug, Default)]
pub struct InodeLog {
    /// The zigzag LEB128 differences, run after run.
    bytes: Vec<u8>,
    /// (first id, offset of its first byte in `bytes`) of every run, by ascending id; a run
    /// ends where the next one's bytes start.
    runs: Vec<(NodeId, u32)>,
    /// The id the current run goes on with (past any id: no wrapping), its length so far,
    /// and the last inode appended.
    next: u64,
    run_len: u32,
    last: u64,
}

impl InodeLog {
    /// Room for `ids` entries at the usual density, taken ahead (address space: pages are
    /// touched as they fill).
    pub fn reserve(&mut self, ids: usize) {
        let _ = self.bytes.try_reserve(ids * 2);
        let _ = self.runs.try_reserve(ids / 8);
    }

    /// Appends `ino` as the inode of `id`, if `id` comes after every id appended so far
    /// (the delta chain goes on when it is the next one). Otherwise leaves the log as it is
    /// and says so: false.
    pub fn push(&mut self, id: NodeId, ino: u64) -> bool {
        let after = self.runs.is_empty() || u64::from(id) >= self.next;
        let Ok(offset) = u32::try_from(self.bytes.len()) else {
            return false; // 4 GiB of differences: the rest is for the caller to keep
        };
        if !after {
            return false;
        }
        if self.runs.is_empty() || u64::from(id) != self.next || self.run_len == RUN_MAX {
            self.runs.push((id, offset));
            self.run_len = 0;
            self.last = 0;
        }
        let diff = ino.wrapping_sub(self.last) as i64;
        let mut z = ((diff << 1) ^ (diff >> 63)) as u64;
        while z >= 0x80 {
            self.bytes.push(z as u8 | 0x80);
            z >>= 7;
        }
        self.bytes.push(z as u8);
        self.last = ino;
        self.next = u64::from(id) + 1;
        self.run_len += 1;
        true
    }

    /// The inode of `id`, if one was appended for it.
    pub fn get(&self, id: NodeId) -> Option<u64> {
        self.cursor().get(id)
    }

    /// A reader for lookups in ascending order ([`Cursor::get`]).
    pub fn cursor(&self) -> Cursor<'_> {
        Cursor {
            log: self,
            run: usize::MAX,
            pos: 0,
            next: 0,
            ino: 0,
        }
    }

    /// (bytes of differences, runs): what the log holds, for measuring it.
    pub fn size(&self) -> (usize, usize) {
        (self.bytes.len(), self.runs.len())
    }
}

/// Where a reading of the log is: lookups of ascending ids go on from the last one, so that
/// a sweep over the tree (every hard-linked file's key) decodes each byte once.
pub struct Cursor<'a> {
    log: &'a InodeLog,
    /// The run being read (`usize::MAX`: none yet), the offset of the next value in `bytes`,
    /// the id that value is of, and the inode of the id before it.
    run: usize,
    pos: usize,
    next: u64,
    ino: u64,
}

impl Cursor<'_> {
    /// The inode of `id`, if one was appended for it: from where the last lookup left off
    /// when `id` is in the same run and not before it, else from the start of its run.
    pub fn get(&mut self, id: NodeId) -> Option<u64> {
        let runs = &self.log.runs;
        let id = u64::from(id);
        let first_of = |k: usize| runs.get(k).map(|&(first, _)| u64::from(first));
        let in_run = first_of(self.run).is_some_and(|f| f <= id)
            && first_of(self.run + 1).is_none_or(|f| id < f)
            && id + 1 >= self.next;
        if !in_run {
            let k = runs.partition_point(|&(first, _)| u64::from(first) <= id);
            let (first, offset) = *runs.get(k.checked_sub(1)?)?;
            (self.run, self.pos) = (k - 1, offset as usize);
            (self.next, self.ino) = (u64::from(first), 0);
        }
        let end = runs
            .get(self.run + 1)
            .map_or(self.log.bytes.len(), |&(_, o)| o as usize);
        let bytes = self.log.bytes.get(..end)?;
        while self.next <= id {
            let mut z = 0u64;
            let mut shift = 0;
            loop {
                let b = *bytes.get(self.pos)?;
                self.pos += 1;
                z |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
                if b & 0x80 == 0 {
                    break;
                }
                shift += 7;
            }
            let diff = ((z >> 1) as i64) ^ -((z & 1) as i64);
            self.ino = self.ino.wrapping_add(diff as u64);
            self.next += 1;
        }
        Some(self.ino)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_ids_make_one_run_of_short_differences() {
        let mut log = InodeLog::default();
        let inos = [
            5_000_000u64,
            5_000_001,
            5_000_003,
            4_999_990,
            5_000_100,
            5_000_100,
        ];
        for (id, &ino) in (10..).zip(&inos) {
            assert!(log.push(id, ino));
        }
        let (bytes, runs) = log.size();
        assert_eq!(runs, 1);
        // the first inode whole (zigzag doubles it: 24 bits, 4 bytes), then 1 byte or 2 each
        assert!(bytes <= 4 + 5 * 2, "{bytes} bytes");
        for (id, &ino) in (10..).zip(&inos) {
            assert_eq!(log.get(id), Some(ino), "id {id}");
        }
    }

    #[test]
    fn a_gap_starts_a_run_and_ids_never_given_have_none() {
        let mut log = InodeLog::default();
        for (id, ino) in [(1, 2), (2, 70), (3, 71), (7, 900), (8, 899), (20, 5)] {
            assert!(log.push(id, ino));
        }
        assert_eq!(log.size().1, 3);
        let got: Vec<Option<u64>> = (0..22).map(|id| log.get(id)).collect();
        let mut want = vec![None; 22];
        for (id, ino) in [(1, 2), (2, 70), (3, 71), (7, 900), (8, 899), (20, 5)] {
            want[id] = Some(ino);
        }
        assert_eq!(got, want);
        assert_eq!(InodeLog::default().get(0), None, "an empty log");
    }

    #[test]
    fn an_id_not_after_the_last_is_refused_and_changes_nothing() {
        let mut log = InodeLog::default();
        assert!(log.push(4, 40) && log.push(5, 50) && log.push(9, 90));
        let size = log.size();
        for (id, ino) in [(5, 51), (9, 90), (0, 1), (7, 3)] {
            assert!(!log.push(id, ino), "id {id} comes before the last");
        }
        assert_eq!(log.size(), size);
        assert_eq!(
            (log.get(4), log.get(5), log.get(9)),
            (Some(40), Some(50), Some(90))
        );
        assert_eq!((log.get(0), log.get(7)), (None, None));
        assert!(log.push(10, 91), "the run goes on after the refusals");
        assert_eq!(log.size().1, 2);
    }

    #[test]
    fn inodes_with_the_high_bits_set_round_trip() {
        // XFS inode64 numbers, the extremes, and swings between them
        let inos = [
            u64::MAX,
            0,
            1 << 63,
            (1 << 63) - 1,
            0x8000_0000_0000_1234,
            0x0000_0012_3456_789a,
            u64::MAX - 1,
            3,
        ];
        let mut log = InodeLog::default();
        for (id, &ino) in (0..).zip(&inos) {
            assert!(log.push(id, ino));
        }
        assert!(log.push(100, u64::MAX), "a run that starts at the largest");
        for (id, &ino) in (0..).zip(&inos) {
            assert_eq!(log.get(id), Some(ino), "id {id}");
        }
        assert_eq!(log.get(100), Some(u64::MAX));
        assert!(log.size().0 <= (inos.len() + 1) * 10);
    }

    #[test]
    fn a_cursor_reads_what_get_reads_in_any_order_of_lookups() {
        let mut next = crate::tree::xorshift(0x9E37_79B9_7F4A_7C15);
        let mut log = InodeLog::default();
        let mut id = 0;
        for _ in 0..2000 {
            id += 1 + (next(10) == 0) as u32 * next(5) as u32; // a gap now and then
            assert!(log.push(id, next(1 << 40) << next(24)));
        }
        let want: Vec<Option<u64>> = (0..id + 3).map(|i| log.get(i)).collect();
        let mut c = log.cursor();
        let ascending: Vec<Option<u64>> = (0..id + 3).map(|i| c.get(i)).collect();
        assert_eq!(ascending, want);
        for _ in 0..5000 {
            let i = next(u64::from(id) + 3) as u32;
            assert_eq!(c.get(i), want[i as usize], "id {i}");
            assert_eq!(c.get(i), want[i as usize], "id {i} again");
        }
    }

    #[test]
    fn long_runs_are_cut_and_still_read_back() {
        let mut log = InodeLog::default();
        let n = RUN_MAX * 5 + 3;
        let ino = |id: u32| 1_000_000 + u64::from(id) * 3 + u64::from(id % 7);
        for id in 0..n {
            assert!(log.push(id, ino(id)));
        }
        assert_eq!(log.size().1, 6, "a run every {RUN_MAX} ids");
        for id in 0..n {
            assert_eq!(log.get(id), Some(ino(id)), "id {id}");
        }
        assert_eq!(log.get(n), None);
    }
}
