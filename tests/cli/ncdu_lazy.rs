//! `--import x.ncdu` read on demand: the static views of an ncdu 2 binary export print byte
//! for byte what the loaded import prints (`HOGS_DEBUG_IMPORT=load` forces the load; any other
//! value has hogs say which way it read), and a damaged file is one line and exit status 1,
//! with no partial view.

use std::path::{Path, PathBuf};

use crate::ncdu_binary::{file_of, small_export};
use crate::util::*;

/// The views compared: the rows, -F's files, JSON, -R, sizes and orders.
const VIEWS: &[&[&str]] = &[
    &[],
    &["-d", "2"],
    &["-n", "30"],
    &["-n", "3", "-d", "9"],
    &["-j", "-d", "1"],
    &["-j", "-n", "5"],
    &["-F"],
    &["-F", "-j"],
    &["-F", "-n", "2"],
    &["-s"],
    &["-f"],
    &["-r", "-D"],
    &["-p", "-d", "3"],
    &["-R"],
    &["-z", "5000"],
    &["-b", "-c", "-w", "60"],
];

/// hogs on `file` with `view`, read as `how` says (`load`, or anything: say which way).
fn run_as(env: &TestEnv, how: &str, file: &Path, view: &[&str]) -> std::process::Output {
    env.hogs()
        .env("HOGS_DEBUG_IMPORT", how)
        .arg("--import")
        .arg(file)
        .args(["-w", "100"])
        .args(view)
        .output()
        .expect("run hogs")
}

/// Every view of `file` read on demand prints what the loaded import prints, with the same
/// status and errors; returns how many were read on demand.
fn same_as_loaded(env: &TestEnv, file: &Path) -> usize {
    let mut lazy = 0;
    for view in VIEWS {
        let loaded = run_as(env, "load", file, view);
        let read = run_as(env, "say", file, view);
        let said = String::from_utf8_lossy(&read.stderr).into_owned();
        let (first, rest) = said.split_once('\n').unwrap_or(("", ""));
        assert!(
            first.starts_with("hogs: import: "),
            "{} {view:?}: {said}",
            file.display()
        );
        lazy += usize::from(first == "hogs: import: read on demand");
        let what = format!("{} {view:?}", file.display());
        assert_eq!(
            String::from_utf8_lossy(&read.stdout),
            String::from_utf8_lossy(&loaded.stdout),
            "{what}"
        );
        assert_eq!(read.stdout, loaded.stdout, "{what}");
        assert_eq!(rest.as_bytes(), &loaded.stderr[..], "{what}");
        assert_eq!(read.status.code(), loaded.status.code(), "{what}");
    }
    lazy
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ncdu2")
        .join(name)
}

/// Directories, files of many sizes (some equal: ties), a symlink, an excluded directory.
fn plain_tree(env: &TestEnv) {
    for d in ["t/a/b/c", "t/d", "t/e/empty", "t/skip"] {
        env.mkdir(d);
    }
    for (i, f) in [
        "t/a/1",
        "t/a/2",
        "t/a/b/3",
        "t/a/b/c/4",
        "t/d/5",
        "t/d/6",
        "t/7",
    ]
    .iter()
    .enumerate()
    {
        env.file(f, [5000, 5000, 9000, 100, 0, 12000, 4096][i]);
    }
    for i in 0..40 {
        env.file(format!("t/d/many{i}"), 1000 * (i % 4));
    }
    env.file("t/skip/x", 300);
    env.symlink("1", "t/a/link");
}

#[test]
fn views_of_a_binary_export_read_on_demand_print_what_the_loaded_import_prints() {
    let env = TestEnv::new();
    plain_tree(&env);
    env.stdout_ok(["-O", "plain.ncdu", "-X", "skip", "t"]);
    let plain = env.path("plain.ncdu");
    assert_eq!(
        same_as_loaded(&env, &plain),
        VIEWS.len(),
        "all read on demand"
    );
    // what could not be read: a directory not listed, entries not stat'ed, more than ten
    // errors (a closing line counts them); reported as the load reports them
    env.mkdir("t/locked/in")
        .file("t/locked/in/f", 10)
        .chmod("t/locked", 0o300);
    env.mkdir("t/nostat")
        .file("t/nostat/g", 10)
        .chmod("t/nostat", 0o644);
    for i in 0..10 {
        let d = format!("t/a/b/shut{i}");
        env.mkdir(&d).file(format!("{d}/f"), 10).chmod(&d, 0o300);
    }
    let export = |file: &str| {
        let out = env.run_unprivileged(["-O", "-", "--export-format", "binary", "t"]);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        std::fs::write(env.path(file), &out.stdout).expect("write");
        env.path(file)
    };
    let errors = export("errors.ncdu");
    assert_eq!(
        same_as_loaded(&env, &errors),
        VIEWS.len(),
        "all read on demand"
    );
    // a hard link whose other name is not in the scan: the one name counts
    env.file("elsewhere", 50000)
        .hardlink("elsewhere", "t/a/big2");
    let linked = export("linked.ncdu");
    assert_eq!(
        same_as_loaded(&env, &linked),
        VIEWS.len(),
        "all read on demand"
    );
    // two names in the scan, an empty file's two names: which counts only the whole file
    // tells (the views that meet one load it)
    env.hardlink("t/a/big2", "t/d/big3");
    env.empty("t/e/none").hardlink("t/e/none", "t/e/none2");
    same_as_loaded(&env, &export("linked2.ncdu"));
    // ncdu 2.8's own exports, with errors, exclusions, extended fields, two threads
    let mut on_demand = 0;
    for f in [
        "balanced.ncdu",
        "balanced-8k-blocks.ncdu",
        "tree.ncdu",
        "tree-extended.ncdu",
        "tree-exclude.ncdu",
        "tree-threads.ncdu",
        "tree-small-blocks.ncdu",
    ] {
        on_demand += same_as_loaded(&env, &fixture(f));
    }
    assert!(on_demand >= 2 * VIEWS.len(), "{on_demand}");
}

/// The views of a huge directory compared: every row of it (more than the 1 MiB a view
/// read on demand holds in memory), a few, its files, JSON, columns.
const WIDE_VIEWS: &[&[&str]] = &[
    &["-d", "1"],
    &["-n", "40"],
    &["-F", "-n", "25"],
    &["-j", "-d", "1"],
    &["-R", "-d", "1"],
];

/// Every view of `views` of `file` read on demand prints byte for byte what the loaded
/// import prints.
fn same_views(env: &TestEnv, file: &Path, views: &[&[&str]]) {
    for view in views {
        let loaded = run_as(env, "load", file, view);
        let read = run_as(env, "say", file, view);
        let what = format!("{} {view:?}", file.display());
        assert_eq!(
            String::from_utf8_lossy(&read.stderr),
            "hogs: import: read on demand\n",
            "{what}"
        );
        assert!(loaded.status.success(), "{what}: {loaded:?}");
        assert!(read.stdout == loaded.stdout, "{what}: the outputs differ");
        assert_eq!(read.status.code(), loaded.status.code(), "{what}");
    }
}

/// A directory of 20,000 entries (sizes that tie, names written out of order, a few
/// subdirectories among them: itemrefs out of order) and a 300-deep chain of directories,
/// each with a file: the entries of a huge directory are kept as listed, and found by
/// where they are listed, so a view of them is what the loaded import shows.
#[test]
fn a_huge_directory_and_a_deep_chain_read_on_demand_print_what_the_loaded_import_prints() {
    let env = TestEnv::new();
    env.mkdir("w/wide");
    for i in 0..20_000u64 {
        let n = i * 7919 % 20_000;
        if n % 2000 == 7 {
            env.mkdir(format!("w/wide/d{n}"));
            env.file(format!("w/wide/d{n}/in"), n);
        } else {
            env.file(format!("w/wide/f{n}"), n % 5 * 3000);
        }
    }
    env.stdout_ok(["-O", "wide.ncdu", "w"]);
    same_views(&env, &env.path("wide.ncdu"), WIDE_VIEWS);
    let mut deep = PathBuf::from("deep");
    for i in 0..300 {
        deep.push(format!("d{}", i % 3));
        env.mkdir(&deep);
        env.file(deep.join("f"), i % 4 * 4096);
    }
    env.stdout_ok(["-O", "deep.ncdu", "deep"]);
    let all = ["-d", "400", "-n", "1000"];
    let views: &[&[&str]] = &[
        &all,
        &["-p", "-d", "400", "-n", "1000"],
        &["-F", "-d", "400"],
    ];
    same_views(&env, &env.path("deep.ncdu"), views);
}

/// hogs on a file holding `bytes`, read on demand.
fn refused(env: &TestEnv, bytes: &[u8], args: &[&str]) -> String {
    std::fs::write(env.path("bad.ncdu"), bytes).expect("write");
    let out = env
        .hogs()
        .args(["--import", "bad.ncdu"])
        .args(args)
        .output()
        .expect("run hogs");
    assert_eq!(out.status.code(), Some(1), "{args:?}");
    assert!(out.stdout.is_empty(), "no partial view: {args:?}");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        err.starts_with("hogs: cannot import 'bad.ncdu': ") && err.lines().count() == 1,
        "{err}"
    );
    err
}

#[test]
fn damage_met_on_demand_is_one_line_and_exit_status_1() {
    let env = TestEnv::new();
    let good = small_export(3, None);
    for view in [&[][..], &["-j"], &["-F"], &["-n", "1"]] {
        // truncated anywhere (what is left is not even a signature: JSON to the reader)
        for cut in [0, 7, 9, good.len() / 2, good.len() - 1] {
            refused(&env, &good[..cut], view);
        }
        // a zstd frame damaged
        let mut bad = good.clone();
        bad[8 + 8] ^= 0xff;
        assert!(refused(&env, &bad, view).contains("block 0 (at byte 8) is damaged"));
        // not CBOR; an itemref outside the file
        assert!(refused(&env, &file_of(&[vec![0xff; 40]], 0), view).contains("item 0x0"));
        let e = refused(&env, &file_of(&[vec![0xa0]], 7 << 24), view);
        assert!(e.contains("block 7 is not in the file's index"), "{e}");
        // a child that is its own previous sibling: {0: 1, 1: "f", 2: 0, 3: 1} at 0;
        // {0: 0, 1: "/r", 11: 5, 12: 0} at 10 (the root last, as writers write it)
        let block = vec![
            0xa4, 0x00, 0x01, 0x01, 0x41, b'f', 0x02, 0x00, 0x03, 0x01, //
            0xa4, 0x00, 0x00, 0x01, 0x42, b'/', b'r', 0x0b, 0x05, 0x0c, 0x00,
        ];
        let e = refused(&env, &file_of(&[block], 10), view);
        assert!(e.contains("loop back to item 0x0"), "{e}");
        // a directory whose child is itself: {0: 0, 1: "/r", 11: 5, 12: 0}
        let block = vec![
            0xa4, 0x00, 0x00, 0x01, 0x42, b'/', b'r', 0x0b, 0x05, 0x0c, 0x00,
        ];
        let e = refused(&env, &file_of(&[block], 0), view);
        assert!(e.contains("references loop"), "{e}");
        // a directory claiming 2^32 entries
        let e = refused(&env, &small_export(2, Some(1 << 32)), view);
        assert!(e.contains("more than 4 billion"), "{e}");
    }
    // a claim the entries below do not meet, found when they are counted
    let e = refused(&env, &small_export(2, Some(5)), &["-j"]);
    assert!(
        e.contains("claims 5 entries below it, the file holds 2"),
        "{e}"
    );
}
