//! `hogs i --extents`: what the view shows of [`Tree::sharing`] (the `excl` and `shared`
//! columns, what deleting really frees) and how a delete changes it.
//!
//! The numbers stay lower bounds after a delete: a deleted entry's exclusive and shared bytes
//! leave its directories, although what it shared with a file that stays may now be that
//! file's own (the filesystem would say so on the next scan; `r` reads the whole scan again).

use super::shown::removed;
use super::state::{AsScan, State};
use crate::tree::{flags, NodeId, Sharing, Tree, TOTAL};
use crate::vocab::SizeMode;

/// The sharing of `id`, when the view shows it: a scan with `--extents` (or an export of
/// one) in disk sizes, and an entry of the tree (not a removed row of a comparison).
pub fn of<T: AsScan>(state: &State<T>, id: T::Id) -> Option<Sharing> {
    if state.mode() != SizeMode::Disk || removed::<T>(id).is_some() {
        return None;
    }
    state.tree().sharing(id)
}

/// Whether the view shows the columns.
pub fn shown<T: AsScan>(state: &State<T>) -> bool {
    state.mode() == SizeMode::Disk && state.tree().counts_sharing()
}

/// What deleting `targets` (outermost entries) frees for sure: what only they hold. And
/// what they share with other files, which stays, when that is one number (a single
/// target: shared bytes of several are a union no sum tells).
pub fn freed(tree: &Tree, targets: &[NodeId]) -> Option<(u64, Option<u64>)> {
    if tree.sharing.is_empty() {
        return None;
    }
    let live = |id: &&NodeId| (**id as usize) < tree.len() && !tree.node(**id).has(flags::REMOVED);
    let sharing: Vec<Sharing> = targets
        .iter()
        .filter(live)
        .map(|&id| tree.sharing[id as usize])
        .collect();
    let exclusive = sharing.iter().map(|s| s.exclusive).sum();
    let shared = match sharing.as_slice() {
        [one] => Some(one.shared),
        all if all.iter().all(|s| s.shared == 0) => Some(0),
        _ => None,
    };
    Some((exclusive, shared))
}

/// Takes deleted entries' bytes out of their directories (`removed`: outermost entries,
/// before the tree marks them removed).
pub fn forget(tree: &mut Tree, removed: &[NodeId]) {
    if tree.sharing.is_empty() {
        return;
    }
    for &id in removed {
        if id == TOTAL || id as usize >= tree.len() || tree.node(id).has(flags::REMOVED) {
            continue;
        }
        let gone = std::mem::take(&mut tree.sharing[id as usize]);
        let mut a = tree.parent(id);
        loop {
            let s = &mut tree.sharing[a as usize];
            s.exclusive = s.exclusive.saturating_sub(gone.exclusive);
            s.shared = s.shared.saturating_sub(gone.shared);
            if a == TOTAL {
                break;
            }
            a = tree.parent(a);
        }
    }
}

/// The delete dialog's words in `--extents`: `980Ki freed: what only it holds; 2.9Mi
/// shared may stay` (what is shared is freed only with everything else that refers to it).
pub fn words<T: AsScan>(state: &State<T>, freed: (u64, Option<u64>), targets: usize) -> String {
    let (exclusive, shared) = freed;
    let it = if targets == 1 {
        "it holds"
    } else {
        "they hold"
    };
    let mut w = format!("{} freed: what only {it}", state.format(exclusive));
    match shared {
        Some(0) => {}
        Some(s) => w.push_str(&format!("; {} shared may stay", state.format(s))),
        None => w.push_str("; what they share may stay"),
    }
    w
}

/// The `excl` and `shared` cells of the visible rows, each column right-aligned to its
/// widest; `None` when the view shows no such columns.
pub fn cells<T: AsScan>(state: &State<T>, visible: &[T::Id]) -> Option<Vec<String>> {
    if !shown(state) {
        return None;
    }
    let texts: Vec<(String, String)> = visible
        .iter()
        .map(|&id| match of(state, id) {
            Some(s) => (state.format(s.exclusive), state.format(s.shared)),
            None => (String::new(), String::new()),
        })
        .collect();
    let ew = texts.iter().map(|t| t.0.len()).max().unwrap_or(0).max(5);
    let sw = texts.iter().map(|t| t.1.len()).max().unwrap_or(0).max(5);
    Some(
        texts
            .into_iter()
            .map(|(e, s)| format!("{e:>ew$} {s:>sw$} "))
            .collect(),
    )
}

/// The header's words for the current directory: ` · excl 980Ki · shared 2.9Mi`.
pub fn header<T: AsScan>(state: &State<T>) -> String {
    match of(state, state.dir()).filter(|_| shown(state)) {
        Some(s) => format!(
            " · excl {} · shared {}",
            state.format(s.exclusive),
            state.format(s.shared)
        ),
        None => String::new(),
    }
}
