//! `hogs -O FILE [PATH]`: the scan (a walk, or `--import`) written in ncdu's format instead
//! of shown. The format itself is [`crate::export`].

use std::io::{self, BufWriter, Write};
use std::os::unix::ffi::OsStrExt;

use crate::config::{Config, ExportFormat, ExportTarget};
use crate::error::{fail, ExitStatus};
use crate::export;
use crate::formats::ncdu_bin;
use crate::formats::ncdu_json::write as ncdu;
use crate::formats::ncdu_json::zstd;
use crate::import;
use crate::render::escape::shown;
use crate::settle::Totals;
use crate::tree::{NodeId, Tree};
use crate::vocab::SizeMode;
use crate::walk::ScanError;

/// Opens the target, scans and writes. Errors while scanning are reported and recorded in the
/// export (exit status 1); a target that cannot be written fails before the walk.
pub fn run(config: &Config, target: &ExportTarget) -> ExitStatus {
    let err_tty = config.terminals.stderr;
    let mut sink = match super::open_target(&target.file, err_tty) {
        Ok(sink) => sink,
        Err(status) => return status,
    };
    if streams_walk(config, target) {
        match sink.into_file() {
            Ok(file) => return walk_streamed(config, target, file),
            Err(stdout) => sink = stdout,
        }
    }
    let mut out = BufWriter::with_capacity(64 * 1024, sink);
    if let Some(imports) = config.import.as_ref().filter(|i| {
        i.files.len() > 1
            && target.format == ExportFormat::Binary
            && !config.filters.is_active()
            && !config.extents
    }) {
        return merge_streamed(
            config,
            target,
            &imports.files,
            imports.keep_first,
            out,
            false,
        );
    }
    let (mut scan, status) = match super::scan::load(config) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    // own sizes, not totals: the reader adds them up
    let tree = &super::scan::settled(
        config,
        std::mem::take(&mut scan.tree),
        Totals::Own,
        true,
        false,
    );
    let Some(root) = tree.roots().next() else {
        return status; // the argument could not be read: said above
    };
    if !tree.node(root).is_dir() {
        return fail(format!(
            "cannot export '{}': not a directory (the ncdu format needs one)",
            shown(tree.name(root), err_tty)
        ));
    }
    let root_name = match config.import {
        Some(_) => tree.name(root).to_vec(), // already the path it was scanned at
        None => export::root_name(config.paths[0].as_os_str()),
    };
    let opts = ncdu::NcduOptions {
        root_name: &root_name,
        extended: target.extended,
        timestamp: export::now(),
    };
    // the file is replaced only now, complete (see `export::ExportSink`)
    let written = write(tree, root, &scan.errors, &opts, target.format, &mut out)
        .and_then(|()| {
            out.into_inner()
                .map_err(std::io::IntoInnerError::into_error)
        })
        .and_then(export::ExportSink::finish);
    status.max(super::write_status(
        written,
        Some(&target.file),
        true,
        err_tty,
    ))
}

/// The tree in `format`.
fn write(
    tree: &Tree,
    root: NodeId,
    errors: &[ScanError],
    opts: &ncdu::NcduOptions<'_>,
    format: ExportFormat,
    out: &mut impl Write,
) -> io::Result<()> {
    match format {
        ExportFormat::Json => ncdu::write_ncdu(tree, root, errors, opts, out),
        ExportFormat::JsonZst => {
            zstd::write_compressed(out, |z| ncdu::write_ncdu(tree, root, errors, opts, z))
        }
        ExportFormat::Binary => {
            let mut w = ncdu_bin::BinWriter::new(out)?;
            let root_ref = ncdu_bin::write_tree(tree, root, errors, opts, &mut w)?;
            w.finish(root_ref).map(drop)
        }
    }
}

/// `--import PARTS… -O x.ncdu`: the parts merged straight into the binary export as they are
/// read, no tree held (filters and `--extents` need the tree: they take the path above).
/// `quiet`: the errors the parts record are not reported again (see [`relink`]).
fn merge_streamed(
    config: &Config,
    target: &ExportTarget,
    files: &[std::ffi::OsString],
    keep_first: bool,
    out: BufWriter<export::ExportSink>,
    quiet: bool,
) -> ExitStatus {
    let err_tty = config.terminals.stderr;
    let written = ncdu_bin::BinWriter::new(out).map(|w| {
        let writer = ncdu_bin::StreamWriter::new(w, target.extended);
        match quiet {
            true => crate::formats::builder::Streamed::quiet(writer),
            false => crate::formats::builder::Streamed::new(writer, err_tty),
        }
    });
    let streamed = match written {
        Ok(s) => s,
        Err(e) => return super::write_status(Err(e), Some(&target.file), true, err_tty),
    };
    let merged = match import::merge::merge_to_binary(files, keep_first, err_tty, streamed) {
        Ok(m) => m,
        Err(msg) => return fail(msg), // the unfinished file is removed: the target stays
    };
    if !quiet {
        crate::error::report_streamed_total(merged.errors);
    }
    let status = if merged.errors > 0 {
        ExitStatus::Incomplete
    } else {
        ExitStatus::Success
    };
    let written = merged
        .writer
        .finish()
        .and_then(|out| out.into_inner().map_err(io::IntoInnerError::into_error))
        .and_then(export::ExportSink::finish);
    status.max(super::write_status(
        written,
        Some(&target.file),
        true,
        err_tty,
    ))
}

/// A streamed export in which a hard-linked file was met at names in two directories, written
/// again from itself through the streamed merge: the merge reads it depth-first in directory
/// order and counts each inode at the first name it meets, which is the one du counts (the
/// walk's threads may have met another first). No tree is held: the merge holds what the walk
/// did. `written_once` (a temporary file beside the target) is removed once the second is
/// renamed over the target.
fn relink(config: &Config, target: &ExportTarget, written_once: export::FileSink) -> ExitStatus {
    let err_tty = config.terminals.stderr;
    let status_of = |written| super::write_status(written, Some(&target.file), true, err_tty);
    let mut once = written_once;
    if let Err(e) = once.flush() {
        return status_of(Err(e));
    }
    let Some(path) = once.staged_path().map(|p| p.as_os_str().to_os_string()) else {
        return status_of(once.finish());
    };
    let out = match super::open_target(&target.file, err_tty) {
        Ok(out) => BufWriter::with_capacity(64 * 1024, out),
        Err(status) => return status,
    };
    let status = merge_streamed(config, target, &[path], false, out, true);
    drop(once); // the first export, never renamed: removed
    status
}

/// Whether `-O` walks straight into the binary export ([`walk_streamed`]). Not with what needs
/// the whole tree before anything is written (the filters of `-e`/`-v` and the time filters,
/// `--extents`), nor with `-f` (no sizes: not an export's walk), several paths or stdout.
fn streams_walk(config: &Config, target: &ExportTarget) -> bool {
    let walk = &config.walk;
    config.import.is_none()
        && target.format == ExportFormat::Binary
        && config.paths.len() == 1
        && !config.filters.is_active()
        && !config.extents
        && walk.mode != SizeMode::Count
        && !walk.fold_files
        && walk.keep_identity
}

/// `hogs -O x.ncdu PATH`: the walk written into the export as it goes, each directory once
/// its subtree is done, no tree held (`formats::ncdu_bin::WalkWriter`).
fn walk_streamed(config: &Config, target: &ExportTarget, file: export::FileSink) -> ExitStatus {
    let err_tty = config.terminals.stderr;
    let status_of = |written| super::write_status(written, Some(&target.file), true, err_tty);
    let out = BufWriter::with_capacity(64 * 1024, file);
    let writer = match ncdu_bin::BinWriter::new(out) {
        Ok(w) => w,
        Err(e) => return status_of(Err(e)),
    };
    let path = config.paths[0].as_os_str();
    let sink = ncdu_bin::WalkWriter::new(writer, export::root_name(path), target.extended);
    let scan = super::scan::walk_streamed(config, &sink);
    let status = super::scan::report(&scan, config);
    let relinked = sink.relinked();
    // the file is replaced only now, complete (see `export::ExportSink`)
    match sink.finish() {
        Ok(ncdu_bin::WalkEnd::Written(out)) => {
            let file = out.into_inner().map_err(io::IntoInnerError::into_error);
            let written = match file {
                Ok(file) if relinked && file.staged_path().is_some() => {
                    return status.max(relink(config, target, file));
                }
                Ok(file) => file.finish(),
                Err(e) => Err(e),
            };
            status.max(status_of(written))
        }
        Ok(ncdu_bin::WalkEnd::NotADirectory) => fail(format!(
            "cannot export '{}': not a directory (the ncdu format needs one)",
            shown(path.as_bytes(), err_tty)
        )),
        Ok(ncdu_bin::WalkEnd::NoRoot) => status, // the argument could not be read: said above
        Err(e) => status.max(status_of(Err(e))),
    }
}
