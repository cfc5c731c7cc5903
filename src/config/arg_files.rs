//! Files that hold arguments: the paths of `--files-from` / `--files0-from` and the regexes
//! of `-I/--ignore-all-in-file`. Read once, while the configuration is decided; `-` is stdin.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::unix::ffi::{OsStrExt, OsStringExt};

use regex::bytes::Regex;

use crate::config::ConfigError;
use crate::render::escape::shown;

/// The whole content of `file`, or stdin for `-`.
fn read_all(file: &OsStr, flag: &str) -> Result<Vec<u8>, ConfigError> {
    let result = if file.as_bytes() == b"-" {
        let mut buf = Vec::new();
        std::io::stdin().lock().read_to_end(&mut buf).map(|_| buf)
    } else {
        std::fs::read(file)
    };
    result.map_err(|e| {
        let cause = e
            .raw_os_error()
            .map_or_else(|| e.to_string(), crate::sys::describe);
        ConfigError(format!(
            "cannot read {flag} '{}': {cause}",
            shown(file.as_bytes(), true)
        ))
    })
}

/// `--files-from FILE`: one path per line; empty lines are skipped.
pub fn paths_from_lines(file: &OsStr) -> Result<Vec<OsString>, ConfigError> {
    let data = read_all(file, "--files-from")?;
    Ok(data
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| OsString::from_vec(l.to_vec()))
        .collect())
}

/// `--files0-from FILE`: paths each ended by a NUL (the last one may lack it). An empty name
/// between two NULs is kept: the walk reports it, as `du --files0-from` does.
pub fn paths_from_nul(file: &OsStr) -> Result<Vec<OsString>, ConfigError> {
    let data = read_all(file, "--files0-from")?;
    let mut names: Vec<&[u8]> = data.split(|&b| b == 0).collect();
    if names.last().is_some_and(|l| l.is_empty()) {
        names.pop();
    }
    Ok(names
        .into_iter()
        .map(|n| OsString::from_vec(n.to_vec()))
        .collect())
}

/// `-I FILE`: one regex per line (empty lines skipped), added to the `-v` regexes.
pub fn ignore_regexes(file: &OsStr) -> Result<Vec<Regex>, ConfigError> {
    let data = read_all(file, "--ignore-all-in-file")?;
    let text = String::from_utf8_lossy(&data);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        let re = Regex::new(line).map_err(|e| {
            let detail = e.to_string();
            let last = detail.lines().last().unwrap_or("").trim().to_string();
            ConfigError(format!(
                "invalid regex '{line}' in --ignore-all-in-file '{}' line {}: {last}",
                shown(file.as_bytes(), true),
                i + 1
            ))
        })?;
        out.push(re);
    }
    Ok(out)
}
