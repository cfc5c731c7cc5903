//! `--by-owner`: usage per owner, checked against find(1)'s per-entry owner, blocks and size
//! summed per uid (each inode once, as du counts it).

use std::collections::{BTreeMap, HashSet};
use std::process::Command;

use serde_json::Value;

use crate::util::*;

/// Files and directories of three owners (root, 65534 and 1000), hard links among them.
/// `None` when the test cannot chown (not root).
fn owned_tree(env: &TestEnv) -> bool {
    if !is_root() {
        skip!("skipped: chown to other users needs root");
        return false;
    }
    env.file("top/root.bin", 12_345)
        .file("top/a/n1.log", 40_000);
    env.file("top/a/n2.dat", 3_000)
        .file("top/a/sub/n3.log", 100_000);
    env.file("top/b/u1.log", 7_777)
        .file("top/b/u2.dat", 250_000);
    env.file("top/b/mixed/r.log", 1_000).mkdir("top/empty");
    env.hardlink("top/b/u2.dat", "top/a/u2-link.dat"); // 1000's file, linked from 65534's dir
    env.hardlink("top/a/n1.log", "top/b/n1-link.log");
    env.symlink("n2.dat", "top/a/sym");
    env.bash(
        "chown -hR 65534:65534 top/a && chown -hR 1000:1000 top/b && chown 0:0 top/b/mixed/r.log \
         && chown 65534 top/empty",
    );
    true
}

/// Per uid from find: (disk bytes, apparent bytes, inodes), each inode once; `keep` picks
/// the paths counted.
fn find_per_uid(env: &TestEnv, keep: impl Fn(&str, char) -> bool) -> BTreeMap<u32, [u64; 3]> {
    let out = Command::new("find")
        .args(["top", "-printf", "%U %b %s %i %y %p\\n"])
        .current_dir(env.root())
        .output()
        .expect("run find");
    assert!(out.status.success());
    let mut seen = HashSet::new();
    let mut per: BTreeMap<u32, [u64; 3]> = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let f: Vec<&str> = line.splitn(6, ' ').collect();
        let (uid, blocks, size, ino, kind, path) = (f[0], f[1], f[2], f[3], f[4], f[5]);
        let kind = kind.chars().next().expect("type");
        if !keep(path, kind) || !seen.insert(ino.to_owned()) {
            continue;
        }
        let e = per.entry(uid.parse().expect("uid")).or_default();
        e[0] += blocks.parse::<u64>().expect("blocks") * 512;
        e[1] += size.parse::<u64>().expect("size");
        e[2] += 1;
    }
    per
}

/// The user name of a uid as the system's user database has it, else the uid.
fn user(uid: u32) -> String {
    let out = Command::new("getent")
        .args(["passwd", &uid.to_string()])
        .output()
        .expect("run getent");
    let text = String::from_utf8_lossy(&out.stdout);
    match text.split(':').next() {
        Some(name) if out.status.success() && !name.is_empty() => name.to_owned(),
        _ => uid.to_string(),
    }
}

/// The owners' rows of `hogs --by-owner -j ARGS`: (name, size), biggest first, and the total.
fn owners(env: &TestEnv, args: &[&str]) -> (Vec<(String, u64)>, u64) {
    let mut all = vec!["--by-owner"];
    all.extend_from_slice(args);
    let v: Value = env.json(&all);
    (child_sizes(&v), size(&v))
}

fn expected(per: &BTreeMap<u32, [u64; 3]>, column: usize) -> Vec<(String, u64)> {
    let mut rows: Vec<(u32, u64)> = per.iter().map(|(&u, v)| (u, v[column])).collect();
    rows.retain(|&(_, v)| v > 0);
    rows.sort_by_key(|&(uid, v)| (std::cmp::Reverse(v), uid));
    rows.into_iter().map(|(u, v)| (user(u), v)).collect()
}

#[test]
fn owners_add_up_what_find_says_each_uid_uses_in_every_mode() {
    let env = TestEnv::new();
    if !owned_tree(&env) {
        return;
    }
    let per = find_per_uid(&env, |_, _| true);
    assert_eq!(per.len(), 3, "three owners: {per:?}");
    for (flags, column, du) in [
        (&[][..], 0, env.du_disk(&["top"])),
        (&["-s"][..], 1, env.du_apparent(&["top"])),
        (&["-f"][..], 2, env.du_inodes(&["top"])),
    ] {
        let (rows, total) = owners(&env, &[flags, &["top"][..]].concat());
        assert_eq!(rows, expected(&per, column), "{flags:?}");
        assert_eq!(total, du, "the owners add up to du {flags:?}");
    }
    // the bars name the users and give each one's share of the total
    let out = env.stdout_ok(["--by-owner", "-w", "100", "-s", "top"]);
    let text = String::from_utf8_lossy(&out);
    let total = env.du_apparent(&["top"]) as f64;
    for (name, size) in expected(&per, 1) {
        let line = text
            .lines()
            .find(|l| l.contains(&format!("── {name}")))
            .unwrap_or_else(|| panic!("no line for {name}:\n{text}"));
        let pct = format!("{:.0}%", size as f64 * 100.0 / total);
        assert!(line.trim_end().ends_with(&pct), "{line} wants {pct}");
    }
}

#[test]
fn owners_apply_the_filters_and_read_extended_exports() {
    let env = TestEnv::new();
    if !owned_tree(&env) {
        return;
    }
    // each entry judged by its own path, as dust does (and the tree view): a directory
    // counts its own blocks only when its path passes too
    let logs = find_per_uid(&env, |p, _| p.ends_with(".log"));
    let (rows, total) = owners(&env, &["-e", r"\.log$", "top"]);
    assert_eq!(rows, expected(&logs, 0));
    assert_eq!(total, env.total(["-e", r"\.log$", "top"]));
    let not_logs = find_per_uid(&env, |p, _| !p.ends_with(".log"));
    let (rows, _) = owners(&env, &["-v", r"\.log$", "-s", "top"]);
    assert_eq!(rows, expected(&not_logs, 1));

    // an extended export carries the owners: the same answer from the file
    env.stdout_ok(["--export-extended", "-O", "ext.json", "top"]);
    let per = find_per_uid(&env, |_, _| true);
    let (rows, total) = owners(&env, &["--import", "ext.json"]);
    assert_eq!(rows, expected(&per, 0));
    assert_eq!(total, env.du_disk(&["top"]));
    // a plain export does not: said, not guessed
    env.stdout_ok(["-O", "plain.json", "top"]);
    let out = env.run(["--by-owner", "--import", "plain.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot show owners: the scan 'plain.json' records none (export it with --export-extended)\n"
    );
}

#[test]
fn by_owner_refuses_what_it_cannot_go_with() {
    let env = TestEnv::new();
    env.file("d/x", 10);
    for (args, msg) in [
        (
            &["--by-owner", "-O", "x.json", "d"][..],
            "hogs: --by-owner does not apply to --export (--export-extended records the owners)\n",
        ),
        (
            &["--by-owner", "-m", "m", "d"][..],
            "hogs: --by-owner does not apply to --filetime (a time is no usage)\n",
        ),
        (
            &["--by-owner", "--diff", "x.json", "d"][..],
            "hogs: --by-owner does not apply to --diff\n",
        ),
    ] {
        let out = env.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), msg, "{args:?}");
    }
}

#[test]
fn owners_without_a_user_name_are_shown_by_uid() {
    let env = TestEnv::new();
    if !is_root() {
        skip!("skipped: chown to other users needs root");
        return;
    }
    // a uid no passwd file names
    env.file("t/f", 5_000);
    env.bash("chown -R 4242123:4242123 t");
    let (rows, _) = owners(&env, &["-f", "t"]);
    assert_eq!(rows, vec![("4242123".to_owned(), 2)]);
}

#[test]
fn owners_in_json_are_owners_with_their_uid_not_paths() {
    let env = TestEnv::new();
    if !owned_tree(&env) {
        return;
    }
    let v = env.json(["--by-owner", "-j", "top"]);
    assert_eq!(full_name(&v), "top");
    let per = find_per_uid(&env, |_, _| true);
    let got: Vec<(String, &str, u64, u64)> = children(&v)
        .iter()
        .map(|c| {
            let kind = c["type"].as_str().expect("a type");
            (full_name(c).to_owned(), kind, field_u64(c, "uid"), size(c))
        })
        .collect();
    let mut want: Vec<(u32, u64)> = per.iter().map(|(&u, v)| (u, v[0])).collect();
    want.sort_by_key(|&(uid, v)| (std::cmp::Reverse(v), uid));
    let want: Vec<(String, &str, u64, u64)> = want
        .into_iter()
        .map(|(u, v)| (user(u), "owner", u64::from(u), v))
        .collect();
    assert_eq!(got, want);
    for c in children(&v) {
        assert_eq!(children(c).len(), 0);
    }
}

#[test]
fn owners_honour_the_number_of_lines_and_still_add_up() {
    let env = TestEnv::new();
    if !owned_tree(&env) {
        return;
    }
    let per = find_per_uid(&env, |_, _| true);
    let all = expected(&per, 0);
    assert_eq!(all.len(), 3);
    let out = env.stdout_ok(["--by-owner", "-n", "2", "-o", "b", "-w", "100", "top"]);
    let text = String::from_utf8_lossy(&out);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 3, "two owner rows and the root:\n{text}");
    let rest: u64 = all[1..].iter().map(|(_, v)| v).sum();
    for (label, bytes) in [(all[0].0.as_str(), all[0].1), ("(other owners)", rest)] {
        let line = rows
            .iter()
            .find(|l| l.contains(&format!("── {label} ")) || l.contains(&format!("── {label}│")))
            .unwrap_or_else(|| panic!("no row {label}:\n{text}"));
        assert!(
            line.trim_start().starts_with(&format!("{bytes}B")),
            "{line}"
        );
    }
    assert!(rows[2]
        .trim_start()
        .starts_with(&format!("{}B", env.du_disk(&["top"]))));
}

#[test]
fn a_merged_part_without_owners_counts_for_no_user() {
    let env = TestEnv::new();
    if !is_root() {
        skip!("skipped: chown to other users needs root");
        return;
    }
    env.file("t/a/f", 100_000).file("t/b/g", 300_000);
    env.bash("chown -R 1001 t/a && chown -R 1002 t/b");
    env.stdout_ok(["--export-extended", "-O", "a.json", "t/a"]);
    env.stdout_ok(["-O", "b.json", "t/b"]);
    let v = env.json(["--by-owner", "-j", "--import", "a.json", "b.json"]);
    let got: Vec<(String, Value, u64)> = children(&v)
        .iter()
        .map(|c| (full_name(c).to_owned(), c["uid"].clone(), size(c)))
        .collect();
    let (a, b) = (env.du_disk(&["t/a"]), env.du_disk(&["t/b"]));
    assert_eq!(
        got,
        vec![
            ("(owner not recorded)".to_owned(), Value::Null, b),
            (user(1001), Value::from(1001), a),
        ]
    );
    let out = env.stdout_ok(["--by-owner", "--import", "a.json", "b.json", "-o", "b"]);
    let text = String::from_utf8_lossy(&out);
    assert!(!text.contains("root"), "{text}");
    assert!(
        text.contains(&format!("{b}B   ├── (owner not recorded)")),
        "{text}"
    );
}
