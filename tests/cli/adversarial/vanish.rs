//! Case 8, made deterministic: an entry that vanishes between its directory's listing and its
//! stat (or, with -f, a subdirectory between the listing and its open). strace holds the walk
//! right after it listed the argument (`inject=getdents64:delay_exit`: the listing is done,
//! the thread is not resumed yet), the test renames an entry away on the real filesystem,
//! then the walk goes on. What is left out must be named, and the exit status must be 1, as
//! du's "cannot access".

use std::fs;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{err_lines, have};
use crate::util::*;

/// How long strace holds the walk after the listing: far longer than a rename takes, even
/// on a loaded machine.
const HOLD_US: u64 = 2_000_000;

/// Runs `hogs ARGS` (with -T 1: the argument is listed by the calling thread) under strace,
/// and `during` once the first directory listing has returned and before the walk goes on.
/// None (with the reason printed) when strace is missing.
fn held_after_listing(env: &TestEnv, args: &[&str], during: impl FnOnce()) -> Option<Output> {
    if !have("strace") {
        skip!("skipped: strace is not available to hold the walk");
        return None;
    }
    let log = env.path("strace.log");
    let _ = fs::remove_file(&log);
    let inject = format!("inject=getdents64:delay_exit={HOLD_US}:when=1");
    let child = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=getdents64", "-e", &inject, "-o"])
        .arg(&log)
        .arg(hogs_bin())
        .args(["-T", "1"])
        .args(args)
        .current_dir(env.root())
        .env("XDG_CONFIG_HOME", env.path("no-such-config-dir"))
        .env("HOME", env.path("no-such-home"))
        .env_remove("COLUMNS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run strace");
    let start = Instant::now();
    while !fs::read_to_string(&log).is_ok_and(|l| l.contains("(DELAYED)")) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the walk never listed a directory under strace {args:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let held = Instant::now();
    during();
    // a slow machine could have resumed the walk before the rename: then this proves nothing
    assert!(
        held.elapsed() < Duration::from_micros(HOLD_US / 2),
        "the rename came too late to be sure the walk was still held {args:?}"
    );
    Some(child.wait_with_output().expect("wait for strace"))
}

/// d/keep (2 files), d/gone (300 files), d/f: `gone` is renamed out of d while the walk
/// waits between the listing of d and the rest.
fn tree() -> TestEnv {
    let env = TestEnv::new();
    env.file("d/keep/a", 5_000).file("d/keep/b", 7_000);
    for i in 0..300 {
        env.file(format!("d/gone/f{i}"), 4_000);
    }
    env.file("d/f", 3_000);
    env
}

fn assert_named(out: &Output, want: &str, args: &[&str]) {
    let lines = err_lines(out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?}: something was left out, exit 1: {out:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains(want)),
        "{args:?}: stderr names the vanished path ({want}): {lines:?}"
    );
    for l in &lines {
        assert!(l.starts_with("hogs: "), "{args:?}: stderr line {l:?}");
    }
}

/// The stat of the listed name (or, where its own task stats it, its open) fails with ENOENT:
/// "cannot access" or "cannot read directory", exit 1.
#[test]
fn directory_renamed_between_listing_and_stat_is_named() {
    for args in [&["-d", "0", "d"][..], &["-j", "d"], &["-d", "1", "d"]] {
        let env = tree();
        let moved = env.path("moved");
        let Some(out) = held_after_listing(&env, args, || {
            fs::rename(env.path("d/gone"), &moved).expect("rename d/gone away");
        }) else {
            return;
        };
        assert_named(&out, "'d/gone': No such file", args);
    }
}

/// A file renamed away between the listing and its stat is named as well.
#[test]
fn file_renamed_between_listing_and_stat_is_named() {
    let env = tree();
    let args = &["-j", "d"];
    let Some(out) = held_after_listing(&env, args, || {
        fs::rename(env.path("d/f"), env.path("f_moved")).expect("rename d/f away");
    }) else {
        return;
    };
    assert_named(&out, "cannot access 'd/f': No such file", args);
}

/// -f stats no directory it can open (root searches everywhere): the open of a listed
/// subdirectory that is gone fails, and that is said, whatever is shown.
#[test]
fn directory_gone_before_its_open_in_count_mode_is_named() {
    for args in [&["-f", "-d", "0", "d"][..], &["-f", "-j", "d"]] {
        let env = tree();
        let moved = env.path("moved");
        let Some(out) = held_after_listing(&env, args, || {
            fs::rename(env.path("d/gone"), &moved).expect("rename d/gone away");
        }) else {
            return;
        };
        assert_named(&out, "'d/gone': No such file", args);
    }
}
