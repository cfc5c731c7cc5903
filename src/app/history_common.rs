//! What the history's runs share: opening the file, temporary exports, sizes as shown.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

use crate::config::Config;
use crate::error::{fail, ExitStatus};
use crate::history::History;
use crate::render::escape::shown;
use crate::units::format_size;
use crate::vocab::SizeMode;

/// Opens the history `db` and runs `f` on it; a file that is not one is refused in one line.
pub(super) fn with_history(
    config: &Config,
    db: &OsStr,
    f: impl FnOnce(&History) -> ExitStatus,
) -> ExitStatus {
    match History::open(db) {
        Ok(h) => f(&h),
        Err(e) => fail(format!(
            "cannot read history '{}': {e}",
            shown_db(config, db)
        )),
    }
}

pub(super) fn shown_db(config: &Config, db: &OsStr) -> String {
    shown(db.as_bytes(), config.terminals.stderr)
}

/// A temporary file that is removed when dropped.
pub(super) struct TempFile(pub OsString);

impl TempFile {
    pub(super) fn new(what: &str) -> TempFile {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let mut path = std::env::temp_dir().into_os_string();
        path.push(format!("/hogs-{what}-{}-{n}.ncdu", std::process::id()));
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

pub(super) fn size(config: &Config, bytes: u64) -> String {
    format_size(bytes, SizeMode::Disk, config.view.units)
}

/// `+12Mi`, `-3.0Ki`, `+0B`.
pub(super) fn signed(config: &Config, now: u64, then: u64) -> String {
    let (sign, d) = if now >= then {
        ('+', now - then)
    } else {
        ('-', then - now)
    };
    format!("{sign}{}", size(config, d))
}

/// The absolute path of `key` below `root`.
pub(super) fn join(root: &[u8], key: &[u8]) -> Vec<u8> {
    let mut path = root.to_vec();
    if !key.is_empty() {
        if path.last() != Some(&b'/') {
            path.push(b'/');
        }
        path.extend_from_slice(key);
    }
    path
}
