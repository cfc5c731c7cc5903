//! The history store (`--record`, `--history`): real trees changed between recordings, GNU du
//! at each moment and `--diff` of real exports of the same moments as the oracles, the
//! sqlite3 shell as a second reader.

use std::collections::BTreeMap;
use std::process::Command;

use crate::util::{parse_du, TestEnv};

/// Whether `name` runs here (`name --version`).
pub(crate) fn tool(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The sqlite3 shell's answer to `sql` on `db`, as text.
pub(crate) fn sqlite(env: &TestEnv, db: &str, sql: &str) -> String {
    let out = Command::new("sqlite3")
        .arg(env.path(db))
        .arg(sql)
        .output()
        .expect("run sqlite3");
    assert!(
        out.status.success(),
        "sqlite3 {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// `hogs ARGS`: success, stdout.
pub(crate) fn ok(env: &TestEnv, args: &[&str]) -> String {
    let out = env.run(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "hogs {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Every directory's `du -B1`, `du -b` and `du --inodes` of `root`, by absolute path.
fn du_dirs(env: &TestEnv, root: &str) -> BTreeMap<String, [u64; 3]> {
    let mut out: BTreeMap<String, [u64; 3]> = BTreeMap::new();
    for (i, flag) in ["-B1", "-b", "--inodes"].iter().enumerate() {
        let o = Command::new("du")
            .args([flag, "--", root])
            .current_dir(env.root())
            .env("LC_ALL", "C")
            .output()
            .expect("du");
        for (n, p) in parse_du(&o.stdout) {
            let p = env.path(String::from_utf8(p).expect("utf-8"));
            out.entry(p.display().to_string()).or_default()[i] = n;
        }
    }
    out
}

/// `dir_sizes` of scan `id` as the sqlite3 shell reads it.
fn dir_sizes(env: &TestEnv, db: &str, id: usize) -> BTreeMap<String, [u64; 3]> {
    let sql = format!(
        "SELECT path, disk_bytes, apparent_bytes, entries FROM dir_sizes WHERE scan_id = {id}"
    );
    sqlite(env, db, &sql)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.rsplitn(4, '|').collect();
            let n = |i: usize| f[i].parse::<u64>().expect("number");
            (f[3].to_string(), [n(2), n(1), n(0)])
        })
        .collect()
}

/// The changes made between the moments recorded: grow, shrink, delete, add, rename a
/// directory, a hard link added.
fn change(env: &TestEnv, moment: usize) {
    match moment {
        1 => {
            env.file("r/a/grows", 200_000);
            env.file("r/b/shrinks", 1_000);
            env.bash("rm -r r/c/gone");
            env.file("r/d/new/deep", 30_000);
        }
        2 => {
            env.bash("mv r/a r/a-renamed");
            env.hardlink("r/b/keep", "r/d/linked");
        }
        _ => {
            env.bash("rm -r r/d");
            env.file("r/b/more", 70_000);
        }
    }
}

fn initial(env: &TestEnv) {
    env.file("r/a/grows", 10_000)
        .file("r/a/same", 5_000)
        .file("r/b/shrinks", 90_000)
        .file("r/b/keep", 12_345)
        .file("r/c/gone/x", 40_000)
        .file("r/c/stays", 1);
    env.mkdir("r/empty");
}

#[test]
fn each_scan_equals_du_at_its_moment_and_between_equals_diff_of_exports() {
    if !tool("sqlite3") {
        skip!("skipped: no sqlite3 shell");
        return;
    }
    let env = TestEnv::new();
    initial(&env);
    let root = env.path("r").display().to_string();
    let mut du_at = Vec::new();
    for moment in 0..4 {
        if moment > 0 {
            change(&env, moment);
        }
        let line = ok(&env, &["--record", "h.db", "r"]);
        assert!(
            line.starts_with(&format!("scan {} of {root}: ", moment + 1)),
            "{line}"
        );
        assert_eq!(line.lines().count(), 1, "one line: {line}");
        ok(&env, &["-O", &format!("m{moment}.ncdu"), "r"]);
        du_at.push(du_dirs(&env, "r"));
    }
    for (i, du) in du_at.iter().enumerate() {
        // every directory's totals, read by another program, = du's at that moment
        assert_eq!(&dir_sizes(&env, "h.db", i + 1), du, "scan {}", i + 1);
    }
    let listed: serde_json::Value =
        serde_json::from_str(&ok(&env, &["--history", "h.db", "-j"])).expect("json");
    for (i, scan) in listed.as_array().expect("array").iter().enumerate() {
        let du = &du_at[i][&root];
        assert_eq!(scan["id"], i + 1);
        assert_eq!(scan["root"], root.as_str());
        let got = ["disk_bytes", "apparent_bytes", "entries"].map(|k| scan[k].as_u64().expect("n"));
        assert_eq!(&got, du, "scan {}", i + 1);
    }
    for (a, b) in [(1, 2), (2, 3), (3, 4), (1, 4)] {
        for extra in [
            &[][..],
            &["-j"],
            &["-d", "1"],
            &["-n", "3"],
            &["-s"],
            &["-z", "1"],
        ] {
            let (ea, eb) = (format!("m{}.ncdu", a - 1), format!("m{}.ncdu", b - 1));
            let mut diff = vec!["--diff", &ea, &eb];
            diff.extend_from_slice(extra);
            let (sa, sb) = (a.to_string(), b.to_string());
            let mut between = vec!["--history", "h.db", "--between", &sa, &sb];
            between.extend_from_slice(extra);
            assert_eq!(
                ok(&env, &between),
                ok(&env, &diff),
                "--between {a} {b} {extra:?}"
            );
        }
    }
    // the default is the two latest; a subdirectory is the diff of that directory
    assert_eq!(
        ok(&env, &["--history", "h.db", "--between", "3", "4"]),
        ok(&env, &["--history", "h.db", "r"])
    );
}

#[test]
fn trend_is_du_of_the_path_at_each_scan_and_null_where_it_was_not() {
    let env = TestEnv::new();
    initial(&env);
    let mut du_b = Vec::new();
    let mut du_d = Vec::new();
    for moment in 0..4 {
        if moment > 0 {
            change(&env, moment);
        }
        ok(&env, &["--record", "h.db", "r"]);
        let dirs = du_dirs(&env, "r");
        du_b.push(dirs.get(&env.path("r/b").display().to_string()).copied());
        du_d.push(dirs.get(&env.path("r/d").display().to_string()).copied());
    }
    for (path, du) in [("r/b", &du_b), ("r/d", &du_d)] {
        let trend: serde_json::Value =
            serde_json::from_str(&ok(&env, &["--history", "h.db", "--trend", path, "-j"]))
                .expect("json");
        let points = trend.as_array().expect("array");
        assert_eq!(points.len(), 4, "{trend}");
        for (p, du) in points.iter().zip(du.iter()) {
            let got = ["disk_bytes", "apparent_bytes", "entries"].map(|k| p[k].as_u64());
            assert_eq!(
                got,
                du.map(|d| d.map(Some)).unwrap_or([None; 3]),
                "{path}: {trend}"
            );
        }
    }
}
