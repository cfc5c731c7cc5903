//! `hogs --diff OLD [PATH]`: load the earlier scan, take the new one (a walk, or another
//! export), match them and show what changed; and the same loading for the interactive
//! view's comparison ([`sides_for_view`]).
//!
//! The diff feature's other parts: [`crate::diff`] matches two trees and selects the rows,
//! [`crate::render::diff`] and [`crate::render::diff_json`] print them, and
//! [`crate::tui::diff`] shows the changes in the interactive view.

use std::ffi::OsStr;
use std::io::{self, BufWriter, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::config::{Config, DiffOptions};
use crate::diff::select::{select_diff_rows, DiffSelection};
use crate::diff::{Diff, Matching, Pairs};
use crate::error::{fail, report_scan_errors, ExitStatus};
use crate::render::color::Palette;
use crate::render::diff::DiffBarsView;
use crate::render::escape::shown;
use crate::settle::Totals;
use crate::tree::{Tree, TreeView};
use crate::walk::Scan;
use crate::{export, import, render};

/// Runs the comparison view. Errors in either scan are reported (exit status 1) and the
/// comparison still shown; scans of different directories are refused unless
/// `--diff-root-any`. `json`: `-j`'s document instead of bars. (Two ncdu 2 binary exports,
/// or one and a walk, are compared as read on demand instead when the view allows:
/// [`super::lazy_diff`], which the run tries first.)
pub fn run(config: &Config, opts: &DiffOptions, json: bool) -> ExitStatus {
    match matched(config, opts) {
        Ok(sides) => print(config, &sides, json),
        Err(status) => status,
    }
}

/// Prints the comparison of two scans matched, with the status their errors gave.
pub(super) fn print(config: &Config, sides: &Matched, json: bool) -> ExitStatus {
    let diff = sides.matching.with(&sides.old, &sides.new);
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let written = render(&diff, config, json, &mut out).and_then(|()| out.flush());
    let tty = config.terminals.stderr;
    let status = sides
        .status
        .max(super::write_status(written, None, json, tty));
    // a failed flush leaves bytes behind; don't let drop try (and fail) again
    std::mem::forget(out);
    status
}

/// Writes the comparison's view: bars, or `-j`'s document when `json`.
pub(super) fn render<O: TreeView, N: TreeView, M: Pairs<O, N>>(
    diff: &Diff<'_, O, N, M>,
    config: &Config,
    json: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let view = &config.view;
    let sel = DiffSelection {
        // the root's row and -n rows below it, as in the tree of bars
        max_rows: view.lines.saturating_add(1),
        max_depth: view.depth,
        min_change: view.min_size,
        only_dirs: view.only_dirs,
        hide_empty: config.filters.hides_empty_dirs(),
    };
    if json {
        return render::diff_json::render_diff_json(diff, &sel, out);
    }
    let palette = view.color.then(Palette::from_env);
    let rows = select_diff_rows(diff, &sel);
    DiffBarsView {
        opts: view,
        palette: palette.as_ref(),
    }
    .render(diff, &rows, out)
}

/// Both scans of a comparison, loaded, checked and matched.
pub struct Matched {
    pub old: Tree,
    pub new: Tree,
    pub matching: Matching,
    /// Whether either scan had errors (said on stderr).
    pub status: ExitStatus,
    /// The new scan's root as the views name it (the path given, or the export's).
    pub shown_name: Vec<u8>,
}

/// Loads the earlier scan, then the new one (a walk or another export), reports their errors
/// and matches them. `Err`: a scan could not be loaded or the roots differ (said).
pub fn matched(config: &Config, opts: &DiffOptions) -> Result<Matched, ExitStatus> {
    let err_tty = config.terminals.stderr;
    // the saved scan first: a bad file fails before a long walk
    // (with what a comparison reads only: no identities or link counts)
    let old = match import::import_file(&opts.old, err_tty, keep_for_diff(config)) {
        Ok(scan) => scan,
        Err(msg) => return Err(fail(msg)),
    };
    let new = match &config.import {
        Some(imports) => match import::import_files(
            &imports.files,
            imports.keep_first,
            err_tty,
            keep_for_diff(config),
        ) {
            Ok(scan) => scan,
            Err(msg) => return Err(fail(msg)),
        },
        None => super::scan::walk_paths(config),
    };
    matched_scans(config, opts, old, new, None)
}

/// [`matched`] of two scans loaded. `walk`: the new scan is the export a walk of the path
/// given was streamed into, and this is the walk, whose errors are reported and whose
/// root is named as the path given.
pub(super) fn matched_scans(
    config: &Config,
    opts: &DiffOptions,
    old: Scan,
    new: Scan,
    walk: Option<&Scan>,
) -> Result<Matched, ExitStatus> {
    let err_tty = config.terminals.stderr;
    let mut status = ExitStatus::Success;
    for scan in [&old, walk.unwrap_or(&new)] {
        if !scan.errors.is_empty() {
            status = ExitStatus::Incomplete;
            let _ = report_scan_errors(&scan.errors, &scan.tree, &mut io::stderr().lock(), err_tty);
        }
    }
    let (Some(old_root), Some(new_root)) = (old.tree.roots().next(), new.tree.roots().next())
    else {
        return Err(ExitStatus::Incomplete); // the path could not be read: said above
    };
    let new_name = match &config.import {
        Some(_) => new.tree.name(new_root).to_vec(),
        None => export::root_name(config.paths[0].as_os_str()),
    };
    if let Err(msg) = check_roots(opts, &old.tree, &new_name, err_tty) {
        return Err(fail(msg));
    }
    let shown_name = match walk {
        Some(_) => config.paths[0].as_bytes().to_vec(),
        None => new.tree.name(new_root).to_vec(),
    };
    let walked = config.import.is_none();
    // a walk is in the mode when asked to be; an export, when it was saved in it
    let new_extents = if walked {
        config.extents
    } else {
        !new.tree.sharing.is_empty()
    };
    warn_if_modes_differ(opts, !old.tree.sharing.is_empty(), new_extents, err_tty);
    let old = prepare(old.tree, &shown_name, config, false);
    let new = prepare(new.tree, &shown_name, config, walked);
    let matching = Matching::new(&old, old_root, &new, new_root, config.walk.mode);
    Ok(Matched {
        old,
        new,
        matching,
        status,
        shown_name,
    })
}

/// Says when one side was measured with `--extents` and the other was not: in the mode a
/// clone or a snapshot counts once, without it each time, so the change shown is no change.
fn warn_if_modes_differ(opts: &DiffOptions, old_extents: bool, new_extents: bool, err_tty: bool) {
    let old = shown(opts.old.as_bytes(), err_tty);
    let why = "one side counts every clone and snapshot again";
    match (old_extents, new_extents) {
        (false, true) => crate::error::say(format!(
            "--diff: '{old}' was not saved with --extents and the new scan was measured \
             with it: {why}"
        )),
        (true, false) => crate::error::say(format!(
            "--diff: '{old}' was saved with --extents and the new scan was not measured \
             with it: {why}"
        )),
        _ => {}
    }
}

/// The two sides of the interactive view's comparison: the earlier scan (loaded, checked
/// against the new side, ready to match) and, when the new side is another export (`hogs i
/// --diff OLD NEW.json`), that export; otherwise the new side is a walk of `config.paths[0]`,
/// started later. Errors recorded in the old scan are reported on stderr; the flag says
/// whether there were none.
pub fn sides_for_view(
    config: &Config,
    opts: &DiffOptions,
) -> Result<(Tree, Option<Scan>, bool), String> {
    let err_tty = config.terminals.stderr;
    let old = import::import_file(&opts.old, err_tty, keep_for_diff(config))?;
    let (new, new_name, shown_name) = match (&config.import, config.paths.first()) {
        (Some(imports), _) => {
            let keep = super::scan::import_keep(config, true);
            let new = import::import_files(&imports.files, imports.keep_first, err_tty, keep)?;
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
        prepare(old.tree, &shown_name, config, false),
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
    let old_name = old.roots().next().map(|root| old.name(root));
    check_root_names(opts, old_name, new_name, err_tty)
}

/// [`check_roots`] of the old scan's root name (`None`: it has no root).
pub(super) fn check_root_names(
    opts: &DiffOptions,
    old_name: Option<&[u8]>,
    new_name: &[u8],
    err_tty: bool,
) -> Result<(), String> {
    let Some(old_name) = old_name else {
        return Ok(());
    };
    if opts.root_any || same_directory(old_name, new_name) {
        return Ok(());
    }
    let show = |b: &[u8]| shown(b, err_tty);
    Err(format!(
        "cannot compare: '{}' is a scan of '{}', not of '{}' (--diff-root-any compares them anyway)",
        show(opts.old.as_bytes()),
        show(old_name),
        show(new_name),
    ))
}

/// Whether two root paths (absolute, as exports record them) name one directory: the same
/// text, or the same directory on this machine however it is spelled (`./dt/../dt`, a
/// symlink to it), or, where one of them is not here, the same path once `.` and `..` are
/// resolved.
fn same_directory(a: &[u8], b: &[u8]) -> bool {
    use std::os::unix::fs::MetadataExt;
    if a == b {
        return true;
    }
    let (pa, pb) = (
        Path::new(OsStr::from_bytes(a)),
        Path::new(OsStr::from_bytes(b)),
    );
    match (std::fs::metadata(pa), std::fs::metadata(pb)) {
        (Ok(ma), Ok(mb)) => ma.dev() == mb.dev() && ma.ino() == mb.ino(),
        _ => lexically_normal(a) == lexically_normal(b),
    }
}

/// `/a/./b/../c//` → `/a/c` (without asking the filesystem: `..` of a symlink is taken as
/// the parent of its name).
fn lexically_normal(path: &[u8]) -> Vec<&[u8]> {
    let mut parts: Vec<&[u8]> = Vec::new();
    for part in path.split(|&b| b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => {
                parts.pop();
            }
            name => parts.push(name),
        }
    }
    parts
}

/// Totals for the comparison, without what no view of it reads: identities, link counts,
/// owners and times (16 bytes and more an entry, in two trees at once). The root is named
/// `shown_name` first, so that -e and -v see one spelling of every path in both scans (an
/// export records an absolute path). `walked`: the tree is a walk's, whose files `--extents`
/// measures (a saved scan has its sizes as it was saved: an export with `--extents` keeps
/// them).
pub(crate) fn prepare(mut tree: Tree, shown_name: &[u8], config: &Config, walked: bool) -> Tree {
    if let Some(root) = tree.roots().next() {
        tree.set_root_name(root, shown_name.to_vec());
    }
    super::scan::settled(config, tree, Totals::Compared, walked, false)
}

/// What of an export a comparison reads: no identities or link counts, and owners and times
/// only for the time filters.
pub(super) fn keep_for_diff(config: &Config) -> import::Keep {
    import::Keep {
        identity: false,
        extra: !config.filters.times.is_empty(),
        time: import::time_needed(config.filters.times.iter().map(|t| t.field)),
    }
}
