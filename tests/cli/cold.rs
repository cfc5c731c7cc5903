//! Cold cache: metadata on disk wants many more threads than cores (requests in flight), cached
//! metadata wants a thread per core. Below a root that reads cached, the walk must notice the
//! disk and start the threads it held back. Needs root (to drop the page cache).

use crate::util::{debug_walk, is_root, walk_threads, TestEnv};
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

/// `hogs -d 1 -c PATH`: the walk's account of its threads, and what it printed.
fn walk_report(env: &TestEnv, path: &str) -> (String, Vec<u8>) {
    debug_walk(env, &["-d", "1", "-c", path])
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
        walk_threads(&warm) <= 8 || warm_runs.iter().any(|r| walk_threads(r) <= 8),
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
            assert!(
                walk_threads(&cold) > walk_threads(&warm),
                "{cold} after {warm}"
            );
            return;
        }
        reports.push(cold);
    }
    panic!("the walk never grew its pool on a cold cache: {reports:?} (cached: {warm})");
}
