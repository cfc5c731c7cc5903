//! What could not be read: paths refused before the view opens, and the errors of the walk
//! (and of rescans) listed inside it (`e`).

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;

use crate::error::report_scan_errors;
use crate::render::escape::escape;
use crate::sys::describe;
use crate::tree::Tree;
use crate::walk::ScanError;

/// Whether the view has something to show for `paths`: a directory among them, or more than
/// one entry (the view lists them). Otherwise each path's problem is written to `err` (as
/// the other views word it) and the view is not opened: an empty full-screen view that says
/// why only after quitting helps no one.
pub fn check_paths(paths: &[OsString], err: &mut dyn Write, tty: bool) -> bool {
    let mut problems = Vec::new();
    let (mut found, mut dirs) = (0, 0);
    for p in paths {
        let shown = escape(p.as_bytes(), !tty);
        let shown = String::from_utf8_lossy(&shown.bytes).into_owned();
        match std::fs::metadata(p) {
            Ok(m) => {
                found += 1;
                if m.is_dir() {
                    dirs += 1;
                } else {
                    problems.push(format!(
                        "'{shown}' is not a directory: the interactive view browses directories"
                    ));
                }
            }
            Err(e) => problems.push(format!(
                "cannot access '{shown}': {}",
                e.raw_os_error().map_or_else(|| e.to_string(), describe)
            )),
        }
    }
    if dirs > 0 || found > 1 {
        return true;
    }
    if paths.is_empty() {
        problems.push("no path to scan (the list of paths was empty)".into());
    }
    for p in problems {
        let _ = writeln!(err, "hogs: {p}");
    }
    false
}

/// One line per error, paths escaped for the screen.
pub fn lines(errors: &[ScanError], tree: &Tree) -> Vec<String> {
    errors
        .iter()
        .map(|e| {
            let mut out = Vec::new();
            let _ = report_scan_errors(std::slice::from_ref(e), tree, &mut out, true);
            let text = String::from_utf8_lossy(&out);
            let text = text.trim_end();
            text.strip_prefix("hogs: ").unwrap_or(text).to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(paths: &[&str]) -> (bool, String) {
        let paths: Vec<OsString> = paths.iter().map(OsString::from).collect();
        let mut err = Vec::new();
        let ok = check_paths(&paths, &mut err, false);
        (ok, String::from_utf8_lossy(&err).into_owned())
    }

    #[test]
    fn the_view_opens_only_with_something_to_show() {
        assert_eq!(check(&["/"]), (true, String::new()));
        assert_eq!(check(&["/", "/nonexistent-hogs"]), (true, String::new()));
        let (ok, err) = check(&["/nonexistent-hogs"]);
        assert!(!ok);
        assert_eq!(
            err,
            "hogs: cannot access '/nonexistent-hogs': No such file or directory\n"
        );
        let (ok, err) = check(&[]);
        assert!(!ok && err.contains("no path to scan"), "{err}");
    }
}
