//! What the history answers: its scans, a scan named by id, date or age, a directory's
//! totals over time, the directories of the latest scans; and forgetting old scans.

use rusqlite::{params, OptionalExtension, Row};

use super::{cause, History, HistoryError};

/// A scan, as the `scans` view has it, with where it stands among its root's scans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScanRow {
    pub id: i64,
    pub time: i64,
    pub root: Vec<u8>,
    pub disk_bytes: u64,
    pub apparent_bytes: u64,
    pub entries: u64,
    pub errors: u64,
    /// The counting options it was made with (`-x`, `-L`, the patterns left out…).
    pub options: String,
    pub(crate) root_id: i64,
    pub(crate) seq: i64,
}

const SCAN_COLUMNS: &str = "s.id, s.time, r.path, s.disk_bytes, s.apparent_bytes, s.entries, s.errors, s.options, s.root_id, s.seq FROM scan s JOIN roots r ON r.id = s.root_id";

fn scan_row(r: &Row<'_>) -> rusqlite::Result<ScanRow> {
    let size = |i: usize| r.get::<_, i64>(i).map(|v| v.max(0) as u64);
    Ok(ScanRow {
        id: r.get(0)?,
        time: r.get(1)?,
        root: r.get(2)?,
        disk_bytes: size(3)?,
        apparent_bytes: size(4)?,
        entries: size(5)?,
        errors: size(6)?,
        options: r.get(7)?,
        root_id: r.get(8)?,
        seq: r.get(9)?,
    })
}

/// A directory's key below its root, and its disk bytes, apparent bytes and entries.
pub type DirSizes = (Vec<u8>, [u64; 3]);

/// A directory's totals in one scan (`None`: it did not exist then).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrendPoint {
    pub scan: ScanRow,
    pub sizes: Option<[u64; 3]>,
}

impl History {
    /// Every scan, oldest first (by time, then by arrival).
    pub fn scans(&self) -> Result<Vec<ScanRow>, HistoryError> {
        let sql = format!("SELECT {SCAN_COLUMNS} ORDER BY s.time, s.seq, s.id");
        let mut stmt = self.conn().prepare(&sql).map_err(|e| cause(&e))?;
        let rows = stmt.query_map([], scan_row).map_err(|e| cause(&e))?;
        rows.collect::<rusqlite::Result<_>>().map_err(|e| cause(&e))
    }

    /// The scans of the root `root_id`, oldest first.
    pub fn scans_of(&self, root_id: i64) -> Result<Vec<ScanRow>, HistoryError> {
        let sql = format!("SELECT {SCAN_COLUMNS} WHERE s.root_id = ?1 ORDER BY s.seq");
        let mut stmt = self.conn().prepare(&sql).map_err(|e| cause(&e))?;
        let rows = stmt.query_map([root_id], scan_row).map_err(|e| cause(&e))?;
        rows.collect::<rusqlite::Result<_>>().map_err(|e| cause(&e))
    }

    /// The totals of directory `key` (below the root of `scans`) in each of `scans`.
    pub fn trend(&self, scans: Vec<ScanRow>, key: &[u8]) -> Result<Vec<TrendPoint>, HistoryError> {
        let mut stmt = self
            .conn()
            .prepare("SELECT disk_bytes, apparent_bytes, entries FROM dir WHERE root_id = ?1 AND key = ?2 AND from_seq <= ?3 AND (until_seq IS NULL OR until_seq > ?3)")
            .map_err(|e| cause(&e))?;
        let mut points = Vec::with_capacity(scans.len());
        for scan in scans {
            let sizes = stmt
                .query_row(params![scan.root_id, key, scan.seq], |r| {
                    let size = |i: usize| r.get::<_, i64>(i).map(|v| v.max(0) as u64);
                    Ok([size(0)?, size(1)?, size(2)?])
                })
                .optional()
                .map_err(|e| cause(&e))?;
            points.push(TrendPoint { scan, sizes });
        }
        Ok(points)
    }

    /// The directories of `scan` to `depth` below its root, by key: (key, disk, apparent,
    /// entries), at most `limit` of them.
    pub fn dirs(
        &self,
        scan: &ScanRow,
        depth: usize,
        limit: usize,
    ) -> Result<Vec<DirSizes>, HistoryError> {
        let mut stmt = self
            .conn()
            .prepare("SELECT key, disk_bytes, apparent_bytes, entries FROM dir WHERE root_id = ?1 AND from_seq <= ?2 AND (until_seq IS NULL OR until_seq > ?2) ORDER BY key")
            .map_err(|e| cause(&e))?;
        let rows = stmt
            .query_map(params![scan.root_id, scan.seq], |r| {
                let size = |i: usize| r.get::<_, i64>(i).map(|v| v.max(0) as u64);
                Ok((r.get::<_, Vec<u8>>(0)?, [size(1)?, size(2)?, size(3)?]))
            })
            .map_err(|e| cause(&e))?;
        let mut out = Vec::new();
        for row in rows {
            let (key, sizes) = row.map_err(|e| cause(&e))?;
            let d = if key.is_empty() {
                0
            } else {
                1 + key.iter().filter(|&&b| b == b'/').count()
            };
            if d <= depth {
                if out.len() >= limit {
                    break;
                }
                out.push((key, sizes));
            }
        }
        Ok(out)
    }

    /// Removes the scans made before `time` and what only they needed, then compacts the
    /// file. The scans kept answer as before: a row still valid at one of them stays.
    pub fn forget_before(&self, time: i64) -> Result<usize, HistoryError> {
        let c = self.conn();
        let run = || -> rusqlite::Result<usize> {
            c.execute_batch("BEGIN IMMEDIATE")?;
            let n = c.execute("DELETE FROM scan WHERE time < ?1", [time])?;
            c.execute(
                "DELETE FROM dir WHERE NOT EXISTS (SELECT 1 FROM scan s WHERE s.root_id = dir.root_id AND s.seq >= dir.from_seq AND (dir.until_seq IS NULL OR s.seq < dir.until_seq))",
                [],
            )?;
            c.execute(
                "DELETE FROM listing WHERE id NOT IN (SELECT listing_id FROM dir)",
                [],
            )?;
            c.execute(
                "DELETE FROM dict WHERE root_id NOT IN (SELECT root_id FROM scan)",
                [],
            )?;
            c.execute(
                "DELETE FROM roots WHERE id NOT IN (SELECT root_id FROM scan)",
                [],
            )?;
            c.execute_batch("COMMIT")?;
            Ok(n)
        };
        let n = run().map_err(|e| {
            let _ = c.execute_batch("ROLLBACK");
            cause(&e)
        })?;
        // the pages freed leave the file, and the write-ahead log's copy of them too
        c.execute_batch("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);")
            .map_err(|e| cause(&e))?;
        Ok(n)
    }

    /// The scan with id `id`.
    pub fn scan(&self, id: i64) -> Result<Option<ScanRow>, HistoryError> {
        let sql = format!("SELECT {SCAN_COLUMNS} WHERE s.id = ?1");
        self.conn()
            .query_row(&sql, [id], scan_row)
            .optional()
            .map_err(|e| cause(&e))
    }
}
