//! The config file: `$XDG_CONFIG_HOME/hogs/config.toml` (else `~/.config/hogs/config.toml`;
//! on macOS, `~/Library/Application Support/hogs/config.toml` where it exists, as dust reads
//! its own), or `--config FILE`; without one of hogs's own, dust's (`~/.dust.toml`, else
//! `$XDG_CONFIG_HOME/dust/config.toml` or `~/.config/dust/config.toml`), so a dust user's
//! settings carry over. Its keys are the long flags (`reverse = true`, `depth = 3`,
//! `ignore-directory = ["node_modules", ".git"]`), and dust's names for some of them
//! (`display-full-paths`, `display-apparent-size`, `no-bars`, `disable-progress`).
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
    "import-keep-first",
    "export",
    "export-extended",
    "export-format",
    "diff",
    "diff-root-any",
    "html",
    // a question asked of one scan (it also makes the walk record every entry's owner)
    "by-owner",
    // how the marked paths are written depends on the pipe they go to on this command line
    "null",
    // reading every file's extents costs a pass of its own: asked for per run
    "extents",
    // the history: each a command of its own, never a standing wish (a config file that
    // recorded every run into a database would surprise)
    "record",
    "history",
    "between",
    "trend",
    "prometheus",
    "forget-before",
];

/// dust's config keys that name a hogs flag differently: (dust's key, hogs's long flag).
const DUST_KEYS: &[(&str, &str)] = &[
    ("display-full-paths", "full-paths"),
    ("display-apparent-size", "apparent-size"),
    ("no-bars", "no-percent-bars"),
    ("disable-progress", "no-progress"),
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
    #[cfg(target_os = "macos")]
    if std::env::var_os("XDG_CONFIG_HOME").is_none() {
        // the place of macOS for settings, where the user made it; else ~/.config as on Linux
        let native = home()?.join("Library/Application Support/hogs/config.toml");
        if native.is_file() {
            return Some(native);
        }
    }
    Some(config_home()?.join("hogs").join("config.toml"))
}

/// `$XDG_CONFIG_HOME`, else `~/.config`.
fn config_home() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute()); // the spec says to ignore a relative one
    xdg.or_else(|| home().map(|h| h.join(".config")))
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// Where settings come from without `--config`: hogs's own file, else the first of dust's
/// that exists (read as dust reads it: a key that is wrong there is skipped with a warning).
fn default_file() -> Option<(PathBuf, Source)> {
    let own = default_path();
    if let Some(own) = own.filter(|p| p.exists()) {
        return Some((own, Source::Own));
    }
    let dust = [
        home().map(|h| h.join(".dust.toml")),
        config_home().map(|c| c.join("dust").join("config.toml")),
    ];
    dust.into_iter()
        .flatten()
        .find(|p| p.is_file())
        .map(|p| (p, Source::Dust))
}

/// Whose file the settings are read from.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Source {
    /// hogs's default file: a bad key is an error.
    Own,
    /// Named with `--config`: a bad key is an error; a missing file a warning (as dust).
    Named,
    /// dust's: written for dust, so a key hogs cannot take is skipped with a warning.
    Dust,
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
    // the next large allocation consolidate glibc's fast bins; 752k -> 646k instructions, 1.18
    // -> 1.12 ms a start: docs/BENCHMARKS.md, "Cold cache and start-up").
    let mut cmd = ManuallyDrop::new(if any_long {
        cli::command()
    } else {
        <Cli as clap::CommandFactory>::command()
    });
    // the user's arguments alone first: usage errors are theirs, and they say which file
    // (`_mut`: no copy of the command, 60 arguments, at every start; nor of the matches)
    let mut user = ManuallyDrop::new(
        cmd.try_get_matches_from_mut(&argv)
            .map_err(usage_or_value)?,
    );
    let user = Cli::from_arg_matches_mut(&mut user).map_err(usage_or_value)?;
    import_without_paths(&user, &cmd)?;
    let file = match (&user.config, user.no_config) {
        (_, true) => None,
        (Some(path), false) => Some((PathBuf::from(path), Source::Named)),
        (None, false) => default_file(),
    };
    let Some((path, source)) = file else {
        return Ok(user);
    };
    let text = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        // A default file in a home we may not enter (`sudo -u nobody hogs`): no settings.
        Err(e)
            if source != Source::Named
                && matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied
                ) =>
        {
            return Ok(user)
        }
        // a file named with --config that is not there: said, and the run goes on without
        // it, as dust does
        Err(e) => {
            crate::error::say(format!(
                "warning: cannot read config file '{}': {}; going on without it",
                path.display(),
                e.raw_os_error()
                    .map_or_else(|| e.to_string(), crate::sys::describe)
            ));
            return Ok(user);
        }
    };
    let interactive = matches!(
        user.paths.first().and_then(|p| p.to_str()),
        Some("i" | "interactive")
    );
    if !any_long {
        cmd = ManuallyDrop::new(cli::command()); // settings may turn flags off
    }
    let settings = settings_args(&path, &text, &cmd, interactive, source == Source::Dust)
        .map_err(ArgsError::Config)?;
    if settings.is_empty() {
        return Ok(user);
    }
    let mut all = Vec::with_capacity(argv.len() + settings.len());
    all.push(argv.first().cloned().unwrap_or_else(|| "hogs".into()));
    all.extend(settings);
    all.extend(argv.into_iter().skip(1));
    let mut matches = ManuallyDrop::new(cmd.try_get_matches_from_mut(all).map_err(usage_or_value)?);
    Cli::from_arg_matches_mut(&mut matches).map_err(usage_or_value)
}

/// A value clap refuses (`-o xx`, `-m z`) is said as every other bad value is: one line,
/// `invalid value 'X' for --flag: …`, status 1. What is not a value (an unknown flag, a flag
/// without its value) stays clap's usage error, status 2.
fn usage_or_value(e: clap::Error) -> ArgsError {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if !matches!(
        e.kind(),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation
    ) {
        return ArgsError::Usage(e);
    }
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let (Some(arg), Some(value)) = (
        text(ContextKind::InvalidArg),
        text(ContextKind::InvalidValue),
    ) else {
        return ArgsError::Usage(e);
    };
    if value.is_empty() {
        return ArgsError::Usage(e); // `-d` with nothing after it: no value was given
    }
    // "--output-format <FORMAT>" → "--output-format"
    let flag = arg.split(' ').next().unwrap_or(&arg);
    let why = match e.get(ContextKind::ValidValue) {
        Some(ContextValue::Strings(valid)) if !valid.is_empty() => {
            format!("expected one of {}", valid.join(", "))
        }
        _ => "not accepted".to_owned(),
    };
    ArgsError::Config(format!("invalid value '{value}' for {flag}: {why}"))
}

/// `--import` replaces the scan, so no PATH goes with it — but `hogs i --import F` is fine:
/// that `i` names the view (clap's own `conflicts_with` cannot tell the two apart).
fn import_without_paths(user: &Cli, cmd: &clap::Command) -> Result<(), ArgsError> {
    let view = matches!(
        user.paths.first().and_then(|p| p.to_str()),
        Some("i" | "interactive")
    );
    // several files after one --import are parts of a merge; a directory among them
    // (after the first, which is imported or refused as it is) is a PATH given with it
    let dirs = user
        .import
        .iter()
        .skip(1)
        .filter(|f| std::fs::metadata(f).is_ok_and(|m| m.is_dir()))
        .count();
    let paths = user.paths.len() - usize::from(view) + dirs;
    let listed = user.files_from.is_some() || user.files0_from.is_some();
    if !user.import.is_empty() && (paths > 0 || listed) {
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
    settings_args(path, bytes, &cli::command(), false, false)
}

/// The flags the file's settings stand for, each one checked.
fn settings_args(
    path: &Path,
    bytes: &[u8],
    cmd: &clap::Command,
    interactive: bool,
    lenient: bool,
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
            .map_err(|why| format!("{file}:{line}: key '{name}': {why}"));
        let these = match these {
            Ok(these) => these,
            Err(e) if lenient => {
                crate::error::say(format!("warning: {e}; ignored"));
                continue;
            }
            Err(e) => return Err(e),
        };
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
    if name == "stack-size" {
        return Ok(Vec::new()); // dust's: the walk does not recurse, there is nothing to size
    }
    let name = DUST_KEYS
        .iter()
        .find(|(dust, _)| *dust == name)
        .map_or(name, |(_, hogs)| hogs);
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
