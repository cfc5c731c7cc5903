//! The validated, immutable settings every other module reads.
//!
//! All decisions that depend on the environment (is stdout a terminal, how wide is it, is
//! `NO_COLOR` set) are taken here once, so renderers are pure functions of (tree, Config).

pub mod arg_files;
pub mod cli;
pub mod file;
pub mod mode;
mod needs;
#[cfg(test)]
mod walk_table;

use std::ffi::OsString;
use std::io::IsTerminal;

use regex::bytes::Regex;

use crate::render::ViewOptions;
use crate::tree::{PathFilters, TimeFilter};
use crate::units::parse_size;
use crate::vocab::{trim_trailing_slashes, TimeField, UnitStyle};
use crate::walk::{Exclusions, WalkOptions};
use cli::{Cli, FileTime, OutputFormat};
pub use mode::{
    DiffOptions, ExportFormat, ExportTarget, Form, HtmlReport, Interactive, Mode, Rows, View,
};
pub use needs::{Identities, Needs};

/// `--import FILE…`: the exports to load instead of walking, merged when there are several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imports {
    /// One or more files (`-`: stdin, alone).
    pub files: Vec<OsString>,
    /// Overlapping parts keep what the one given first has (`--import-keep-first`).
    pub keep_first: bool,
}

/// What the run found out about where it is: read once, here, and nowhere else.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Terminals {
    /// stdout is a terminal: names are escaped for it, colours and the fitted size apply.
    pub stdout: bool,
    /// stderr is a terminal: the progress line is drawn, names in messages are escaped.
    pub stderr: bool,
}

/// Everything the program needs to know, decided once.
#[derive(Clone, Debug)]
pub struct Config {
    pub paths: Vec<OsString>,
    pub walk: WalkOptions,
    pub filters: PathFilters,
    pub view: ViewOptions,
    /// What the run does.
    pub mode: Mode,
    /// Draw a progress line on stderr during long scans.
    pub progress: bool,
    /// Load this ncdu-format file (`-`: stdin) instead of walking `paths`. The walk options
    /// do not apply, and the tree is not the filesystem here: views must not offer to delete
    /// or rescan anything (the interactive view checks this).
    pub import: Option<Imports>,
    /// `-S` was given: it does nothing, and the printed runs say so once.
    pub stack_size_ignored: bool,
    /// Which of stdout and stderr are terminals.
    pub terminals: Terminals,
    /// What was changed of what the user asked (a value past its cap): said once on stderr
    /// before the run.
    pub notes: Vec<String>,
    /// `--exit-zero`: status 0 though something could not be read (dust's convention).
    pub exit_zero: bool,
    /// `--extents`: after the walk, count files by their extents (disk sizes only; not with
    /// `--import`, whose tree is not the filesystem).
    pub extents: bool,
}

/// The most walker threads: past a few hundred, more threads only wait on the same disk
/// queue and each idle one still costs the pool (rayon's idle threads look for work in
/// every other thread's queue before they sleep).
pub const MAX_THREADS: usize = 256;

/// The widest output: wider than any terminal, and a row is built whole before it is
/// written, so a huge `-w` would only cost memory and time.
pub const MAX_WIDTH: usize = 4096;

/// A user error in an option value: printed as one line, exit status 1.
#[derive(Debug)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn parse_count(value: &str, flag: &str, min: usize) -> Result<usize, ConfigError> {
    match value.trim().parse::<usize>() {
        Ok(n) if n >= min => Ok(n),
        Ok(_) => Err(ConfigError(format!(
            "invalid value '{value}' for {flag}: must be at least {min}"
        ))),
        Err(_) => Err(ConfigError(format!(
            "invalid value '{value}' for {flag}: expected a whole number"
        ))),
    }
}

fn compile_all(patterns: &[String], flag: &str) -> Result<Vec<Regex>, ConfigError> {
    patterns
        .iter()
        .map(|p| {
            Regex::new(p).map_err(|e| {
                // regex errors span several lines; the first names the problem
                let detail = e.to_string();
                let last = detail.lines().last().unwrap_or("").trim().to_string();
                ConfigError(format!("invalid regex '{p}' for {flag}: {last}"))
            })
        })
        .collect()
}

/// The terminal's size (columns, rows): of the first of stdout, stderr and stdin that is one,
/// as dust asks (`hogs | less` fits the terminal the pager draws on).
fn terminal_size() -> Option<(usize, usize)> {
    fn of(fd: impl std::os::fd::AsFd) -> Option<(usize, usize)> {
        let ws = rustix::termios::tcgetwinsize(fd).ok()?;
        (ws.ws_col > 0 && ws.ws_row > 0).then_some((ws.ws_col as usize, ws.ws_row as usize))
    }
    of(std::io::stdout())
        .or_else(|| of(std::io::stderr()))
        .or_else(|| of(std::io::stdin()))
}

/// dust's `-n` when none is given: the terminal's height less 10 (at least 30 rows counted,
/// so at least 20 lines), and 20 when there is no terminal. The root's row comes on top.
fn default_lines(term: Option<(usize, usize)>) -> usize {
    const DEFAULT_HEIGHT: usize = 30;
    term.map_or(DEFAULT_HEIGHT, |(_, rows)| rows.max(DEFAULT_HEIGHT)) - 10
}

impl Config {
    pub fn from_cli(mut cli: Cli) -> Result<Config, ConfigError> {
        let interactive = mode::take_interactive(&mut cli)?;
        let stdout = std::io::stdout().is_terminal();
        let mut numbers = Numbers::parse(&cli, terminal_size())?;
        let filters = path_filters(&cli)?;
        let mut exclusions = Exclusions {
            hidden: cli.ignore_hidden,
            ..Exclusions::default()
        };
        (exclusions.names, exclusions.paths) =
            names_and_paths(&cli.ignore_directory, "--ignore-directory")?;
        let mut collapse = names_and_paths(&cli.collapse, "--collapse")?;
        let mut paths = paths(&mut cli)?;
        exclusions.paths = as_walked(exclusions.paths, &paths);
        collapse.1 = as_walked(collapse.1, &paths);
        let mut import = (!cli.import.is_empty()).then(|| Imports {
            files: std::mem::take(&mut cli.import),
            keep_first: cli.import_keep_first,
        });
        let mode = mode::decide(&cli, interactive, &mut paths, &mut import)?;
        // an empty name among others is skipped with a warning (as dust), but with nothing
        // else to scan the run would print nothing and succeed, and -O would leave an old
        // export in place as if it were this one
        if import.is_none() && !paths.is_empty() && paths.iter().all(|p| p.is_empty()) {
            return Err(ConfigError(
                "invalid zero-length file name: nothing to scan".into(),
            ));
        }
        if matches!(mode, Mode::Print(_) | Mode::Html(_)) {
            paths = outermost(paths);
        }
        if cli.number_of_lines.is_none() && matches!(mode, Mode::Print(v) if v.form == Form::Json) {
            // JSON goes to a program, not a screen: every row, as dust's -j
            numbers.lines = usize::MAX;
        }
        let terminals = Terminals {
            stdout,
            stderr: std::io::stderr().is_terminal(),
        };
        // extents tell disk sizes of a walk: not apparent sizes, counts, times or an import
        let extents = cli.extents
            && import.is_none()
            && !cli.apparent_size
            && !cli.filecount
            && cli.filetime.is_none();
        // an export marks what -X and hidden left out where it was listed, as ncdu does
        exclusions.mark = matches!(mode, Mode::Export(_));
        let roots = paths.len();
        let needs = mode.needs(numbers.depth) | needs::of_options(&cli, &filters, import.is_some());
        Ok(Config {
            paths,
            walk: needs::walk_options(&cli, needs, numbers.threads, exclusions, roots),
            filters,
            view: view_options(&cli, &numbers, collapse, stdout),
            progress: !cli.no_progress && terminals.stderr,
            mode,
            import,
            stack_size_ignored: cli.stack_size.is_some(),
            extents,
            terminals,
            notes: numbers.notes,
            exit_zero: cli.exit_zero,
        })
    }
}

/// The numbers of the command line, checked, with the terminal's size where none was given.
struct Numbers {
    depth: Option<usize>,
    /// Rows below the root (the one path, or "(total)"), as dust's `-n` counts them.
    lines: usize,
    threads: Option<usize>,
    width: usize,
    min_size: Option<u64>,
    /// Values past their cap, said as notes.
    notes: Vec<String>,
}

impl Numbers {
    fn parse(cli: &Cli, term: Option<(usize, usize)>) -> Result<Numbers, ConfigError> {
        let depth = cli
            .depth
            .as_deref()
            .map(|d| parse_count(d, "--depth", 0))
            .transpose()?;
        let lines = match cli.number_of_lines.as_deref() {
            Some(n) => parse_count(n, "--number-of-lines", 0)?,
            // a depth asks for every row down to it, as in dust
            None if depth.is_some() => usize::MAX,
            None => default_lines(term),
        };
        let mut notes = Vec::new();
        let threads = cli
            .threads
            .as_deref()
            .map(|t| parse_count(t, "--threads", 1))
            .transpose()?
            .map(|t| capped(t, MAX_THREADS, "--threads", &mut notes));
        let width = match cli.terminal_width.as_deref() {
            Some(w) => parse_count(w, "--terminal-width", 1)?,
            None => term.map_or(80, |(cols, _)| cols),
        };
        let width = capped(width, MAX_WIDTH, "--terminal-width", &mut notes);
        let min_size = cli
            .min_size
            .as_deref()
            .map(|s| {
                parse_size(s).ok_or_else(|| {
                    ConfigError(format!(
                        "invalid value '{s}' for --min-size: expected a size such as 500, 20K, 1.5M or 2G"
                    ))
                })
            })
            .transpose()?;
        Ok(Numbers {
            depth,
            lines,
            threads,
            width,
            min_size,
            notes,
        })
    }
}

/// `value`, or `cap` with a note saying so when it is more.
fn capped(value: usize, cap: usize, flag: &str, notes: &mut Vec<String>) -> usize {
    if value > cap {
        notes.push(format!(
            "note: {flag} {value} is more than {cap}: using {cap}"
        ));
    }
    value.min(cap)
}

/// `-e`, `-v`, `-I` and the time filters (`-I`'s file is read here).
fn path_filters(cli: &Cli) -> Result<PathFilters, ConfigError> {
    let include = compile_all(&cli.filter, "--filter")?;
    let mut exclude = compile_all(&cli.invert_filter, "--invert-filter")?;
    if let Some(f) = &cli.ignore_all_in_file {
        exclude.extend(arg_files::ignore_regexes(f)?);
    }
    Ok(PathFilters {
        include,
        exclude,
        times: time_filters(cli)?,
    })
}

fn time_filters(cli: &Cli) -> Result<Vec<TimeFilter>, ConfigError> {
    let now = crate::export::now().min(i64::MAX as u64) as i64;
    let mut v = Vec::new();
    for (value, field, flag) in [
        (&cli.mtime, TimeField::Modified, "--mtime"),
        (&cli.atime, TimeField::Accessed, "--atime"),
        (&cli.ctime, TimeField::Changed, "--ctime"),
    ] {
        if let Some(value) = value {
            v.push(TimeFilter::parse(value, field, now).ok_or_else(|| {
                ConfigError(format!(
                    "invalid value '{value}' for {flag}: expected +N, N or -N (days)"
                ))
            })?);
        }
    }
    Ok(v)
}

/// The paths to scan: as given, then those of `--files-from` and `--files0-from` (read
/// here); `.` when none was given and no list was asked for.
fn paths(cli: &mut Cli) -> Result<Vec<OsString>, ConfigError> {
    let listed = cli.files_from.is_some() || cli.files0_from.is_some();
    let mut paths = std::mem::take(&mut cli.paths);
    if let Some(f) = &cli.files_from {
        paths.extend(arg_files::paths_from_lines(f)?);
    }
    if let Some(f) = &cli.files0_from {
        paths.extend(arg_files::paths_from_nul(f)?);
    }
    if paths.is_empty() && !listed {
        paths.push(OsString::from("."));
    }
    Ok(paths)
}

/// The paths of a printed view without those another one holds (`d/many` and `d`, `d` and
/// `d/`, `d` and `$PWD/d/.`): one tree, as dust merges `d/many d` into `d`, not a second root
/// the first already counted. Paths are compared resolved (as written when they do not
/// exist), by components; the first spelling of equal paths is kept; an empty path stays
/// (the walk warns of it).
fn outermost(paths: Vec<OsString>) -> Vec<OsString> {
    use crate::render::labels::dust_path;
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let keys: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| match std::fs::canonicalize(p) {
            Ok(real) => real.into_os_string().into_vec(),
            Err(_) => dust_path(p.as_bytes()),
        })
        .collect();
    let mut first: rustc_hash::FxHashMap<&[u8], usize> = Default::default();
    for (i, k) in keys.iter().enumerate().rev() {
        first.insert(k, i);
    }
    // the proper prefixes of a normalised path, component by component
    let held = |k: &[u8]| {
        let root = (k.len() > 1 && k[0] == b'/').then_some(1);
        let cuts = k.iter().enumerate().skip(1).filter(|(_, &b)| b == b'/');
        root.into_iter()
            .chain(cuts.map(|(i, _)| i))
            .any(|cut| first.contains_key(&k[..cut]))
    };
    let keep: Vec<bool> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| paths[i].is_empty() || first.get(&k[..]) == Some(&i) && !held(k))
        .collect();
    paths
        .into_iter()
        .zip(keep)
        .filter_map(|(p, k)| k.then_some(p))
        .collect()
}

fn filetime(cli: &Cli) -> Option<TimeField> {
    cli.filetime.map(|f| match f {
        FileTime::A => TimeField::Accessed,
        FileTime::C => TimeField::Changed,
        FileTime::M => TimeField::Modified,
    })
}

/// How the printed views look.
fn view_options(
    cli: &Cli,
    numbers: &Numbers,
    collapse: NamesAndPaths,
    stdout: bool,
) -> ViewOptions {
    let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    ViewOptions {
        depth: numbers.depth,
        lines: numbers.lines,
        reverse: cli.reverse,
        min_size: numbers.min_size,
        bars: !cli.no_percent_bars,
        bars_on_right: cli.bars_on_right,
        color: cli.force_colors || (stdout && !cli.no_colors && !no_color_env),
        full_paths: cli.full_paths,
        only_dirs: cli.only_dir,
        width: numbers.width,
        skip_total: cli.skip_total,
        collapse,
        filetime: filetime(cli),
        dim: cli.dim,
        units: units(cli.output_format),
        to_terminal: stdout,
    }
}

fn units(format: Option<OutputFormat>) -> UnitStyle {
    match format {
        None => UnitStyle::HumanIec,
        Some(OutputFormat::Si) => UnitStyle::HumanSi,
        Some(OutputFormat::B) => UnitStyle::Plain,
        Some(OutputFormat::K) => UnitStyle::Fixed(1 << 10, "Ki"),
        Some(OutputFormat::M) => UnitStyle::Fixed(1 << 20, "Mi"),
        Some(OutputFormat::G) => UnitStyle::Fixed(1 << 30, "Gi"),
        Some(OutputFormat::T) => UnitStyle::Fixed(1 << 40, "Ti"),
        Some(OutputFormat::Kb) => UnitStyle::Fixed(1_000, "K"),
        Some(OutputFormat::Mb) => UnitStyle::Fixed(1_000_000, "M"),
        Some(OutputFormat::Gb) => UnitStyle::Fixed(1_000_000_000, "G"),
        Some(OutputFormat::Tb) => UnitStyle::Fixed(1_000_000_000_000, "T"),
    }
}

/// Values that name an entry anywhere (`node_modules`) or one exact path (`src/target`, as
/// the walk spells it: the path as typed, then '/'-joined names): (names, paths).
type NamesAndPaths = (Vec<Vec<u8>>, Vec<Vec<u8>>);

/// `-X` and `--collapse` paths in every spelling the walk may meet them in: as typed, and,
/// for each scanned path that holds the same file (compared once both are resolved: `p/q`
/// from the working directory, `$PWD/p/q`, a path through a symlink), the scanned path as
/// typed followed by the rest. A path that does not exist keeps its one spelling.
fn as_walked(patterns: Vec<Vec<u8>>, roots: &[OsString]) -> Vec<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    if patterns.is_empty() {
        return patterns;
    }
    let roots: Vec<(&[u8], std::path::PathBuf)> = roots
        .iter()
        .filter_map(|r| Some((r.as_bytes(), std::fs::canonicalize(r).ok()?)))
        .collect();
    let mut all = patterns.clone();
    for p in &patterns {
        let Ok(real) = std::fs::canonicalize(std::ffi::OsStr::from_bytes(p)) else {
            continue;
        };
        for (typed, root) in &roots {
            let Ok(rest) = real.strip_prefix(root) else {
                continue;
            };
            if rest.as_os_str().is_empty() {
                continue; // the root itself is never left out
            }
            let mut spelled = trim_trailing_slashes(typed).to_vec();
            if spelled != b"/" {
                spelled.push(b'/');
            }
            spelled.extend_from_slice(rest.as_os_str().as_bytes());
            if !all.contains(&spelled) {
                all.push(spelled);
            }
        }
    }
    all
}

fn names_and_paths(values: &[OsString], flag: &str) -> Result<NamesAndPaths, ConfigError> {
    let (mut names, mut paths) = (Vec::new(), Vec::new());
    for x in values {
        let bytes = std::os::unix::ffi::OsStrExt::as_bytes(x.as_os_str());
        if bytes.is_empty() {
            return Err(ConfigError(format!("invalid value '' for {flag}")));
        }
        let trimmed = trim_trailing_slashes(bytes);
        if trimmed.contains(&b'/') {
            paths.push(trimmed.to_vec());
        } else {
            names.push(trimmed.to_vec());
        }
    }
    Ok((names, paths))
}
