//! `hogs i --diff OLD`: a change column, a sort by change and the change in the header, on
//! a real tree changed after an export; du before and after is the oracle.

use hogs::config::{SizeMode, UnitStyle};
use hogs::render::diff::signed_size;
use hogs::tree::Tree;

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
    // biggest change first, whatever its sign; the unchanged entry last
    assert_eq!(j.rows(), ["mid", "big", "fresh", "same"]);
    let header = &j.lines()[1];
    assert!(header.contains("by change ↓"), "{header}");
    let total = signed(du_before[0], env.du_disk(&["t"]));
    assert!(header.contains(&format!("Δ {total}")), "{header}");
    let small = hogs::units::format_size(du_before[4], SizeMode::Disk, UnitStyle::HumanIec);
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

    // s sorts by size again, D by change
    j.keys("s");
    assert_eq!(j.rows(), ["mid", "fresh", "big", "same"]);
    j.keys("D");
    assert_eq!(j.rows(), ["mid", "big", "fresh", "same"]);
    j.keys("D");
    assert!(j.lines()[1].contains("by change ↑"), "{}", j.lines()[1]);
    assert_eq!(j.rows(), ["same", "fresh", "big", "mid"]);
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
    assert_eq!(j.rows(), ["mid", "big", "same"]);
    let total = signed(du_before[0], env.du_disk(&["t"]));
    assert!(
        j.lines()[1].contains(&format!("Δ {total}")),
        "{}",
        j.lines()[1]
    );
}
