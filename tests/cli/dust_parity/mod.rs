//! Issue 24: `alias dust=hogs` and nothing breaks. Each test runs BOTH binaries — the real
//! dust (from PATH, or ~/.cargo/bin/dust) and hogs — on the same tree built in a temporary
//! directory, and compares what they print: rows, labels and numbers. Sizes are du-exact in
//! hogs (hard links once, `-f` counts directories too): the trees compared here have no hard
//! links, and `-f` is compared on files only, so every other difference is a bug.
//!
//! Without dust the tests say so and skip (`skip!`, a failure under CI=true: `.ci/run`
//! installs dust).

mod both;
mod filetime;
mod hidden;
mod only_files;
mod rows;
mod skip_total;
mod ties;
mod widths;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::*;

/// Where the real dust is: `dust` on PATH, else ~/.cargo/bin/dust. `None` (after saying so)
/// when there is none.
fn dust_bin() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("dust"))
            .find(|p| p.is_file())
    });
    let found = on_path.or_else(|| {
        let home = std::env::var_os("HOME")?;
        let p = PathBuf::from(home).join(".cargo/bin/dust");
        p.is_file().then_some(p)
    });
    if found.is_none() {
        skip!("skipped: dust is not installed (cargo install --locked du-dust@1.2.7)");
    }
    found
}

/// dust with these arguments in the root of `env`, with no config file and no colour
/// setting of the caller's.
fn dust_command(env: &TestEnv, bin: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(bin);
    cmd.args(args)
        .current_dir(env.root())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("XDG_CONFIG_HOME", env.root().join("no-such-config-dir"))
        .env("HOME", env.root().join("no-such-home"));
    cmd
}

/// Run dust with these arguments in the root of `env`; stdout (any exit status: dust exits 0
/// on most errors).
fn dust(env: &TestEnv, bin: &Path, args: &[&str]) -> Vec<u8> {
    dust_command(env, bin, args)
        .output()
        .expect("run dust")
        .stdout
}

/// The same for hogs (stdout, any exit status).
fn hogs(env: &TestEnv, args: &[&str]) -> Vec<u8> {
    env.run(args).stdout
}

/// `-R` rows (`name depth size percent`) keyed by name: the size column of each name.
fn sizes_by_name(out: &[u8]) -> BTreeMap<String, String> {
    String::from_utf8_lossy(out)
        .lines()
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            (cols.len() >= 4).then(|| (cols[0].to_owned(), cols[cols.len() - 2].to_owned()))
        })
        .collect()
}

/// Both tools' `-R` size columns, with these arguments.
fn both_sizes(
    env: &TestEnv,
    bin: &Path,
    args: &[&str],
) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let mut all = vec!["-R", "-c", "-n", "999"];
    all.extend_from_slice(args);
    (
        sizes_by_name(&dust(env, bin, &all)),
        sizes_by_name(&hogs(env, &all)),
    )
}

/// Files whose apparent sizes sit on every edge of dust's formatter.
fn edge_sizes_tree(env: &TestEnv) {
    env.mkdir("d");
    for n in [
        0u64, 1, 999, 1000, 1023, 1024, 1536, 5000, 9_999, 10_188, 10_189, 10_239, 10_240, 102_400,
        999_999, 1_000_000, 1_047_000, 1_048_575, 12_046_336,
    ] {
        env.sparse(format!("d/s{n}"), n);
    }
}

/// Item 7: every `-o` and the default units print what dust prints, file by file.
#[test]
fn output_formats_match_dust() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    edge_sizes_tree(&env);
    for o in [
        None,
        Some("si"),
        Some("b"),
        Some("k"),
        Some("m"),
        Some("g"),
        Some("t"),
        Some("kb"),
        Some("mb"),
        Some("gb"),
        Some("tb"),
    ] {
        let mut args = vec!["-s"];
        if let Some(o) = o {
            args.extend(["-o", o]);
        }
        args.push("d");
        let (theirs, ours) = both_sizes(&env, &bin, &args);
        assert!(theirs.len() > 10, "dust {args:?} printed rows: {theirs:?}");
        assert_eq!(ours, theirs, "hogs vs dust {args:?}");
    }
}

/// Item 7: `-f` prints the exact count with thousands separators (files only: hogs counts
/// directories too, as `du --inodes`, so the tree is one directory of 1234 files and the
/// directory row is compared less one).
#[test]
fn file_counts_match_dust() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    env.mkdir("d/many");
    env.bash("for i in $(seq 1 1234); do : > d/many/f$i; done");
    let (theirs, ours) = both_sizes(&env, &bin, &["-f", "-d", "1", "d"]);
    assert_eq!(
        theirs.get("many").map(String::as_str),
        Some("1,234"),
        "{theirs:?}"
    );
    assert_eq!(
        ours.get("many").map(String::as_str),
        Some("1,235"),
        "{ours:?}"
    );
    let (theirs, ours) = both_sizes(&env, &bin, &["-f", "-o", "b", "-d", "1", "d"]);
    assert_eq!(
        ours.get("many"),
        Some(&"1,235".to_owned()),
        "-o b does not apply to counts"
    );
    assert_eq!(theirs.get("many"), Some(&"1,234".to_owned()), "{theirs:?}");
}

/// A JSON tree reduced to dust's keys (`size`, `name`, `children`), children sorted by name
/// (ties of size may come in another order).
fn dust_keys(v: &Value) -> Value {
    let mut kids: Vec<Value> = children(v).iter().map(dust_keys).collect();
    kids.sort_by(|a, b| full_name(a).cmp(full_name(b)));
    serde_json::json!({ "size": v["size"], "name": v["name"], "children": kids })
}

/// Parse one JSON document.
fn parse(out: &[u8], who: &str) -> Value {
    serde_json::from_slice(out).unwrap_or_else(|e| {
        panic!(
            "{who}: not one JSON document ({e}): {}",
            String::from_utf8_lossy(out)
        )
    })
}

/// A tree with files of several sizes two levels down, an empty file and an empty directory.
fn json_tree(env: &TestEnv) {
    env.file("t/a/f1", 5000);
    env.file("t/a/b/f2", 20_000);
    env.file("t/c/big", 1_200_000);
    env.file("t/c/mid", 70_000);
    env.file("u/x", 3000);
    env.mkdir("t/emptyd");
    env.empty("t/empty");
}

/// Item 1: `-j` is a superset of dust's: reduced to dust's keys, hogs's document is dust's,
/// for one path, several paths, `-d`, `-s`, `-o`, and paths written in other ways.
#[test]
fn json_is_a_superset_of_dusts() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    json_tree(&env);
    let cases: &[&[&str]] = &[
        &["t"],
        &["t/"],
        &["./t"],
        &["t//a"],
        &["t/a", "t/c"],
        &["t", "u"],
        &["-d", "1", "t"],
        &["-d", "1", "t", "u"],
        &["-s", "t"],
        &["-o", "b", "t"],
        &["-o", "kb", "t"],
        &["-o", "si", "-s", "t"],
    ];
    for args in cases {
        let mut all = vec!["-j"];
        all.extend_from_slice(args);
        let theirs = dust_keys(&parse(&dust(&env, &bin, &all), "dust"));
        let v = parse(&hogs(&env, &all), "hogs");
        assert_eq!(dust_keys(&v), theirs, "hogs vs dust {all:?}");
    }
}

/// Item 1: `-j -f`: the same names as dust and, for files, the same `size` strings (dust
/// counts files only, hogs every inode as `du --inodes`, so directories are left out).
#[test]
fn json_file_counts_are_dusts_for_files() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    json_tree(&env);
    fn files(v: &Value, out: &mut Vec<(String, String)>) {
        if children(v).is_empty() && full_name(v) != "t/emptyd" {
            out.push((
                full_name(v).to_owned(),
                v["size"].as_str().unwrap_or("?").to_owned(),
            ));
        }
        for c in children(v) {
            files(c, out);
        }
    }
    let (mut theirs, mut ours) = (Vec::new(), Vec::new());
    files(
        &parse(&dust(&env, &bin, &["-j", "-f", "t"]), "dust"),
        &mut theirs,
    );
    files(&parse(&hogs(&env, &["-j", "-f", "t"]), "hogs"), &mut ours);
    theirs.sort();
    ours.sort();
    assert!(!theirs.is_empty());
    assert_eq!(ours, theirs);
}

/// Item 1: hogs's own numbers stay, under their own names, and agree with du; a path that is
/// not UTF-8 keeps every byte in `name_bytes`.
#[test]
fn json_keeps_hogs_numbers_and_raw_names() {
    let env = TestEnv::new();
    json_tree(&env);
    env.file(path_bytes(b"t/bad-\xff"), 10);
    let v = env.json(["t"]);
    assert_eq!(field_u64(&v, "disk_bytes"), env.du_disk(&["t"]));
    assert_eq!(field_u64(&v, "apparent_bytes"), env.du_apparent(&["t"]));
    assert_eq!(field_u64(&v, "entries"), env.du_inodes(&["t"]));
    assert_eq!(field_u64(&v, "value"), env.du_disk(&["t"]));
    assert_eq!(v["type"], "dir");
    assert_eq!(v["size"], crate::util::iec(env.du_disk(&["t"])).as_str());
    let bad = children(&v)
        .iter()
        .find(|c| full_name(c).starts_with("t/bad-"))
        .unwrap_or_else(|| panic!("no t/bad- in {v}"));
    let raw: Vec<u8> = bad["name_bytes"]
        .as_array()
        .unwrap_or_else(|| panic!("no name_bytes in {bad}"))
        .iter()
        .map(|b| b.as_u64().unwrap_or(999) as u8)
        .collect();
    assert_eq!(raw, b"t/bad-\xff");
    let s = env.json(["-s", "t"]);
    assert_eq!(field_u64(&s, "value"), env.du_apparent(&["t"]));
    let f = env.json(["-f", "t"]);
    assert_eq!(field_u64(&f, "value"), env.du_inodes(&["t"]));
    assert_eq!(f["size"], env.du_inodes(&["t"]).to_string().as_str());
}

/// `-R` rows of both tools, sorted (ties of size may come in another order).
fn both_rows(env: &TestEnv, bin: &Path, args: &[&str]) -> (Vec<String>, Vec<String>) {
    let mut all = vec!["-R", "-c", "-n", "999"];
    all.extend_from_slice(args);
    let rows = |out: Vec<u8>| {
        let mut v: Vec<String> = String::from_utf8_lossy(&out)
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        v.sort();
        v
    };
    (rows(dust(env, bin, &all)), rows(hogs(env, &all)))
}

/// A tree for the filters: files that match and do not, empty files, an empty directory, a
/// directory whose own name matches, and old files (ten days) next to new ones.
fn filter_tree(env: &TestEnv) {
    env.file("g/d1/a.gz", 5000);
    env.file("g/d1/sub/b.txt", 9000);
    env.file("g/d2/c.txt", 3000);
    env.file("g/logs.gz/inner.txt", 7000);
    env.file("g/old/ancient.txt", 6000);
    env.file("g/old/ancient.gz", 2000);
    env.mkdir("g/emptyd");
    env.empty("g/d1/z.txt");
    env.empty("g/d2/zero.gz");
    env.bash("touch -d '10 days ago' g/old/ancient.txt g/old/ancient.gz");
}

/// Item 8: the filters count what dust counts — directories keep their own blocks unless
/// their own path is rejected — and show what dust shows: empty files stay, directories left
/// with nothing go (with -e/-v), nothing is hidden for the time filters.
#[test]
fn filters_count_and_show_what_dust_does() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    filter_tree(&env);
    let cases: &[&[&str]] = &[
        &["-v", r"\.gz$", "g"],
        &["-e", r"\.gz$", "g"],
        &["-e", "txt", "g"],
        &["-e", "d1", "g"],
        &["-e", "gz", "-e", "d2", "g"],
        &["-M", "+3", "g"],
        &["-M", "-3", "g"],
        &["-A", "-3", "g"],
        &["-v", r"\.gz$", "-o", "b", "-d", "0", "g"],
    ];
    for args in cases {
        let (theirs, ours) = both_rows(&env, &bin, args);
        assert!(!theirs.is_empty(), "dust {args:?} printed nothing");
        assert_eq!(ours, theirs, "hogs vs dust {args:?}");
    }
}

/// Files whose times sit around the local midnights of `tz` (set with touch(1) in that
/// zone), in `d/` and `d/sub/`.
fn dated_tree(env: &TestEnv, tz: &str) {
    env.mkdir("d/sub");
    let stamps = [
        "today 00:00:01",
        "yesterday 23:59:59",
        "yesterday 12:00",
        "yesterday 00:00:00",
        "2 days ago 00:00",
        "3 days ago 12:00",
        "4 days ago 23:00",
        "40 days ago 12:00",
    ];
    for (i, t) in stamps.iter().enumerate() {
        let name = t.replace([' ', ':'], "_");
        let dir = if i % 2 == 0 { "d" } else { "d/sub" };
        env.file(format!("{dir}/{name}"), 100 + i as u64 * 5000);
        env.bash(&format!(
            "TZ={tz} touch -m -d '{t}' '{dir}/{name}' && TZ={tz} touch -a -d '{t}' '{dir}/{name}'"
        ));
    }
    env.bash(&format!("TZ={tz} touch -m -d '5 days ago 08:00' d/sub"));
}

/// Both tools under the time zone `tz`: their `-R` rows, sorted.
fn both_rows_in(env: &TestEnv, bin: &Path, tz: &str, args: &[&str]) -> (Vec<String>, Vec<String>) {
    let mut all = vec!["-R", "-c", "-n", "999"];
    all.extend_from_slice(args);
    let rows = |out: Vec<u8>| {
        let mut v: Vec<String> = String::from_utf8_lossy(&out)
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        v.sort();
        v
    };
    let run = |program: &std::path::Path| {
        Command::new(program)
            .args(&all)
            .current_dir(env.root())
            .env("TZ", tz)
            .env("XDG_CONFIG_HOME", env.root().join("no-such-config-dir"))
            .env("HOME", env.root().join("no-such-home"))
            .output()
            .expect("run")
            .stdout
    };
    (rows(run(bin)), rows(run(&hogs_bin())))
}

/// Item 9: -M/-A/-y count calendar days back from local midnight (`-M 0` is yesterday), and
/// -m writes local dates with a directory's time the newest of its own and its entries', in
/// three zones.
#[test]
fn time_filters_and_dates_follow_dust_in_local_time() {
    let Some(bin) = dust_bin() else { return };
    for tz in ["UTC", "Asia/Tokyo", "America/New_York"] {
        let env = TestEnv::new();
        dated_tree(&env, tz);
        for args in [
            &["-M", "0", "d"][..],
            &["-M", "-0", "d"],
            &["-M", "1", "d"],
            &["-M", "+0", "d"],
            &["-M", "+1", "d"],
            &["-M", "-2", "d"],
            &["-M", "3", "d"],
            &["-M", "+30", "d"],
            &["-A", "0", "d"],
            &["-A", "+2", "d"],
            &["-y", "-0", "d"],
            &["-y", "0", "d"],
            &["-m", "m", "d"],
            &["-m", "a", "-d", "1", "d"],
        ] {
            let (theirs, ours) = both_rows_in(&env, &bin, tz, args);
            assert!(!theirs.is_empty(), "dust {args:?} printed nothing");
            assert_eq!(ours, theirs, "TZ={tz}: hogs vs dust {args:?}");
        }
    }
}

/// Item 11: a second name of a hard-linked file is not a row (dust hides it; hogs showed a
/// `0B` row). Which of the two names is kept depends on the directory order, so rows are
/// compared without names.
#[test]
fn hard_link_second_names_are_not_rows() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    env.file("d/one", 9000);
    env.hardlink("d/one", "d/two");
    env.file("d/other", 3000);
    let unnamed = |rows: Vec<String>| {
        let mut v: Vec<String> = rows
            .iter()
            .map(|r| r.split(' ').skip(1).collect::<Vec<_>>().join(" "))
            .collect();
        v.sort();
        v
    };
    let (theirs, ours) = both_rows(&env, &bin, &["d"]);
    assert_eq!(theirs.len(), 3, "{theirs:?}");
    assert_eq!(unnamed(ours), unnamed(theirs));
    let v = env.json(["d"]);
    assert_eq!(
        children(&v).len(),
        2,
        "no JSON node for the second name either: {v}"
    );
}

/// Item 11: with -C the size of the biggest of each set of siblings is red, its padding
/// inside the colour, and a name's padding is inside its colour: byte for byte dust's
/// (without bars, whose widths differ).
#[test]
fn colours_are_dusts() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    json_tree(&env);
    for args in [
        &["-C", "-b", "t"][..],
        &["-C", "-b", "-d", "1", "t", "u"],
        &["-C", "-b", "-r", "t"],
    ] {
        let theirs = Command::new(bin.as_path())
            .args(args)
            .current_dir(env.root())
            .env("LS_COLORS", "di=1;34:fi=0:*.gz=31")
            .env("HOME", env.root().join("no-such-home"))
            .output()
            .expect("run dust")
            .stdout;
        let ours = env
            .hogs()
            .args(args)
            .env("LS_COLORS", "di=1;34:fi=0:*.gz=31")
            .output()
            .expect("run hogs")
            .stdout;
        assert!(theirs.contains(&0x1b), "dust {args:?} wrote no colour");
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs),
            "hogs vs dust {args:?}"
        );
    }
}

/// Item 11: -B fills the bars from the right, as its help now says (and as dust's -B).
#[test]
fn bars_on_right_fill_from_the_right_as_the_help_says() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    json_tree(&env);
    // the bar of t/a (a small share): where its block is
    let bar_of = |out: &[u8]| -> String {
        let text = String::from_utf8_lossy(out).into_owned();
        let line = text
            .lines()
            .find(|l| l.contains(" a "))
            .unwrap_or_else(|| panic!("no row a in {text}"))
            .to_owned();
        line.split('│').nth(1).unwrap_or("").trim_end().to_owned()
    };
    let ours = bar_of(&hogs(&env, &["-B", "-c", "-d", "1", "-w", "60", "t"]));
    let theirs = bar_of(&dust(&env, &bin, &["-B", "-c", "-d", "1", "-w", "60", "t"]));
    assert!(
        theirs.starts_with(' ') && theirs.ends_with('█'),
        "dust: {theirs:?}"
    );
    assert!(
        ours.starts_with(' ') && ours.ends_with('█'),
        "hogs: {ours:?}"
    );
    let help = String::from_utf8_lossy(&hogs(&env, &["--help"])).into_owned();
    let b = help
        .lines()
        .skip_while(|l| !l.contains("--bars-on-right"))
        .take(2)
        .collect::<String>();
    assert!(
        b.contains("Fill the bars from the right") && !b.contains("from the left (toward"),
        "-B's help says what -B does: {b:?}"
    );
}

/// Item 11: an empty argument is skipped as dust skips it: the same rows, exit 0 (hogs says
/// so in a warning).
#[test]
fn an_empty_argument_is_skipped() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    json_tree(&env);
    let (theirs, ours) = both_rows(&env, &bin, &["-d", "0", "", "t"]);
    assert_eq!(ours, theirs);
    let out = env.run(["-d", "0", "", "t"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: warning: skipped a zero-length file name\n"
    );
}
