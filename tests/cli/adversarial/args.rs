//! Cases 1–6: arguments and paths.

use std::fs;
use std::process::Command;
use std::time::Duration;

use super::{err_lines, traced_opens};
use crate::util::*;

/// Case 1: an empty argument is skipped with a warning (dust skips it), the valid ones around
/// it are scanned, and the run is complete (exit 0, as dust).
#[test]
fn empty_argument_among_valid_ones() {
    let env = TestEnv::new();
    env.file("a/f", 20_000);
    env.file("b/g", 40_000);
    let out = env.run(["-j", "a", "", "b"]);
    assert_eq!(out.status.code(), Some(0), "exit status");
    assert_eq!(
        err_lines(&out),
        ["hogs: warning: skipped a zero-length file name"]
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(size(&v), env.du_disk(&["a", "b"]), "total of a and b");
    assert_eq!(size(child(&v, "a")), env.du_disk(&["a"]));
    assert_eq!(size(child(&v, "b")), env.du_disk(&["b"]));
}

/// Case 2: one directory reached under several names (a symlink with a trailing slash, `..`,
/// `.`-segments) is counted once in every mode.
#[test]
fn aliases_count_each_inode_once() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.symlink("d", "alias");
    let want = [
        ("", env.du_disk(&["d"])),
        ("-s", env.du_apparent(&["d"])),
        ("-f", env.du_inodes(&["d"])),
    ];
    let spellings: &[&[&str]] = &[
        &["d", "alias/"],
        &["alias/", "d"],
        &["d", "d/a/.."],
        &["d/a/..", "./d", "d/"],
        &["d/a", "alias/a/../.", "d"],
    ];
    for args in spellings {
        for (flag, want) in want {
            let mut all: Vec<&str> = Vec::new();
            if !flag.is_empty() {
                all.push(flag);
            }
            all.extend_from_slice(args);
            assert_eq!(env.total(&all), want, "hogs -j {all:?}: total vs du of d");
        }
    }
}

/// Case 3: each path is named as dust names it: by its last component in the tree (`./a` is
/// `a`, `b/` is `b`), written as dust writes paths with `-p` and in JSON (`./a` stays, `b/`
/// loses its slash); `/` stays `/` and its children are `/x`.
#[test]
fn names_printed_as_dust_prints_them() {
    let env = TestEnv::new();
    env.file("a/f", 10_000);
    env.file("b/g", 20_000);
    let last_words = |args: &[&str]| -> Vec<String> {
        let out = env.stdout_ok(args);
        String::from_utf8_lossy(&out)
            .lines()
            .map(|l| l.rsplit(' ').next().unwrap_or("").to_owned())
            .collect()
    };
    let names = last_words(&["-d", "0", "-b", "-w", "60", "./a", "b/"]);
    assert_eq!(names, ["a", "b", "(total)"], "labels");
    let names = last_words(&["-d", "0", "-b", "-p", "-w", "60", "./a", "b/"]);
    assert_eq!(
        names,
        ["./a", "b", "(total)"],
        "-p: paths as dust writes them"
    );
    let names = last_words(&["-d", "1", "-b", "-p", "-w", "60", ".//a/./"]);
    assert_eq!(names, ["./a/f", "./a"], "-p below a path");
    let v = env.json(["./a", "b/"]);
    let names: Vec<&str> = children(&v).iter().map(full_name).collect();
    assert!(
        names.contains(&"./a") && names.contains(&"b"),
        "JSON names {names:?}"
    );
}

#[test]
fn root_slash_never_doubled() {
    // scan only a small part of `/`: every other top-level entry is excluded by exact path
    let keep = "etc";
    let mut args: Vec<String> = vec![
        "-b".into(),
        "-p".into(),
        "-d".into(),
        "1".into(),
        "-x".into(),
    ];
    let top = fs::read_dir("/").expect("list /");
    for e in top.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        if n != keep {
            args.push("-X".into());
            args.push(format!("/{n}"));
        }
    }
    args.push("/".into());
    let env = TestEnv::new();
    let out = env.run(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("//"), "a doubled slash:\n{text}");
    let last: Vec<&str> = text
        .lines()
        .map(|l| l.rsplit(' ').next().unwrap_or(""))
        .collect();
    assert!(last.contains(&"/"), "the root prints as /:\n{text}");
    assert!(last.contains(&"/etc"), "its child prints as /etc:\n{text}");
    let mut j = args.clone();
    j.insert(0, "-j".into());
    let out = env.run(&j);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(name(&v), "/");
}

/// Case 4 (issue 24, item 6): a symlink named on the command line is followed, as du -D,
/// dust, ncdu and gdu do; the links below it are not, unless -L. A dangling one is an error.
#[test]
fn symlink_argument_followed() {
    let env = TestEnv::new();
    env.file("d/big", 300_000);
    env.symlink("big", "d/inner");
    env.symlink("d", "link");
    env.symlink("nowhere", "dangling");
    let v = env.json(["link"]);
    assert_eq!(
        size(&v),
        env.du_total(&["-B1", "-D"], &["link"]),
        "hogs link = du -sDB1 link (what it points at)"
    );
    assert!(size(&v) >= 300_000, "the link was not followed: {v}");
    assert_eq!(name(&v), "link", "labelled as typed: {v}");
    assert_eq!(children(&v).len(), 2, "d's entries, inner a link: {v}");
    assert_eq!(
        env.total(["-L", "link"]),
        env.du_total(&["-B1", "-L"], &["link"]),
        "hogs -L link = du -sLB1 link"
    );
    let out = env.run(["dangling"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot access 'dangling': No such file or directory\n"
    );
    // the interactive view's export and deletion start from the same followed root
    let out = env.run(["-O", "scan.json", "link"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// Case 4: a FIFO (opening it would block forever) and character devices (opening /dev/zero
/// and reading would never end) are stat'ed, never opened.
#[test]
fn fifo_and_device_arguments_not_opened() {
    let env = TestEnv::new();
    env.mkdir("d");
    env.fifo("d/pipe");
    let mut child = env
        .hogs()
        .args(["-j", "d/pipe", "/dev/null", "/dev/zero"])
        .timeout(Duration::from_secs(20))
        .output()
        .expect("run hogs");
    assert_eq!(child.status.code(), Some(0), "hogs on a FIFO and devices");
    let v: serde_json::Value = serde_json::from_slice(&child.stdout).expect("JSON");
    assert_eq!(size(&v), 0, "FIFO and devices have no blocks: {v}");
    child.stdout.clear();
    let Some(trace) = traced_opens(&env, &["-P", "d/pipe", "/dev/null", "/dev/zero", "d"]) else {
        return;
    };
    for l in trace.lines() {
        assert!(
            !(l.contains("pipe\"") || l.contains("/dev/null\"") || l.contains("/dev/zero\"")),
            "opened an argument that is not a directory: {l}"
        );
    }
}

/// Case 5: clap's own usage errors keep exit 2 (invalid values, clap's included, are exit
/// 1: errors.rs).
#[test]
fn usage_errors_exit_2() {
    let env = TestEnv::new();
    for args in [&["--no-such-flag"][..], &["-d"][..], &["-o"][..]] {
        let out = env.run(args);
        assert_eq!(out.status.code(), Some(2), "hogs {args:?}");
        assert!(out.stdout.is_empty(), "hogs {args:?} printed to stdout");
    }
}

/// Case 6: absolute arguments work from a working directory that was deleted, or that the
/// user may not read.
#[test]
fn working_directory_gone_or_unreadable() {
    let env = TestEnv::new();
    env.file("data/f", 50_000);
    env.mkdir("gone");
    let data = env.path("data");
    let want = env.du_disk(&["data"]);
    let out = Command::new("sh")
        .arg("-c")
        .arg("cd gone && rmdir ../gone && exec \"$0\" -j -d 0 \"$1\"")
        .arg(hogs_bin())
        .arg(&data)
        .current_dir(env.root())
        .output()
        .expect("run sh");
    assert_eq!(out.status.code(), Some(0), "deleted cwd: {out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(size(&v), want, "deleted cwd: total");

    if is_root() && !have_setpriv() {
        skip!("skipped (unreadable cwd): root without setpriv(1)");
        return;
    }
    env.mkdir("closed");
    env.chmod("closed", 0o000);
    let out = unprivileged(&hogs_bin())
        .args(["-j", "-d", "0"])
        .arg(&data)
        .current_dir(env.path("closed"))
        .output()
        .expect("run hogs");
    env.chmod("closed", 0o755);
    assert_eq!(out.status.code(), Some(0), "unreadable cwd: {out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(size(&v), want, "unreadable cwd: total");
}
