//! The validated, immutable settings every other module reads.
//!
//! All decisions that depend on the environment (is stdout a terminal, how wide is it, is
//! `NO_COLOR` set) are taken here once, so renderers are pure functions of (tree, Config).

pub mod arg_files;
pub mod cli;
pub mod file;

use std::ffi::{OsStr, OsString};
use std::io::IsTerminal;

use regex::bytes::Regex;

use crate::render::ViewOptions;
use crate::tree::{PathFilters, TimeFilter};
use crate::units::parse_size;
use crate::vocab::{trim_trailing_slashes, SizeMode, TimeField, UnitStyle};
use crate::walk::{Exclusions, WalkOptions};
use cli::{Cli, FileTime, OutputFormat};

/// Where and how `--export` writes the scan.
#[derive(Clone, Debug)]
pub struct ExportTarget {
    /// The file to write; `-` is stdout.
    pub file: OsString,
    /// ncdu's extended mode: mtime, uid, gid and mode of every entry.
    pub extended: bool,
}

/// `--diff`: compare with an earlier scan.
#[derive(Clone, Debug)]
pub struct DiffOptions {
    /// The earlier scan: an ncdu-format export (`-`: stdin).
    pub old: OsString,
    /// Compare even when the two scans are of different directories (`--diff-root-any`).
    pub root_any: bool,
}

/// Settings of the interactive view (`hogs i`).
#[derive(Clone, Debug, Default)]
pub struct Interactive {
    /// `d` and `t` do nothing (`--no-delete`).
    pub no_delete: bool,
    /// Print the marked paths on exit (`--print-marked`).
    pub print_marked: bool,
}

/// Everything the program needs to know, decided once.
#[derive(Clone, Debug)]
pub struct Config {
    pub paths: Vec<OsString>,
    pub walk: WalkOptions,
    pub filters: PathFilters,
    pub view: ViewOptions,
    /// Draw a progress line on stderr during long scans.
    pub progress: bool,
    /// Write the scan in ncdu's format instead of showing a view.
    pub export: Option<ExportTarget>,
    /// Load this ncdu-format file (`-`: stdin) instead of walking `paths`. The walk options
    /// do not apply, and the tree is not the filesystem here: views must not offer to delete
    /// or rescan anything (the interactive view checks this).
    pub import: Option<OsString>,
    /// Show what changed since this earlier scan instead of the scan itself. The new scan is
    /// `paths[0]` walked, or [`Config::import`].
    pub diff: Option<DiffOptions>,
    /// `-S` was given: it does nothing, and `run` says so once.
    pub stack_size_ignored: bool,
    /// `Some`: run the interactive view instead of printing.
    pub interactive: Option<Interactive>,
}

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

/// Terminal size of stdout, when it is one.
fn terminal_size() -> Option<(usize, usize)> {
    let ws = rustix::termios::tcgetwinsize(std::io::stdout()).ok()?;
    (ws.ws_col > 0 && ws.ws_row > 0).then_some((ws.ws_col as usize, ws.ws_row as usize))
}

impl Config {
    pub fn from_cli(mut cli: Cli) -> Result<Config, ConfigError> {
        // `hogs i [PATH...]`: the first path names the view (a directory `i` is `./i`)
        let interactive = matches!(
            cli.paths.first().and_then(|p| p.to_str()),
            Some("i" | "interactive")
        );
        let interactive = if interactive {
            cli.paths.remove(0);
            Some(Interactive {
                no_delete: cli.no_delete,
                print_marked: cli.print_marked,
            })
        } else {
            for (set, flag) in [
                (cli.no_delete, "--no-delete"),
                (cli.print_marked, "--print-marked"),
            ] {
                if set {
                    return Err(ConfigError(format!(
                        "{flag} only applies to the interactive view (`hogs i`)"
                    )));
                }
            }
            None
        };
        let stdout_tty = std::io::stdout().is_terminal();
        let term = if stdout_tty { terminal_size() } else { None };

        let mode = if cli.filetime.is_some() {
            SizeMode::Time
        } else if cli.filecount {
            SizeMode::Count
        } else if cli.apparent_size {
            SizeMode::Apparent
        } else {
            SizeMode::Disk
        };
        let depth = cli
            .depth
            .as_deref()
            .map(|d| parse_count(d, "--depth", 0))
            .transpose()?;
        let lines = match cli.number_of_lines.as_deref() {
            Some(n) => parse_count(n, "--number-of-lines", 0)?,
            // dust's default: fit the terminal, keeping room for the prompt
            None => term.map_or(30, |(_, rows)| rows.saturating_sub(10).max(1)),
        };
        let threads = cli
            .threads
            .as_deref()
            .map(|t| parse_count(t, "--threads", 1))
            .transpose()?;
        let width = match cli.terminal_width.as_deref() {
            Some(w) => parse_count(w, "--terminal-width", 1)?,
            None => term.map_or(80, |(cols, _)| cols),
        };
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
        let filters = PathFilters {
            include: compile_all(&cli.filter, "--filter")?,
            exclude: {
                let mut v = compile_all(&cli.invert_filter, "--invert-filter")?;
                if let Some(f) = &cli.ignore_all_in_file {
                    v.extend(arg_files::ignore_regexes(f)?);
                }
                v
            },
            times: {
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
                v
            },
        };
        let filetime = cli.filetime.map(|f| match f {
            FileTime::A => TimeField::Accessed,
            FileTime::C => TimeField::Changed,
            FileTime::M => TimeField::Modified,
        });

        let mut exclusions = Exclusions {
            hidden: cli.ignore_hidden,
            ..Exclusions::default()
        };
        (exclusions.names, exclusions.paths) =
            names_and_paths(&cli.ignore_directory, "--ignore-directory")?;
        let (collapse_names, collapse_paths) = names_and_paths(&cli.collapse, "--collapse")?;

        let export = cli.export.map(|file| ExportTarget {
            file,
            extended: cli.export_extended,
        });
        let listed = cli.files_from.is_some() || cli.files0_from.is_some();
        let mut paths = cli.paths;
        if let Some(f) = &cli.files_from {
            paths.extend(arg_files::paths_from_lines(f)?);
        }
        if let Some(f) = &cli.files0_from {
            paths.extend(arg_files::paths_from_nul(f)?);
        }
        if paths.is_empty() && !listed {
            paths.push(OsString::from("."));
        }
        if export.is_some() && interactive.is_some() {
            return Err(ConfigError(
                "--export does not apply to the interactive view (`hogs i`)".into(),
            ));
        }
        if export.is_some() && paths.len() != 1 {
            return Err(ConfigError(
                "--export writes one directory: give a single path".into(),
            ));
        }
        let mut import = cli.import;
        let diff = match cli.diff {
            None => None,
            Some(old) => {
                let clash = if export.is_some() {
                    Some("--export")
                } else if cli.only_file {
                    Some("--only-file")
                } else if !cli.collapse.is_empty() {
                    Some("--collapse")
                } else if cli.file_types {
                    Some("--file-types")
                } else if cli.filetime.is_some() {
                    Some("--filetime") // a newest time has no change to show
                } else if cli.screen_reader {
                    Some("--screen-reader")
                } else {
                    None
                };
                if let Some(flag) = clash {
                    return Err(ConfigError(format!("{flag} does not apply to --diff")));
                }
                new_scan_of_diff(&old, &mut paths, &mut import)?;
                Some(DiffOptions {
                    old,
                    root_any: cli.diff_root_any,
                })
            }
        };

        let units = match cli.output_format {
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
        };
        let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = cli.force_colors || (stdout_tty && !cli.no_colors && !no_color_env);

        Ok(Config {
            paths,
            walk: WalkOptions {
                // an export records both sizes of every entry, whatever -s or -f say
                mode: if export.is_some() && mode == SizeMode::Count {
                    SizeMode::Disk
                } else {
                    mode
                },
                one_filesystem: cli.limit_filesystem,
                follow_links: cli.dereference_links,
                exclusions,
                threads,
                // devices and inodes name mount points and hard links in an export, and
                // deleting in the interactive view re-checks them
                keep_identity: export.is_some() || interactive.is_some(),
                // the time filters and -m read times (and stat every entry, even with -f)
                keep_extra: export.as_ref().is_some_and(|e| e.extended)
                    || !filters.times.is_empty()
                    || filetime.is_some(),
                // only the paths' own lines are shown, no file below them: -d 0 of the tree
                // of bars, with nothing that looks at files one by one (-e, -v, time
                // filters, -t, -F, -m) or keeps them (exports, the interactive view, --diff)
                fold_files: depth == Some(0)
                    && export.is_none()
                    && interactive.is_none()
                    && diff.is_none()
                    && import.is_none()
                    && !cli.output_json
                    && !cli.only_file
                    && !cli.file_types
                    && !filters.is_active()
                    && filetime.is_none(),
            },
            filters,
            view: ViewOptions {
                depth,
                lines,
                reverse: cli.reverse,
                min_size,
                bars: !cli.no_percent_bars,
                bars_on_right: cli.bars_on_right,
                color,
                full_paths: cli.full_paths,
                only_dirs: cli.only_dir,
                only_files: cli.only_file,
                json: cli.output_json,
                width,
                skip_total: cli.skip_total,
                collapse: (collapse_names, collapse_paths),
                filetime,
                file_types: cli.file_types,
                screen_reader: cli.screen_reader,
                dim: cli.dim,
                units,
                to_terminal: stdout_tty,
            },
            progress: !cli.no_progress && std::io::stderr().is_terminal(),
            export,
            import,
            diff,
            stack_size_ignored: cli.stack_size.is_some(),
            interactive,
        })
    }
}

/// Values that name an entry anywhere (`node_modules`) or one exact path (`src/target`, as
/// the walk spells it: the path as typed, then '/'-joined names): (names, paths).
type NamesAndPaths = (Vec<Vec<u8>>, Vec<Vec<u8>>);

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

/// Decides where the new side of `--diff OLD` comes from. A PATH that is a regular file is
/// another export: the top of an export is always a directory, so a scan of a lone file could
/// never be compared with one, and telling the two apart by the file type needs no guess at
/// its contents. Two exports can also be given as `--diff OLD --import NEW` (NEW may be `-`).
/// The interactive view shows a NEW export as it shows `--import`: read-only.
fn new_scan_of_diff(
    old: &OsString,
    paths: &mut Vec<OsString>,
    import: &mut Option<OsString>,
) -> Result<(), ConfigError> {
    if import.is_none() {
        if paths.len() != 1 {
            return Err(ConfigError(
                "--diff compares one directory: give a single path".into(),
            ));
        }
        if std::fs::metadata(&paths[0]).is_ok_and(|m| m.is_file()) {
            *import = Some(paths.remove(0));
        }
    }
    if import.as_deref() == Some(OsStr::new("-")) && old == "-" {
        return Err(ConfigError(
            "--diff: the old and the new scan cannot both come from stdin".into(),
        ));
    }
    Ok(())
}
