//! `hogs i --extents`: the `excl` and `shared` columns, and a delete dialog that says what is
//! really freed (the bytes only the entry holds). On the test's own filesystem, where a
//! hard-linked file is what is shared (the btrfs images are in `extents.rs`).

use hogs::tree::PathFilters;
use hogs::tui::app::App;
use hogs::tui::state::Options;
use hogs::tui::style::Styles;
use hogs::units::format_size;
use hogs::vocab::{SizeMode, UnitStyle};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use super::{walk_options, Journey};
use crate::util::TestEnv;

fn open_measured(env: &TestEnv, path: &str) -> Journey {
    let mut app = App::new(
        walk_options(SizeMode::Disk),
        PathFilters::default(),
        Options {
            mode: SizeMode::Disk,
            units: UnitStyle::HumanIec,
            allow_delete: true,
        },
        Styles::plain(),
    );
    app.extents = true;
    app.start_scan(vec![env.path(path).into()]);
    app.wait_for_scan();
    let term = Terminal::new(TestBackend::new(120, 24)).expect("test terminal");
    let mut j = Journey { app, term };
    j.draw();
    j
}

fn iec(bytes: u64) -> String {
    format_size(bytes, SizeMode::Disk, UnitStyle::HumanIec)
}

/// The columns and the header show what only an entry holds and what it shares (here: a
/// hard-linked file, whose other name may be anywhere); deleting says it frees the former,
/// and takes both out of the totals.
#[test]
fn the_delete_dialog_says_what_is_really_freed() {
    let env = TestEnv::new();
    env.file("t/a/own", 300_000)
        .file("t/a/orig", 100_000)
        .hardlink("t/a/orig", "t/a/link")
        .file("t/b/other", 50_000);
    let linked = env.du_disk(&["t/a/orig"]);
    let (all, a) = (env.du_disk(&["t"]), env.du_disk(&["t/a"]));
    let mut j = open_measured(&env, "t");
    let header = format!("excl {} · shared {}", iec(all - linked), iec(linked));
    assert!(j.screen().contains(&header), "{header}:\n{}", j.screen());
    j.select("a");
    let row = j.lines().into_iter().find(|l| l.contains(" a/"));
    let row = row.unwrap_or_else(|| panic!("a's row:\n{}", j.screen()));
    let cells = format!("{} {}", iec(a - linked), iec(linked));
    assert!(row.contains(&cells), "{cells}: {row}");
    j.keys("d");
    let said = format!(
        "{} freed: what only it holds; {} shared may stay",
        iec(a - linked),
        iec(linked)
    );
    assert!(j.screen().contains(&said), "{said}:\n{}", j.screen());
    j.keys("y");
    assert!(!env.path("t/a").exists());
    assert!(j.screen().contains("deleted 1 ("), "{}", j.screen());
    let t = j.app.state.tree().sharing[j.app.state.dir() as usize];
    assert_eq!(
        (t.exclusive, t.shared),
        (env.du_disk(&["t"]), 0),
        "{}",
        j.screen()
    );
}

/// The real binary in a real terminal: `hogs i --extents` shows the columns and says what a
/// delete frees (the flag reaches the view).
#[test]
fn in_a_real_terminal_extents_shows_what_a_delete_frees() {
    use super::tmux::{view_script, wait_for_file, Tmux};
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/a/own", 300_000)
        .file("t/a/orig", 100_000)
        .hardlink("t/a/orig", "t/a/link")
        .file("t/b/other", 50_000);
    let (linked, a) = (env.du_disk(&["t/a/orig"]), env.du_disk(&["t/a"]));
    let tmux = Tmux::start(
        env.path("tmux.sock"),
        &[],
        &view_script(&env, "--extents t"),
    );
    tmux.wait_for(&format!("shared {}", iec(linked)));
    tmux.keys(&["g", "d"]);
    let dialog = tmux.wait_for("any other key: No");
    let said = format!("{} freed: what only it holds", iec(a - linked));
    assert!(dialog.contains(&said), "{said}:\n{dialog}");
    tmux.keys(&["n", "q"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
    assert!(env.path("t/a/own").exists(), "n keeps it");
}
