//! The text (bars) view and the shape of the JSON document.

use std::path::Path;

use serde_json::Value;

use crate::util::*;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn line_strs(out: &[u8]) -> Vec<String> {
    lines(out).iter().map(|l| text(l)).collect()
}

/// The last whitespace-separated token of a `-b` line: the name.
fn last_token(l: &str) -> &str {
    l.split_whitespace().last().unwrap_or("")
}

#[test]
fn no_escapes_when_not_a_terminal() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let flag_sets: &[&[&str]] = &[
        &[],
        &["-r"],
        &["-B"],
        &["-p"],
        &["-D"],
        &["-F"],
        &["-s"],
        &["-f"],
        &["-b"],
        &["-o", "b"],
        &["-o", "si"],
        &["-c"],
    ];
    for flags in flag_sets {
        let mut args: Vec<&str> = flags.to_vec();
        args.push("d");
        let out = env.stdout_ok(&args);
        assert!(!out.is_empty(), "hogs {args:?} printed nothing");
        assert!(
            !out.contains(&0x1b),
            "hogs {args:?} (stdout not a terminal) printed an escape byte:\n{}",
            text(&out)
        );
    }
}

#[test]
fn force_colors() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let out = env.stdout_ok(["-C", "d"]);
    assert!(
        out.contains(&0x1b),
        "hogs -C d printed no escape sequence:\n{}",
        text(&out)
    );
}

#[test]
fn number_of_lines() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    // the root and n rows below it, as dust counts -n
    for n in [0usize, 1, 3, 5] {
        let out = env.stdout_ok(["-n", &n.to_string(), "d"]);
        let l = lines(&out).len();
        assert_eq!(l, n + 1, "hogs -n {n} d printed {l} lines:\n{}", text(&out));
    }
    // the tree has 17 nodes: a big -n shows more than 5 of them
    let out = env.stdout_ok(["-n", "100", "d"]);
    assert!(lines(&out).len() > 5, "hogs -n 100 d:\n{}", text(&out));
}

#[test]
fn depth_zero_is_one_line() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    for flags in [&[][..], &["-b"][..], &["-r"][..], &["-s"][..], &["-f"][..]] {
        let mut args = vec!["-d", "0"];
        args.extend_from_slice(flags);
        args.push("d");
        let out = env.stdout_ok(&args);
        let ls = line_strs(&out);
        assert_eq!(ls.len(), 1, "hogs {args:?}:\n{}", text(&out));
        assert!(ls[0].contains(" d"), "the line names d: {:?}", ls[0]);
    }
}

#[test]
fn depth_one_lines() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    // d has 7 children: a, z, z2, empty0, one, mid and nothing else
    let out = env.stdout_ok(["-d", "1", "-n", "100", "-b", "d"]);
    let ls = line_strs(&out);
    let mut names: Vec<&str> = ls.iter().map(|l| last_token(l)).collect();
    names.sort();
    assert_eq!(
        names,
        ["a", "d", "empty0", "mid", "one", "z", "z2"],
        "hogs -d 1 -n 100 -b d:\n{}",
        text(&out)
    );
}

#[test]
fn control_characters_in_names() {
    let env = TestEnv::new();
    env.file("d/a\nb", 10_000);
    env.file("d/esc\x1b[2Jname", 20_000);
    env.file("d/\x1b]0;title\x07", 5000);
    env.file("d/cr\rret", 3000);
    env.file("d/plain", 30_000);
    env.file("d/sub/x\ny\nz", 1000);
    for flags in [&[][..], &["-b"][..], &["-p"][..], &["-r"][..], &["-F"][..]] {
        let mut args = vec!["-n", "100"];
        args.extend_from_slice(flags);
        args.push("d");
        let out = env.stdout_ok(&args);
        // 8 nodes: d, 5 files, sub, sub's file
        // with -F: 6 files, perhaps plus the root line
        let want = if flags == ["-F"] { 7 } else { 8 };
        let n = lines(&out).len();
        assert!(
            n <= want,
            "hogs {args:?}: {n} lines for {want} nodes (a name added a line):\n{}",
            text(&out)
        );
        if flags != ["-F"] {
            assert_eq!(n, want, "hogs {args:?}:\n{}", text(&out));
        }
        assert!(
            !out.contains(&0x1b),
            "hogs {args:?}: raw ESC from a name:\n{:?}",
            text(&out)
        );
        assert!(
            !out.contains(&b'\r') && !out.contains(&0x07),
            "hogs {args:?}: raw CR/BEL from a name:\n{:?}",
            text(&out)
        );
    }
    // JSON keeps the real names
    let v = env.json(["d"]);
    assert!(
        find_node(&v, "a\nb").is_some(),
        "JSON has the name \"a\\nb\": {v}"
    );
    assert!(
        find_node(&v, "esc\x1b[2Jname").is_some(),
        "JSON has the name with ESC: {v}"
    );
}

#[test]
fn narrow_terminal_width() {
    let env = TestEnv::new();
    let deep: String = (0..60).map(|i| format!("level{i}/")).collect();
    env.file(format!("d/{deep}leaf-with-a-long-name"), 50_000);
    env.file("d/other", 1000);
    for w in ["10", "1", "30"] {
        let out = env.run(["-w", w, "-n", "100", "d"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "hogs -w {w} -n 100 d: stderr {}",
            text(&out.stderr)
        );
        assert!(out.stderr.is_empty(), "stderr: {}", text(&out.stderr));
        assert!(!out.stdout.is_empty(), "hogs -w {w} printed nothing");
    }
}

#[test]
fn root_line_position() {
    let env = TestEnv::new();
    env.file("rootdirx/c1", 10_000);
    env.file("rootdirx/c2", 100_000);
    env.file("rootdirx/c3", 50_000);
    env.file("rootdirx/sub/c4", 70_000);
    for bars in [&[][..], &["-b"][..]] {
        for rev in [false, true] {
            let mut args = vec!["-n", "100"];
            args.extend_from_slice(bars);
            if rev {
                args.push("-r");
            }
            args.push("rootdirx");
            let out = env.stdout_ok(&args);
            let ls = line_strs(&out);
            assert_eq!(ls.len(), 6, "hogs {args:?}:\n{}", text(&out));
            let root: Vec<usize> = ls
                .iter()
                .enumerate()
                .filter(|(_, l)| l.contains("rootdirx"))
                .map(|(i, _)| i)
                .collect();
            let want = if rev { 0 } else { ls.len() - 1 };
            assert_eq!(root, [want], "root line of hogs {args:?}:\n{}", text(&out));
        }
    }
}

/// Every name in `mixed_tree(env, "d")`.
const NAMES: &[&str] = &[
    "d", "a", "b", "c", "emptydir", "z", "z2", "empty0", "one", "mid", "f4095", "f4096", "f4097",
    "big", "f100k", "small",
];

#[test]
fn no_percent_bars() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let out = env.stdout_ok(["-n", "100", "d"]);
    for l in line_strs(&out) {
        assert!(
            l.contains('%'),
            "default view line without a percentage: {l:?}"
        );
    }
    for flags in [
        &["-b"][..],
        &["-b", "-r"][..],
        &["-b", "-B"][..],
        &["-b", "-s"][..],
    ] {
        let mut args = vec!["-n", "100"];
        args.extend_from_slice(flags);
        args.push("d");
        let out = env.stdout_ok(&args);
        let t = text(&out);
        assert!(!t.is_empty());
        // '│' also draws the tree, so look for the bar fill and for anything after the name
        assert!(
            !t.contains(['█', '▓', '▒', '░']),
            "hogs {args:?} has bars:\n{t}"
        );
        assert!(!t.contains('%'), "hogs {args:?} has percentages:\n{t}");
        for l in line_strs(&out) {
            assert!(
                NAMES.contains(&last_token(&l)),
                "hogs {args:?}: line does not end with a name: {l:?}"
            );
        }
    }
}

#[test]
fn exact_bytes_format() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let first = |args: &[&str]| -> u64 {
        let out = env.stdout_ok(args);
        let ls = line_strs(&out);
        assert_eq!(ls.len(), 1, "hogs {args:?}:\n{}", text(&out));
        let tok = ls[0].split_whitespace().next().unwrap_or("");
        tok.trim_end_matches('B')
            .parse()
            .unwrap_or_else(|_| panic!("hogs {args:?}: size column {tok:?} is not a number"))
    };
    assert_eq!(
        first(&["-o", "b", "-d", "0", "d"]),
        env.du_disk(&["d"]),
        "-o b vs du -sB1"
    );
    assert_eq!(
        first(&["-o", "b", "-s", "-d", "0", "d"]),
        env.du_apparent(&["d"]),
        "-o b -s vs du -sb"
    );
    assert_eq!(
        first(&["-o", "b", "-b", "-d", "0", "d"]),
        env.du_disk(&["d"]),
        "-o b -b vs du -sB1"
    );

    // every line of -d 1 against du -a --max-depth=1
    let out = env.stdout_ok(["-o", "b", "-b", "-d", "1", "-n", "100", "d"]);
    let mut got: Vec<(String, u64)> = line_strs(&out)
        .iter()
        .map(|l| {
            let tok = l.split_whitespace().next().unwrap_or("");
            let n = tok
                .trim_end_matches('B')
                .parse()
                .unwrap_or_else(|_| panic!("size column {tok:?} is not a number in {l:?}"));
            let nm = last_token(l);
            (
                if nm == "d" {
                    String::new()
                } else {
                    nm.to_owned()
                },
                n,
            )
        })
        .collect();
    got.sort();
    let mut want = env.du_children(&["-B1"], "d");
    want.sort();
    assert_eq!(
        got, want,
        "hogs -o b -b -d 1 d vs du -a -B1 --max-depth=1 d"
    );
}

#[test]
fn min_size() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let out = env.stdout_ok(["-z", "1M", "-o", "b", "-b", "-n", "100", "d"]);
    let ls = line_strs(&out);
    assert!(!ls.is_empty());
    for l in &ls {
        let n: u64 = l
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_end_matches('B')
            .parse()
            .unwrap_or_else(|_| panic!("bad size column in {l:?}"));
        assert!(n >= 1_000_000, "hogs -z 1M shows {l:?}");
    }
    assert!(
        ls.iter().any(|l| last_token(l) == "big"),
        "hogs -z 1M d does not show the 3 MiB file:\n{}",
        text(&out)
    );
}

#[test]
fn only_dirs_and_only_files() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let files = [
        "empty0", "one", "mid", "f4095", "f4096", "f4097", "big", "f100k", "small",
    ];
    let dirs = ["a", "b", "c", "emptydir", "z", "z2"];

    let out = env.stdout_ok(["-D", "-b", "-n", "100", "d"]);
    let names: Vec<String> = line_strs(&out)
        .iter()
        .map(|l| basename(last_token(l)).to_owned())
        .collect();
    assert!(
        !names.iter().any(|n| files.contains(&n.as_str())),
        "hogs -D shows a file:\n{}",
        text(&out)
    );
    assert!(
        names.iter().any(|n| n == "b"),
        "hogs -D: no b\n{}",
        text(&out)
    );

    // -F lists what has nothing below it, as dust does (an entry with no children is a file
    // to dust): the empty directories `emptydir` and `z` are listed, the others are not
    // (this test said "no directory" until dust was compared side by side; dust wins)
    let out = env.stdout_ok(["-F", "-b", "-n", "100", "d"]);
    let names: Vec<String> = line_strs(&out)
        .iter()
        .map(|l| basename(last_token(l)).to_owned())
        .collect();
    let empty = ["emptydir", "z"];
    assert!(
        !names
            .iter()
            .any(|n| dirs.contains(&n.as_str()) && !empty.contains(&n.as_str())),
        "hogs -F shows a directory with entries:\n{}",
        text(&out)
    );
    assert!(
        empty.iter().all(|e| names.iter().any(|n| n == e)),
        "hogs -F: an empty directory is missing\n{}",
        text(&out)
    );
    assert!(
        names.iter().any(|n| n == "big"),
        "hogs -F: no big\n{}",
        text(&out)
    );
    assert!(
        names.iter().any(|n| n == "f100k"),
        "hogs -F: no f100k\n{}",
        text(&out)
    );
}

#[test]
fn full_paths() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let out = env.stdout_ok(["-p", "-b", "-n", "100", "d"]);
    let t = text(&out);
    assert!(
        line_strs(&out).iter().any(|l| last_token(l) == "d/a/b/big"),
        "hogs -p shows no 'd/a/b/big':\n{t}"
    );
    let out = env.stdout_ok(["-b", "-n", "100", "d"]);
    assert!(
        !line_strs(&out).iter().any(|l| last_token(l) == "d/a/b/big"),
        "without -p a full path is shown:\n{}",
        text(&out)
    );
}

/// Check the JSON schema of a node and of all below it; compare every directory with du.
fn check_node(env: &TestEnv, v: &Value, path: &Path, is_root: bool) -> usize {
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("node is not an object: {v}"));
    for key in [
        "name",
        "type",
        "size",
        "value",
        "disk_bytes",
        "apparent_bytes",
        "entries",
        "children",
    ] {
        assert!(obj.contains_key(key), "node lacks {key:?}: {v}");
    }
    for key in ["value", "disk_bytes", "apparent_bytes", "entries"] {
        field_u64(v, key);
    }
    // dust's `size`: the string dust prints
    assert_eq!(
        v["size"],
        iec(size(v)).as_str(),
        "size is dust's string: {v}"
    );
    let ty = v["type"]
        .as_str()
        .unwrap_or_else(|| panic!("type not a string: {v}"));
    assert!(
        ["dir", "file", "symlink", "other"].contains(&ty),
        "bad type {ty:?}: {v}"
    );
    let rel = path.to_string_lossy().into_owned();
    let md = std::fs::symlink_metadata(env.path(path)).expect("lstat");
    let want_ty = if md.is_dir() {
        "dir"
    } else if md.is_file() {
        "file"
    } else if md.file_type().is_symlink() {
        "symlink"
    } else {
        "other"
    };
    assert_eq!(ty, want_ty, "type of {rel}");
    assert_eq!(
        size(v),
        field_u64(v, "disk_bytes"),
        "size == disk_bytes for {rel}"
    );
    assert_eq!(size(v), env.du_disk(&[&rel]), "{rel} vs du -sB1 {rel}");
    assert_eq!(
        field_u64(v, "apparent_bytes"),
        env.du_apparent(&[&rel]),
        "{rel} apparent_bytes vs du -sb {rel}"
    );
    let kids = children(v);
    if ty != "dir" {
        assert!(kids.is_empty(), "{rel} is not a dir but has children: {v}");
    }
    for w in kids.windows(2) {
        assert!(
            size(&w[0]) >= size(&w[1]),
            "children of {rel} not sorted by size descending: {} then {}",
            name(&w[0]),
            name(&w[1])
        );
    }
    if is_root {
        assert_eq!(full_name(v), rel, "the root name is the path as typed");
    }
    let mut count = 1;
    for c in kids {
        count += check_node(env, c, &path.join(basename(name(c))), false);
    }
    count
}

#[test]
fn json_schema_and_every_node() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.symlink("a", "d/link");
    env.fifo("d/pipe");
    let v = env.json(["d"]);
    let nodes = check_node(&env, &v, Path::new("d"), true);
    assert_eq!(
        nodes as u64,
        env.du_inodes(&["d"]),
        "JSON node count vs du --inodes d (all nodes are included)"
    );
    // -n does not cut the JSON
    let v = env.json(["-n", "2", "d"]);
    let mut names = Vec::new();
    all_names(&v, &mut names);
    assert_eq!(
        names.len() as u64,
        env.du_inodes(&["d"]),
        "hogs -j -n 2 d node count"
    );
}

#[test]
fn json_depth_limit() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let v = env.json(["-d", "0", "d"]);
    assert!(children(&v).is_empty(), "-d 0: root has children: {v}");
    assert_eq!(size(&v), env.du_disk(&["d"]));
    let v = env.json(["-d", "1", "d"]);
    assert_eq!(children(&v).len(), 6, "-d 1: d has 6 children: {v}");
    for c in children(&v) {
        assert!(children(c).is_empty(), "-d 1: a grandchild is shown: {c}");
    }
    let v = env.json(["-d", "2", "d"]);
    let a = child(&v, "a");
    assert_eq!(children(a).len(), 4, "-d 2: a has 4 children: {a}");
    for c in children(a) {
        assert!(children(c).is_empty(), "-d 2: depth 3 shown: {c}");
    }
    assert_eq!(size(child(a, "b")), env.du_disk(&["d/a/b"]));
}

#[test]
fn several_paths_total_line() {
    let env = TestEnv::new();
    env.file("d/a/x", 300_000);
    env.file("e/y", 10_000);
    let out = env.stdout_ok(["-b", "-n", "100", "d", "e"]);
    let ls = line_strs(&out);
    assert_eq!(
        ls.last().map(|l| last_token(l)),
        Some("(total)"),
        "hogs -b d e: the total line comes last:\n{}",
        text(&out)
    );
    assert_eq!(ls.len(), 6, "hogs -b d e:\n{}", text(&out));
    let out = env.stdout_ok(["-b", "-n", "100", "--skip-total", "d", "e"]);
    let ls = line_strs(&out);
    assert!(
        !ls.iter().any(|l| l.contains("(total)")),
        "hogs --skip-total shows the total:\n{}",
        text(&out)
    );
    let names: Vec<&str> = ls.iter().map(|l| last_token(l)).collect();
    assert!(
        names.contains(&"d") && names.contains(&"e") && ls.len() == 5,
        "hogs --skip-total d e:\n{}",
        text(&out)
    );
}

#[test]
fn output_formats_accepted() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    for f in ["si", "b", "k", "m", "g", "t", "kb", "mb", "gb", "tb"] {
        let out = env.stdout_ok(["-o", f, "-d", "0", "d"]);
        let ls = line_strs(&out);
        assert_eq!(ls.len(), 1, "hogs -o {f} -d 0 d:\n{}", text(&out));
        assert!(
            ls[0].trim_start().starts_with(|c: char| c.is_ascii_digit()),
            "hogs -o {f}: the line does not start with a size: {:?}",
            ls[0]
        );
    }
}

/// Issue 22, item 5, and issue 24: with `--skip-total` the paths share one row budget as the
/// total's children do (the first path does not take it all): the rows, sizes and
/// percentages (shares of the total) are those of the view with the total, in the same
/// order, less the total's row; the paths are drawn as siblings below the hidden total, the
/// biggest last and joined to those above it, as dust draws them.
#[test]
fn skip_total_is_the_view_with_the_total_less_its_row() {
    let env = TestEnv::new();
    for i in 0..8 {
        env.file(format!("small/s{i}"), 4096);
    }
    for i in 0..8 {
        env.file(format!("big/b{i}"), 40_960);
    }
    env.file("mid/m", 65_536);
    let args = ["-w", "60", "-n", "6", "small", "big", "mid"];
    let with_total = env.stdout_ok(args);
    let out = env.stdout_ok([&["--skip-total"][..], &args].concat());
    let t = text(&out);
    let ls = line_strs(&out);
    assert_eq!(ls.len(), 6, "-n 6 rows:\n{t}");
    // a row's size, name (the last word before the bar) and percentage
    let cells = |l: &str| -> (String, String, String) {
        let before_bar = l.split('│').next().unwrap_or("");
        let word = |w: Option<&str>| w.unwrap_or("").to_owned();
        (
            word(before_bar.split_whitespace().next()),
            word(before_bar.split_whitespace().last()),
            word(l.split_whitespace().last()),
        )
    };
    let mut expected: Vec<_> = line_strs(&with_total).iter().map(|l| cells(l)).collect();
    assert_eq!(
        expected.pop().map(|c| c.1),
        Some("(total)".to_owned()),
        "{}",
        text(&with_total)
    );
    let got: Vec<_> = ls.iter().map(|l| cells(l)).collect();
    assert_eq!(
        got,
        expected,
        "--skip-total:\n{t}\nwith the total:\n{}",
        text(&with_total)
    );
    assert!(got.iter().any(|c| c.1 == "mid"), "{t}");
    assert!(
        ls[5].contains(" ├─┴ big "),
        "the biggest path last, a sibling:\n{t}"
    );
}
