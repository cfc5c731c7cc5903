//! `F`: a name or glob searched below the view, every match with its path and size, biggest
//! first, browsable and markable; `Esc` returns (issue 41, 18).

use std::process::Command;

use hogs::vocab::SizeMode;

use super::Journey;
use crate::util::TestEnv;

/// t/{a/{x.iso, deep/y.iso, note}, b/{z.iso, z.iso.txt}, c.iso/inner.iso, top.iso, big}.
fn sample(env: &TestEnv) {
    env.file("t/a/x.iso", 300 * 1024)
        .file("t/a/deep/y.iso", 100 * 1024)
        .file("t/a/note", 500 * 1024)
        .file("t/b/z.iso", 200 * 1024)
        .file("t/b/z.iso.txt", 50 * 1024)
        .file("t/c.iso/inner.iso", 20 * 1024)
        .file("t/c.iso/other", 12 * 1024)
        .file("t/top.iso", 4 * 1024)
        .file("t/big", 900 * 1024);
}

/// What `find DIR -mindepth 1 -name PATTERN` prints, sorted.
fn find(env: &TestEnv, dir: &str, pattern: &str) -> Vec<String> {
    let out = Command::new("find")
        .args([dir, "-mindepth", "1", "-name", pattern])
        .current_dir(env.root())
        .output()
        .expect("run find");
    assert!(out.status.success());
    let mut paths: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    paths.sort();
    paths
}

#[test]
fn f_finds_what_find_finds_below_the_view_biggest_first_marks_and_esc_returns() {
    let env = TestEnv::new();
    sample(&env);
    let mut j = Journey::open_with(&env, &["t"], 100, 24, SizeMode::Disk, true);
    j.select("b");
    let (dir, rows) = (j.app.state.dir(), j.rows());
    j.keys("F*.iso\n");
    let s = &j.app.state;
    let root = env.root().to_string_lossy().into_owned();
    let found: Vec<(String, u64)> = s
        .rows()
        .iter()
        .map(|&id| {
            let path = String::from_utf8_lossy(&s.path(id)).into_owned();
            let rel = path.strip_prefix(&format!("{root}/")).unwrap_or(&path);
            (rel.to_owned(), s.node(id).size(SizeMode::Disk))
        })
        .collect();
    let mut paths: Vec<String> = found.iter().map(|f| f.0.clone()).collect();
    paths.sort();
    assert_eq!(paths, find(&env, "t", "*.iso"), "the same set as find");
    for (path, size) in &found {
        assert_eq!(*size, env.du_disk(&[path]), "{path}: du's size");
    }
    let sizes: Vec<u64> = found.iter().map(|f| f.1).collect();
    let mut desc = sizes.clone();
    desc.sort_by(|a, b| b.cmp(a));
    assert_eq!(sizes, desc, "biggest first: {found:?}");
    // on screen: paths below the view, and how many were found
    let screen = j.screen();
    assert!(screen.contains("a/deep/y.iso"), "{screen}");
    // c.iso/inner.iso is inside c.iso: counted once in the total (300+200+100+36+4 KiB)
    assert!(screen.contains("6 matching \"*.iso\" (640Ki)"), "{screen}");
    // a plain word matches inside names
    j.keys("\x1bFz.iso\n");
    assert_eq!(j.rows(), ["z.iso", "z.iso.txt"]);
    // a mark set in the results is the entry's, shown in the marks pane
    j.keys("j ");
    let screen = j.screen();
    assert!(screen.contains("Marked: 1"), "{screen}");
    let pane = screen.split("Marked: 1").nth(1).unwrap_or_default();
    assert!(pane.contains("b/z.iso.txt"), "{screen}");
    // Esc: the directory and the row it was on, the mark kept
    j.keys("\x1b");
    assert_eq!(j.app.state.dir(), dir);
    assert_eq!(j.rows(), rows);
    assert_eq!(j.selected_name(), "b");
    assert!(j.screen().contains("Marked: 1"), "{}", j.screen());
    // Enter on a match shows it where it is
    j.keys("Fdeep\n");
    assert_eq!(j.rows(), ["deep"]);
    j.keys("\n");
    assert_eq!(j.selected_name(), "deep");
    assert!(j.rows().contains(&"x.iso".to_string()), "{:?}", j.rows());
}

#[test]
fn f_searches_only_below_the_view_and_says_when_nothing_matches() {
    let env = TestEnv::new();
    sample(&env);
    let mut j = Journey::open_with(&env, &["t"], 100, 24, SizeMode::Disk, true);
    j.select("a");
    j.keys("lF*.iso\n");
    assert_eq!(j.rows(), ["x.iso", "y.iso"], "not b's or c.iso's");
    j.keys("\x1bFnothing-like-this\n");
    assert!(
        j.screen().contains("nothing below matches"),
        "{}",
        j.screen()
    );
    assert_eq!(j.rows().len(), 3, "the directory's rows stay");
}
