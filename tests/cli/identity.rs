//! The walker's hooks for the interactive view and exports, used through the library: every
//! node's scanned `(dev, ino)`, and a walk that can be watched and stopped.

use std::ffi::OsString;
use std::os::unix::fs::MetadataExt;
use std::sync::atomic::Ordering;

use hogs::vocab::SizeMode;
use hogs::walk::{walk, walk_live, LiveScan, Progress};
use hogs::walk::{Exclusions, WalkOptions};

use crate::util::TestEnv;

fn options(mode: SizeMode, threads: usize, keep_identity: bool) -> WalkOptions {
    WalkOptions {
        mode,
        keep_sizes: false,
        one_filesystem: false,
        follow_links: false,
        exclusions: Exclusions::default(),
        threads: Some(threads),
        keep_identity,
        sparse_identity: false,
        keep_extra: false,
        keep_times: true,
        fold_files: false,
    }
}

#[test]
fn identity_of_every_node_is_its_dev_and_ino() {
    let env = TestEnv::new();
    env.file("t/a/x", 10).file("t/a/b/y", 5000).file("t/z", 1);
    env.mkdir("t/empty");
    std::os::unix::fs::symlink("a", env.path("t/link")).expect("symlink");
    let root: OsString = env.path("t").into();
    for mode in [SizeMode::Disk, SizeMode::Count] {
        for threads in [1, 4] {
            let scan = walk(
                std::slice::from_ref(&root),
                &options(mode, threads, true),
                &Progress::default(),
            );
            let tree = &scan.tree;
            assert!(tree.has_identity(), "{mode:?} -T{threads}");
            for id in 1..tree.len() as u32 {
                let path = std::path::PathBuf::from(std::ffi::OsStr::new(
                    std::str::from_utf8(&tree.path(id)).expect("utf-8 test names"),
                ));
                let m = std::fs::symlink_metadata(&path).expect("lstat scanned path");
                assert_eq!(
                    tree.identity_of(id),
                    Some((m.dev(), m.ino())),
                    "{} ({mode:?}, -T{threads})",
                    path.display()
                );
            }
        }
    }
    // not asked for: nothing kept
    let scan = walk(
        &[root],
        &options(SizeMode::Disk, 1, false),
        &Progress::default(),
    );
    assert!(!scan.tree.has_identity());
}

#[test]
fn a_cancelled_walk_stops_and_returns_what_it_has() {
    let env = TestEnv::new();
    for i in 0..50 {
        env.file(format!("t/d{i}/f"), 10);
    }
    let live = LiveScan::default();
    live.cancel.store(true, Ordering::Relaxed);
    let scan = walk_live(
        &[env.path("t").into()],
        &options(SizeMode::Disk, 2, false),
        &Progress::default(),
        &live,
    );
    // the root was stat'ed, nothing below it read
    assert_eq!(scan.tree.len(), 2);
    assert!(scan.errors.is_empty());
}
