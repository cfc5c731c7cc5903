//! Cases 17–19: what is counted.

use crate::util::*;

/// Case 17: a file with links in several directories and several arguments counts once per
/// (dev, ino), in every mode and whatever the order of the arguments.
#[test]
fn hard_links_every_mode_and_argument_order() {
    let env = TestEnv::new();
    env.file("a/f", 120_000);
    env.file("a/g", 33_000);
    env.mkdir("b/deep/er");
    env.mkdir("c");
    env.hardlink("a/f", "b/f1");
    env.hardlink("a/f", "b/deep/er/f2");
    env.hardlink("a/g", "c/g1");
    env.hardlink("a/f", "c/f3");
    env.file("c/own", 9_000);
    let orders: &[&[&str]] = &[
        &["a", "b", "c"],
        &["c", "b", "a"],
        &["b", "c/f3", "a", "c"],
        &["a/f", "b/f1", "c"],
    ];
    for paths in orders {
        for (flag, du_flags) in [("-P", "-B1"), ("-s", "-b"), ("-f", "--inodes")] {
            let mut args = vec![flag];
            args.extend_from_slice(paths);
            assert_eq!(
                env.total(&args),
                env.du_total(&[du_flags], paths),
                "hogs -j {args:?} vs du -sc {du_flags} {paths:?}"
            );
        }
    }
}

/// Case 18: an 8 GiB sparse file: exactly 8589934592 apparent bytes, next to nothing on disk.
#[test]
fn sparse_8gib_exact() {
    let env = TestEnv::new();
    env.mkdir("d");
    env.sparse("d/huge", 8 << 30);
    let v = env.json(["-s", "d/huge"]);
    assert_eq!(size(&v), 8_589_934_592, "apparent size of the sparse file");
    assert_eq!(size(&v), env.du_apparent(&["d/huge"]), "vs du -sb");
    let disk = env.total(["d/huge"]);
    assert_eq!(disk, env.du_disk(&["d/huge"]), "vs du -sB1");
    assert!(disk < 1 << 20, "a sparse file uses next to nothing: {disk}");
    let out = env.stdout_ok(["-s", "-o", "b", "-d", "0", "d"]);
    assert!(
        String::from_utf8_lossy(&out).contains("8589938688")
            || String::from_utf8_lossy(&out).contains(&env.du_apparent(&["d"]).to_string()),
        "exact bytes in the text view: {}",
        String::from_utf8_lossy(&out)
    );
}

/// Case 19: -d limits what is printed, never what is counted.
#[test]
fn depth_limits_printing_not_counting() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.file("d/x/y/z/w/deep-file", 250_000);
    let full = env.total(["d"]);
    assert_eq!(full, env.du_disk(&["d"]));
    for depth in ["0", "1", "2", "3"] {
        let v = env.json(["-d", depth, "d"]);
        assert_eq!(size(&v), full, "-d {depth}: total");
        let sum: u64 = children(&v).iter().map(size).sum();
        if depth != "0" {
            let x = child(&v, "x");
            assert_eq!(size(x), env.du_disk(&["d/x"]), "-d {depth}: d/x total");
            assert!(sum <= full, "-d {depth}");
        } else {
            assert!(children(&v).is_empty(), "-d 0 prints the root only: {v}");
        }
    }
}

/// Case 19: `-z N` keeps entries bigger than N: exactly N is hidden, as dust hides it (dust
/// keeps `size > N`; this test said "included" until dust was compared side by side).
#[test]
fn min_size_boundary_excluded() {
    let env = TestEnv::new();
    env.mkdir("d");
    env.bash("cd d && head -c 5000 /dev/zero > five && head -c 4999 /dev/zero > less && head -c 5001 /dev/zero > more");
    let v = env.json(["-s", "-z", "5000", "d"]);
    let names: Vec<&str> = children(&v).iter().map(name).collect();
    assert!(!names.contains(&"five"), "exactly -z is hidden: {names:?}");
    assert!(names.contains(&"more"), "{names:?}");
    assert!(!names.contains(&"less"), "below -z is hidden: {names:?}");
    assert_eq!(
        size(&v),
        env.du_apparent(&["d"]),
        "-z hides, never uncounts"
    );
    let out = env.stdout_ok(["-s", "-z", "5000", "-b", "d"]);
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains("more") && !text.contains("five") && !text.contains("less"),
        "{text}"
    );
}
