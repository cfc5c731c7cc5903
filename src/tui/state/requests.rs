//! The state's side of marking, deleting and rescanning: what `Space`, `d`, `t`, `r` and the
//! dialogs do, the requests they hand to the event loop, and how results come back in.

use std::path::PathBuf;

use super::{AsScan, Overlay, Request, State};
use crate::tree::{NodeId, Removal, Tree, TOTAL};
use crate::tui::diff::removed_of;
use crate::tui::shown::removed;

/// What a rescan found.
#[derive(Debug)]
pub enum Rescanned {
    /// The entry as it is now (a finished tree with it as its single root), and what could
    /// not be read in it (one line each).
    Tree(Box<Tree>, Vec<String>),
    /// Nothing is at its path any more (or a directory on the way is not one now).
    Gone,
    /// It could not be read: the message says why.
    Failed(String),
}

/// Why a removed row (an entry of the earlier scan only) is left alone.
const NOT_ON_DISK: &str = "removed since the earlier scan: not on the disk";

impl<T: AsScan> State<T> {
    pub(super) fn toggle_mark(&mut self) {
        let Some(id) = self.selected() else {
            return;
        };
        if removed::<T>(id).is_some() {
            self.display.say(format!("{NOT_ON_DISK}, nothing to mark"));
            return;
        }
        if self.tree.is_root(id) {
            self.display.say("a scanned root cannot be marked");
            return;
        }
        self.marks.toggle(id);
        // mark and move on, as in a file manager
        self.nav.move_by(1);
    }

    pub(super) fn confirm(&mut self) -> Option<Request> {
        match self.display.close() {
            Overlay::ConfirmQuit => {
                self.quit = true;
                None
            }
            Overlay::Confirm { targets, trash } => {
                let verb = if trash {
                    "moving to the trash"
                } else {
                    "deleting"
                };
                self.set_busy(format!("{verb} {} entries", targets.len()));
                Some(Request::Delete { targets, trash })
            }
            other => {
                self.display.open(other);
                None
            }
        }
    }
}

impl State {
    pub(super) fn ask_delete(&mut self, trash: bool) {
        if let Some(what) = self.work.busy() {
            self.display.say(format!("wait: {what}"));
            return;
        }
        let targets = if self.marks.is_empty() {
            match self.selected() {
                Some(id) if removed_of(id).is_some() => {
                    self.display
                        .say(format!("{NOT_ON_DISK}, nothing to delete"));
                    return;
                }
                Some(id) if self.tree.is_root(id) => {
                    self.display.say("a scanned root is never deleted");
                    return;
                }
                Some(id) => vec![id],
                None => return,
            }
        } else {
            self.marks.outermost(&self.tree)
        };
        self.display.open(Overlay::Confirm { targets, trash });
    }

    /// `r` rescans the directory shown (the selected root when that is the total of
    /// several paths); `R` (`selected`) the selected directory, or the one shown when a
    /// file is selected.
    pub(super) fn rescan(&mut self, selected: bool) -> Option<Request> {
        if let Some(what) = self.work.busy() {
            self.display.say(format!("wait: {what}"));
            return None;
        }
        if self.work.scan().running {
            self.display.say("the scan is still running");
            return None;
        }
        let on_disk = |id: NodeId| removed_of(id).is_none();
        if !on_disk(self.dir()) || !self.selected().is_none_or(on_disk) {
            self.display
                .say(format!("{NOT_ON_DISK}, nothing to rescan"));
            return None;
        }
        let target = match self.selected() {
            _ if !selected && self.dir() != TOTAL => self.dir(),
            Some(id) if self.tree.node(id).is_dir() => id,
            _ if self.dir() != TOTAL => self.dir(),
            Some(id) => id,
            None => return None,
        };
        self.set_busy("rescanning");
        Some(Request::Rescan(target))
    }

    /// A delete finished: `removed` are gone from the disk (or already were), `failed` are
    /// (entry, reason) lines, one per failure; `partial` directories lost only part of their
    /// contents. Only what was really removed leaves the tree.
    pub fn delete_done(
        &mut self,
        removed: &[NodeId],
        failed: &[String],
        partial: usize,
        trash: bool,
    ) {
        self.work.idle();
        let freed = crate::tui::extents::freed(&self.tree, removed)
            .filter(|_| !trash && crate::tui::extents::shown(self));
        crate::tui::extents::forget(&mut self.tree, removed);
        let effect = self.tree.remove_all(removed);
        self.work.removed_now(removed);
        self.tree_changed();
        let verb = if trash {
            "moved to the trash"
        } else {
            "deleted"
        };
        let words = match freed {
            Some(f) => crate::tui::extents::words(self, f, removed.len()),
            None => self.removal_words(&effect, trash),
        };
        let summary = format!("{verb} {} ({words})", removed.len());
        if failed.is_empty() {
            self.display.say(summary);
        } else {
            let mut lines = vec![format!("{summary}; {} failed:", failed.len())];
            lines.extend(failed.iter().take(8).cloned());
            if failed.len() > 8 {
                lines.push(format!("… and {} more", failed.len() - 8));
            }
            if partial > 0 {
                lines.push(format!(
                    "({partial} partly deleted {} keep{} stale sizes: r rescans)",
                    if partial == 1 {
                        "directory"
                    } else {
                        "directories"
                    },
                    if partial == 1 { "s" } else { "" }
                ));
            }
            self.display.open(Overlay::Report(lines));
        }
    }

    /// What deleting (or trashing) some entries does, in a few words for the dialog and the
    /// result line: the bytes freed (or that leave the scan for the trash), and what other
    /// hard links keep.
    pub fn removal_words(&self, r: &Removal, trash: bool) -> String {
        let main = if trash { r.leaves } else { r.freed };
        let mode = self.mode();
        let mut words = self.format(main.size(mode));
        let kept = [
            (r.moved, "kept by other hard links in the scan"),
            (r.elsewhere, "kept by hard links outside the scan"),
        ];
        let mut first = true;
        for (sizes, why) in kept {
            if sizes.is_zero() || mode == crate::vocab::SizeMode::Count {
                continue;
            }
            if first && !trash {
                words.push_str(" freed");
            }
            first = false;
            words.push_str(&format!("; {} {why}", self.format(sizes.size(mode))));
        }
        words
    }

    /// A rescan finished: the entry is replaced by what is on the disk now, or leaves the
    /// tree if it is not there any more.
    pub fn rescan_done(&mut self, at: NodeId, result: Rescanned) {
        self.work.idle();
        let after = self.work.take_after_rescan();
        match result {
            Rescanned::Tree(sub, errors) => {
                // the rows of the directory shown are new entries: the cursor follows its name
                let name = (at == self.dir())
                    .then(|| self.selected().map(|id| self.tree.name(id).to_vec()))
                    .flatten();
                self.tree.graft(at, &sub);
                self.tree_changed();
                if let Some(i) =
                    name.and_then(|n| self.rows().iter().position(|&r| self.tree.name(r) == n))
                {
                    self.nav.move_to(i as isize);
                }
                self.display.say(if errors.is_empty() {
                    after.unwrap_or_else(|| "rescanned".into())
                } else {
                    format!("rescanned; {} could not be read (e lists)", errors.len())
                });
                self.work.add_errors(errors);
            }
            Rescanned::Gone => {
                let shown = crate::tui::text::display(&self.tree.path(at));
                if self.tree.is_root(at) {
                    self.display
                        .say(format!("{shown}: not on the disk any more"));
                    return;
                }
                self.tree.remove(at);
                self.work.removed_now(&[at]);
                self.tree_changed();
                self.display.say(format!("{shown}: gone from the disk"));
            }
            Rescanned::Failed(e) => self.display.say(e),
        }
    }

    /// After entries went to the trash: a trash directory inside the scanned tree (the home
    /// trash below a scanned home, a `.Trash-UID` at the top of a scanned mount) still holds
    /// their bytes. The deepest node that holds it is rescanned, so the totals keep them, and
    /// the message says where they went.
    pub fn trash_in_scan(&mut self, folders: &[PathBuf]) -> Option<Request> {
        let (node, path) = crate::tui::trash::holding_node(&self.tree, folders)?;
        let shown = crate::tui::text::display(&path);
        let note = format!("; they stay in the scan, in the trash {shown}");
        let message = self.display.take_message().unwrap_or_default() + &note;
        self.display.say(message.clone());
        if node == TOTAL {
            return None;
        }
        self.work.after_rescan(Some(message));
        self.set_busy("rescanning the trash");
        Some(Request::Rescan(node))
    }
}
