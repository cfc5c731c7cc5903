//! `hogs --history DB --between A B [PATH]`: two scans read back from the history as binary
//! exports (the history as a source of scan events), handed to `--diff` as any two exports
//! are; and `--trend PATH`.

use std::ffi::{OsStr, OsString};
use std::io::{self, BufWriter, Write};
use std::os::unix::ffi::OsStrExt;

use super::history_common::{join, shown_db, signed, size, with_history, TempFile};
use crate::config::{Config, DiffOptions, HistoryRun, Imports, Mode};
use crate::error::{fail, say, ExitStatus};
use crate::history::{replay::replay, History, ScanRow};
use crate::render::escape::shown;

/// `--between`.
pub fn run(config: &Config, run: &HistoryRun) -> ExitStatus {
    let HistoryRun::Between {
        db,
        scans,
        path,
        json,
    } = run
    else {
        return ExitStatus::Incomplete;
    };
    with_history(config, db, |h| {
        between(config, h, db, scans.as_ref(), path.as_deref(), *json)
    })
}

fn between(
    config: &Config,
    history: &History,
    db: &OsStr,
    scans: Option<&(String, String)>,
    path: Option<&OsStr>,
    json: bool,
) -> ExitStatus {
    let picked = pick(history, scans, path);
    let (old, new, key, name) = match picked {
        Ok(p) => p,
        Err(e) => return fail(format!("{}: {e}", shown_db(config, db))),
    };
    if old.options != new.options {
        say(format!(
            "note: scans {} and {} were made with different options ({} / {}): what they count differs",
            old.id,
            new.id,
            or_none(&old.options),
            or_none(&new.options)
        ));
    }
    let (a, b) = (TempFile::new("between"), TempFile::new("between"));
    for (scan, file) in [(&old, &a), (&new, &b)] {
        if let Err(e) = export_scan(history, scan, &key, &name, &file.0) {
            return fail(format!("{}: scan {}: {e}", shown_db(config, db), scan.id));
        }
    }
    let diff = DiffOptions {
        old: a.0.clone(),
        root_any: false,
    };
    let compared = Config {
        paths: vec![b.0.clone()],
        import: Some(Imports {
            files: vec![b.0.clone()],
            keep_first: false,
        }),
        mode: Mode::Diff {
            diff: diff.clone(),
            json,
        },
        ..config.clone()
    };
    super::lazy_diff::run(&compared, &diff, json)
        .unwrap_or_else(|| super::diff::run(&compared, &diff, json))
}

fn or_none(options: &str) -> &str {
    if options.is_empty() {
        "none"
    } else {
        options
    }
}

/// Scan `scan`'s directory `key` written to `file` as a binary export rooted at `name`.
fn export_scan(
    history: &History,
    scan: &ScanRow,
    key: &[u8],
    name: &[u8],
    file: &OsStr,
) -> Result<(), String> {
    let out =
        crate::export::open_target(file).map_err(|_| "cannot make a temporary file".to_string())?;
    let w = crate::formats::ncdu_bin::BinWriter::new(BufWriter::with_capacity(64 * 1024, out))
        .map_err(|e| e.to_string())?;
    let mut writer = Box::new(crate::formats::ncdu_bin::StreamWriter::new(w, true));
    replay(history, scan, key, name, writer.as_mut())?;
    crate::tree::ScanSink::finish(writer).map_err(|e| e.to_string())
}

/// The two scans compared, the directory compared (its key below their root) and its path.
fn pick(
    history: &History,
    scans: Option<&(String, String)>,
    path: Option<&OsStr>,
) -> Result<(ScanRow, ScanRow, Vec<u8>, Vec<u8>), String> {
    let all = history.scans()?;
    if all.is_empty() {
        return Err("the history has no scan".into());
    }
    let (root_id, key) = match path {
        Some(p) => locate(&all, p)?,
        None => (
            all.iter()
                .max_by_key(|s| (s.time, s.seq))
                .map_or(0, |s| s.root_id),
            Vec::new(),
        ),
    };
    let (old, new) = match scans {
        Some((a, b)) => (
            resolve(&all, root_id, a, path.is_some())?,
            resolve(&all, root_id, b, path.is_some())?,
        ),
        None => {
            let of_root: Vec<&ScanRow> = all.iter().filter(|s| s.root_id == root_id).collect();
            match of_root[..] {
                [.., a, b] => (a.clone(), b.clone()),
                _ => {
                    return Err(format!(
                        "only one scan of {} (--between needs two)",
                        String::from_utf8_lossy(
                            &all.iter()
                                .find(|s| s.root_id == root_id)
                                .map(|s| s.root.clone())
                                .unwrap_or_default()
                        )
                    ))
                }
            }
        }
    };
    if old.root_id != new.root_id {
        return Err(format!(
            "scans {} and {} are of different roots",
            old.id, new.id
        ));
    }
    let name = join(&old.root, &key);
    Ok((old, new, key, name))
}

/// The root holding `path` (the deepest), and the path's key below it.
fn locate(all: &[ScanRow], path: &OsStr) -> Result<(i64, Vec<u8>), String> {
    let wanted = crate::export::root_name(path);
    let mut best: Option<(usize, i64, Vec<u8>)> = None;
    for s in all {
        let root = &s.root[..];
        let key = if wanted == root {
            Some(Vec::new())
        } else if root == b"/" {
            wanted.strip_prefix(b"/").map(<[u8]>::to_vec)
        } else {
            wanted
                .strip_prefix(root)
                .and_then(|r| r.strip_prefix(b"/"))
                .map(<[u8]>::to_vec)
        };
        if let Some(key) = key {
            if best.as_ref().is_none_or(|b| root.len() > b.0) {
                best = Some((root.len(), s.root_id, key));
            }
        }
    }
    best.map(|(_, id, key)| (id, key)).ok_or_else(|| {
        format!(
            "no scan holds '{}' (--history lists the roots recorded)",
            String::from_utf8_lossy(&wanted)
        )
    })
}

/// The scan `spec` names among the scans of `root_id` (an id names any scan): an id, a date
/// (the last scan on or before that day) or an age (the last scan at least that old).
fn resolve(all: &[ScanRow], root_id: i64, spec: &str, by_path: bool) -> Result<ScanRow, String> {
    let of_root = || all.iter().filter(|s| s.root_id == root_id);
    let found = if let Ok(id) = spec.parse::<i64>() {
        all.iter()
            .find(|s| s.id == id && (!by_path || s.root_id == root_id))
    } else if let Some(end) = day_end(spec) {
        of_root().filter(|s| s.time < end).max_by_key(|s| s.seq)
    } else if let Ok(age) = crate::config::history::parse_age(spec) {
        let at = i64::try_from(crate::export::now().saturating_sub(age)).unwrap_or(i64::MAX);
        of_root().filter(|s| s.time <= at).max_by_key(|s| s.seq)
    } else {
        return Err(format!(
            "'{spec}' is not a scan id, a date (2026-11-01) or an age (7d, 4w)"
        ));
    };
    found.cloned().ok_or_else(|| {
        let ids: Vec<String> = of_root()
            .map(|s| {
                format!(
                    "{} ({})",
                    s.id,
                    crate::units::format_time(s.time.max(0) as u64)
                )
            })
            .collect();
        format!(
            "no scan is '{spec}'; the scans of this root: {}",
            ids.join(", ")
        )
    })
}

/// The first second after the local day `YYYY-MM-DD`.
fn day_end(spec: &str) -> Option<i64> {
    use chrono::{Local, NaiveDate, TimeZone};
    let day = NaiveDate::parse_from_str(spec, "%Y-%m-%d").ok()?;
    let next = day.succ_opt()?.and_hms_opt(0, 0, 0)?;
    Local
        .from_local_datetime(&next)
        .earliest()
        .map(|t| t.timestamp())
}

/// `--trend PATH`: its totals in every scan of its root, oldest first.
pub fn trend(config: &Config, history: &History, path: &OsString, json: bool) -> ExitStatus {
    let points = history.scans().and_then(|all| {
        let (root_id, key) = locate(&all, path)?;
        let scans = history.scans_of(root_id)?;
        history.trend(scans, &key)
    });
    let points = match points {
        Ok(p) => p,
        Err(e) => {
            return fail(format!(
                "--trend '{}': {e}",
                shown(path.as_bytes(), config.terminals.stderr)
            ))
        }
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let written = match json {
        true => trend_json(&points, &mut out),
        false => trend_lines(config, &points, &mut out),
    }
    .and_then(|()| out.flush());
    super::write_status(written, None, json, config.terminals.stderr)
}

fn trend_json(points: &[crate::history::TrendPoint], out: &mut dyn Write) -> io::Result<()> {
    out.write_all(b"[")?;
    for (i, p) in points.iter().enumerate() {
        let sep = if i > 0 { "," } else { "" };
        write!(out, "{sep}{{\"id\":{},\"time\":{},", p.scan.id, p.scan.time)?;
        match p.sizes {
            Some([d, a, e]) => write!(
                out,
                "\"disk_bytes\":{d},\"apparent_bytes\":{a},\"entries\":{e}}}"
            )?,
            None => {
                out.write_all(b"\"disk_bytes\":null,\"apparent_bytes\":null,\"entries\":null}")?
            }
        }
    }
    out.write_all(b"]\n")
}

fn trend_lines(
    config: &Config,
    points: &[crate::history::TrendPoint],
    out: &mut dyn Write,
) -> io::Result<()> {
    let most = points
        .iter()
        .filter_map(|p| p.sizes)
        .map(|s| s[0])
        .max()
        .unwrap_or(0)
        .max(1);
    let mut before: Option<u64> = None;
    for p in points {
        let when = crate::units::format_time(p.scan.time.max(0) as u64);
        let Some([disk, ..]) = p.sizes else {
            writeln!(
                out,
                "{when}  {:>8}  {:>8}  (scan {}: not there)",
                "-", "-", p.scan.id
            )?;
            before = None;
            continue;
        };
        let change = before.map_or_else(|| "-".to_string(), |b| signed(config, disk, b));
        let width = 30u64;
        let bar = "█".repeat(usize::try_from(disk.saturating_mul(width) / most).unwrap_or(0));
        writeln!(
            out,
            "{when}  {:>8}  {:>8}  {bar}",
            size(config, disk),
            change
        )?;
        before = Some(disk);
    }
    Ok(())
}
