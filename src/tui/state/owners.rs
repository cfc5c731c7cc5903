//! `o`: who is using the selected directory (or the one listed, when a file is selected):
//! its owners by usage in the size mode shown, with their share, in a box (`--by-owner`
//! records the owners; see [`crate::owners`]).

use super::{Overlay, State};
use crate::owners::{owners_of, UserNames};
use crate::tui::text::{display, path_text};
use crate::vocab::SizeMode;

/// The most owners listed; the rest are summed on one line.
const SHOWN: usize = 20;

impl State {
    pub(super) fn show_owners(&mut self) {
        if self.work.scan().running {
            self.display.say("owners: wait for the scan to finish");
            return;
        }
        let dir = match self.selected() {
            Some(id) if !self.is_removed_row(id) && self.node(id).is_dir() => id,
            _ => self.dir(),
        };
        let mode = match self.mode() {
            SizeMode::Time => SizeMode::Disk,
            m => m,
        };
        let Some(owners) = owners_of(&self.tree, dir, mode) else {
            self.display.say(
                "owners were not recorded: start with hogs i --by-owner (an import needs --export-extended)",
            );
            return;
        };
        let total: u64 = owners.iter().map(|u| u.size(mode)).sum();
        let names = UserNames::load();
        let share = |v: u64| {
            if total == 0 {
                0.0
            } else {
                v as f64 * 100.0 / total as f64
            }
        };
        let line = |size: u64, who: &str| {
            format!(
                "{:>9} {:>5.1}%  {who}",
                crate::units::format_size(size, mode, self.display.units()),
                share(size)
            )
        };
        let mut lines: Vec<String> = owners
            .iter()
            .take(SHOWN)
            .map(|u| line(u.size(mode), &display(&names.name(u.uid))))
            .collect();
        if owners.len() > SHOWN {
            let rest: u64 = owners[SHOWN..].iter().map(|u| u.size(mode)).sum();
            lines.push(line(rest, &format!("({} more)", owners.len() - SHOWN)));
        }
        if lines.is_empty() {
            lines.push("nothing counted here".into());
        }
        let title = format!("Owners of {} (any key closes)", path_text(self, dir));
        self.display.open(Overlay::Owners { title, lines });
    }
}
