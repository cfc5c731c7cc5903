//! What a run does ([`Mode`]), decided once from the flags, and the flags that cannot go
//! together: the one place that knows which options belong to which mode.

use std::ffi::{OsStr, OsString};

use super::cli::Cli;
pub use super::cli::ExportFormat;
use super::needs::{Identities, Needs};
use super::ConfigError;

/// What a run does. `main` matches on it once; each arm is one run of `crate::app` (or the
/// interactive view of `crate::tui`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Print a view of the scan (the default): which rows, in which form.
    Print(View),
    /// `-O FILE`: write the scan in ncdu's format instead of showing it.
    Export(ExportTarget),
    /// `--diff OLD`: print what changed since an earlier scan, as bars or (`-j`) as JSON.
    Diff { diff: DiffOptions, json: bool },
    /// `hogs i`: the full-screen view.
    Interactive(Interactive),
    /// `--html FILE`: write the scan as one HTML page.
    Html(HtmlReport),
}

/// What `--html` writes, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtmlReport {
    /// The file to write; `-` is stdout.
    pub file: OsString,
    /// What the page shows: the tree (coloured by kind), or with `--by-owner` the tree
    /// coloured by owner (`-t` and `-F` are refused).
    pub rows: Rows,
    /// `--diff OLD`: the changes since OLD, coloured by growth.
    pub diff: Option<DiffOptions>,
}

impl HtmlReport {
    /// The page holds every file it may show, with its time (hover and focus say it).
    pub const NEEDS: Needs = Needs {
        times: true,
        ..Needs::FILES
    };
}

/// A printed view of the scan.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    pub rows: Rows,
    pub form: Form,
}

impl View {
    /// What the view reads of the scan, down to `depth` (`-d`).
    pub fn needs(&self, depth: Option<usize>) -> Needs {
        let needs = match (self.rows, self.form) {
            // -d 0 shows only the paths' own lines: their totals, no file below them
            (Rows::Tree, Form::Bars | Form::ScreenReader) => Needs {
                files: depth != Some(0),
                ..Needs::TOTALS
            },
            (Rows::Tree, Form::Json) | (Rows::OnlyFiles | Rows::FileTypes, _) => Needs::FILES,
            (Rows::Owners, _) => Needs {
                extra: true,
                ..Needs::FILES
            },
        };
        Needs {
            // every node of -j has both sizes, whatever the view counts (-f)
            sizes: self.form == Form::Json,
            ..needs
        }
    }
}

/// Which rows a printed view shows.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Rows {
    /// The tree, biggest first at every level.
    #[default]
    Tree,
    /// `-F`: only files, the biggest of the whole tree (bars or `-R` columns: `-F -j` is the
    /// tree's JSON).
    OnlyFiles,
    /// `-t`: files grouped by extension, a small tree of its own shown whole.
    FileTypes,
    /// `--by-owner`: usage per owner, a small tree of its own shown whole.
    Owners,
}

/// How a printed view is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Form {
    /// The dust-style tree of bars.
    #[default]
    Bars,
    /// `-R`: plain columns (name, depth, size, percent) for screen readers.
    ScreenReader,
    /// `-j`: one JSON document.
    Json,
}

/// Where and how `--export` writes the scan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportTarget {
    /// The file to write; `-` is stdout.
    pub file: OsString,
    /// ncdu's extended mode: mtime, uid, gid and mode of every entry.
    pub extended: bool,
    /// As `--export-format` says, or the file's name.
    pub format: ExportFormat,
}

/// The format a file's name asks for: `.ncdu` ncdu 2's binary format, `.zst` compressed
/// JSON, anything else (stdout too) JSON.
fn format_of_name(file: &OsStr) -> ExportFormat {
    let name = file.as_encoded_bytes();
    if name.ends_with(b".ncdu") {
        ExportFormat::Binary
    } else if name.ends_with(b".zst") {
        ExportFormat::JsonZst
    } else {
        ExportFormat::Json
    }
}

impl ExportTarget {
    /// An export writes both sizes of every entry, and the identities that name mount points
    /// and hard links; the extended one adds owners, modes and times.
    pub fn needs(&self) -> Needs {
        Needs {
            identities: Identities::Exported,
            sizes: true,
            extra: self.extended,
            times: self.extended,
            files: true,
        }
    }
}

/// `--diff`: compare with an earlier scan. The new scan is `paths[0]` walked, or
/// `Config::import`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffOptions {
    /// The earlier scan: an ncdu-format export (`-`: stdin).
    pub old: OsString,
    /// Compare even when the two scans are of different directories (`--diff-root-any`).
    pub root_any: bool,
}

/// Settings of the interactive view (`hogs i`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Interactive {
    /// `d` and `t` do nothing (`--no-delete`).
    pub no_delete: bool,
    /// Print the marked paths on exit (`--print-marked`).
    pub print_marked: bool,
    /// End each printed path with a NUL byte (`-0`).
    pub null: bool,
    /// `hogs i --diff OLD`: show the changes since OLD beside the sizes.
    pub diff: Option<DiffOptions>,
}

impl Interactive {
    /// Deleting re-checks every entry's identity; the view shows times.
    pub const NEEDS: Needs = Needs {
        identities: Identities::All,
        times: true,
        ..Needs::FILES
    };
}

impl Mode {
    /// What the run's view needs the walk to keep (the options add theirs: `needs.rs`).
    pub fn needs(&self, depth: Option<usize>) -> Needs {
        match self {
            Mode::Print(view) => view.needs(depth),
            Mode::Export(target) => target.needs(),
            // the new scan is matched with the old one file by file
            Mode::Diff { .. } => Needs::FILES,
            Mode::Interactive(_) => Interactive::NEEDS,
            Mode::Html(_) => HtmlReport::NEEDS,
        }
    }

    /// The earlier scan a run compares with, in either view.
    pub fn diff(&self) -> Option<&DiffOptions> {
        match self {
            Mode::Diff { diff, .. } => Some(diff),
            Mode::Interactive(ia) => ia.diff.as_ref(),
            Mode::Html(html) => html.diff.as_ref(),
            Mode::Print(_) | Mode::Export(_) => None,
        }
    }
}

/// `hogs i [PATH...]`: the first path names the view (a directory `i` is `./i`), and is
/// taken off the paths. `--no-delete` and `--print-marked` need it.
pub(super) fn take_interactive(cli: &mut Cli) -> Result<bool, ConfigError> {
    let interactive = matches!(
        cli.paths.first().and_then(|p| p.to_str()),
        Some("i" | "interactive")
    );
    if interactive {
        cli.paths.remove(0);
        return Ok(true);
    }
    for (set, flag) in [
        (cli.no_delete, "--no-delete"),
        (cli.print_marked, "--print-marked"),
        (cli.null, "--null"),
    ] {
        if set {
            return Err(ConfigError(format!(
                "{flag} only applies to the interactive view (`hogs i`)"
            )));
        }
    }
    Ok(false)
}

/// The mode of the run, once the paths are known; refuses flags that do not apply to it.
/// `--diff` may move a PATH that is an export into `import` (see [`new_scan_of_diff`]).
pub(super) fn decide(
    cli: &Cli,
    interactive: bool,
    paths: &mut Vec<OsString>,
    import: &mut Option<super::Imports>,
) -> Result<Mode, ConfigError> {
    let export = cli.export.clone().map(|file| ExportTarget {
        format: cli.export_format.unwrap_or_else(|| format_of_name(&file)),
        file,
        extended: cli.export_extended,
    });
    if export.is_some() && interactive {
        return Err(ConfigError(
            "--export does not apply to the interactive view (`hogs i`)".into(),
        ));
    }
    if let (true, Some(flag)) = (cli.by_owner, owner_clash(cli, export.is_some())) {
        return Err(ConfigError(format!("--by-owner does not apply to {flag}")));
    }
    if export.is_some() && paths.len() != 1 {
        return Err(ConfigError(
            "--export writes one directory: give a single path".into(),
        ));
    }
    let diff = match &cli.diff {
        None => None,
        Some(old) => {
            if let Some(flag) = diff_clash(cli) {
                return Err(ConfigError(format!("{flag} does not apply to --diff")));
            }
            new_scan_of_diff(old, paths, import)?;
            Some(DiffOptions {
                old: old.clone(),
                root_any: cli.diff_root_any,
            })
        }
    };
    if let Some(file) = &cli.html {
        return html_report(cli, interactive, export.is_some(), file, diff);
    }
    Ok(match (interactive, export, diff) {
        (true, _, diff) => Mode::Interactive(Interactive {
            no_delete: cli.no_delete,
            print_marked: cli.print_marked,
            null: cli.null,
            diff,
        }),
        (false, Some(target), _) => Mode::Export(target),
        (false, None, Some(diff)) => Mode::Diff {
            diff,
            json: cli.output_json,
        },
        (false, None, None) => Mode::Print(printed_view(cli)),
    })
}

/// `--html FILE`: the page, with the options it cannot go with refused.
fn html_report(
    cli: &Cli,
    interactive: bool,
    export: bool,
    file: &OsString,
    diff: Option<DiffOptions>,
) -> Result<Mode, ConfigError> {
    let clash = if interactive {
        Some("the interactive view (`hogs i`)")
    } else if export {
        Some("--export")
    } else if cli.file_types {
        Some("--file-types")
    } else if cli.only_file {
        Some("--only-file")
    } else if cli.filetime.is_some() {
        Some("--filetime")
    } else {
        None
    };
    if let Some(flag) = clash {
        return Err(ConfigError(format!("--html does not apply to {flag}")));
    }
    Ok(Mode::Html(HtmlReport {
        file: file.clone(),
        rows: printed_view(cli).rows,
        diff,
    }))
}

/// `-t` wins over `-F`, `-j` over `-R`; `-F -j` is the files, flat, as dust writes it.
fn printed_view(cli: &Cli) -> View {
    let form = if cli.output_json {
        Form::Json
    } else if cli.screen_reader {
        Form::ScreenReader
    } else {
        Form::Bars
    };
    let rows = if cli.by_owner {
        Rows::Owners
    } else if cli.file_types {
        Rows::FileTypes
    } else if cli.only_file {
        Rows::OnlyFiles
    } else {
        Rows::Tree
    };
    View { rows, form }
}

/// The first flag given that the owners' view cannot go with.
fn owner_clash(cli: &Cli, export: bool) -> Option<&'static str> {
    if export {
        Some("--export (--export-extended records the owners)")
    } else if cli.filetime.is_some() {
        Some("--filetime (a time is no usage)")
    } else if cli.file_types {
        Some("--file-types")
    } else {
        None
    }
}

/// The first flag given that a comparison has no use for.
fn diff_clash(cli: &Cli) -> Option<&'static str> {
    if cli.export.is_some() {
        Some("--export")
    } else if cli.only_file {
        Some("--only-file")
    } else if !cli.collapse.is_empty() {
        Some("--collapse")
    } else if cli.file_types {
        Some("--file-types")
    } else if cli.by_owner {
        Some("--by-owner")
    } else if cli.filetime.is_some() {
        Some("--filetime") // a newest time has no change to show
    } else if cli.screen_reader {
        Some("--screen-reader")
    } else {
        None
    }
}

/// Decides where the new side of `--diff OLD` comes from. A PATH that is a regular file is
/// another export: the top of an export is always a directory, so a scan of a lone file could
/// never be compared with one, and telling the two apart by the file type needs no guess at
/// its contents. Two exports can also be given as `--diff OLD --import NEW` (NEW may be `-`).
/// The interactive view shows a NEW export as it shows `--import`: read-only.
fn new_scan_of_diff(
    old: &OsString,
    paths: &mut Vec<OsString>,
    import: &mut Option<super::Imports>,
) -> Result<(), ConfigError> {
    if import.is_none() {
        if paths.len() != 1 {
            return Err(ConfigError(
                "--diff compares one directory: give a single path".into(),
            ));
        }
        if std::fs::metadata(&paths[0]).is_ok_and(|m| m.is_file()) {
            *import = Some(super::Imports {
                files: vec![paths.remove(0)],
                keep_first: false,
            });
        }
    }
    let stdin = |f: &OsString| f.as_os_str() == OsStr::new("-");
    if import.as_ref().is_some_and(|i| i.files.iter().any(stdin)) && old == "-" {
        return Err(ConfigError(
            "--diff: the old and the new scan cannot both come from stdin".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::config::Config;

    fn config(args: &[&str]) -> Result<Config, ConfigError> {
        let argv = std::iter::once("hogs").chain(args.iter().copied());
        Config::from_cli(Cli::try_parse_from(argv).expect("arguments"))
    }

    fn mode(args: &[&str]) -> Mode {
        config(args).expect("config").mode
    }

    fn print(rows: Rows, form: Form) -> Mode {
        Mode::Print(View { rows, form })
    }

    #[test]
    fn printed_views_combine_rows_and_form() {
        assert_eq!(mode(&[]), print(Rows::Tree, Form::Bars));
        assert_eq!(mode(&["-R"]), print(Rows::Tree, Form::ScreenReader));
        assert_eq!(mode(&["-j", "-R"]), print(Rows::Tree, Form::Json));
        assert_eq!(
            mode(&["-F", "-R"]),
            print(Rows::OnlyFiles, Form::ScreenReader)
        );
        // dust's -F -j: the files, flat
        assert_eq!(mode(&["-F", "-j"]), print(Rows::OnlyFiles, Form::Json));
        assert_eq!(
            mode(&["-t", "-F", "-j"]),
            print(Rows::FileTypes, Form::Json)
        );
    }

    #[test]
    fn the_other_modes_take_their_options() {
        let export = mode(&["-j", "-O", "x.json", "--export-extended"]);
        assert_eq!(
            export,
            Mode::Export(ExportTarget {
                file: "x.json".into(),
                extended: true,
                format: ExportFormat::Json,
            })
        );
        for (file, format) in [
            ("x.ncdu", ExportFormat::Binary),
            ("x.json.zst", ExportFormat::JsonZst),
            ("-", ExportFormat::Json),
        ] {
            let Mode::Export(t) = mode(&["-O", file]) else {
                panic!("an export")
            };
            assert_eq!(t.format, format, "{file}");
        }
        let Mode::Export(t) = mode(&["-O", "x.ncdu", "--export-format", "json"]) else {
            panic!("an export")
        };
        assert_eq!(t.format, ExportFormat::Json, "the flag wins over the name");
        let ia = mode(&["i", "--no-delete"]);
        assert!(matches!(
            ia,
            Mode::Interactive(Interactive {
                no_delete: true,
                diff: None,
                ..
            })
        ));
        assert_eq!(ia.diff(), None);
    }

    #[test]
    fn flags_of_another_mode_are_refused() {
        let err = |args: &[&str]| config(args).map(|_| ()).expect_err("refused").0;
        assert_eq!(
            err(&["--no-delete"]),
            "--no-delete only applies to the interactive view (`hogs i`)"
        );
        assert_eq!(
            err(&["i", "-O", "x.json"]),
            "--export does not apply to the interactive view (`hogs i`)"
        );
        assert_eq!(
            err(&["--diff", "old.json", "-R", "."]),
            "--screen-reader does not apply to --diff"
        );
    }

    #[test]
    fn only_the_bars_of_the_roots_fold_files() {
        let folds = |args: &[&str]| config(args).expect("config").walk.fold_files;
        assert!(folds(&["-d", "0"]));
        assert!(folds(&["-d", "0", "-R"]));
        for other in [
            &["-j"][..],
            &["-F"],
            &["-t"],
            &["-F", "-j"],
            &["-e", "x"],
            &["i"],
        ] {
            let args: Vec<&str> = ["-d", "0"].iter().chain(other).copied().collect();
            assert!(!folds(&args), "{args:?}");
        }
    }
}
