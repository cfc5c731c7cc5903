//! Issue 24: `-m`'s rows are laid out as dust lays them out (display.rs with `by_filetime`):
//! the date in 19 columns, then the guides with no blank before the name (`┌─┴u`), the names
//! padded to one width where dust would have drawn bars (it draws none for times), cut with
//! `..` where they do not fit. Byte for byte, at several widths, for the three times.

use super::both::run_both;
use crate::util::*;

/// `t/u/a` (an empty directory), `t/v/f`, a long name two levels down, and a second path
/// `w`; then every directory read once, so that reading them again (dust, then hogs) moves no
/// access time: relatime moves it on the first read after a change only.
fn dated_tree(env: &TestEnv) {
    env.mkdir("t/u/a");
    env.file("t/v/f", 3);
    env.file(
        "t/v/a_rather_long_file_name_for_the_narrow_widths.txt",
        5000,
    );
    env.file("w/g", 10);
    env.bash(
        "touch -m -d '2024-01-02 03:04:05' t/u/a t/v/f && \
         touch -a -d '2023-05-06 07:08:09' t/v/f w/g && \
         touch -d '2022-02-03 04:05:06' t/v/a_rather_long_file_name_for_the_narrow_widths.txt && \
         ls -R . > /dev/null",
    );
}

/// Each time, at widths where names are padded, left whole, and cut, with the flags that
/// change the rows: what dust prints.
#[test]
fn filetime_rows_are_laid_out_as_dusts() {
    let Some(bin) = super::dust_bin() else { return };
    let env = TestEnv::new();
    dated_tree(&env);
    let flag_sets: [&[&str]; 11] = [
        &[],
        &["-r"],
        &["-p"],
        &["-b"],
        &["-d", "1"],
        &["-n", "3"],
        &["--skip-total"],
        &["-F"],
        &["-t"],
        &["-D"],
        &["-R"],
    ];
    let path_sets: [&[&str]; 2] = [&["t"], &["t", "w"]];
    for time in ["m", "a", "c"] {
        for w in ["45", "60", "80", "110"] {
            for flags in flag_sets {
                for paths in path_sets {
                    let args = [&["-c", "-w", w, "-m", time], flags, paths].concat();
                    let Some((ours, theirs)) = run_both(&env, &bin, &args, &[]) else {
                        panic!("dust {args:?} panicked");
                    };
                    assert!(!theirs.is_empty(), "dust {args:?} printed nothing");
                    assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
                }
            }
        }
    }
}

/// With colours: the newest of each set of siblings red, a name's padding inside its
/// colour, as dust writes them.
#[test]
fn filetime_rows_keep_dusts_colours() {
    let Some(bin) = super::dust_bin() else { return };
    let env = TestEnv::new();
    dated_tree(&env);
    let colours = [("LS_COLORS", "di=1;34:fi=0:*.txt=31")];
    for args in [
        &["-C", "-w", "110", "-m", "m", "t"][..],
        &["-C", "-w", "45", "-m", "m", "-r", "t", "w"],
        &["-C", "-w", "80", "-m", "a", "-b", "t"],
    ] {
        let Some((ours, theirs)) = run_both(&env, &bin, args, &colours) else {
            panic!("dust {args:?} panicked");
        };
        assert!(theirs.contains('\x1b'), "dust {args:?} wrote no colour");
        assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
    }
}
