//! The history store (`--record`, `--history`: docs/HISTORY.md): every scan of a root kept in
//! one SQLite file as what changed since the scan before it. A scan goes in as scan events
//! ([`Recorder`], a [`crate::tree::ScanSink`] a merge of exports writes into) and comes out as
//! scan events ([`replay`]), so the history is one more sink and one more source of the scan
//! events every streamed route shares.

mod listing;
pub mod query;
mod record;
pub mod replay;
mod schema;

use std::ffi::OsStr;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

pub use query::{ScanRow, TrendPoint};
pub use record::Recorder;

/// How long a writer waits for another one (a second cron job recording into the same file)
/// before it gives up: a record holds the file only while it stores a scan already walked.
const BUSY_TIMEOUT: Duration = Duration::from_secs(600);

/// An open history file.
pub struct History {
    conn: Connection,
}

/// Why a history cannot be used: the one line to print (the file is named by the caller).
pub type HistoryError = String;

/// What an SQLite error says, as the cause in a message.
pub(crate) fn cause(e: &rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqliteFailure(f, Some(msg)) => format!("{msg} ({:?})", f.code),
        other => other.to_string(),
    }
}

impl History {
    /// Opens the history `file` to read it: it must exist and be one.
    pub fn open(file: &OsStr) -> Result<History, HistoryError> {
        check_kind(Path::new(file), false)?;
        let conn = connect(file, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
        check_version(&conn)?;
        use_wal(&conn)?;
        Ok(History { conn })
    }

    /// Opens the history `file` to add to it, made (empty) if it does not exist.
    pub fn create(file: &OsStr) -> Result<History, HistoryError> {
        check_kind(Path::new(file), true)?;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE;
        let conn = connect(file, flags)?;
        // made by this process or another at the same moment: one of them lays it out
        conn.execute_batch("BEGIN IMMEDIATE")
            .map_err(|e| cause(&e))?;
        let laid_out = check_version(&conn).and_then(|fresh| match fresh {
            true => lay_out(&conn),
            false => Ok(()),
        });
        let end = if laid_out.is_ok() {
            "COMMIT"
        } else {
            "ROLLBACK"
        };
        conn.execute_batch(end).map_err(|e| cause(&e))?;
        laid_out?;
        use_wal(&conn)?;
        Ok(History { conn })
    }

    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }
}

/// Opens the connection: the busy timeout first, WAL once the file is known to be a history
/// (or new), so a file refused is never written to.
fn connect(file: &OsStr, flags: OpenFlags) -> Result<Connection, HistoryError> {
    let conn = Connection::open_with_flags(Path::new(file), flags).map_err(|e| cause(&e))?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| cause(&e))?;
    Ok(conn)
}

/// Refuses a file that is not an SQLite database before SQLite opens it (an empty file, a
/// JSON export): SQLite would take an empty file as a new database and write to it.
fn check_kind(file: &Path, may_be_missing: bool) -> Result<(), HistoryError> {
    let mut head = [0u8; 16];
    let mut f = match std::fs::File::open(file) {
        Ok(f) => f,
        Err(e) if may_be_missing && e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_cause(&e)),
    };
    let mut got = 0;
    while got < head.len() {
        match f.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => return Err(io_cause(&e)),
        }
    }
    match &head[..got] {
        [] => Err("not a hogs history (an empty file)".into()),
        b"SQLite format 3\0" => Ok(()),
        _ => Err("not a hogs history (not an SQLite database)".into()),
    }
}

fn io_cause(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(errno) => crate::sys::describe(errno),
        None => e.to_string(),
    }
}

/// Whether the database is a hogs history this hogs reads (`Ok(false)`) or a new, empty one
/// (`Ok(true)`), before anything is written to it.
fn check_version(conn: &Connection) -> Result<bool, HistoryError> {
    let pragma = |name: &str| -> Result<i32, HistoryError> {
        conn.pragma_query_value(None, name, |r| r.get(0))
            .map_err(|e| format!("not a hogs history ({})", cause(&e)))
    };
    let (app, version) = (pragma("application_id")?, pragma("user_version")?);
    let tables: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
        .map_err(|e| format!("not a hogs history ({})", cause(&e)))?;
    if app == 0 && version == 0 && tables == 0 {
        return Ok(true);
    }
    if app != schema::APPLICATION_ID {
        return Err("not a hogs history (an SQLite database of something else)".into());
    }
    if version > schema::VERSION {
        return Err(format!(
            "written by a newer hogs (history format {version}; this hogs reads up to {})",
            schema::VERSION
        ));
    }
    Ok(false)
}

/// Readers go on while a scan is recorded, and a record killed leaves the file as it was.
/// (Not inside a transaction: SQLite refuses to change the journal there.)
fn use_wal(conn: &Connection) -> Result<(), HistoryError> {
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(|e| cause(&e))
}

/// Lays out a new history (inside the caller's transaction).
fn lay_out(conn: &Connection) -> Result<(), HistoryError> {
    conn.pragma_update(None, "application_id", schema::APPLICATION_ID)
        .and_then(|()| conn.pragma_update(None, "user_version", schema::VERSION))
        .and_then(|()| conn.execute_batch(schema::CREATE))
        .map_err(|e| cause(&e))
}
