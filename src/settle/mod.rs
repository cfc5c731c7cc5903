//! The one stage between a scan and its views. A walk or an import gives a tree of own
//! values (each entry's own sizes, time and flags); the views read totals. [`settle`] goes
//! from one to the other in the one order that is right:
//!
//! 1. sums a view made of a tree still being walked are forgotten (`hogs i`);
//! 2. what an import saved of shared extents is dropped where it no longer holds;
//! 3. the filters (-e, -v, the time filters) mark what they leave out;
//! 4. `--extents` measures the counted files on disk (it must know which count);
//! 5. `-m a`/`-m c` make the chosen time each node's time;
//! 6. the totals: each directory's values become its subtree's (an export keeps own values).
//!
//! app/ and tui/ hand a tree and a [`Plan`] here and call none of these steps themselves
//! (tests/cli/layers.rs checks it); the interactive view's sums of a tree still being walked
//! are [`settle_live`].

pub mod extents;

use crate::tree::{PathFilters, Tree};
use crate::vocab::{SizeMode, TimeField};

/// How a scan's tree is settled for its view.
#[derive(Clone, Copy, Debug)]
pub struct Plan<'a> {
    pub filters: &'a PathFilters,
    /// The size the view shows: what an import saved of shared extents holds for disk sizes
    /// only.
    pub mode: SizeMode,
    pub extents: Extents,
    /// `-m`: the time each entry is shown and sorted by.
    pub time: Option<TimeField>,
    pub totals: Totals,
}

/// What `--extents` asks of the stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extents {
    /// Nothing measured: what an import saved is kept where it still holds.
    Saved,
    /// Every counted file measured on disk (a walk's tree), `threads` as the walk's `-T`.
    Measure { threads: Option<usize> },
}

/// What the view reads of the tree's sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Totals {
    /// Subtree totals: every view but an export.
    Summed,
    /// Own values, what the filters left out marked and not zeroed: an export records what
    /// was left out beside the sizes of what was scanned, as ncdu's `--exclude` does.
    Own,
    /// Subtree totals, without what no comparison reads once the filters have run
    /// (identities, link counts, owners and times: 16 bytes and more an entry, in two trees
    /// at once).
    Compared,
}

/// A tree ready for its view, and what to tell the user of its extents (`--extents`: btrfs
/// tells compressed sizes to root only).
#[derive(Debug)]
pub struct Settled {
    pub tree: Tree,
    pub note: Option<&'static str>,
}

/// Settles a scan's tree as `plan` says (see the module's list for the order).
pub fn settle(mut tree: Tree, plan: &Plan<'_>) -> Settled {
    tree.forget_live_sums();
    let filtered = plan.filters.is_active() || plan.time.is_some();
    if plan.totals == Totals::Summed && (plan.mode != SizeMode::Disk || filtered) {
        // what a view shows of a saved scan's sharing: only disk sizes, and only as scanned (a
        // filter leaves part of a directory out, and what the rest shares cannot be told from
        // the union saved); an export writes it back as it was, a comparison reads none
        tree.sharing = Vec::new();
    }
    match plan.totals {
        Totals::Own => tree.mark_filtered(plan.filters),
        Totals::Summed | Totals::Compared => tree.apply_filters(plan.filters),
    }
    let note = match plan.extents {
        Extents::Measure { threads } => extents::measure(&mut tree, threads),
        Extents::Saved => None,
    };
    if let Some(field) = plan.time {
        tree.use_time(field);
    }
    match plan.totals {
        Totals::Own => {}
        Totals::Summed => tree.finish(),
        Totals::Compared => {
            tree.drop_identity();
            tree.links = Default::default();
            tree.extra = Vec::new();
            tree.finish();
        }
    }
    Settled { tree, note }
}

/// Sums a tree still being walked for a view that shows it as it grows (never more than is
/// on disk: a hard link counts once from its first name on, removed entries not). It can run
/// again as entries come; [`settle`] puts the tree back as the walk built it first.
pub fn settle_live(tree: &mut Tree, filters: &PathFilters) {
    tree.mark_live_duplicates();
    tree.apply_filters(filters);
    tree.sum_live();
}
