//! The config file: `$XDG_CONFIG_HOME/hogs/config.toml` (else `~/.config/hogs/config.toml`;
//! on macOS, `~/Library/Application Support/hogs/config.toml` where it exists, as dust reads
//! its own), or `--config FILE`. Its keys are the long flags (`reverse = true`, `depth = 3`,
//! `ignore-directory = ["node_modules", ".git"]`).
//!
//! Each setting becomes a flag placed before the user's own arguments, so there is one parser
//! and one set of rules, and the command line wins: options override themselves, and every
//! on/off flag has an opposite (`reverse = true` is undone by `--no-reverse`). A list
//! (`ignore-directory`, `filter`, `invert-filter`) adds to what the command line gives.
//!
//! Every key is checked on its own before anything runs, so a bad setting is reported with
//! the file, line and key it came from, never as if the user had typed it.

use std::ffi::OsString;
use std::mem::ManuallyDrop;
use std::path::{Path, PathBuf};

use clap::{ArgAction, FromArgMatches};
use toml::de::{DeTable, DeValue};

use crate::config::cli::{self, Cli};
use crate::config::Config;

/// Keys that are not settings: where settings come from, and what is not a standing wish.
const NOT_KEYS: &[&str] = &[
    "help",
    "version",
    "config",
    "no-config",
    "import",
    "export",
    "export-extended",
    "diff",
    "diff-root-any",
    // what to scan is given per run, not a standing setting
    "files-from",
    "files0-from",
    // dust's; it does nothing here
    "stack-size",
    // how the marked paths are written depends on the pipe they go to on this command line
    "null",
];

/// Settings of the interactive view alone (`hogs i`): the other views ignore them when they
/// come from the file, rather than refuse them as they do on the command line.
const INTERACTIVE_ONLY: &[&str] = &["no-delete", "print-marked"];

/// Why the command line could not be read.
#[derive(Debug)]
pub enum ArgsError {
    /// A usage error: clap prints it and exits with status 2.
    Usage(clap::Error),
    /// The config file is missing (when named), unreadable or invalid: one line, status 1.
    Config(String),
}

/// The file to read without `--config`: None when neither XDG_CONFIG_HOME nor HOME is set.
pub fn default_path() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute()); // the spec says to ignore a relative one
    let home = || {
        std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
    };
    #[cfg(target_os = "macos")]
    if xdg.is_none() {
        // the place of macOS for settings, where the user made it; else ~/.config as on Linux
        let native = home()?.join("Library/Application Support/hogs/config.toml");
        if native.is_file() {
            return Some(native);
        }
    }
    let base = xdg.or_else(|| home().map(|h| h.join(".config")))?;
    Some(base.join("hogs").join("config.toml"))
}

/// Parses `argv` with the config file's settings in front of the user's arguments. Meant
/// to be called once a process: what clap builds for it is left to the exit, not freed.
pub fn parse_args(argv: Vec<OsString>) -> Result<Cli, ArgsError> {
    // The hidden opposites (`--no-reverse`, ...) are long options: arguments with none need
    // only the derived command, which is 30 arguments fewer to build at every start (a good
    // part of what parsing costs). The config file, if there is one, gets the full one.
    let any_long = argv
        .iter()
        .skip(1)
        .any(|a| a.as_encoded_bytes().starts_with(b"--"));
    // The command and the matches are not dropped: a run parses once, and freeing their
    // hundreds of small blocks was a visible share of a short run's instructions (and made
    // the next large allocation consolidate glibc's fast bins).
    let mut cmd = ManuallyDrop::new(if any_long {
        cli::command()
    } else {
        <Cli as clap::CommandFactory>::command()
    });
    // the user's arguments alone first: usage errors are theirs, and they say which file
    // (`_mut`: no copy of the command, 60 arguments, at every start; nor of the matches)
    let mut user = ManuallyDrop::new(
        cmd.try_get_matches_from_mut(&argv)
            .map_err(ArgsError::Usage)?,
    );
    let user = Cli::from_arg_matches_mut(&mut user).map_err(ArgsError::Usage)?;
    import_without_paths(&user, &cmd)?;
    let file = match (&user.config, user.no_config) {
        (_, true) => None,
        (Some(path), false) => Some((PathBuf::from(path), true)),
        (None, false) => default_path().map(|p| (p, false)),
    };
    let Some((path, named)) = file else {
        return Ok(user);
    };
    let text = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        // No default file, or one in a home we may not enter (`sudo -u nobody hogs`): no
        // settings. A file named with --config must be there.
        Err(e)
            if !named
                && matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied
                ) =>
        {
            return Ok(user)
        }
        Err(e) => {
            return Err(ArgsError::Config(format!(
                "cannot read config file '{}': {}",
                path.display(),
                e.raw_os_error()
                    .map_or_else(|| e.to_string(), crate::sys::describe)
            )))
        }
    };
    let interactive = matches!(
        user.paths.first().and_then(|p| p.to_str()),
        Some("i" | "interactive")
    );
    if !any_long {
        cmd = ManuallyDrop::new(cli::command()); // settings may turn flags off
    }
    let settings = settings_args(&path, &text, &cmd, interactive).map_err(ArgsError::Config)?;
    if settings.is_empty() {
        return Ok(user);
    }
    let mut all = Vec::with_capacity(argv.len() + settings.len());
    all.push(argv.first().cloned().unwrap_or_else(|| "hogs".into()));
    all.extend(settings);
    all.extend(argv.into_iter().skip(1));
    let mut matches = ManuallyDrop::new(
        cmd.try_get_matches_from_mut(all)
            .map_err(ArgsError::Usage)?,
    );
    Cli::from_arg_matches_mut(&mut matches).map_err(ArgsError::Usage)
}

/// `--import` replaces the scan, so no PATH goes with it — but `hogs i --import F` is fine:
/// that `i` names the view (clap's own `conflicts_with` cannot tell the two apart).
fn import_without_paths(user: &Cli, cmd: &clap::Command) -> Result<(), ArgsError> {
    let view = matches!(
        user.paths.first().and_then(|p| p.to_str()),
        Some("i" | "interactive")
    );
    let paths = user.paths.len() - usize::from(view);
    let listed = user.files_from.is_some() || user.files0_from.is_some();
    if user.import.is_some() && (paths > 0 || listed) {
        let mut cmd = cmd.clone();
        return Err(ArgsError::Usage(cmd.error(
            clap::error::ErrorKind::ArgumentConflict,
            "--import shows a saved scan: no PATH (nor --files-from) goes with it",
        )));
    }
    Ok(())
}

/// The flags a config file's text stands for, or the one-line error naming `path`, the line
/// and the key (for tests that feed it generated text).
pub fn check_text(path: &Path, bytes: &[u8]) -> Result<Vec<OsString>, String> {
    settings_args(path, bytes, &cli::command(), false)
}

/// The flags the file's settings stand for, each one checked.
fn settings_args(
    path: &Path,
    bytes: &[u8],
    cmd: &clap::Command,
    interactive: bool,
) -> Result<Vec<OsString>, String> {
    let file = path.display();
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = line_of(bytes, e.valid_up_to());
        format!("{file}:{line}: the config file is not UTF-8 text")
    })?;
    let table = DeTable::parse(text).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(text.as_bytes(), s.start));
        let message = e.message().lines().next().unwrap_or("invalid TOML").trim();
        format!("{file}:{line}: invalid TOML: {message}")
    })?;
    let mut keys: Vec<_> = table.get_ref().iter().collect();
    keys.sort_by_key(|(k, _)| k.span().start); // in file order: a later key wins
    let mut args = Vec::new();
    for (key, value) in keys {
        let line = line_of(text.as_bytes(), key.span().start);
        let name: &str = key.get_ref();
        let only_i = INTERACTIVE_ONLY.contains(&name);
        let these = key_args(name, value.get_ref(), cmd)
            .and_then(|a| check(&a, cmd, only_i).map(|()| a))
            .map_err(|why| format!("{file}:{line}: key '{name}': {why}"))?;
        if interactive || !only_i {
            args.extend(these);
        }
    }
    Ok(args)
}

/// 1-based line of a byte offset.
fn line_of(text: &[u8], offset: usize) -> usize {
    text[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The command-line form of one setting.
fn key_args(name: &str, value: &DeValue<'_>, cmd: &clap::Command) -> Result<Vec<OsString>, String> {
    let arg = cmd
        .get_arguments()
        .find(|a| a.get_long() == Some(name) && !a.is_hide_set())
        .filter(|_| !NOT_KEYS.contains(&name))
        .ok_or_else(|| "unknown key (keys are the long flags, as in `hogs --help`)".to_string())?;
    let scalar = |v: &DeValue<'_>| -> Result<String, String> {
        match v {
            DeValue::String(s) => Ok(s.to_string()),
            DeValue::Integer(i) if i.radix() == 10 => Ok(i.as_str().replace('_', "")),
            _ => Err("expected a string or a whole number".to_string()),
        }
    };
    match arg.get_action() {
        ArgAction::SetTrue => match value {
            DeValue::Boolean(true) => Ok(vec![format!("--{name}").into()]),
            DeValue::Boolean(false) => Ok(vec![format!("--{}", cli::opposite(name)).into()]),
            _ => Err("expected true or false".to_string()),
        },
        ArgAction::Append => {
            let items: Vec<String> = match value {
                DeValue::Array(items) => items
                    .iter()
                    .map(|v| scalar(v.get_ref()))
                    .collect::<Result<_, _>>()
                    .map_err(|_| "expected a list of strings".to_string())?,
                v => vec![scalar(v)?],
            };
            Ok(items
                .into_iter()
                .map(|v| format!("--{name}={v}").into())
                .collect())
        }
        _ => Ok(vec![format!("--{name}={}", scalar(value)?).into()]),
    }
}

/// Whether one setting is valid on its own: clap's checks, then those of [`Config`].
fn check(args: &[OsString], cmd: &clap::Command, interactive: bool) -> Result<(), String> {
    let mut argv: Vec<OsString> = vec!["hogs".into()];
    argv.extend(args.iter().cloned());
    if interactive {
        argv.push("i".into());
    }
    let clap_error = |e: clap::Error| {
        let text = e.to_string();
        let first = text.lines().next().unwrap_or("").trim();
        first.strip_prefix("error: ").unwrap_or(first).to_string()
    };
    let matches = cmd.clone().try_get_matches_from(argv).map_err(clap_error)?;
    let cli = Cli::from_arg_matches(&matches).map_err(clap_error)?;
    Config::from_cli(cli).map(|_| ()).map_err(|e| e.0)
}
