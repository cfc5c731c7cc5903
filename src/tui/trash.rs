//! Moving entries to the freedesktop trash instead of deleting them (the `trash` crate).
//! The caller has re-checked the entry's identity just before; the crate works on paths.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Moves the entry at `path` (as the walk spells it) to the trash.
pub fn move_to_trash(path: &[u8]) -> Result<(), String> {
    let path = Path::new(OsStr::from_bytes(path));
    trash::delete(path).map_err(|e| match e {
        trash::Error::Unknown { description } => format!("cannot move to the trash: {description}"),
        e => format!("cannot move to the trash: {e}"),
    })
}
