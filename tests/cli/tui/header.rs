//! The header's second line (issue 41, 16): one total, "scanning…" kept on a narrow screen,
//! counts written as the columns write them and counting the directory itself.

use std::sync::Arc;

use hogs::vocab::SizeMode;
use hogs::walk::LiveScan;

use super::Journey;
use crate::util::TestEnv;

#[test]
fn scanning_stays_on_a_narrow_header_with_one_total() {
    let env = TestEnv::new();
    env.file("t/a", 8192).file("t/d/b", 4096);
    let mut j = Journey::empty(40, 12, SizeMode::Disk);
    let live = Arc::new(LiveScan::keeping_tree());
    let guard = live.builder.lock().expect("lock");
    j.app
        .start_scan_watched(vec![env.path("t").into()], Arc::clone(&live));
    j.draw();
    let header = j.lines()[1].clone();
    assert!(header.contains("scanning…"), "{header}");
    assert_eq!(header.matches("entries").count(), 1, "one total: {header}");
    drop(guard);
    j.app.wait_for_scan();
}

/// `find t | wc -l` entries (the directory itself included, as `-f` and the page count),
/// written with separators as the count column writes them.
#[test]
fn the_headers_count_is_finds_with_separators() {
    let env = TestEnv::new();
    env.bash("mkdir -p t/many && cd t/many && for i in $(seq 1 1200); do : > f$i; done");
    let find = std::process::Command::new("find")
        .arg(env.path("t"))
        .output()
        .expect("find");
    let found = String::from_utf8_lossy(&find.stdout).lines().count();
    assert_eq!(found, 1202);
    let j = Journey::open(&env, &["t"], 80, 12);
    let header = &j.lines()[1];
    assert!(header.contains(" · 1,202 entries · "), "{header}");
}
