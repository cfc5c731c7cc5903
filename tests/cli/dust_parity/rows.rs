//! Issue 24, items 3, 4 and 10: how many rows dust prints (`-n`, `-d`, the terminal's
//! height) and what it calls them (the paths given, `-p`, `-F`, equal names, overlapping
//! paths). Both binaries on the same tree; the trees' sizes are all different (sparse files
//! compared with `-s`), so which rows make the cut never depends on how ties are broken.

use std::path::Path;
use std::process::{Command, Stdio};

use super::{dust, dust_bin, dust_keys, hogs, parse};
use crate::util::*;

/// A sparse file of `len` bytes (no blocks) at `rel`, its directories made.
fn sparse(env: &TestEnv, rel: impl AsRef<Path>, len: u64) {
    if let Some(parent) = rel.as_ref().parent() {
        env.mkdir(parent);
    }
    env.sparse(rel, len);
}

/// `t/` with six directories of eight files each and a file: 56 rows, no two sizes alike.
fn wide_tree(env: &TestEnv) {
    for i in 1..=6u64 {
        for j in 1..=8u64 {
            sparse(env, format!("t/d{i}/f{j}"), (i * 100 + j) * 1000);
        }
    }
    sparse(env, "t/top", 12_345);
}

/// Output lines with their runs of blanks made one (and `\r` dropped), sorted.
fn sorted_rows(out: &[u8]) -> Vec<String> {
    let mut v: Vec<String> = String::from_utf8_lossy(out)
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect();
    v.sort();
    v
}

/// Both tools' `-R -c -s` rows with exactly these arguments (no `-n` added), sorted.
fn rows_as_given(env: &TestEnv, bin: &Path, args: &[&str]) -> (Vec<String>, Vec<String>) {
    rows_of_both(env, bin, &[&["-R", "-c", "-s"], args].concat())
}

/// Both tools' rows with these arguments, sorted.
fn rows_of_both(env: &TestEnv, bin: &Path, all: &[&str]) -> (Vec<String>, Vec<String>) {
    (
        sorted_rows(&dust(env, bin, all)),
        sorted_rows(&hogs(env, all)),
    )
}

/// Item 3: `-n N` prints the root and N rows below it (the paths below "(total)" among
/// them; with --skip-total, N rows in all), in the tree, `-F` and `-t`.
#[test]
fn n_lines_are_the_rows_below_the_root() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    wide_tree(&env);
    for n in ["0", "1", "2", "5", "9", "30"] {
        for args in [
            &["-n", n, "t"][..],
            &["-n", n, "t/d1", "t/d2", "t/d6"],
            &["-n", n, "--skip-total", "t/d1", "t/d2", "t/d6"],
            &["-n", n, "-F", "t"],
            &["-n", n, "-t", "t"],
        ] {
            let (theirs, ours) = rows_as_given(&env, &bin, args);
            assert_eq!(ours, theirs, "hogs vs dust {args:?}");
        }
    }
    let (theirs, _) = rows_as_given(&env, &bin, &["-n", "5", "t"]);
    assert_eq!(theirs.len(), 6, "dust -n 5: the root and 5: {theirs:?}");
}

/// Item 3: `-d N` without `-n` shows every row down to depth N, however many (56 here, more
/// than any default), as dust does; `-j` too.
#[test]
fn a_depth_without_n_shows_every_row_down_to_it() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    wide_tree(&env);
    for args in [
        &["-d", "2", "t"][..],
        &["-d", "1", "t"],
        &["-d", "5", "t/d1", "t"],
    ] {
        let (theirs, ours) = rows_as_given(&env, &bin, args);
        assert_eq!(ours, theirs, "hogs vs dust {args:?}");
    }
    let (theirs, _) = rows_as_given(&env, &bin, &["-d", "2", "t"]);
    assert_eq!(theirs.len(), 56, "{theirs:?}");
    let theirs = dust_keys(&parse(&dust(&env, &bin, &["-j", "-s", "t"]), "dust"));
    let ours = dust_keys(&parse(&hogs(&env, &["-j", "-s", "t"]), "hogs"));
    assert_eq!(ours, theirs, "-j: every row");
    // -j -t: every file type, not the 20 of a screen
    for i in 1..=25u64 {
        sparse(&env, format!("t/types/x.e{i}"), 1000 * i);
    }
    let theirs = dust_keys(&parse(&dust(&env, &bin, &["-j", "-s", "-t", "t"]), "dust"));
    let ours = dust_keys(&parse(&hogs(&env, &["-j", "-s", "-t", "t"]), "hogs"));
    assert!(children(&theirs).len() > 25, "{theirs}");
    assert_eq!(ours, theirs, "-j -t: every type");
}

/// Runs `cmd` (sh) in a pseudo-terminal of `rows` rows and 100 columns: what it printed,
/// sorted as rows. `None` (skipped) without script(1).
fn in_pty(env: &TestEnv, rows: usize, cmd: &str) -> Option<Vec<String>> {
    let line = format!("stty rows {rows} cols 100; {cmd}");
    crate::adversarial::in_terminal(env.root(), &line, &[]).map(|out| sorted_rows(&out))
}

/// Item 4: without `-n` the rows fit the terminal as dust fits them: its height less 10 (at
/// least 20) below the root, read from stdout, else stderr, else stdin (`hogs | less`), and
/// 20 with no terminal at all.
#[test]
fn the_default_rows_fit_the_terminal_as_dusts() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    wide_tree(&env);
    let run = |program: &Path, tail: &str| {
        format!(
            "HOME=no-such-home XDG_CONFIG_HOME=no-such-dir '{}' -R -c -s -P t{tail}",
            program.display()
        )
    };
    for rows in [10, 24, 35, 50] {
        // stdout the terminal; a pipe with stderr the terminal; only stdin the terminal
        for tail in ["", " </dev/null | cat", " 2>/dev/null | cat"] {
            let Some(theirs) = in_pty(&env, rows, &run(&bin, tail)) else {
                return;
            };
            let Some(ours) = in_pty(&env, rows, &run(&hogs_bin(), tail)) else {
                return;
            };
            assert_eq!(ours, theirs, "{rows} rows, 'hogs …{tail}' vs dust");
            assert_eq!(theirs.len(), rows.max(30) - 10 + 1, "dust at {rows} rows");
        }
    }
    // no terminal at all: 20 rows and the root
    let none = |program: &Path| {
        Command::new(program)
            .args(["-R", "-c", "-s", "-P", "t"])
            .current_dir(env.root())
            .env("HOME", env.root().join("no-such-home"))
            .env("XDG_CONFIG_HOME", env.root().join("no-such-dir"))
            .stdin(Stdio::null())
            .output()
            .expect("run")
            .stdout
    };
    let (theirs, ours) = (sorted_rows(&none(&bin)), sorted_rows(&none(&hogs_bin())));
    assert_eq!(ours, theirs, "no terminal");
    assert_eq!(theirs.len(), 21, "{theirs:?}");
}

/// A tree for the labels: two directories called `dup` under different parents, another
/// under a parent of the same name further up, and files of different sizes.
fn label_tree(env: &TestEnv) {
    sparse(env, "t/andy/dup/a", 9_000);
    sparse(env, "t/bob/dup/b", 3_000);
    sparse(env, "t/a/x/f", 5_000);
    sparse(env, "t/b/a/x/g", 7_000);
    sparse(env, "t/y/z/h", 11_000);
    sparse(env, "t/y/z/sub/i", 13_000);
}

/// Item 10: a path given is labelled by its last component as dust prints it (not as typed),
/// equal labels get dust's `(parent)` marks, `-p` writes paths as dust writes them and `-F`
/// names files by their names (their paths with `-p`).
#[test]
fn paths_given_are_labelled_as_dust_labels_them() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    label_tree(&env);
    let abs = env.path("t/y/z").display().to_string();
    let cases: &[&[&str]] = &[
        &["./t/y/z/"],
        &["t//y/./z"],
        &[&abs],
        &["t/andy/dup", "t/bob/dup"],
        &["t/andy/dup/", "./t/bob/dup"],
        &["t/a/x", "t/b/a/x", "t/y/z"],
        &["-p", "./t//y/z/"],
        &["-p", "t/andy/dup", "t/bob/dup"],
        &["-p", &abs],
        &["-F", "t/y"],
        &["-F", "-p", "./t/y/"],
        &["-F", "t/andy/dup", "t/bob/dup"],
        &["-d", "0", "t/andy/dup", "t/bob/dup", "t/y/z"],
    ];
    for args in cases {
        let mut all = vec!["-n", "999"];
        all.extend_from_slice(args);
        let (theirs, ours) = rows_as_given(&env, &bin, &all);
        assert_eq!(ours, theirs, "hogs vs dust {args:?}");
    }
    let (theirs, _) = rows_as_given(&env, &bin, &["-d", "0", "t/andy/dup", "t/bob/dup"]);
    assert!(
        theirs.iter().any(|r| r.starts_with("dup(andy) ")),
        "{theirs:?}"
    );
    // -j names the roots as dust does, (parent) marks included
    for args in [
        &["-j", "t/andy/dup", "t/bob/dup"][..],
        &["-j", "t/a/x", "t/b/a/x"],
    ] {
        let theirs = dust_keys(&parse(&dust(&env, &bin, args), "dust"));
        let ours = dust_keys(&parse(&hogs(&env, args), "hogs"));
        assert_eq!(ours, theirs, "hogs vs dust {args:?}");
    }
}

/// Item 10: a label made of a hostile name is escaped like any name: the parent of two equal
/// names holds a newline and an escape character.
#[test]
fn labels_made_of_hostile_names_are_escaped() {
    let env = TestEnv::new();
    sparse(&env, "t/a\nb\x1b[31m/dup/f", 5000);
    sparse(&env, "t/c/dup/g", 3000);
    let out = hogs(&env, &["-R", "-d", "0", "t/a\nb\x1b[31m/dup", "t/c/dup"]);
    let text = String::from_utf8_lossy(&out);
    assert!(!out.contains(&0x1b), "raw escape:\n{text}");
    assert!(text.contains(r"dup(a\nb\x1b[31m) "), "{text}");
    assert!(text.contains("dup(c) "), "{text}");
}

/// Item 10: paths that hold one another are one tree, as dust merges them, and the total is
/// du's (nothing counted twice); a second spelling of one directory is no second root.
/// Disk sizes: with `-s` dust counts a directory under each of its spellings.
#[test]
fn overlapping_paths_are_one_tree() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    wide_tree(&env);
    let cases: &[&[&str]] = &[
        &["t/d1/", "t", "t"],
        &["t", "t/d1"],
        &["t/d3", "t/d3/f1", "t/d4"],
        &["t", "./t"],
        &["t/d2", "t/d2/"],
    ];
    for args in cases {
        let (theirs, ours) =
            rows_of_both(&env, &bin, &[&["-R", "-c", "-n", "999"], *args].concat());
        assert_eq!(ours, theirs, "hogs vs dust {args:?}");
        let v = env.json(*args);
        let paths: Vec<&str> = args.to_vec();
        assert_eq!(field_u64(&v, "disk_bytes"), env.du_disk(&paths), "{args:?}");
    }
    // dust's result for a path inside another spelled differently depends on which it walks
    // first; hogs gives the whole tree, as for the same path spelled alike
    let abs = env.path("t").display().to_string();
    let (whole, _) = rows_of_both(&env, &bin, &["-R", "-c", "-n", "999", "t"]);
    let ours = sorted_rows(&hogs(&env, &["-R", "-c", "-n", "999", "t/d1", &abs]));
    assert_eq!(ours, whole, "t/d1 and $PWD/t are t");
    assert_eq!(
        field_u64(&env.json(["t/d1", &abs]), "disk_bytes"),
        env.du_disk(&["t"])
    );
    // the same directory under a second path no spelling reveals (a bind mount): the walk
    // counts it once and the second path is no root of its own, as dust drops it
    env.mkdir("b");
    let script = format!(
        "mount --bind t b && '{}' -R -c -n 999 t b > bound.txt",
        hogs_bin().display()
    );
    if crate::adversarial::in_private_mounts(&env, &script, "bind-mount a directory") {
        let out = std::fs::read(env.path("bound.txt")).expect("read bound.txt");
        assert_eq!(sorted_rows(&out), whole, "t and a bind mount of it are t");
    }
}

/// The bars are dust's cell for cell: `width - 1` cells and a blank, an entry's share of
/// them rounded down plus one (an empty file shows a cell), shaded by depth, from either side.
/// The whole output is compared, byte for byte, on a tree of distinct apparent sizes.
#[test]
fn bars_are_dusts_cell_for_cell() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    wide_tree(&env);
    env.empty("t/d1/empty");
    for args in [
        &["-s", "-c", "-w", "60", "t"][..],
        &["-s", "-c", "-w", "41", "-d", "1", "t"],
        &["-s", "-c", "-w", "100", "-n", "40", "t"],
        &["-s", "-c", "-B", "-w", "60", "-n", "12", "t"],
        &["-s", "-c", "-w", "60", "-n", "8", "t/d3", "t/d5"],
    ] {
        let ours = String::from_utf8_lossy(&hogs(&env, args)).into_owned();
        let theirs = String::from_utf8_lossy(&dust(&env, &bin, args)).into_owned();
        assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
    }
}
