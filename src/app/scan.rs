//! The scan a printing run starts from: a walk of the paths with a progress line on a
//! terminal, or the `--import` file; what could not be read is reported on stderr.

use std::io;
use std::sync::atomic::Ordering::Relaxed;

use crate::config::Config;
use crate::error::{fail, report_scan_errors, say, ExitStatus};
use crate::settle::{Extents, Plan, Totals};
use crate::tree::Tree;
use crate::walk::Scan;
use crate::{import, progress, settle, walk};

/// The `--import` file or a walk, with its errors reported: the status says whether there
/// were any. `Err`: the import failed (said).
pub fn load(config: &Config) -> Result<(Scan, ExitStatus), ExitStatus> {
    let scan = match &config.import {
        Some(imports) => import::import_files(
            &imports.files,
            imports.keep_first,
            config.terminals.stderr,
            import_keep(config, false),
        )
        .map_err(fail)?,
        None => walk_paths(config),
    };
    let status = report(&scan, config);
    Ok((scan, status))
}

/// A scan's tree settled for a printing run's view ([`settle`]), with what the config asks:
/// its filters, `-m`'s time (`time`: the view shows one), and `--extents` measured on disk
/// where the tree is a walk's (`walked`; a saved scan keeps the sizes it was saved with).
/// Says what the user should know of the extents.
pub fn settled(config: &Config, tree: Tree, totals: Totals, walked: bool, time: bool) -> Tree {
    let plan = Plan {
        filters: &config.filters,
        mode: config.walk.mode,
        extents: match config.extents && walked {
            true => Extents::Measure {
                threads: config.walk.threads,
            },
            false => Extents::Saved,
        },
        time: config.view.filetime.filter(|_| time),
        totals,
    };
    let settled = settle::settle(tree, &plan);
    if let Some(note) = settled.note {
        say(note);
    }
    settled.tree
}

/// Reports the errors recorded in a scan on stderr.
pub fn report(scan: &Scan, config: &Config) -> ExitStatus {
    if scan.errors.is_empty() {
        return ExitStatus::Success;
    }
    let tty = config.terminals.stderr;
    let _ = report_scan_errors(&scan.errors, &scan.tree, &mut io::stderr().lock(), tty);
    // an empty argument is skipped with a warning, as dust does: nothing was left out
    if crate::error::incomplete(&scan.errors) {
        ExitStatus::Incomplete
    } else {
        ExitStatus::Success
    }
}

/// What of an `--import` file a run keeps: what the walk would have kept (an export needs
/// identities, the extended export and the time filters need owners and times). `read_only`:
/// the interactive view shows it, deleting and rescanning nothing, so no identities.
pub fn import_keep(config: &Config, read_only: bool) -> import::Keep {
    import::Keep {
        identity: config.walk.keep_identity && !read_only,
        extra: config.walk.keep_extra,
        time: import::time_needed(config.filters.times.iter().map(|t| t.field)),
    }
}

/// Walks the configured paths, with a progress line on a terminal.
pub fn walk_paths(config: &Config) -> Scan {
    walking(config, |counters| {
        walk::walk_once(&config.paths, &config.walk, counters)
    })
}

/// Walks the one configured path into `sink` ([`walk::walk_streamed`]), with a progress line
/// on a terminal.
pub fn walk_streamed(config: &Config, sink: &dyn walk::DirSink) -> Scan {
    walking(config, |counters| match config.paths.first() {
        Some(path) => walk::walk_streamed(path, &config.walk, counters, sink),
        None => Scan::with_errors_by_path(Tree::default(), Vec::new()),
    })
}

/// [`walk_streamed`] with walk options of its own (a comparison's walk written as an
/// export's is).
pub fn walk_streamed_as(
    config: &Config,
    opts: &walk::WalkOptions,
    sink: &dyn walk::DirSink,
) -> Scan {
    walking(config, |counters| match config.paths.first() {
        Some(path) => walk::walk_streamed(path, opts, counters, sink),
        None => Scan::with_errors_by_path(Tree::default(), Vec::new()),
    })
}

/// Runs `walk` with a progress line on a terminal.
fn walking(config: &Config, walk: impl FnOnce(&walk::Progress) -> Scan) -> Scan {
    let counters = walk::Progress::default();
    std::thread::scope(|s| {
        let line = config
            .progress
            .then(|| progress::ProgressLine::start(s, &counters, config.walk.mode));
        let scan = walk(&counters);
        if let Some(line) = line {
            line.finish();
        }
        // how the walk ran, for tests and benchmarks (not a user-facing option)
        if config.debug.walk {
            let threads = counters.threads.load(Relaxed);
            let grew = counters.threads_grew.load(Relaxed);
            let split = counters.split_listings.load(Relaxed);
            let grown = if grew {
                ", grown: disk reads below a cached root"
            } else {
                ""
            };
            say(format!(
                "walk: {threads} threads{grown}, {split} listings split"
            ));
        }
        scan
    })
}
