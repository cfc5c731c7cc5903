//! `i`: what is known of the selected entry, as ncdu's item view: name, path, type, disk and
//! apparent sizes in exact bytes, items, modification time, owner and hard links.

use super::{AsScan, Overlay, State};
use crate::owners::UserNames;
use crate::tree::{flags, EntryKind};
use crate::tui::text::{display, path_text};
use crate::units::{format_size, format_time, with_separators};
use crate::vocab::{SizeMode, UnitStyle};

impl<T: AsScan> State<T> {
    pub(super) fn show_item(&mut self) {
        let Some(id) = self.selected() else {
            self.display.say("no entry selected");
            return;
        };
        let n = self.node(id);
        let bytes = |v: u64| {
            let human = format_size(v, SizeMode::Disk, UnitStyle::HumanIec);
            format!("{} bytes ({human})", with_separators(v))
        };
        let kind = match n.kind() {
            EntryKind::Dir => "directory",
            EntryKind::File => "file",
            EntryKind::Symlink => "symbolic link",
            EntryKind::Other => "other (device, socket, fifo)",
        };
        let mut lines = vec![
            format!("name      {}", display(self.name(id))),
            format!("path      {}", path_text(self, id)),
            format!(
                "type      {kind}{}",
                notes(n.has(flags::UNREADABLE), n.has(flags::OTHER_FS))
            ),
            format!("disk      {}", bytes(n.disk)),
            format!("apparent  {}", bytes(n.apparent)),
        ];
        if n.is_dir() {
            lines.push(format!(
                "items     {}",
                with_separators(u64::from(n.entries))
            ));
        }
        lines.push(format!("modified  {}", format_time(n.mtime.max(0) as u64)));
        if self.is_removed_row(id) {
            lines.push("removed since the earlier scan".into());
        } else {
            lines.push(self.owner_line(id));
            if let Some(links) = self.tree.links(id).filter(|&l| l > 1) {
                lines.push(format!("links     {links} (counted once)"));
            }
        }
        let title = " Item (any key closes) ".to_string();
        self.display.open(Overlay::Item { title, lines });
    }

    fn owner_line(&self, id: T::Id) -> String {
        match self.tree.owner(id) {
            Some(uid) => {
                let name = display(&UserNames::load().name(uid));
                format!("owner     {name} (uid {uid})")
            }
            None => "owner     not recorded (hogs i --by-owner)".into(),
        }
    }
}

fn notes(unreadable: bool, other_fs: bool) -> &'static str {
    match (unreadable, other_fs) {
        (true, _) => ", could not be read",
        (_, true) => ", another filesystem (not read)",
        _ => "",
    }
}
