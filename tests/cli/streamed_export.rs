//! `hogs -O x.ncdu PATH`: the walk streamed into ncdu 2's binary export, each directory
//! written once its subtree is done. What hogs reads back equals du and the walk itself.

use std::path::Path;

use crate::util::*;

/// Dirs, files, hard links (within a directory and across directories), symlinks, a hidden
/// file and a directory to leave out with -X, and a subdirectory listed among files.
fn linked_tree(env: &TestEnv, d: &str) {
    env.file(format!("{d}/a/f1"), 10_000)
        .file(format!("{d}/a/b/g"), 30_000)
        .file(format!("{d}/a/b/c/deep"), 5_000)
        .file(format!("{d}/top"), 7_000)
        .file(format!("{d}/.hidden"), 9_000)
        .file(format!("{d}/skip/x"), 40_000)
        .file(format!("{d}/z/y"), 1_000)
        .file(format!("{d}/z/w/v"), 2_000);
    for i in 0..40 {
        env.file(format!("{d}/many/f{i}"), 100 * i);
        env.mkdir(format!("{d}/many/sub{i}"));
        env.file(format!("{d}/many/sub{i}/in"), 4_100);
    }
    env.hardlink(format!("{d}/a/b/g"), format!("{d}/a/b/g2"))
        .hardlink(format!("{d}/a/b/g"), format!("{d}/z/g3"))
        .hardlink(format!("{d}/top"), format!("{d}/many/sub7/top2"))
        .hardlink(format!("{d}/many/sub3/in"), format!("{d}/many/in3"))
        .symlink("f1", format!("{d}/a/l"))
        .symlink("/nonexistent", format!("{d}/z/dangling"));
}

fn stderr_lines(out: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn export(env: &TestEnv, args: &[&str]) {
    let mut all = vec!["-O", "x.ncdu"];
    all.extend_from_slice(args);
    env.stdout_ok(&all);
}

/// `hogs --import x.ncdu -d 0 -j FLAG`'s total.
fn imported_total(env: &TestEnv, flag: Option<&str>) -> u64 {
    let mut args = vec!["--import", "x.ncdu", "-d", "0"];
    args.extend(flag);
    env.total(&args)
}

#[test]
fn streamed_export_totals_equal_du() {
    let env = TestEnv::new();
    linked_tree(&env, "d");
    for (hogs, du) in [
        (&[][..], &[][..]),
        (&["-x"][..], &["-x"][..]),
        (&["-X", "skip"][..], &["--exclude=skip"][..]),
        (&["-i"][..], &["--exclude=.*"][..]),
    ] {
        let mut args = hogs.to_vec();
        args.push("d");
        export(&env, &args);
        let du_of = |flag: &str| {
            let mut a = vec![flag];
            a.extend_from_slice(du);
            env.du_total(&a, &["d"])
        };
        assert_eq!(imported_total(&env, None), du_of("-B1"), "disk, {hogs:?}");
        assert_eq!(
            imported_total(&env, Some("-s")),
            du_of("-b"),
            "apparent, {hogs:?}"
        );
        assert_eq!(
            imported_total(&env, Some("-f")),
            du_of("--inodes"),
            "inodes, {hogs:?}"
        );
    }
}

/// With -L a directory reached twice (a symlink to it, a loop) is walked and counted once.
#[test]
fn streamed_export_follows_links_once() {
    let env = TestEnv::new();
    env.file("e/sub/x", 20_000)
        .file("e/other/y", 3_000)
        .symlink("sub", "e/again")
        .symlink("..", "e/sub/up")
        .symlink("../sub", "e/other/sub2");
    export(&env, &["-L", "e"]);
    for (flag, du) in [(None, "-B1"), (Some("-s"), "-b"), (Some("-f"), "--inodes")] {
        let want = env.du_total(&["-L", du], &["e"]);
        assert_eq!(imported_total(&env, flag), want, "-L, du {du}");
    }
}

/// The import of a streamed export is the walk: every directory's sizes, the name of each
/// hard link that counts (the one du counts), kinds and times (`--export-extended`).
#[test]
fn streamed_export_imports_as_the_walk() {
    let env = TestEnv::new();
    linked_tree(&env, "d");
    let root = env.root().canonicalize().expect("canonical root").join("d");
    let root = root.to_str().expect("a UTF-8 temporary path");
    for threads in ["1", "2", "4"] {
        export(
            &env,
            &["--export-extended", "-T", threads, "-X", "skip", root],
        );
        let walked = env.json(["-n", "1000", "-X", "skip", root]);
        let imported = env.json(["-n", "1000", "--import", "x.ncdu"]);
        assert_eq!(imported, walked, "-T {threads}");
    }
}

/// A file hard-linked in two directories counts, in the totals the export stores, at the
/// name du counts (the first of a depth-first walk in directory order), whichever name the
/// walk's threads met first (with `-T 1` the walk's stack meets `d` before `a`): a view read
/// on demand, which shows the stored totals, shows what the walk and du show.
#[test]
fn streamed_export_counts_a_hard_link_at_the_name_du_counts() {
    let env = TestEnv::new();
    env.file("t/a/1", 40_000)
        .file("t/d/x", 3_000)
        .hardlink("t/a/1", "t/d/link1");
    let root = env.root().canonicalize().expect("canonical root").join("t");
    let root = root.to_str().expect("a UTF-8 temporary path");
    let du: Vec<(String, u64)> = env.du_children(&["-B1"], root);
    assert!(du.contains(&("a".to_owned(), 45_056)), "{du:?}");
    for threads in ["1", "2"] {
        export(&env, &["-T", threads, root]);
        let walked = env.stdout_ok(["-b", "-d", "1", root]);
        let out = env
            .hogs()
            .env("HOGS_DEBUG_IMPORT", "1")
            .args(["-b", "-d", "1", "--import", "x.ncdu"])
            .output()
            .expect("run hogs");
        assert!(out.status.success(), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("read on demand"), "-T {threads}: {stderr}");
        let (imported, walked) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&walked),
        );
        assert_eq!(imported, walked, "-T {threads}");
        assert!(walked.contains("44Ki"), "{walked}");
        let leftovers: Vec<_> = std::fs::read_dir(env.root())
            .expect("list the test's directory")
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains("unfinished"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
}

/// A directory large enough that its entries are stat'ed in batches by several threads:
/// every batch is written, in the order listed.
#[test]
fn streamed_export_of_a_huge_directory() {
    let env = TestEnv::new_in_memory();
    env.bash("mkdir h && cd h && touch $(seq 1 3000) && for i in $(seq 1 30); do mkdir s$i; echo x > s$i/f; done");
    env.file("h/big", 9_000);
    for i in 0..10 {
        env.hardlink("h/big", format!("h/link{i}"));
    }
    env.bash("cd h && touch $(seq 3001 6000)");
    let root = env.root().canonicalize().expect("canonical root").join("h");
    let root = root.to_str().expect("a UTF-8 temporary path");
    for threads in ["1", "2"] {
        export(&env, &["-T", threads, root]);
        let walked = env.json(["-n", "10000", root]);
        let imported = env.json(["-n", "10000", "--import", "x.ncdu"]);
        assert_eq!(imported, walked, "-T {threads}");
    }
}

/// An unreadable directory: the one-line error, exit status 1, and the export still whole:
/// it reads back as du counts as the same user.
#[test]
fn streamed_export_of_an_unreadable_directory() {
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    linked_tree(&env, "d");
    env.file("d/locked/secret", 50_000);
    env.chmod("d/locked", 0o000);
    env.mkdir("out").chmod("out", 0o777);
    let out = env.run_unprivileged(["-O", "out/x.ncdu", "--export-extended", "d"]);
    assert_eq!(out.status.code(), Some(1), "exit status");
    assert_eq!(
        stderr_lines(&out),
        ["hogs: cannot read directory 'd/locked': Permission denied"]
    );
    // the import says again what could not be read, and exits 1 for it
    let read = env.run(["-j", "--import", "out/x.ncdu", "-n", "1000"]);
    assert_eq!(
        read.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&read.stderr)
    );
    let mut v: serde_json::Value = serde_json::from_slice(&read.stdout).expect("JSON");
    let walk = env.run_unprivileged(["-j", "-n", "1000", "d"]);
    let mut walked: serde_json::Value = serde_json::from_slice(&walk.stdout).expect("JSON");
    own_names(&mut v);
    own_names(&mut walked);
    assert_eq!(
        v["children"], walked["children"],
        "the import is the walk, as the same user"
    );
    let du = env.du_unprivileged(&["-sB1", "d"]);
    assert_eq!(
        size(&v),
        parse_du(&du.stdout)[0].0,
        "total vs du as the same user"
    );
    let locked = find_node(&v, "locked").expect("d/locked is in the export");
    assert_eq!(size(locked), blocks_bytes(&env.path("d/locked")));
}

/// The export is written to a temporary file and renamed over the target once complete:
/// a walk that cannot start leaves the old file as it was, and no temporary file.
#[test]
fn streamed_export_replaces_the_file_only_when_complete() {
    let env = TestEnv::new();
    linked_tree(&env, "d");
    export(&env, &["d"]);
    let before = std::fs::read(env.path("x.ncdu")).expect("the first export");
    let out = env.run(["-O", "x.ncdu", "d/top"]);
    assert_eq!(out.status.code(), Some(1), "a file is no export's root");
    assert_eq!(
        std::fs::read(env.path("x.ncdu")).expect("still there"),
        before
    );
    let leftovers: Vec<_> = std::fs::read_dir(env.root())
        .expect("list the root")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("unfinished"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    assert!(Path::new(&env.path("x.ncdu")).exists());
}

/// Peak RSS in KiB of `hogs ARGS` run in `env` (GNU time).
fn peak_rss_kb(env: &TestEnv, args: &[&str]) -> u64 {
    let out = std::process::Command::new("/usr/bin/time")
        .args(["-f", "maxrss_kb=%M"])
        .arg(hogs_bin())
        .args(args)
        .current_dir(env.root())
        .output()
        .expect("run hogs under time");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .find_map(|l| l.strip_prefix("maxrss_kb=")?.trim().parse().ok())
        .expect("GNU time's maxrss line")
}

/// Memory follows the directories being walked, not the tree: 200,000 entries more cost
/// the streamed export less than a tree of them would (about 35 bytes an entry, 7 MiB).
#[test]
fn streamed_export_memory_does_not_grow_with_the_tree() {
    if !Path::new("/usr/bin/time").exists() {
        skip!("skipped: /usr/bin/time (GNU time) is not available to measure peak memory");
        return;
    }
    let env = TestEnv::new_in_memory();
    env.bash("mkdir small big && cd small && touch $(seq 1 1000)");
    env.bash(
        "cd big && for i in $(seq 1 200); do mkdir d$i; (cd d$i && touch $(seq 1 1000)); done",
    );
    let small = peak_rss_kb(&env, &["-T", "2", "-O", "s.ncdu", "small"]);
    let big = peak_rss_kb(&env, &["-T", "2", "-O", "b.ncdu", "big"]);
    assert!(
        big < small + 3 * 1024,
        "peak RSS {big} KiB for 200,000 entries, {small} KiB for 1,000"
    );
    assert_eq!(
        imported_total(env_import(&env, "b.ncdu"), Some("-f")),
        200_201
    );
}

/// `env` with `x.ncdu` the export `file` (for [`imported_total`]).
fn env_import<'e>(env: &'e TestEnv, file: &str) -> &'e TestEnv {
    std::fs::rename(env.path(file), env.path("x.ncdu")).expect("rename the export");
    env
}
