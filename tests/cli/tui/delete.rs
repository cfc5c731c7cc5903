//! Marks and deleting: the dialog, the re-check before each deletion, what leaves the tree.

use std::os::unix::fs::MetadataExt;

use hogs::tui::state::Overlay;
use hogs::vocab::SizeMode;

use super::Journey;
use crate::util::{is_root, TestEnv};

fn exists(env: &TestEnv, rel: &str) -> bool {
    std::fs::symlink_metadata(env.path(rel)).is_ok()
}

#[test]
fn marks_belong_to_entries_and_survive_sorting_filtering_and_navigation() {
    let env = TestEnv::new();
    env.file("t/a", 40 * 1024)
        .file("t/b", 20 * 1024)
        .file("t/c", 8 * 1024)
        .file("t/d/x", 4096);
    let mut j = Journey::open(&env, &["t"], 80, 24);
    j.select("b");
    j.keys(" ");
    assert_eq!(j.selected_name(), "c", "marking moves on");
    let b = j.row("b");
    assert!(j.app.state.marks().contains(b));
    j.keys("n"); // re-sort: a b c d
    assert!(j.row_line("b").contains("* b"), "{}", j.row_line("b"));
    assert!(!j.row_line("a").contains('*'), "{}", j.row_line("a"));
    j.keys("/c\n"); // filter to c, mark it
    assert_eq!(j.rows(), ["c"]);
    j.keys(" ");
    j.keys("\x1b");
    j.select("d");
    j.keys("l");
    j.keys(" ");
    j.keys("h");
    assert_eq!(j.app.state.marks().len(), 3);
    // the mark pane lists full paths and the total
    let screen = j.screen();
    assert!(screen.contains("Marked: 3"), "{screen}");
    assert!(
        screen.contains(" · d delete, t trash "),
        "the keys that work: {screen}"
    );
    let t = env.path("t");
    assert!(screen.contains(&format!("{}/d/x", t.display())), "{screen}");
    assert!(j.lines()[23].contains("3 marked"), "{}", j.lines()[23]);
    // unmark
    j.select("b");
    j.keys(" ");
    assert_eq!(j.app.state.marks().len(), 2);
    assert!(!j.app.state.marks().contains(b));
}

#[test]
fn the_delete_dialog_defaults_to_no() {
    let env = TestEnv::new();
    env.file("t/a", 4096).file("t/b", 8192);
    let mut j = Journey::open(&env, &["t"], 80, 20);
    j.keys("d");
    let screen = j.screen();
    assert!(
        matches!(j.app.state.overlay(), Overlay::Confirm { .. }),
        "{screen}"
    );
    assert!(screen.contains("Delete 1 entry"), "{screen}");
    assert!(screen.contains(&format!("{}/b", env.path("t").display())));
    assert!(screen.contains("y: yes    any other key: No"), "{screen}");
    for key in ["\n", "n", " ", "Y"] {
        if key != "Y" {
            j.keys(key);
            assert_eq!(*j.app.state.overlay(), Overlay::None, "{key:?} cancels");
            assert!(exists(&env, "t/b"));
            j.keys("d");
        }
    }
    // Enter is "No" too: still there
    j.keys("\x1b");
    assert!(exists(&env, "t/b") && exists(&env, "t/a"));
    assert_eq!(j.rows(), ["b", "a"]);
}

#[test]
fn y_deletes_marked_entries_and_ancestor_totals_shrink() {
    let env = TestEnv::new();
    env.file("t/keep", 16 * 1024)
        .file("t/d/big", 200 * 1024)
        .file("t/d/sub/deep/f", 64 * 1024)
        .file("t/d/other", 8 * 1024);
    env.symlink("d/other", "t/d/sub/link");
    let mut j = Journey::open(&env, &["t"], 80, 24);
    let root_total = j.app.state.tree().node(j.app.state.dir()).disk;
    j.select("d");
    j.keys("l");
    j.select("sub");
    let sub_size = j.app.state.tree().node(j.row("sub")).disk;
    j.keys(" ");
    j.select("big");
    let big_size = j.app.state.tree().node(j.row("big")).disk;
    j.keys(" ");
    j.keys("d");
    assert!(j.screen().contains("Delete 2 entries"), "{}", j.screen());
    j.keys("y");
    assert!(!exists(&env, "t/d/sub") && !exists(&env, "t/d/big"));
    assert!(exists(&env, "t/d/other") && exists(&env, "t/keep"));
    assert_eq!(j.rows(), ["other"]);
    assert!(j.app.state.marks().is_empty());
    assert!(j.screen().contains("deleted 2"), "{}", j.screen());
    j.keys("h");
    let now = j.app.state.tree().node(j.app.state.dir()).disk;
    assert_eq!(now, root_total - sub_size - big_size);
    assert_eq!(
        now,
        env.du_disk(&["t"]),
        "the totals match du after the delete"
    );
}

#[test]
fn deleting_a_symlink_removes_the_link_not_its_target() {
    let env = TestEnv::new();
    env.file("t/target/data", 64 * 1024)
        .file("outside/keep", 4096);
    env.symlink("target", "t/link_to_dir");
    env.symlink("../outside", "t/link_out");
    env.symlink("target/data", "t/link_to_file");
    let mut j = Journey::open(&env, &["t"], 80, 24);
    for link in ["link_to_dir", "link_out", "link_to_file"] {
        j.select(link);
        j.keys(" ");
    }
    j.keys("dy");
    for link in ["t/link_to_dir", "t/link_out", "t/link_to_file"] {
        assert!(!exists(&env, link), "{link} still there");
    }
    assert!(exists(&env, "t/target/data") && exists(&env, "outside/keep"));
    assert_eq!(j.rows(), ["target"]);
}

#[test]
fn a_directory_swapped_for_a_symlink_after_the_scan_is_refused() {
    let env = TestEnv::new();
    env.file("t/victim/inner", 4096)
        .file("outside/precious", 8192);
    let mut j = Journey::open(&env, &["t"], 80, 24);
    j.select("victim");
    j.keys(" ");
    // after the scan: t/victim becomes a symlink to a directory outside the root
    env.bash("mv t/victim t/moved && ln -s ../outside t/victim");
    j.keys("dy");
    assert!(
        exists(&env, "outside/precious"),
        "followed the swapped link!"
    );
    assert!(exists(&env, "t/victim") && exists(&env, "t/moved/inner"));
    let screen = j.screen();
    assert!(screen.contains("changed since the scan"), "{screen}");
    assert!(matches!(j.app.state.overlay(), Overlay::Report(_)));
    assert_eq!(j.rows(), ["victim"], "what was not removed stays");
    // a file replaced by another file (new inode) is refused as well
    let env2 = TestEnv::new();
    env2.file("t/f", 4096).file("t/g", 4096);
    let mut j = Journey::open(&env2, &["t"], 80, 24);
    j.select("f");
    let ino = std::fs::metadata(env2.path("t/f")).map(|m| m.ino()).ok();
    env2.bash("cp t/f t/f.new && rm t/f && mv t/f.new t/f");
    assert_ne!(
        ino,
        std::fs::metadata(env2.path("t/f")).map(|m| m.ino()).ok()
    );
    j.keys("dy");
    assert!(exists(&env2, "t/f"));
    // a parent swapped for a symlink: the entry below it is refused too
    let env3 = TestEnv::new();
    env3.file("t/p/f", 4096).file("out/f", 4096);
    let mut j = Journey::open(&env3, &["t"], 80, 24);
    j.select("p");
    j.keys("l");
    j.keys(" ");
    env3.bash("mv t/p t/p2 && ln -s ../out t/p");
    j.keys("dy");
    assert!(exists(&env3, "out/f") && exists(&env3, "t/p2/f"));
    assert!(
        j.screen().contains("changed since the scan"),
        "{}",
        j.screen()
    );
}

#[test]
fn an_entry_already_gone_counts_as_deleted() {
    let env = TestEnv::new();
    env.file("t/a", 4096).file("t/b", 8192);
    let mut j = Journey::open(&env, &["t"], 80, 24);
    j.select("b");
    std::fs::remove_file(env.path("t/b")).expect("rm");
    j.keys("dy");
    assert_eq!(j.rows(), ["a"]);
    assert_eq!(*j.app.state.overlay(), Overlay::None);
}

#[test]
fn partial_failures_are_reported_and_only_removed_entries_leave() {
    let env = TestEnv::new();
    env.file("t/swapped/f", 4096)
        .file("t/free", 4096)
        .file("t/locked/f", 4096);
    let mut j = Journey::open(&env, &["t"], 100, 24);
    for name in ["swapped", "free", "locked"] {
        j.select(name);
        j.keys(" ");
    }
    env.bash("mv t/swapped t/was && mkdir t/swapped");
    // root may unlink anything: a read-only directory only stops an unprivileged user
    let locked = !is_root();
    if locked {
        env.chmod("t/locked", 0o555);
    } else {
        eprintln!("running as root: the read-only directory part is not checked");
    }
    j.keys("dy");
    assert!(!exists(&env, "t/free"));
    assert!(exists(&env, "t/swapped") && exists(&env, "t/was/f"));
    let screen = j.screen();
    let failed = if locked { 2 } else { 1 };
    assert!(screen.contains(&format!("; {failed} failed")), "{screen}");
    assert!(
        screen.contains("swapped: changed since the scan"),
        "{screen}"
    );
    if locked {
        assert!(exists(&env, "t/locked/f"));
        assert!(screen.contains("Permission denied"), "{screen}");
        env.chmod("t/locked", 0o755);
    }
    j.keys("x"); // any key closes the report
    assert_eq!(*j.app.state.overlay(), Overlay::None);
    let mut left = j.rows();
    left.sort();
    let want: &[&str] = if locked {
        &["locked", "swapped", "was"][..2]
    } else {
        &["swapped"]
    };
    assert_eq!(left, want);
}

#[test]
fn no_delete_turns_deleting_off_and_roots_are_never_deleted() {
    let env = TestEnv::new();
    env.file("t/a", 4096);
    let mut j = Journey::open_with(&env, &["t"], 80, 24, SizeMode::Disk, false);
    j.keys("dy");
    assert!(exists(&env, "t/a"));
    assert!(j.screen().contains("--no-delete"), "{}", j.screen());
    // two roots: the rows are roots, which cannot be marked or deleted
    env.file("u/b", 4096);
    let mut j = Journey::open(&env, &["t", "u"], 80, 24);
    j.keys(" ");
    assert!(j.app.state.marks().is_empty());
    j.keys("dy");
    assert!(exists(&env, "t") && exists(&env, "u"));
    assert!(j.screen().contains("never deleted"), "{}", j.screen());
}

#[test]
fn quitting_with_marks_asks_once() {
    let env = TestEnv::new();
    env.file("t/a", 4096).file("t/b", 4096);
    let mut j = Journey::open(&env, &["t"], 80, 24);
    j.keys("q");
    assert!(j.app.state.quit(), "nothing marked: quits at once");
    let mut j = Journey::open(&env, &["t"], 80, 24);
    j.keys(" q");
    assert!(!j.app.state.quit());
    assert!(j.screen().contains("Quit anyway?"), "{}", j.screen());
    j.keys("n");
    assert!(!j.app.state.quit());
    j.keys("qy");
    assert!(j.app.state.quit());
}

#[test]
fn a_chain_deeper_than_the_fd_limit_is_deleted_without_recursion() {
    // deeper than the usual 1024-descriptor limit (removal holds two); not 20,000 because
    // a deep removal is slow on some filesystems (`rm -rf` of 20,000 levels: a minute)
    let mut env = TestEnv::new();
    env.set_deep_cleanup();
    env.mkdir("t");
    env.deep_chain("t", 2_500);
    env.file("t/keep", 4096);
    let mut j = Journey::open(&env, &["t"], 80, 24);
    j.select("d");
    j.keys("dy");
    assert!(!exists(&env, "t/d"), "{}", j.screen());
    assert!(exists(&env, "t/keep"));
    assert_eq!(j.rows(), ["keep"]);
}

/// An immutable file (`chattr +i`): even root cannot unlink it.
struct Immutable(std::path::PathBuf);

impl Immutable {
    fn set(path: std::path::PathBuf) -> Option<Immutable> {
        let ok = std::process::Command::new("chattr")
            .arg("+i")
            .arg(&path)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Immutable(path))
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = std::process::Command::new("chattr")
            .arg("-i")
            .arg(&self.0)
            .status();
    }
}

/// The report counts failures, one line each (path and cause in words); that a directory
/// was only partly deleted is a note after them, not one more failure.
#[test]
fn the_report_has_one_line_per_failure_and_counts_only_failures() {
    let env = TestEnv::new();
    env.file("t/d/x", 4096)
        .file("t/d/stuck", 4096)
        .file("t/keep", 4096);
    let Some(_guard) = Immutable::set(env.path("t/d/stuck")) else {
        skip!("skipped: chattr +i is not supported here");
        return;
    };
    let mut j = Journey::open(&env, &["t"], 100, 24);
    j.select("d");
    j.keys("dy");
    assert!(exists(&env, "t/d/stuck") && !exists(&env, "t/d/x"));
    let Overlay::Report(lines) = j.app.state.overlay() else {
        panic!("no report:\n{}", j.screen());
    };
    let t = env.path("t");
    assert_eq!(lines[0], "deleted 0 (0B); 1 failed:", "{lines:?}");
    assert_eq!(
        lines[1],
        format!("{}/d/stuck: Operation not permitted", t.display()),
        "{lines:?}"
    );
    assert!(lines[2].contains("partly deleted"), "{lines:?}");
    assert_eq!(lines.len(), 3, "{lines:?}");
}

/// A file's inode is counted once, in one of its names. Deleting a name whose inode keeps
/// another frees nothing: the dialog and the result line say so, and the bytes move to the
/// remaining name's directory, as a rescan (and du) shows.
#[test]
fn deleting_one_name_of_a_hard_linked_file_frees_nothing_and_the_bytes_move() {
    let env = TestEnv::new();
    env.file("hl/A/f", 100 * 1024).mkdir("hl/B");
    env.hardlink("hl/A/f", "hl/B/g");
    let mut j = Journey::open(&env, &["hl"], 100, 24);
    // the walk counts the inode in one name (the first in directory order): its directory
    // is the big one; delete that one
    let (owner, other) = match j.rows()[0].as_str() {
        "A" => ("A", "B"),
        _ => ("B", "A"),
    };
    j.select(owner);
    j.keys("d");
    let dialog = j.screen();
    // the directory itself is freed (4.0Ki on most filesystems), the file's 100Ki is not
    assert!(
        dialog.contains("freed; 100Ki kept by other hard links in the scan)?"),
        "{dialog}"
    );
    assert!(!dialog.contains("(104Ki)"), "{dialog}");
    j.keys("y");
    assert!(!exists(&env, &format!("hl/{owner}")));
    let screen = j.screen();
    assert!(
        screen.contains("freed; 100Ki kept by other hard links in the scan)"),
        "{screen}"
    );
    let s = &j.app.state;
    let top = s.dir();
    assert_eq!(s.tree().node(top).disk, env.du_disk(&["hl"]), "{screen}");
    let o = j.row(other);
    assert_eq!(
        s.tree().node(o).disk,
        env.du_disk(&[&format!("hl/{other}")]),
        "{screen}"
    );
    assert_eq!(s.tree().node(top).entries as u64, env.du_inodes(&["hl"]));
    // deleting the last name frees it
    j.select(other);
    j.keys("l");
    j.keys("d");
    assert!(
        j.screen().contains("Delete 1 entry (100Ki)?"),
        "{}",
        j.screen()
    );
    j.keys("y");
    assert!(j.screen().contains("deleted 1 (100Ki)"), "{}", j.screen());
    j.keys("h");
    assert_eq!(
        j.app.state.tree().node(j.app.state.dir()).disk,
        env.du_disk(&["hl"])
    );
}

/// The other name is outside the scan: nothing is freed, and the bytes leave the tree (a
/// rescan of it would not count them).
#[test]
fn deleting_a_name_whose_other_links_are_outside_the_scan_frees_nothing() {
    let env = TestEnv::new();
    env.file("out/f", 64 * 1024).file("in/small", 4096);
    env.hardlink("out/f", "in/g");
    let mut j = Journey::open(&env, &["in"], 100, 24);
    j.select("g");
    j.keys("d");
    assert!(
        j.screen()
            .contains("Delete 1 entry (0B freed; 64Ki kept by hard links outside the scan)"),
        "{}",
        j.screen()
    );
    j.keys("y");
    assert!(j
        .screen()
        .contains("deleted 1 (0B freed; 64Ki kept by hard links outside"));
    assert_eq!(
        j.app.state.tree().node(j.app.state.dir()).disk,
        env.du_disk(&["in"])
    );
    assert!(exists(&env, "out/f"));
}
