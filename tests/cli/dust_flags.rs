//! The rest of dust's flags, with dust's meaning (dust 1.2's manual is the reference).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::util::*;

fn tree(env: &TestEnv) {
    env.file("d/a/keep.txt", 30_000)
        .file("d/a/drop.log", 20_000);
    env.file("d/b/skip-me", 10_000).file("d/b/other.rs", 5_000);
    env.file("d/c.log", 7_000);
}

fn run_stdin(env: &TestEnv, args: &[&str], stdin: &[u8]) -> std::process::Output {
    let mut child = Command::new(hogs_bin())
        .args(args)
        .current_dir(env.root())
        .env("XDG_CONFIG_HOME", env.path("no-such-config-dir"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hogs");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || input.write_all(&data));
    let out = child.wait_with_output().expect("wait for hogs");
    feeder.join().expect("feeder").expect("feed stdin");
    out
}

#[test]
fn ignore_all_in_file_adds_its_regexes_to_invert_filter() {
    let env = TestEnv::new();
    tree(&env);
    std::fs::write(env.path("ignore.txt"), "\\.log$\n\n^d/b/skip\r\n").expect("write");
    let with_file = env.json(["-I", "ignore.txt", "d"]);
    let with_flags = env.json(["-v", "\\.log$", "-v", "^d/b/skip", "d"]);
    assert_eq!(with_file, with_flags);
    assert!(find_node(&with_file, "drop.log").is_none_or(|n| size(n) == 0));
    assert!(size(&with_file) < env.du_disk(&["d"]));
    assert!(size(&with_file) > 0);
    // and with -v together
    let both = env.json(["-I", "ignore.txt", "-v", "other", "d"]);
    let b = |rel: &str| blocks_bytes(&env.path(rel));
    assert_eq!(
        size(&both),
        b("d/a/keep.txt") + b("d") + b("d/a") + b("d/b"),
        "only a/keep.txt is left, and the own blocks of the directories (as dust counts)"
    );

    let out = env.run(["-I", "missing.txt", "d"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot read --ignore-all-in-file 'missing.txt': No such file or directory\n"
    );
    assert!(out.stdout.is_empty());
    std::fs::write(env.path("bad.txt"), "ok\n(\n").expect("write");
    let out = env.run(["-I", "bad.txt", "d"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("hogs: invalid regex '(' in --ignore-all-in-file 'bad.txt' line 2: "),
        "{err}"
    );
}

#[test]
fn files_from_and_files0_from_name_the_paths() {
    let env = TestEnv::new();
    tree(&env);
    let want = env.json(["d/a", "d/b"]);
    std::fs::write(env.path("list"), "d/a\n\nd/b\n").expect("write");
    assert_eq!(env.json(["--files-from", "list"]), want);
    std::fs::write(env.path("list0"), "d/a\0d/b").expect("write");
    assert_eq!(env.json(["--files0-from", "list0"]), want);
    // with paths given as well
    assert_eq!(
        env.json(["--files-from", "list", "d/c.log"]),
        env.json(["d/c.log", "d/a", "d/b"])
    );
    // from stdin
    let out = run_stdin(&env, &["-j", "--files0-from", "-"], b"d/a\0d/b\0");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).expect("json"),
        want
    );
    // a name with a newline or bytes that are not UTF-8: only --files0-from can carry it
    let odd = b"d/odd\nname\xff";
    std::fs::write(env.path(path_bytes(odd)), vec![7u8; 9000]).expect("write");
    let mut list = odd.to_vec();
    list.push(0);
    std::fs::write(env.path("list0"), &list).expect("write");
    let v = env.json(["--files0-from", "list0"]);
    assert_eq!(size(&v), blocks_bytes(&env.path(path_bytes(odd))));
    // an empty name is skipped with a warning, as dust skips it; the rest is counted
    std::fs::write(env.path("list0"), b"d/a\0\0d/b\0").expect("write");
    let out = env.run(["-j", "--files0-from", "list0"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: warning: skipped a zero-length file name\n"
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).expect("json"),
        want
    );
    // an empty list scans nothing
    std::fs::write(env.path("empty"), b"").expect("write");
    assert!(env.stdout_ok(["--files-from", "empty"]).is_empty());
    let out = env.run(["--files-from", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot read --files-from 'nope': No such file or directory\n"
    );
}

#[test]
fn print_errors_and_stack_size_are_accepted() {
    let env = TestEnv::new();
    tree(&env);
    let plain = env.stdout_ok(["-w", "80", "d"]);
    assert_eq!(env.stdout_ok(["--print-errors", "-w", "80", "d"]), plain);
    let out = env.run(["-S", "1073741824", "-w", "80", "d"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, plain, "-S changes nothing");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: note: --stack-size is ignored (the walk does not recurse: no big stack needed)\n"
    );
}

#[test]
fn collapse_hides_contents_but_keeps_sizes() {
    let env = TestEnv::new();
    env.file("d/a/x", 30_000)
        .file("d/a/y/z", 20_000)
        .file("d/b/w", 10_000);
    env.file("d/b/a/deep", 5_000);
    let full = env.json(["d"]);
    // by name: every directory called a
    let v = env.json(["--collapse", "a", "d"]);
    assert_eq!(size(&v), size(&full));
    assert!(children(child(&v, "a")).is_empty(), "d/a collapsed");
    assert_eq!(size(child(&v, "a")), size(child(&full, "a")));
    assert!(children(child(child(&v, "b"), "a")).is_empty(), "d/b/a too");
    assert_eq!(children(child(&v, "b")).len(), 2, "d/b is open");
    // by path: only that one; repeatable
    let v = env.json(["--collapse", "d/b/a/", "--collapse", "d/a/y", "d"]);
    assert!(
        children(child(child(&v, "b"), "a")).is_empty(),
        "d/b/a by path"
    );
    assert!(
        children(child(child(&v, "a"), "y")).is_empty(),
        "d/a/y by path"
    );
    assert_eq!(children(child(&v, "a")).len(), 2, "d/a is open");
    // the text view: a's contents are not listed
    let text = String::from_utf8(env.stdout_ok(["-b", "--collapse", "a", "d"])).expect("utf-8");
    assert!(
        text.contains(" a\n") && !text.contains(" x\n") && !text.contains(" z\n"),
        "{text}"
    );
    let text = String::from_utf8(env.stdout_ok(["-b", "d"])).expect("utf-8");
    assert!(text.contains(" x\n"), "{text}");
    // a file of that name is not a directory: nothing changes
    assert_eq!(env.json(["--collapse", "x", "d"]), full);
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs() as i64
}

/// `touch -m` (or `-a`) a file to `secs_ago` seconds in the past.
fn touch(env: &TestEnv, flag: &str, rel: &str, secs_ago: i64) {
    let st = Command::new("touch")
        .args([flag, "-d", &format!("@{}", now() - secs_ago), rel])
        .current_dir(env.root())
        .status()
        .expect("run touch");
    assert!(st.success(), "touch {flag} {rel}");
}

const DAY: i64 = 86_400;

/// The local midnight that began today, from date(1) (the filters count days back from it,
/// as dust).
fn midnight() -> i64 {
    let out = Command::new("date")
        .args(["-d", "today 00:00", "+%s"])
        .output()
        .expect("run date");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("date +%s prints a number")
}

/// `touch -m` (or `-a`) a file to the middle of the day that ended `days` days before
/// today began: `-M days` picks it.
fn touch_day(env: &TestEnv, flag: &str, rel: &str, days: i64) {
    let st = Command::new("touch")
        .args([
            flag,
            "-d",
            &format!("@{}", midnight() - days * DAY - DAY / 2),
            rel,
        ])
        .current_dir(env.root())
        .status()
        .expect("run touch");
    assert!(st.success(), "touch {flag} {rel}");
}

fn dated_tree(env: &TestEnv) {
    env.file("d/old", 40_000)
        .file("d/sub/mid", 20_000)
        .file("d/new", 8_000);
    // the directories are new (mtime, atime, ctime now): they pass the filters that keep
    // today and their own blocks count then, as in dust
    // days count back from local midnight, as dust's: `-M 0` is yesterday
    touch_day(env, "-m", "d/old", 40);
    touch_day(env, "-m", "d/sub/mid", 10);
    touch(env, "-m", "d/new", 60);
    touch(env, "-a", "d/old", 60);
    touch_day(env, "-a", "d/sub/mid", 5);
    touch_day(env, "-a", "d/new", 50);
}

#[test]
fn time_filters_count_files_by_age_in_days() {
    let env = TestEnv::new();
    dated_tree(&env);
    let b = |rel: &str| blocks_bytes(&env.path(rel));
    let dirs = b("d") + b("d/sub");
    let cases: &[(&[&str], u64)] = &[
        (&["-M", "+30"], b("d/old")),
        (&["-M", "10"], b("d/sub/mid")),
        (&["-M", "-2"], b("d/new") + dirs),
        (&["-M", "-11"], b("d/sub/mid") + b("d/new") + dirs),
        (&["-M", "+100"], 0),
        (&["-A", "+30"], b("d/new")),
        (&["-A", "5"], b("d/sub/mid")),
        (&["-A", "-1"], b("d/old") + dirs),
        (&["-M", "+1", "-A", "-1"], b("d/old")),
        // every entry's status changed just now
        (
            &["-y", "-1"],
            b("d/old") + b("d/sub/mid") + b("d/new") + dirs,
        ),
        (&["-y", "+0"], 0),
    ];
    for (flags, want) in cases {
        let got = env.total([&flags[..], &["d"][..]].concat());
        assert_eq!(got, *want, "hogs {flags:?} d");
    }
    // with -f: the entries that match (a walk that counts entries stats them for their times)
    assert_eq!(env.total(["-f", "-M", "-11", "d"]), 2 + 2);
    assert_eq!(env.total(["-f", "-M", "+30", "d"]), 1);
    let out = env.run(["-M", "soon", "d"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: invalid value 'soon' for --mtime: expected +N, N or -N (days)\n"
    );
}

#[test]
fn filetime_shows_the_newest_time_newest_first() {
    let env = TestEnv::new();
    dated_tree(&env);
    env.file("d/sub/older", 10);
    touch(&env, "-m", "d/sub/older", 60 * DAY);
    touch(&env, "-a", "d/sub/older", 60 * DAY);
    for dir in ["d/sub", "d"] {
        touch(&env, "-m", dir, 90 * DAY);
        touch(&env, "-a", dir, 90 * DAY);
    }
    let mtime = |rel: &str| {
        std::fs::metadata(env.path(rel))
            .expect("stat")
            .modified()
            .expect("mtime")
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs()
    };
    let v = env.json(["-m", "m", "d"]);
    assert_eq!(size(&v), mtime("d/new"), "the root: its newest entry");
    assert_eq!(size(child(&v, "sub")), mtime("d/sub/mid"));
    let order: Vec<&str> = children(&v).iter().map(name).collect();
    assert_eq!(order, ["new", "sub", "old"], "newest first");
    let v = env.json(["-m", "a", "d"]);
    let newest_file = children(&v)
        .iter()
        .filter(|c| c["type"] == "file")
        .max_by_key(|c| size(c))
        .expect("files");
    assert_eq!(name(newest_file), "old", "the most recently read file: old");
    // a directory's time is the newest of its own and its entries' (dust): d's own access
    // time is this very scan's
    assert!(size(&v) >= size(newest_file));
    assert_eq!(
        env.json(["-m", "accessed", "d"]),
        v,
        "dust's long names work too"
    );
    // the text view: a local date where the size was, no bars
    let text = String::from_utf8(env.stdout_ok(["-m", "m", "-w", "80", "d"])).expect("utf-8");
    let last = text.lines().last().expect("a root line").to_owned();
    assert!(
        last.starts_with(&hogs::units::format_time(mtime("d/new"))),
        "{text}"
    );
    assert!(!text.contains('█') && !text.contains('%'), "{text}");
}

#[test]
fn file_types_group_files_by_extension() {
    let env = TestEnv::new();
    env.file("d/a.rs", 50_000)
        .file("d/sub/b.rs", 30_000)
        .file("d/sub/c.log", 60_000);
    env.file("d/notes.txt", 9_000)
        .file("d/Makefile", 5_000)
        .file("d/.bashrc", 3_000);
    env.file("d/x.tar.gz", 20_000);
    env.hardlink("d/a.rs", "d/sub/a-again.rs"); // counted once
    let b = |rel: &str| blocks_bytes(&env.path(rel));
    let v = env.json(["-t", "d"]);
    assert_eq!(name(&v), "(total)");
    let groups = child_sizes(&v);
    let want = vec![
        (".rs".to_string(), b("d/a.rs") + b("d/sub/b.rs")),
        (".log".to_string(), b("d/sub/c.log")),
        (".gz".to_string(), b("d/x.tar.gz")),
        (".txt".to_string(), b("d/notes.txt")),
        (
            "(no extension)".to_string(),
            b("d/Makefile") + b("d/.bashrc"),
        ),
    ];
    let mut sorted = want.clone();
    // ties as dust orders them, the greater extension first: `.txt` (9,000 bytes) before
    // `(no extension)` (5,000 and 3,000) when both take three blocks
    sorted.sort_by(|x, y| y.1.cmp(&x.1).then(y.0.cmp(&x.0)));
    assert_eq!(groups, sorted, "biggest first");
    assert_eq!(
        size(&v),
        want.iter().map(|g| g.1).sum::<u64>(),
        "files only"
    );
    // -n 3: the two biggest, then the rest
    let v = env.json(["-t", "-n", "3", "d"]);
    let groups = child_sizes(&v);
    assert_eq!(groups.len(), 3);
    assert_eq!(groups[..2], sorted[..2]);
    assert_eq!(groups[2].0, "(others)");
    assert_eq!(groups[2].1, sorted[2..].iter().map(|g| g.1).sum::<u64>());
    // -f: files per kind
    let v = env.json(["-t", "-f", "d"]);
    assert_eq!(size(child(&v, ".rs")), 2);
    assert_eq!(size(child(&v, "(no extension)")), 2);
    assert_eq!(size(&v), 7);
    // with a filter, only what it counts
    let v = env.json(["-t", "-e", "sub", "d"]);
    let names: Vec<&str> = children(&v).iter().map(name).collect();
    assert_eq!(names, [".log", ".rs"]);
    // the text view
    let text = String::from_utf8(env.stdout_ok(["-t", "-w", "80", "d"])).expect("utf-8");
    assert!(
        text.lines().last().is_some_and(|l| l.contains("(total)")),
        "{text}"
    );
    assert!(
        text.contains(" .log ") && text.contains(" (no extension)"),
        "{text}"
    );
}

#[test]
fn screen_reader_prints_plain_columns() {
    let env = TestEnv::new();
    env.file("d/a/x", 30_000)
        .file("d/a/y", 10_000)
        .file("d/b", 5_000);
    let v = env.json(["d"]);
    let text = String::from_utf8(env.stdout_ok(["-R", "-w", "80", "d"])).expect("utf-8");
    for bad in ['│', '█', '├', '┌', '└'] {
        assert!(!text.contains(bad), "{bad:?} in\n{text}");
    }
    // NAME DEPTH SIZE PCT%, root last (first with -r), names padded to one column
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 5, "{text}");
    assert_eq!(
        (rows[4][0], rows[4][1], rows[4][3]),
        ("d", "0", "100%"),
        "{text}"
    );
    assert_eq!(rows[4][2], crate::util::iec(size(&v)));
    let depth_of = |n: &str| rows.iter().find(|r| r[0] == n).map(|r| r[1]);
    assert_eq!(depth_of("a"), Some("1"));
    assert_eq!(depth_of("x"), Some("2"));
    let plain = String::from_utf8(env.stdout_ok(["-R", "-o", "b", "d"])).expect("utf-8");
    let size_of = |n: &str| {
        plain
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|r| r[0] == n)
            .and_then(|r| r[2].trim_end_matches('B').parse::<u64>().ok())
    };
    assert_eq!(size_of("a"), Some(size(child(&v, "a"))));
    assert_eq!(size_of("d"), Some(size(&v)));
    // one column per field: the depths line up
    let at: Vec<usize> = text
        .lines()
        .map(|l| l.find(|c: char| c.is_ascii_digit()).expect("a depth"))
        .collect();
    assert!(at.windows(2).all(|w| w[0] == w[1]), "{text}");
    let reversed = String::from_utf8(env.stdout_ok(["-R", "-r", "d"])).expect("utf-8");
    assert!(reversed.starts_with("d "), "{reversed}");
}

#[test]
fn dim_draws_guides_and_bars_faint_only_in_colour() {
    let env = TestEnv::new();
    env.file("d/a/x", 30_000).file("d/b", 5_000);
    let plain = env.stdout_ok(["-w", "60", "d"]);
    assert_eq!(
        env.stdout_ok(["--dim", "-w", "60", "d"]),
        plain,
        "no colour: no change"
    );
    let dim = String::from_utf8(env.stdout_ok(["-C", "--dim", "-w", "60", "d"])).expect("utf-8");
    let bright = String::from_utf8(env.stdout_ok(["-C", "-w", "60", "d"])).expect("utf-8");
    assert!(dim.contains("\x1b[2m") && !bright.contains("\x1b[2m"));
    assert!(
        dim.lines().all(|l| l.contains("\x1b[2m│")),
        "bars framed faint:\n{dim}"
    );
    let strip = |s: &str| s.replace("\x1b[2m", "").replace("\x1b[0m", "");
    assert_eq!(strip(&dim).lines().count(), strip(&bright).lines().count());
}

/// Issue 24, item 5: `-X` and `--collapse` with a path act whatever its spelling: relative
/// to the working directory, absolute, with `./` or a trailing slash, through a symlink.
#[test]
fn exclude_and_collapse_paths_in_every_spelling() {
    let env = TestEnv::new();
    env.file("xt/p/q/big", 100_000).file("xt/p/r/s", 1000);
    env.symlink("xt/p", "plink");
    let without_q = env.du_total(&["-B1", "--exclude=xt/p/q"], &["xt"]);
    let absolute = env.path("xt/p/q").to_string_lossy().into_owned();
    for spelling in [
        "xt/p/q",
        "./xt/p/q",
        "xt/p/q/",
        absolute.as_str(),
        "plink/q",
    ] {
        assert_eq!(
            env.total(["-X", spelling, "xt"]),
            without_q,
            "-X {spelling} xt"
        );
    }
    // from inside the scanned directory, its paths are relative to it
    let out = Command::new(hogs_bin())
        .current_dir(env.path("xt"))
        .args(["-o", "b", "-d", "0", "-X", "p/q", "."])
        .output()
        .expect("run hogs");
    let total: u64 = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .and_then(|n| n.trim_end_matches('B').parse().ok())
        .expect("a total");
    assert_eq!(total, without_q, "cd xt; hogs -X p/q .");
    let text = String::from_utf8_lossy(&env.stdout_ok(["-n", "20", "--collapse", &absolute, "xt"]))
        .into_owned();
    assert!(!text.contains("big"), "q collapsed: {text}");
    assert!(text.contains(" q"), "q shown: {text}");
}
