//! A scan into the history, as scan events: [`Recorder`] keeps the directories open (their
//! listings and running totals) and, as each closes, stores its row unless the scan before
//! it at that place in time had the same one.

use std::io;

use rusqlite::{params, Connection, OptionalExtension};

use super::listing;
use super::{cause, History, HistoryError};
use crate::tree::{LinkKey, Node, ScanSink, StatExtra};

/// A directory entered and not yet left.
struct Open {
    /// Where its key ends in [`Recorder::key`].
    key_end: usize,
    name: Vec<u8>,
    listing: listing::Writer,
    disk: u64,
    apparent: u64,
    entries: u64,
}

/// A directory closed before its root's dictionary was trained: stored once it is.
struct Pending {
    key: Vec<u8>,
    sizes: [i64; 3],
    raw: Vec<u8>,
}

/// The listings a dictionary is trained on: enough for zstd's trainer, little memory.
const TRAIN_BYTES: usize = 4 << 20;
const TRAIN_DIRS: usize = 20_000;

/// Where a scan goes in the order of its root's scans.
#[derive(Clone, Copy)]
struct Place {
    root_id: i64,
    scan_id: i64,
    /// This scan's position.
    seq: i64,
    /// The next scan's, when this one is placed before another (an older export recorded).
    next: Option<i64>,
}

/// What a scan recorded says of itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    pub scan_id: i64,
    pub root: Vec<u8>,
    pub disk_bytes: u64,
    pub apparent_bytes: u64,
    pub entries: u64,
}

/// Records one scan given as scan events; nothing of it is seen by others until
/// [`ScanSink::finish`] commits it whole.
pub struct Recorder {
    conn: Connection,
    time: i64,
    options: String,
    errors: u64,
    place: Option<Place>,
    open: Vec<Open>,
    /// The key of the directory open: its path below the root, names joined by `/`.
    key: Vec<u8>,
    recorded: Recorded,
    failed: Option<String>,
    /// How listings are compressed: `None` while the first scan of a root gathers the
    /// listings its dictionary is trained on (`pending`).
    codec: Option<listing::Codec>,
    pending: Vec<Pending>,
    pending_bytes: usize,
    /// Where [`Recorder::finish`] tells what it recorded.
    report: std::sync::Arc<std::sync::Mutex<Option<Recorded>>>,
}

impl Recorder {
    /// A recorder of a scan made at `time` (Unix seconds) with the counting `options`
    /// (stored with it); what it recorded is put in `report` when it finishes.
    pub fn new(
        history: History,
        time: i64,
        options: String,
        report: std::sync::Arc<std::sync::Mutex<Option<Recorded>>>,
    ) -> Result<Recorder, HistoryError> {
        let conn = history.conn;
        // the whole scan in one transaction: a process killed leaves nothing of it
        conn.execute_batch("BEGIN IMMEDIATE; CREATE TEMP TABLE IF NOT EXISTS seen(key BLOB PRIMARY KEY) WITHOUT ROWID; DELETE FROM temp.seen;")
            .map_err(|e| cause(&e))?;
        Ok(Recorder {
            conn,
            time,
            options,
            errors: 0,
            place: None,
            open: Vec::new(),
            key: Vec::new(),
            recorded: Recorded::default(),
            failed: None,
            codec: None,
            pending: Vec::new(),
            pending_bytes: 0,
            report,
        })
    }

    fn fail(&mut self, e: &rusqlite::Error) {
        if self.failed.is_none() {
            self.failed = Some(cause(e));
        }
    }

    /// The root's row and this scan's place among its scans.
    fn place(&mut self, root: &[u8]) -> rusqlite::Result<Place> {
        let c = &self.conn;
        c.execute("INSERT OR IGNORE INTO roots(path) VALUES (?1)", [root])?;
        let root_id: i64 =
            c.query_row("SELECT id FROM roots WHERE path = ?1", [root], |r| r.get(0))?;
        // a second's scans apart by arrival; 1024 of them before two could meet
        let mut seq = self.time.saturating_mul(1024);
        let taken = "SELECT 1 FROM scan WHERE root_id = ?1 AND seq = ?2";
        while c
            .query_row(taken, params![root_id, seq], |_| Ok(()))
            .optional()?
            .is_some()
        {
            seq += 1;
        }
        let next: Option<i64> = c.query_row(
            "SELECT min(seq) FROM scan WHERE root_id = ?1 AND seq > ?2",
            params![root_id, seq],
            |r| r.get(0),
        )?;
        c.execute(
            "INSERT INTO scan(root_id, time, seq, options, disk_bytes, apparent_bytes, entries, errors) VALUES (?1, ?2, ?3, ?4, 0, 0, 0, 0)",
            params![root_id, self.time, seq, self.options],
        )?;
        let scan_id = c.last_insert_rowid();
        // the root's dictionary, trained on its first scan: kept, so that a listing that did
        // not change is stored as the same bytes and compares equal
        let dict: Option<Vec<u8>> = c
            .query_row("SELECT data FROM dict WHERE root_id = ?1", [root_id], |r| {
                r.get(0)
            })
            .optional()?;
        if let Some(dict) = dict {
            self.codec = Some(listing::Codec::new(Some(&dict)).map_err(io_error)?);
        }
        Ok(Place {
            root_id,
            scan_id,
            seq,
            next,
        })
    }

    /// Stores directory `key`, unless its row valid at this scan is the same.
    fn store(&mut self, key: &[u8], sizes: [i64; 3], stored: &[u8]) -> rusqlite::Result<()> {
        let Some(p) = self.place else { return Ok(()) };
        let current = self
            .conn
            .prepare_cached(
                "SELECT from_seq, disk_bytes, apparent_bytes, entries, listing_id, (SELECT data FROM listing WHERE id = listing_id) = ?4 FROM dir WHERE root_id = ?1 AND key = ?2 AND from_seq < ?3 AND (until_seq IS NULL OR until_seq > ?3)",
            )?
            .query_row(params![p.root_id, key, p.seq, stored], |r| {
                let same = r.get::<_, bool>(5)?.then_some(r.get::<_, i64>(4)?);
                Ok((r.get::<_, i64>(0)?, [r.get::<_, i64>(1)?, r.get(2)?, r.get(3)?], same))
            })
            .optional()?;
        // an ancestor of a change: new totals, the same listing (kept once)
        let mut listing_id = None;
        match current {
            Some((_, was, Some(_))) if was == sizes => {
                let mut seen = self
                    .conn
                    .prepare_cached("INSERT INTO temp.seen(key) VALUES (?1)")?;
                seen.execute([key])?;
                return Ok(());
            }
            Some((from, _, same)) => {
                end_row(&self.conn, p, key, from)?;
                listing_id = same;
            }
            None => {}
        }
        let listing_id = match listing_id {
            Some(id) => id,
            None => {
                self.conn
                    .prepare_cached("INSERT INTO listing(data) VALUES (?1)")?
                    .execute([stored])?;
                self.conn.last_insert_rowid()
            }
        };
        self.conn
            .prepare_cached("INSERT INTO dir VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")?
            .execute(params![
                p.root_id, key, p.seq, p.next, sizes[0], sizes[1], sizes[2], listing_id
            ])?;
        Ok(())
    }

    /// Compresses and stores a directory's listing, or keeps it for the dictionary's training.
    fn keep(&mut self, key: Vec<u8>, sizes: [i64; 3], raw: Vec<u8>) -> rusqlite::Result<()> {
        let Some(codec) = self.codec.as_mut() else {
            self.pending_bytes += raw.len() + key.len();
            self.pending.push(Pending { key, sizes, raw });
            if self.pending_bytes >= TRAIN_BYTES || self.pending.len() >= TRAIN_DIRS {
                self.train()?;
            }
            return Ok(());
        };
        let stored = codec.store(&raw).map_err(io_error)?;
        self.store(&key, sizes, &stored)
    }

    /// Trains the root's dictionary on the listings kept, and stores them with it.
    fn train(&mut self) -> rusqlite::Result<()> {
        let pending = std::mem::take(&mut self.pending);
        let samples: Vec<Vec<u8>> = pending.iter().map(|p| p.raw.clone()).collect();
        let dict = listing::Codec::train(&samples);
        drop(samples);
        if let (Some(dict), Some(p)) = (&dict, self.place) {
            self.conn.execute(
                "INSERT INTO dict(root_id, data) VALUES (?1, ?2)",
                params![p.root_id, dict],
            )?;
        }
        self.codec = Some(listing::Codec::new(dict.as_deref()).map_err(io_error)?);
        for p in pending {
            self.keep(p.key, p.sizes, p.raw)?;
        }
        Ok(())
    }

    /// Ends, at this scan, the rows of the directories this scan no longer has.
    fn end_gone(&self, p: Place) -> rusqlite::Result<()> {
        let mut gone = self.conn.prepare(
            "SELECT key, from_seq FROM dir WHERE root_id = ?1 AND from_seq < ?2 AND (until_seq IS NULL OR until_seq > ?2) AND key NOT IN (SELECT key FROM temp.seen)",
        )?;
        let rows = gone.query_map(params![p.root_id, p.seq], |r| {
            Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, i64>(1)?))
        })?;
        let rows: Vec<(Vec<u8>, i64)> = rows.collect::<rusqlite::Result<_>>()?;
        for (key, from) in rows {
            end_row(&self.conn, p, &key, from)?;
        }
        Ok(())
    }

    fn commit(&mut self) -> rusqlite::Result<()> {
        let Some(p) = self.place else {
            return Err(rusqlite::Error::InvalidQuery);
        };
        if self.codec.is_none() {
            self.train()?;
        }
        self.end_gone(p)?;
        let r = &self.recorded;
        let sizes = [r.disk_bytes, r.apparent_bytes, r.entries, self.errors]
            .map(|v| i64::try_from(v).unwrap_or(i64::MAX));
        self.conn.execute(
            "UPDATE scan SET disk_bytes = ?2, apparent_bytes = ?3, entries = ?4, errors = ?5 WHERE id = ?1",
            params![p.scan_id, sizes[0], sizes[1], sizes[2], sizes[3]],
        )?;
        self.conn.execute_batch("DELETE FROM temp.seen; COMMIT")
    }
}

fn io_error(e: std::io::Error) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(Box::new(e))
}

/// Ends the row of `key` that began at `from` at this scan; where it also held for the scan
/// after this one (this scan placed between two), a copy of it begins there.
fn end_row(conn: &Connection, p: Place, key: &[u8], from: i64) -> rusqlite::Result<()> {
    if let Some(next) = p.next {
        conn.prepare_cached(
            "INSERT INTO dir SELECT root_id, key, ?4, until_seq, disk_bytes, apparent_bytes, entries, listing_id FROM dir WHERE root_id = ?1 AND key = ?2 AND from_seq = ?3 AND (until_seq IS NULL OR until_seq > ?4)",
        )?
        .execute(params![p.root_id, key, from, next])?;
    }
    conn.prepare_cached(
        "UPDATE dir SET until_seq = ?4 WHERE root_id = ?1 AND key = ?2 AND from_seq = ?3",
    )?
    .execute(params![p.root_id, key, from, p.seq])?;
    Ok(())
}

impl ScanSink for Recorder {
    fn open_dir(&mut self, node: Node, name: &[u8], key: LinkKey, extra: Option<StatExtra>) {
        if self.open.is_empty() {
            if self.place.is_some() {
                return; // one root a scan
            }
            match self.place(name) {
                Ok(p) => self.place = Some(p),
                Err(e) => self.fail(&e),
            }
            self.recorded.root = name.to_vec();
            self.key.clear();
        } else {
            let parent = self.open.last_mut().expect("checked above");
            parent.listing.subdir(name);
            if !self.key.is_empty() {
                self.key.push(b'/');
            }
            self.key.extend_from_slice(name);
        }
        let mut listing = listing::Writer::default();
        listing.own(&node, key, extra);
        let counted = node.is_counted();
        self.errors += u64::from(node.has(crate::tree::flags::UNREADABLE));
        self.open.push(Open {
            key_end: self.key.len(),
            name: name.to_vec(),
            listing,
            disk: if counted { node.disk } else { 0 },
            apparent: if counted { node.apparent } else { 0 },
            entries: u64::from(counted),
        });
    }

    fn add(
        &mut self,
        node: Node,
        name: &[u8],
        key: LinkKey,
        extra: Option<StatExtra>,
        links: Option<u32>,
    ) {
        let Some(dir) = self.open.last_mut() else {
            return;
        };
        dir.listing.entry(&node, name, key, extra, links);
        if node.is_counted() {
            dir.disk += node.disk;
            dir.apparent += node.apparent;
            dir.entries += 1;
        }
    }

    fn failed(&mut self, name: &[u8]) {
        if let Some(dir) = self.open.last_mut() {
            dir.listing.failed(name);
            self.errors += 1;
        }
    }

    fn close(&mut self) {
        let Some(dir) = self.open.pop() else { return };
        if self.failed.is_none() {
            let sizes =
                [dir.disk, dir.apparent, dir.entries].map(|v| i64::try_from(v).unwrap_or(i64::MAX));
            let key = self.key[..dir.key_end].to_vec();
            if let Err(e) = self.keep(key, sizes, dir.listing.buf) {
                self.fail(&e);
            }
        }
        match self.open.last_mut() {
            Some(parent) => {
                parent.disk += dir.disk;
                parent.apparent += dir.apparent;
                parent.entries += dir.entries;
                let start = parent.key_end;
                self.key.truncate(start);
            }
            None => {
                self.recorded.disk_bytes = dir.disk;
                self.recorded.apparent_bytes = dir.apparent;
                self.recorded.entries = dir.entries;
            }
        }
    }

    fn path(&self) -> Vec<u8> {
        let mut path = self.recorded.root.clone();
        for dir in self.open.iter().skip(1) {
            if path.last() != Some(&b'/') {
                path.push(b'/');
            }
            path.extend_from_slice(&dir.name);
        }
        path
    }

    fn finish(mut self: Box<Self>) -> io::Result<()> {
        while !self.open.is_empty() {
            self.close();
        }
        if let Some(e) = self.failed.take() {
            return Err(io::Error::other(e));
        }
        if let Err(e) = self.commit() {
            return Err(io::Error::other(cause(&e)));
        }
        self.recorded.scan_id = self.place.map_or(0, |p| p.scan_id);
        if let Ok(mut report) = self.report.lock() {
            *report = Some(std::mem::take(&mut self.recorded));
        }
        Ok(())
    }
}
