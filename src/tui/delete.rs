//! Every destructive syscall of hogs. Runs off the UI thread.
//!
//! An entry is reached from its scan root one name at a time (`openat` with `O_NOFOLLOW`),
//! and every directory on the way, and the entry itself (by `lstat`), must still have the
//! `(dev, ino)` and type recorded by the scan; otherwise it is left alone and reported. So a
//! symlink is never followed (deleting a link removes only the link), nothing outside the
//! root is reachable, and an entry swapped since the scan is refused. Directories are
//! emptied iteratively through directory fds, going back up by `..` only after checking that
//! it is the directory we came from: a 20,000-deep chain needs two descriptors.

use std::ffi::{CStr, CString};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::fs::{AtFlags, Mode, OFlags, CWD};
use rustix::io::Errno;

use crate::sys::{self, describe};
use crate::tree::{flags, EntryKind, LinkKey, NodeId, Tree};

/// Everything deleting one entry needs, copied from the tree on the UI thread.
#[derive(Clone, Debug)]
pub struct Target {
    pub node: NodeId,
    /// The scan root as typed, and its `(dev, ino)`.
    root: Vec<u8>,
    root_id: LinkKey,
    /// Names from below the root down to the entry, with the `(dev, ino)` of each.
    steps: Vec<(CString, LinkKey)>,
    kind: EntryKind,
    /// The path, escaped for messages.
    pub shown: String,
}

/// What became of a batch of deletions.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Entries that are gone (deleted now, or already gone).
    pub removed: Vec<NodeId>,
    /// Directories that are still there but lost part of their contents (their sizes are
    /// stale: worth a rescan).
    pub partial: Vec<NodeId>,
    /// One line per failure (capped), path first.
    pub failed: Vec<String>,
    /// The trash directories the entries went to (when trashing).
    pub trashed_to: Vec<std::path::PathBuf>,
}

const MAX_MESSAGES: usize = 100;

/// Prepares the deletion of `nodes`. Scan roots and what is above them are refused, as are
/// entries on another filesystem (-x), walks that kept no identities, and anything that is
/// not a node of `tree` (such as the removed rows of `hogs i --diff`: they are not on disk).
pub fn plan(tree: &Tree, nodes: &[NodeId]) -> (Vec<Target>, Vec<String>) {
    let mut targets = Vec::new();
    let mut refused = Vec::new();
    for &id in nodes {
        if id as usize >= tree.len() {
            // a removed row of a comparison (an entry of the earlier scan only) or no node
            refused.push("an entry of the earlier scan only: not on the disk, left alone".into());
            continue;
        }
        let shown = super::view::display(&tree.path(id));
        if id == crate::tree::TOTAL || tree.is_root(id) {
            refused.push(format!("{shown}: a scanned root is never deleted"));
            continue;
        }
        if tree.node(id).has(flags::OTHER_FS) {
            refused.push(format!("{shown}: on another filesystem, left alone"));
            continue;
        }
        let mut chain = Vec::new();
        let mut n = id;
        while !tree.is_root(n) {
            chain.push(n);
            n = tree.parent(n);
        }
        let (Some(root_id), true) = (tree.identity_of(n), tree.has_identity()) else {
            refused.push(format!("{shown}: no identity recorded by the scan"));
            continue;
        };
        let mut steps = Vec::with_capacity(chain.len());
        let mut ok = true;
        for &c in chain.iter().rev() {
            let name = tree.name(c);
            match (CString::new(name), tree.identity_of(c)) {
                (Ok(cname), Some(key)) if !name.contains(&b'/') && name != b".." => {
                    steps.push((cname, key))
                }
                _ => ok = false,
            }
        }
        if !ok {
            refused.push(format!("{shown}: unusable name"));
            continue;
        }
        targets.push(Target {
            node: id,
            root: tree.name(n).to_vec(),
            root_id,
            steps,
            kind: tree.node(id).kind(),
            shown,
        });
    }
    (targets, refused)
}

/// A failure worded for the report.
#[derive(Debug)]
enum Failure {
    Sys(Errno),
    Changed(&'static str),
    Other(String),
}

fn same(fd: BorrowedFd<'_>, want: LinkKey) -> Result<(), Failure> {
    let m = sys::fstat(fd).map_err(Failure::Sys)?;
    if (m.dev, m.ino) == want {
        Ok(())
    } else {
        Err(Failure::Changed("changed since the scan"))
    }
}

fn open_dir(at: BorrowedFd<'_>, name: &CStr) -> Result<OwnedFd, Errno> {
    rustix::fs::openat(
        at,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

/// Deletes (or, with `trash`, moves to the trash) each target in turn; `progress(done)` after
/// each one.
pub fn run(targets: &[Target], trash: bool, mut progress: impl FnMut(usize)) -> Outcome {
    let mut out = Outcome::default();
    let mut folders = Vec::new();
    for (i, t) in targets.iter().enumerate() {
        let mut errors = Vec::new();
        match delete_one(t, trash, &mut errors) {
            Ok(true) if trash => {
                out.removed.push(t.node);
                if let Some((name, key)) = t.steps.last() {
                    let mut at = super::trash::holding(&folders, name.to_bytes(), *key);
                    if at.is_none() {
                        // a trash directory made for this entry
                        folders = super::trash::folders();
                        at = super::trash::holding(&folders, name.to_bytes(), *key);
                    }
                    if let Some(f) = at.filter(|f| !out.trashed_to.contains(f)) {
                        out.trashed_to.push(f);
                    }
                }
            }
            Ok(true) => out.removed.push(t.node),
            Ok(false) => out.partial.push(t.node),
            Err(Failure::Sys(Errno::NOENT)) => out.removed.push(t.node), // already gone
            Err(Failure::Sys(e)) => {
                errors.insert(0, format!("{}: {}", t.shown, describe(e.raw_os_error())))
            }
            Err(Failure::Changed(why)) => {
                errors.insert(0, format!("{}: {why}, not deleted", t.shown))
            }
            Err(Failure::Other(why)) => errors.insert(0, format!("{}: {why}", t.shown)),
        }
        for e in errors {
            if out.failed.len() < MAX_MESSAGES {
                out.failed.push(e);
            }
        }
        progress(i + 1);
    }
    out
}

/// Whether the entry is gone.
fn delete_one(t: &Target, trash: bool, errors: &mut Vec<String>) -> Result<bool, Failure> {
    let root = CString::new(t.root.clone()).map_err(|_| Failure::Changed("unusable root"))?;
    let mut dir = rustix::fs::openat(
        CWD,
        root.as_c_str(),
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(Failure::Sys)?;
    same(dir.as_fd(), t.root_id).map_err(|_| Failure::Changed("the scan root changed"))?;
    let Some(((name, want), path)) = t.steps.split_last() else {
        return Err(Failure::Changed("a scanned root is never deleted"));
    };
    for (step, key) in path {
        dir = open_dir(dir.as_fd(), step).map_err(|e| match e {
            // a symlink where a directory was, or not a directory any more
            Errno::LOOP | Errno::NOTDIR => Failure::Changed("a parent changed since the scan"),
            e => Failure::Sys(e),
        })?;
        same(dir.as_fd(), *key).map_err(|_| Failure::Changed("a parent changed since the scan"))?;
    }
    let meta = sys::stat_at(dir.as_fd(), name, false).map_err(Failure::Sys)?;
    if (meta.dev, meta.ino) != *want || meta.kind != t.kind {
        return Err(Failure::Changed("changed since the scan"));
    }
    if trash {
        let mut full = t.root.clone();
        for (step, _) in &t.steps {
            if full.last() != Some(&b'/') {
                full.push(b'/');
            }
            full.extend_from_slice(step.to_bytes());
        }
        return super::trash::move_to_trash(&full)
            .map(|()| true)
            .map_err(Failure::Other);
    }
    if meta.kind != EntryKind::Dir {
        return rustix::fs::unlinkat(dir.as_fd(), name, AtFlags::empty())
            .map(|()| true)
            .map_err(Failure::Sys);
    }
    remove_tree(dir.as_fd(), name, *want, &t.shown, errors)
}

/// One directory being emptied: its identity, its name in its parent, its subdirectories
/// still to do.
struct Frame {
    id: LinkKey,
    name: CString,
    pending: Vec<CString>,
}

/// Removes the directory `name` below `parent` and everything in it, never leaving its
/// filesystem. Failures inside are added to `errors` and the rest goes on. Returns whether
/// the directory is gone.
fn remove_tree(
    parent: BorrowedFd<'_>,
    name: &CStr,
    id: LinkKey,
    shown: &str,
    errors: &mut Vec<String>,
) -> Result<bool, Failure> {
    let mut fd = open_dir(parent, name).map_err(Failure::Sys)?;
    same(fd.as_fd(), id)?;
    let dev = id.0;
    let mut stack = vec![Frame {
        id,
        name: name.to_owned(),
        pending: Vec::new(),
    }];
    let mut fresh = true;
    loop {
        if fresh {
            fresh = false;
            let pending = empty_files(&fd, dev, &mut |leaf, e| {
                errors.push(failure_at(shown, &stack, Some(leaf), e))
            });
            match pending {
                Ok(p) => stack.last_mut().map(|f| f.pending = p).unwrap_or(()),
                Err(e) => errors.push(failure_at(shown, &stack, None, e)),
            }
        }
        let next = stack.last_mut().and_then(|f| f.pending.pop());
        if let Some(sub) = next {
            if let Some(child) = descend(&fd, sub, &mut stack, shown, errors) {
                fd = child;
                fresh = true;
            }
            continue;
        }
        // this directory is done: go up (checking `..` is where we came from) and remove it
        let Some(done) = stack.pop() else {
            break;
        };
        let Some(up) = stack.last() else {
            drop(fd);
            return match rustix::fs::unlinkat(parent, name, AtFlags::REMOVEDIR) {
                Ok(()) => Ok(true),
                Err(e) if !errors.is_empty() && e == Errno::NOTEMPTY => Ok(false),
                Err(e) => Err(Failure::Sys(e)),
            };
        };
        let parent_fd = open_dir(fd.as_fd(), c"..").map_err(Failure::Sys)?;
        same(parent_fd.as_fd(), up.id).map_err(|_| Failure::Changed("moved while deleting"))?;
        fd = parent_fd;
        if let Err(e) = rustix::fs::unlinkat(fd.as_fd(), &done.name, AtFlags::REMOVEDIR) {
            if e != Errno::NOTEMPTY || errors.is_empty() {
                errors.push(failure_at(shown, &stack, Some(&done.name), e));
            }
        }
    }
    Ok(false)
}

/// Opens the subdirectory `sub` of the directory `fd` being emptied (the top of `stack`)
/// and pushes it on the stack, if it is still a directory on the way down; returns its fd.
fn descend(
    fd: &OwnedFd,
    sub: CString,
    stack: &mut Vec<Frame>,
    shown: &str,
    errors: &mut Vec<String>,
) -> Option<OwnedFd> {
    let child = sys::stat_at(fd.as_fd(), &sub, false)
        .and_then(|m| open_dir(fd.as_fd(), &sub).map(|c| (m, c)));
    match child {
        Ok((m, c)) if m.kind == EntryKind::Dir => {
            if same(c.as_fd(), (m.dev, m.ino)).is_err() {
                let at = path_at(shown, stack, Some(&sub));
                errors.push(format!("{at}: changed while deleting"));
                return None;
            }
            stack.push(Frame {
                id: (m.dev, m.ino),
                name: sub,
                pending: Vec::new(),
            });
            Some(c)
        }
        Ok(_) | Err(Errno::NOENT) => None,
        Err(e) => {
            errors.push(failure_at(shown, stack, Some(&sub), e));
            None
        }
    }
}

/// The path, for messages, of `leaf` in the directory being emptied (the top of `stack`,
/// whose bottom is the entry shown as `shown`), or of that directory itself.
fn path_at(shown: &str, stack: &[Frame], leaf: Option<&CStr>) -> String {
    let mut p = shown.to_string();
    for f in &stack[1..] {
        p.push('/');
        p.push_str(&super::view::display(f.name.to_bytes()));
    }
    if let Some(l) = leaf {
        p.push('/');
        p.push_str(&super::view::display(l.to_bytes()));
    }
    p
}

/// A failure's line: where, and the cause in words.
fn failure_at(shown: &str, stack: &[Frame], leaf: Option<&CStr>, e: Errno) -> String {
    let at = path_at(shown, stack, leaf);
    format!("{at}: {}", describe(e.raw_os_error()))
}

/// Unlinks every non-directory in `dir`; returns the names of its subdirectories on the
/// same filesystem (others are reported and left alone).
fn empty_files(
    dir: &OwnedFd,
    dev: u64,
    report: &mut dyn FnMut(&CStr, Errno),
) -> Result<Vec<CString>, Errno> {
    let mut names: Vec<(CString, Option<EntryKind>)> = Vec::new();
    sys::read_entries(dir, |name, t, _| {
        names.push((name.to_owned(), sys::kind_of_dirent(t)))
    })?;
    let mut subdirs = Vec::new();
    for (name, kind) in names {
        let kind = match kind {
            Some(k) => k,
            None => match sys::stat_at(dir.as_fd(), &name, false) {
                Ok(m) => m.kind,
                Err(e) => {
                    report(&name, e);
                    continue;
                }
            },
        };
        if kind == EntryKind::Dir {
            match sys::stat_at(dir.as_fd(), &name, false) {
                Ok(m) if m.dev != dev => report(&name, Errno::XDEV),
                Ok(_) => subdirs.push(name),
                Err(Errno::NOENT) => {}
                Err(e) => report(&name, e),
            }
            continue;
        }
        match rustix::fs::unlinkat(dir.as_fd(), &name, AtFlags::empty()) {
            Ok(()) | Err(Errno::NOENT) => {}
            Err(e) => report(&name, e),
        }
    }
    Ok(subdirs)
}
