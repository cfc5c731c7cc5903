//! Issue 24: `-F` lists what dust lists. dust takes every entry with nothing below it for a
//! file (filter.rs: `only_file` keeps the nodes without children): an empty directory, one
//! whose every file a filter left out, one that could not be read. And `-F -j` is dust's flat
//! document: the path (or `(total)`) with the files as its children, each named by its path.

use serde_json::Value;

use super::both::run_both;
use super::{dust, dust_bin, hogs, parse};
use crate::util::*;

/// Files of different sizes, empty directories at several depths (`u/a` is the whole of the
/// second path `u`), a directory of `.gz` files only, and one neither can read (unless root).
fn leaves_tree(env: &TestEnv) {
    env.file("t/big", 90_000)
        .file("t/v/f", 20_000)
        .file("t/v/w/g", 9_000);
    env.mkdir("t/empty").mkdir("t/v/w/x/y").mkdir("u/a");
    env.file("t/gz/a.gz", 30_000).file("t/gz/b.gz", 12_000);
    env.file("t/locked/inside", 5000);
    env.chmod("t/locked", 0o000);
}

/// The flat list, in the text views and with the flags that choose its rows.
#[test]
fn only_files_lists_empty_directories_as_dust_does() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    leaves_tree(&env);
    let cases: &[&[&str]] = &[
        &["-F", "t"],
        &["-F", "t", "u"],
        &["-F", "-r", "t", "u"],
        &["-F", "-n", "3", "t"],
        &["-F", "-d", "1", "t"],
        &["-F", "-d", "3", "t"],
        &["-F", "-s", "t"],
        &["-F", "-p", "t"],
        &["-F", "-R", "t", "u"],
        &["-F", "-v", r"\.gz$", "t"],
        &["-F", "-e", "v", "t"],
        &["-F", "--skip-total", "t", "u"],
        &["-F", "u"],
    ];
    for case in cases {
        let args = [&["-c", "-w", "90"], *case].concat();
        let Some((ours, theirs)) = run_both(&env, &bin, &args, &[]) else {
            panic!("dust {args:?} panicked");
        };
        assert!(!theirs.is_empty(), "dust {args:?} printed nothing");
        assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
    }
}

/// A node reduced to dust's keys, children in the order given.
fn dust_keys(v: &Value) -> Value {
    let kids: Vec<Value> = children(v).iter().map(dust_keys).collect();
    serde_json::json!({ "size": v["size"], "name": v["name"], "children": kids })
}

/// `-F -j`: dust's document, reduced to dust's keys.
#[test]
fn only_files_json_is_dusts_flat_list() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    leaves_tree(&env);
    let cases: &[&[&str]] = &[
        &["t"],
        &["t/"],
        &["./t"],
        &["t", "u"],
        &["-d", "2", "t"],
        &["-s", "t"],
        &["-v", r"\.gz$", "t"],
    ];
    for case in cases {
        let args = [&["-F", "-j"], *case].concat();
        let theirs = dust_keys(&parse(&dust(&env, &bin, &args), "dust"));
        let ours = parse(&hogs(&env, &args), "hogs");
        assert_eq!(dust_keys(&ours), theirs, "hogs vs dust {args:?}");
        // hogs's own keys are still there
        assert!(ours["disk_bytes"].is_u64(), "{ours}");
    }
}
