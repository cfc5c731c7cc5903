//! Syscall counts, read with `strace -c`: the file-count mode must not stat every entry.

use crate::util::{hogs_bin, TestEnv};
use std::process::Command;

const DIRS: usize = 40;
const FILES_PER_DIR: usize = 50;

/// Number of stat-family calls (stat, lstat, fstat, newfstatat, statx; not statfs) that
/// `hogs ARGS` makes, from `strace -f -c`. `None` when strace cannot trace here.
fn stat_calls(env: &TestEnv, args: &[&str]) -> Option<u64> {
    let summary = env.path("strace.txt");
    let out = Command::new("strace")
        .arg("-f")
        .arg("-c")
        .arg("-o")
        .arg(&summary)
        .arg(hogs_bin())
        .args(args)
        .current_dir(env.root())
        // cargo's library path makes the dynamic loader probe (and stat) a dozen directories.
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .ok()?;
    if !out.status.success() {
        skip!(
            "skipped: strace failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    let text = std::fs::read_to_string(&summary).expect("read strace summary");
    let mut calls = 0;
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let Some(&syscall) = fields.last() else {
            continue;
        };
        if matches!(syscall, "stat" | "lstat" | "fstat" | "newfstatat" | "statx") {
            // `% time, seconds, usecs/call, calls, [errors,] syscall`
            calls += fields[3].parse::<u64>().expect("calls column");
        }
    }
    Some(calls)
}

fn tree(env: &TestEnv) {
    for d in 0..DIRS {
        env.mkdir(format!("t/d{d}"));
        for f in 0..FILES_PER_DIR {
            env.empty(format!("t/d{d}/f{f}"));
        }
    }
}

#[test]
fn filecount_stats_directories_not_entries() {
    if Command::new("strace").arg("-V").output().is_err() {
        skip!("skipped: strace is not installed");
        return;
    }
    let env = TestEnv::new();
    tree(&env);
    let dirs = (DIRS + 1) as u64;
    let entries = (DIRS * FILES_PER_DIR) as u64 + dirs;

    // The control: the size modes stat every entry, so the counter can see them.
    let Some(disk) = stat_calls(&env, &["-d", "0", "t"]) else {
        return;
    };
    assert!(
        disk >= entries,
        "hogs -d 0 t: {disk} stat calls for {entries} entries (strace counts too few?)"
    );

    let Some(count) = stat_calls(&env, &["-f", "-d", "0", "t"]) else {
        return;
    };
    // One fstat per directory plus the argument and a handful from the runtime.
    assert!(
        count <= dirs + 1 + 8,
        "hogs -f -d 0 t: {count} stat calls for {dirs} directories and {entries} entries\n{}",
        std::fs::read_to_string(env.path("strace.txt")).unwrap_or_default()
    );
}
