//! `hogs i --diff OLD`: a change column, a sort by change and the change in the header, on
//! a real tree changed after an export; du before and after is the oracle.

use hogs::render::diff::signed_size;
use hogs::tree::Tree;
use hogs::vocab::{SizeMode, UnitStyle};

use super::Journey;
use crate::util::TestEnv;

/// The export `old.json` of `t`, loaded as the interactive view loads it.
fn old_scan(env: &TestEnv) -> Tree {
    let file = env.path("old.json");
    let scan = hogs::import::import_file(file.as_os_str(), false, hogs::import::Keep::ALL)
        .expect("import old.json");
    let mut tree = scan.tree;
    let root = tree.roots().next().expect("a root");
    tree.set_root_name(root, env.path("t").into_os_string().into_encoded_bytes());
    tree.finish();
    tree
}

fn signed(before: u64, after: u64) -> String {
    signed_size(
        i128::from(after) - i128::from(before),
        SizeMode::Disk,
        UnitStyle::HumanIec,
    )
}

/// The change column of the row `name`: the word after the percentage.
fn change_of(j: &Journey, name: &str) -> String {
    let line = j.row_line(name);
    let after_pct = line.split_once('%').expect("a percentage").1;
    after_pct
        .split_whitespace()
        .next()
        .expect("a change")
        .to_string()
}

#[test]
fn the_change_column_sorts_and_follows_deletes() {
    let env = TestEnv::new();
    env.file("t/big", 100 * 1024)
        .file("t/mid/a", 50 * 1024)
        .file("t/mid/b", 10 * 1024)
        .file("t/same", 8 * 1024)
        .file("t/small", 1024);
    env.stdout_ok(["-O", "old.json", "t"]);
    let du_before: Vec<u64> = ["t", "t/big", "t/mid", "t/mid/a", "t/small"]
        .iter()
        .map(|p| env.du_disk(&[p]))
        .collect();
    env.file("t/big", 20 * 1024) // shrinks by 80K
        .file("t/mid/a", 200 * 1024) // grows by 150K
        .file("t/fresh", 30 * 1024); // new
    env.bash("rm t/small");

    let mut j = Journey::open(&env, &["t"], 100, 16);
    j.app.state.compare_with(old_scan(&env));
    j.draw();
    // biggest change first, whatever its sign (the removed file too); the unchanged entry last
    assert_eq!(j.rows(), ["mid", "big", "fresh", "small", "same"]);
    let header = &j.lines()[1];
    assert!(header.contains("by change ↓"), "{header}");
    let total = signed(du_before[0], env.du_disk(&["t"]));
    assert!(header.contains(&format!("Δ {total}")), "{header}");
    let small = crate::util::iec(du_before[4]);
    assert!(header.contains(&format!("1 removed ({small})")), "{header}");
    assert_eq!(
        change_of(&j, "mid"),
        signed(du_before[2], env.du_disk(&["t/mid"]))
    );
    assert_eq!(
        change_of(&j, "big"),
        signed(du_before[1], env.du_disk(&["t/big"]))
    );
    assert_eq!(change_of(&j, "fresh"), "new");
    assert_eq!(change_of(&j, "same"), "=");

    // s sorts by size again (a removed entry by its old size), D by change
    j.keys("s");
    assert_eq!(j.rows(), ["mid", "fresh", "big", "same", "small"]);
    j.keys("D");
    assert_eq!(j.rows(), ["mid", "big", "fresh", "small", "same"]);
    j.keys("D");
    assert!(j.lines()[1].contains("by change ↑"), "{}", j.lines()[1]);
    assert_eq!(j.rows(), ["same", "small", "fresh", "big", "mid"]);
    j.keys("D");

    // inside a directory: its own change in the header
    j.select("mid");
    j.keys("l");
    assert_eq!(j.rows(), ["a", "b"]);
    assert_eq!(
        change_of(&j, "a"),
        signed(du_before[3], env.du_disk(&["t/mid/a"]))
    );
    assert!(j.lines()[1].contains("Δ +"), "{}", j.lines()[1]);
    assert!(!j.lines()[1].contains("removed"), "{}", j.lines()[1]);
    // apparent sizes: the exact byte counts the files changed by
    j.keys("a");
    assert_eq!(change_of(&j, "a"), "+150Ki");
    assert_eq!(change_of(&j, "b"), "=");
    j.keys("a");

    // deleting the new file takes its change out of the total
    j.keys("h");
    j.select("fresh");
    j.keys("dy");
    assert!(!env.path("t/fresh").exists());
    assert_eq!(j.rows(), ["mid", "big", "small", "same"]);
    let total = signed(du_before[0], env.du_disk(&["t"]));
    assert!(
        j.lines()[1].contains(&format!("Δ {total}")),
        "{}",
        j.lines()[1]
    );
}

/// The row of `name` split into its change and the rest of the line after it.
fn removed_row_parts(j: &Journey, name: &str) -> (String, String) {
    let line = j.row_line(name);
    let after_pct = line.split_once('%').expect("a percentage").1.trim_start();
    let (change, rest) = after_pct.split_once(' ').expect("a change");
    (change.to_string(), rest.to_string())
}

#[test]
fn removed_entries_are_rows_sorted_by_change_and_entered_read_only() {
    let env = TestEnv::new();
    env.file("t/keep", 16 * 1024)
        .file("t/grown", 4 * 1024)
        .file("t/gone.bin", 60 * 1024)
        .file("t/olddir/a", 40 * 1024)
        .file("t/olddir/sub/b", 20 * 1024)
        .file("t/tiny", 1024);
    env.stdout_ok(["-O", "old.json", "t"]);
    let du = |p: &str| env.du_disk(&[p]);
    let (gone, olddir, sub, a, tiny) = (
        du("t/gone.bin"),
        du("t/olddir"),
        du("t/olddir/sub"),
        du("t/olddir/a"),
        du("t/tiny"),
    );
    let grown_before = du("t/grown");
    env.bash("rm -r t/gone.bin t/olddir t/tiny");
    env.file("t/grown", 100 * 1024);

    let mut j = Journey::open(&env, &["t"], 100, 16);
    j.app.state.compare_with(old_scan(&env));
    j.draw();
    // by change, whatever its sign, ties by name; the unchanged keep last
    let mut changed = [
        (du("t/grown") - grown_before, "grown"),
        (olddir, "olddir"),
        (gone, "gone.bin"),
        (tiny, "tiny"),
    ];
    changed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let mut order: Vec<&str> = changed.iter().map(|&(_, n)| n).collect();
    order.push("keep");
    assert_eq!(j.rows(), order);
    for (name, old) in [("olddir", olddir), ("gone.bin", gone), ("tiny", tiny)] {
        let (change, rest) = removed_row_parts(&j, name);
        assert_eq!(change, signed(old, 0), "{name}");
        assert!(rest.contains("(removed)"), "{name}: {rest}");
        let size = crate::util::iec(old);
        assert!(
            j.row_line(name).trim_start().starts_with(&size),
            "{name}: old size"
        );
    }
    assert!(!j.row_line("keep").contains("(removed)"));
    assert!(j.row_line("olddir").contains("olddir/ (removed)"));
    // dimmed: the removed row's cells carry the DIM modifier, the others do not
    let y = |name: &str| {
        let s = &j.app.state;
        let i = s.rows().iter().position(|&r| s.name(r) == name.as_bytes());
        s.list_top() + (i.expect("row") - s.nav().offset()) as u16
    };
    let buf = j.term.backend().buffer();
    let dim = |name: &str| {
        buf[(0, y(name))]
            .modifier
            .contains(ratatui::style::Modifier::DIM)
    };
    assert!(dim("olddir") && dim("tiny") && !dim("keep") && !dim("grown"));
    // the header counts them as before
    let removed_total = crate::util::iec(olddir + gone + tiny);
    assert!(
        j.lines()[1].contains(&format!("3 removed ({removed_total})")),
        "{}",
        j.lines()[1]
    );

    // entering a removed directory: its old contents, all removed
    j.select("olddir");
    j.keys("l");
    assert_eq!(
        j.rows(),
        ["a", "sub"],
        "by change: a (40K) before sub (20K)"
    );
    assert!(j.lines()[0].contains("t/olddir"), "{}", j.lines()[0]);
    assert!(
        j.lines()[1].contains(&format!("removed: Δ {}", signed(olddir, 0))),
        "{}",
        j.lines()[1]
    );
    assert_eq!(removed_row_parts(&j, "a").0, signed(a, 0));
    assert!(j.row_line("sub").contains("sub/ (removed)"));
    j.select("sub");
    j.keys("l");
    assert_eq!(j.rows(), ["b"]);
    assert!(j.lines()[0].contains("t/olddir/sub"), "{}", j.lines()[0]);
    // nothing here can be marked, deleted or rescanned
    j.keys(" ");
    assert!(j.app.state.marks().is_empty());
    assert!(j.screen().contains("not on the disk"), "{}", j.screen());
    j.keys("r");
    assert!(j.screen().contains("nothing to rescan"), "{}", j.screen());
    // back up: sub selected in olddir, then olddir selected in t
    j.keys("h");
    assert_eq!(j.selected_name(), "sub");
    assert_eq!(removed_row_parts(&j, "sub").0, signed(sub, 0));
    j.keys("h");
    assert_eq!(j.selected_name(), "olddir");
    assert_eq!(j.rows(), order);
}

#[test]
fn deleting_a_removed_row_is_refused_and_touches_nothing() {
    let env = TestEnv::new();
    env.file("t/gone", 40 * 1024).file("t/here", 8 * 1024);
    env.stdout_ok(["-O", "old.json", "t"]);
    env.bash("rm t/gone");
    // a file of that name elsewhere must not be what a stray delete reaches
    env.file("gone", 4096);

    let mut j = Journey::open(&env, &["t"], 100, 16);
    j.app.state.compare_with(old_scan(&env));
    j.draw();
    assert_eq!(j.rows(), ["gone", "here"]);
    j.select("gone");
    let removed = j.row("gone");
    for key in ["d", "t"] {
        j.keys(key);
        assert!(
            j.screen().contains("not on the disk, nothing to delete"),
            "{key}: {}",
            j.screen()
        );
        assert!(!j.screen().contains("Delete 1"), "no confirmation asked");
        j.keys("y");
    }
    // the deletion code refuses it too, whatever asks
    let (targets, refused) = hogs::tui::delete::plan(j.app.state.tree(), &[removed]);
    assert!(targets.is_empty());
    assert_eq!(refused.len(), 1);
    assert!(refused[0].contains("not on the disk"), "{refused:?}");
    j.app.start(hogs::tui::state::Request::Delete {
        targets: vec![removed],
        trash: false,
    });
    j.app.state.set_busy("deleting");
    j.app.wait_for_work();
    j.draw();
    assert!(j.screen().contains("not on the disk"), "{}", j.screen());
    assert!(env.path("t/here").exists() && env.path("gone").exists());
    assert_eq!(j.rows(), ["gone", "here"]);
    // marking it is refused as well, and a mark elsewhere does not make it a target
    j.select("gone");
    j.keys(" ");
    assert!(j.app.state.marks().is_empty());
}

/// `hogs i ARGS…` as the binary sets it up short of a terminal: arguments parsed, config
/// built, the app made and loaded (`hogs::tui::load`), the first frame drawn.
fn open_view(env: &TestEnv, args: &[&str], width: u16, height: u16) -> Journey {
    let mut argv: Vec<std::ffi::OsString> = vec!["hogs".into(), "--no-config".into(), "i".into()];
    // flags as they are, files in the test's directory
    argv.extend(args.iter().map(|a| match a.starts_with('-') {
        true => a.into(),
        false => env.path(a).into_os_string(),
    }));
    let cli = hogs::config::file::parse_args(argv).unwrap_or_else(|e| panic!("{e:?}"));
    let config = hogs::config::Config::from_cli(cli).unwrap_or_else(|e| panic!("{e}"));
    let mut app = hogs::tui::app::App::new(
        config.walk.clone(),
        config.filters.clone(),
        hogs::tui::state::Options {
            mode: config.walk.mode,
            units: config.view.units,
            allow_delete: true,
        },
        hogs::tui::style::Styles::plain(),
    );
    let complete = hogs::tui::load(&config, &mut app).expect("load");
    assert!(complete);
    assert!(config.import.is_some(), "NEW.json is the new side");
    let term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height))
        .expect("test terminal");
    let mut j = Journey { app, term };
    j.draw();
    j
}

#[test]
fn a_second_export_is_the_new_side_shown_read_only() {
    let env = TestEnv::new();
    env.file("t/big", 100 * 1024)
        .file("t/dir/a", 30 * 1024)
        .file("t/gone", 20 * 1024)
        .file("t/same", 8 * 1024);
    env.stdout_ok(["-O", "old.json", "t"]);
    let before = |p: &str| env.du_disk(&[p]);
    let (big0, dir0, gone0, t0) = (
        before("t/big"),
        before("t/dir"),
        before("t/gone"),
        before("t"),
    );
    env.bash("rm t/gone");
    env.file("t/big", 10 * 1024).file("t/dir/new", 50 * 1024);
    env.stdout_ok(["-O", "new.json", "t"]);
    // the disk moves on after the export: the view shows the export, not the disk
    env.file("t/later", 500 * 1024);

    let mut j = open_view(&env, &["--diff", "old.json", "new.json"], 100, 16);
    let header = j.lines()[1].clone();
    assert!(header.contains("imported"), "{header}");
    assert!(header.contains("by change ↓"), "{header}");
    let now = |p: &str| {
        env.du_disk(&[p])
            - if p == "t" {
                env.du_disk(&["t/later"])
            } else {
                0
            }
    };
    assert!(
        header.contains(&format!("Δ {}", signed(t0, now("t")))),
        "{header}"
    );
    // by change: big (-90K), dir (+52K), gone (-20K, removed), same (=)
    assert_eq!(j.rows(), ["big", "dir", "gone", "same"]);
    assert_eq!(change_of(&j, "big"), signed(big0, now("t/big")));
    assert_eq!(change_of(&j, "dir"), signed(dir0, now("t/dir")));
    assert_eq!(change_of(&j, "gone"), signed(gone0, 0));
    assert!(j.row_line("gone").contains("(removed)"));
    assert_eq!(change_of(&j, "same"), "=");
    j.select("dir");
    j.keys("l");
    assert_eq!(j.rows(), ["new", "a"]);
    assert_eq!(change_of(&j, "new"), "new");
    // an export: nothing to delete or rescan on the disk
    j.keys("d");
    assert!(j.screen().contains("imported scan"), "{}", j.screen());
    j.keys("r");
    assert!(j.screen().contains("cannot be rescanned"), "{}", j.screen());
    assert!(env.path("t/dir/new").exists());
}
