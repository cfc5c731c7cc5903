//! What a view can do besides browsing: a live scan of this disk deletes, rescans and shows
//! owners; a scan loaded from an export shows owners only (its entries may not be on this
//! disk); a tree read from a file on demand only browses. The state holds them, each with
//! why not, and asks them before any key that would need one.

use super::{AsScan, Request, State};
use crate::tui::action::Action;
use crate::tui::shown::READ_ONLY;

/// Why a view cannot do something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Off {
    /// A tree read from a file on demand: nothing of the scan behind it.
    ReadOnly,
    /// A scan loaded from an export: not this disk's entries, or not the same ones.
    Imported,
    /// `--no-delete`.
    NoDelete,
}

/// Whether a view can do one thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Can {
    Yes,
    No(Off),
}

/// What a view can do besides browsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// `d` and `t`.
    pub delete: Can,
    /// `r`.
    pub rescan: Can,
    /// `o`.
    pub owners: Can,
}

impl Capabilities {
    /// A scan of this disk: everything, deleting unless `--no-delete` turned it off.
    pub fn scan(allow_delete: bool) -> Capabilities {
        Capabilities {
            delete: if allow_delete {
                Can::Yes
            } else {
                Can::No(Off::NoDelete)
            },
            rescan: Can::Yes,
            owners: Can::Yes,
        }
    }

    /// A tree read from a file on demand: browsing only.
    pub fn read_only() -> Capabilities {
        let no = Can::No(Off::ReadOnly);
        Capabilities {
            delete: no,
            rescan: no,
            owners: no,
        }
    }

    /// The same view of a scan loaded from an export: nothing touches the disk.
    pub fn imported(self) -> Capabilities {
        let off = |can: Can| match can {
            Can::No(Off::ReadOnly) => can,
            _ => Can::No(Off::Imported),
        };
        Capabilities {
            delete: off(self.delete),
            rescan: off(self.rescan),
            owners: self.owners,
        }
    }

    /// The capability a key needs, if it needs one.
    fn for_action(&self, action: &Action) -> Option<(Can, Need)> {
        match action {
            Action::Delete | Action::Trash => Some((self.delete, Need::Delete)),
            Action::Rescan | Action::RescanSelected => Some((self.rescan, Need::Rescan)),
            Action::Owners => Some((self.owners, Need::Owners)),
            _ => None,
        }
    }
}

#[derive(Clone, Copy)]
enum Need {
    Delete,
    Rescan,
    Owners,
}

/// What the footer says when a key needs what the view cannot do.
fn why_not(need: Need, off: Off) -> String {
    match (need, off) {
        (Need::Delete, Off::ReadOnly) => format!("{READ_ONLY}: nothing to delete"),
        (Need::Rescan, Off::ReadOnly) => format!("{READ_ONLY}: nothing to rescan"),
        (Need::Owners, Off::ReadOnly) => format!("{READ_ONLY}: no owners recorded"),
        (Need::Rescan, _) => "an imported scan cannot be rescanned".into(),
        (_, Off::Imported) => "an imported scan: nothing here to delete".into(),
        (_, _) => "deleting is turned off (--no-delete)".into(),
    }
}

impl<T: AsScan> State<T> {
    pub fn capabilities(&self) -> Capabilities {
        self.can
    }

    /// A key that needs a capability: carried out by the tree's kind of view if the state
    /// has it, else the footer says why not.
    pub(super) fn on_capability(&mut self, action: Action) -> Option<Request> {
        match self.can.for_action(&action) {
            Some((Can::No(off), need)) => {
                self.display.say(why_not(need, off));
                None
            }
            _ => T::act(self, action),
        }
    }
}
