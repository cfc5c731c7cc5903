//! Writing a scan for other tools: ncdu's JSON export format (`-O`).

pub mod ncdu;

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Opens the export target before the scan starts, so that a path that cannot be written
/// fails at once rather than after a long walk. `-` is stdout.
pub fn open_target(file: &OsStr) -> io::Result<Box<dyn Write>> {
    if file.as_bytes() == b"-" {
        return Ok(Box::new(io::stdout().lock()));
    }
    Ok(Box::new(File::create(file)?))
}

/// The name ncdu gives the scanned directory: its absolute path (lexically; symlinks are
/// not resolved), without a trailing slash.
pub fn root_name(typed: &OsStr) -> Vec<u8> {
    let mut name = std::path::absolute(Path::new(typed))
        .map(|p| p.into_os_string().into_vec())
        .unwrap_or_else(|_| typed.as_bytes().to_vec());
    while name.len() > 1 && name.last() == Some(&b'/') {
        name.pop();
    }
    name
}

/// Seconds since the epoch (0 if the clock is before it).
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_name_is_absolute_without_trailing_slash() {
        let cwd = std::env::current_dir().expect("cwd");
        let cwd = cwd.as_os_str().as_bytes();
        assert_eq!(root_name(OsStr::new(".")), cwd);
        let mut want = cwd.to_vec();
        want.extend_from_slice(b"/a/b");
        assert_eq!(root_name(OsStr::new("a/b/")), want);
        assert_eq!(root_name(OsStr::new("/")), b"/");
        assert_eq!(root_name(OsStr::new("/x//")), b"/x");
    }
}
