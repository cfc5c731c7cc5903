//! Errors, exit codes, broken pipes, full disks.

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

use crate::util::*;

fn stderr_lines(out: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn nonexistent_path_among_valid_ones() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.file("e/x", 20_000);
    let out = env.run(["-j", "d", "nope", "e"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "exit status of hogs -j d nope e"
    );
    assert_eq!(
        stderr_lines(&out),
        ["hogs: cannot access 'nope': No such file or directory"],
        "stderr of hogs -j d nope e"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    let d = find_node(&v, "d").expect("d is still shown");
    assert_eq!(size(d), env.du_disk(&["d"]), "d vs du -sB1 d");
    let e = find_node(&v, "e").expect("e is still shown");
    assert_eq!(size(e), env.du_disk(&["e"]), "e vs du -sB1 e");
    assert_eq!(size(&v), env.du_disk(&["d", "e"]), "total vs du -scB1 d e");

    // text mode too
    let out = env.run(["-b", "d", "nope"]);
    assert_eq!(out.status.code(), Some(1), "exit status of hogs -b d nope");
    assert_eq!(
        stderr_lines(&out),
        ["hogs: cannot access 'nope': No such file or directory"],
        "stderr of hogs -b d nope"
    );
    assert!(
        lines(&out.stdout)
            .iter()
            .any(|l| String::from_utf8_lossy(l).trim_end().ends_with(" d")),
        "hogs -b d nope does not show d:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn only_nonexistent_path() {
    let env = TestEnv::new();
    let out = env.run(["nope"]);
    assert_eq!(out.status.code(), Some(1), "exit status of hogs nope");
    assert_eq!(
        stderr_lines(&out),
        ["hogs: cannot access 'nope': No such file or directory"]
    );
}

#[test]
fn unreadable_directory() {
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.file("d/locked/secret", 500_000);
    env.file("d/locked/sub/more", 100_000);
    env.file("d/sib/visible", 64_000);
    env.chmod("d/locked", 0o000);

    // The oracle: du run as the same unprivileged user (it also cannot read d/locked but
    // counts its own blocks).
    let du = env.du_unprivileged(&["-sB1", "d"]);
    assert!(
        String::from_utf8_lossy(&du.stderr).contains("Permission denied"),
        "sanity: du as an unprivileged user cannot read d/locked: {}",
        String::from_utf8_lossy(&du.stderr)
    );
    let want = parse_du(&du.stdout)[0].0;

    let out = env.run_unprivileged(["-j", "d"]);
    assert_eq!(out.status.code(), Some(1), "exit status");
    assert_eq!(
        stderr_lines(&out),
        ["hogs: cannot read directory 'd/locked': Permission denied"],
        "stderr of hogs -j d (unprivileged)"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    assert_eq!(size(&v), want, "total vs du -sB1 d as the same user");
    let locked = child(&v, "locked");
    assert_eq!(
        size(locked),
        blocks_bytes(&env.path("d/locked")),
        "d/locked counts its own blocks"
    );
    assert_eq!(
        size(child(&v, "sib")),
        env.du_disk(&["d/sib"]),
        "sibling scanned"
    );
    assert_eq!(
        size(child(&v, "a")),
        env.du_disk(&["d/a"]),
        "sibling scanned"
    );
}

/// A directory's only subdirectory is opened by the directory's own task (no shared fd):
/// when that open fails the subdirectory is still reported, by its path, and its own
/// blocks still counted, in every mode and thread count, at the end of a chain and in
/// its middle.
#[test]
fn unreadable_lone_subdirectory() {
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    env.file("d/f", 3000);
    env.file("d/a/b/locked/secret", 500_000);
    env.file("d/a/b/locked/c/more", 100_000);
    env.file("d/a/g", 7000);
    env.chmod("d/a/b/locked", 0o000);
    for (flags, du_flags) in [(&[][..], &["-sB1"][..]), (&["-f"], &["-s", "--inodes"])] {
        let du = env.du_unprivileged(&[du_flags, &["d"]].concat());
        let want = parse_du(&du.stdout)[0].0;
        for threads in ["1", "2"] {
            for json in [false, true] {
                let mut args = vec!["-T", threads];
                args.extend_from_slice(flags);
                args.extend_from_slice(if json {
                    &["-j", "d"][..]
                } else {
                    &["-d0", "-o", "b", "d"]
                });
                let out = env.run_unprivileged(&args);
                assert_eq!(out.status.code(), Some(1), "hogs {args:?}: exit status");
                assert_eq!(
                    stderr_lines(&out),
                    ["hogs: cannot read directory 'd/a/b/locked': Permission denied"],
                    "hogs {args:?}: stderr"
                );
                let got = if json {
                    let v: serde_json::Value =
                        serde_json::from_slice(&out.stdout).expect("JSON on stdout");
                    size(&v)
                } else {
                    let text = String::from_utf8_lossy(&out.stdout).into_owned();
                    let first = text.split_whitespace().next().unwrap_or_default();
                    first
                        .trim_end_matches('B')
                        .replace(',', "")
                        .parse()
                        .unwrap_or_else(|_| panic!("hogs {args:?}: {text:?}"))
                };
                assert_eq!(got, want, "hogs {args:?} vs du {du_flags:?} d as nobody");
            }
        }
    }
}

/// A tree whose text output is far bigger than a pipe buffer.
fn big_output_tree(env: &TestEnv) {
    env.mkdir("d");
    env.bash(
        "cd d && for i in $(seq 1 3000); do : > \"file-with-a-rather-long-name-number-$i\"; done",
    );
}

#[test]
fn broken_pipe_is_silent() {
    let env = TestEnv::new();
    big_output_tree(&env);
    let mut child = std::process::Command::new(hogs_bin())
        .args(["-n", "100000", "-d", "1", "d"])
        .current_dir(env.root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hogs");
    {
        let stdout = child.stdout.take().expect("stdout");
        let mut r = BufReader::new(stdout);
        let mut first = String::new();
        r.read_line(&mut first).expect("read first line");
        assert!(!first.is_empty(), "hogs printed nothing");
        // dropping the reader closes the pipe: hogs gets EPIPE on its next write
    }
    let out = child.wait_with_output().expect("wait for hogs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "hogs | head -1: exit status {:?}, stderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "hogs | head -1 wrote to stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// With -L, a link to a file in a directory we may not search fails its own stat with
/// EACCES. That is the link's error, not its directory's: the directory is still counted,
/// as du -L counts it.
#[test]
fn a_followed_link_into_a_locked_directory_fails_alone() {
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    env.file("t/locked/f", 100);
    env.file("t/d/big", 50_000);
    env.symlink("../locked/f", "t/d/link");
    env.chmod("t/locked", 0o700); // root's: uid 65534 may not search it

    let du = env.du_unprivileged(&["-L", "-sB1", "t"]);
    assert!(
        String::from_utf8_lossy(&du.stderr).contains("t/d/link"),
        "sanity: du -L as an unprivileged user cannot stat t/d/link: {}",
        String::from_utf8_lossy(&du.stderr)
    );
    let want = parse_du(&du.stdout)[0].0;

    let out = env.run_unprivileged(["-L", "-j", "t"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "exit status: t/d/link was skipped"
    );
    assert_eq!(
        stderr_lines(&out),
        [
            "hogs: cannot access 't/d/link': Permission denied",
            "hogs: cannot read directory 't/locked': Permission denied"
        ],
        "stderr of hogs -L -j t (unprivileged)"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        size(&v),
        want,
        "hogs -L total vs du -L -sB1, both unprivileged"
    );
    let d = find_node(&v, "d").expect("t/d in the tree");
    assert!(size(d) >= 50_000, "t/d still counts t/d/big: {d}");
}

/// hogs starts without Rust's runtime start (src/main.rs), which kept descriptors 0-2 from
/// being reused. With stderr closed, the export file would be opened as fd 2 and the error
/// about the unreadable directory written into it, ahead of the JSON: it must go nowhere.
#[test]
fn closed_stderr_is_not_reused_for_the_export_file() {
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.file("d/locked/secret", 500_000);
    env.chmod("d/locked", 0o000);
    env.mkdir("out");
    env.chmod("out", 0o777); // writable by the unprivileged user
    let out = unprivileged(std::path::Path::new("sh"))
        .arg("-c")
        .arg("exec 2>&-; exec \"$0\" --export out/scan.json d")
        .arg(hogs_bin())
        .current_dir(env.root())
        .env("XDG_CONFIG_HOME", env.path("no-such-config-dir"))
        .output()
        .expect("run hogs with stderr closed");
    assert_eq!(
        out.status.code(),
        Some(1),
        "exit status: d/locked was skipped"
    );
    let written = std::fs::read(env.path("out/scan.json")).expect("read the export");
    let v: serde_json::Value = serde_json::from_slice(&written).unwrap_or_else(|e| {
        panic!(
            "the export is not JSON ({e}): {}",
            String::from_utf8_lossy(&written)
        )
    });
    assert!(v.is_array(), "an ncdu export is a JSON array: {v}");
}

fn dev_full_case(env: &TestEnv, args: &[&str]) {
    let full = match OpenOptions::new().write(true).open("/dev/full") {
        Ok(f) => f,
        Err(e) => {
            skip!("skipped: cannot open /dev/full: {e}");
            return;
        }
    };
    let out = std::process::Command::new(hogs_bin())
        .args(args)
        .current_dir(env.root())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .expect("run hogs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "hogs {args:?} > /dev/full: exit status; stderr: {err}"
    );
    assert!(
        err.contains("write error"),
        "hogs {args:?} > /dev/full: stderr does not mention \"write error\": {err:?}"
    );
    assert!(
        err.starts_with("hogs: "),
        "stderr starts with 'hogs: ': {err:?}"
    );
}

#[test]
fn dev_full_text() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    dev_full_case(&env, &["d"]);
    // a single short line too (must be detected at flush time)
    dev_full_case(&env, &["-d", "0", "d"]);
}

#[test]
fn dev_full_json() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    dev_full_case(&env, &["-j", "d"]);
}

#[test]
fn invalid_values() {
    let env = TestEnv::new();
    env.file("d/f", 100);
    let cases: &[&[&str]] = &[
        &["-d", "-1", "d"],
        &["-d", "abc", "d"],
        &["-z", "abc", "d"],
        &["-T", "0", "d"],
        &["-n", "x", "d"],
        &["-e", "(", "d"],
        &["-v", "(", "d"],
        // clap's own value checks say it the same way (issue 22, item 14)
        &["-o", "xx", "d"],
        &["-m", "z", "d"],
    ];
    for args in cases {
        let out = env.run(*args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(1),
            "hogs {args:?}: exit status; stderr: {err}"
        );
        assert!(
            err.starts_with("hogs: "),
            "hogs {args:?}: stderr does not start with 'hogs: ': {err:?}"
        );
        assert_eq!(
            err.trim_end_matches('\n').lines().count(),
            1,
            "hogs {args:?}: the error is not one line: {err:?}"
        );
        assert!(
            out.stdout.is_empty(),
            "hogs {args:?}: printed to stdout: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

/// Issue 22, item 14: a refused value of a flag with a fixed set names them, in the one-line
/// form every bad value has; `-n 0` shows the root, as dust does.
#[test]
fn refused_values_name_what_is_accepted_and_n_0_shows_the_root() {
    let env = TestEnv::new();
    env.file("d/f", 100);
    let out = env.run(["-o", "xx", "d"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: invalid value 'xx' for --output-format: expected one of si, b, k, m, g, t, kb, mb, gb, tb\n"
    );
    let out = env.stdout_ok(["-n", "0", "d"]);
    let rows = lines(&out);
    assert_eq!(rows.len(), 1, "{}", String::from_utf8_lossy(&out));
    assert!(
        String::from_utf8_lossy(rows[0]).contains(" d"),
        "{}",
        String::from_utf8_lossy(&out)
    );
}

/// Issue 24, item 12: what could not be read makes the status 1 (as du and ncdu); scripts
/// written for dust's 0 ask for it with `--exit-zero` (or `exit-zero = true`), and the
/// error is still named.
#[test]
fn exit_zero_keeps_the_errors_and_gives_status_0() {
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    env.file("d/locked/secret", 5_000).file("d/open", 1_000);
    env.chmod("d/locked", 0o000);
    let out = env.run_unprivileged(["-d", "0", "d"]);
    assert_eq!(out.status.code(), Some(1));
    let out = env.run_unprivileged(["--exit-zero", "-d", "0", "d"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        stderr_lines(&out),
        ["hogs: cannot read directory 'd/locked': Permission denied"]
    );
}
