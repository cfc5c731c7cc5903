//! Cold cache: metadata on disk wants many more threads than cores (requests in flight), cached
//! metadata wants a thread per core. Below a root that reads cached, the walk must notice the
//! disk and start the threads it held back. Needs root (to drop the page cache).

use crate::util::{is_root, TestEnv};
use std::fs;
use std::process::Command;

const TOP: usize = 8;
const SUBDIRS: usize = 40;
const FILES: usize = 4;

/// `sync; echo 3 > /proc/sys/vm/drop_caches`; false where that is not allowed.
fn drop_caches() -> bool {
    let synced = Command::new("sync").status().is_ok_and(|s| s.success());
    synced && fs::write("/proc/sys/vm/drop_caches", "3\n").is_ok()
}

/// The walk's own account of its threads (`HOGS_DEBUG_WALK`), and what it printed.
fn walk_report(env: &TestEnv, path: &str) -> (String, Vec<u8>) {
    let out = env
        .hogs()
        .env("HOGS_DEBUG_WALK", "1")
        .args(["-d", "1", "-c", path])
        .output()
        .expect("run hogs");
    assert!(out.status.success(), "hogs failed: {out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report = stderr
        .lines()
        .find(|l| l.starts_with("hogs: walk: "))
        .unwrap_or_else(|| panic!("no walk report in {stderr:?}"))
        .to_owned();
    (report, out.stdout)
}

fn threads(report: &str) -> usize {
    report["hogs: walk: ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no thread count in {report:?}"))
}

#[test]
fn threads_held_back_start_when_the_walk_reads_from_disk() {
    let may_drop = fs::OpenOptions::new()
        .write(true)
        .open("/proc/sys/vm/drop_caches")
        .is_ok();
    if !is_root() || !may_drop {
        skip!("skipped: dropping the page cache needs root");
        return;
    }
    let env = TestEnv::new_on_disk();
    env.mkdir("warmup/sub");
    for t in 0..TOP {
        for s in 0..SUBDIRS {
            env.mkdir(format!("t/d{t}/s{s}"));
            for f in 0..FILES {
                env.file(format!("t/d{t}/s{s}/f{f}"), 100);
            }
        }
    }

    // Cached: one thread per core, none held back started (the timing check at the root may
    // misjudge a loaded machine, the count of blocks read never does: one run in three).
    let (warm, warm_out) = walk_report(&env, "t");
    let warm_runs: Vec<String> = (0..2).map(|_| walk_report(&env, "t").0).collect();
    for r in std::iter::once(&warm).chain(&warm_runs) {
        assert!(!r.contains("grown"), "a cached walk read from disk: {r}");
    }
    assert!(
        threads(&warm) <= 8 || warm_runs.iter().any(|r| threads(r) <= 8),
        "cached walks started {warm} / {warm_runs:?}"
    );

    // On disk below a cached root: the held threads start.
    let mut reports = Vec::new();
    for _ in 0..3 {
        if !drop_caches() {
            skip!("skipped: cannot drop the page cache here");
            return;
        }
        // the binary and the root back in the cache; everything below the root on disk
        walk_report(&env, "warmup");
        for e in fs::read_dir(env.path("t")).expect("read t") {
            e.expect("entry of t").metadata().expect("stat entry of t");
        }
        let (cold, cold_out) = walk_report(&env, "t");
        assert_eq!(cold_out, warm_out, "a cold walk counted differently");
        if cold.contains("grown") {
            assert!(threads(&cold) > threads(&warm), "{cold} after {warm}");
            return;
        }
        reports.push(cold);
    }
    panic!("the walk never grew its pool on a cold cache: {reports:?} (cached: {warm})");
}
