//! What a person sees in a real terminal (tmux), issue 41's items 12 to 19: the cursor's row,
//! Ctrl-C during a scan, `r`, the search over the whole tree, the item view.

use super::tmux::{view_script, wait_for_file, Tmux};
use crate::util::TestEnv;

/// One cell of a captured line: its character, and whether it is drawn in reverse video or
/// on a background colour.
struct Cell {
    ch: char,
    reversed: bool,
    background: bool,
}

/// The cells of a line captured with its escape sequences (`capture-pane -e`): SGR 7/27
/// turn reverse video on and off, 4x/10x/48 set a background, 49 and 0 clear.
fn cells(line: &str) -> Vec<Cell> {
    let (mut out, mut reversed, mut background) = (Vec::new(), false, false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(Cell {
                ch: c,
                reversed,
                background,
            });
            continue;
        }
        let mut seq = String::new();
        for d in chars.by_ref() {
            if d.is_ascii_alphabetic() {
                seq.push(d);
                break;
            }
            seq.push(d);
        }
        let Some(params) = seq.strip_prefix('[').and_then(|s| s.strip_suffix('m')) else {
            continue;
        };
        let mut ps = params.split(';');
        while let Some(p) = ps.next() {
            match p {
                "" | "0" => (reversed, background) = (false, false),
                "7" => reversed = true,
                "27" => reversed = false,
                "49" => background = false,
                "48" | "38" => {
                    let set = p == "48";
                    match ps.next() {
                        Some("5") => {
                            ps.next();
                        }
                        Some("2") => {
                            ps.nth(2);
                        }
                        _ => {}
                    }
                    background |= set;
                }
                _ if p.len() == 2 && p.starts_with('4') => background = true,
                _ if p.len() == 3 && p.starts_with("10") => background = true,
                _ => {}
            }
        }
    }
    out
}

/// The bar of a captured row as a reader sees it (`#` a full cell, `.` an empty one), and
/// whether the row is marked (reverse video or a background anywhere).
fn seen_bar(line: &str) -> (String, bool) {
    let cells = cells(line);
    let marked = cells.iter().any(|c| c.reversed || c.background);
    let bar = cells
        .iter()
        .filter_map(|c| match (c.ch, c.reversed) {
            ('█', false) | ('░', true) => Some('#'),
            ('░', false) | ('█', true) => Some('.'),
            _ => None,
        })
        .collect();
    (bar, marked)
}

fn captured(tmux: &Tmux) -> Vec<String> {
    let out = tmux.cmd(&["capture-pane", "-e", "-p", "-t", "hogs"]);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Issue 41, 12: selected, `lib/ 75%` still reads three quarters full and `python3/ 1%`
/// nearly empty (reverse video read them the other way round).
#[test]
fn the_selected_rows_bar_keeps_its_ratio_in_a_real_terminal() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("usr/lib/big", 300 * 1024)
        .file("usr/share/mid", 80 * 1024)
        .file("usr/python3/small", 8 * 1024);
    let tmux = Tmux::start(env.path("tmux.sock"), &[], &view_script(&env, "usr"));
    tmux.wait_for("python3/");
    // the cursor on the last row: the two above are drawn as any row is
    tmux.keys(&["G"]);
    tmux.wait_for("python3/");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let plain = captured(&tmux);
    let row = |lines: &[String], name: &str| {
        lines
            .iter()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("no {name} in {lines:#?}"))
            .clone()
    };
    let (lib, marked) = seen_bar(&row(&plain, "lib/"));
    assert!(!marked && lib.len() == 16, "{lib}");
    assert!(
        lib.chars().all(|c| c == '#'),
        "the biggest row is full: {lib}"
    );
    tmux.keys(&["g"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (selected, marked) = seen_bar(&row(&captured(&tmux), "lib/"));
    assert!(marked, "the cursor's row is marked");
    assert_eq!(selected, lib, "lib/ with the cursor on it");
    tmux.keys(&["q"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
}

/// Issue 41, 13: Ctrl-C twice during a scan (the second as the first seems slow to act):
/// the view says "stopping…" and stays, with what the walk found; quitting then asks.
#[test]
fn two_ctrl_c_keep_the_partial_scan_in_a_real_terminal() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    // enough for a walk on one thread to run while the keys arrive (in memory: seconds)
    let env = TestEnv::new_in_memory();
    for d in 1..=100 {
        let dir = env.path(format!("t/d{d}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        for f in 0..2000 {
            std::fs::File::create(dir.join(f.to_string())).expect("create");
        }
    }
    let tmux = Tmux::start(env.path("tmux.sock"), &[], &view_script(&env, "-T 1 t"));
    tmux.wait_for("scanning…");
    tmux.keys(&["C-c"]);
    tmux.wait_for("INCOMPLETE");
    // the second: the view stays, and asks
    tmux.keys(&["C-c"]);
    tmux.wait_for("The scan was stopped");
    tmux.keys(&["n"]);
    let screen = tmux.wait_for("INCOMPLETE");
    assert!(
        screen.contains("d1/") || screen.contains("d2/"),
        "what the walk found is shown:\n{screen}"
    );
    assert!(!env.path("status.txt").exists(), "the view stays");
    tmux.keys(&["C-c"]);
    tmux.wait_for("The scan was stopped");
    tmux.keys(&["y"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
}

/// Issue 41, 14: `r` on a directory whose rows are all directories rescans it: a file added
/// beside them appears (it rescanned the selected directory, and said "rescanned").
#[test]
fn r_on_a_directory_of_directories_picks_up_a_new_file_in_a_real_terminal() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/a/x", 64 * 1024).file("t/b/y", 32 * 1024);
    let tmux = Tmux::start(env.path("tmux.sock"), &[], &view_script(&env, "t"));
    tmux.wait_for("b/");
    env.file("t/added.bin", 128 * 1024);
    tmux.keys(&["r"]);
    let screen = tmux.wait_for("added.bin");
    assert!(screen.contains("rescanned"), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
}

/// Issue 41, 19: `i` on a directory in a real terminal: its disk size in exact bytes is GNU
/// du's; the footer gives disk and apparent totals side by side.
#[test]
fn i_shows_the_selected_entry_in_a_real_terminal() {
    if !Tmux::available() {
        skip!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let env = TestEnv::new();
    env.file("t/d/a", 200 * 1024).file("t/small", 10);
    let tmux = Tmux::start(env.path("tmux.sock"), &[], &view_script(&env, "t"));
    let screen = tmux.wait_for("d/");
    assert!(screen.contains(" · apparent "), "{screen}");
    tmux.keys(&["i"]);
    let screen = tmux.wait_for("type      directory");
    let du = env.du_disk(&["t/d"]).to_string();
    let digits: String = screen
        .lines()
        .find(|l| l.contains("disk      "))
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    assert!(digits.starts_with(&du), "du says {du}:\n{screen}");
    tmux.keys(&["x", "q"]);
    assert_eq!(wait_for_file(&env.path("status.txt")), "0\n");
}
