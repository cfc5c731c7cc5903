//! A merge of split scans (docs/SPLIT-SCANS.md) meets names where du meets them: in the order
//! each directory lists its entries, not in byte order of the parts' names, so a hard link
//! shared by two parts counts in the directory du counts it in. And a part that was never
//! written is named, not lost: the top part marks what it left out (`"excluded":"pattern"`).

use std::collections::BTreeMap;
use std::fs;
use std::process::Command;

use serde_json::Value;

use crate::util::*;

/// The names of `dir`'s entries in the order the directory lists them (`ls -U`; what du's
/// walk and hogs's meet).
fn listed(env: &TestEnv, dir: &str) -> Vec<String> {
    fs::read_dir(env.path(dir))
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect()
}

/// A tree whose parts under `top/p` hold one file under a name each (hard links), with
/// `top/p` listing them out of byte order: the first it lists is not the smallest name. On
/// a tmpfs (newest first) directories made in byte order do that; where the order is a
/// hash (ext4), one more smaller name at a time until it holds.
fn linked_tree(env: &TestEnv) {
    env.file("top/f0", 10_000).file("top/q/r/s", 3_000);
    env.file("top/q/r2/t", 5_000);
    env.file("top/p/d1/shared", 100_000);
    for d in ["d2", "d3", "d4"] {
        env.file(format!("top/p/{d}/own"), 7_000);
        env.hardlink("top/p/d1/shared", format!("top/p/{d}/shared"));
    }
    // a link between the top part and a part, and between two parents
    env.hardlink("top/f0", "top/p/d3/f0-too");
    env.hardlink("top/q/r/s", "top/p/d2/s-too");
    let mut extra = b'c';
    loop {
        let names = listed(env, "top/p");
        let smallest = names.iter().min().expect("entries");
        if names[0] != *smallest {
            break;
        }
        assert!(
            extra > b'a',
            "top/p lists {names:?}: no order out of byte order found"
        );
        let d = format!("{}0", extra as char);
        env.hardlink("top/p/d1/shared", format!("top/p/{d}/shared"));
        extra -= 1;
    }
}

/// The directories two levels down (docs/SPLIT-SCANS.md's parts), as absolute paths.
fn parts(env: &TestEnv) -> Vec<String> {
    let mut found = Vec::new();
    for d in ["top/p", "top/q"] {
        for n in listed(env, d) {
            let p = env.path(format!("{d}/{n}"));
            if p.is_dir() {
                found.push(p.to_string_lossy().into_owned());
            }
        }
    }
    found.sort();
    found
}

/// Scans the top part (every part left out with -X) and each part into `EXT` exports;
/// returns the files, the top part's first, each part's with its directory.
fn scan_parts(env: &TestEnv, ext: &str) -> (String, Vec<(String, String)>) {
    let top = env.path("top").to_string_lossy().into_owned();
    let mut args = vec!["-O".to_owned(), format!("top.{ext}")];
    for p in parts(env) {
        args.extend(["-X".to_owned(), p]);
    }
    args.push(top);
    env.stdout_ok(&args);
    let mut files = Vec::new();
    for (i, p) in parts(env).into_iter().enumerate() {
        let file = format!("part-{i}.{ext}");
        env.stdout_ok(["-O", file.as_str(), p.as_str()]);
        files.push((file, p));
    }
    (format!("top.{ext}"), files)
}

/// Every directory of a `-j` tree: its path and its `key` value.
fn dirs_of(v: &Value, key: &str, out: &mut BTreeMap<String, u64>) {
    if v["type"] == "dir" {
        out.insert(full_name(v).to_owned(), field_u64(v, key));
    }
    for c in children(v) {
        dirs_of(c, key, out);
    }
}

/// `du FLAGS` of every directory of the tree (absolute paths), `exclude`d left out.
fn du_dirs(env: &TestEnv, flags: &[&str], exclude: Option<&str>) -> BTreeMap<String, u64> {
    let top = env.path("top").to_string_lossy().into_owned();
    let mut args: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
    args.extend(exclude.map(|e| format!("--exclude={e}")));
    args.push(top);
    env.du_lines(&args)
        .into_iter()
        .map(|(n, p)| (String::from_utf8_lossy(&p).into_owned(), n))
        .collect()
}

/// What `-j` of these arguments says of every directory, as du would: disk and apparent.
fn merged_dirs(env: &TestEnv, import: &[String], flags: &[&str]) -> BTreeMap<String, u64> {
    let mut args: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
    args.extend(["-d".into(), "99".into(), "--import".into()]);
    args.extend(import.iter().cloned());
    let key = if flags.contains(&"-s") {
        "apparent_bytes"
    } else {
        "disk_bytes"
    };
    let mut dirs = BTreeMap::new();
    dirs_of(&env.json(&args), key, &mut dirs);
    dirs
}

#[test]
fn a_link_shared_by_two_parts_counts_where_du_counts_it() {
    let env = TestEnv::new_in_memory();
    linked_tree(&env);
    let first = listed(&env, "top/p")[0].clone();
    let top_abs = env.path("top").to_string_lossy().into_owned();
    env.stdout_ok(["-O", "whole.json", top_abs.as_str()]);
    for ext in ["json", "ncdu"] {
        let (top, files) = scan_parts(&env, ext);
        let mut import = vec![top];
        import.extend(files.iter().map(|(f, _)| f.clone()));
        for (flags, du) in [(&[][..], &["-B1"][..]), (&["-s"][..], &["-b"][..])] {
            let want = du_dirs(&env, du, None);
            let got = merged_dirs(&env, &import, flags);
            assert_eq!(
                got, want,
                "{ext} {flags:?}: every directory as du (first listed: {first})"
            );
        }
        // what --diff compares it with: a scan of the whole in one piece, unchanged
        let mut args = vec![
            "--diff".to_owned(),
            "whole.json".into(),
            "-j".into(),
            "--import".into(),
        ];
        args.extend(import.iter().cloned());
        let diff: Value = serde_json::from_slice(&env.stdout_ok(&args)).expect("diff json");
        assert_eq!(diff["status"], "same", "{ext}: {diff}");
        assert!(children(&diff).is_empty(), "{ext}: nothing changed: {diff}");
    }
    // the streamed merge of binary parts into one binary export counts as du too
    let mut args = vec![
        "-O".to_owned(),
        "merged.ncdu".into(),
        "--import".into(),
        "top.ncdu".into(),
    ];
    args.extend((0..parts(&env).len()).map(|i| format!("part-{i}.ncdu")));
    env.stdout_ok(&args);
    for (flags, du) in [(&[][..], &["-B1"][..]), (&["-s"][..], &["-b"][..])] {
        let got = merged_dirs(&env, &["merged.ncdu".into()], flags);
        assert_eq!(got, du_dirs(&env, du, None), "merged.ncdu {flags:?}");
    }
}

#[test]
fn exports_mark_what_x_left_out_where_the_directory_lists_it() {
    let env = TestEnv::new_in_memory();
    linked_tree(&env);
    env.file("top/p/d2/skip.o", 700);
    let out = env.stdout_ok(["-O", "-", "-X", "skip.o", "-X", "q", "top"]);
    let text = String::from_utf8_lossy(&out);
    // a file as ncdu writes it; a directory as a directory of nothing (ncdu, reading it,
    // keeps it so), so that a merge knows a directory is missing
    assert!(
        text.contains("\n{\"name\":\"skip.o\",\"excluded\":\"pattern\"}"),
        "{text}"
    );
    assert!(
        text.contains("\n[{\"name\":\"q\",\"excluded\":\"pattern\"}]"),
        "{text}"
    );
    // in the place the directory lists it
    let names: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.contains("\"name\":\"d")
                || l.contains("\"name\":\"q\"")
                || l.contains("\"name\":\"p\"")
        })
        .map(|l| l.split('"').nth(3).unwrap_or(""))
        .collect();
    let mut want: Vec<String> = listed(&env, "top")
        .into_iter()
        .filter(|n| n != "f0")
        .collect();
    want.truncate(2);
    let top_two: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| *n == "p" || *n == "q")
        .collect();
    assert_eq!(top_two, want, "{text}");
    // ncdu reads it, with the same sizes
    if Command::new("ncdu").arg("-v").output().is_err() {
        skip!("ncdu is not installed");
    }
    fs::write(env.path("x.json"), &out).expect("write");
    let again = Command::new("ncdu")
        .args(["-f", "x.json", "-o", "-"])
        .current_dir(env.root())
        .output()
        .expect("ncdu");
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    fs::write(env.path("y.json"), &again.stdout).expect("write");
    assert_eq!(
        env.total(["--import", "y.json"]),
        env.total(["--import", "x.json"])
    );
    // and the binary format marks them too, the directory's type kept
    env.stdout_ok(["-O", "x.ncdu", "-X", "skip.o", "-X", "q", "top"]);
    let back = env.stdout_ok(["--import", "x.ncdu", "-O", "-"]);
    let back = String::from_utf8_lossy(&back);
    assert!(
        back.contains("\n{\"name\":\"skip.o\",\"excluded\":\"pattern\"}"),
        "{back}"
    );
    assert!(
        back.contains("\n[{\"name\":\"q\",\"excluded\":\"pattern\"}]"),
        "{back}"
    );
}

#[test]
fn a_part_never_written_is_named_and_shown_excluded() {
    let env = TestEnv::new_in_memory();
    linked_tree(&env);
    // the part that holds the name du counts the shared file at is lost
    let first = listed(&env, "top/p")[0].clone();
    let lost_path = env
        .path(format!("top/p/{first}"))
        .to_string_lossy()
        .into_owned();
    let lost = parts(&env)
        .iter()
        .position(|p| *p == lost_path)
        .expect("the first part listed");
    for ext in ["json", "ncdu"] {
        let (top, files) = scan_parts(&env, ext);
        let mut import = vec![top.clone()];
        import.extend(
            files
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != lost)
                .map(|(_, (f, _))| f.clone()),
        );
        let mut args = vec!["-j".to_owned(), "-d".into(), "0".into(), "--import".into()];
        args.extend(import.iter().cloned());
        let out = env.run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{ext}: {err}");
        assert_eq!(
            err,
            format!("hogs: '{lost_path}': excluded in '{top}' and in no part: not counted\n"),
            "{ext}"
        );
        // what is counted is everything else, as du counts the tree without it
        let v: Value = serde_json::from_slice(&out.stdout).expect("json");
        let du = du_dirs(&env, &["-B1"], Some(&lost_path));
        assert_eq!(
            size(&v),
            du[&env.path("top").to_string_lossy().into_owned()],
            "{ext}"
        );
        // views show it, left out
        let mut args = vec!["-j".to_owned(), "-d".into(), "9".into(), "--import".into()];
        args.extend(import.iter().cloned());
        let v: Value = serde_json::from_slice(&env.run(&args).stdout).expect("json");
        let node = find_node(&v, &lost_path).expect("the lost part's directory is shown");
        assert_eq!(node["excluded"], true, "{node}");
        assert_eq!(field_u64(node, "disk_bytes"), 0, "{node}");
        // --exit-zero, as for any path skipped
        let mut args = vec![
            "--exit-zero".to_owned(),
            "-d".into(),
            "0".into(),
            "--import".into(),
        ];
        args.extend(import.iter().cloned());
        assert_eq!(env.run(&args).status.code(), Some(0), "{ext}");
    }
    // the streamed merge names it too, and keeps it excluded for a later merge to fill
    let files: Vec<String> = (0..parts(&env).len())
        .filter(|&i| i != lost)
        .map(|i| format!("part-{i}.ncdu"))
        .collect();
    let mut args = vec![
        "-O".to_owned(),
        "merged.ncdu".into(),
        "--import".into(),
        "top.ncdu".into(),
    ];
    args.extend(files.iter().cloned());
    let out = env.run(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("excluded in 'top.ncdu' and in no part: not counted"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let lost_file = format!("part-{lost}.ncdu");
    let refill = ["-d", "0", "--import", "merged.ncdu", lost_file.as_str()];
    let out = env.run(refill);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "filled now: {err}");
    assert_eq!(env.total(refill), env.du_disk(&["top"]));
}
