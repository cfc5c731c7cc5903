//! Sizes: every number is compared with GNU du.

use std::os::unix::fs::MetadataExt;

use crate::util::*;

/// hogs's `-d 1 -j` children (and root) against `du -a --max-depth=1`.
fn assert_children_match(env: &TestEnv, hogs_flags: &[&str], du_flags: &[&str], path: &str) {
    let mut args: Vec<&str> = vec!["-d", "1"];
    args.extend_from_slice(hogs_flags);
    args.push(path);
    let v = env.json(&args);
    let mut got = child_sizes(&v);
    got.push((String::new(), size(&v)));
    got.sort();
    let mut want = env.du_children(du_flags, path);
    want.sort();
    assert_eq!(
        got, want,
        "hogs -j {args:?} (left, root keyed \"\") vs du -a --max-depth=1 {du_flags:?} {path} (right)"
    );
}

#[test]
fn mixed_tree_totals() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let v = env.json(["d"]);
    let disk = env.du_disk(&["d"]);
    let apparent = env.du_apparent(&["d"]);
    assert_eq!(size(&v), disk, "default size vs du -sB1 d");
    assert_eq!(field_u64(&v, "disk_bytes"), disk, "disk_bytes vs du -sB1 d");
    assert_eq!(
        field_u64(&v, "apparent_bytes"),
        apparent,
        "apparent_bytes vs du -sb d"
    );
    assert_eq!(env.total(["-s", "d"]), apparent, "-s vs du -sb d");
    assert_eq!(
        env.total(["-f", "d"]),
        env.du_inodes(&["d"]),
        "-f vs du -s --inodes d"
    );
    assert!(disk > 3 * 1024 * 1024, "sanity: the tree holds > 3 MiB");
    // one file system: -x changes nothing
    assert_eq!(
        env.total(["-x", "-P", "d"]),
        env.du_total(&["-x", "-B1"], &["d"]),
        "-x vs du -sxB1 d"
    );
}

#[test]
fn mixed_tree_per_child() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    assert_children_match(&env, &[], &["-B1"], "d");
    assert_children_match(&env, &["-s"], &["-b"], "d");
    assert_children_match(&env, &["-f"], &["--inodes"], "d");
    // one level further down
    assert_children_match(&env, &[], &["-B1"], "d/a");
}

#[test]
fn default_path_is_dot() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let v = env.json(Vec::<&str>::new());
    assert_eq!(name(&v), ".", "root name of `hogs -j`");
    assert_eq!(size(&v), env.du_disk(&["."]), "hogs -j vs du -sB1 .");
}

#[test]
fn single_file_argument() {
    let env = TestEnv::new();
    env.file("f", 12_345);
    let v = env.json(["f"]);
    assert_eq!(name(&v), "f");
    assert_eq!(v["type"], "file", "type of a file root: {v}");
    assert!(children(&v).is_empty(), "a file has no children: {v}");
    assert_eq!(size(&v), env.du_disk(&["f"]), "hogs -j f vs du -sB1 f");
    assert_eq!(env.total(["-s", "f"]), 12_345);
}

#[test]
fn hard_links_within_a_dir() {
    let env = TestEnv::new();
    env.file("d/f", 100_000);
    env.hardlink("d/f", "d/f2");
    env.hardlink("d/f", "d/f3");
    env.file("d/g", 5000);
    assert_eq!(env.total(["d"]), env.du_disk(&["d"]), "disk vs du -sB1 d");
    assert_eq!(
        env.total(["-s", "d"]),
        env.du_apparent(&["d"]),
        "-s vs du -sb d"
    );
    assert_eq!(
        env.total(["-f", "d"]),
        env.du_inodes(&["d"]),
        "-f vs du -s --inodes d"
    );
}

/// The children that count something, and the root keyed "", sorted: what `du -a
/// --max-depth=1` lists, which leaves out the names of an inode it already counted (so does
/// hogs, as dust).
fn counted_children(v: &serde_json::Value) -> Vec<(String, u64)> {
    let mut got: Vec<(String, u64)> = child_sizes(v).into_iter().filter(|(_, n)| *n > 0).collect();
    got.push((String::new(), size(v)));
    got.sort();
    got
}

/// -f builds a directory's first 1024 nodes as its names are read, the rest (and, from 1024
/// on, all of them in the tree itself) after the listing: a directory past that size mixes
/// both, with subdirectories and hard links among either part.
#[test]
fn count_mode_on_a_directory_past_1024_entries() {
    let env = TestEnv::new();
    env.bash(
        "mkdir -p d/big d/out && cd d/big && for i in $(seq 1 1500); do echo x > f$i; done \
         && for i in $(seq 1 200); do mkdir s$i && echo y > s$i/g && ln f$i s$i/link; done \
         && for i in $(seq 1 50); do ln f$((i * 7)) ../out/l$i; done",
    );
    assert_eq!(
        env.total(["-f", "d"]),
        env.du_inodes(&["d"]),
        "-f vs du -s --inodes d"
    );
    assert_children_match(&env, &["-f"], &["--inodes"], "d");
    let v = env.json(["-d", "1", "-f", "d/big"]);
    let got = counted_children(&v);
    let mut want = env.du_children(&["--inodes"], "d/big");
    want.sort();
    assert_eq!(got.len(), want.len(), "counted children of d/big vs du -a");
    assert_eq!(
        got, want,
        "hogs -f -d 1 d/big (left) vs du -a --inodes (right)"
    );
    // 1500 f* and 200 s*: the f* whose inode an s*/link took first are not shown (as dust)
    let shown = children(&v).len();
    assert!(
        shown < 1700,
        "some f* lose their inode to an s*/link met first: {shown} rows"
    );
}

/// -f past 8,192 entries in one directory has another thread fault in the memory the listing,
/// the tree and the hard-link log grow into, while other directories add their nodes to the
/// tree: nothing of theirs or of the big directory may change. (The hard links go between
/// the two directories, never between two names in the big one: du reads a directory of more
/// than 10,000 entries in inode order, so which of two names there counts is its own choice.)
#[test]
fn count_mode_on_a_directory_past_8192_entries_beside_many_small_ones() {
    let env = TestEnv::new();
    env.bash(
        "mkdir -p d/big d/many && cd d/many \
         && for i in $(seq 1 400); do mkdir m$i && echo z > m$i/a && echo z > m$i/b; done \
         && cd ../big && seq 1 20000 | sed 's/^/f/' | xargs touch \
         && for i in $(seq 1 300); do mkdir s$i && echo y > s$i/g && ln ../many/m$i/a s$i/l; done \
         && for i in $(seq 1 30); do ln f$((i * 13)) ../many/m$i/c; done",
    );
    // one thread reads the huge directory into room made at once and faulted in ahead
    let v = env.json(["-T", "1", "-d", "1", "d/big"]);
    let mut got = child_sizes(&v);
    got.push((String::new(), size(&v)));
    got.sort();
    let mut want = env.du_children(&["-B1"], "d/big");
    want.sort();
    assert_eq!(
        got.len(),
        20000 + 300 + 1,
        "-T 1: counted children of d/big"
    );
    assert_eq!(
        got, want,
        "hogs -T 1 -d 1 d/big (left) vs du -a -B1 (right)"
    );
    for threads in ["1", "2", "4"] {
        assert_eq!(
            env.total(["-T", threads, "-f", "d"]),
            env.du_inodes(&["d"]),
            "-T {threads} -f vs du -s --inodes d"
        );
        for dir in ["d/big", "d/many"] {
            let got = counted_children(&env.json(["-T", threads, "-d", "1", "-f", dir]));
            let mut want = env.du_children(&["--inodes"], dir);
            want.sort();
            assert_eq!(got.len(), want.len(), "counted children of {dir} vs du -a");
            assert_eq!(
                got, want,
                "hogs -T {threads} -f -d 1 {dir} (left) vs du -a --inodes (right)"
            );
        }
    }
}

/// A directory past 1,024 entries has its stats made in batches on other threads, and each
/// batch made nodes where it was stat'ed: subdirectories, hard links and sizes must come out
/// as du has them, child by child, however the batches fell.
#[test]
fn a_directory_stated_in_batches_matches_du() {
    let env = TestEnv::new();
    env.bash(
        "mkdir -p d/big && cd d/big \
         && for i in $(seq 1 3000); do printf '%*s' $((i * 37 % 9000 + 1)) '' > f$i; done \
         && for i in $(seq 1 300); do mkdir s$i && printf '%*s' $((i * 101)) '' > s$i/g; done \
         && for i in $(seq 1 100); do ln f$((i * 29)) h$i; done",
    );
    for (flags, du_flags) in [(&[][..], &["-B1"][..]), (&["-s"][..], &["-b"][..])] {
        let mut args = vec!["-T", "4", "-d", "1"];
        args.extend_from_slice(flags);
        args.push("d/big");
        let got = counted_children(&env.json(&args));
        let mut want = env.du_children(du_flags, "d/big");
        want.sort();
        assert_eq!(got.len(), 3000 + 300 + 1, "{args:?}: counted children");
        assert_eq!(
            got, want,
            "hogs {args:?} (left) vs du -a {du_flags:?} (right)"
        );
    }
}

#[test]
fn hard_links_across_dirs() {
    let env = TestEnv::new();
    env.file("d/a/f", 300_000);
    env.file("d/a/other", 7000);
    env.mkdir("d/b");
    env.hardlink("d/a/f", "d/b/link");
    env.file("d/b/own", 9000);
    let total_disk = env.du_disk(&["d"]);
    let v = env.json(["-d", "1", "d"]);
    assert_eq!(size(&v), total_disk, "total vs du -sB1 d");
    assert_eq!(
        env.total(["-s", "d"]),
        env.du_apparent(&["d"]),
        "-s vs du -sb d"
    );
    assert_eq!(
        env.total(["-f", "d"]),
        env.du_inodes(&["d"]),
        "-f vs du -s --inodes d"
    );

    // The linked file's blocks belong to exactly one of a and b.
    let fb = blocks_bytes(&env.path("d/a/f"));
    let (da, db) = (env.du_disk(&["d/a"]), env.du_disk(&["d/b"]));
    let (ha, hb) = (size(child(&v, "a")), size(child(&v, "b")));
    assert!(
        (ha, hb) == (da, db - fb) || (ha, hb) == (da - fb, db),
        "children a={ha} b={hb}: expected ({da}, {}) or ({}, {db})",
        db - fb,
        da - fb
    );
    // children plus the root directory's own blocks make the total
    let own = blocks_bytes(&env.path("d"));
    let sum: u64 = children(&v).iter().map(size).sum();
    assert_eq!(sum + own, total_disk, "sum of children + d's own blocks");
}

#[test]
fn hard_links_across_arguments() {
    let env = TestEnv::new();
    env.file("a/f1", 200_000);
    env.file("a/f2", 50_000);
    env.mkdir("b");
    env.hardlink("a/f1", "b/l1");
    env.hardlink("a/f2", "b/l2");
    env.file("b/own", 3000);
    let v = env.json(["a", "b"]);
    assert_eq!(name(&v), "(total)", "root of several paths");
    assert_eq!(size(&v), env.du_disk(&["a", "b"]), "total vs du -scB1 a b");
    let sum: u64 = children(&v).iter().map(size).sum();
    assert_eq!(sum, size(&v), "children of (total) add up to the total");
    assert_eq!(
        env.total(["-s", "a", "b"]),
        env.du_apparent(&["a", "b"]),
        "-s total vs du -scb a b"
    );
    assert_eq!(
        env.total(["-f", "a", "b"]),
        env.du_inodes(&["a", "b"]),
        "-f total vs du -sc --inodes a b"
    );
}

#[test]
fn overlapping_arguments() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    assert_eq!(
        env.total(["d", "d/a", "d"]),
        env.du_disk(&["d"]),
        "hogs -j d d/a d vs du -sB1 d"
    );
    assert_eq!(
        env.total(["d", "d/a/b"]),
        env.du_disk(&["d"]),
        "hogs -j d d/a/b vs du -sB1 d"
    );
    assert_eq!(
        env.total(["d/a/b", "d"]),
        env.du_disk(&["d"]),
        "hogs -j d/a/b d vs du -sB1 d"
    );
    assert_eq!(
        env.total(["-s", "d", "d/a", "d"]),
        env.du_apparent(&["d"]),
        "hogs -s -j d d/a d vs du -sb d"
    );
    assert_eq!(
        env.total(["-f", "d", "d/a", "d"]),
        env.du_inodes(&["d"]),
        "hogs -f -j d d/a d vs du -s --inodes d"
    );
}

#[test]
fn several_paths_json_root() {
    let env = TestEnv::new();
    env.file("small/x", 1000);
    env.file("big/y", 500_000);
    let v = env.json(["small", "big"]);
    assert_eq!(name(&v), "(total)");
    assert_eq!(v["type"], "dir", "(total) type: {v}");
    let names: Vec<&str> = children(&v).iter().map(name).collect();
    // Every JSON level lists children biggest first, the synthetic root too.
    assert_eq!(names, ["big", "small"], "children of (total) by size");
    assert_eq!(size(child(&v, "small")), env.du_disk(&["small"]));
    assert_eq!(size(child(&v, "big")), env.du_disk(&["big"]));
    assert_eq!(size(&v), env.du_disk(&["small", "big"]));
}

#[test]
fn sparse_file() {
    let env = TestEnv::new();
    env.mkdir("d");
    env.sparse("d/sparse", 1 << 30);
    env.file("d/real", 10_000);
    let apparent = env.du_apparent(&["d"]);
    let disk = env.du_disk(&["d"]);
    assert!(apparent >= 1 << 30, "sanity: du -sb d = {apparent}");
    assert!(disk < 1 << 20, "sanity: du -sB1 d = {disk}");
    assert_eq!(env.total(["-s", "d"]), apparent, "-s vs du -sb d");
    assert_eq!(env.total(["d"]), disk, "default vs du -sB1 d");
    let v = env.json(["d"]);
    assert_eq!(field_u64(&v, "apparent_bytes"), apparent);
    assert_eq!(field_u64(&v, "disk_bytes"), disk);
}

#[test]
fn symlinks_not_followed() {
    let env = TestEnv::new();
    env.file("d/target", 40_000);
    env.file("outside/big", 1_000_000);
    env.symlink("does-not-exist", "d/dangling");
    env.symlink(".", "d/loop");
    env.symlink("../outside", "d/todir");
    env.symlink("target", "d/tofile");
    env.symlink("a-very-long-target-name-".repeat(10), "d/longtarget");
    assert_eq!(env.total(["d"]), env.du_disk(&["d"]), "vs du -sB1 d");
    assert_eq!(
        env.total(["-s", "d"]),
        env.du_apparent(&["d"]),
        "-s vs du -sb d"
    );
    assert_eq!(
        env.total(["-f", "d"]),
        env.du_inodes(&["d"]),
        "-f vs du -s --inodes d"
    );
    let v = env.json(["d"]);
    for l in ["dangling", "loop", "todir", "tofile", "longtarget"] {
        let c = child(&v, l);
        assert_eq!(c["type"], "symlink", "type of {l}: {c}");
        assert!(children(c).is_empty(), "a symlink has no children: {c}");
    }
}

#[test]
fn dereference_with_loop_finishes() {
    let env = TestEnv::new();
    env.file("d/f", 10_000);
    env.file("d/sub/g", 20_000);
    env.symlink(".", "d/loop");
    env.symlink("..", "d/sub/up");
    let out = env.run(["-L", "-j", "d"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "hogs -L -j d with a loop; stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    // Every real directory is counted once: at least what du counts without -L.
    assert!(
        size(&v) >= env.du_disk(&["d"]),
        "hogs -L total {} < du -sB1 d",
        size(&v)
    );
}

#[test]
fn dereference_outside_dir() {
    let env = TestEnv::new();
    env.file("d/f", 10_000);
    env.file("outside/big", 700_000);
    env.file("outside/sub/x", 30_000);
    env.symlink("../outside", "d/todir");
    env.symlink("f", "d/tofile");
    let want = env.du_total(&["-L", "-B1"], &["d"]);
    assert_eq!(env.total(["-L", "d"]), want, "hogs -L -j d vs du -sLB1 d");
    let v = env.json(["-L", "d"]);
    assert_eq!(
        child(&v, "todir")["type"],
        "dir",
        "-L: link to dir is a dir"
    );
}

#[test]
fn fifo_is_other() {
    let env = TestEnv::new();
    env.file("d/f", 5000);
    env.fifo("d/pipe");
    assert_eq!(env.total(["d"]), env.du_disk(&["d"]));
    assert_eq!(env.total(["-f", "d"]), env.du_inodes(&["d"]));
    let v = env.json(["d"]);
    assert_eq!(child(&v, "pipe")["type"], "other", "{v}");
}

#[test]
fn non_utf8_names() {
    let env = TestEnv::new();
    env.mkdir("d");
    let bad = b"bad\xffname";
    std::fs::write(env.path("d").join(path_bytes(bad)), vec![7u8; 50_000]).expect("write");
    let bad_dir = b"dir\xfe\xfd";
    let dir = env.path("d").join(path_bytes(bad_dir));
    std::fs::create_dir(&dir).expect("mkdir");
    std::fs::write(dir.join("inner"), vec![1u8; 20_000]).expect("write");

    assert_eq!(env.total(["d"]), env.du_disk(&["d"]), "vs du -sB1 d");
    assert_eq!(
        env.total(["-s", "d"]),
        env.du_apparent(&["d"]),
        "vs du -sb d"
    );
    assert_eq!(
        env.total(["-f", "d"]),
        env.du_inodes(&["d"]),
        "vs du --inodes"
    );

    let v = env.json(["d"]);
    for raw in [&bad[..], &bad_dir[..]] {
        let lossy = String::from_utf8_lossy(raw).into_owned();
        let c = children(&v)
            .iter()
            .find(|c| basename(name(c)) == lossy)
            .unwrap_or_else(|| panic!("no child named {lossy:?} in {v}"));
        let nb: Vec<u64> = c
            .get("name_bytes")
            .and_then(|x| x.as_array())
            .unwrap_or_else(|| panic!("no name_bytes array in {c}"))
            .iter()
            .map(|x| x.as_u64().expect("name_bytes holds numbers"))
            .collect();
        let want: Vec<u64> = raw.iter().map(|&b| u64::from(b)).collect();
        // name_bytes holds the raw bytes of the name (possibly of the whole shown path)
        assert!(
            nb.ends_with(&want),
            "name_bytes {nb:?} does not hold the raw bytes {want:?}"
        );
    }
    // the text view does not fail on such names either
    let out = env.stdout_ok(["d"]);
    assert!(!out.is_empty());
}

#[test]
fn ignore_directory_anywhere() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.file("d/a/b/c/skipme/big", 500_000); // depth 4 entry
    env.file("d/a/skipme/x", 80_000); // depth 2
    env.file("d/skipme/y", 60_000); // top
    env.file("d/a/b/notskipme/z", 40_000);
    env.file("d/a/b/notskipme/skipme", 45_000); // a file with that name, depth 4
    let want = env.du_total(&["-B1", "--exclude=skipme"], &["d"]);
    let v = env.json(["-X", "skipme", "d"]);
    assert_eq!(
        size(&v),
        want,
        "hogs -X skipme -j d vs du -sB1 --exclude=skipme d"
    );
    let mut names = Vec::new();
    all_names(&v, &mut names);
    assert!(
        !names.iter().any(|n| basename(n) == "skipme"),
        "an excluded entry is shown: {names:?}"
    );
    assert_eq!(
        env.total(["-f", "-X", "skipme", "d"]),
        env.du_total(&["--inodes", "--exclude=skipme"], &["d"]),
        "-f -X skipme vs du --inodes --exclude=skipme"
    );
    // repeatable
    assert_eq!(
        env.total(["-X", "skipme", "-X", "c", "d"]),
        env.du_total(&["-B1", "--exclude=skipme", "--exclude=c"], &["d"]),
        "-X skipme -X c"
    );
}

#[test]
fn ignore_hidden() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.file("d/.hidden", 30_000);
    env.file("d/.hdir/inner", 70_000);
    env.file("d/a/.h2", 9000);
    env.file("d/a/b/c/.deep/x", 123_456);
    env.file("d/a/vis.ible", 1234);
    let want = env.du_total(&["-B1", "--exclude=.*"], &["d"]);
    assert_eq!(
        env.total(["-i", "d"]),
        want,
        "hogs -i -j d vs du -sB1 --exclude='.*' d"
    );
    assert_eq!(
        env.total(["-f", "-i", "d"]),
        env.du_total(&["--inodes", "--exclude=.*"], &["d"]),
        "hogs -f -i vs du --inodes --exclude='.*'"
    );
}

/// Sum over non-directory entries (hard links not expected here) whose path matches `keep`.
/// What a filter counts, as dust: the files AND the directories (`root` included) whose path
/// relative to the test's root passes `keep` (a rejected directory's contents are judged on
/// their own).
fn sum_entries(env: &TestEnv, root: &str, apparent: bool, keep: impl Fn(&str) -> bool) -> u64 {
    let top = std::fs::symlink_metadata(env.path(root)).expect("lstat root");
    walk(&env.path(root))
        .into_iter()
        .map(|(p, md)| {
            let rel = p
                .strip_prefix(env.root())
                .expect("below the root")
                .to_owned();
            (rel.to_string_lossy().into_owned(), md)
        })
        .chain(std::iter::once((root.to_owned(), top)))
        .filter(|(p, _)| keep(p))
        .map(|(_, md)| {
            if apparent {
                md.size()
            } else {
                md.blocks() * 512
            }
        })
        .sum()
}

fn filter_tree(env: &TestEnv) {
    mixed_tree(env, "d");
    env.file("d/app.log", 150_000);
    env.file("d/a/b/c/deep.log", 90_000);
    env.file("d/a/x.log.txt", 40_000);
    env.file("d/a/upper.LOG", 60_000);
    env.file("d/z/notes.txt", 25_000);
    env.file("d/logdir.d/plain", 33_000);
}

#[test]
fn filter_regex() {
    let env = TestEnv::new();
    filter_tree(&env);
    let want = sum_entries(&env, "d", false, |p| p.ends_with(".log"));
    assert!(want > 0);
    assert_eq!(
        env.total(["-e", r"\.log$", "d"]),
        want,
        r"hogs -e '\.log$' -j d"
    );
    let want_s = sum_entries(&env, "d", true, |p| p.ends_with(".log"));
    assert_eq!(
        env.total(["-s", "-e", r"\.log$", "d"]),
        want_s,
        r"-s -e '\.log$'"
    );
    // repeatable: any may match
    let want2 = sum_entries(&env, "d", false, |p| {
        p.ends_with(".log") || p.ends_with(".txt")
    });
    assert_eq!(
        env.total(["-e", r"\.log$", "-e", r"\.txt$", "d"]),
        want2,
        r"-e '\.log$' -e '\.txt$'"
    );
    // the regex sees the full path, not only the name
    let want3 = sum_entries(&env, "d", false, |p| p.contains("/a/b/"));
    assert_eq!(env.total(["-e", "/a/b/", "d"]), want3, "-e /a/b/");
}

#[test]
fn invert_filter_regex() {
    let env = TestEnv::new();
    filter_tree(&env);
    let want = sum_entries(&env, "d", false, |p| !p.ends_with(".log"));
    assert_eq!(
        env.total(["-v", r"\.log$", "d"]),
        want,
        r"hogs -v '\.log$' -j d"
    );
    let want_s = sum_entries(&env, "d", true, |p| !p.ends_with(".log"));
    assert_eq!(
        env.total(["-s", "-v", r"\.log$", "d"]),
        want_s,
        r"-s -v '\.log$'"
    );
    let want2 = sum_entries(&env, "d", false, |p| {
        !p.ends_with(".log") && !p.ends_with(".txt")
    });
    assert_eq!(
        env.total(["-v", r"\.log$", "-v", r"\.txt$", "d"]),
        want2,
        r"-v '\.log$' -v '\.txt$'"
    );
}

#[test]
fn ignore_hidden_with_dot_root() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.file("d/.hidden", 30_000);
    env.file("d/a/.h2/x", 9000);
    // the root "." is not a hidden entry
    let out = env
        .hogs()
        .current_dir(env.path("d"))
        .args(["-i", "-j", "."])
        .output()
        .expect("run hogs");
    assert_eq!(out.status.code(), Some(0), "hogs -i -j . (in d)");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        size(&v),
        env.du_total(&["-B1", "--exclude=.*"], &["d"]),
        "hogs -i -j . (in d) vs du -sB1 --exclude='.*' d"
    );
}

#[test]
fn filter_with_filecount() {
    let env = TestEnv::new();
    filter_tree(&env);
    let logs = walk(&env.path("d"))
        .iter()
        .filter(|(p, md)| !md.is_dir() && p.to_string_lossy().ends_with(".log"))
        .count() as u64;
    assert_eq!(logs, 2, "sanity");
    assert_eq!(
        env.total(["-f", "-e", r"\.log$", "d"]),
        logs,
        r"hogs -f -e '\.log$' -j d: only matching files are counted"
    );
    let others = walk(&env.path("d"))
        .iter()
        .filter(|(p, _)| !p.to_string_lossy().ends_with(".log"))
        .count() as u64;
    assert_eq!(
        env.total(["-f", "-v", r"\.log$", "d"]),
        others + 1,
        r"hogs -f -v '\.log$' -j d: the directories that pass count (d too), as du --inodes"
    );
}

#[test]
fn non_utf8_root_argument() {
    let env = TestEnv::new();
    let raw = b"root\xff";
    let dir = env.path(path_bytes(raw));
    std::fs::create_dir(&dir).expect("mkdir");
    std::fs::write(dir.join("f"), vec![3u8; 30_000]).expect("write");
    let out = env
        .hogs()
        .arg("-j")
        .arg(os(raw))
        .output()
        .expect("run hogs");
    assert_eq!(out.status.code(), Some(0), "hogs -j $'root\\xff'");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(name(&v), "root\u{fffd}", "lossy root name");
    let nb: Vec<u64> = v["name_bytes"]
        .as_array()
        .unwrap_or_else(|| panic!("no name_bytes in the root: {v}"))
        .iter()
        .map(|x| x.as_u64().expect("number"))
        .collect();
    assert_eq!(nb, raw.iter().map(|&b| u64::from(b)).collect::<Vec<_>>());
    let du = std::process::Command::new("du")
        .arg("-sB1")
        .arg(os(raw))
        .current_dir(env.root())
        .output()
        .expect("run du");
    assert_eq!(
        size(&v),
        parse_du(&du.stdout)[0].0,
        "vs du -sB1 $'root\\xff'"
    );
}
