//! Syscall counts, read with `strace -c`: the file-count mode must not stat every entry.

use crate::util::{hogs_bin, is_ext4, is_root, TestEnv};
use std::process::Command;

const DIRS: usize = 40;
const FILES_PER_DIR: usize = 50;

/// Number of stat-family calls (stat, lstat, fstat, newfstatat, statx; not statfs) that
/// `hogs ARGS` makes, from `strace -f -c`. `None` when strace cannot trace here.
fn stat_calls(env: &TestEnv, args: &[&str]) -> Option<u64> {
    calls_of(
        env,
        args,
        &["stat", "lstat", "fstat", "newfstatat", "statx"],
    )
}

/// Number of calls of the `syscalls` that `hogs ARGS` makes, from `strace -f -c`.
fn calls_of(env: &TestEnv, args: &[&str], syscalls: &[&str]) -> Option<u64> {
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
        if syscalls.contains(&syscall) {
            // `% time, seconds, usecs/call, calls, [errors,] syscall`
            calls += fields[3].parse::<u64>().expect("calls column");
        }
    }
    Some(calls)
}

/// Whether strace(1) can be run; says so on stderr when it cannot.
fn have_strace() -> bool {
    let have = Command::new("strace").arg("-V").output().is_ok();
    if !have {
        skip!("skipped: strace is not installed");
    }
    have
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
#[cfg_attr(
    feature = "portable-walk",
    ignore = "openat2's RESOLVE_NO_XDEV is the Linux backend's"
)]
fn filecount_stats_directories_not_entries() {
    if !have_strace() {
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
    // A process that may search any directory (root) stats none of them: each one's device
    // is its parent's (openat2 fails on a mount point) and its inode is in the listing.
    if is_root() {
        assert!(
            count <= 1 + 8,
            "hogs -f -d 0 t as root: {count} stat calls for {dirs} directories\n{}",
            std::fs::read_to_string(env.path("strace.txt")).unwrap_or_default()
        );
    }
}

/// ext4 marks the end of a listing in its last read: one getdents64 per directory, not the
/// second, empty one that otherwise tells the end; and a directory that takes several reads
/// is still read to its end (every name counted, as du counts them).
#[test]
#[cfg_attr(
    feature = "portable-walk",
    ignore = "ending a listing without its empty read is the Linux backend's"
)]
fn ext4_directories_are_read_with_one_getdents_each() {
    if !have_strace() {
        return;
    }
    let env = TestEnv::new_on_disk();
    if !is_ext4(env.root()) {
        skip!("skipped: the target directory is not on ext4");
        return;
    }
    tree(&env);
    // ~150 bytes a getdents64 record: 6,000 of them fill the 128 KiB buffer 7 times
    let long = "n".repeat(120);
    env.mkdir("t/wide");
    for i in 0..6000 {
        env.empty(format!("t/wide/{long}{i}"));
    }
    let dirs = (DIRS + 2) as u64;
    let Some(reads) = calls_of(&env, &["-d", "0", "t"], &["getdents64"]) else {
        return;
    };
    assert!(
        reads <= dirs + 7,
        "{reads} getdents64 calls for {dirs} directories\n{}",
        std::fs::read_to_string(env.path("strace.txt")).unwrap_or_default()
    );
    assert!(
        reads >= dirs + 6,
        "{reads} reads: the wide directory was not read whole"
    );
    assert_eq!(env.total(["-f", "t"]), env.du_inodes(&["t"]));
    assert_eq!(env.total(["t"]), env.du_disk(&["t"]));
}
