//! `--diff OLD.ncdu --import NEW.ncdu` of two ncdu 2 binary exports, compared on demand:
//! every view prints byte for byte what the comparison of the loaded exports prints
//! (`HOGS_DEBUG_IMPORT=load` forces the load; any other value has hogs say which way it
//! compared), and damage in either file is one line naming it and exit status 1, with no
//! partial comparison.

use std::path::Path;

use crate::ncdu_binary::small_export;
use crate::util::*;

/// The views compared: bars, JSON, the options they take.
const VIEWS: &[&[&str]] = &[
    &[],
    &["-n", "3"],
    &["-n", "1"],
    &["-n", "200"],
    &["-d", "1"],
    &["-d", "2", "-n", "50"],
    &["-j"],
    &["-j", "-d", "1"],
    &["-z", "5000"],
    &["-D"],
    &["-s"],
    &["-r"],
    &["-p", "-n", "40"],
    &["-b", "-c", "-w", "60"],
];

/// hogs comparing `old` with `new` with `view`, as `how` says (`load`, or anything: say
/// which way).
fn run_as(env: &TestEnv, how: &str, old: &Path, new: &Path, view: &[&str]) -> std::process::Output {
    env.hogs()
        .env("HOGS_DEBUG_IMPORT", how)
        .arg("--diff")
        .arg(old)
        .arg("--import")
        .arg(new)
        .args(["-w", "100"])
        .args(view)
        .output()
        .expect("run hogs")
}

/// Every view of the comparison made on demand prints what the loaded one prints, with the
/// same status and errors; returns how many were compared on demand.
fn same_as_loaded(env: &TestEnv, old: &Path, new: &Path) -> usize {
    let mut lazy = 0;
    for view in VIEWS {
        let loaded = run_as(env, "load", old, new, view);
        let read = run_as(env, "say", old, new, view);
        let what = format!("{} {} {view:?}", old.display(), new.display());
        let said = String::from_utf8_lossy(&read.stderr).into_owned();
        let (first, rest) = said.split_once('\n').unwrap_or(("", ""));
        assert!(first.starts_with("hogs: diff: "), "{what}: {said}");
        lazy += usize::from(first == "hogs: diff: compared on demand");
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

/// A tree with work for every kind of change.
fn old_tree(env: &TestEnv) {
    for d in [
        "t/a/b/c",
        "t/d",
        "t/e/same/deep",
        "t/r/in/deeper",
        "t/swap",
        "t/gone/x",
    ] {
        env.mkdir(d);
    }
    let files = [
        ("t/a/1", 5000),
        ("t/a/2", 5000),
        ("t/a/b/3", 9000),
        ("t/a/b/c/4", 100),
        ("t/d/5", 0),
        ("t/d/6", 12000),
        ("t/e/same/deep/f", 7000),
        ("t/r/in/deeper/old-name", 3000),
        ("t/r/keep", 3000),
        ("t/swap/file-then-dir", 4096),
        ("t/gone/x/y", 20000),
        ("t/7", 4096),
    ];
    for (f, len) in files {
        env.file(f, len);
    }
    env.mkdir("t/swap/dir-then-file")
        .file("t/swap/dir-then-file/z", 100);
    for i in 0..60 {
        env.file(format!("t/d/many{i}"), 1000 * (i % 5));
    }
}

/// Adds, removes, growth and shrinking, a file replaced by a directory and the reverse, a
/// rename deep in a directory whose totals stay the same, order of listing changed.
fn change(env: &TestEnv) {
    let rm = |p: &str| {
        let p = env.path(p);
        match p.is_dir() {
            true => std::fs::remove_dir_all(&p).expect("rm -r"),
            false => std::fs::remove_file(&p).expect("rm"),
        }
    };
    env.file("t/a/1", 40000).file("t/a/b/c/4", 0);
    rm("t/a/2");
    rm("t/gone");
    env.mkdir("t/new/sub").file("t/new/sub/n", 8000);
    std::fs::rename(
        env.path("t/r/in/deeper/old-name"),
        env.path("t/r/in/deeper/new-name"),
    )
    .expect("rename");
    rm("t/swap/file-then-dir");
    env.mkdir("t/swap/file-then-dir")
        .file("t/swap/file-then-dir/w", 3000);
    rm("t/swap/dir-then-file");
    env.file("t/swap/dir-then-file", 9000);
    for i in (0..60).step_by(7) {
        rm(&format!("t/d/many{i}"));
        env.file(format!("t/d/many{i}"), 1000 * (i % 5));
    }
    env.file("t/d/many3", 77777);
}

/// `t` exported as a binary file, from the scanned tree (`-O -`, not the walk streamed into
/// a file): the comparisons below are of what is stored, whoever wrote it.
fn export(env: &TestEnv, file: &str) -> std::path::PathBuf {
    let bytes = env.stdout_ok(["-O", "-", "--export-format", "binary", "t"]);
    std::fs::write(env.path(file), bytes).expect("write");
    env.path(file)
}

#[test]
fn two_binary_exports_compared_on_demand_print_what_the_loaded_comparison_prints() {
    let env = TestEnv::new();
    old_tree(&env);
    let old = export(&env, "old.ncdu");
    change(&env);
    let new = export(&env, "new.ncdu");
    let all = VIEWS.len();
    assert_eq!(same_as_loaded(&env, &old, &new), all, "all on demand");
    assert_eq!(same_as_loaded(&env, &new, &old), all, "all on demand");
    // nothing changed: only the top
    assert_eq!(same_as_loaded(&env, &new, &new), all, "all on demand");
    // only a rename, deep below directories whose totals stay the same
    std::fs::rename(env.path("t/e/same/deep/f"), env.path("t/e/same/deep/g")).expect("mv");
    let renamed = export(&env, "renamed.ncdu");
    assert_eq!(same_as_loaded(&env, &new, &renamed), all, "all on demand");
    let out = run_as(&env, "say", &new, &renamed, &["-j"]);
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(
        json.contains(r#""name":"same","type":"dir","old":"#),
        "{json}"
    );
    // what could not be read, on both sides
    env.mkdir("t/locked/in")
        .file("t/locked/in/f", 10)
        .chmod("t/locked", 0o300);
    env.mkdir("t/nostat")
        .file("t/nostat/g", 10)
        .chmod("t/nostat", 0o644);
    let unprivileged = |file: &str| {
        let out = env.run_unprivileged(["-O", "-", "--export-format", "binary", "t"]);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        std::fs::write(env.path(file), &out.stdout).expect("write");
        env.path(file)
    };
    let errors = unprivileged("errors.ncdu");
    assert_eq!(
        same_as_loaded(&env, &renamed, &errors),
        all,
        "all on demand"
    );
    env.file("t/locked/more", 5000).file("t/d/6", 1);
    let errors2 = unprivileged("errors2.ncdu");
    assert_eq!(
        same_as_loaded(&env, &errors, &errors2),
        all,
        "all on demand"
    );
    // hard links: whichever way is taken, the same comparison
    env.hardlink("t/a/1", "t/d/link1");
    let linked = export(&env, "linked.ncdu");
    same_as_loaded(&env, &renamed, &linked);
    same_as_loaded(&env, &linked, &renamed);
}

#[test]
fn damage_in_either_export_of_a_comparison_is_one_line_naming_it() {
    let env = TestEnv::new();
    let good = small_export(3, None);
    std::fs::write(env.path("good.ncdu"), &good).expect("write");
    let mut bad = good.clone();
    bad[8 + 8] ^= 0xff; // a zstd frame damaged
    for (name, bytes) in [
        ("cut.ncdu", &good[..good.len() / 2]),
        ("frame.ncdu", &bad[..]),
    ] {
        std::fs::write(env.path(name), bytes).expect("write");
        for (old, new) in [("good.ncdu", name), (name, "good.ncdu")] {
            for view in [&[][..], &["-j"], &["-n", "1"]] {
                let out = env
                    .hogs()
                    .args(["--diff", old, "--import", new, "--diff-root-any"])
                    .args(view)
                    .output()
                    .expect("run hogs");
                let err = String::from_utf8_lossy(&out.stderr).into_owned();
                assert_eq!(out.status.code(), Some(1), "{old} {new} {view:?}: {err}");
                assert!(out.stdout.is_empty(), "no partial comparison: {old} {new}");
                assert!(
                    err.starts_with(&format!("hogs: cannot import '{name}': "))
                        && err.lines().count() == 1,
                    "{old} {new} {view:?}: {err}"
                );
            }
        }
    }
}

/// hogs comparing export `old` with a walk of `t`, as `how` says; `shut`: as the
/// unprivileged user, to whom some directories are shut.
fn walk_as(
    env: &TestEnv,
    how: &str,
    old: &Path,
    view: &[&str],
    shut: bool,
) -> std::process::Output {
    let mut cmd = match shut {
        true => unprivileged(&hogs_bin()),
        false => std::process::Command::new(hogs_bin()),
    };
    for var in ["NO_COLOR", "CLICOLOR_FORCE", "COLUMNS", "LINES"] {
        cmd.env_remove(var);
    }
    cmd.current_dir(env.root())
        .env("XDG_CONFIG_HOME", env.path("no-such-config-dir"))
        .env("HOME", env.path("no-such-home"))
        .env("HOGS_DEBUG_IMPORT", how)
        .arg("--diff")
        .arg(old)
        .args(["t", "-w", "100"])
        .args(view)
        .output()
        .expect("run hogs")
}

/// `--diff OLD.ncdu PATH` with every view prints what the walk compared with the loaded
/// export prints; returns how many were compared on demand (the rest: from the walk's
/// temporary export loaded, PATH walked once).
fn walk_same_as_loaded(env: &TestEnv, old: &Path, shut: bool) -> usize {
    let mut lazy = 0;
    for view in VIEWS {
        let loaded = walk_as(env, "load", old, view, shut);
        let read = walk_as(env, "say", old, view, shut);
        let what = format!("{} t {view:?}", old.display());
        let said = String::from_utf8_lossy(&read.stderr).into_owned();
        let (first, rest) = said.split_once('\n').unwrap_or(("", ""));
        assert!(first.starts_with("hogs: diff: "), "{what}: {said}");
        lazy += usize::from(first == "hogs: diff: compared on demand");
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

#[test]
fn a_binary_export_compared_with_a_walk_streamed_on_demand_prints_what_the_load_prints() {
    let env = TestEnv::new();
    old_tree(&env);
    let old = export(&env, "old.ncdu");
    let all = VIEWS.len();
    assert_eq!(
        walk_same_as_loaded(&env, &old, false),
        all,
        "nothing changed"
    );
    change(&env);
    env.symlink("1", "t/a/link");
    assert_eq!(walk_same_as_loaded(&env, &old, false), all, "all on demand");
    // the walk's errors, after the export's
    env.mkdir("t/locked/in")
        .file("t/locked/in/f", 10)
        .chmod("t/locked", 0o300);
    assert_eq!(walk_same_as_loaded(&env, &old, true), all, "all on demand");
    // hard links whose name that counts only the whole file tells: the temporary export
    // loaded, not PATH walked again
    env.hardlink("t/a/1", "t/d/link1");
    env.hardlink("t/a/1", "t/0link");
    walk_same_as_loaded(&env, &old, false);
    // nothing left in $TMPDIR
    let tmp = env.path("tmp");
    env.mkdir("tmp");
    let out = env
        .hogs()
        .env("TMPDIR", &tmp)
        .args(["--diff", "old.ncdu", "t"])
        .output()
        .expect("run hogs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let left: Vec<_> = std::fs::read_dir(&tmp).expect("tmp").collect();
    assert!(left.is_empty(), "{left:?}");
}
