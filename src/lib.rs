//! hogs: find what eats your disk.
//!
//! `argv → cli → Config → walk (parallel, relative-fd stats) → Tree (compact arena) → a view`.
//! The walker knows nothing about views and views never touch the filesystem.

pub mod cli;
pub mod config;
pub mod error;
pub mod progress;
pub mod render;
pub mod tree;
pub mod units;
pub mod walk;

use std::io::{self, BufWriter, IsTerminal, Write};

use config::Config;
use error::ExitStatus;
use render::bars::{flat_rows, BarsView};
use render::color::Palette;
use tree::{biggest_files, select_rows, NodeId, Selection, Tree, TOTAL};

/// Scans, reports what could not be read, prints the view. Never panics on bad input.
pub fn run(config: &Config) -> ExitStatus {
    let counters = walk::Progress::default();
    let scan = std::thread::scope(|s| {
        let line = config
            .progress
            .then(|| progress::ProgressLine::start(s, &counters, config.walk.mode));
        let scan = walk::walk(&config.paths, &config.walk, &counters);
        if let Some(line) = line {
            line.finish();
        }
        scan
    });
    let mut tree = scan.tree;
    tree.apply_filters(&config.filters);
    tree.finish();

    let mut status = ExitStatus::Success;
    if !scan.errors.is_empty() {
        status = ExitStatus::Incomplete;
        let stderr = io::stderr();
        let to_terminal = stderr.is_terminal();
        let _ = error::report_scan_errors(&scan.errors, &tree, &mut stderr.lock(), to_terminal);
    }

    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    match render(&tree, config, &mut out).and_then(|()| out.flush()) {
        Ok(()) => {}
        // `hogs | head`: the reader has what it wanted
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            let cause = e
                .raw_os_error()
                .map_or_else(|| e.to_string(), walk::sys::describe);
            let _ = writeln!(io::stderr(), "hogs: write error: {cause}");
            status = ExitStatus::Incomplete;
        }
    }
    // a failed flush leaves bytes behind; don't let drop try (and fail) again
    std::mem::forget(out);
    status
}

/// Writes the chosen view of a finished tree.
pub fn render(tree: &Tree, config: &Config, out: &mut dyn Write) -> io::Result<()> {
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
        hide_empty: config.filters.is_active(),
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
            out,
        );
    }
    let palette = view.color.then(Palette::from_env);
    if view.only_files {
        let opts = config::ViewOptions {
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
