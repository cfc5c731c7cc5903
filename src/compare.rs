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
    let mut old = match import::import_file(&opts.old, err_tty, keep_for_diff(config)) {
        Ok(scan) => scan,
        Err(msg) => return fail(&msg),
    };
    // before the new scan is loaded beside it
    slim(&mut old.tree, config);
    let new = match &config.import {
        Some(file) => match import::import_file(file, err_tty, keep_for_diff(config)) {
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
    if let Err(msg) = check_roots(opts, &old.tree, &new_name, err_tty) {
        return fail(&msg);
    }
    let shown_name = new.tree.name(new_root).to_vec();
    let old = prepare(old.tree, &shown_name, config);
    let new = prepare(new.tree, &shown_name, config);
    let matching = Matching::new(&old, old_root, &new, new_root, config.walk.mode);
    let diff = matching.with(&old, &new);

    let view = &config.view;
    let sel = DiffSelection {
        max_rows: view.lines,
        max_depth: view.depth,
        min_change: view.min_size,
        only_dirs: view.only_dirs,
        hide_empty: config.filters.hides_empty_dirs(),
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

/// The two sides of the interactive view's comparison: the earlier scan (loaded, checked
/// against the new side, ready to match) and, when the new side is another export (`hogs i
/// --diff OLD NEW.json`), that export; otherwise the new side is a walk of `config.paths[0]`,
/// started later. Errors recorded in the old scan are reported on stderr; the flag says
/// whether there were none.
pub(crate) fn sides_for_view(
    config: &Config,
    opts: &DiffOptions,
) -> Result<(Tree, Option<Scan>, bool), String> {
    let err_tty = io::stderr().is_terminal();
    let old = import::import_file(&opts.old, err_tty, keep_for_diff(config))?;
    let (new, new_name, shown_name) = match (&config.import, config.paths.first()) {
        (Some(file), _) => {
            // shown read-only: nothing is deleted or rescanned, so no identities
            let keep = import::Keep {
                identity: false,
                extra: config.walk.keep_extra,
            };
            let new = import::import_file(file, err_tty, keep)?;
            let name = match new.tree.roots().next() {
                Some(root) => new.tree.name(root).to_vec(),
                None => Vec::new(),
            };
            (Some(new), name.clone(), name)
        }
        (None, Some(path)) => (
            None,
            export::root_name(path.as_os_str()),
            path.as_bytes().to_vec(),
        ),
        (None, None) => return Err("--diff: nothing to compare with".into()),
    };
    check_roots(opts, &old.tree, &new_name, err_tty)?;
    if !old.errors.is_empty() {
        let _ = report_scan_errors(&old.errors, &old.tree, &mut io::stderr().lock(), err_tty);
    }
    Ok((
        prepare(old.tree, &shown_name, config),
        new,
        old.errors.is_empty(),
    ))
}

/// Refuses to compare scans of different directories unless `--diff-root-any`: `new_name`
/// is the new scan's root as an export would record it (an absolute path).
pub(crate) fn check_roots(
    opts: &DiffOptions,
    old: &Tree,
    new_name: &[u8],
    err_tty: bool,
) -> Result<(), String> {
    let Some(old_root) = old.roots().next() else {
        return Ok(());
    };
    if opts.root_any || old.name(old_root) == new_name {
        return Ok(());
    }
    let show = |b: &[u8]| String::from_utf8_lossy(&escape(b, !err_tty).bytes).into_owned();
    Err(format!(
        "cannot compare: '{}' is a scan of '{}', not of '{}' (--diff-root-any compares them anyway)",
        show(opts.old.as_bytes()),
        show(old.name(old_root)),
        show(new_name),
    ))
}

/// Totals for the comparison, without what no view of it reads: identities, link counts,
/// owners and times (16 bytes and more an entry, in two trees at once). The root is named
/// `shown_name` first, so that -e and -v see one spelling of every path in both scans (an
/// export records an absolute path).
pub(crate) fn prepare(mut tree: Tree, shown_name: &[u8], config: &Config) -> Tree {
    if let Some(root) = tree.roots().next() {
        tree.set_root_name(root, shown_name.to_vec());
    }
    tree.apply_filters(&config.filters);
    slim(&mut tree, config);
    tree.extra = Vec::new();
    tree.finish();
    tree
}

/// What of an export a comparison reads: no identities or link counts, and owners and times
/// only for the time filters.
fn keep_for_diff(config: &Config) -> import::Keep {
    import::Keep {
        identity: false,
        extra: !config.filters.times.is_empty(),
    }
}

/// Drops what no comparison reads (`extra` only when no time filter will read it).
fn slim(tree: &mut Tree, config: &Config) {
    tree.identity = Vec::new();
    tree.links = Default::default();
    if config.filters.times.is_empty() {
        tree.extra = Vec::new();
    }
}

fn fail(msg: &str) -> ExitStatus {
    let _ = writeln!(io::stderr(), "hogs: {msg}");
    ExitStatus::Incomplete
}
