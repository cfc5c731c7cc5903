//! `o`: the owners of the selected directory, in a box; the help lists the key.

use std::ffi::OsString;

use hogs::tree::PathFilters;
use hogs::tui::app::App;
use hogs::tui::state::Options;
use hogs::tui::style::Styles;
use hogs::vocab::{SizeMode, UnitStyle};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use super::{walk_options, Journey};
use crate::util::*;

fn open_keeping_owners(env: &TestEnv, path: &str, keep: bool) -> Journey {
    let mut opts = walk_options(SizeMode::Apparent);
    opts.keep_extra = keep; // what --by-owner asks of the walk
    let mut app = App::new(
        opts,
        PathFilters::default(),
        Options {
            mode: SizeMode::Apparent,
            units: UnitStyle::Plain,
            allow_delete: false,
        },
        Styles::plain(),
    );
    app.start_scan(vec![OsString::from(env.path(path))]);
    app.wait_for_scan();
    let term = Terminal::new(TestBackend::new(100, 24)).expect("test terminal");
    let mut j = Journey { app, term };
    j.draw();
    j
}

#[test]
fn o_shows_who_uses_the_selected_directory() {
    let env = TestEnv::new();
    if !is_root() {
        skip!("skipped: chown to other users needs root");
        return;
    }
    env.file("t/d/mine", 30_000).file("t/d/theirs", 10_000);
    env.file("t/other/x", 99_999);
    env.bash("chown 65534 t/d/theirs && chown -R 0 t/d/mine");
    let mut j = open_keeping_owners(&env, "t", true);
    j.select("d");
    j.keys("o");
    let screen = j.screen();
    let dir_size = 30_000 + env.du_total(&["-b"], &["t/d"]) - 40_000; // the directory's own
    let root_line = screen
        .lines()
        .find(|l| l.contains(" root"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(root_line.contains(&dir_size.to_string()), "{root_line}");
    let nobody = screen
        .lines()
        .find(|l| l.contains(" nobody"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(nobody.contains("10000") && nobody.contains('%'), "{nobody}");
    assert!(screen.contains("Owners of"), "{screen}");
    assert!(
        !screen.contains("99999"),
        "only the selected directory: {screen}"
    );
    j.keys("x"); // any key closes
    assert!(!j.screen().contains("Owners of"));
    j.keys("?");
    assert!(j.screen().contains("owners of the selected directory"));
}

#[test]
fn o_says_how_to_record_owners_when_the_walk_did_not() {
    let env = TestEnv::new();
    env.file("t/d/f", 1_000);
    let mut j = open_keeping_owners(&env, "t", false);
    j.keys("o");
    assert!(
        j.screen()
            .contains("owners were not recorded: start with hogs i --by-owner"),
        "{}",
        j.screen()
    );
}

/// `hogs i --by-owner --import A B`: the merge of two extended exports, browsed: the directory
/// no part scanned is marked `~`, and `o` on it adds up both parts' owners.
#[test]
fn a_merge_of_extended_exports_is_browsed_with_its_owners() {
    let env = TestEnv::new();
    if !is_root() {
        skip!("skipped: chown to other users needs root");
        return;
    }
    env.file("top/a/x/f", 20_000).file("top/b/g", 5_000);
    env.bash("chown -R 65534 top/a/x");
    env.stdout_ok(["--export-extended", "-O", "x.json", "top/a/x"]);
    env.stdout_ok(["--export-extended", "-O", "b.json", "top/b"]);
    let argv: Vec<OsString> = ["hogs", "--no-config", "i", "--by-owner", "-s", "--import"]
        .iter()
        .map(OsString::from)
        .chain(["x.json", "b.json"].map(|f| env.path(f).into_os_string()))
        .collect();
    let cli = hogs::config::file::parse_args(argv).unwrap_or_else(|e| panic!("{e:?}"));
    let config = hogs::config::Config::from_cli(cli).unwrap_or_else(|e| panic!("{e}"));
    let mut app = App::new(
        config.walk.clone(),
        config.filters.clone(),
        Options {
            mode: config.walk.mode,
            units: UnitStyle::Plain,
            allow_delete: true,
        },
        Styles::plain(),
    );
    assert!(hogs::tui::load(&config, &mut app).expect("load"));
    let term = Terminal::new(TestBackend::new(100, 24)).expect("test terminal");
    let mut j = Journey { app, term };
    j.draw();
    assert_eq!(j.rows(), ["a", "b"]);
    let a = j.row_line("a");
    assert!(a.contains('~'), "not scanned: {a}");
    assert!(!j.row_line("b").contains('~'), "{}", j.row_line("b"));
    let x = env.du_apparent(&["top/a/x"]);
    assert!(a.contains(&x.to_string()), "only the part below: {a}");
    j.keys("o"); // on a: the part below it, all 65534's
    let screen = j.screen();
    let nobody = screen
        .lines()
        .find(|l| l.contains(" nobody"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(
        nobody.contains(&x.to_string()) && nobody.contains("100.0%"),
        "{nobody}"
    );
    j.keys("x");
    j.select("b");
    j.keys("o");
    let screen = j.screen();
    let root = screen
        .lines()
        .find(|l| l.contains(" root"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(
        root.contains(&env.du_apparent(&["top/b"]).to_string()),
        "{root}"
    );
}
