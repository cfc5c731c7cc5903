//! The command line as the user typed it: clap definitions only.
//!
//! Nothing here decides anything; [`crate::config::Config::from_cli`] validates these raw values
//! and turns them into the plain settings the rest of the program reads.
//!
//! Options override each other rather than conflict (the last one wins), because the config
//! file's settings come first on the same command line and the user's must be able to undo
//! them: every on/off flag also has its opposite (`--no-reverse`, `--progress`), see
//! [`command`].

use std::ffi::OsString;

use clap::{Arg, ArgAction, CommandFactory, Parser, ValueEnum};

/// What `--export` writes (`--export-format`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// ncdu's JSON (ncdu -o): ncdu 1 and 2, gdu and hogs read it
    Json,
    /// The same JSON, zstd-compressed (ncdu -c -o)
    #[value(name = "json.zst")]
    JsonZst,
    /// ncdu 2's binary format (ncdu -O): ncdu 2.6+ browses it without loading it
    Binary,
}

/// How sizes are printed (`-o`), with dust's names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Powers of 1000 with K, M, G… suffixes
    Si,
    /// Plain bytes
    B,
    /// Kibibytes (1024)
    K,
    /// Mebibytes
    M,
    /// Gibibytes
    G,
    /// Tebibytes
    T,
    /// Kilobytes (1000)
    Kb,
    /// Megabytes
    Mb,
    /// Gigabytes
    Gb,
    /// Terabytes
    Tb,
}

/// Which time `-m` shows, with dust's letters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FileTime {
    /// Last access
    #[value(alias = "accessed")]
    A,
    /// Last status change
    #[value(alias = "changed")]
    C,
    /// Last modification
    #[value(alias = "modified")]
    M,
}

#[derive(Parser, Debug)]
#[command(
    name = "hogs",
    version,
    about = "Find what eats your disk: a fast, parallel disk-usage tree with size bars",
    long_about = None,
    after_help = "Sizes are disk usage (as `du -B1`) unless -s or -f is given.\n\
                  `hogs i [PATH...]` (or `hogs interactive`) opens the interactive view: browse, \
                  sort, mark and delete while the scan runs (press ? inside). A directory named \
                  `i` is `./i`.\n\
                  Every on/off flag has an opposite that undoes it (--no-reverse, \
                  --progress…); the last one given wins. Settings are read first from \
                  $XDG_CONFIG_HOME/hogs/config.toml (else ~/.config/hogs/config.toml), keys named \
                  as the long flags.",
    args_override_self = true
)]
pub struct Cli {
    /// Files or directories to scan [default: .] (`i` or `interactive` first: the
    /// interactive view)
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,

    /// Depth of the tree to show (the whole tree is always counted)
    #[arg(
        short = 'd',
        long = "depth",
        value_name = "DEPTH",
        allow_hyphen_values = true
    )]
    pub depth: Option<String>,

    /// Number of rows to show below the root [default: the terminal height less 10, at least
    /// 20; every row with -d]
    #[arg(
        short = 'n',
        long = "number-of-lines",
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub number_of_lines: Option<String>,

    /// Print the tree upside down: the root first, biggest entries at the top
    #[arg(short = 'r', long = "reverse")]
    pub reverse: bool,

    /// Use apparent sizes (file lengths, as `du -b`) instead of disk usage
    #[arg(short = 's', long = "apparent-size", overrides_with = "filecount")]
    pub apparent_size: bool,

    /// Count files and directories (inodes, as `du --inodes`) instead of bytes
    #[arg(short = 'f', long = "filecount")]
    pub filecount: bool,

    /// Count what files really hold on disk, by their extents: a block shared by reflinked
    /// copies or snapshots counts once, a compressed one at its compressed size (btrfs, as
    /// root); adds the columns Excl (freed by deleting it) and Shared. Slower: see
    /// docs/EXTENTS.md
    #[arg(long = "extents", visible_alias = "real-size")]
    pub extents: bool,

    /// Stay on the filesystems of the given paths
    #[arg(short = 'x', long = "limit-filesystem")]
    pub limit_filesystem: bool,

    /// Follow symbolic links (each directory is still walked once)
    #[arg(short = 'L', long = "dereference-links")]
    pub dereference_links: bool,

    /// Do not count hidden files and directories (names starting with '.')
    #[arg(short = 'i', long = "ignore-hidden")]
    pub ignore_hidden: bool,

    /// Do not count entries with this name anywhere below the paths, or this exact path if it
    /// contains a '/' (repeatable)
    #[arg(short = 'X', long = "ignore-directory", value_name = "NAME|PATH")]
    pub ignore_directory: Vec<OsString>,

    /// Only count files whose path matches this regex (repeatable: any may match)
    #[arg(short = 'e', long = "filter", value_name = "REGEX")]
    pub filter: Vec<String>,

    /// Do not count files whose path matches this regex (repeatable)
    #[arg(short = 'v', long = "invert-filter", value_name = "REGEX")]
    pub invert_filter: Vec<String>,

    /// Only show entries bigger than this (e.g. 10M, 1.5Gi, 20K, 500); with -f a count
    #[arg(
        short = 'z',
        long = "min-size",
        value_name = "SIZE",
        allow_hyphen_values = true
    )]
    pub min_size: Option<String>,

    /// No percent bars or percentages
    #[arg(short = 'b', long = "no-percent-bars")]
    pub no_percent_bars: bool,

    /// Fill the bars from the right (toward the percentages) instead of from the left
    #[arg(short = 'B', long = "bars-on-right")]
    pub bars_on_right: bool,

    /// No colours, even on a terminal
    #[arg(short = 'c', long = "no-colors")]
    pub no_colors: bool,

    /// Colours even when the output is not a terminal
    #[arg(short = 'C', long = "force-colors", overrides_with = "no_colors")]
    pub force_colors: bool,

    /// Show full paths instead of names
    #[arg(short = 'p', long = "full-paths")]
    pub full_paths: bool,

    /// Only show directories
    #[arg(short = 'D', long = "only-dir", overrides_with = "only_file")]
    pub only_dir: bool,

    /// Only show files (a flat list of the biggest files)
    #[arg(short = 'F', long = "only-file")]
    pub only_file: bool,

    /// Print the tree as JSON
    #[arg(short = 'j', long = "output-json")]
    pub output_json: bool,

    /// Number of threads [default: the number of CPUs]
    #[arg(
        short = 'T',
        long = "threads",
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub threads: Option<String>,

    /// No progress line while scanning
    #[arg(short = 'P', long = "no-progress")]
    pub no_progress: bool,

    /// Width of the output [default: the terminal width, else 80]
    #[arg(
        short = 'w',
        long = "terminal-width",
        value_name = "COLUMNS",
        allow_hyphen_values = true
    )]
    pub terminal_width: Option<String>,

    /// Do not show the top line: the total, or the path when only one is given
    #[arg(long = "skip-total")]
    pub skip_total: bool,

    /// How sizes are printed
    #[arg(short = 'o', long = "output-format", value_enum, value_name = "FORMAT")]
    pub output_format: Option<OutputFormat>,

    /// Write the scan to FILE in ncdu's export format instead of showing it ('-' for stdout):
    /// JSON, which ncdu -f and gdu -f read, or as --export-format says or the name ends
    /// (.ncdu: ncdu 2's binary format, .zst: compressed JSON)
    #[arg(
        short = 'O',
        long = "export",
        value_name = "FILE",
        overrides_with = "output_json"
    )]
    pub export: Option<OsString>,

    /// With --export: also write each entry's mtime, uid, gid and mode (ncdu's extended mode)
    #[arg(long = "export-extended", requires = "export")]
    pub export_extended: bool,

    /// With --export: the format to write (default: by FILE's name, .ncdu binary, .zst
    /// json.zst, else json)
    #[arg(
        long = "export-format",
        value_enum,
        value_name = "FORMAT",
        requires = "export"
    )]
    pub export_format: Option<ExportFormat>,

    /// For screen readers: plain columns NAME DEPTH SIZE PERCENT, no tree drawing or bars
    /// (-p adds full paths)
    #[arg(short = 'R', long = "screen-reader")]
    pub screen_reader: bool,

    /// Draw the tree guides and bars faint, so names and sizes stand out (with colours)
    #[arg(long = "dim")]
    pub dim: bool,

    /// Group the files by extension: the biggest kinds, then the rest as (others)
    #[arg(short = 't', long = "file-types")]
    pub file_types: bool,

    /// Who is using it: the owners by usage (user name, else uid), hard links once, -e/-v
    /// applied; reads owners from the walk or an --export-extended scan. `hogs i`: the `o`
    /// key shows them
    #[arg(long = "by-owner")]
    pub by_owner: bool,

    /// Only count files modified in this many days, as find(1): +N more than N days ago, N
    /// between N and N+1 days ago, -N less than N days ago
    #[arg(
        short = 'M',
        long = "mtime",
        value_name = "[+-]N",
        allow_hyphen_values = true
    )]
    pub mtime: Option<String>,

    /// As --mtime, with the last access time
    #[arg(
        short = 'A',
        long = "atime",
        value_name = "[+-]N",
        allow_hyphen_values = true
    )]
    pub atime: Option<String>,

    /// As --mtime, with the last status change time
    #[arg(
        short = 'y',
        long = "ctime",
        value_name = "[+-]N",
        allow_hyphen_values = true
    )]
    pub ctime: Option<String>,

    /// Show each entry's newest time (of a file inside, for a directory) instead of its size:
    /// a(ccess), c(hange) or m(odification); newest first, dates in local time
    #[arg(short = 'm', long = "filetime", value_enum, value_name = "WHICH")]
    pub filetime: Option<FileTime>,

    /// Show this directory without its contents (still counted): a name anywhere, or a path
    /// if it contains a '/' (repeatable)
    #[arg(long = "collapse", value_name = "DIR")]
    pub collapse: Vec<OsString>,

    /// Do not count files whose path matches any regex in FILE (one per line), as with -v
    #[arg(short = 'I', long = "ignore-all-in-file", value_name = "FILE")]
    pub ignore_all_in_file: Option<OsString>,

    /// Scan the paths listed in FILE, one per line ('-' for stdin), as well as any given
    #[arg(long = "files-from", value_name = "FILE")]
    pub files_from: Option<OsString>,

    /// Scan the paths listed in FILE, each ended by a NUL byte ('-' for stdin)
    #[arg(long = "files0-from", value_name = "FILE")]
    pub files0_from: Option<OsString>,

    /// Name every path that could not be read (hogs always does; accepted for dust's users)
    #[arg(long = "print-errors")]
    pub print_errors: bool,

    /// Exit 0 even when something could not be read, as dust does (the errors are still
    /// named, and left out of the totals)
    #[arg(long = "exit-zero")]
    pub exit_zero: bool,

    /// Accepted for dust's users and ignored: hogs never recurses, so default stacks suffice
    #[arg(short = 'S', long = "stack-size", value_name = "BYTES")]
    pub stack_size: Option<String>,

    /// Read settings from this TOML file instead of the default config file
    #[arg(long = "config", value_name = "FILE")]
    pub config: Option<OsString>,

    /// Read no config file
    #[arg(long = "no-config", overrides_with = "config")]
    pub no_config: bool,

    /// Show a scan saved in ncdu's JSON export format (hogs -O, ncdu -o, gdu -o) instead of
    /// scanning ('-' for stdin). Several files (repeated, or several after one --import) are
    /// scans of parts of a tree, merged: each placed at the path it was scanned at
    #[arg(long = "import", value_name = "FILE", num_args = 1.., action = clap::ArgAction::Append)]
    pub import: Vec<OsString>,

    /// With several --import files: where two parts overlap, keep what the one given first has
    /// (instead of an error)
    #[arg(long = "import-keep-first", requires = "import")]
    pub import_keep_first: bool,

    /// Compare with a scan saved earlier (hogs -O, ncdu -o, gdu -o): what grew, shrank,
    /// appeared or went. The new scan is PATH, or another export: a PATH that is a regular file,
    /// or --import FILE
    #[arg(long = "diff", value_name = "OLD")]
    pub diff: Option<OsString>,

    /// With --diff: compare even when the two scans are of different directories
    #[arg(long = "diff-root-any", requires = "diff")]
    pub diff_root_any: bool,

    /// Add the scan of PATH (or of the --import files, as one scan) to the history file DB
    /// (made if missing; docs/HISTORY.md): what changed since the previous scan of PATH is
    /// kept. Prints one line: the scan's id, root, total and change
    #[arg(long = "record", value_name = "DB", conflicts_with_all = ["history", "export", "diff", "html"])]
    pub record: Option<OsString>,

    /// Read the history file DB: list its scans (-j: as JSON), or with --between, --trend,
    /// --prometheus, --forget-before
    #[arg(long = "history", value_name = "DB", conflicts_with_all = ["export", "diff"])]
    pub history: Option<OsString>,

    /// With --history: what changed between scans A and B (ids, dates as 2026-11-01: the last
    /// scan on or before that day, or ages as 7d, 4w: the last scan at least that old; 0d the
    /// latest) of PATH's root, as --diff shows it [default: the two latest]
    #[arg(long = "between", value_names = ["A", "B"], num_args = 2, requires = "history")]
    pub between: Option<Vec<String>>,

    /// With --history: PATH's totals in every scan of its root, oldest first
    #[arg(long = "trend", value_name = "PATH", requires = "history", conflicts_with_all = ["between", "prometheus", "forget_before"])]
    pub trend: Option<OsString>,

    /// With --history: the latest scan of each root's directory sizes to depth -d (default 1)
    /// in Prometheus' text format (for node_exporter's textfile collector)
    #[arg(long = "prometheus", requires = "history", conflicts_with_all = ["between", "forget_before"])]
    pub prometheus: bool,

    /// With --history: remove the scans older than AGE (7d, 4w, 12m: months of 30 days, 1y)
    /// and shrink the file; the later scans answer as before
    #[arg(
        long = "forget-before",
        value_name = "AGE",
        requires = "history",
        conflicts_with = "between"
    )]
    pub forget_before: Option<String>,

    /// Write the scan (or the --diff, the --by-owner view) as one self-contained HTML page
    /// with a zoomable treemap and a table ('-' for stdout)
    #[arg(long = "html", value_name = "FILE")]
    pub html: Option<OsString>,

    /// `hogs i`: turn deleting (d, t) off
    #[arg(long = "no-delete")]
    pub no_delete: bool,

    /// `hogs i`: on exit, print the marked paths to stdout, one per line
    #[arg(long = "print-marked")]
    pub print_marked: bool,

    /// `hogs i --print-marked`: end each path with a NUL byte instead of a newline (for
    /// `xargs -0`)
    #[arg(short = '0', long = "null", requires = "print_marked")]
    pub null: bool,
}

/// Flags that have no opposite: they are not settings.
const NO_OPPOSITE: &[&str] = &["help", "version", "no-config"];

/// The long name of the flag that undoes `long`: `no-X` for `X`, `X` for `no-X`.
pub fn opposite(long: &str) -> String {
    match long.strip_prefix("no-") {
        Some(positive) => positive.to_string(),
        None => format!("no-{long}"),
    }
}

/// The full command: the derived one plus, for every on/off flag, a hidden opposite that
/// overrides it (`--reverse` / `--no-reverse`): what the config file turns on, the command
/// line can turn off.
pub fn command() -> clap::Command {
    let cmd = Cli::command();
    let flags: Vec<(String, String)> = cmd
        .get_arguments()
        .filter(|a| matches!(a.get_action(), ArgAction::SetTrue))
        .filter_map(|a| Some((a.get_id().to_string(), a.get_long()?.to_string())))
        .filter(|(_, long)| !NO_OPPOSITE.contains(&long.as_str()))
        .collect();
    let taken: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect();
    flags
        .into_iter()
        .filter(|(_, long)| !taken.contains(&opposite(long)))
        .fold(cmd, |cmd, (id, long)| {
            let other = opposite(&long);
            cmd.arg(
                Arg::new(format!("opposite-of-{id}"))
                    .long(other)
                    .action(ArgAction::SetTrue)
                    .hide(true)
                    .help(format!("Undo --{long}"))
                    .overrides_with(id),
            )
        })
}
