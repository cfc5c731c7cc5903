//! `--html FILE`: the page written, then opened in a real browser (Debian's chromium, driven
//! by playwright-core from tests/browser/report.js) and checked against GNU du: the drawn
//! rectangles, the zoom, the table, the keyboard, hostile names, no request leaving the file.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::TestEnv;

const HOSTILE: [&str; 2] = [
    "<script>alert(1)<\\script>",
    "\"><img src=x onerror=alert(2)>",
];

fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// What tests/browser/report.js saw of `page`, or `None` (said) when there is no browser.
pub(crate) fn browser_report(env: &TestEnv, page: &str, journey: &str) -> Option<Value> {
    let chromium = Path::new("/usr/bin/chromium");
    let driver = browser_dir().join("node_modules/playwright-core");
    let node = Command::new("node").arg("--version").output();
    if !chromium.exists() || !driver.exists() || !node.is_ok_and(|o| o.status.success()) {
        skip!(
            "skipped: the page needs /usr/bin/chromium (apt chromium), node and \
             tests/browser/node_modules (npm ci in tests/browser)"
        );
        return None;
    }
    let out = Command::new("node")
        .arg(browser_dir().join("report.js"))
        .arg(env.path(page))
        .arg(journey)
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "report.js failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("the report is JSON");
    // nothing the page does may leave the file, log an error or run a name
    for key in ["requests", "console", "pageErrors"] {
        assert_eq!(report[key], Value::Array(vec![]), "{key}: {report}");
    }
    assert_eq!(report["dialogs"], 0, "a name ran as script");
    assert_eq!(report["images"], 0, "a name became an element");
    assert_eq!(report["scripts"], 2, "a name became a script");
    assert_eq!(report["sizedElsewhere"], 0, "data-size outside the treemap");
    assert_eq!(report["undrawnPaths"], 0, "a rectangle without data-path");
    Some(report)
}

pub(crate) fn write_page(env: &TestEnv, args: &[&str]) {
    let out = env.run(args);
    assert!(
        out.status.success(),
        "hogs {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "the page went to the file");
}

/// The top rectangles as (data-path, data-size).
pub(crate) fn rects(view: &Value) -> Vec<(String, u64)> {
    let rects = view["rects"].as_array().expect("rects");
    let mut v: Vec<(String, u64)> = rects
        .iter()
        .map(|r| {
            let path = r["path"].as_str().expect("data-path").to_owned();
            (path, r["size"].as_u64().expect("data-size"))
        })
        .collect();
    v.sort();
    v
}

/// du's children of `dir` with `flags`, as (path, size) like the page's data-path.
pub(crate) fn du_rects(env: &TestEnv, flags: &[&str], dir: &str) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = env
        .du_children(flags, dir)
        .into_iter()
        .filter(|(name, _)| !name.is_empty())
        .map(|(name, size)| (page_path(&format!("{dir}/{name}")), size))
        .collect();
    v.sort();
    v
}

/// A path as the page's `data-path` holds it: escaped as the terminal views escape it, and
/// a backslash of the name itself doubled (so that no two names become one).
pub(crate) fn page_path(path: &str) -> String {
    path.replace('\\', "\\\\")
}

pub(crate) fn strings(v: &Value) -> Vec<String> {
    let items = v.as_array().expect("an array");
    items
        .iter()
        .map(|s| s.as_str().expect("a string").to_owned())
        .collect()
}

/// Each rectangle of a view's area in proportion to its size (within rounding to pixels and
/// the 1-pixel borders: 10% on rectangles of some size).
fn assert_areas_proportional(view: &Value) {
    let rects = view["rects"].as_array().expect("rects");
    let per_byte: Vec<f64> = rects
        .iter()
        .filter(|r| r["area"].as_f64().expect("area") > 2000.0)
        .map(|r| r["area"].as_f64().expect("area") / r["size"].as_f64().expect("size"))
        .collect();
    assert!(per_byte.len() >= 2, "{view}");
    let first = per_byte[0];
    for p in &per_byte {
        assert!(
            (p / first - 1.0).abs() < 0.1,
            "areas out of proportion: {view}"
        );
    }
}

pub(crate) fn tree(env: &TestEnv) {
    env.file("t/a/big.bin", 300_000)
        .file("t/a/b/x.mp4", 100_000)
        .file("t/a/small", 20_000)
        .file("t/c/notes.txt", 150_000)
        .file("t/d/one", 60_000);
    for name in HOSTILE {
        env.file(format!("t/{name}"), 40_000);
    }
}

#[test]
fn html_page_draws_du_sizes_zooms_and_reads_by_keyboard() {
    let env = TestEnv::new();
    tree(&env);
    write_page(&env, &["--html", "page.html", "t"]);
    let journey = r#"{"zoom": "t/a", "sort": true}"#;
    let Some(report) = browser_report(&env, "page.html", journey) else {
        return;
    };
    let first = &report["first"];
    assert_eq!(rects(first), du_rects(&env, &["-B1"], "t"));
    assert_areas_proportional(first);
    assert_eq!(strings(&first["crumbs"]), ["t"]);
    // the table lists the children biggest first, hostile names as text
    let table = strings(&first["table"]);
    // (of one size: by name)
    assert_eq!(table, ["a", "c", "d", HOSTILE[1], HOSTILE[0]]);
    let text = report["text"].as_str().expect("text");
    for name in HOSTILE {
        assert!(text.contains(name), "{name} is not shown as text");
    }
    // a click on something drawn inside a zooms into a: hash, breadcrumb, table, rectangles
    let zoomed = &report["zoomed"];
    assert_eq!(zoomed["hash"], "#t%2Fa");
    assert_eq!(strings(&zoomed["crumbs"]), ["t", "a"]);
    assert_eq!(strings(&zoomed["table"]), ["big.bin", "b", "small"]);
    assert_eq!(rects(zoomed), du_rects(&env, &["-B1"], "t/a"));
    assert_areas_proportional(zoomed);
    // the browser's back button zooms out
    let back = &report["back"];
    assert_eq!(back["hash"], "");
    assert_eq!(strings(&back["crumbs"]), ["t"]);
    assert_eq!(rects(back), rects(first));
    // a click on the Name header sorts by name (in the browser's collation)
    let sorted = strings(&report["sortedByName"]["table"]);
    assert_ne!(sorted, table);
    let at = |n: &str| sorted.iter().position(|s| s == n).expect("listed");
    assert!(at("a") < at("c") && at("c") < at("d"), "{sorted:?}");
    assert_eq!(sorted.len(), table.len());
}

/// The page as a browser opens it, its Content-Security-Policy in force (the other tests bypass
/// it to read the page with page.evaluate): driven by real mouse and keyboard events and read
/// through locators, it still draws du's sizes, zooms on a click and goes up by keyboard; and
/// the policy was in force (the page may not eval).
#[test]
fn html_page_works_with_its_own_policy_in_force() {
    let env = TestEnv::new();
    tree(&env);
    write_page(&env, &["--html", "page.html", "t"]);
    let Some(report) = browser_report(&env, "page.html", r#"{"csp": "t/a"}"#) else {
        return;
    };
    let csp = &report["csp"];
    assert_eq!(
        csp["refused"], "script-src",
        "the policy was not in force: {csp}"
    );
    assert_eq!(csp["evalRan"], false);
    let first = &csp["first"];
    assert_eq!(rects(first), du_rects(&env, &["-B1"], "t"));
    assert_areas_proportional(first);
    assert!(first["nested"].as_u64().expect("nested") > 0, "{first}");
    assert!(
        csp["tip"].as_str().expect("tip").contains("t/a/"),
        "hovering tells what is under the pointer: {csp}"
    );
    let zoomed = &csp["zoomed"];
    assert_eq!(zoomed["hash"], "#t%2Fa");
    assert_eq!(strings(&zoomed["crumbs"]), ["t", "a"]);
    assert_eq!(strings(&zoomed["table"]), ["big.bin", "b", "small"]);
    assert_eq!(rects(zoomed), du_rects(&env, &["-B1"], "t/a"));
    assert_eq!(
        strings(&csp["focused"]),
        ["big.bin"],
        "Tab reaches the table"
    );
    let up = &csp["up"];
    assert_eq!(strings(&up["crumbs"]), ["t"]);
    assert_eq!(rects(up), rects(first));
}

#[test]
fn html_table_works_without_a_mouse() {
    let env = TestEnv::new();
    tree(&env);
    write_page(&env, &["--html", "page.html", "t"]);
    let Some(report) = browser_report(&env, "page.html", r#"{"keys": true}"#) else {
        return;
    };
    let keys = &report["keys"];
    assert_eq!(keys["tabbed"], "a", "Tab reaches the table's first row");
    assert_eq!(keys["down"], "c");
    assert_eq!(keys["end"], HOSTILE[0]);
    assert_eq!(keys["home"], "a");
    assert!(
        keys["tip"].as_str().expect("tip").contains("t/a"),
        "focus tells the row's facts: {keys}"
    );
    // Enter opens the focused directory, focus follows into its table
    assert_eq!(strings(&keys["entered"]["crumbs"]), ["t", "a"]);
    assert_eq!(keys["entered"]["focused"], "big.bin");
    // Backspace goes up
    assert_eq!(strings(&keys["left"]["crumbs"]), ["t"]);
}

#[test]
fn html_sizes_follow_apparent_sizes_and_counts() {
    let env = TestEnv::new();
    tree(&env);
    for (flag, du) in [("-s", "-b"), ("-f", "--inodes")] {
        write_page(&env, &["--html", "page.html", flag, "t"]);
        let Some(report) = browser_report(&env, "page.html", "{}") else {
            return;
        };
        assert_eq!(
            rects(&report["first"]),
            du_rects(&env, &[du], "t"),
            "{flag}"
        );
    }
}

#[test]
fn html_folds_what_a_directory_has_beyond_its_biggest_entries() {
    let env = TestEnv::new();
    env.mkdir("t/many");
    // each under 1/2000 of the directory, and more than the page holds of one directory
    env.bash("cd t/many && for i in $(seq 1 3000); do printf x > f$i; done");
    env.file("t/many/big", 400_000);
    write_page(&env, &["--html", "page.html", "t/many"]);
    let Some(report) = browser_report(&env, "page.html", "{}") else {
        return;
    };
    let first = &report["first"];
    let drawn = first["rects"].as_array().expect("rects");
    let folded: Vec<&Value> = drawn.iter().filter(|r| r["folded"] == true).collect();
    assert_eq!(folded.len(), 1, "one folded entry");
    let sum: u64 = drawn
        .iter()
        .map(|r| r["size"].as_u64().expect("size"))
        .sum();
    let own = crate::util::blocks_bytes(&env.path("t/many"));
    assert_eq!(
        sum + own,
        env.du_disk(&["t/many"]),
        "folded, nothing is lost"
    );
    assert!(drawn.len() <= 1001, "{}", drawn.len());
    assert!(report["text"]
        .as_str()
        .expect("text")
        .contains("smaller entries)"));
}

#[test]
fn html_diff_sizes_what_is_there_and_colours_growth() {
    let env = TestEnv::new();
    tree(&env);
    env.hogs().args(["-O", "old.json", "t"]).assert().success();
    env.file("t/a/new", 80_000);
    env.file("t/c/notes.txt", 250_000);
    std::fs::remove_dir_all(env.path("t/d")).expect("rm t/d");
    write_page(&env, &["--diff", "old.json", "--html", "page.html", "t"]);
    let Some(report) = browser_report(&env, "page.html", "{}") else {
        return;
    };
    let first = &report["first"];
    let mut there = rects(first);
    // what is gone is not drawn (it has no area now), what is there is drawn at du's size
    assert!(there.iter().all(|(p, _)| p != "t/d"), "{there:?}");
    there.sort();
    assert_eq!(there, du_rects(&env, &["-B1"], "t"));
    let text = report["text"].as_str().expect("text");
    for word in ["grown", "gone", "compared with", "was 64Ki"] {
        assert!(text.contains(word), "{word}: {text}");
    }
}

#[test]
fn html_by_owner_colours_by_owner_and_totals_each() {
    if !crate::util::is_root() {
        skip!("skipped: --by-owner's page needs files of another owner (root to chown)");
        return;
    }
    let env = TestEnv::new();
    tree(&env);
    env.bash("chown -R 65534:65534 t/c");
    write_page(&env, &["--by-owner", "--html", "page.html", "t"]);
    let Some(report) = browser_report(&env, "page.html", "{}") else {
        return;
    };
    assert_eq!(rects(&report["first"]), du_rects(&env, &["-B1"], "t"));
    let owners = env.stdout_ok(["--by-owner", "-R", "-o", "b", "t"]);
    let text = report["text"].as_str().expect("text");
    assert!(text.contains("root") && text.contains("nobody"), "{text}");
    let c = env.du_disk(&["t/c"]);
    let owners = String::from_utf8_lossy(&owners);
    assert!(owners.contains(&c.to_string()), "{owners}");
}

#[test]
fn html_page_holds_names_as_data_never_as_markup() {
    let env = TestEnv::new();
    tree(&env);
    let page = env.stdout_ok(["--html", "-", "t"]);
    let page = String::from_utf8(page).expect("UTF-8");
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("default-src 'none'"), "nothing may be loaded");
    assert!(!page.contains("<img"), "a name became markup");
    assert_eq!(page.matches("<script").count(), 2, "a name became a script");
    assert!(page.contains("\\u003cscript\\u003ealert(1)"));
}

#[test]
fn html_that_cannot_be_written_is_an_error_and_leaves_no_file() {
    let env = TestEnv::new();
    tree(&env);
    let out = env.run(["--html", "no/such/dir/page.html", "t"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot write 'no/such/dir/page.html'"),
        "{err}"
    );
    let out = env.run(["--html", "page.html", "-t", "t"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--html does not apply to --file-types"));
    assert!(!env.path("page.html").exists());
}

/// `--extents` on a filesystem without sharing counts what `st_blocks` count (du's sizes), and
/// the header says the sizes are by extents: of a walk, and of an export saved with the mode.
#[test]
fn html_extents_says_what_the_sizes_are() {
    let env = TestEnv::new();
    tree(&env);
    write_page(&env, &["--extents", "--html", "page.html", "t"]);
    let Some(report) = browser_report(&env, "page.html", r#"{"csp": "t/a"}"#) else {
        return;
    };
    let csp = &report["csp"];
    assert_eq!(rects(&csp["first"]), du_rects(&env, &["-B1"], "t"));
    let text = report["text"].as_str().expect("text");
    assert!(text.contains("disk usage by extents"), "{text}");
    let tip = csp["tip"].as_str().expect("tip");
    assert!(tip.contains("exclusive") && tip.contains("shared"), "{tip}");
    // the same scan saved and read back: its sizes as saved, and said to be
    env.hogs()
        .args(["--extents", "-O", "saved.json", "t"])
        .assert()
        .success();
    write_page(&env, &["--import", "saved.json", "--html", "page.html"]);
    let Some(report) = browser_report(&env, "page.html", "{}") else {
        return;
    };
    let base = |v: Vec<(String, u64)>| -> Vec<(String, u64)> {
        let named = v.into_iter().map(|(p, s)| {
            let name = p.rsplit('/').next().unwrap_or_default().to_owned();
            (name, s)
        });
        named.collect()
    };
    // (named by the absolute path the export records)
    let mut saved = base(rects(&report["first"]));
    saved.sort();
    let mut du = base(du_rects(&env, &["-B1"], "t"));
    du.sort();
    assert_eq!(saved, du);
    let text = report["text"].as_str().expect("text");
    assert!(text.contains("disk usage by extents"), "{text}");
    assert!(text.contains("as the saved scan counted them"), "{text}");
}
