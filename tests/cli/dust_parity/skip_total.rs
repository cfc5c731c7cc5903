//! Issue 24: `--skip-total` draws what dust draws, byte for byte. dust lays the rows out as
//! with the total (its name and size in the columns' widths, the rows chosen as they would
//! be) and leaves the top row out: several paths are the children of the hidden "(total)",
//! joined by its guides, and one path's children are the tops below the hidden path.

use std::path::Path;

use super::{dust, dust_bin, hogs};
use crate::util::*;

/// `t/` with three directories of distinct apparent sizes (sparse files, compared with `-s`):
/// `big` five levels deep (every shade of the bars), `mid` two, `one` a single file; a `.gz`
/// for the colours and `-t`, and an empty file.
fn skip_tree(env: &TestEnv) {
    for (rel, len) in [
        ("t/big/x/y/z/deep", 400_000u64),
        ("t/big/x/y/w", 90_000),
        ("t/big/x/v", 70_000),
        ("t/big/u", 50_000),
        ("t/big/k.gz", 33_000),
        ("t/mid/m1", 120_000),
        ("t/mid/sub/m2", 60_000),
        ("t/mid/sub/m3", 21_000),
        ("t/mid/empty", 0),
        ("t/one/only", 5_000),
    ] {
        if let Some(parent) = Path::new(rel).parent() {
            env.mkdir(parent);
        }
        env.sparse(rel, len);
    }
}

/// dust's stdout with these arguments and this `LS_COLORS`.
fn dust_colored(env: &TestEnv, bin: &Path, args: &[&str], ls_colors: &str) -> Vec<u8> {
    super::dust_command(env, bin, args)
        .env("LS_COLORS", ls_colors)
        .output()
        .expect("run dust")
        .stdout
}

/// hogs's stdout with these arguments and this `LS_COLORS`.
fn hogs_colored(env: &TestEnv, args: &[&str], ls_colors: &str) -> Vec<u8> {
    env.hogs()
        .args(args)
        .env("LS_COLORS", ls_colors)
        .output()
        .expect("run hogs")
        .stdout
}

/// Several paths, one path with children, and one path whose children are directories: the
/// tree, `-r`, `-n`, `-d`, `-B`, `-b`, `-p`, `-R`, `-F`, `-t` at 41, 60 and 100 columns, and
/// with colours, each the same bytes as dust's.
#[test]
fn skip_total_draws_as_dust() {
    let Some(bin) = dust_bin() else { return };
    let env = TestEnv::new();
    skip_tree(&env);
    let path_sets: [&[&str]; 3] = [&["t/big", "t/mid", "t/one"], &["t/big"], &["t"]];
    let flag_sets: [&[&str]; 13] = [
        &[],
        &["-r"],
        &["-n", "5"],
        &["-n", "0"],
        &["-d", "0"],
        &["-d", "2"],
        &["-B"],
        &["-b"],
        &["-R"],
        &["-F"],
        &["-t"],
        &["-r", "-B", "-n", "7"],
        &["-r", "-F", "-d", "3"],
    ];
    for width in ["41", "60", "100"] {
        for flags in flag_sets {
            for paths in path_sets {
                let args = [&["-s", "-c", "--skip-total", "-w", width], flags, paths].concat();
                let ours = String::from_utf8_lossy(&hogs(&env, &args)).into_owned();
                let theirs = String::from_utf8_lossy(&dust(&env, &bin, &args)).into_owned();
                assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
            }
        }
    }
    // full paths are long: at 41 columns the name column is too narrow for them with or
    // without the total, where hogs keeps a wider bar than dust
    for width in ["60", "100"] {
        for paths in path_sets {
            let args = [&["-s", "-c", "--skip-total", "-p", "-w", width], paths].concat();
            let ours = String::from_utf8_lossy(&hogs(&env, &args)).into_owned();
            let theirs = String::from_utf8_lossy(&dust(&env, &bin, &args)).into_owned();
            assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
        }
    }
    let colors = "di=1;34:fi=0:*.gz=31";
    for flags in [
        &["-C"][..],
        &["-C", "-r"],
        &["-C", "-b"],
        &["-C", "-n", "6"],
    ] {
        for paths in path_sets {
            let args = [&["-s", "--skip-total", "-w", "60"], flags, paths].concat();
            let theirs = dust_colored(&env, &bin, &args, colors);
            assert!(theirs.contains(&0x1b), "dust {args:?} wrote no colour");
            let ours = String::from_utf8_lossy(&hogs_colored(&env, &args, colors)).into_owned();
            let theirs = String::from_utf8_lossy(&theirs).into_owned();
            assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
        }
    }
    // what the comparisons are about: the paths are siblings below a hidden total
    let out = hogs(
        &env,
        &["-s", "-c", "--skip-total", "-w", "60", "t/big", "t/mid"],
    );
    let text = String::from_utf8_lossy(&out);
    let last = text.lines().last().unwrap_or_default();
    assert!(last.contains(" ├─┴ big "), "{text}");
    assert!(!text.contains("(total)"), "{text}");
}
