//! `--diff OLD [PATH]`: a scan saved with -O, the tree changed (grown, shrunk, added, removed,
//! renamed, a file swapped for a directory and back), compared with a new scan. GNU du before
//! and after the change is the oracle for every row and every JSON field.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::util::*;

/// The sizes du gives one path, and whether it is a directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Facts {
    dir: bool,
    disk: u64,
    apparent: u64,
    inodes: u64,
}

/// What du says about every path of the tree at `root`, keyed by path as du prints it.
fn snapshot(env: &TestEnv, root: &str) -> BTreeMap<String, Facts> {
    let du = |flag: &str| -> BTreeMap<String, u64> {
        env.du_lines(["-a", flag, "--", root])
            .into_iter()
            .map(|(n, p)| (String::from_utf8(p).expect("ASCII names here"), n))
            .collect()
    };
    let (disk, apparent, inodes) = (du("-B1"), du("-b"), du("--inodes"));
    let mut dirs: BTreeSet<String> = walk(&env.path(root))
        .into_iter()
        .filter(|(_, md)| md.is_dir())
        .map(|(p, _)| {
            p.strip_prefix(env.root())
                .expect("below the root")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    dirs.insert(root.to_string());
    disk.iter()
        .map(|(p, &d)| {
            let facts = Facts {
                dir: dirs.contains(p),
                disk: d,
                apparent: apparent[p],
                inodes: inodes[p],
            };
            (p.clone(), facts)
        })
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mode {
    Disk,
    Apparent,
    Count,
}

impl Mode {
    fn flag(self) -> Option<&'static str> {
        match self {
            Mode::Disk => None,
            Mode::Apparent => Some("-s"),
            Mode::Count => Some("-f"),
        }
    }

    fn of(self, f: &Facts) -> u64 {
        match self {
            Mode::Disk => f.disk,
            Mode::Apparent => f.apparent,
            Mode::Count => f.inodes,
        }
    }
}

/// One expected entry of the comparison: (path, status) → (type, old, new).
type Expected = BTreeMap<(String, String), (&'static str, u64, u64)>;

/// The comparison du before and after implies: every entry that is not the same, and the top.
fn expected(
    before: &BTreeMap<String, Facts>,
    after: &BTreeMap<String, Facts>,
    root: &str,
    mode: Mode,
) -> Expected {
    let kind = |f: &Facts| if f.dir { "dir" } else { "file" };
    let mut all: Expected = BTreeMap::new();
    let mut changed: BTreeSet<String> = BTreeSet::new();
    for (p, b) in before {
        match after.get(p) {
            Some(a) if a.dir == b.dir => {
                let key = (p.clone(), "same".to_string());
                all.insert(key, (kind(a), mode.of(b), mode.of(a)));
                if mode.of(a) != mode.of(b) {
                    changed.insert(p.clone());
                }
            }
            _ => {
                all.insert((p.clone(), "removed".into()), (kind(b), mode.of(b), 0));
                changed.insert(p.clone());
            }
        }
    }
    for (p, a) in after {
        if before.get(p).is_none_or(|b| b.dir != a.dir) {
            all.insert((p.clone(), "added".into()), (kind(a), 0, mode.of(a)));
            changed.insert(p.clone());
        }
    }
    // a change anywhere below makes every directory above it changed
    for p in changed.clone() {
        let mut q = p.as_str();
        while let Some((parent, _)) = q.rsplit_once('/') {
            changed.insert(parent.to_string());
            q = parent;
        }
    }
    all.into_iter()
        .filter_map(|((p, status), v)| {
            let status = match status.as_str() {
                "same" if changed.contains(&p) => "changed".to_string(),
                "same" if p != root => return None,
                _ => status,
            };
            Some(((p, status), v))
        })
        .collect()
}

/// Every node of a `--diff -j` document, keyed as [`expected`]; checks `delta` and that no
/// node has fields beyond the documented ones on the way.
fn json_entries(v: &Value) -> Expected {
    let mut out = Expected::new();
    let mut stack = vec![(v, String::new())];
    while let Some((node, parent)) = stack.pop() {
        let obj = node.as_object().expect("a JSON object per node");
        let keys: BTreeSet<&str> = obj.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            BTreeSet::from(["name", "type", "old", "new", "delta", "status", "children"]),
            "{node}"
        );
        let path = if parent.is_empty() {
            name(node).to_string()
        } else {
            format!("{parent}/{}", name(node))
        };
        let (old, new) = (field_u64(node, "old"), field_u64(node, "new"));
        let delta = node["delta"].as_i64().expect("delta is an integer");
        assert_eq!(delta, new as i64 - old as i64, "delta of {path}");
        let status = node["status"].as_str().expect("status").to_string();
        let kind = match node["type"].as_str() {
            Some("dir") => "dir",
            Some("file") => "file",
            other => panic!("type {other:?} of {path}"),
        };
        let dup = out.insert((path.clone(), status), (kind, old, new));
        assert!(dup.is_none(), "{path} twice");
        for c in children(node) {
            stack.push((c, path.clone()));
        }
    }
    out
}

/// The tree before: something of every kind that will change, and some that will not.
fn build(env: &TestEnv) {
    env.file("d/a/grow", 10_000)
        .file("d/shrink", 200_000)
        .file("d/gone", 50_000)
        .file("d/olddir/x", 30_000)
        .file("d/olddir/sub/y", 5_000)
        .file("d/b/before", 40_000)
        .file("d/swap", 3_000)
        .file("d/wasdir/f", 20_000)
        .file("d/keep", 4096)
        .file("d/same/f", 7_000);
}

/// The change: each kind once.
fn change(env: &TestEnv) {
    env.file("d/a/grow", 300_000) // grow
        .file("d/shrink", 5_000) // shrink
        .file("d/a/new-file", 70_000) // add a file
        .file("d/newdir/x", 12_345); // add a directory
    env.bash(
        "rm d/gone && rm -r d/olddir \
         && mv d/b/before d/b/after \
         && rm d/swap && mkdir d/swap && head -c 8000 /dev/urandom > d/swap/inner \
         && rm -r d/wasdir && head -c 100 /dev/urandom > d/wasdir",
    );
}

#[test]
fn every_json_node_matches_du_before_and_after() {
    let env = TestEnv::new();
    build(&env);
    env.stdout_ok(["-O", "old.json", "d"]);
    let before = snapshot(&env, "d");
    change(&env);
    let after = snapshot(&env, "d");
    for mode in [Mode::Disk, Mode::Apparent, Mode::Count] {
        let mut args = vec!["--diff", "old.json", "d"];
        args.extend(mode.flag());
        let got = json_entries(&env.json(&args));
        let want = expected(&before, &after, "d", mode);
        assert_eq!(got, want, "{mode:?}");
    }
    // the kinds of change are all there (in the mode that sees them all)
    let got = json_entries(&env.json(["--diff", "old.json", "d"]));
    for (path, status) in [
        ("d/a/grow", "changed"),
        ("d/shrink", "changed"),
        ("d/a/new-file", "added"),
        ("d/newdir/x", "added"),
        ("d/gone", "removed"),
        ("d/olddir/sub/y", "removed"),
        ("d/b/before", "removed"),
        ("d/b/after", "added"),
        ("d/swap", "removed"),
        ("d/swap", "added"),
        ("d/swap/inner", "added"),
        ("d/wasdir/f", "removed"),
        ("d/wasdir", "added"),
    ] {
        assert!(
            got.contains_key(&(path.to_string(), status.to_string())),
            "{path} {status} missing"
        );
    }
    assert!(!got
        .keys()
        .any(|(p, _)| p == "d/keep" || p.starts_with("d/same")));
    // the top: du's totals before and after
    let top = &got[&("d".to_string(), "changed".to_string())];
    assert_eq!(
        (top.1, top.2),
        (before["d"].disk, env.du_disk(&["d"])),
        "totals"
    );
}

/// A text row of `--diff -p -b -o b`: (path, mark, old, new, delta); `-` is None.
type TextRow = (String, String, Option<u64>, Option<u64>, i64);

fn parse_rows(out: &[u8]) -> Vec<TextRow> {
    lines(out)
        .iter()
        .map(|l| {
            let l = std::str::from_utf8(l).expect("ASCII rows");
            let (old, rest) = l.trim_start().split_once(" → ").expect("OLD → NEW");
            let (new, rest) = rest.trim_start().split_once(' ').expect("NEW CHANGE");
            let (delta, rest) = rest.trim_start().split_once(' ').expect("CHANGE NAME");
            let name = rest.trim_start_matches(['└', '├', '┌', '─', '┬', '┴', '│', ' ']);
            let (path, mark) = match name.split_once(" (") {
                Some((p, m)) => (p.to_string(), m.trim_end_matches(')').to_string()),
                None => (name.to_string(), String::new()),
            };
            // `-o b` writes dust's `123B`
            let num = |s: &str| {
                (s != "-").then(|| s.trim_end_matches('B').parse::<u64>().expect("a number"))
            };
            (
                path,
                mark,
                num(old),
                num(new),
                delta
                    .trim_end_matches('B')
                    .parse()
                    .expect("a signed number"),
            )
        })
        .collect()
}

#[test]
fn every_text_row_matches_du_and_the_biggest_change_comes_first() {
    let env = TestEnv::new();
    build(&env);
    env.stdout_ok(["-O", "old.json", "d"]);
    let before = snapshot(&env, "d");
    change(&env);
    let after = snapshot(&env, "d");
    for mode in [Mode::Disk, Mode::Apparent] {
        let mut args = vec![
            "--diff", "old.json", "d", "-p", "-b", "-o", "b", "-n", "999",
        ];
        args.extend(mode.flag());
        let mut root_first = args.clone();
        root_first.push("-r");
        let rows = parse_rows(&env.stdout_ok(&root_first));
        let want = expected(&before, &after, "d", mode);
        assert_eq!(rows.len(), want.len(), "{rows:?}");
        for (path, mark, old, new, delta) in &rows {
            let status = match mark.as_str() {
                "new" => "added",
                "removed" => "removed",
                "" if path == "d" && want.contains_key(&(path.clone(), "same".into())) => "same",
                "" => "changed",
                other => panic!("mark {other:?}"),
            };
            let (_, o, n) = want[&(path.clone(), status.to_string())];
            assert_eq!(old.unwrap_or(0), o, "{path}");
            assert_eq!(new.unwrap_or(0), n, "{path}");
            assert_eq!(
                old.is_none(),
                status == "added",
                "{path}: '-' when not there before"
            );
            assert_eq!(new.is_none(), status == "removed", "{path}: '-' when gone");
            assert_eq!(*delta, n as i64 - o as i64, "{path}");
        }
        // siblings come biggest change first
        let parent = |p: &str| p.rsplit_once('/').map(|(a, _)| a.to_string());
        for pair in rows.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if parent(&a.0) == parent(&b.0) && a.0 != "d" {
                assert!(a.4.abs() >= b.4.abs(), "{a:?} before {b:?}");
            }
        }
        // the default puts the top at the bottom: the same rows upside down
        let mut flipped = parse_rows(&env.stdout_ok(&args));
        flipped.reverse();
        assert_eq!(flipped, rows);
    }
}

#[test]
fn depth_lines_min_change_and_filters_apply() {
    let env = TestEnv::new();
    build(&env);
    env.stdout_ok(["-O", "old.json", "d"]);
    change(&env);
    let args = ["--diff", "old.json", "d", "-p", "-b", "-o", "b", "-r"];
    let with = |extra: &[&str]| {
        let mut a = args.to_vec();
        a.extend_from_slice(extra);
        parse_rows(&env.stdout_ok(&a))
    };
    let all = with(&["-n", "999"]);
    // -d 1: the top and its children only
    let shallow = with(&["-n", "999", "-d", "1"]);
    assert!(shallow.iter().all(|r| r.0.matches('/').count() <= 1));
    let want: Vec<_> = all
        .iter()
        .filter(|r| r.0.matches('/').count() <= 1)
        .cloned()
        .collect();
    assert_eq!(shallow, want);
    // -n 3: the top and three rows below it (as in the tree of bars), the biggest changes
    let four = with(&["-n", "3"]);
    assert_eq!(four.len(), 4);
    assert_eq!(four[0].0, "d");
    assert_eq!(four[1].0, "d/a", "d/a grew the most");
    // -z 60K: only changes at least that big (the top always shows)
    let big = with(&["-n", "999", "-z", "60K"]);
    assert!(big.len() >= 3 && big.len() < all.len());
    assert!(
        big[1..].iter().all(|r| r.4.unsigned_abs() >= 60 * 1024),
        "{big:?}"
    );
    // -e: only the files whose path matches count
    let v = env.json(["--diff", "old.json", "d", "-e", "grow", "-s"]);
    assert_eq!(field_u64(&v, "old"), 10_000);
    assert_eq!(field_u64(&v, "new"), 300_000);
    assert_eq!(children(&v).len(), 1, "only d/a, which holds the file: {v}");
    // a regex sees the same path in both scans (the export recorded an absolute one)
    let v = env.json(["--diff", "old.json", "d", "-e", "^d/a/", "-s"]);
    assert_eq!(field_u64(&v, "old"), 10_000);
    assert_eq!(field_u64(&v, "new"), 300_000 + 70_000);
    // -v: everything but the file that grew
    let v = env.json(["--diff", "old.json", "d", "-v", "grow", "-s"]);
    assert!(find_node(&v, "grow").is_none());
}

#[test]
fn two_exports_compare_as_a_scan_does() {
    let env = TestEnv::new();
    build(&env);
    env.stdout_ok(["-O", "old.json", "d"]);
    change(&env);
    env.stdout_ok(["-O", "new.json", "d"]);
    let scanned = env.stdout_ok(["--diff", "old.json", "d", "-j"]);
    // NEW as a path that is a regular file, or through --import (which takes stdin too)
    let as_path = env.stdout_ok(["--diff", "old.json", "new.json", "-j"]);
    let as_import = env.stdout_ok(["--diff", "old.json", "--import", "new.json", "-j"]);
    let json = |b: &[u8]| -> Value { serde_json::from_slice(b).expect("JSON") };
    let strip_top_name = |mut v: Value| {
        v["name"] = Value::Null; // "d" as typed, or the absolute path the export recorded
        v
    };
    let scanned = strip_top_name(json(&scanned));
    assert_eq!(strip_top_name(json(&as_path)), scanned);
    assert_eq!(strip_top_name(json(&as_import)), scanned);
    let out = env
        .hogs()
        .args(["--diff", "old.json", "--import", "-", "-j"])
        .write_stdin(std::fs::read(env.path("new.json")).expect("read new.json"))
        .output()
        .expect("run hogs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(strip_top_name(json(&out.stdout)), scanned);
    assert_eq!(
        json(&as_path)["name"],
        env.path("d").to_string_lossy().as_ref()
    );
}

#[test]
fn a_scan_of_another_directory_is_refused_unless_asked() {
    let env = TestEnv::new();
    build(&env);
    env.stdout_ok(["-O", "old.json", "d"]);
    env.bash("cp -r d e && mv old.json e/");
    let out = env.run(["--diff", "e/old.json", "e"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let d = env.path("d");
    let e = env.path("e");
    assert_eq!(
        err,
        format!(
            "hogs: cannot compare: 'e/old.json' is a scan of '{}', not of '{}' \
             (--diff-root-any compares them anyway)\n",
            d.display(),
            e.display()
        )
    );
    assert!(out.stdout.is_empty());
    // asked: e is d plus the export, which is new
    let v = env.json(["--diff", "e/old.json", "e", "--diff-root-any", "-s"]);
    assert_eq!(name(&v), "e");
    let kids = children(&v);
    assert_eq!(kids.len(), 1, "{v}");
    assert_eq!(name(&kids[0]), "old.json");
    assert_eq!(kids[0]["status"], "added");
}

#[test]
fn bad_input_is_one_line_and_status_1() {
    let env = TestEnv::new();
    env.file("d/f", 10);
    std::fs::write(env.path("broken.json"), "[1,2,{},[{\"name\":\"x\"").expect("write");
    for (args, want) in [
        (
            vec!["--diff", "missing.json", "d"],
            "hogs: cannot import 'missing.json': No such file or directory\n",
        ),
        (
            vec!["--diff", "broken.json", "d"],
            "hogs: cannot import 'broken.json': line 1, column 21 (byte 20): \
             unexpected end of input, expected ',' or '}'\n",
        ),
        (
            vec!["--diff", "x.json", "d", "d"],
            "hogs: --diff compares one directory: give a single path\n",
        ),
        (
            vec!["--diff", "x.json", "-O", "y.json", "d"],
            "hogs: --export does not apply to --diff\n",
        ),
        (
            vec!["--diff", "-", "--import", "-"],
            "hogs: --diff: the old and the new scan cannot both come from stdin\n",
        ),
    ] {
        let out = env
            .hogs()
            .args(&args)
            .write_stdin(Vec::new())
            .output()
            .expect("run hogs");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn hostile_names_are_escaped_in_rows_and_exact_in_json() {
    let env = TestEnv::new();
    env.file("d/plain", 10);
    env.stdout_ok(["-O", "old.json", "d"]);
    let evil: &[u8] = b"d/evil\x1b[2J\nname\xff";
    std::fs::write(env.path(path_bytes(evil)), vec![b'x'; 5000]).expect("create a hostile name");
    let out = env.stdout_ok(["--diff", "old.json", "d", "-s", "-o", "b", "-w", "120"]);
    assert!(!out.contains(&0x1b), "raw ESC in {out:?}");
    assert_eq!(lines(&out).len(), 2, "one row per entry: {out:?}");
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("evil\\x1b[2J\\nname"), "{text}");
    assert!(text.contains("+5000") && text.contains("(new)"), "{text}");
    let v = env.json(["--diff", "old.json", "d", "-s"]);
    let kid = &children(&v)[0];
    let bytes: Vec<u8> = kid["name_bytes"]
        .as_array()
        .expect("name_bytes")
        .iter()
        .map(|b| b.as_u64().expect("a byte") as u8)
        .collect();
    assert_eq!(bytes, &evil[2..]);
    assert_eq!(kid["status"], "added");
    assert_eq!(field_u64(kid, "new"), 5000);
}

#[test]
fn a_change_at_the_bottom_of_a_20000_deep_chain() {
    const DEEP: usize = 20_000;
    let mut env = TestEnv::new();
    env.set_deep_cleanup();
    env.mkdir("deep");
    env.deep_chain("deep", DEEP);
    env.stdout_ok(["-O", "old.json", "deep"]);
    // a file at the bottom: a path too long for one syscall, so find its directory by chdir
    let mut script = String::from("cd deep");
    for _ in 0..DEEP / 500 {
        script.push_str(" && cd ");
        script.push_str(&["d"; 500].join("/"));
    }
    script.push_str(" && head -c 6000 /dev/urandom > bottom");
    env.bash(&script);
    let out = env.stdout_ok([
        "--diff", "old.json", "deep", "-s", "-o", "b", "-n", "4", "-r",
    ]);
    let rows = lines(&out);
    assert_eq!(rows.len(), 5, "the top and -n 4 rows below it");
    let top = String::from_utf8_lossy(rows[0]);
    assert!(top.contains("+6000") && top.contains("deep"), "{top}");
    let v: Value = serde_json::from_slice(
        &env.stdout_ok(["--diff", "old.json", "deep", "-s", "-j", "-d", "2"]),
    )
    .expect("JSON");
    assert_eq!(v["delta"], 6000);
    assert_eq!(v["status"], "changed");
}

#[test]
fn an_unreadable_directory_is_reported_and_the_comparison_still_shown() {
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    env.file("d/locked/secret", 50_000).file("d/open/f", 9_000);
    env.stdout_ok(["-O", "old.json", "d"]);
    env.file("d/open/g", 20_000);
    env.chmod("d/locked", 0o000);
    let out = env.run_unprivileged(["--diff", "old.json", "d", "-j", "-s"]);
    assert_eq!(out.status.code(), Some(1), "exit status");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot read directory 'd/locked': Permission denied\n"
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("the comparison, as JSON");
    // what could not be read is not taken for removed: its contents are just not listed
    let locked = child(&v, "locked");
    assert_eq!(locked["status"], "changed");
    assert_eq!(
        locked["delta"], -50_000,
        "the directory itself is still counted"
    );
    assert!(children(locked).is_empty(), "{locked}");
    assert_eq!(child(child(&v, "open"), "g")["status"], "added");
}

/// Issue 22, item 13: the same directory spelled another way (`./d/../d`, a symlink to it,
/// its absolute path) is the same root; another directory is still refused.
#[test]
fn the_same_directory_spelled_otherwise_is_the_same_root() {
    let env = TestEnv::new();
    build(&env);
    env.stdout_ok(["-O", "old.json", "d"]);
    std::os::unix::fs::symlink("d", env.path("dlink")).expect("symlink");
    let absolute = env.path("d").to_string_lossy().into_owned();
    for spelling in ["./d/../d", "d/", "dlink", absolute.as_str()] {
        let out = env.run(["--diff", "old.json", spelling]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "--diff old.json {spelling}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    env.bash("cp -r d e");
    let out = env.run(["--diff", "old.json", "e"]);
    assert_eq!(out.status.code(), Some(1), "another directory");
}
