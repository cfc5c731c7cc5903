//! What an import cannot know is said, never made up: times a filter reads and an export does
//! not record, inode numbers one part of a merge lacks; and the root an export records is the
//! directory the walk really read.

use std::process::Command;

use crate::util::*;

/// Whether `name` runs (`--version`); a test that needs it skips without it.
fn have(name: &str) -> bool {
    let ok = Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        skip!("skipped: {name} is not installed");
    }
    ok
}

/// The one-line error of a run that must fail with status 1 and print nothing.
fn refused(env: &TestEnv, args: &[&str]) -> String {
    let out = env.run(args);
    assert_eq!(out.status.code(), Some(1), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn time_filters_refuse_an_import_without_the_times() {
    let env = TestEnv::new();
    env.file("r/f", 50_000).file("r/d/g", 7_000);
    env.stdout_ok(["-O", "plain.json", "r"]);
    env.stdout_ok(["--export-extended", "-O", "ext.json", "r"]);
    let mtime = "hogs: cannot import 'plain.json': it records no modification times, which \
                 --mtime needs (export it with hogs --export-extended or ncdu -e)\n";
    assert_eq!(
        refused(&env, &["--import", "plain.json", "-M", "-1", "-d", "0"]),
        mtime
    );
    // a merge names the part without them
    env.stdout_ok(["--export-extended", "-O", "d.json", "r/d"]);
    env.stdout_ok(["-X", "d", "-O", "top.json", "r"]);
    let top = refused(&env, &["--import", "d.json", "top.json", "-M", "-1"]);
    assert!(
        top.starts_with("hogs: cannot import 'top.json': it records no modification times"),
        "{top}"
    );
    // an extended export has them: everything here is newer than a day
    let all = env.du_disk(&["r"]);
    assert_eq!(env.total(["--import", "ext.json", "-M", "-1"]), all);
    assert_eq!(env.total(["--import", "ext.json", "-M", "+1"]), 0);
    // no export records access or change times
    for (flag, what) in [
        ("-A", "access times, which --atime"),
        ("-y", "change times, which --ctime"),
    ] {
        assert_eq!(
            refused(&env, &["--import", "ext.json", flag, "-1"]),
            format!("hogs: cannot import 'ext.json': no export records {what} needs (filter a scan of the directory)\n")
        );
    }
    // ncdu 2's binary format, as hogs writes it, likewise
    env.stdout_ok(["-O", "plain.ncdu", "r"]);
    env.stdout_ok(["--export-extended", "-O", "ext.ncdu", "r"]);
    let out = refused(&env, &["--import", "plain.ncdu", "-M", "-1", "-d", "0"]);
    assert!(out.contains("records no modification times"), "{out}");
    assert_eq!(env.total(["--import", "ext.ncdu", "-M", "-1"]), all);
    if have("ncdu") {
        env.bash("ncdu -o ncdu.json r && ncdu -e -o ncdu-e.json r");
        let out = refused(&env, &["--import", "ncdu.json", "-M", "-1"]);
        assert!(out.contains("records no modification times"), "{out}");
        assert_eq!(env.total(["--import", "ncdu-e.json", "-M", "-1"]), all);
    }
}

#[test]
fn filetime_of_an_import_without_times_keeps_the_date_column() {
    let env = TestEnv::new();
    env.file("g/g1", 5_000).file("g/d/g2", 9_000);
    env.stdout_ok(["-O", "plain.json", "g"]);
    env.stdout_ok(["--export-extended", "-O", "ext.json", "g"]);
    let plain = env.stdout_ok(["--import", "plain.json", "-m", "m"]);
    let dated = env.stdout_ok(["--import", "ext.json", "-m", "m"]);
    let (plain, dated) = (
        String::from_utf8_lossy(&plain),
        String::from_utf8_lossy(&dated),
    );
    // the same rows after a 19-wide column, "-" right-aligned where a date is (the order may
    // differ: times that differ sort the dated rows)
    let rest = |text: &str| {
        let mut rows: Vec<String> = text
            .lines()
            .map(|l| l.get(19..).unwrap_or(l).to_owned())
            .collect();
        rows.sort();
        rows
    };
    for p in plain.lines() {
        assert_eq!(p.get(..19), Some("                  -"), "{plain}");
    }
    assert_eq!(rest(&plain), rest(&dated), "{plain}\n{dated}");
}

/// The root name an export records.
fn root_of(env: &TestEnv, file: &str) -> String {
    let text = std::fs::read(env.path(file)).expect("the export");
    let v: serde_json::Value = serde_json::from_slice(&text).expect("JSON");
    v[3][0]["name"].as_str().expect("a root name").to_owned()
}

#[test]
fn an_export_records_the_directory_walked_so_parts_merge_where_they_are() {
    let env = TestEnv::new();
    env.file("T/aa/x", 20_000)
        .file("T/bb/y", 30_000)
        .file("T/f", 5_000);
    env.symlink("T/aa", "alink");
    let real = env.root().canonicalize().expect("canonical temp dir");
    let aa = real.join("T/aa").to_string_lossy().into_owned();
    env.stdout_ok(["-X", "aa", "-O", "top.json", "T"]);
    let du = env.du_disk(&["T"]);
    for (part, typed) in [("up.json", "T/bb/../aa"), ("link.json", "alink")] {
        env.stdout_ok(["-O", part, typed]);
        assert_eq!(root_of(&env, part), aa, "{typed}");
        // the part goes into T, where it was scanned, and the merge adds up to du
        let v = env.json(["--import", "top.json", part]);
        assert_eq!(full_name(&v), real.join("T").to_string_lossy(), "{typed}");
        assert_eq!(size(&v), du, "{typed}");
        assert_eq!(size(child(&v, "aa")), env.du_disk(&["T/aa"]), "{typed}");
    }
    // a walk still shows the path as typed
    let v = env.json(["-d", "0", "alink"]);
    assert_eq!(full_name(&v), "alink");
}

#[test]
fn a_merge_warns_when_a_part_cannot_tell_its_hard_links() {
    let env = TestEnv::new();
    env.file("hl/p1/f", 50_000).mkdir("hl/p2");
    env.hardlink("hl/p1/f", "hl/p2/f2");
    env.stdout_ok(["-O", "h1.json", "hl/p1"]);
    env.stdout_ok(["-O", "h2.json", "hl/p2"]);
    // hogs marks every hard link: the merge counts the file once, as du does, and says nothing
    let out = env.run(["--import", "h1.json", "h2.json", "-j"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        size(child(&v, "p2")) + size(child(&v, "p1")),
        env.du_disk(&["hl/p1", "hl/p2"])
    );
    if !have("gdu") {
        return;
    }
    env.bash("gdu -n -o g2.json hl/p2");
    let out = env.run(["--import", "h1.json", "g2.json", "-d", "0"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: warning: 'g2.json' marks no hard links (gdu records none): a file it shares with 'h1.json' is counted in both\n"
    );
}
