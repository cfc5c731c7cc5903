//! The history under faults: a record killed with SIGKILL, two records at once, files that
//! are not a history of this hogs, `--record --import` of split and older exports,
//! `--forget-before`, and `--prometheus` read by Prometheus' own parser.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::history::{ok, sqlite, tool};
use crate::util::TestEnv;

/// The binary as a plain process (to spawn, kill, run several at once), in the test's root.
fn hogs(env: &TestEnv) -> Command {
    let mut cmd = Command::new(crate::util::hogs_bin());
    cmd.current_dir(env.root());
    cmd
}

/// A tree of `dirs` directories of a few files each: enough that a record takes a while.
fn wide(env: &TestEnv, dirs: usize) {
    env.bash(&format!(
        "mkdir -p big && cd big && for i in $(seq {dirs}); do mkdir d$i; echo $i > d$i/a; echo x > d$i/b; done"
    ));
}

#[test]
fn a_record_killed_leaves_the_earlier_scans_and_a_sound_file() {
    if !tool("sqlite3") {
        skip!("skipped: no sqlite3 shell");
        return;
    }
    let env = TestEnv::new();
    wide(&env, 2000);
    ok(&env, &["--record", "h.db", "big"]);
    env.bash("echo more > big/d1/c");
    ok(&env, &["--record", "h.db", "big"]);
    let before = ok(&env, &["--history", "h.db", "--between", "1", "2"]);
    let mut killed_while_recording = 0;
    for delay_ms in [30, 80, 150, 250, 400, 600, 900] {
        env.bash(&format!("echo {delay_ms} > big/d2/c{delay_ms}"));
        let mut child = hogs(&env)
            .args(["--record", "h.db", "big"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(Duration::from_millis(delay_ms));
        let finished = child.try_wait().expect("wait").is_some();
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        killed_while_recording += usize::from(!finished);
        assert_eq!(sqlite(&env, "h.db", "pragma integrity_check").trim(), "ok");
        // the two first scans answer as before, whatever happened to the third
        assert_eq!(
            ok(&env, &["--history", "h.db", "--between", "1", "2"]),
            before
        );
        let scans: Vec<String> = sqlite(&env, "h.db", "select id from scans order by id")
            .lines()
            .map(String::from)
            .collect();
        assert!(scans.starts_with(&["1".into(), "2".into()]), "{scans:?}");
    }
    assert!(
        killed_while_recording > 0,
        "no record was killed before it ended"
    );
    // every scan that landed is whole: its totals are those of its rows
    let mismatched = sqlite(&env, "h.db", "select count(*) from scans s where s.disk_bytes IS NOT (select disk_bytes from dir_sizes d where d.scan_id = s.id and d.path = s.root)");
    assert_eq!(mismatched.trim(), "0");
}

#[test]
fn two_records_at_once_both_land() {
    if !tool("sqlite3") {
        skip!("skipped: no sqlite3 shell");
        return;
    }
    let env = TestEnv::new();
    wide(&env, 1500);
    env.file("other/f", 1000);
    for _ in 0..2 {
        let children: Vec<_> = ["big", "other", "big"]
            .iter()
            .map(|p| {
                hogs(&env)
                    .args(["--record", "h.db", p])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("spawn")
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().expect("wait");
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    assert_eq!(sqlite(&env, "h.db", "pragma integrity_check").trim(), "ok");
    let per_root = sqlite(
        &env,
        "h.db",
        "select count(*) from scans group by root order by root",
    );
    assert_eq!(per_root, "4\n2\n");
}

/// Refused files: one line naming the file, exit 1, the file's bytes unchanged.
#[test]
fn a_file_that_is_not_a_history_of_this_hogs_is_refused_untouched() {
    if !tool("sqlite3") {
        skip!("skipped: no sqlite3 shell");
        return;
    }
    let env = TestEnv::new();
    env.file("r/f", 100);
    ok(&env, &["-O", "export.json", "r"]);
    env.file("random", 5000);
    env.bash(": > empty; sqlite3 other.db 'create table t(x); insert into t values (1)'");
    ok(&env, &["--record", "newer.db", "r"]);
    sqlite(&env, "newer.db", "pragma user_version = 99");
    for file in ["export.json", "random", "empty", "other.db", "newer.db"] {
        let before = std::fs::read(env.path(file)).expect("read");
        for args in [
            vec!["--history", file],
            vec!["--record", file, "r"],
            vec!["--history", file, "--trend", "r"],
        ] {
            let out = env.run(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.contains(file), "{args:?}: {err}");
            let cause = if file == "newer.db" {
                "newer hogs"
            } else {
                "not a hogs history"
            };
            assert!(err.contains(cause), "{args:?}: {err}");
            assert_eq!(
                std::fs::read(env.path(file)).expect("read"),
                before,
                "{file} changed by {args:?}"
            );
        }
    }
}

#[test]
fn a_scan_id_date_or_age_that_names_no_scan_lists_the_scans() {
    let env = TestEnv::new();
    env.file("r/f", 100);
    ok(&env, &["--record", "h.db", "r"]);
    ok(&env, &["--record", "h.db", "r"]);
    for spec in ["9", "2001-01-01", "30y", "soon"] {
        let out = env.run(["--history", "h.db", "--between", spec, "2"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{spec}: {err}");
        assert_eq!(err.lines().count(), 1, "{spec}: {err}");
        if spec != "soon" {
            assert!(err.contains("1 (") && err.contains("2 ("), "{spec}: {err}");
        }
    }
}

/// `sed` the `"timestamp"` of a JSON export.
fn stamp(env: &TestEnv, file: &str, time: u64) {
    env.bash(&format!(
        "sed -i 's/\"timestamp\":[0-9]*/\"timestamp\":{time}/' {file}"
    ));
}

#[test]
fn imported_exports_take_their_time_and_older_ones_their_place() {
    let env = TestEnv::new();
    env.file("r/a/f", 1000).file("r/b/g", 2000);
    ok(&env, &["-O", "t1.json", "r"]);
    env.file("r/a/f2", 50_000);
    ok(&env, &["-O", "t2.json", "r"]);
    env.bash("rm r/b/g");
    ok(&env, &["-O", "t3.json", "r"]);
    stamp(&env, "t1.json", 1_700_000_000);
    stamp(&env, "t2.json", 1_700_100_000);
    stamp(&env, "t3.json", 1_700_200_000);
    // recorded out of order: 3, then 1, then 2 between them
    for f in ["t3.json", "t1.json", "t2.json"] {
        ok(&env, &["--record", "h.db", "--import", f]);
    }
    let listed: serde_json::Value =
        serde_json::from_str(&ok(&env, &["--history", "h.db", "-j"])).expect("json");
    let times: Vec<u64> = listed
        .as_array()
        .expect("array")
        .iter()
        .map(|s| s["time"].as_u64().expect("time"))
        .collect();
    assert_eq!(times, [1_700_000_000, 1_700_100_000, 1_700_200_000]);
    let ids: Vec<u64> = listed
        .as_array()
        .expect("array")
        .iter()
        .map(|s| s["id"].as_u64().expect("id"))
        .collect();
    assert_eq!(ids, [2, 3, 1]);
    for (a, b, ea, eb) in [
        ("2", "3", "t1.json", "t2.json"),
        ("3", "1", "t2.json", "t3.json"),
        ("2", "1", "t1.json", "t3.json"),
    ] {
        assert_eq!(
            ok(&env, &["--history", "h.db", "--between", a, b, "-j"]),
            ok(&env, &["--diff", ea, eb, "-j"]),
            "{a} {b}"
        );
    }
    // a date names the last scan on or before that day
    let day = ok(
        &env,
        &["--history", "h.db", "--between", "2023-11-14", "3", "-j"],
    );
    assert_eq!(day, ok(&env, &["--diff", "t1.json", "t2.json", "-j"]));
}

#[test]
fn a_split_scan_is_recorded_as_one_scan() {
    let env = TestEnv::new();
    env.file("r/x/f", 30_000)
        .file("r/y/g", 40_000)
        .file("r/top", 5);
    let (x, y) = (
        env.path("r/x").display().to_string(),
        env.path("r/y").display().to_string(),
    );
    ok(&env, &["-O", "x.json", &x]);
    ok(&env, &["-O", "y.json", &y]);
    ok(&env, &["-X", &x, "-X", &y, "-O", "top.json", "r"]);
    ok(
        &env,
        &[
            "--record", "h.db", "--import", "top.json", "x.json", "y.json",
        ],
    );
    let listed: serde_json::Value =
        serde_json::from_str(&ok(&env, &["--history", "h.db", "-j"])).expect("json");
    assert_eq!(listed.as_array().expect("array").len(), 1);
    assert_eq!(listed[0]["disk_bytes"].as_u64(), Some(env.du_disk(&["r"])));
    assert_eq!(listed[0]["entries"].as_u64(), Some(env.du_inodes(&["r"])));
}

#[test]
fn forget_before_drops_old_scans_keeps_later_answers_and_shrinks_the_file() {
    let env = TestEnv::new();
    env.file("r/a/f", 1000).file("r/b/g", 2000);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    let day = 86_400;
    for (i, t) in [now - 2000 * day, now - 10 * day, now - 5 * day]
        .iter()
        .enumerate()
    {
        // the first scan alone has r/old: what only it needs goes with it
        match i {
            // names that do not compress: the first scan's listing of r/old is large
            0 => env.bash(
                "mkdir r/old && python3 -c 'import os\nfor j in range(3000): open(\"r/old/\" + os.urandom(24).hex(), \"w\").close()'",
            ),
            _ => env.bash(&format!("rm -rf r/old; echo {i} > r/a/n{i}")),
        }
        ok(&env, &["-O", &format!("t{i}.json"), "r"]);
        stamp(&env, &format!("t{i}.json"), *t);
        ok(
            &env,
            &["--record", "h.db", "--import", &format!("t{i}.json")],
        );
    }
    let before = ok(&env, &["--history", "h.db", "--between", "2", "3", "-j"]);
    let trend_before = ok(&env, &["--history", "h.db", "--trend", "r/a", "-j"]);
    let on_disk = || {
        let len = |f: &str| std::fs::metadata(env.path(f)).map_or(0, |m| m.len());
        len("h.db") + len("h.db-wal")
    };
    let size_before = on_disk();
    // the first scan only
    let said = ok(&env, &["--history", "h.db", "--forget-before", "1000d"]);
    assert!(said.starts_with("forgot 1 scan"), "{said}");
    assert_eq!(
        ok(&env, &["--history", "h.db", "--between", "2", "3", "-j"]),
        before
    );
    let trend_after = ok(&env, &["--history", "h.db", "--trend", "r/a", "-j"]);
    assert!(
        trend_before.ends_with(&trend_after[1..]),
        "{trend_before} / {trend_after}"
    );
    let size_after = on_disk();
    assert!(size_after < size_before, "{size_before} -> {size_after}");
}

#[test]
fn prometheus_text_parses_with_prometheus_client() {
    let has_client = Command::new("python3")
        .args(["-c", "import prometheus_client"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_client {
        skip!("skipped: python3's prometheus_client is not installed");
        return;
    }
    let env = TestEnv::new();
    env.file("r/a/f", 10_000)
        .file("r/b\"q\\/g", 20_000)
        .file("r/b\"q\\/deeper/h", 1);
    ok(&env, &["--record", "h.db", "r"]);
    let text = ok(&env, &["--history", "h.db", "--prometheus", "-d", "1"]);
    let script = r#"
import sys
from prometheus_client.parser import text_string_to_metric_families
for fam in text_string_to_metric_families(sys.stdin.read()):
    for s in fam.samples:
        print(s.name, s.labels["root"], s.labels["path"], int(s.value), sep="\t")
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    std::io::Write::write_all(child.stdin.as_mut().expect("stdin"), text.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success());
    let parsed = String::from_utf8(out.stdout).expect("utf-8");
    let root = env.path("r").display().to_string();
    let disk: Vec<(String, u64)> = parsed
        .lines()
        .filter(|l| l.starts_with("hogs_directory_disk_bytes\t"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f[1], root);
            (f[2].to_string(), f[3].parse().expect("n"))
        })
        .collect();
    let du = |p: &str| env.du_disk(&[p]);
    assert_eq!(
        disk,
        vec![
            (root.clone(), du("r")),
            (format!("{root}/a"), du("r/a")),
            (format!("{root}/b\"q\\"), du("r/b\"q\\")),
        ]
    );
}
