//! Issue 24, items 3 and 4: how many rows dust prints (`-n`, `-d`, the terminal's
//! height). Both binaries on the same tree; the trees' sizes are all different (sparse files
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
            &["-n", n, "-p", "t/d1", "t/d2", "t/d6"],
            &["-n", n, "-p", "--skip-total", "t/d1", "t/d2", "t/d6"],
            &["-n", n, "-p", "-F", "t"],
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
        &["-d", "5", "-p", "t/d1", "t/d3"],
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
