//! Issue 24: what dust leaves out of its rows, hogs leaves out: `-z N` keeps what is bigger
//! than N (an entry of exactly N is hidden: filter.rs keeps `size > min_size`), and `-x`
//! leaves a mount point out altogether (dust's walk never takes it in; hogs showed it as a
//! `0B` row).

use super::both::run_both;
use crate::util::*;

/// `-z` at the sizes of the files themselves, on disk and apparent, in the tree, `-F`, `-j`.
#[test]
fn min_size_keeps_what_is_bigger_as_dusts() {
    let Some(bin) = super::dust_bin() else { return };
    let env = TestEnv::new();
    env.file("d/a/f4096", 4096)
        .file("d/a/f5000", 5000)
        .file("d/b/f8192", 8192);
    env.file("d/b/g8000", 8000).file("d/one", 1).empty("d/zero");
    for z in ["0", "1", "4096", "4K", "5000", "8K", "8000", "12K", "16K"] {
        for flags in [&[][..], &["-s"], &["-F"], &["-s", "-F"], &["-D"]] {
            let args = [&["-c", "-w", "80", "-z", z], flags, &["d"]].concat();
            let Some((ours, theirs)) = run_both(&env, &bin, &args, &[]) else {
                panic!("dust {args:?} panicked");
            };
            assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
        }
    }
    let json = |out: String| serde_json::from_str::<serde_json::Value>(&out).ok();
    let Some((ours, theirs)) = run_both(&env, &bin, &["-j", "-s", "-z", "5000", "d"], &[]) else {
        panic!("dust -j panicked");
    };
    let (ours, theirs) = (json(ours), json(theirs));
    let names = |v: &Option<serde_json::Value>| {
        let mut out = Vec::new();
        let mut stack: Vec<&serde_json::Value> = v.iter().collect();
        while let Some(n) = stack.pop() {
            out.push(n["name"].as_str().unwrap_or("?").to_owned());
            stack.extend(children(n));
        }
        out.sort();
        out
    };
    assert!(theirs.is_some(), "dust -j printed no JSON");
    assert_eq!(names(&ours), names(&theirs));
}

/// `-x` with a filesystem mounted inside the tree: no row for the mount point.
#[test]
fn one_filesystem_shows_no_mount_point_as_dust() {
    let Some(bin) = super::dust_bin() else { return };
    let env = TestEnv::new();
    env.file("d/f", 5000).mkdir("d/mnt").file("d/sub/g", 9000);
    let Some(_mounted) = mount_tmpfs(&env.path("d/mnt")) else {
        return;
    };
    env.file("d/mnt/inside", 3000);
    for flags in [&[][..], &["-F"], &["-D"], &["-R"], &["-r", "-p"]] {
        let args = [&["-x", "-c", "-w", "80"], flags, &["d"]].concat();
        let Some((ours, theirs)) = run_both(&env, &bin, &args, &[]) else {
            panic!("dust {args:?} panicked");
        };
        assert!(
            !theirs.contains("mnt"),
            "dust {args:?} showed the mount point"
        );
        assert_eq!(ours, theirs, "hogs {args:?} (left) vs dust (right)");
    }
}
