//! `hogs --diff OLD [PATH]`: load the earlier scan, take the new one (a walk, or another
//! export), match them and show what changed.

use std::ffi::OsStr;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::os::unix::ffi::OsStrExt;

use crate::config::{Config, DiffOptions};
use crate::diff::select::{select_diff_rows, DiffSelection};
use crate::diff::Matching;
use crate::error::{report_scan_errors, ExitStatus};
use crate::render::color::Palette;
use crate::render::diff::DiffBarsView;
use crate::render::escape::escape;
use crate::tree::Tree;
use crate::walk::Scan;
use crate::{export, import, render};

/// Runs the comparison view. Errors in either scan are reported (exit status 1) and the
/// comparison still shown; scans of different directories are refused unless
/// `--diff-root-any`.
pub fn run(config: &Config, opts: &DiffOptions) -> ExitStatus {
    let err_tty = io::stderr().is_terminal();
    // the saved scan first: a bad file fails before a long walk
    let old = match import::import_file(&opts.old, err_tty) {
        Ok(scan) => scan,
        Err(msg) => return fail(&msg),
    };
    let new = match &config.import {
        Some(file) => match import::import_file(file, err_tty) {
            Ok(scan) => scan,
            Err(msg) => return fail(&msg),
        },
        None => crate::scan_with_progress(config),
    };
    let mut status = ExitStatus::Success;
    for scan in [&old, &new] {
        if !scan.errors.is_empty() {
            status = ExitStatus::Incomplete;
            let _ = report_scan_errors(&scan.errors, &scan.tree, &mut io::stderr().lock(), err_tty);
        }
    }
    let (Some(old_root), Some(new_root)) = (old.tree.roots().next(), new.tree.roots().next())
    else {
        return ExitStatus::Incomplete; // the path could not be read: said above
    };
    let new_name = match &config.import {
        Some(_) => new.tree.name(new_root).to_vec(),
        None => export::root_name(config.paths[0].as_os_str()),
    };
    if !opts.root_any && old.tree.name(old_root) != new_name.as_slice() {
        let show = |b: &[u8]| String::from_utf8_lossy(&escape(b, !err_tty).bytes).into_owned();
        return fail(&format!(
            "cannot compare: '{}' is a scan of '{}', not of '{}' (--diff-root-any compares them anyway)",
            show(opts.old.as_bytes()),
            show(old.tree.name(old_root)),
            show(&new_name),
        ));
    }
    let mut old = old;
    // filters see one spelling of every path: the new scan's
    let shown_name = new.tree.name(new_root).to_vec();
    old.tree.set_root_name(old_root, shown_name);
    let old = prepare(old, config);
    let new = prepare(new, config);
    let matching = Matching::new(&old, old_root, &new, new_root, config.walk.mode);
    let diff = matching.with(&old, &new);

    let view = &config.view;
    let sel = DiffSelection {
        max_rows: view.lines,
        max_depth: view.depth,
        min_change: view.min_size,
        only_dirs: view.only_dirs,
        hide_empty: config.filters.is_active(),
    };
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let written = if view.json {
        render::diff_json::render_diff_json(&diff, &sel, &mut out)
    } else {
        let palette = view.color.then(Palette::from_env);
        let rows = select_diff_rows(&diff, &sel);
        DiffBarsView {
            opts: view,
            palette: palette.as_ref(),
        }
        .render(&diff, &rows, &mut out)
    };
    let written = written.and_then(|()| out.flush());
    status = status.max(crate::write_status(written, None::<&OsStr>));
    // a failed flush leaves bytes behind; don't let drop try (and fail) again
    std::mem::forget(out);
    status
}

/// Totals for the comparison, without what no view of it reads: identities, link counts,
/// owners and times (16 bytes and more an entry, in two trees at once).
fn prepare(scan: Scan, config: &Config) -> Tree {
    let mut tree = scan.tree;
    tree.apply_filters(&config.filters); // time filters read the extra times
    tree.identity = Vec::new();
    tree.links = Default::default();
    tree.extra = Vec::new();
    tree.finish();
    tree
}

fn fail(msg: &str) -> ExitStatus {
    let _ = writeln!(io::stderr(), "hogs: {msg}");
    ExitStatus::Incomplete
}
