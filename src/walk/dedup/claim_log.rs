//! A thread's file claims, packed: in -f mode every file claims, and 16 bytes a claim were
//! a third of the peak memory of a walk (7.5 MB of `big`'s 467k files).
//!
//! The claims of one directory come together (it claims its files at once), on one device,
//! and their inode numbers are close (ext4 hands them out near their directory's; btrfs
//! and tmpfs in sequence). So the log is a list of runs, each a header
//! `(count << 1 | named, device, first node)` and then, per claim, its inode number as the
//! difference from the one before it (in the whole log, not just the run: the next
//! directory's are mostly near), zigzag-coded so that a smaller number is as short as a
//! larger one, and in a named run the difference of its node from the one before (files
//! of one directory have increasing ids). Every number is a LEB128 varint: a claim takes
//! 1 to 3 bytes where inode numbers cluster, and never more than 15.

use super::FileClaim;
use crate::tree::NodeId;

/// File claims in runs of one device (see the module's comment).
#[derive(Default)]
pub(super) struct ClaimLog {
    bytes: Vec<u8>,
    claims: usize,
    /// The inode number of the last claim logged: the next is written against it.
    last_ino: u64,
}

/// The bytes a claim may take at most: its inode difference and its node's.
const MAX_CLAIM_BYTES: usize = 10 + 5;
const MAX_HEADER_BYTES: usize = 10 + 5 + 5;

impl ClaimLog {
    pub(super) fn len(&self) -> usize {
        self.claims
    }

    pub(super) fn is_empty(&self) -> bool {
        self.claims == 0
    }

    /// The encoded claims, for reserving and faulting in their room.
    pub(super) fn bytes_mut(&mut self) -> &mut Vec<u8> {
        &mut self.bytes
    }

    /// Logs that the nodes of `claims` name their inodes: (inode number, node), all on
    /// device `dev`.
    pub(super) fn push_named(
        &mut self,
        dev: u32,
        claims: impl ExactSizeIterator<Item = (u64, NodeId)> + Clone,
    ) {
        let Some((_, first)) = claims.clone().next() else {
            return;
        };
        self.header(claims.len(), true, dev, first);
        // in locals, not through `self`, for the loop to keep them in registers
        let (bytes, mut last_ino, mut last_id) = (&mut self.bytes, self.last_ino, first);
        for (ino, id) in claims {
            put(bytes, zigzag(ino.wrapping_sub(last_ino)));
            put(bytes, u64::from(id.wrapping_sub(last_id)));
            (last_ino, last_id) = (ino, id);
        }
        self.last_ino = last_ino;
    }

    /// Logs that files summed into directory `dir` name inodes `inos`, all on device `dev`.
    pub(super) fn push_folded(
        &mut self,
        dev: u32,
        dir: NodeId,
        inos: impl ExactSizeIterator<Item = u64>,
    ) {
        if inos.len() == 0 {
            return;
        }
        self.header(inos.len(), false, dev, dir);
        let (bytes, mut last_ino) = (&mut self.bytes, self.last_ino);
        for ino in inos {
            put(bytes, zigzag(ino.wrapping_sub(last_ino)));
            last_ino = ino;
        }
        self.last_ino = last_ino;
    }

    fn header(&mut self, count: usize, named: bool, dev: u32, id: NodeId) {
        let most = if named { MAX_CLAIM_BYTES } else { 10 };
        self.bytes.reserve(MAX_HEADER_BYTES + count * most);
        put(&mut self.bytes, (count as u64) << 1 | u64::from(named));
        put(&mut self.bytes, u64::from(dev));
        put(&mut self.bytes, u64::from(id));
        self.claims += count;
    }

    /// The claims in the order they were logged.
    pub(super) fn iter(&self) -> Claims<'_> {
        Claims {
            bytes: &self.bytes,
            pos: 0,
            left: 0,
            named: false,
            dev: 0,
            id: 0,
            ino: 0,
        }
    }
}

/// A difference of inode numbers (wrapped) as a number that is small when the difference
/// is small either way: 0, -1, 1, -2… → 0, 1, 2, 3…
#[inline]
fn zigzag(d: u64) -> u64 {
    let d = d as i64;
    ((d << 1) ^ (d >> 63)) as u64
}

/// Appends `v` as a LEB128 varint: 7 bits a byte, low bits first, the top bit set on every
/// byte but the last.
#[inline]
fn put(bytes: &mut Vec<u8>, mut v: u64) {
    if v < 0x80 {
        // most differences: a directory's inode numbers are mostly consecutive
        bytes.push(v as u8);
        return;
    }
    while v >= 0x80 {
        bytes.push(v as u8 | 0x80);
        v >>= 7;
    }
    bytes.push(v as u8);
}

/// Reads the varint [`put`] wrote at `*pos` in `bytes`, and moves `pos` past it. (By
/// index, a byte taken at a time: settling decodes every claim twice, and slicing the
/// rest of the log off at each byte was twice the instructions.)
#[inline]
fn get(bytes: &[u8], pos: &mut usize) -> u64 {
    let b = bytes[*pos];
    *pos += 1;
    if b < 0x80 {
        return u64::from(b);
    }
    let mut v = u64::from(b & 0x7f);
    let mut shift = 7;
    loop {
        let b = bytes[*pos];
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

/// The claims of a [`ClaimLog`], decoded as they are met.
pub(super) struct Claims<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Claims left in the current run.
    left: u64,
    named: bool,
    dev: u32,
    id: NodeId,
    ino: u64,
}

impl Iterator for Claims<'_> {
    type Item = FileClaim;

    #[inline]
    fn next(&mut self) -> Option<FileClaim> {
        let bytes = self.bytes;
        if self.left == 0 {
            if self.pos == bytes.len() {
                return None;
            }
            let head = get(bytes, &mut self.pos);
            self.left = head >> 1;
            self.named = head & 1 == 1;
            self.dev = get(bytes, &mut self.pos) as u32;
            self.id = get(bytes, &mut self.pos) as NodeId;
        }
        self.left -= 1;
        let z = get(bytes, &mut self.pos);
        let d = (z >> 1) as i64 ^ -((z & 1) as i64);
        self.ino = self.ino.wrapping_add(d as u64);
        if self.named {
            self.id = self.id.wrapping_add(get(bytes, &mut self.pos) as NodeId);
        }
        Some(FileClaim {
            ino: self.ino,
            dev: self.dev,
            id: self.id,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(log: &ClaimLog) -> Vec<(u32, u64, NodeId)> {
        log.iter().map(|c| (c.dev, c.ino, c.id)).collect()
    }

    #[test]
    fn varints_round_trip_at_every_width() {
        let mut values: Vec<u64> = (0..64).flat_map(|s| [1u64 << s, (1u64 << s) - 1]).collect();
        values.extend([0, 127, 128, 16_383, 16_384, u64::MAX, u64::MAX - 1]);
        let mut bytes = Vec::new();
        for &v in &values {
            put(&mut bytes, v);
        }
        assert_eq!(bytes.iter().filter(|b| **b < 0x80).count(), values.len());
        let mut pos = 0;
        for &v in &values {
            assert_eq!(get(&bytes, &mut pos), v);
        }
        assert_eq!(pos, bytes.len());
    }

    /// Named and folded runs, several devices, inode numbers that rise, fall, jump by
    /// more than half of u64 and sit at its ends; node ids that rise and fall.
    #[test]
    fn claims_come_back_as_logged() {
        let mut log = ClaimLog::default();
        let mut want = Vec::new();
        let named: Vec<(u64, NodeId)> = vec![
            (1000, 5),
            (1001, 6),
            (999, 9),
            (u64::MAX, 10),
            (0, 11),
            (u64::MAX, 3),
            (1 << 63, NodeId::MAX),
            (7, 0),
        ];
        log.push_named(2, named.iter().copied());
        want.extend(named.iter().map(|&(i, id)| (2, i, id)));
        let folded = [u64::MAX, 12, 12, 1 << 40, 3];
        log.push_folded(0, 77, folded.iter().copied());
        want.extend(folded.iter().map(|&i| (0, i, 77)));
        log.push_named(u32::MAX, [(42, 1)].into_iter());
        want.push((u32::MAX, 42, 1));
        log.push_named(1, std::iter::empty());
        log.push_folded(1, 3, std::iter::empty());
        log.push_folded(u32::MAX, NodeId::MAX, [0u64, u64::MAX].into_iter());
        want.extend([
            (u32::MAX, 0, NodeId::MAX),
            (u32::MAX, u64::MAX, NodeId::MAX),
        ]);
        assert_eq!(log.len(), want.len());
        assert_eq!(decoded(&log), want);
    }

    /// A directory's files with clustered numbers take a byte or two each, not 16.
    #[test]
    fn clustered_claims_are_small() {
        let mut log = ClaimLog::default();
        for dir in 0..100u32 {
            let base = 1_000_000 + u64::from(dir) * 40;
            let inos: Vec<(u64, NodeId)> = (0..30)
                .map(|i| (base + i, dir * 50 + 1 + i as NodeId))
                .collect();
            log.push_named(0, inos.iter().copied());
            log.push_folded(0, dir, inos.iter().map(|c| c.0));
        }
        assert_eq!(log.len(), 6000);
        assert!(
            log.bytes.len() < 6000 * 2 + 100 * 12,
            "{} bytes",
            log.bytes.len()
        );
        let back: Vec<_> = log.iter().collect();
        assert_eq!(back.len(), 6000);
        assert_eq!((back[30].ino, back[30].id), (1_000_000, 0));
    }

    /// Random runs of random numbers, against the plain list of them.
    #[test]
    fn random_runs_round_trip() {
        let mut next = crate::tree::xorshift(0x9E37_79B9_7F4A_7C15);
        let mut log = ClaimLog::default();
        let mut want = Vec::new();
        for _ in 0..500 {
            let dev = next(4) as u32;
            let n = next(20) as usize;
            let spread = [4, 1 << 20, u64::MAX][next(3) as usize];
            let claims: Vec<(u64, NodeId)> = (0..n)
                .map(|_| (next(spread), next(1 << 32) as NodeId))
                .collect();
            if next(2) == 0 {
                log.push_named(dev, claims.iter().copied());
                want.extend(claims.iter().map(|&(i, id)| (dev, i, id)));
            } else {
                log.push_folded(dev, 9, claims.iter().map(|c| c.0));
                want.extend(claims.iter().map(|&(i, _)| (dev, i, 9)));
            }
        }
        assert_eq!(log.len(), want.len());
        assert_eq!(decoded(&log), want);
    }
}
