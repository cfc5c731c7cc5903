//! What the walk keeps for each mode and option: one row per case, checked through the whole
//! `Config` so the table holds whatever derives it.

use clap::Parser;

use super::cli::Cli;
use super::Config;
use crate::vocab::SizeMode::{self, Apparent, Count, Disk, Time};

/// The walk's choices as letters: B keep_sizes, I keep_identity, S sparse_identity, X
/// keep_extra (owners), T keep_times, F fold_files.
fn kept(args: &str) -> (SizeMode, String) {
    let argv = std::iter::once("hogs").chain(args.split_whitespace());
    let cli = Cli::try_parse_from(argv).expect("arguments");
    let w = Config::from_cli(cli).expect("config").walk;
    let letters = [
        (w.keep_sizes, 'B'),
        (w.keep_identity, 'I'),
        (w.sparse_identity, 'S'),
        (w.keep_extra, 'X'),
        (w.keep_times, 'T'),
        (w.fold_files, 'F'),
    ];
    let set = letters.iter().filter(|(on, _)| *on).map(|(_, c)| *c);
    (w.mode, set.collect())
}

#[test]
fn each_mode_and_option_keeps_what_it_reads() {
    #[rustfmt::skip]
    let table: &[(&str, SizeMode, &str)] = &[
        // the tree of bars: files fold into their directory only when no file shows
        ("", Disk, ""),
        ("-d 1", Disk, ""),
        ("-d 0", Disk, "F"),
        ("-d 0 -R", Disk, "F"),
        ("-d 0 -s", Apparent, "F"),
        ("-d 0 -f", Count, "F"),
        ("-d 0 . .", Disk, "F"),
        ("-d 0 -L -x", Disk, "F"),
        ("-f", Count, ""),
        // -j writes both sizes of every node, whatever it counts
        ("-j -f", Count, "B"),
        ("-d 0 -j -f", Count, "B"),
        ("-F -j -f", Count, "B"),
        ("-t -j -f", Count, "B"),
        ("--by-owner -j -f", Count, "BX"),
        // the other printed views look at files one by one
        ("-d 0 -j", Disk, "B"),
        ("-d 0 -F", Disk, ""),
        ("-d 0 -F -j", Disk, "B"),
        ("-d 0 -t", Disk, ""),
        ("-d 0 --by-owner", Disk, "X"),
        ("--by-owner -s", Apparent, "X"),
        // filters and -m read every file, times and (a, c) owners' stat fields
        ("-d 0 -e x", Disk, ""),
        ("-d 0 -v x", Disk, ""),
        ("-d 0 --mtime +1", Disk, "XT"),
        ("--atime -3 -j", Disk, "BXT"),
        ("--ctime 2", Disk, "XT"),
        ("-d 0 -m m", Time, "T"),
        ("-m a", Time, "XT"),
        ("-m c -j", Time, "BXT"),
        ("-d 0 --extents", Disk, ""),
        ("-d 0 --extents -s", Apparent, ""),
        ("-d 0 --import x.json", Disk, ""),
        // --diff keeps every file of the new scan
        ("-d 0 --diff old.json .", Disk, ""),
        ("--diff old.json -j -f .", Count, ""),
        // the interactive view deletes (identities) and shows times
        ("i", Disk, "IT"),
        ("i -d 0", Disk, "IT"),
        ("i -f", Count, "IT"),
        ("i --by-owner", Disk, "IXT"),
        ("i --mtime +1", Disk, "IXT"),
        ("i --diff old.json", Disk, "IT"),
        ("i . .", Disk, "IT"),
        // an export: both sizes, the identities it writes, extended: owners and times
        ("-O x.json", Disk, "BIS"),
        ("-O x.json -d 0", Disk, "BIS"),
        ("-O x.json -f", Count, "BIS"),
        ("-O x.json -s", Apparent, "BIS"),
        ("-O x.json -L", Disk, "BI"),
        ("-O x.json -m m", Time, "BIST"),
        ("-O x.json --export-extended", Disk, "BISXT"),
        ("-O x.json --export-extended -L", Disk, "BIXT"),
        ("-O x.json --mtime +1", Disk, "BISXT"),
        ("-O x.json --extents -d 0", Disk, "BIS"),
        ("-O x.ncdu --export-extended", Disk, "BISXT"),
        // a page: every file it may show, with its time
        ("--html x.html", Disk, "T"),
        ("--html x.html -d 0", Disk, "T"),
        ("--html x.html -f", Count, "T"),
        ("--html x.html --by-owner", Disk, "XT"),
        ("--html x.html --diff old.json .", Disk, "T"),
    ];
    for &(args, mode, letters) in table {
        assert_eq!(kept(args), (mode, letters.to_string()), "hogs {args}");
    }
}
