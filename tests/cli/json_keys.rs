//! Every number of every node of `-j` is du's, in every mode: `disk_bytes` is `du -B1`,
//! `apparent_bytes` `du -b`, `entries` `du --inodes` of that node, counted in the one walk of
//! the root as du counts it (a hard link at the name du meets first), whatever the view
//! counts by (`-f`, `-s`, `-m`) and whatever it shows (`-F`, `-d`), walked or imported.

use std::collections::HashMap;

use serde_json::Value;

use crate::util::*;

/// Hard links across directories, a sparse file, a symlink, a FIFO, an empty directory.
fn linked_tree(env: &TestEnv) {
    mixed_tree(env, "d");
    env.hardlink("d/a/b/big", "d/z/big-again");
    env.hardlink("d/a/f4097", "d/a/b/c/f4097-again");
    env.sparse("d/z2/sparse", 10 << 20);
    env.symlink("../a", "d/z/to-a");
    env.fifo("d/z2/fifo");
}

/// du's numbers for every path below and at `d`, by key, from one run of `du -a` each.
fn du_by_key(env: &TestEnv, flags: &[&str]) -> HashMap<&'static str, HashMap<String, u64>> {
    let keys = [
        ("disk_bytes", "-B1"),
        ("apparent_bytes", "-b"),
        ("entries", "--inodes"),
    ];
    keys.iter()
        .map(|&(key, unit)| {
            let mut args = vec!["-a", unit];
            args.extend_from_slice(flags);
            args.push("d");
            let lines = env.du_lines(&args);
            let by_path = lines
                .into_iter()
                .map(|(n, p)| (String::from_utf8(p).expect("UTF-8"), n));
            (key, by_path.collect())
        })
        .collect()
}

/// Checks every node of a `-j` document against du; `prefix` is taken off the names of an
/// import (its root is the absolute path). Returns the number of nodes checked.
fn check_nodes(
    v: &Value,
    du: &HashMap<&'static str, HashMap<String, u64>>,
    prefix: &str,
    what: &str,
) -> usize {
    let name = full_name(v);
    let path = name.strip_prefix(prefix).unwrap_or(name);
    let mut checked = 1;
    for (key, by_path) in du {
        let want = by_path
            .get(path)
            .unwrap_or_else(|| panic!("{what}: du has no {path:?}"));
        assert_eq!(field_u64(v, key), *want, "{what}: {key} of {path} vs du");
    }
    for c in children(v) {
        checked += check_nodes(c, du, prefix, what);
    }
    checked
}

/// The modes a walk is shown in: every one names each node by its path below `d`.
const MODES: &[&str] = &[
    "", "-s", "-b", "-f", "-m m", "-F", "-F -f", "-F -s", "-d 1 -f", "-d 0 -f", "-D -f", "-T 1 -f",
    "-r -f", "-z 2 -f",
];

#[test]
fn every_key_of_every_node_is_dus_in_every_mode() {
    let env = TestEnv::new();
    linked_tree(&env);
    let du = du_by_key(&env, &[]);
    for mode in MODES {
        let mut args: Vec<&str> = mode.split_whitespace().collect();
        args.push("d");
        let v = env.json(&args);
        let checked = check_nodes(&v, &du, "", &format!("hogs -j {args:?}"));
        assert!(
            checked > 1 || mode.contains("-d 0"),
            "hogs -j {args:?}: {checked} nodes"
        );
    }
    let du_x = du_by_key(&env, &["-x"]);
    check_nodes(&env.json(["-x", "-f", "d"]), &du_x, "", "hogs -j -x -f d");
    // several paths: "(total)" is du -c's total (a file linked in both counted once)
    let total = env.json(["-f", "-d", "0", "d/a", "d/z"]);
    for (key, unit) in [
        ("disk_bytes", "-B1"),
        ("apparent_bytes", "-b"),
        ("entries", "--inodes"),
    ] {
        let want = env.du_total(&[unit], &["d/a", "d/z"]);
        assert_eq!(
            field_u64(&total, key),
            want,
            "hogs -j -f d/a d/z: {key} of (total)"
        );
    }
}

/// An import, JSON loaded or binary on demand, gives du's numbers whatever it counts.
#[test]
fn every_key_of_an_imported_node_is_dus() {
    let env = TestEnv::new();
    linked_tree(&env);
    let du = du_by_key(&env, &[]);
    let prefix = format!("{}/", env.root().display());
    for export in ["x.json", "x.ncdu", "counted.ncdu"] {
        let count = if export.starts_with("counted") {
            "-f"
        } else {
            "-s"
        };
        env.stdout_ok(["-O", export, count, "d"]);
        for mode in ["", "-f", "-s", "-F -f", "-d 1 -f", "-d 0 -f"] {
            let mut args: Vec<&str> = mode.split_whitespace().collect();
            args.extend(["--import", export]);
            let v = env.json(&args);
            check_nodes(&v, &du, &prefix, &format!("hogs -j {args:?}"));
        }
    }
}

/// The views that group files (`-t`) or owners (`--by-owner`) count the same bytes with
/// `-f` as without: the walk keeps both sizes for `-j` whatever it counts.
#[test]
fn grouped_views_keep_their_bytes_with_f() {
    let env = TestEnv::new();
    linked_tree(&env);
    for view in ["-t", "--by-owner"] {
        let sized = env.json([view, "d"]);
        let counted = env.json([view, "-f", "d"]);
        for key in ["disk_bytes", "apparent_bytes", "entries"] {
            assert_eq!(
                field_u64(&counted, key),
                field_u64(&sized, key),
                "hogs -j {view} -f d: {key} of the root vs without -f"
            );
            let (kid, sized_kid) = (&children(&counted)[0], &children(&sized)[0]);
            assert_eq!(
                field_u64(kid, key),
                field_u64(sized_kid, key),
                "hogs -j {view} -f d: {key} of {} vs without -f",
                full_name(kid)
            );
        }
    }
    let owners = env.json(["--by-owner", "-f", "d"]);
    assert_eq!(field_u64(&owners, "disk_bytes"), env.du_disk(&["d"]));
    assert_eq!(
        field_u64(&owners, "apparent_bytes"),
        env.du_apparent(&["d"])
    );
}
