//! `hogs --diff OLD.ncdu --import NEW.ncdu` when both are ncdu 2 binary exports, and
//! `hogs --diff OLD.ncdu PATH`: the two files read on demand ([`LazyTree`]) and matched as
//! the view opens directories ([`Paired`]), instead of both loaded and matched whole, so
//! that memory does not grow with the trees; a walk of PATH is first streamed into a
//! temporary binary export (unlinked in `$TMPDIR`: nothing is left behind). As for one
//! export ([`super::lazy`]), the view is rendered into memory and printed only when every
//! read succeeded: damage in either file is an error naming it, never a partial comparison;
//! what the stored totals cannot answer as the loaded trees do hands the run back to the
//! whole load (of the temporary export, for a walk: PATH is not walked twice).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::os::unix::ffi::OsStrExt;

use super::diff::check_root_names;
use super::lazy::binary_file;
use crate::config::{Config, DiffOptions};
use crate::diff::on_demand::Paired;
use crate::diff::Diff;
use crate::error::{fail, report_errors_by_path, report_scan_errors, say, ExitStatus};
use crate::export;
use crate::formats::ncdu_bin;
use crate::formats::ncdu_bin::lazy::{LazyTree, Stop};
use crate::render::escape::shown;
use crate::tree::TreeView;
use crate::vocab::SizeMode;
use crate::walk::Scan;

/// Prints the comparison of the binary export `opts` names with the one `config` imports,
/// or with a walk of its path, read on demand, when the view needs nothing the stored totals
/// lack; `None`: the caller loads (and walks) as usual.
pub fn run(config: &Config, opts: &DiffOptions, json: bool) -> Option<ExitStatus> {
    let old_file = plain(config).then(|| binary_file(&opts.old)).flatten()?;
    let debug = std::env::var_os("HOGS_DEBUG_IMPORT");
    if debug.as_deref() == Some(OsStr::new("load")) {
        return None;
    }
    let said = |what: &str| {
        if debug.is_some() {
            say(format!("diff: {what}"));
        }
    };
    let tty = config.terminals.stderr;
    let old = match LazyTree::open(old_file) {
        Ok(tree) => tree,
        Err(Stop::Damaged(e)) => return Some(cannot(&opts.old, &e, tty)),
        Err(Stop::Load(why)) => {
            said(&format!("loaded whole: {why}"));
            return None;
        }
    };
    match &config.import {
        Some(imports) => {
            let [path] = &imports.files[..] else {
                return None;
            };
            let new = match LazyTree::open(binary_file(path)?) {
                Ok(tree) => tree,
                Err(Stop::Damaged(e)) => return Some(cannot(path, &e, tty)),
                Err(Stop::Load(why)) => {
                    said(&format!("loaded whole: {why}"));
                    return None;
                }
            };
            let new_side = NewSide {
                file: path,
                walk: None,
            };
            let status = compare(config, opts, json, old, new, new_side);
            status
                .map_err(|why| said(&format!("loaded whole: {why}")))
                .ok()
        }
        None => walked(config, opts, json, old, &said),
    }
}

/// The new side: the file named in messages, and the walk streamed into it if it is one.
struct NewSide<'a> {
    file: &'a OsStr,
    walk: Option<&'a Scan>,
}

/// The two trees compared on demand and the comparison printed, the errors of both said
/// first; `Err`: why the whole load must answer instead (nothing said yet).
fn compare(
    config: &Config,
    opts: &DiffOptions,
    json: bool,
    old: LazyTree<File>,
    new: LazyTree<File>,
    side: NewSide,
) -> Result<ExitStatus, &'static str> {
    let tty = config.terminals.stderr;
    let old_errors = old.errors();
    let new_errors = match side.walk {
        Some(_) => Vec::new(),
        None => new.errors(),
    };
    let (old_root, new_root) = (old.roots().next(), new.roots().next());
    let (Some(old_root), Some(new_root)) = (old_root, new_root) else {
        return Err("an export without a root");
    };
    // a walk's root is the path given, as an export records it, and shown as typed
    let roots = check_root_names(opts, Some(old.name(old_root)), new.name(new_root), tty);
    let mut out = Vec::new();
    let rendered = match roots {
        Ok(()) => {
            let mut paired = Paired::new(&old, old_root, &new, new_root, config.walk.mode);
            if side.walk.is_some() {
                paired = paired.with_top_name(config.paths[0].as_bytes().to_vec());
            }
            let diff = Diff::of(&old, &paired, &paired);
            super::diff::render(&diff, config, json, &mut out)
        }
        Err(_) => Ok(()),
    };
    for (tree, path) in [(old, opts.old.as_os_str()), (new, side.file)] {
        match tree.outcome() {
            Err(Stop::Damaged(e)) => return Ok(cannot(path, &e, tty)),
            Err(Stop::Load(why)) => return Err(why),
            Ok(()) => {}
        }
    }
    if std::env::var_os("HOGS_DEBUG_IMPORT").is_some() {
        say("diff: compared on demand");
    }
    let mut status = ExitStatus::Success;
    let mut err = io::stderr().lock();
    if !old_errors.is_empty() {
        status = ExitStatus::Incomplete;
        let _ = report_errors_by_path(&old_errors, &mut err, tty);
    }
    match side.walk {
        Some(walk) if !walk.errors.is_empty() => {
            status = ExitStatus::Incomplete;
            let _ = report_scan_errors(&walk.errors, &walk.tree, &mut err, tty);
        }
        Some(_) => {}
        None if !new_errors.is_empty() => {
            status = ExitStatus::Incomplete;
            let _ = report_errors_by_path(&new_errors, &mut err, tty);
        }
        None => {}
    }
    drop(err);
    if let Err(msg) = roots {
        return Ok(fail(msg));
    }
    let written = rendered.and_then(|()| {
        let mut stdout = io::stdout().lock();
        stdout.write_all(&out).and_then(|()| stdout.flush())
    });
    Ok(status.max(super::write_status(written, None, json, tty)))
}

/// `--diff OLD.ncdu PATH`: PATH walked into a temporary binary export (as `-O x.ncdu PATH`
/// writes one, with what tells a symlink from a file), then compared on demand, or loaded
/// whole from that file where the stored totals cannot say what the load would.
fn walked(
    config: &Config,
    opts: &DiffOptions,
    json: bool,
    old: LazyTree<File>,
    said: &dyn Fn(&str),
) -> Option<ExitStatus> {
    let [path] = &config.paths[..] else {
        return None;
    };
    if !std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return None;
    }
    let temp = crate::import::unlinked_temp("diff").ok()?;
    let reader = temp.try_clone().ok()?;
    let writer = ncdu_bin::BinWriter::new(BufWriter::with_capacity(64 * 1024, temp)).ok()?;
    let sink = ncdu_bin::WalkWriter::new(writer, export::root_name(path.as_os_str()), true);
    let mut walk_opts = config.walk.clone();
    (walk_opts.keep_identity, walk_opts.sparse_identity) = (true, true);
    let scan = super::scan::walk_streamed_as(config, &walk_opts, &sink);
    let tty = config.terminals.stderr;
    let written = match sink.finish() {
        Ok(ncdu_bin::WalkEnd::Written(out)) => {
            out.into_inner().map_err(io::IntoInnerError::into_error)
        }
        // PATH went, or is no directory now: the whole run says what it is
        Ok(_) => return None,
        Err(e) => Err(e),
    };
    let temp_name = OsStr::new("(temporary export)");
    if let Err(e) = written {
        return Some(cannot(temp_name, &e, tty));
    }
    let side = NewSide {
        file: temp_name,
        walk: Some(&scan),
    };
    let why = match LazyTree::open(reader.try_clone().ok()?) {
        Ok(new) => match compare(config, opts, json, old, new, side) {
            Ok(status) => return Some(status),
            Err(why) => why,
        },
        Err(Stop::Load(why)) => why,
        Err(Stop::Damaged(e)) => return Some(cannot(temp_name, &e, tty)),
    };
    said(&format!("loaded whole: {why}"));
    Some(loaded(config, opts, json, reader, &scan))
}

/// The comparison of the old export with the walk's temporary one, both loaded whole.
fn loaded(config: &Config, opts: &DiffOptions, json: bool, temp: File, walk: &Scan) -> ExitStatus {
    let tty = config.terminals.stderr;
    // the writer's offset, shared: read from the start
    let mut temp = temp;
    if let Err(e) = temp.seek(SeekFrom::Start(0)) {
        return cannot(OsStr::new("(temporary export)"), &e, tty);
    }
    let keep = super::diff::keep_for_diff(config);
    let old = match crate::import::import_file(&opts.old, tty, keep) {
        Ok(scan) => scan,
        Err(msg) => return fail(msg),
    };
    let new = match crate::formats::ncdu_bin::read_binary_walked(temp, keep) {
        Ok(import) => import.scan,
        Err(e) => return cannot(OsStr::new("(temporary export)"), &e, tty),
    };
    match super::diff::matched_scans(config, opts, old, new, Some(walk)) {
        Ok(sides) => super::diff::print(config, &sides, json),
        Err(status) => status,
    }
}

fn cannot(path: &OsStr, e: &dyn std::fmt::Display, tty: bool) -> ExitStatus {
    fail(format!(
        "cannot import '{}': {e}",
        shown(path.as_bytes(), tty)
    ))
}

/// Whether the comparison reads only what the stored totals say: sizes on disk or
/// apparent, with no filter.
fn plain(config: &Config) -> bool {
    matches!(config.walk.mode, SizeMode::Disk | SizeMode::Apparent)
        && !config.filters.is_active()
        && !config.extents
}
