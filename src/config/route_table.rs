//! Whether a saved scan may be read on demand (`Config::on_demand`): one row per view and
//! option, checked through the whole `Config` so the table holds whatever derives it.

use clap::Parser;

use super::cli::Cli;
use super::Config;

fn on_demand(args: &str) -> bool {
    let argv = std::iter::once("hogs").chain(args.split_whitespace());
    let cli = Cli::try_parse_from(argv).expect("arguments");
    Config::from_cli(cli).expect("config").on_demand
}

#[test]
fn each_view_and_option_reads_on_demand_or_loads() {
    #[rustfmt::skip]
    let table: &[(&str, bool)] = &[
        // the tree and the biggest files: what the stored totals say
        ("--import x.ncdu", true),
        ("--import x.ncdu -d 2", true),
        ("--import x.ncdu -s", true),
        ("--import x.ncdu -f", true),
        ("--import x.ncdu -j", true),
        ("--import x.ncdu -R", true),
        ("--import x.ncdu -F", true),
        ("--import x.ncdu -F -j", true),
        // file types and owners are tallied over every file; -m reads times
        ("--import x.ncdu -t", false),
        ("--import x.ncdu --by-owner", false),
        ("--import x.ncdu -m m", false),
        ("--import x.ncdu --collapse a", false),
        // filters change the sums
        ("--import x.ncdu -e x", false),
        ("--import x.ncdu -v x", false),
        ("--import x.ncdu --mtime +1", false),
        // the interactive view browses it, but not a comparison
        ("i --import x.ncdu", true),
        ("i --import x.ncdu -f", true),
        ("i --import x.ncdu -m m", false),
        ("i --import x.ncdu -e x", false),
        ("i --diff old.ncdu --import x.ncdu", false),
        ("i --diff old.ncdu .", false),
        // a comparison: sizes, not entries (trimmed) or times
        ("--diff old.ncdu .", true),
        ("--diff old.ncdu --import x.ncdu", true),
        ("--diff old.ncdu -j -s .", true),
        ("--diff old.ncdu -f .", false),
        ("--diff old.ncdu -e x .", false),
        ("--diff old.ncdu --extents .", false),
        // an export and the page load what they write
        ("-O x.json --import x.ncdu", false),
        ("--html x.html --import x.ncdu", false),
    ];
    for &(args, want) in table {
        assert_eq!(on_demand(args), want, "hogs {args}");
    }
}
