//! A scan read back from the history as scan events, depth-first in the order it was given:
//! the history as a source, written into any [`ScanSink`] (a binary export the diff reads).

use rusqlite::{params, Connection, OptionalExtension};

use super::listing::{Codec, Item, Reader};
use super::query::ScanRow;
use super::{cause, History, HistoryError};
use crate::tree::ScanSink;

/// A directory being given: its listing, read as far as its items have been given.
struct Open {
    key_end: usize,
    listing: Reader,
}

/// Gives scan `scan`'s directory `key` (its path below the root, `a/b`; empty: the root)
/// and all below it to `sink`, named `name` (the absolute path). The directories open are
/// held, one listing each.
pub fn replay(
    history: &History,
    scan: &ScanRow,
    key: &[u8],
    name: &[u8],
    sink: &mut dyn ScanSink,
) -> Result<(), HistoryError> {
    let conn = history.conn();
    let dict: Option<Vec<u8>> = conn
        .query_row(
            "SELECT data FROM dict WHERE root_id = ?1",
            [scan.root_id],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| cause(&e))?;
    let mut codec = Codec::new(dict.as_deref()).map_err(|e| e.to_string())?;
    let mut key = key.to_vec();
    let Some(root) = listing_at(conn, scan, &key)? else {
        return Err(format!(
            "scan {} has no directory '{}'",
            scan.id,
            String::from_utf8_lossy(name)
        ));
    };
    let mut open = vec![enter(codec.load(&root)?, name, key.len(), sink)?];
    while let Some(dir) = open.last_mut() {
        let next = match dir.listing.next_item()? {
            None => None,
            Some(Item::Entry {
                node,
                name,
                key,
                extra,
                links,
            }) => {
                sink.add(node, name, key, extra, links);
                continue;
            }
            Some(Item::Failed(name)) => {
                sink.failed(name);
                continue;
            }
            Some(Item::Subdir(sub)) => Some(sub.to_vec()),
        };
        let Some(sub) = next else {
            sink.close();
            open.pop();
            if let Some(parent) = open.last() {
                key.truncate(parent.key_end);
            }
            continue;
        };
        if !key.is_empty() {
            key.push(b'/');
        }
        key.extend_from_slice(&sub);
        let Some(stored) = listing_at(conn, scan, &key)? else {
            return Err("a directory's row is missing".into());
        };
        let dir = enter(codec.load(&stored)?, &sub, key.len(), sink)?;
        open.push(dir);
    }
    Ok(())
}

fn enter(
    mut listing: Reader,
    name: &[u8],
    key_end: usize,
    sink: &mut dyn ScanSink,
) -> Result<Open, HistoryError> {
    let own = listing.own().ok_or("a damaged listing")?;
    sink.open_dir(own.node, name, own.key, own.extra);
    Ok(Open { key_end, listing })
}

/// The stored listing of directory `key` as of scan `scan`.
fn listing_at(
    conn: &Connection,
    scan: &ScanRow,
    key: &[u8],
) -> Result<Option<Vec<u8>>, HistoryError> {
    conn.prepare_cached(
        "SELECT (SELECT data FROM listing WHERE id = listing_id) FROM dir WHERE root_id = ?1 AND key = ?2 AND from_seq <= ?3 AND (until_seq IS NULL OR until_seq > ?3)",
    )
    .and_then(|mut s| s.query_row(params![scan.root_id, key, scan.seq], |r| r.get(0)).optional())
    .map_err(|e| cause(&e))
}
