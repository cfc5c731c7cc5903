//! hogs: find what eats your disk.
//!
//! `argv → cli → Config → walk (parallel, relative-fd stats) → Tree (compact arena) → a view`.
//! The walker knows nothing about views and views never touch the filesystem.

pub(crate) mod compare;
pub mod config;
pub mod diff;
pub mod error;
pub mod export;
pub mod import;
pub mod progress;
pub mod render;
pub mod tree;
pub mod tui;
pub mod units;
pub mod vocab;
pub mod walk;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::os::unix::ffi::OsStrExt;

use config::Config;
use error::ExitStatus;
use render::bars::{flat_rows, BarsView};
use render::color::Palette;
use render::escape::escape;
use tree::{biggest_files, select_rows, NodeId, Selection, Tree, TOTAL};

/// Scans, reports what could not be read, prints the view (or writes the export). Never
/// panics on bad input.
pub fn run(config: &Config) -> ExitStatus {
    if config.stack_size_ignored {
        let _ = writeln!(
            io::stderr(),
            "hogs: note: --stack-size is ignored (the walk does not recurse: no big stack needed)"
        );
    }
    if let Some(diff) = &config.diff {
        return compare::run(config, diff);
    }
    let mut export_out = match &config.export {
        None => None,
        Some(target) => match export::open_target(&target.file) {
            Ok(w) => Some(BufWriter::with_capacity(64 * 1024, w)),
            Err(e) => {
                let name = escape(target.file.as_bytes(), !io::stderr().is_terminal());
                let _ = writeln!(
                    io::stderr(),
                    "hogs: cannot write '{}': {}",
                    String::from_utf8_lossy(&name.bytes),
                    io_cause(&e)
                );
                return ExitStatus::Incomplete;
            }
        },
    };
    let scan = match &config.import {
        Some(file) => {
            match import::import_file(file, io::stderr().is_terminal(), import_keep(config)) {
                Ok(scan) => scan,
                Err(msg) => {
                    let _ = writeln!(io::stderr(), "hogs: {msg}");
                    return ExitStatus::Incomplete;
                }
            }
        }
        None => scan_with_progress(config),
    };
    let mut tree = scan.tree;

    let mut status = ExitStatus::Success;
    if !scan.errors.is_empty() {
        if error::incomplete(&scan.errors) {
            status = ExitStatus::Incomplete;
        }
        let stderr = io::stderr();
        let to_terminal = stderr.is_terminal();
        let _ = error::report_scan_errors(&scan.errors, &tree, &mut stderr.lock(), to_terminal);
    }

    if let (Some(mut out), Some(target)) = (export_out.take(), &config.export) {
        // own sizes, not totals: no `finish`
        tree.mark_filtered(&config.filters);
        let Some(root) = tree.roots().next() else {
            return status; // the argument could not be read: said above
        };
        if !tree.node(root).is_dir() {
            let name = escape(tree.name(root), !io::stderr().is_terminal());
            let _ = writeln!(
                io::stderr(),
                "hogs: cannot export '{}': not a directory (the ncdu format needs one)",
                String::from_utf8_lossy(&name.bytes)
            );
            return ExitStatus::Incomplete;
        }
        let root_name = match config.import {
            Some(_) => tree.name(root).to_vec(), // already the path it was scanned at
            None => export::root_name(config.paths[0].as_os_str()),
        };
        let opts = export::ncdu::NcduOptions {
            root_name: &root_name,
            extended: target.extended,
            timestamp: export::now(),
        };
        let written = export::ncdu::write_ncdu(&tree, root, &scan.errors, &opts, &mut out)
            .and_then(|()| out.into_inner().map_err(io::IntoInnerError::into_error))
            .and_then(export::ExportSink::finish);
        status = status.max(write_status(written, Some(&target.file)));
        return status;
    }

    tree.apply_filters(&config.filters);
    if let Some(field) = config.view.filetime {
        tree.use_time(field);
    }
    tree.finish();
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let written = render(&tree, config, &mut out).and_then(|()| out.flush());
    status = status.max(write_status(written, None));
    // a failed flush leaves bytes behind; don't let drop try (and fail) again
    std::mem::forget(out);
    // the process exits next: unmapping the tree would only cost a TLB flush on every CPU
    // that runs a pool thread (3% of a 5 ms walk)
    std::mem::forget(tree);
    status
}

/// What of an `--import` file the static view keeps: what the walk would have kept (an
/// export needs identities, the extended export and the time filters need owners and times).
fn import_keep(config: &Config) -> import::Keep {
    import::Keep {
        identity: config.walk.keep_identity,
        extra: config.walk.keep_extra,
    }
}

/// Walks the configured paths, with a progress line on a terminal.
pub(crate) fn scan_with_progress(config: &Config) -> walk::Scan {
    let counters = walk::Progress::default();
    std::thread::scope(|s| {
        let line = config
            .progress
            .then(|| progress::ProgressLine::start(s, &counters, config.walk.mode));
        let scan = walk::walk_once(&config.paths, &config.walk, &counters);
        if let Some(line) = line {
            line.finish();
        }
        // how the walk ran, for tests and benchmarks (not a user-facing option)
        if std::env::var_os("HOGS_DEBUG_WALK").is_some() {
            let threads = counters.threads.load(std::sync::atomic::Ordering::Relaxed);
            let grew = counters
                .threads_grew
                .load(std::sync::atomic::Ordering::Relaxed);
            let split = counters
                .split_listings
                .load(std::sync::atomic::Ordering::Relaxed);
            let _ = writeln!(
                io::stderr(),
                "hogs: walk: {threads} threads{}, {split} listings split",
                if grew {
                    ", grown: disk reads below a cached root"
                } else {
                    ""
                }
            );
        }
        scan
    })
}

/// The text of an I/O error, without std's " (os error N)" suffix.
pub(crate) fn io_cause(e: &io::Error) -> String {
    e.raw_os_error()
        .map_or_else(|| e.to_string(), walk::sys::describe)
}

/// What a failed write means for the exit status (a closed pipe is not a failure: `hogs |
/// head` has what it wanted).
pub(crate) fn write_status(written: io::Result<()>, file: Option<&std::ffi::OsStr>) -> ExitStatus {
    match written {
        Ok(()) => ExitStatus::Success,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(e) => {
            let cause = io_cause(&e);
            let _ = match file.filter(|f| f.as_bytes() != b"-") {
                Some(f) => {
                    let name = escape(f.as_bytes(), !io::stderr().is_terminal());
                    let name = String::from_utf8_lossy(&name.bytes);
                    writeln!(io::stderr(), "hogs: cannot write '{name}': {cause}")
                }
                None => writeln!(io::stderr(), "hogs: write error: {cause}"),
            };
            ExitStatus::Incomplete
        }
    }
}

/// Writes the chosen view of a finished tree.
pub fn render(tree: &Tree, config: &Config, out: &mut dyn Write) -> io::Result<()> {
    if config.view.file_types {
        // -t: a small tree of its own, shown whole (depth, -D, -F and --collapse are about
        // directories, which it has none of)
        let types = tree::by_file_type(tree, config.walk.mode, config.view.lines);
        let flat = Config {
            view: render::ViewOptions {
                file_types: false,
                depth: None,
                lines: usize::MAX,
                only_dirs: false,
                only_files: false,
                collapse: Default::default(),
                ..config.view.clone()
            },
            ..config.clone()
        };
        return render(&types, &flat, out);
    }
    let view = &config.view;
    let roots: Vec<NodeId> = tree.roots().collect();
    if roots.is_empty() {
        return Ok(());
    }
    let single = roots.len() == 1;
    let tops: Vec<NodeId> = if single || view.skip_total {
        roots.clone()
    } else {
        vec![TOTAL]
    };
    // below a "(total)" line the paths themselves are one level down
    let extra = usize::from(tops == [TOTAL]);
    let sel = Selection {
        mode: config.walk.mode,
        max_rows: view.lines,
        max_depth: view.depth.map(|d| d + extra),
        min_size: view.min_size,
        only_dirs: view.only_dirs,
        hide_empty: config.filters.hides_empty_dirs(),
        collapsed: tree.dirs_matching(&view.collapse.0, &view.collapse.1),
    };
    if view.json {
        let top = if single { roots[0] } else { TOTAL };
        return render::json::render_json(
            tree,
            top,
            &Selection {
                max_depth: view.depth.map(|d| d + usize::from(!single)),
                ..sel
            },
            view.units,
            out,
        );
    }
    let palette = view.color.then(Palette::from_env);
    if view.only_files {
        let opts = render::ViewOptions {
            full_paths: true,
            ..view.clone()
        };
        let bars = BarsView {
            opts: &opts,
            mode: config.walk.mode,
            palette: palette.as_ref(),
        };
        for &top in &tops {
            let files = biggest_files(
                tree,
                top,
                &Selection {
                    max_rows: view.lines.saturating_sub(1),
                    ..sel.clone()
                },
            );
            bars.render(tree, &flat_rows(top, &files), out)?;
        }
        return Ok(());
    }
    let rows = select_rows(tree, &tops, &sel);
    BarsView {
        opts: view,
        mode: config.walk.mode,
        palette: palette.as_ref(),
    }
    .render(tree, &rows, out)
}
