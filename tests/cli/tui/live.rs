//! The walk in the background: first frame at once, Ctrl-C keeps what was found, `r` rescans.

use std::sync::Arc;

use hogs::vocab::SizeMode;
use hogs::walk::LiveScan;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use super::Journey;
use crate::util::TestEnv;

fn ctrl_c() -> Event {
    Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL))
}

#[test]
fn the_first_frame_comes_before_the_walk_has_read_anything() {
    let env = TestEnv::new();
    env.file("t/a", 8192).file("t/d/b", 4096);
    let mut j = Journey::empty(80, 12, SizeMode::Disk);
    let live = Arc::new(LiveScan::keeping_tree());
    let guard = live.builder.lock().expect("lock");
    j.app
        .start_scan_watched(vec![env.path("t").into()], Arc::clone(&live));
    j.draw();
    let screen = j.screen();
    assert!(screen.contains("scanning…"), "{screen}");
    assert!(screen.contains("nothing read here yet"), "{screen}");
    // keys work while the walk is held
    j.keys("jkG?x");
    drop(guard);
    j.app.wait_for_scan();
    j.draw();
    assert_eq!(j.rows(), ["a", "d"]);
    assert!(!j.screen().contains("scanning…"), "{}", j.screen());
}

#[test]
fn ctrl_c_stops_the_walk_and_keeps_what_it_found_labelled_incomplete() {
    let env = TestEnv::new();
    env.file("t/a", 8192).file("t/d/b", 4096);
    let mut j = Journey::empty(80, 12, SizeMode::Disk);
    let live = Arc::new(LiveScan::keeping_tree());
    let guard = live.builder.lock().expect("lock");
    j.app
        .start_scan_watched(vec![env.path("t").into()], Arc::clone(&live));
    j.event(ctrl_c());
    assert!(!j.app.state.quit(), "the first Ctrl-C stops the scan only");
    // at once, while the walk has not stopped yet (it waits for its lock)
    let header = &j.lines()[1];
    assert!(header.contains("stopping…"), "{header}");
    assert!(!header.contains("scanning…"), "{header}");
    // a second Ctrl-C while it stops keeps what it found
    j.event(ctrl_c());
    assert!(!j.app.state.quit(), "a second Ctrl-C while stopping");
    assert!(j.screen().contains("stopping the scan"), "{}", j.screen());
    drop(guard);
    j.app.wait_for_scan();
    j.draw();
    // stopped before the root was read: the root is there, its contents are not
    assert!(j.rows().is_empty(), "{:?}", j.rows());
    assert!(j.app.state.scan().stopped);
    let header = &j.lines()[1];
    assert!(header.contains("INCOMPLETE"), "{header}");
    // once stopped, Ctrl-C asks before throwing the partial scan away
    j.event(ctrl_c());
    assert!(!j.app.state.quit(), "Ctrl-C after a stopped scan asks");
    assert!(
        j.screen().contains("The scan was stopped"),
        "{}",
        j.screen()
    );
    j.keys("n");
    assert!(!j.app.state.quit());
    j.event(ctrl_c());
    j.keys("y");
    assert!(j.app.state.quit(), "quit when the user says so");
}

#[test]
fn with_no_scan_stopped_ctrl_c_quits() {
    let env = TestEnv::new();
    env.file("t/a", 8192);
    let mut j = Journey::open(&env, &["t"], 80, 12);
    j.event(ctrl_c());
    assert!(j.app.state.quit(), "with no scan running Ctrl-C quits");
}

/// `R` rescans the selected directory.
#[test]
fn r_rescans_the_selected_directory_and_updates_every_ancestor() {
    let env = TestEnv::new();
    env.file("t/keep", 4096).file("t/d/e/old", 8192);
    let mut j = Journey::open(&env, &["t"], 80, 12);
    let before = j.app.state.tree().node(j.app.state.dir()).disk;
    env.file("t/d/e/new", 300 * 1024);
    j.select("d");
    j.keys("R");
    let d = j.row("d");
    assert_eq!(j.app.state.tree().node(d).disk, env.du_disk(&["t/d"]));
    let top = j.app.state.dir();
    assert_eq!(j.app.state.tree().node(top).disk, env.du_disk(&["t"]));
    assert!(j.app.state.tree().node(top).disk > before);
    assert_eq!(j.rows(), ["d", "keep"], "re-sorted by the new size");
    j.keys("l");
    j.keys("l");
    assert_eq!(j.rows(), ["new", "old"]);
    // on a file, r rescans the directory shown
    env.file("t/d/e/another", 64 * 1024);
    j.keys("r");
    assert_eq!(j.rows(), ["new", "another", "old"]);
    j.keys("hh");
    assert_eq!(
        j.app.state.tree().node(j.app.state.dir()).disk,
        env.du_disk(&["t"])
    );
    assert_eq!(
        j.app.state.tree().node(j.app.state.dir()).entries as u64,
        env.du_inodes(&["t"])
    );
}

/// Issue 41, 14: `r` rescans the directory shown, as ncdu and gdu (it rescanned the selected
/// directory, so a file added beside directories never appeared).
#[test]
fn r_on_a_directory_of_directories_picks_up_a_new_file() {
    let env = TestEnv::new();
    env.file("t/a/x", 64 * 1024).file("t/b/y", 32 * 1024);
    let mut j = Journey::open(&env, &["t"], 80, 12);
    assert_eq!(j.rows(), ["a", "b"]);
    env.file("t/added.bin", 128 * 1024);
    j.keys("r");
    assert_eq!(j.rows(), ["added.bin", "a", "b"], "{}", j.screen());
    let top = j.app.state.dir();
    assert_eq!(j.app.state.tree().node(top).disk, env.du_disk(&["t"]));
    assert_eq!(j.selected_name(), "a", "the cursor stays on its entry");
}

/// After `R` the tree is what is on disk now: a directory replaced by a file is a file row,
/// a directory gone from the disk leaves the tree.
#[test]
fn r_shows_what_is_on_disk_now_replaced_and_vanished_entries_included() {
    let env = TestEnv::new();
    env.file("t/keep", 4096)
        .file("t/z/inner", 64 * 1024)
        .file("t/gone/x", 32 * 1024);
    let mut j = Journey::open(&env, &["t"], 80, 12);
    std::fs::remove_dir_all(env.path("t/z")).expect("rm z");
    env.file("t/z", 8192);
    j.select("z");
    j.keys("R");
    let z = j.row("z");
    let s = &j.app.state;
    assert!(!s.tree().node(z).is_dir(), "z is a file now");
    assert!(
        !j.row_line("z").contains("z/"),
        "shown as a file: {}",
        j.row_line("z")
    );
    assert_eq!(s.tree().node(z).entries, 1);
    std::fs::remove_dir_all(env.path("t/gone")).expect("rm gone");
    j.select("gone");
    j.keys("R");
    assert_eq!(j.rows(), ["z", "keep"], "{}", j.screen());
    assert!(!j.screen().contains("cannot rescan"), "{}", j.screen());
    let top = j.app.state.dir();
    assert_eq!(j.app.state.tree().node(top).disk, env.du_disk(&["t"]));
    assert_eq!(
        j.app.state.tree().node(top).entries as u64,
        env.du_inodes(&["t"])
    );
    // inside a directory that vanished, r goes up to what is still there
    env.file("t/d/f", 4096);
    j.keys("r"); // nothing selected that is a dir: rescans t itself
    assert!(j.rows().contains(&"d".to_string()), "{:?}", j.rows());
    j.select("d");
    j.keys("l");
    std::fs::remove_dir_all(env.path("t/d")).expect("rm d");
    j.keys("r");
    assert_eq!(j.app.state.dir(), top, "back in t: d is gone");
    assert!(!j.rows().contains(&"d".to_string()), "{:?}", j.rows());
}

/// Issue 22, item 4: while the walk runs, a hard link is counted once from its first name
/// on, so what is shown for the two directories holding its names never exceeds what they
/// hold on disk together (the walk settles the links only at its end; before, every name
/// added the file's bytes until then). A big directory keeps the walk going after the two
/// names were read.
#[test]
fn totals_shown_during_a_scan_never_exceed_the_disk() {
    let env = TestEnv::new();
    env.file("t/a/f", 400 * 1024);
    std::fs::create_dir_all(env.path("t/b")).expect("mkdir");
    std::fs::hard_link(env.path("t/a/f"), env.path("t/b/g")).expect("link");
    env.bash("mkdir t/c && cd t/c && seq 1 60000 | xargs touch");
    // du counts the inode once over both directories
    let du = env.du_disk(&["t/a", "t/b"]);
    let mut j = Journey::empty(80, 12, SizeMode::Disk);
    j.app.start_scan(vec![env.path("t").into()]);
    let mut both_names_seen = 0;
    while j.app.state.scan().running {
        j.app.poll();
        // the walk's own tree, as the view sees it
        let shown = j.app.lend(|app| {
            let tree = app.state.tree();
            let dir = |name: &[u8]| {
                (1..tree.len() as u32).find(|&id| tree.name(id) == name && tree.node(id).is_dir())
            };
            let (a, b) = (dir(b"a")?, dir(b"b")?);
            let (na, nb) = (tree.node(a), tree.node(b));
            (na.child_count > 0 && nb.child_count > 0).then_some(na.disk + nb.disk)
        });
        if let Some(shown) = shown {
            both_names_seen += 1;
            assert!(
                shown <= du,
                "a and b shown as {shown} during the scan, du {du}"
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(
        both_names_seen > 0,
        "no snapshot held both names: the walk was too quick to check anything"
    );
}
