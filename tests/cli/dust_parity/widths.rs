//! Issue 24: the tree fits the width as dust fits it (display.rs): the names take what they
//! need and the bars the rest; where a bar of one cell no longer fits, there are no bars and
//! the names are cut to the width with `..`. Every width from one where dust panics to a wide
//! one, on names long enough to be cut, byte for byte.

use super::both::run_both;
use crate::util::*;

/// Names of every length to depth four, wide characters among them, and sizes that differ.
fn long_names_tree(env: &TestEnv) {
    for (rel, len) in [
        ("t/short", 100_000),
        ("t/a_directory_with_a_rather_long_name/f", 70_000),
        (
            "t/a_directory_with_a_rather_long_name/another_quite_long_file_name.txt",
            30_000,
        ),
        ("t/b/c/d/a_file_four_levels_down_with_a_long_name", 50_000),
        ("t/b/c/d/x", 9_000),
        ("t/日本語のディレクトリ/ファイル名.txt", 20_000),
        ("t/m", 1),
    ] {
        env.file(rel, len);
    }
}

/// At every width from 20 to 110 columns, with and without bars, in both orders, with full
/// paths and the other views: what dust prints wherever it prints anything.
#[test]
fn names_and_bars_fit_the_width_as_dusts() {
    let Some(bin) = super::dust_bin() else { return };
    let env = TestEnv::new();
    long_names_tree(&env);
    let flag_sets: [&[&str]; 9] = [
        &[],
        &["-r"],
        &["-b"],
        &["-p"],
        &["-B", "-d", "2"],
        &["--skip-total"],
        &["-F"],
        &["-t"],
        &["-s", "-n", "4"],
    ];
    let mut compared = 0;
    for width in 20..=110 {
        let w = width.to_string();
        for flags in flag_sets {
            let args = [&["-c", "-w", w.as_str()], flags, &["t"]].concat();
            let Some((ours, theirs)) = run_both(&env, &bin, &args, &[]) else {
                continue;
            };
            assert!(!theirs.is_empty(), "dust {args:?} printed nothing");
            assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
            compared += 1;
        }
    }
    // most of them: dust only panics in the narrowest
    assert!(compared > 700, "{compared} runs compared");
}

/// With colours, a name cut with `..` or padded is inside its colour, as dust writes it.
#[test]
fn cut_and_padded_names_keep_dusts_colours() {
    let Some(bin) = super::dust_bin() else { return };
    let env = TestEnv::new();
    long_names_tree(&env);
    let colours = [("LS_COLORS", "di=1;34:fi=0:*.txt=31")];
    for w in ["40", "55", "70", "90"] {
        for flags in [&[][..], &["-r"], &["-b"]] {
            let args = [&["-C", "-w", w], flags, &["t"]].concat();
            let Some((ours, theirs)) = run_both(&env, &bin, &args, &colours) else {
                panic!("dust {args:?} panicked");
            };
            assert!(theirs.contains('\x1b'), "dust {args:?} wrote no colour");
            assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
        }
    }
}
