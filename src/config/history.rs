//! The history's modes (`--record`, `--history`: docs/HISTORY.md), decided from the flags.

use std::ffi::OsString;

use super::cli::Cli;
use super::ConfigError;

/// What a run does with a history file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistoryRun {
    /// `--record DB`: walk the paths (or read `--import`'s files) into the history.
    Record { db: OsString },
    /// `--history DB`: list the scans (`-j`: as JSON).
    List { db: OsString, json: bool },
    /// `--history DB --between A B [PATH]`: the diff of two scans (`None`: the two latest).
    Between {
        db: OsString,
        scans: Option<(String, String)>,
        path: Option<OsString>,
        json: bool,
    },
    /// `--history DB --trend PATH`: PATH's totals in every scan of its root.
    Trend {
        db: OsString,
        path: OsString,
        json: bool,
    },
    /// `--history DB --prometheus`: the latest scans' directories to `depth` (at most `-n` a
    /// root: every one unless `-n` is given).
    Prometheus { db: OsString, depth: usize },
    /// `--history DB --forget-before AGE`: remove the scans older than AGE (seconds).
    Forget { db: OsString, age: u64 },
}

/// The history's mode, when `--record` or `--history` was given. `typed`: paths were given
/// on the command line (not the default `.`).
pub(super) fn decide(
    cli: &Cli,
    typed: bool,
    paths: &[OsString],
) -> Result<Option<HistoryRun>, ConfigError> {
    if let Some(db) = &cli.record {
        return Ok(Some(HistoryRun::Record { db: db.clone() }));
    }
    let Some(db) = cli.history.clone() else {
        return Ok(None);
    };
    if !cli.import.is_empty() {
        return Err(ConfigError(
            "--import goes with --record (to add exports to a history), not --history".into(),
        ));
    }
    let json = cli.output_json;
    let path = typed.then(|| paths.first().cloned()).flatten();
    if typed && paths.len() > 1 {
        return Err(ConfigError("--history reads one PATH".into()));
    }
    Ok(Some(if let Some(age) = &cli.forget_before {
        HistoryRun::Forget {
            db,
            age: parse_age(age)?,
        }
    } else if let Some(path) = &cli.trend {
        HistoryRun::Trend {
            db,
            path: path.clone(),
            json,
        }
    } else if cli.prometheus {
        let depth = match &cli.depth {
            None => 1,
            Some(d) => d
                .parse::<usize>()
                .map_err(|_| ConfigError(format!("invalid depth '{d}'")))?
                .min(4096),
        };
        HistoryRun::Prometheus { db, depth }
    } else if cli.between.is_some() || path.is_some() {
        let scans = cli.between.as_ref().and_then(|ab| match &ab[..] {
            [a, b] => Some((a.clone(), b.clone())),
            _ => None,
        });
        HistoryRun::Between {
            db,
            scans,
            path,
            json,
        }
    } else {
        HistoryRun::List { db, json }
    }))
}

/// An age: a number and a unit, `s`, `m` (minutes) `h`, `d`, `w`, `M` (months of 30 days) or
/// `y` (365 days); in seconds.
pub fn parse_age(text: &str) -> Result<u64, ConfigError> {
    let bad = || {
        ConfigError(format!(
            "invalid age '{text}': a number and a unit (s, m, h, d, w, M, y), as 7d or 4w"
        ))
    };
    let split = text.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let (n, unit) = text.split_at(split);
    let n: u64 = n.parse().map_err(|_| bad())?;
    let unit = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        "M" => 30 * 86_400,
        "y" => 365 * 86_400,
        _ => return Err(bad()),
    };
    n.checked_mul(unit).ok_or_else(bad)
}
