//! End to end: the real binary in a real terminal (tmux), keys sent, the screen read back,
//! and the filesystem checked after deleting and trashing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use hogs::vocab::{SizeMode, UnitStyle};

use crate::util::{hogs_bin, TestEnv};

/// A tmux server of our own (its socket in the test's directory).
pub(super) struct Tmux {
    socket: PathBuf,
}

impl Tmux {
    pub(super) fn available() -> bool {
        Command::new("tmux")
            .arg("-V")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    pub(super) fn cmd(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("run tmux")
    }

    /// Starts `script` (sh) in a detached 100x30 session.
    pub(super) fn start(socket: PathBuf, env: &[(&str, &Path)], script: &str) -> Tmux {
        let t = Tmux { socket };
        let mut args = vec!["new-session", "-d", "-s", "hogs", "-x", "100", "-y", "30"];
        let pairs: Vec<String> = env
            .iter()
            .map(|(k, v)| format!("{k}={}", v.display()))
            .collect();
        for p in &pairs {
            args.push("-e");
            args.push(p);
        }
        args.push(script);
        let out = t.cmd(&args);
        assert!(
            out.status.success(),
            "tmux new-session: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        t
    }

    pub(super) fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "hogs"];
        args.extend_from_slice(keys);
        let out = self.cmd(&args);
        assert!(out.status.success(), "send-keys {keys:?}");
    }

    pub(super) fn screen(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "hogs"]).stdout)
            .into_owned()
    }

    /// Waits (up to 20 s) until the screen contains `text`; returns the screen.
    pub(super) fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{text:?} never appeared; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

/// The shell line a tmux test runs: `hogs i ARGS` in the test's root, its exit status kept
/// in `status.txt`.
pub(super) fn view_script(env: &TestEnv, args: &str) -> String {
    format!(
        "cd '{}' && '{}' i {args}; echo $? > status.txt",
        env.root().display(),
        hogs_bin().display()
    )
}

pub(super) fn wait_for_file(p: &Path) -> String {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        if let Ok(s) = std::fs::read_to_string(p) {
            if s.ends_with('\n') {
                return s;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{} never written", p.display());
}

#[test]
fn in_a_real_terminal_marked_files_are_deleted_after_confirming_and_trash_works() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/junk", 200 * 1024)
        .file("t/trashme", 100 * 1024)
        .file("t/old/a", 50 * 1024)
        .file("t/keep", 8 * 1024);
    env.mkdir("xdg");
    let script = view_script(&env, "--print-marked t > marked.txt");
    let tmux = Tmux::start(
        env.path("tmux.sock"),
        &[("XDG_DATA_HOME", &env.path("xdg"))],
        &script,
    );
    let screen = tmux.wait_for("trashme");
    assert!(screen.contains(" hogs  t"), "{screen}");
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines[2].contains("junk"), "biggest first:\n{screen}");

    // mark the first row (junk) and delete it after confirming
    tmux.keys(&["Space"]);
    tmux.wait_for("1 marked");
    tmux.keys(&["d"]);
    // (its last line: on a loaded machine a screen may be captured while the dialog is drawn)
    let dialog = tmux.wait_for("any other key: No");
    assert!(
        dialog.contains("Delete 1 entry") && dialog.contains("t/junk"),
        "{dialog}"
    );
    tmux.keys(&["y"]);
    tmux.wait_for("deleted 1");
    assert!(!env.path("t/junk").exists());
    assert!(env.path("t/trashme").exists() && env.path("t/keep").exists());

    // the selection is on trashme now: to the trash
    tmux.keys(&["g", "t"]);
    tmux.wait_for("Move to the trash 1 entry");
    tmux.keys(&["y"]);
    tmux.wait_for("moved to the trash 1");
    assert!(!env.path("t/trashme").exists());
    assert!(
        env.path("xdg/Trash/files/trashme").exists(),
        "not in the trash: {:?}",
        std::fs::read_dir(env.path("xdg")).map(|d| d.count())
    );

    // mark keep (the smallest, last), quit (asked once), the marked path is printed
    tmux.keys(&["G", "Space"]);
    tmux.wait_for("1 marked");
    tmux.keys(&["q"]);
    tmux.wait_for("Quit anyway?");
    tmux.keys(&["y"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
    assert_eq!(
        std::fs::read_to_string(env.path("marked.txt")).expect("marked.txt"),
        "t/keep\n"
    );
    assert!(env.path("t/keep").exists() && env.path("t/old/a").exists());
}

/// A fatal signal sent to a view that waits for input (SIGHUP as a hang-up would send it,
/// SIGTERM, and SIGINT / SIGQUIT, which raw mode only gets from `kill`): the terminal is
/// given back (cooked mode, the main screen) and the status is the shell's 128 + N.
#[test]
fn a_fatal_signal_gives_the_terminal_back_and_the_status_of_the_signal() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/a", 4096);
    for (sig, want) in [("HUP", 129), ("TERM", 143), ("INT", 130), ("QUIT", 131)] {
        let script = format!(
            "cd '{}' && sh -c 'echo $$ > {sig}.pid; exec \"$0\" i t' '{}'; \
             echo $? > {sig}.status; stty -a > {sig}.stty; sleep 60",
            env.root().display(),
            hogs_bin().display()
        );
        let tmux = Tmux::start(env.path(format!("{sig}.sock")), &[], &script);
        tmux.wait_for(" hogs ");
        let pid = wait_for_file(&env.path(format!("{sig}.pid")));
        let st = Command::new("kill")
            .args([&format!("-{sig}"), pid.trim()])
            .status()
            .expect("kill");
        assert!(st.success());
        let status = wait_for_file(&env.path(format!("{sig}.status")));
        assert_eq!(status, format!("{want}\n"), "SIG{sig}");
        let stty = wait_for_file(&env.path(format!("{sig}.stty")));
        // cooked mode again: line editing and echo on
        let words: Vec<&str> = stty.split_whitespace().collect();
        for flag in ["icanon", "echo", "isig"] {
            assert!(
                words.contains(&flag),
                "SIG{sig}: {flag:?} not restored:\n{stty}"
            );
        }
        let screen = tmux.screen();
        assert!(
            !screen.contains(" hogs "),
            "SIG{sig}: still on the alternate screen:\n{screen}"
        );
    }
}

#[test]
fn two_exports_are_compared_in_a_real_terminal() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/gone", 40 * 1024).file("t/kept", 8 * 1024);
    env.stdout_ok(["-O", "old.json", "t"]);
    env.bash("rm t/gone");
    env.file("t/fresh", 20 * 1024);
    env.stdout_ok(["-O", "new.json", "t"]);
    let script = view_script(&env, "--diff old.json new.json");
    let tmux = Tmux::start(env.path("tmux.sock"), &[], &script);
    let screen = tmux.wait_for("gone (removed)");
    assert!(screen.contains("imported"), "{screen}");
    let lines: Vec<&str> = screen.lines().collect();
    assert!(
        lines[2].contains("gone (removed)"),
        "biggest change first:\n{screen}"
    );
    assert!(lines[3].contains("fresh"), "{screen}");
    assert!(lines[4].contains("kept"), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
}

/// The terminal goes away under a waiting view (its tmux server killed: the pane's pty
/// closes and a SIGHUP comes): the process must end, not spin on the dead terminal as an
/// orphan (crossterm's read loop never returns there; see `terminal::termination_flag`).
#[test]
fn the_view_ends_when_its_terminal_goes_away() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/a", 8 * 1024);
    let script = format!(
        "cd '{}' && exec '{}' i t",
        env.root().display(),
        hogs_bin().display()
    );
    let tmux = Tmux::start(env.path("tmux.sock"), &[], &script);
    tmux.wait_for(" hogs ");
    let out = tmux.cmd(&["display-message", "-p", "-t", "hogs", "#{pane_pid}"]);
    let pid = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let proc_dir = PathBuf::from(format!("/proc/{pid}"));
    assert!(
        !pid.is_empty() && proc_dir.exists(),
        "the view's pid from tmux: {out:?}"
    );
    drop(tmux); // kill-server
    let start = Instant::now();
    while proc_dir.exists() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let alive = proc_dir.exists();
    if alive {
        let _ = Command::new("kill").args(["-9", &pid]).status();
    }
    assert!(
        !alive,
        "hogs i (pid {pid}) still runs 10 s after its terminal went away"
    );
}

/// A trash that fails: one line per entry, its path and the cause in words, not the trash
/// crate's debug text.
#[test]
fn a_failed_trash_says_why_in_words_one_line_per_entry() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/a", 8 * 1024).file("t/b", 16 * 1024);
    // the home trash would go below a file: it cannot be made
    env.file("x", 0);
    let script = view_script(&env, "t");
    let tmux = Tmux::start(
        env.path("tmux.sock"),
        &[("XDG_DATA_HOME", &env.path("x"))],
        &script,
    );
    tmux.wait_for(" hogs  t");
    tmux.keys(&["Space", "Space"]);
    tmux.wait_for("2 marked");
    tmux.keys(&["t"]);
    tmux.wait_for("Move to the trash 2 entries");
    tmux.keys(&["y"]);
    let screen = tmux.wait_for("2 failed");
    assert!(env.path("t/a").exists() && env.path("t/b").exists());
    assert!(
        screen.contains("moved to the trash 0 (0B); 2 failed:"),
        "{screen}"
    );
    for name in ["t/a", "t/b"] {
        let line = screen
            .lines()
            .find(|l| l.contains(&format!("{name}: cannot move to the trash: ")))
            .unwrap_or_else(|| panic!("no line for {name}:\n{screen}"));
        assert!(line.contains("Not a directory"), "{line}\n{screen}");
    }
    assert!(!screen.contains("Error during"), "{screen}");
    assert!(!screen.contains("FileSystem {"), "{screen}");
    tmux.keys(&["x", "q"]);
    tmux.wait_for("Quit anyway?"); // the entries are still marked
    tmux.keys(&["y"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
}

/// `--print-marked` into a pipe prints the paths as they are, not escaped: `tab<TAB>here`
/// and a file literally named `tab\there` are two different lines; `-0` ends each with a
/// NUL (a name may hold a newline).
#[test]
fn print_marked_writes_raw_paths_and_nul_separated_with_0() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/tab\there", 64 * 1024)
        .file("t/tab\\there", 32 * 1024)
        .file("t/new\nline", 16 * 1024);
    let want: [(&str, &str, &[u8]); 2] = [
        ("plain", "", b"t/tab\there\nt/tab\\there\nt/new\nline\n"),
        ("null", " -0", b"t/tab\there\0t/tab\\there\0t/new\nline\0"),
    ];
    for (run, flags, want) in want {
        let script = format!(
            "cd '{}' && '{}' i --print-marked{flags} t > {run}.out; echo $? > {run}.status",
            env.root().display(),
            hogs_bin().display()
        );
        let tmux = Tmux::start(env.path(format!("{run}.sock")), &[], &script);
        tmux.wait_for(" hogs  t");
        tmux.keys(&["Space", "Space", "Space"]);
        tmux.wait_for("3 marked");
        tmux.keys(&["q"]);
        tmux.wait_for("Quit anyway?");
        tmux.keys(&["y"]);
        assert_eq!(
            wait_for_file(&env.path(format!("{run}.status"))),
            "0\n",
            "{run}"
        );
        let got = std::fs::read(env.path(format!("{run}.out"))).expect("output");
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(want),
            "{run}"
        );
    }
}

/// Trashing the name that counts a hard-linked file: the other name keeps the bytes, and
/// the header and the other directory show them, as du does.
#[test]
fn trashing_one_name_of_a_hard_linked_file_keeps_its_bytes_in_the_other() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("hl/A/f", 100 * 1024).mkdir("hl/B").mkdir("xdg");
    env.hardlink("hl/A/f", "hl/B/g");
    let script = view_script(&env, "hl");
    let tmux = Tmux::start(
        env.path("tmux.sock"),
        &[("XDG_DATA_HOME", &env.path("xdg"))],
        &script,
    );
    let screen = tmux.wait_for(" hogs  hl");
    // the first row is the directory of the name that counts the inode
    let owner = if screen.lines().nth(2).is_some_and(|l| l.contains("A/")) {
        "A"
    } else {
        "B"
    };
    tmux.keys(&["g", "t"]);
    tmux.wait_for("kept by other hard links in the scan)?");
    tmux.keys(&["y"]);
    let screen = tmux.wait_for("moved to the trash 1 (");
    assert!(
        screen.contains("kept by other hard links in the scan)"),
        "{screen}"
    );
    assert!(!env.path(format!("hl/{owner}")).exists());
    let fmt = |v| hogs::units::format_size(v, SizeMode::Disk, UnitStyle::HumanIec);
    let header = screen.lines().nth(1).unwrap_or_default();
    assert!(
        header.starts_with(&format!(" {} ·", fmt(env.du_disk(&["hl"])))),
        "{screen}"
    );
    let other = if owner == "A" { "B" } else { "A" };
    let row = screen.lines().nth(2).unwrap_or_default();
    assert!(
        row.contains(&format!("{other}/"))
            && row.starts_with(&fmt(env.du_disk(&[&format!("hl/{other}")]))),
        "{screen}"
    );
    tmux.keys(&["q"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
}

/// `hogs i` on a path it cannot show (missing, or a file): the error is printed at once
/// and the status is 1; the screen is never taken.
#[test]
fn a_path_that_cannot_be_shown_is_an_error_before_the_view_opens() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("f", 4096);
    for (run, path, want) in [
        (
            "missing",
            "nonexistent",
            "hogs: cannot access 'nonexistent': No such file or directory\n",
        ),
        (
            "file",
            "f",
            "hogs: 'f' is not a directory: the interactive view browses directories\n",
        ),
    ] {
        let script = format!(
            "cd '{}' && '{}' i {path} 2> {run}.err; echo $? > {run}.status; sleep 60",
            env.root().display(),
            hogs_bin().display()
        );
        let tmux = Tmux::start(env.path(format!("{run}.sock")), &[], &script);
        assert_eq!(
            wait_for_file(&env.path(format!("{run}.status"))),
            "1\n",
            "{run}: {}",
            tmux.screen()
        );
        let err = std::fs::read_to_string(env.path(format!("{run}.err"))).expect("stderr");
        assert_eq!(err, want, "{run}");
    }
}

/// The trash is inside the scanned tree (here the home trash, `$XDG_DATA_HOME/Trash`, below
/// the scanned directory): what goes there is still in the tree, and the header keeps it,
/// as du does; the message says where it went.
#[test]
fn trashing_into_a_trash_inside_the_scan_keeps_the_bytes_in_the_totals() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("home/big", 200 * 1024)
        .file("home/small", 8 * 1024)
        .mkdir("home/data");
    let fmt = |v| hogs::units::format_size(v, SizeMode::Disk, UnitStyle::HumanIec);
    let script = view_script(&env, "home");
    let tmux = Tmux::start(
        env.path("tmux.sock"),
        &[("XDG_DATA_HOME", &env.path("home/data"))],
        &script,
    );
    let screen = tmux.wait_for(" hogs  home");
    assert!(
        screen.lines().nth(2).is_some_and(|l| l.contains("big")),
        "{screen}"
    );
    tmux.keys(&["g", "t"]);
    tmux.wait_for("Move to the trash 1 entry");
    tmux.keys(&["y"]);
    let screen = tmux.wait_for("they stay in the scan, in the trash ");
    assert!(screen.contains("in the trash home/data/Trash"), "{screen}");
    assert!(env.path("home/data/Trash/files/big").exists());
    let total = format!(" {} ·", fmt(env.du_disk(&["home"])));
    let screen = tmux.wait_for(&total);
    assert!(
        screen.lines().nth(1).is_some_and(|l| l.starts_with(&total)),
        "{screen}"
    );
    // the trash directory is a row with the bytes in it
    assert!(
        screen.lines().nth(2).is_some_and(|l| l.contains("data/")),
        "{screen}"
    );
    tmux.keys(&["q"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
}

/// The same with the trash of a mount (`.Trash-0` at its top, made by the first trash): the
/// scanned mount still holds the bytes.
#[test]
fn trashing_into_the_trash_of_the_scanned_mount_keeps_the_bytes_in_the_totals() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.mkdir("mnt").mkdir("xdg");
    let Some(_mount) = crate::util::mount_tmpfs(&env.path("mnt")) else {
        return;
    };
    env.file("mnt/big", 200 * 1024).file("mnt/small", 8 * 1024);
    let fmt = |v| hogs::units::format_size(v, SizeMode::Disk, UnitStyle::HumanIec);
    let script = view_script(&env, "mnt");
    // the home trash is elsewhere (another filesystem): the mount's own trash is used
    let tmux = Tmux::start(
        env.path("tmux.sock"),
        &[("XDG_DATA_HOME", &env.path("xdg"))],
        &script,
    );
    tmux.wait_for(" hogs  mnt");
    tmux.keys(&["g", "t"]);
    tmux.wait_for("Move to the trash 1 entry");
    tmux.keys(&["y"]);
    let screen = tmux.wait_for("they stay in the scan, in the trash mnt/.Trash-0");
    assert!(env.path("mnt/.Trash-0/files/big").exists(), "{screen}");
    let total = format!(" {} ·", fmt(env.du_disk(&["mnt"])));
    let screen = tmux.wait_for(&total);
    assert!(
        screen.lines().nth(1).is_some_and(|l| l.starts_with(&total)),
        "{screen}"
    );
    tmux.keys(&["q"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
}

/// In a real terminal a name with 👍🏽 is drawn whole, and the box around it keeps its right
/// border where every other line of the box has it (measured by code points, as tmux draws).
#[test]
fn an_emoji_with_a_modifier_is_drawn_whole_and_boxes_stay_square() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/a👍🏽z", 40 * 1024).file("t/other", 8 * 1024);
    let script = view_script(&env, "t");
    let tmux = Tmux::start(env.path("tmux.sock"), &[], &script);
    let screen = tmux.wait_for("other");
    let row = screen.lines().nth(2).unwrap_or_default();
    assert!(row.ends_with("a👍🏽z"), "{screen}");
    tmux.keys(&["d"]);
    let screen = tmux.wait_for("any other key: No");
    let width = |l: &str| -> usize {
        use unicode_width::UnicodeWidthChar;
        l.chars().map(|c| c.width().unwrap_or(0)).sum()
    };
    let boxed: Vec<&str> = screen
        .lines()
        .filter(|l| l.contains('│') || l.contains('┌'))
        .collect();
    let path = boxed.iter().find(|l| l.contains("t/a")).expect("the path");
    assert!(path.contains("t/a👍🏽z "), "{screen}");
    let want = width(boxed[0]);
    for l in &boxed {
        assert_eq!(width(l), want, "{l:?}\n{screen}");
    }
    tmux.keys(&["n", "q"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
}

/// `--print-marked` with stdout closed (`>&-`, the view drawn on stderr): the marked paths
/// went nowhere, which is a write error and exit 1, as du says, not a success.
#[test]
fn print_marked_into_a_closed_stdout_is_a_write_error() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/a", 64 * 1024);
    let script = format!(
        "cd '{}' && '{}' i --print-marked t >&-; echo $? > status.txt; sleep 60",
        env.root().display(),
        hogs_bin().display()
    );
    let tmux = Tmux::start(env.path("tmux.sock"), &[], &script);
    tmux.wait_for(" hogs  t");
    tmux.keys(&["Space"]);
    tmux.wait_for("1 marked");
    tmux.keys(&["q"]);
    tmux.wait_for("Quit anyway?");
    tmux.keys(&["y"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "1\n");
    tmux.wait_for("hogs: write error: Bad file descriptor");
}

/// `hogs i --import x.ncdu` in a real terminal reads the export on demand; a damaged block
/// is said in the footer, then once on stderr after the view closes, and the exit status is 1.
#[test]
fn a_binary_export_is_browsed_on_demand_and_its_damage_is_a_failure() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    super::export::damaged_export(&env);
    let script = view_script(&env, "--import t.ncdu 2> err.txt");
    let debug = Path::new("1");
    let tmux = Tmux::start(
        env.path("tmux.sock"),
        &[("HOGS_DEBUG_IMPORT", debug)],
        &script,
    );
    tmux.wait_for("cannot read all of 't.ncdu'");
    // the line stays through the next key, until Esc; then the footer says why nothing is
    // deleted
    tmux.keys(&["j"]);
    tmux.keys(&["c"]); // a frame drawn after j's
    tmux.wait_for("   ? ");
    tmux.wait_for("cannot read all of 't.ncdu'");
    tmux.keys(&["Escape"]);
    tmux.wait_for("read-only: an export");
    tmux.keys(&["q"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "1\n");
    let err = std::fs::read_to_string(env.path("err.txt")).expect("stderr");
    assert!(err.contains("import: read on demand"), "{err}");
    assert!(err.contains("hogs: cannot read all of 't.ncdu': "), "{err}");
}
