//! The history file's layout (docs/HISTORY.md): the tables hogs writes, the two views users
//! query, and how a file is known as a hogs history of a version this hogs reads.

/// `PRAGMA application_id`: "hogs", so `file(1)` and hogs tell a history from any other
/// SQLite file.
pub const APPLICATION_ID: i32 = 0x686f_6773;

/// `PRAGMA user_version`: the layout's version. A file with a higher one was written by a
/// newer hogs and is refused, untouched.
pub const VERSION: i32 = 1;

/// A scan's rows: `roots` the paths recorded; `scan` one row a scan (`seq` orders the scans
/// of a root by time, ties by arrival); `dir` a directory's totals and listing, valid for the
/// scans of its root from `from_seq` until `until_seq` (excluded; NULL: still current), so an
/// unchanged directory costs nothing in a later scan. `key` is the directory's path below
/// the root (`a/b`; empty for the root), `listing_id` its entries (`listing.rs`), compressed,
/// in `listing`: a table with rowids, whose pages hold blobs of up to 4 KB whole (a table
/// without them spills what passes 1 KB to half-empty overflow pages). `dict` is the zstd
/// dictionary a root's listings are compressed with, trained on its first scan.
pub const CREATE: &str = "
CREATE TABLE roots(id INTEGER PRIMARY KEY, path BLOB NOT NULL UNIQUE);
CREATE TABLE listing(id INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE dict(root_id INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE scan(
    id INTEGER PRIMARY KEY,
    root_id INTEGER NOT NULL REFERENCES roots(id),
    time INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    options TEXT NOT NULL,
    disk_bytes INTEGER NOT NULL,
    apparent_bytes INTEGER NOT NULL,
    entries INTEGER NOT NULL,
    errors INTEGER NOT NULL
);
CREATE UNIQUE INDEX scan_order ON scan(root_id, seq);
CREATE TABLE dir(
    root_id INTEGER NOT NULL,
    key BLOB NOT NULL,
    from_seq INTEGER NOT NULL,
    until_seq INTEGER,
    disk_bytes INTEGER NOT NULL,
    apparent_bytes INTEGER NOT NULL,
    entries INTEGER NOT NULL,
    listing_id INTEGER NOT NULL,
    PRIMARY KEY(root_id, key, from_seq)
) WITHOUT ROWID;
CREATE VIEW scans AS
    SELECT s.id AS id, s.time AS time, CAST(r.path AS TEXT) AS root,
           s.disk_bytes AS disk_bytes, s.apparent_bytes AS apparent_bytes, s.entries AS entries
    FROM scan s JOIN roots r ON r.id = s.root_id;
CREATE VIEW dir_sizes AS
    SELECT s.id AS scan_id,
           CAST(CASE WHEN d.key = x'' THEN r.path
                     WHEN r.path = x'2f' THEN x'2f' || d.key
                     ELSE r.path || x'2f' || d.key END AS TEXT) AS path,
           d.disk_bytes AS disk_bytes, d.apparent_bytes AS apparent_bytes, d.entries AS entries
    FROM scan s
    JOIN dir d ON d.root_id = s.root_id AND d.from_seq <= s.seq
              AND (d.until_seq IS NULL OR s.seq < d.until_seq)
    JOIN roots r ON r.id = s.root_id;
";
