//! Issue 24: entries of equal size come in dust's order, byte for byte. dust orders nodes by
//! size, then by path (a `PathBuf`, compared component by component: `a/b` before `a-b`
//! before `a.b`, where bytes put `a/b` last), and takes the greatest first: the rows `-n`
//! keeps, the order of siblings, `-F`'s files, `-j`'s children, the paths given; `-t` orders
//! its groups by extension, then again by name when there is an `(others)`.

use serde_json::Value;

use super::{dust, dust_bin, hogs, parse};
use crate::util::*;

/// Equal sizes everywhere: empty files with names that sort differently as bytes and as
/// text (`Z`, `e1`, `é`, `ä`), 5,000-byte files and directories holding one of them at
/// depths one to four, `a/b` beside `a-b` and `a.b`, two directories named `dup` that dust
/// names apart (`dup(t)` and `dup(dup!)`, which compare the other way round from `t/dup` and
/// `t/dup!/dup`), and `types/` whose extensions tie (`k.` has the extension `.`).
fn ties_tree(env: &TestEnv) {
    env.mkdir("t").mkdir("u");
    for name in ["Z", "e1", "e2", "z", "é", "ä", "a.b.empty"] {
        env.empty(format!("t/{name}"));
    }
    env.empty("u/é");
    for rel in [
        "t/a/b",
        "t/a-b",
        "t/a.b",
        "t/a/c/f",
        "t/a/c.f",
        "t/m/f",
        "t/M/f",
        "t/ü/f",
        "t/n/o/f",
        "t/p/q/r/f",
        "t/p/q/r.s",
        "t/dup/f",
        "t/dup!/dup/f",
        "t/types/k.aa",
        "t/types/k.bb",
        "t/types/k.",
        "t/types/noext",
        "u/a/f",
        "u/b",
    ] {
        env.file(rel, 5000);
    }
    env.file("t/types/k.cc", 1);
}

/// `-j` reduced to dust's keys, children in the order given.
fn in_order(v: &Value) -> Value {
    let kids: Vec<Value> = children(v).iter().map(in_order).collect();
    serde_json::json!({ "size": v["size"], "name": v["name"], "children": kids })
}

/// The tree of bars and its variants, on one path, several, and two with one name: what
/// hogs prints is dust's, byte for byte.
#[test]
fn ties_are_ordered_as_dust_orders_them() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    ties_tree(&env);
    let path_sets: [&[&str]; 6] = [
        &["t"],
        &["t", "u"],
        &["--skip-total", "t", "u"],
        &["t/m", "t/n/o", "t/ü"],
        // as given, `t/dup!/dup` would come first: as named, `t/dup(t)` does
        &["t/dup!/dup", "t/dup"],
        &["t/types"],
    ];
    let flag_sets: [&[&str]; 17] = [
        &[],
        &["-r"],
        &["-n", "5"],
        &["-n", "12"],
        &["-r", "-n", "9"],
        &["-d", "2"],
        &["-d", "1"],
        &["-F"],
        &["-F", "-n", "6"],
        &["-t"],
        &["-t", "-n", "3"],
        &["-t", "-n", "5"],
        &["-s"],
        &["-s", "-n", "7"],
        &["-s", "-F"],
        &["-D"],
        &["-p", "-R"],
    ];
    for flags in flag_sets {
        for paths in path_sets {
            if flags == ["-D"] && paths == path_sets[4] {
                // dust asks the disk whether `t/dup(t)`, its label, is a directory, and
                // drops both paths
                continue;
            }
            let args = [&["-c", "-w", "100"], flags, paths].concat();
            let ours = String::from_utf8_lossy(&hogs(&env, &args)).into_owned();
            let theirs = String::from_utf8_lossy(&dust(&env, &bin, &args)).into_owned();
            assert!(!theirs.is_empty(), "dust {args:?} printed nothing");
            assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
        }
    }
}

/// `-j`: the same documents as dust's, children in dust's order.
#[test]
fn json_children_of_one_size_come_in_dusts_order() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    ties_tree(&env);
    let cases: &[&[&str]] = &[
        &["t"],
        &["-d", "2", "t"],
        &["-s", "t"],
        &["t", "u"],
        &["t/dup!/dup", "t/dup"],
        &["-t", "t/types"],
        &["-t", "-n", "5", "t/types"],
    ];
    for args in cases {
        let all = [&["-j"][..], args].concat();
        let theirs = in_order(&parse(&dust(&env, &bin, &all), "dust"));
        let ours = in_order(&parse(&hogs(&env, &all), "hogs"));
        assert_eq!(ours, theirs, "hogs vs dust {all:?}");
    }
}
