//! Issue 24: `alias dust=hogs` and nothing breaks. Each test runs BOTH binaries — the real
//! dust (from PATH, or ~/.cargo/bin/dust) and hogs — on the same tree built in a temporary
//! directory, and compares what they print: rows, labels and numbers. Sizes are du-exact in
//! hogs (hard links once, `-f` counts directories too): the trees compared here have no hard
//! links, and `-f` is compared on files only, so every other difference is a bug.
//!
//! Without dust the tests say so and skip (`skip!`, a failure under CI=true: `.ci/run`
//! installs dust).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

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

/// Run dust with these arguments in the root of `env`; stdout (any exit status: dust exits 0
/// on most errors).
fn dust(env: &TestEnv, bin: &PathBuf, args: &[&str]) -> Vec<u8> {
    Command::new(bin)
        .args(args)
        .current_dir(env.root())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("XDG_CONFIG_HOME", env.root().join("no-such-config-dir"))
        .env("HOME", env.root().join("no-such-home"))
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
    bin: &PathBuf,
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
