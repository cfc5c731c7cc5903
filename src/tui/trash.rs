//! Moving entries to the trash instead of deleting them (the `trash` crate): the
//! freedesktop trash on Linux and the BSDs, the user's Trash on macOS.
//! The caller has re-checked the entry's identity just before; the crate works on paths.

use std::ffi::OsStr;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, Path, PathBuf};

use crate::sys::describe;
use crate::tree::{LinkKey, NodeId, Tree};

/// Moves the entry at `path` (as the walk spells it) to the trash. The error is one line in
/// words: "cannot move to the trash: " and the cause (with the path it concerns when that is
/// not the entry's own, such as the trash directory that could not be made).
pub fn move_to_trash(path: &[u8]) -> Result<(), String> {
    let path = Path::new(OsStr::from_bytes(path));
    context()
        .delete(path)
        .map_err(|e| format!("cannot move to the trash: {}", cause(&e)))
}

#[cfg(not(target_os = "macos"))]
fn context() -> trash::TrashContext {
    trash::TrashContext::default()
}

/// On macOS, through the file manager's call (`NSFileManager trashItemAtURL`), not by asking
/// Finder with `osascript` (the crate's default): that needs no permission to script Finder,
/// works over ssh and makes no sound.
#[cfg(target_os = "macos")]
fn context() -> trash::TrashContext {
    use trash::macos::{DeleteMethod, TrashContextExtMacos};
    let mut ctx = trash::TrashContext::default();
    ctx.set_delete_method(DeleteMethod::NsFileManager);
    ctx
}

/// The trash directories there are now (canonical paths): where trashed entries went.
#[cfg(not(target_os = "macos"))]
pub fn folders() -> Vec<PathBuf> {
    trash::os_limited::trash_folders()
        .map(|set| {
            set.into_iter()
                .filter_map(|p| std::fs::canonicalize(p).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// The trash directory of macOS there is now (canonical): `~/.Trash`, where an entry of the
/// home volume goes (an entry of another volume goes to its `.Trashes`, not looked for).
#[cfg(target_os = "macos")]
pub fn folders() -> Vec<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .and_then(|h| std::fs::canonicalize(Path::new(&h).join(".Trash")).ok())
        .into_iter()
        .collect()
}

/// The trash directory (of `folders`) that holds the entry with identity `key` at its top:
/// the file manager names it as it likes (`name 2`, a time added) when the name is taken.
#[cfg(target_os = "macos")]
pub fn holding(folders: &[PathBuf], _name: &[u8], key: LinkKey) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    folders
        .iter()
        .find(|f| {
            std::fs::read_dir(f).is_ok_and(|entries| {
                entries
                    .flatten()
                    .any(|e| e.metadata().is_ok_and(|m| (m.dev(), m.ino()) == key))
            })
        })
        .cloned()
}

/// The trash directory (of `folders`) that holds the entry `name` with identity `key` under
/// its `files/` (as `name`, or `name.N` when that was taken), if any.
#[cfg(not(target_os = "macos"))]
pub fn holding(folders: &[PathBuf], name: &[u8], key: LinkKey) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    for f in folders {
        let files = f.join("files");
        for n in 1..10_000u32 {
            let mut cand = name.to_vec();
            if n > 1 {
                cand.extend_from_slice(format!(".{n}").as_bytes());
            }
            match std::fs::symlink_metadata(files.join(OsStr::from_bytes(&cand))) {
                Ok(m) if (m.dev(), m.ino()) == key => return Some(f.clone()),
                Ok(_) => {}
                Err(_) => break,
            }
        }
    }
    None
}

/// The deepest node of `tree` that holds one of the trash directories `folders` (their
/// common ancestor when several do), and the path of the first spelt from its root as typed.
pub fn holding_node(tree: &Tree, folders: &[PathBuf]) -> Option<(NodeId, Vec<u8>)> {
    let mut found: Option<(NodeId, Vec<u8>)> = None;
    for f in folders {
        let Some((node, path)) = node_holding(tree, f) else {
            continue;
        };
        found = Some(match found {
            None => (node, path),
            Some((other, first)) => (common_ancestor(tree, node, other), first),
        });
    }
    found
}

/// The deepest node of the tree on the way to `path` (canonical), if a root holds it,
/// and the path spelt from that root as typed.
fn node_holding(tree: &Tree, path: &Path) -> Option<(NodeId, Vec<u8>)> {
    for root in tree.roots() {
        let typed = Path::new(OsStr::from_bytes(tree.name(root)));
        let Ok(canon) = std::fs::canonicalize(typed) else {
            continue;
        };
        let Ok(rest) = path.strip_prefix(&canon) else {
            continue;
        };
        let mut node = root;
        for c in rest.components() {
            let Component::Normal(name) = c else { break };
            let next = tree.node(node).children().find(|&k| {
                tree.name(k) == name.as_bytes() && tree.node(k).is_dir() && tree.is_live(k)
            });
            match next {
                Some(k) => node = k,
                None => break,
            }
        }
        let mut shown = tree.name(root).to_vec();
        if !rest.as_os_str().is_empty() {
            if shown.last() != Some(&b'/') {
                shown.push(b'/');
            }
            shown.extend_from_slice(rest.as_os_str().as_bytes());
        }
        return Some((node, shown));
    }
    None
}

fn common_ancestor(tree: &Tree, a: NodeId, b: NodeId) -> NodeId {
    let mut n = a;
    while !tree.is_within(b, n) {
        n = tree.parent(n);
    }
    n
}

/// The cause of a failed trash in words (the crate's `Display` is its `Debug`).
fn cause(e: &trash::Error) -> String {
    let shown = |p: &Path| super::view::display(p.as_os_str().as_bytes());
    #[cfg_attr(target_os = "macos", allow(unused_variables))]
    let io = |e: &std::io::Error| match e.raw_os_error() {
        Some(errno) => describe(errno),
        None => one_line(&e.to_string()),
    };
    match e {
        #[cfg(not(target_os = "macos"))]
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

    #[cfg(not(target_os = "macos"))]
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
