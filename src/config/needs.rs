//! What the walk must keep, as the union of what the run's view needs ([`Mode::needs`], in
//! mode.rs: one line per view) and what its options add ([`of_options`]). `walk_options` is
//! the one place that turns needs into a walk; `walk_table.rs` pins every case.
//!
//! [`Mode::needs`]: super::Mode::needs

use std::ops::BitOr;

use super::cli::{Cli, FileTime};
use crate::tree::PathFilters;
use crate::vocab::SizeMode;
use crate::walk::{Exclusions, WalkOptions};

/// Which entries' `(dev, ino)` a run reads, least first: the union is the larger.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Identities {
    #[default]
    None,
    /// Those an export writes: directories, hard links, entries on another device.
    Exported,
    /// Every entry's: deleting re-checks them.
    All,
}

/// What a view or an option needs the walk to keep of every entry.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    pub identities: Identities,
    /// Both sizes, whatever `-f` counts.
    pub sizes: bool,
    /// The full stat: owner, mode, access and change times.
    pub extra: bool,
    /// The time shown, filtered on or written.
    pub times: bool,
    /// A node for every file: anything that shows, filters or reads files one by one. Without,
    /// files are summed into their directory as `du -s` does.
    pub files: bool,
}

impl Needs {
    /// Only the totals of the paths.
    pub const TOTALS: Needs = Needs {
        identities: Identities::None,
        sizes: false,
        extra: false,
        times: false,
        files: false,
    };
    /// Every file as a node, nothing more.
    pub const FILES: Needs = Needs {
        files: true,
        ..Needs::TOTALS
    };
}

impl BitOr for Needs {
    type Output = Needs;
    fn bitor(self, o: Needs) -> Needs {
        Needs {
            identities: self.identities.max(o.identities),
            sizes: self.sizes || o.sizes,
            extra: self.extra || o.extra,
            times: self.times || o.times,
            files: self.files || o.files,
        }
    }
}

/// What the options add to any view's needs.
pub(super) fn of_options(cli: &Cli, filters: &PathFilters, imported: bool) -> Needs {
    let time_filters = !filters.times.is_empty();
    let filetime = cli.filetime.is_some();
    Needs {
        // the time filters and -m a/c read times only a full stat has (and stat every entry,
        // even with -f; -m m reads the node's own time); --by-owner the uid of every entry,
        // in whichever view takes the flag
        extra: time_filters
            || matches!(cli.filetime, Some(FileTime::A | FileTime::C))
            || cli.by_owner,
        times: time_filters || filetime,
        // -e, -v and the time filters judge files one by one, -m takes the newest, extents
        // are read file by file after the walk, and an import holds every file anyway
        files: filters.is_active() || filetime || cli.extents || imported,
        ..Needs::TOTALS
    }
}

/// What the walk measures, and what it keeps of every entry for what the run needs.
pub(super) fn walk_options(
    cli: &Cli,
    needs: Needs,
    threads: Option<usize>,
    exclusions: Exclusions,
    roots: usize,
) -> WalkOptions {
    let size_mode = if cli.filetime.is_some() {
        SizeMode::Time
    } else if cli.filecount {
        SizeMode::Count
    } else if cli.apparent_size {
        SizeMode::Apparent
    } else {
        SizeMode::Disk
    };
    WalkOptions {
        mode: size_mode,
        keep_sizes: needs.sizes,
        one_filesystem: cli.limit_filesystem,
        follow_links: cli.dereference_links,
        exclusions,
        threads,
        keep_identity: needs.identities != Identities::None,
        // only where no other name can count a file twice: one path, no -L
        sparse_identity: needs.identities == Identities::Exported
            && roots == 1
            && !cli.dereference_links,
        keep_extra: needs.extra,
        keep_times: needs.times,
        fold_files: !needs.files,
    }
}
