//! `hogs i` writes dates in local time (TZ, /etc/localtime), as the printed views' `-m`
//! does: run in a real terminal under a zone far from UTC.

use std::path::Path;

use super::tmux::{view_script, wait_for_file, Tmux};
use crate::util::TestEnv;

/// A file modified at 23:30 UTC on 1 January is from 2 January in Tokyo (UTC+9): the `M`
/// column says 2024-01-02 under TZ=Asia/Tokyo, not the UTC date.
#[test]
fn the_modified_column_is_in_local_time() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/late", 40 * 1024).file("t/other", 8 * 1024);
    env.bash("touch -m -d '2024-01-01 23:30:00 UTC' t/late");
    env.bash("touch -m -d '2023-06-15 12:00:00 UTC' t/other");
    let script = view_script(&env, "t");
    let tmux = Tmux::start(
        env.path("tmux.sock"),
        &[("TZ", Path::new("Asia/Tokyo"))],
        &script,
    );
    tmux.wait_for(" hogs  t");
    tmux.keys(&["M"]);
    let screen = tmux.wait_for("2023-06-15");
    let late = screen
        .lines()
        .find(|l| l.contains("late"))
        .unwrap_or_else(|| panic!("no row for late:\n{screen}"));
    assert!(
        late.contains("2024-01-02"),
        "local date, not UTC's:\n{screen}"
    );
    assert!(!screen.contains("2024-01-01"), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
}
