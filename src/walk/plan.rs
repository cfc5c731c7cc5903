//! How a directory is read, decided once per directory from the walk's options and what is
//! known of the directory before its listing: which entries are stat'ed, how an entry goes
//! from the listing to a node, whether files are summed into the directory, and how the
//! work is spread over threads. The reading code matches on these values; it derives
//! nothing itself.

use super::options::WalkOptions;
use crate::tree::EntryKind;
use crate::vocab::SizeMode;

/// The kinds of entry that are stat'ed (a set of `Option<EntryKind>`, `None` being an entry
/// whose type the listing did not give).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct StatKinds {
    /// One bit per kind: `1 << kind`, and `UNKNOWN`.
    mask: u8,
}

impl StatKinds {
    const UNKNOWN: u8 = 1 << 4;

    const fn bit(kind: Option<EntryKind>) -> u8 {
        match kind {
            None => Self::UNKNOWN,
            Some(k) => 1 << k as u8,
        }
    }

    /// Whether an entry of this kind is stat'ed.
    #[inline]
    pub(super) fn wants(self, kind: Option<EntryKind>) -> bool {
        self.mask & Self::bit(kind) != 0
    }

    /// Only entries whose type the listing did not give: nothing else needs a stat.
    pub(super) fn only_unknown(self) -> bool {
        self.mask == Self::UNKNOWN
    }
}

/// How an entry goes from the listing to a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Intake {
    /// Nothing to stat and nothing to keep but the node: an entry of a known type becomes
    /// its node as it is read, with no copy of its name or record to build it from later.
    NodeAsRead,
    /// Stats, but no facts kept besides the node: each entry is stat'ed and placed as it is
    /// read, with no record, name or stat kept to place it from later.
    StatAndPlaceAsRead,
    /// Each entry is recorded with its name (and stat), and placed after the listing: the
    /// tree keeps facts (identity, owner, times) that the record carries.
    Record,
}

/// Whether files become nodes or are summed into their directory (only totals shown).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Fold {
    /// Every file is a node.
    Never,
    /// Files whose stat says they have one name are summed into the directory; a file of
    /// several names stays a node (which name counts is settled after the walk).
    LoneFiles,
    /// -f under one path: every file is summed into the directory, stat'ed or not; its inode
    /// is counted (`LinkSet::count_folded`) and repeats taken off the directory after.
    EveryFile,
}

/// How the reading of a directory is spread over threads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Spread {
    /// Read and stat'ed on this thread.
    Alone,
    /// Past its first names, the names go out in batches that other threads stat while this
    /// one reads on (a directory that may be large, whose entries are stat'ed).
    StatBatches,
    /// Nothing to stat, on ext4, may be large: one read first, then the rest of the listing
    /// split between threads if it is long (see `Walker::split_plan`). Where entries are
    /// stat'ed the stat batches keep every thread busy already, and splitting as well was
    /// slower.
    SplitAfterFirstRead,
}

/// What is known of a directory before it is read.
#[derive(Copy, Clone, Debug)]
pub(super) struct DirFacts {
    /// It may have enough entries to spread over threads (see `DirJob::may_be_large`).
    pub(super) may_be_large: bool,
    /// It is on the ext4 filesystem of the root (whose listings mark their end).
    pub(super) ext4: bool,
    /// Its size (`st_size`) when this task stat'ed it.
    pub(super) size: Option<u64>,
}

/// Size (`st_size`) of an ext4 directory too small to hold `PARALLEL_STAT_MIN` names (a
/// record takes 12 bytes or more): no batches to hand out, no split, so no scope to open.
const EXT4_SMALL_DIR_BYTES: u64 = 8192;

/// How one directory is read (see the module's doc).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct DirPlan {
    pub(super) stat: StatKinds,
    pub(super) intake: Intake,
    pub(super) fold: Fold,
    pub(super) spread: Spread,
}

/// Counting entries needs no stat of files, unless their times are wanted.
pub(super) fn counts_only(opts: &WalkOptions) -> bool {
    opts.measured() == SizeMode::Count && !opts.keep_extra
}

impl DirPlan {
    /// The plan for a directory. `fold_one_path`: files are summed into directories and the
    /// walk has one path (see `Walker::fold_unstated`).
    pub(super) fn decide(opts: &WalkOptions, fold_one_path: bool, dir: DirFacts) -> DirPlan {
        let count = counts_only(opts);
        // Directories stat themselves once open (see `DirJob::stat_done`), except with -x,
        // where a directory on another filesystem must not even be opened.
        let mut kinds = StatKinds::bit(None);
        if opts.one_filesystem {
            kinds |= StatKinds::bit(Some(EntryKind::Dir));
        }
        if opts.follow_links || !count {
            kinds |= StatKinds::bit(Some(EntryKind::Symlink));
        }
        if !count {
            kinds |= StatKinds::bit(Some(EntryKind::File)) | StatKinds::bit(Some(EntryKind::Other));
        }
        let stat = StatKinds { mask: kinds };
        let stats_files = !stat.only_unknown();
        let intake = if !stats_files && !opts.keep_identity {
            Intake::NodeAsRead
        } else if stats_files && !opts.keep_identity && !opts.keep_extra {
            Intake::StatAndPlaceAsRead
        } else {
            Intake::Record
        };
        let fold = match (opts.fold_files, fold_one_path && count) {
            (false, _) => Fold::Never,
            (true, false) => Fold::LoneFiles,
            (true, true) => Fold::EveryFile,
        };
        let surely_small = dir.ext4 && dir.size.is_some_and(|s| s <= EXT4_SMALL_DIR_BYTES);
        let spread = if !dir.may_be_large || surely_small {
            Spread::Alone
        } else if stats_files {
            Spread::StatBatches
        } else if dir.ext4 {
            Spread::SplitAfterFirstRead
        } else {
            Spread::Alone
        };
        DirPlan {
            stat,
            intake,
            fold,
            spread,
        }
    }

    /// Files are not stat'ed (-f): every inode goes through the hard-link set.
    pub(super) fn counts_only(&self) -> bool {
        !self.stat.wants(Some(EntryKind::File))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::Exclusions;

    fn opts(mode: SizeMode, flags: &str) -> WalkOptions {
        WalkOptions {
            mode,
            keep_sizes: false,
            one_filesystem: flags.contains('x'),
            follow_links: flags.contains('L'),
            exclusions: Exclusions::default(),
            threads: None,
            keep_identity: flags.contains('i'),
            sparse_identity: false,
            keep_extra: flags.contains('e'),
            keep_times: true,
            fold_files: flags.contains('d'),
        }
    }

    const LARGE: DirFacts = DirFacts {
        may_be_large: true,
        ext4: false,
        size: None,
    };

    /// Which kinds each set of options stats: (kind, stat'ed) per option set.
    #[test]
    fn stat_kinds_follow_the_size_mode_and_flags() {
        use EntryKind::*;
        let kinds = [None, Some(Dir), Some(File), Some(Symlink), Some(Other)];
        let table: [(SizeMode, &str, [bool; 5]); 7] = [
            (SizeMode::Disk, "", [true, false, true, true, true]),
            (SizeMode::Disk, "x", [true, true, true, true, true]),
            (SizeMode::Count, "", [true, false, false, false, false]),
            (SizeMode::Count, "L", [true, false, false, true, false]),
            (SizeMode::Count, "x", [true, true, false, false, false]),
            (SizeMode::Count, "e", [true, false, true, true, true]),
            (SizeMode::Apparent, "L", [true, false, true, true, true]),
        ];
        for (mode, flags, want) in table {
            let plan = DirPlan::decide(&opts(mode, flags), false, LARGE);
            let got = kinds.map(|k| plan.stat.wants(k));
            assert_eq!(got, want, "{mode:?} -{flags}");
        }
    }

    /// The whole plan over a table of flag combinations and directory facts.
    #[test]
    fn plans_over_a_table_of_flag_combinations() {
        let small_ext4 = DirFacts {
            may_be_large: true,
            ext4: true,
            size: Some(4096),
        };
        let large_ext4 = DirFacts {
            may_be_large: true,
            ext4: true,
            size: Some(1 << 20),
        };
        let root_small = DirFacts {
            may_be_large: false,
            ext4: true,
            size: None,
        };
        use Fold::*;
        use Intake::*;
        use Spread::*;
        #[rustfmt::skip]
        let table: [(SizeMode, &str, bool, DirFacts, Intake, Fold, Spread); 14] = [
            // sizes: stat'ed as read, batches when large
            (SizeMode::Disk, "", false, LARGE, StatAndPlaceAsRead, Never, StatBatches),
            (SizeMode::Disk, "", false, small_ext4, StatAndPlaceAsRead, Never, Alone),
            (SizeMode::Disk, "", false, root_small, StatAndPlaceAsRead, Never, Alone),
            (SizeMode::Disk, "i", false, LARGE, Record, Never, StatBatches),
            (SizeMode::Disk, "e", false, LARGE, Record, Never, StatBatches),
            (SizeMode::Disk, "d", true, LARGE, StatAndPlaceAsRead, LoneFiles, StatBatches),
            // -f: nodes as read; split only on ext4 when large
            (SizeMode::Count, "", false, LARGE, NodeAsRead, Never, Alone),
            (SizeMode::Count, "", false, large_ext4, NodeAsRead, Never, SplitAfterFirstRead),
            (SizeMode::Count, "", false, small_ext4, NodeAsRead, Never, Alone),
            (SizeMode::Count, "i", false, large_ext4, Record, Never, SplitAfterFirstRead),
            (SizeMode::Count, "d", true, LARGE, NodeAsRead, EveryFile, Alone),
            (SizeMode::Count, "d", false, LARGE, NodeAsRead, LoneFiles, Alone),
            // -f with something to stat: as in size mode
            (SizeMode::Count, "L", false, large_ext4, StatAndPlaceAsRead, Never, StatBatches),
            (SizeMode::Count, "ed", true, LARGE, Record, LoneFiles, StatBatches),
        ];
        for (mode, flags, one_path, facts, intake, fold, spread) in table {
            let plan = DirPlan::decide(&opts(mode, flags), one_path, facts);
            let want = (intake, fold, spread);
            assert_eq!(
                (plan.intake, plan.fold, plan.spread),
                want,
                "{mode:?} -{flags} {facts:?}"
            );
            assert_eq!(plan.counts_only(), counts_only(&opts(mode, flags)));
        }
    }
}
