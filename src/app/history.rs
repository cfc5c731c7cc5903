//! `hogs --record DB PATH…` and `hogs --history DB …` (docs/HISTORY.md). A scan goes into
//! the history as the scan events of a streamed merge: a walk is first written as a binary
//! export (the streamed `-O`, flat in memory), then read back into the [`Recorder`]; an
//! `--import` is read straight into it. `--between` is [`super::history_diff`].

use std::ffi::{OsStr, OsString};
use std::io::{self, BufWriter, Write};
use std::sync::{Arc, Mutex};

use super::history_common::{shown_db, signed, size, with_history, TempFile};
use crate::config::{Config, ExportFormat, ExportTarget, HistoryRun, Mode};
use crate::error::{fail, ExitStatus};
use crate::formats::builder::Streamed;
use crate::history::{History, Recorder, ScanRow};
use crate::render::escape::shown;
use crate::units::format_size;
use crate::vocab::{SizeMode, UnitStyle};

/// Runs a history mode.
pub fn run(config: &Config, run: &HistoryRun) -> ExitStatus {
    match run {
        HistoryRun::Record { db } => record(config, db),
        HistoryRun::List { db, json } => with_history(config, db, |h| list(config, h, *json)),
        HistoryRun::Between { .. } => super::history_diff::run(config, run),
        HistoryRun::Trend { db, path, json } => with_history(config, db, |h| {
            super::history_diff::trend(config, h, path, *json)
        }),
        HistoryRun::Prometheus { db, depth } => {
            with_history(config, db, |h| prometheus(config, h, *depth))
        }
        HistoryRun::Forget { db, age } => with_history(config, db, |h| forget(config, h, db, *age)),
    }
}

/// `--record DB`: each path walked into a temporary binary export, or the `--import` files,
/// recorded as a scan.
fn record(config: &Config, db: &OsStr) -> ExitStatus {
    if let Some(imports) = &config.import {
        return record_files(config, db, &imports.files, imports.keep_first);
    }
    let mut status = ExitStatus::Success;
    for path in &config.paths {
        let made = crate::export::now();
        let temp = TempFile::new("record");
        let target = ExportTarget {
            file: temp.0.clone(),
            extended: false,
            format: ExportFormat::Binary,
        };
        let walk = Config {
            paths: vec![path.clone()],
            mode: Mode::Export(target.clone()),
            ..config.clone()
        };
        let walked = super::export::run(&walk, &target);
        if std::fs::metadata(&temp.0).is_err() {
            status = status.max(walked).max(ExitStatus::Incomplete);
            continue; // said above: the path could not be walked
        }
        let files = [temp.0.clone()];
        let recorded = into_history(config, db, &files, made, options(config));
        status = status.max(walked).max(recorded);
    }
    status
}

/// What the counting options of a walk were, stored with its scan so scans made with
/// different ones are not compared silently.
fn options(config: &Config) -> String {
    let w = &config.walk;
    let names: Vec<String> = w
        .exclusions
        .names
        .iter()
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect();
    let paths: Vec<String> = w
        .exclusions
        .paths
        .iter()
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect();
    let mut out = String::new();
    for (on, flag) in [
        (w.one_filesystem, "-x"),
        (w.follow_links, "-L"),
        (w.exclusions.hidden, "-i"),
    ] {
        if on {
            out.push_str(flag);
            out.push(' ');
        }
    }
    for n in names {
        out.push_str(&format!("-X {n:?} "));
    }
    for p in paths {
        out.push_str(&format!("-X {p:?} "));
    }
    if config.filters.is_active() {
        out.push_str(&format!("{:?}", config.filters));
    }
    out.trim_end().to_string()
}

/// `--record DB --import FILE…`: the exports merged, as `--import` merges them, into one
/// binary export (streamed: no tree), recorded as one scan made when the newest part says it
/// was made.
fn record_files(config: &Config, db: &OsStr, files: &[OsString], keep_first: bool) -> ExitStatus {
    let err_tty = config.terminals.stderr;
    let temp = TempFile::new("import");
    let out = match crate::export::open_target(&temp.0) {
        Ok(out) => BufWriter::with_capacity(64 * 1024, out),
        Err(_) => return fail("cannot make a temporary file to merge the exports in"),
    };
    let writer = match crate::formats::ncdu_bin::BinWriter::new(out) {
        Ok(w) => Box::new(crate::formats::ncdu_bin::StreamWriter::new(w, false)),
        Err(e) => return fail(format!("cannot write a temporary file: {e}")),
    };
    let merged = crate::import::merge::merge_to_sink(
        files,
        keep_first,
        err_tty,
        Streamed::new(writer, err_tty),
    );
    let (merged, made) = match merged {
        Ok(m) => m,
        Err(msg) => return fail(msg),
    };
    let status = if merged.errors > 0 {
        ExitStatus::Incomplete
    } else {
        ExitStatus::Success
    };
    if let Err(e) = merged.finish() {
        return fail(format!("cannot write a temporary file: {e}"));
    }
    let made = made.unwrap_or_else(crate::export::now);
    status.max(into_history(
        config,
        db,
        std::slice::from_ref(&temp.0),
        made,
        String::from("import"),
    ))
}

/// Records the binary export `files` (one, written by this run: its errors were reported
/// when it was written) as a scan made at `made`.
fn into_history(
    config: &Config,
    db: &OsStr,
    files: &[OsString],
    made: u64,
    options: String,
) -> ExitStatus {
    let err_tty = config.terminals.stderr;
    let history = match History::create(db) {
        Ok(h) => h,
        Err(e) => {
            return fail(format!(
                "cannot record into '{}': {e}",
                shown_db(config, db)
            ))
        }
    };
    let report = Arc::new(Mutex::new(None));
    let time = i64::try_from(made).unwrap_or(i64::MAX);
    let recorder = match Recorder::new(history, time, options, report.clone()) {
        Ok(r) => Box::new(r),
        Err(e) => {
            return fail(format!(
                "cannot record into '{}': {e}",
                shown_db(config, db)
            ))
        }
    };
    let merged =
        crate::import::merge::merge_to_sink(files, false, err_tty, Streamed::quiet(recorder));
    let merged = match merged {
        Ok((m, _)) => m,
        Err(msg) => return fail(msg), // nothing was committed
    };
    let errors = merged.errors;
    if let Err(e) = merged.finish() {
        return fail(format!(
            "cannot record into '{}': {e}",
            shown_db(config, db)
        ));
    }
    let status = if errors > 0 {
        ExitStatus::Incomplete
    } else {
        ExitStatus::Success
    };
    let recorded = report.lock().ok().and_then(|mut r| r.take());
    let Some(recorded) = recorded else {
        return status;
    };
    status.max(say_recorded(config, db, recorded.scan_id))
}

/// The one line a record prints: the scan's id, root, total and change since the scan before
/// it of its root.
fn say_recorded(config: &Config, db: &OsStr, id: i64) -> ExitStatus {
    with_history(config, db, |h| {
        let Ok(Some(scan)) = h.scan(id) else {
            return ExitStatus::Success;
        };
        let scans = h.scans_of(scan.root_id).unwrap_or_default();
        let before = previous(&scans, &scan);
        let line = format!(
            "scan {} of {}: {}{}\n",
            scan.id,
            shown(&scan.root, config.terminals.stdout),
            size(config, scan.disk_bytes),
            change(config, &scan, before)
        );
        let written = io::stdout().lock().write_all(line.as_bytes());
        super::write_status(written, None, false, config.terminals.stderr)
    })
}

/// The scan of the same root just before `scan`.
pub(super) fn previous<'s>(scans: &'s [ScanRow], scan: &ScanRow) -> Option<&'s ScanRow> {
    scans
        .iter()
        .filter(|s| s.root_id == scan.root_id && s.seq < scan.seq)
        .max_by_key(|s| s.seq)
}

fn change(config: &Config, scan: &ScanRow, before: Option<&ScanRow>) -> String {
    let Some(b) = before else {
        return " (the first scan of it)".into();
    };
    format!(
        " ({} since scan {})",
        signed(config, scan.disk_bytes, b.disk_bytes),
        b.id
    )
}

/// `--history DB`: the scans, oldest first.
fn list(config: &Config, history: &History, json: bool) -> ExitStatus {
    let scans = match history.scans() {
        Ok(s) => s,
        Err(e) => return fail(format!("cannot read history: {e}")),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let written = match json {
        true => list_json(&scans, &mut out),
        false => list_lines(config, &scans, &mut out),
    }
    .and_then(|()| out.flush());
    super::write_status(written, None, json, config.terminals.stderr)
}

fn list_lines(config: &Config, scans: &[ScanRow], out: &mut dyn Write) -> io::Result<()> {
    for scan in scans {
        let change = match previous(scans, scan) {
            Some(b) => signed(config, scan.disk_bytes, b.disk_bytes),
            None => "-".into(),
        };
        writeln!(
            out,
            "{:>5}  {}  {:>8}  {:>8}  {}",
            scan.id,
            crate::units::format_time(scan.time.max(0) as u64),
            size(config, scan.disk_bytes),
            change,
            shown(&scan.root, config.terminals.stdout)
        )?;
    }
    Ok(())
}

fn list_json(scans: &[ScanRow], out: &mut dyn Write) -> io::Result<()> {
    out.write_all(b"[")?;
    for (i, s) in scans.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write!(out, "{{\"id\":{},\"time\":{},\"root\":", s.id, s.time)?;
        crate::render::json::write_str(out, &String::from_utf8_lossy(&s.root))?;
        write!(
            out,
            ",\"disk_bytes\":{},\"apparent_bytes\":{},\"entries\":{}}}",
            s.disk_bytes, s.apparent_bytes, s.entries
        )?;
    }
    out.write_all(b"]\n")
}

/// `--prometheus`: the latest scan of each root, its directories to `depth`, as gauges.
fn prometheus(config: &Config, history: &History, depth: usize) -> ExitStatus {
    let mut out = BufWriter::new(io::stdout().lock());
    let written = prometheus_text(config, history, depth, &mut out).and_then(|()| out.flush());
    super::write_status(written, None, true, config.terminals.stderr)
}

fn prometheus_text(
    config: &Config,
    history: &History,
    depth: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let scans = history.scans().map_err(io::Error::other)?;
    let mut latest: Vec<&ScanRow> = Vec::new();
    for s in &scans {
        match latest.iter_mut().find(|l| l.root_id == s.root_id) {
            Some(l) if l.seq < s.seq => *l = s,
            Some(_) => {}
            None => latest.push(s),
        }
    }
    let mut rows = Vec::new();
    for scan in latest {
        for (key, sizes) in history
            .dirs(scan, depth, config.view.lines.saturating_add(1))
            .map_err(io::Error::other)?
        {
            rows.push((
                scan.root.clone(),
                super::history_common::join(&scan.root, &key),
                sizes,
            ));
        }
    }
    let gauges = [
        (
            "hogs_directory_disk_bytes",
            "Disk usage of the directory, in bytes, at the latest scan",
        ),
        (
            "hogs_directory_apparent_bytes",
            "Apparent size of the directory, in bytes, at the latest scan",
        ),
        (
            "hogs_directory_entries",
            "Entries in the directory, itself included, at the latest scan",
        ),
    ];
    for (i, (name, help)) in gauges.iter().enumerate() {
        writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge")?;
        for (root, path, sizes) in &rows {
            writeln!(
                out,
                "{name}{{root=\"{}\",path=\"{}\"}} {}",
                label(root),
                label(path),
                sizes[i]
            )?;
        }
    }
    Ok(())
}

/// A label value in Prometheus' text format: UTF-8 (bytes that are not shown as U+FFFD), with
/// `\`, `"` and newlines escaped.
fn label(bytes: &[u8]) -> String {
    let mut out = String::new();
    for c in String::from_utf8_lossy(bytes).chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// `--forget-before AGE`.
fn forget(config: &Config, history: &History, db: &OsStr, age: u64) -> ExitStatus {
    let before = crate::export::now().saturating_sub(age);
    match history.forget_before(i64::try_from(before).unwrap_or(i64::MAX)) {
        Ok(n) => {
            let bytes = std::fs::metadata(db).map_or(0, |m| m.len());
            let line = format!(
                "forgot {n} scan{}; the history is now {}\n",
                if n == 1 { "" } else { "s" },
                format_size(bytes, SizeMode::Apparent, UnitStyle::HumanIec)
            );
            let written = io::stdout().lock().write_all(line.as_bytes());
            super::write_status(written, None, false, config.terminals.stderr)
        }
        Err(e) => fail(format!("cannot forget in '{}': {e}", shown_db(config, db))),
    }
}
