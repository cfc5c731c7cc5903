//! Moving entries to the freedesktop trash instead of deleting them (the `trash` crate).
//! The caller has re-checked the entry's identity just before; the crate works on paths.

use std::ffi::OsStr;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

use crate::walk::sys::describe;

/// Moves the entry at `path` (as the walk spells it) to the trash. The error is one line in
/// words: "cannot move to the trash: " and the cause (with the path it concerns when that is
/// not the entry's own, such as the trash directory that could not be made).
pub fn move_to_trash(path: &[u8]) -> Result<(), String> {
    let path = Path::new(OsStr::from_bytes(path));
    trash::delete(path).map_err(|e| format!("cannot move to the trash: {}", cause(&e)))
}

/// The cause of a failed trash in words (the crate's `Display` is its `Debug`).
fn cause(e: &trash::Error) -> String {
    let shown = |p: &Path| super::view::display(p.as_os_str().as_bytes());
    let io = |e: &std::io::Error| match e.raw_os_error() {
        Some(errno) => describe(errno),
        None => one_line(&e.to_string()),
    };
    match e {
        trash::Error::FileSystem { path, source } => format!("{}: {}", shown(path), io(source)),
        trash::Error::Os { code, .. } => describe(*code),
        trash::Error::Unknown { description } => one_line(description),
        trash::Error::TargetedRoot => "a root directory is never trashed".into(),
        trash::Error::CouldNotAccess { target } => {
            format!(
                "{}: cannot be accessed",
                super::view::display(target.as_bytes())
            )
        }
        trash::Error::CanonicalizePath { original } => {
            format!("{}: cannot resolve the path", shown(original))
        }
        trash::Error::ConvertOsString { original } => format!(
            "{}: the name cannot be written in the trash's records",
            super::view::display(&original.clone().into_vec())
        ),
        trash::Error::RestoreCollision { path, .. } | trash::Error::RestoreTwins { path, .. } => {
            format!("{}: unexpected restore error", shown(path))
        }
    }
}

/// Text from elsewhere made one line, control characters escaped.
fn one_line(text: &str) -> String {
    super::view::display(text.trim().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_are_words_with_the_path_they_concern() {
        let e = trash::Error::FileSystem {
            path: "/x/Trash/files".into(),
            source: std::io::Error::from_raw_os_error(libc::EACCES),
        };
        assert_eq!(cause(&e), "/x/Trash/files: Permission denied");
        let e = trash::Error::Unknown {
            description: "no\nhome".into(),
        };
        assert!(!cause(&e).contains('\n'), "{}", cause(&e));
    }
}
