//! `hogs --diff OLD.ncdu --import NEW.ncdu` when both are ncdu 2 binary exports: the two
//! files read on demand ([`LazyTree`]) and matched as the view opens directories
//! ([`Paired`]), instead of both loaded and matched whole, so that memory does not grow with
//! the trees. As for one export ([`super::lazy`]), the view is rendered into memory and
//! printed only when every read succeeded: damage in either file is an error naming it,
//! never a partial comparison; what the stored totals cannot answer as the loaded trees do
//! hands the run back to the whole load.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;

use super::diff::check_root_names;
use super::lazy::binary_file;
use crate::config::{Config, DiffOptions};
use crate::diff::on_demand::Paired;
use crate::diff::Diff;
use crate::error::{fail, report_errors_by_path, say, ExitStatus};
use crate::import::ncdu_bin::lazy::{LazyTree, Stop};
use crate::render::escape::shown;
use crate::tree::TreeView;
use crate::vocab::SizeMode;

/// Prints the comparison of the two binary exports `config` and `opts` name, read on
/// demand, when the view needs nothing the stored totals lack; `None`: the caller loads them.
pub fn run(config: &Config, opts: &DiffOptions, json: bool) -> Option<ExitStatus> {
    let (old_file, new_file) = binary_pair(config, opts)?;
    let debug = std::env::var_os("HOGS_DEBUG_IMPORT");
    if debug.as_deref() == Some(OsStr::new("load")) {
        return None;
    }
    let said = |what: &str| {
        if debug.is_some() {
            say(format!("diff: {what}"));
        }
    };
    let new_path = config.import.as_ref()?.files.first()?;
    let tty = config.terminals.stderr;
    let cannot = |path: &OsStr, e: &dyn std::fmt::Display| {
        fail(format!(
            "cannot import '{}': {e}",
            shown(path.as_bytes(), tty)
        ))
    };
    let mut trees = Vec::with_capacity(2);
    for (file, path) in [
        (old_file, opts.old.as_os_str()),
        (new_file, new_path.as_os_str()),
    ] {
        match LazyTree::open(file) {
            Ok(tree) => trees.push(tree),
            Err(Stop::Damaged(e)) => return Some(cannot(path, &e)),
            Err(Stop::Load(why)) => {
                said(&format!("loaded whole: {why}"));
                return None;
            }
        }
    }
    let new = trees.pop()?;
    let old = trees.pop()?;
    let errors = [old.errors(), new.errors()];
    let (old_root, new_root) = (old.roots().next()?, new.roots().next()?);
    let roots = check_root_names(opts, Some(old.name(old_root)), new.name(new_root), tty);
    let mut out = Vec::new();
    let rendered = match roots {
        Ok(()) => {
            let paired = Paired::new(&old, old_root, &new, new_root, config.walk.mode);
            let diff = Diff::of(&old, &paired, &paired);
            super::diff::render(&diff, config, json, &mut out)
        }
        Err(_) => Ok(()),
    };
    for (tree, path) in [(old, opts.old.as_os_str()), (new, new_path.as_os_str())] {
        match tree.outcome() {
            Err(Stop::Damaged(e)) => return Some(cannot(path, &e)),
            Err(Stop::Load(why)) => {
                said(&format!("loaded whole: {why}"));
                return None;
            }
            Ok(()) => {}
        }
    }
    said("compared on demand");
    let mut status = ExitStatus::Success;
    for errors in errors.iter().filter(|e| !e.is_empty()) {
        status = ExitStatus::Incomplete;
        let _ = report_errors_by_path(errors, &mut io::stderr().lock(), tty);
    }
    if let Err(msg) = roots {
        return Some(fail(msg));
    }
    let written = rendered.and_then(|()| {
        let mut stdout = io::stdout().lock();
        stdout.write_all(&out).and_then(|()| stdout.flush())
    });
    Some(status.max(super::write_status(written, None, json, tty)))
}

/// The two files when the earlier scan and the one import are ncdu 2 binary exports and
/// the comparison reads only what their stored totals say: sizes on disk or apparent, with
/// no filter.
fn binary_pair(config: &Config, opts: &DiffOptions) -> Option<(File, File)> {
    let [new] = &config.import.as_ref()?.files[..] else {
        return None;
    };
    let plain = matches!(config.walk.mode, SizeMode::Disk | SizeMode::Apparent)
        && !config.filters.is_active()
        && !config.extents;
    if !plain {
        return None;
    }
    Some((binary_file(&opts.old)?, binary_file(new)?))
}
