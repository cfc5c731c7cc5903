//! Cases 7–16: traversal of hostile trees.

use std::fs;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{err_lines, have, in_private_mounts, traced_opens};
use crate::util::*;

fn json_of(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}; stderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Case 7: a directory that can be listed but not searched (mode 0644). Its names are
/// readable, none of its entries can be stat'ed: one line for the directory, its own size
/// counted, siblings scanned, exit 1 — in every mode, count mode included (which stats no
/// file and so used to count the names it could not reach).
#[test]
fn read_without_search_permission() {
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    env.file("d/rx/f1", 30_000);
    env.file("d/rx/f2", 30_000);
    env.file("d/rx/sub/g", 30_000);
    env.file("d/ok/h", 20_000);
    env.chmod("d/rx", 0o644);
    for (flag, du_flags) in [("-j", &["-sB1"][..]), ("-f", &["-s", "--inodes"][..])] {
        let du = env.du_unprivileged(&[du_flags, &["d"]].concat());
        let want = parse_du(&du.stdout)[0].0;
        let mut args = vec!["-j", "d"];
        if flag == "-f" {
            args.insert(0, "-f");
        }
        let out = env.run_unprivileged(&args);
        assert_eq!(out.status.code(), Some(1), "hogs {args:?}: exit status");
        assert_eq!(
            err_lines(&out),
            ["hogs: cannot read directory 'd/rx': Permission denied"],
            "hogs {args:?}: stderr"
        );
        let v = json_of(&out);
        assert_eq!(
            size(&v),
            want,
            "hogs {args:?} vs du {du_flags:?} d as nobody"
        );
        let rx = child(&v, "rx");
        assert!(
            children(rx).is_empty(),
            "nothing below d/rx is counted: {rx}"
        );
    }
    env.chmod("d/rx", 0o755);
}

/// Case 8: entries appear, vanish and move while the walk runs. What vanishes between
/// readdir and stat may be left out but is named, as du names it: exit 1 exactly when stderr
/// says something, every line a proper diagnostic, and a run that counts fewer entries than
/// were there throughout says so (`vanish.rs` makes each case happen deterministically).
#[test]
fn churn_while_walking() {
    let env = TestEnv::new();
    for i in 0..40 {
        env.mkdir(format!("d/dir{i}"));
        for j in 0..40 {
            env.empty(format!("d/dir{i}/f{j}"));
        }
    }
    let stop = AtomicBool::new(false);
    let root = env.path("d");
    std::thread::scope(|s| {
        // a failed assertion must stop the churners too, or the scope waits for them forever
        let _stop = StopOnDrop(&stop);
        // files only: created and removed as fast as possible
        s.spawn(|| {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let p = root.join(format!("dir{}/churn{}", n % 40, n % 7));
                if fs::File::create(&p).is_ok() {
                    let _ = fs::remove_file(&p);
                }
                n += 1;
            }
        });
        for threads in ["1", "2", "8"] {
            for _ in 0..5 {
                let out = env.run(["-j", "-T", threads, "d"]);
                assert_eq!(
                    out.status.code(),
                    Some(u8::from(!out.stderr.is_empty()).into()),
                    "file churn, -T {threads}: exit 1 exactly when something is named {out:?}"
                );
                for l in err_lines(&out) {
                    assert!(
                        l.starts_with("hogs: cannot access 'd/dir"),
                        "file churn: {l:?}"
                    );
                }
                json_of(&out);
            }
        }
        // and now directories renamed back and forth too
        let mut short_runs = 0u32;
        s.spawn(|| {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let i = n % 40;
                let a = root.join(format!("dir{i}"));
                let b = root.join(format!("moved{i}"));
                if fs::rename(&a, &b).is_ok() {
                    let _ = fs::rename(&b, &a);
                }
                n += 1;
            }
        });
        for threads in ["1", "2", "8"] {
            for _ in 0..5 {
                for mode in [&["-j"][..], &["-f", "-j"]] {
                    let out = env.run([mode, &["-T", threads, "d"]].concat());
                    let quiet = out.stderr.is_empty();
                    assert_eq!(
                        out.status.code(),
                        Some(u8::from(!quiet).into()),
                        "dir churn {mode:?} -T {threads}: exit 1 exactly when something is named {out:?}"
                    );
                    for l in err_lines(&out) {
                        assert!(l.starts_with("hogs: "), "dir churn: stderr line {l:?}");
                    }
                    // d, its 40 directories and their 1,600 files are there throughout
                    // (under one name or the other): a run that counts fewer must say why
                    let entries = field_u64(&json_of(&out), "entries");
                    short_runs += u32::from(entries < 1641);
                    assert!(
                        entries >= 1641 || !quiet,
                        "dir churn {mode:?} -T {threads}: {entries} entries of 1641, nothing said"
                    );
                }
            }
        }
        eprintln!("dir churn: {short_runs} of 30 runs hit a rename");
    });
}

struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Case 9: dangling links, -L loops, and a chain of links too long to resolve.
#[test]
fn dangling_and_looping_links() {
    let env = TestEnv::new();
    env.file("s/f", 10_000);
    env.symlink("nowhere", "s/dang");
    let v = env.json(["s"]);
    assert_eq!(
        size(&v),
        env.du_disk(&["s"]),
        "dangling link counted as a link"
    );
    assert!(find_node(&v, "dang").is_some(), "the link is listed: {v}");

    let out = env.run(["-L", "-j", "s"]);
    assert_eq!(out.status.code(), Some(1), "-L with a dangling link");
    assert_eq!(
        err_lines(&out),
        ["hogs: cannot access 's/dang': No such file or directory"]
    );

    // loops through `.` and `..`: each directory once, as du -L
    env.file("lp/x/f", 5000);
    env.symlink(".", "lp/loop");
    env.symlink("..", "lp/x/up");
    for (flag, du) in [
        ("-j", env.du_total(&["-L", "-B1"], &["lp"])),
        ("-f", env.du_total(&["-L", "--inodes"], &["lp"])),
        ("-s", env.du_total(&["-L", "-b"], &["lp"])),
    ] {
        let mut args = vec!["-L", "-j", "lp"];
        if flag != "-j" {
            args.insert(0, flag);
        }
        let out = env
            .hogs()
            .args(&args)
            .timeout(Duration::from_secs(30))
            .output()
            .expect("run hogs");
        assert_eq!(out.status.code(), Some(0), "hogs {args:?}: {out:?}");
        assert_eq!(size(&json_of(&out)), du, "hogs {args:?} vs du -L");
    }

    // 400 links in a chain: the kernel gives up (ELOOP) after 40
    env.mkdir("ch");
    env.empty("ch/t0");
    env.bash("cd ch && for i in $(seq 1 400); do ln -s t$((i-1)) t$i; done");
    let out = env.run(["-L", "ch/t400"]);
    assert_eq!(out.status.code(), Some(1), "-L on a 400-link chain");
    assert_eq!(
        err_lines(&out),
        ["hogs: cannot access 'ch/t400': Too many levels of symbolic links"]
    );
    // inside a directory: many errors, then one line that counts them
    let out = env.run(["-L", "ch"]);
    assert_eq!(out.status.code(), Some(1));
    let errs = err_lines(&out);
    let loops = errs
        .iter()
        .filter(|l| l.contains("Too many levels"))
        .count();
    assert!(loops > 300, "each unresolvable link is reported: {loops}");
    let last = errs.last().expect("stderr");
    assert!(
        last.starts_with(&format!("hogs: {} errors", errs.len() - 1)),
        "a closing line counts the errors: {last:?}"
    );
}

/// Case 10: a filesystem whose directory entries carry no type (ext2 made without the
/// `filetype` feature returns DT_UNKNOWN for every entry): hogs falls back to lstat and
/// still tells directories apart in count mode. Needs root, mkfs.ext2 and a loop device;
/// the mount lives in a private mount namespace that vanishes with the shell.
#[test]
fn dt_unknown_filesystem() {
    let mkfs = ["/sbin/mkfs.ext2", "/usr/sbin/mkfs.ext2"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists());
    let (true, true, Some(mkfs)) = (is_root(), have("unshare"), mkfs) else {
        skip!("skipped: needs root, unshare(1) and mkfs.ext2 to mount a DT_UNKNOWN filesystem");
        return;
    };
    let env = TestEnv::new();
    env.mkdir("mnt");
    let script = format!(
        r#"set -e
truncate -s 16M img
{mkfs} -q -F -O ^filetype,^dir_index img
mount -o loop img mnt
mkdir -p mnt/t/sub/deeper mnt/t/other
head -c 30000 /dev/urandom > mnt/t/sub/f1
head -c 5000 /dev/urandom > mnt/t/sub/deeper/f2
ln -s sub mnt/t/link
ln mnt/t/sub/f1 mnt/t/other/hard
for a in "-j" "-f -j" "-s -j"; do {hogs} -P $a mnt/t; echo; done > out.txt
du -sB1 mnt/t > du.txt; du -s --inodes mnt/t >> du.txt; du -sb mnt/t >> du.txt
umount mnt
"#,
        hogs = hogs_bin().display(),
        mkfs = mkfs
    );
    if !in_private_mounts(&env, &script, "mount an ext2 image") {
        return;
    }
    let hogs_out = fs::read_to_string(env.path("out.txt")).expect("out.txt");
    let docs: Vec<serde_json::Value> = hogs_out
        .split("\n\n")
        .filter(|d| !d.trim().is_empty())
        .map(|d| serde_json::from_str(d).expect("JSON"))
        .collect();
    let du = parse_du(&fs::read(env.path("du.txt")).expect("du.txt"));
    assert_eq!(docs.len(), 3);
    for (i, what) in ["disk", "count", "apparent"].iter().enumerate() {
        assert_eq!(
            size(&docs[i]),
            du[i].0,
            "{what}: hogs vs du on DT_UNKNOWN ext2"
        );
    }
    // directories told apart without d_type: in count mode too
    for doc in &docs {
        let sub = find_node(doc, "sub").expect("sub listed");
        assert_eq!(sub["type"], "dir", "sub is a directory: {doc}");
        assert!(find_node(sub, "deeper").is_some(), "walked into sub: {doc}");
        assert_eq!(find_node(doc, "link").expect("link")["type"], "symlink");
    }
}

/// Case 12: a million entries in one directory: completes with bounded memory (peak RSS
/// measured by GNU time) and equals du.
#[test]
fn million_entries_one_directory() {
    if !std::path::Path::new("/usr/bin/time").exists() {
        skip!("skipped: /usr/bin/time (GNU time) is not available to measure peak memory");
        return;
    }
    const N: usize = 1_000_000;
    let env = TestEnv::new_in_memory();
    env.mkdir("wide");
    let dir = env.path("wide");
    for i in 0..N {
        fs::File::create(dir.join(format!("{i:x}"))).expect("create entry");
    }
    for (flags, du) in [
        (&["-f"][..], env.du_inodes(&["wide"])),
        (&[][..], env.du_disk(&["wide"])),
    ] {
        let out = Command::new("/usr/bin/time")
            .args(["-f", "maxrss_kb=%M"])
            .arg(hogs_bin())
            .args(flags)
            .args(["-j", "-n", "20", "wide"])
            .current_dir(env.root())
            .output()
            .expect("run hogs under time");
        assert!(out.status.success(), "hogs {flags:?} wide: {out:?}");
        let v = json_of(&out);
        assert_eq!(size(&v), du, "hogs {flags:?} vs du on 1M entries");
        let err = String::from_utf8_lossy(&out.stderr);
        let kb: u64 = err
            .lines()
            .find_map(|l| l.strip_prefix("maxrss_kb="))
            .and_then(|n| n.trim().parse().ok())
            .expect("GNU time's maxrss line");
        // 1M entries at ~64 bytes each plus names: far below this unless something is
        // kept per entry that should not be
        assert!(kb < 300 * 1024, "peak RSS {kb} KiB for 1M entries");
    }
    let out = env.stdout_ok(["-n", "30", "wide"]);
    assert_eq!(
        lines(&out).len(),
        31,
        "the text view of 1M entries: the root and 30"
    );
}

/// A tree both wide and deep: a 3000-deep chain with a sibling directory (holding a file)
/// at every level, beside 200 small directories. Paths at the bottom pass PATH_MAX, so the
/// chain is built in 500-level pieces at a short path, each moved under the next.
fn wide_and_deep(env: &TestEnv) {
    env.bash(
        "mkdir dw && cd dw && for i in $(seq 1 200); do mkdir -p w$i/a/b; : > w$i/a/b/f; done",
    );
    let work = env.path("dw-work");
    let mut acc: Option<std::path::PathBuf> = None;
    for piece in 0..6 {
        let top = work.join(format!("p{piece}"));
        let mut p = top.clone();
        fs::create_dir_all(&p).expect("mkdir piece");
        for level in 0..500 {
            fs::create_dir(p.join("s")).expect("mkdir s");
            fs::write(p.join("s/f"), b"").expect("touch s/f");
            if level < 499 {
                p.push("d");
                fs::create_dir(&p).expect("mkdir d");
            }
        }
        if let Some(prev) = acc.take() {
            fs::rename(&prev, p.join("d")).expect("move the chain so far below");
        }
        acc = Some(top);
    }
    fs::rename(acc.expect("pieces"), env.path("dw/chain")).expect("move the chain into dw");
    fs::remove_dir(&work).expect("remove the work dir");
}

/// `hogs ARGS` under a resource limit set by prlimit(1), e.g. `--nofile=64` (`ulimit -n`).
fn under_prlimit(env: &TestEnv, limit: &str, args: &[&str]) -> std::process::Output {
    prlimit_hogs(env, limit)
        .args(args)
        .output()
        .expect("run prlimit hogs")
}

/// prlimit(1) running hogs (arguments to add) in the test's root, with only descriptors 0-2
/// open: the ones the test inherited (a lock file's, say) would count against `--nofile`.
fn prlimit_hogs(env: &TestEnv, limit: &str) -> Command {
    let close_and_run = r#"for fd in $(ls /proc/$$/fd); do
        if [ "$fd" -gt 2 ] && [ "$fd" -lt 255 ]; then eval "exec $fd>&-"; fi; done; exec "$@""#;
    let mut cmd = Command::new("bash");
    cmd.args(["-c", close_and_run, "bash", "prlimit", limit])
        .arg(hogs_bin())
        .current_dir(env.root());
    cmd
}

/// Case 13: `ulimit -n 64` on a tree both wide and deep (holding a parent open for each
/// pending subdirectory would need thousands of fds), at every thread count.
#[test]
fn few_file_descriptors() {
    if !have("prlimit") {
        skip!("skipped: prlimit(1) is not available");
        return;
    }
    let mut env = TestEnv::new();
    env.set_deep_cleanup();
    wide_and_deep(&env);
    let want_inodes = env.du_inodes(&["dw"]);
    let want_disk = env.du_disk(&["dw"]);
    for threads in ["1", "2", "8"] {
        for (flag, want) in [("-f", want_inodes), ("-P", want_disk)] {
            let out = under_prlimit(
                &env,
                "--nofile=64",
                &[flag, "-j", "-d", "1", "-T", threads, "dw"],
            );
            assert_eq!(
                out.status.code(),
                Some(0),
                "ulimit -n 64, {flag} -T {threads}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(size(&json_of(&out)), want, "{flag} -T {threads} vs du");
        }
    }
}

/// A huge directory whose listing would be split between threads (-f, on ext4) is read as
/// one when it cannot be opened again for them: `ulimit -n 4` leaves the root's fd the
/// last. Counted all the same, and no error.
/// (The portable backend reads a listing through a descriptor of its own, which fdopendir
/// takes: under `ulimit -n 4` there is none to take.)
#[test]
#[cfg_attr(
    feature = "portable-walk",
    ignore = "the portable backend needs a descriptor more per listing"
)]
fn a_huge_listing_with_no_descriptor_to_spare() {
    if !have("prlimit") {
        skip!("skipped: prlimit(1) is not available");
        return;
    }
    let env = TestEnv::new();
    env.bash("mkdir huge && cd huge && for i in $(seq 1 12000); do : > f$i; done");
    let want = env.du_inodes(&["huge"]);
    for threads in ["2", "8"] {
        let out = prlimit_hogs(&env, "--nofile=4")
            .args(["-f", "-j", "-d", "0", "-T", threads, "huge"])
            .env("HOGS_DEBUG_WALK", "1")
            .output()
            .expect("run prlimit hogs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(0),
            "ulimit -n 4, -T {threads}: {err}"
        );
        assert!(err.contains(", 0 listings split"), "-T {threads}: {err}");
        assert_eq!(size(&json_of(&out)), want, "-T {threads} vs du --inodes");
    }
}

/// Case 13: 1,500 path arguments under `ulimit -n 64`.
#[test]
fn many_arguments() {
    if !have("prlimit") {
        skip!("skipped: prlimit(1) is not available");
        return;
    }
    let env = TestEnv::new();
    env.bash("mkdir m && cd m && for i in $(seq 1 1500); do mkdir d$i; head -c $((i * 7)) /dev/zero > d$i/f; done");
    let args: Vec<String> = (1..=1500).map(|i| format!("m/d{i}")).collect();
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let want = env.du_disk(&refs);
    let mut all = vec!["-j"];
    all.extend(refs.iter().copied());
    let out = under_prlimit(&env, "--nofile=64", &all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out);
    assert_eq!(size(&v), want, "1500 arguments vs du -sc");
    assert_eq!(children(&v).len(), 1500, "every argument listed");
    assert_eq!(
        env.total(["-f", "m"]),
        env.du_inodes(&["m"]),
        "and as one argument"
    );
}

/// Case 14: the thread count never changes a byte of the output, on every tree of the
/// suite's shapes at once (hard links, links, sparse, non-UTF-8, deep, wide).
#[test]
fn thread_count_never_changes_output() {
    let mut env = TestEnv::new();
    env.set_deep_cleanup();
    mixed_tree(&env, "t");
    env.mkdir("t/deep");
    env.deep_chain("t/deep", 600);
    env.file("t/h/a", 40_000);
    env.hardlink("t/h/a", "t/h/b");
    env.mkdir("t/h/c");
    env.hardlink("t/h/a", "t/h/c/d");
    env.sparse("t/sparse", 1 << 30);
    env.symlink("..", "t/h/up");
    fs::write(env.path("t").join(path_bytes(b"bad-\xff\xfe")), b"x").expect("non-UTF-8 name");
    env.bash("mkdir t/wide && cd t/wide && for i in $(seq 1 3000); do : > n$i; done; for i in $(seq 1 20); do head -c $((i * 999)) /dev/zero > big$i; done");
    let flag_sets: &[&[&str]] = &[
        &["-n", "60"],
        &["-f", "-n", "60"],
        &["-s", "-n", "60"],
        &["-j"],
        &["-f", "-j"],
        &["-L", "-j"],
        &["-F", "-n", "40"],
        &["-e", "n1", "-n", "40"],
    ];
    for flags in flag_sets {
        let mut one = vec!["-T", "1"];
        one.extend_from_slice(flags);
        one.push("t");
        let want = env.run(&one);
        for t in ["2", "8"] {
            let mut many = vec!["-T", t];
            many.extend_from_slice(flags);
            many.push("t");
            let got = env.run(&many);
            assert_eq!(got.status.code(), want.status.code(), "{many:?}");
            assert!(
                got.stdout == want.stdout,
                "hogs {many:?} differs from -T 1:\n{}\n---\n{}",
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&want.stdout)
            );
            assert_eq!(got.stderr, want.stderr, "{many:?}: stderr");
        }
    }
}

/// Case 15: `-x` on a real mount layout: a tmpfs mounted inside the tree (in a private
/// mount namespace) is not entered; du -x is the oracle in the same namespace.
#[test]
fn one_filesystem_with_a_tmpfs_mount() {
    if !have("unshare") {
        skip!("skipped: unshare(1) is not available");
        return;
    }
    let env = TestEnv::new();
    env.file("d/own", 50_000);
    env.mkdir("d/mnt");
    let script = format!(
        r#"set -e
mount -t tmpfs none d/mnt
head -c 400000 /dev/urandom > d/mnt/inside
{hogs} -x -j d > x.json
{hogs} -j d > all.json
{hogs} -f -x -j d > xf.json
{hogs} -s -x -j d > xs.json
du -sxB1 d > du.txt; du -sB1 d >> du.txt; du -sx --inodes d >> du.txt; du -sxb d >> du.txt
"#,
        hogs = hogs_bin().display()
    );
    if !in_private_mounts(&env, &script, "mount a tmpfs") {
        return;
    }
    let read = |f: &str| -> serde_json::Value {
        serde_json::from_slice(&fs::read(env.path(f)).expect("output")).expect("JSON")
    };
    let du = parse_du(&fs::read(env.path("du.txt")).expect("du.txt"));
    let (x, all, xf) = (read("x.json"), read("all.json"), read("xf.json"));
    assert_eq!(size(&x), du[0].0, "hogs -x vs du -sx");
    assert_eq!(size(&all), du[1].0, "hogs vs du -s (the mount entered)");
    assert!(
        size(&all) > size(&x) + 300_000,
        "sanity: the tmpfs file counts without -x"
    );
    assert_eq!(size(&xf), du[2].0, "hogs -f -x vs du -sx --inodes");
    assert_eq!(size(&read("xs.json")), du[3].0, "hogs -s -x vs du -sxb");
    assert!(
        find_node(&x, "inside").is_none(),
        "-x entered the other filesystem: {x}"
    );
}

/// -f takes a directory's device from its parent unless it is a mount point: two tmpfs
/// mounted side by side number their inodes alike (2, 3, 4… on each), so a mount point
/// taken for its parent's device would count their files as hard links of each other.
/// du --inodes in the same namespace is the oracle, with one thread and with several.
#[test]
fn count_mode_across_mounts_that_number_inodes_alike() {
    if !have("unshare") {
        skip!("skipped: unshare(1) is not available");
        return;
    }
    let env = TestEnv::new();
    env.file("d/own", 100);
    env.mkdir("d/m1");
    env.mkdir("d/m2");
    let script = format!(
        r#"set -e
for m in m1 m2; do
  mount -t tmpfs none d/$m
  for i in $(seq 1 30); do echo x > d/$m/f$i; done
  mkdir d/$m/sub && for i in $(seq 1 20); do echo y > d/$m/sub/g$i; done
done
ln d/m1/f3 d/m1/sub/link
test "$(stat -c %i d/m1/f7)" = "$(stat -c %i d/m2/f7)"
for t in 1 2 4; do {hogs} -T $t -f -j d > f$t.json; done
du -s --inodes d > du.txt; du -s --inodes d/m1 >> du.txt; du -s --inodes d/m2 >> du.txt
"#,
        hogs = hogs_bin().display()
    );
    if !in_private_mounts(&env, &script, "mount two tmpfs") {
        return;
    }
    let du = parse_du(&fs::read(env.path("du.txt")).expect("du.txt"));
    for t in ["1", "2", "4"] {
        let v: serde_json::Value =
            serde_json::from_slice(&fs::read(env.path(format!("f{t}.json"))).expect("output"))
                .expect("JSON");
        assert_eq!(size(&v), du[0].0, "-T {t}: hogs -f vs du -s --inodes d");
        for (i, m) in ["m1", "m2"].iter().enumerate() {
            let node = find_node(&v, m).unwrap_or_else(|| panic!("{m} missing: {v}"));
            assert_eq!(
                size(node),
                du[i + 1].0,
                "-T {t}: {m} vs du -s --inodes d/{m}"
            );
        }
    }
}

/// Case 16: /proc is only stat'ed: every file opened below an argument is a directory
/// (O_DIRECTORY), never read; a process vanishing mid-walk is named (as du names it), and
/// the exit status says whether anything was.
#[test]
fn proc_is_stat_only() {
    if !std::path::Path::new("/proc/self/status").exists() {
        skip!("skipped: no /proc");
        return;
    }
    // a short-lived process per iteration keeps pids vanishing under the walk
    let env = TestEnv::new();
    for _ in 0..3 {
        let out = env.run(["-x", "-j", "-d", "1", "/proc"]);
        let v = json_of(&out);
        assert_eq!(full_name(&v), "/proc");
        assert_eq!(
            out.status.code(),
            Some(u8::from(!out.stderr.is_empty()).into()),
            "exit 1 exactly when something is named: {out:?}"
        );
        for l in err_lines(&out) {
            assert!(l.starts_with("hogs: "), "{l}");
        }
    }
    let Some(trace) = traced_opens(&env, &["-P", "-T", "2", "/proc/self", "/proc/sys/kernel"])
    else {
        return;
    };
    for l in trace.lines() {
        // the walk's opens: relative to a directory fd, or the arguments themselves (the
        // runtime's own read of /proc/self/maps at startup is not part of the walk)
        let walk_open = l.contains("openat(")
            && (!l.contains("openat(AT_FDCWD")
                || l.contains("\"/proc/self\"")
                || l.contains("\"/proc/sys/kernel\""));
        if walk_open {
            assert!(
                l.contains("O_DIRECTORY"),
                "opened something not as a directory: {l}"
            );
        }
    }
}

/// `ulimit -v` (as on shared login nodes): the room the walk reserves ahead for its arrays
/// is address space, and under such a limit it made hogs die of an allocation failure
/// (the reservation did not fit, or fitted and left too little for the rest); glibc's
/// per-thread malloc arenas (64 MiB of address space each) did the same one run in five.
/// Every run must finish with du's totals, at every thread count and in -f mode.
#[test]
fn a_small_address_space_limit() {
    if !have("prlimit") {
        skip!("skipped: prlimit(1) is not available");
        return;
    }
    let env = TestEnv::new();
    for d in 0..30 {
        env.mkdir(format!("t/d{d}/s"));
        for f in 0..60u64 {
            env.file(format!("t/d{d}/f{f}"), 100 * (f + 1));
        }
        env.file(format!("t/d{d}/s/g"), 5000);
    }
    for d in 1..30 {
        fs::hard_link(env.path("t/d0/f1"), env.path(format!("t/d{d}/h"))).expect("hard link");
    }
    let disk = env.du_disk(&["t"]).to_string();
    let inodes = env.du_inodes(&["t"]).to_string();
    for mib in [48, 64, 80, 96] {
        for (args, want) in [
            (&["-T", "1", "-d", "0", "-P", "-o", "b", "t"][..], &disk),
            (&["-T", "2", "-d", "0", "-P", "-o", "b", "t"][..], &disk),
            (&["-T", "4", "-d", "0", "-P", "-o", "b", "t"][..], &disk),
            (&["-f", "-d", "0", "-P", "-o", "b", "t"][..], &inodes),
        ] {
            for run in 0..4 {
                let out = under_prlimit(&env, &format!("--as={}", mib << 20), args);
                let stdout = String::from_utf8_lossy(&out.stdout);
                assert!(
                    out.status.success(),
                    "ulimit -v {mib} MiB, hogs {args:?}, run {run}: {out:?}"
                );
                assert_eq!(
                    // `-o b` writes dust's `123B`, -f dust's `1,234`
                    stdout
                        .split_whitespace()
                        .next()
                        .map(|w| w.trim_end_matches('B').replace(',', "")),
                    Some(want.to_string()),
                    "ulimit -v {mib} MiB, hogs {args:?}: total against du"
                );
            }
        }
    }
}

/// Peak RSS in KiB of `hogs ARGS` run in `env` (GNU time), and its output.
fn peak_rss_kb(env: &TestEnv, args: &[&str]) -> (u64, std::process::Output) {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "maxrss_kb=%M"])
        .arg(hogs_bin())
        .args(args)
        .current_dir(env.root())
        .stdout(std::process::Stdio::null())
        .output()
        .expect("run hogs under time");
    let err = String::from_utf8_lossy(&out.stderr);
    let kb = err
        .lines()
        .find_map(|l| l.strip_prefix("maxrss_kb="))
        .and_then(|n| n.trim().parse().ok())
        .expect("GNU time's maxrss line");
    (kb, out)
}

/// Issue 22, items 9 and 10: huge values are capped with a note, and the output is written
/// as it is made. `-w 100000 -n 1000000 -d 100000` on 20,000 entries held every line (20,000
/// lines of 100,000 columns, gigabytes) before writing the first; `-T 10000` started
/// thousands of threads.
#[test]
fn huge_widths_line_counts_and_thread_counts_are_bounded() {
    if !std::path::Path::new("/usr/bin/time").exists() {
        skip!("skipped: /usr/bin/time (GNU time) is not available to measure peak memory");
        return;
    }
    let env = TestEnv::new();
    env.bash("mkdir t && cd t && for i in $(seq 1 200); do mkdir d$i; (cd d$i && touch $(seq 1 100)); done");
    let (kb, out) = peak_rss_kb(
        &env,
        &["-w", "100000", "-n", "1000000", "-d", "100000", "t"],
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| !l.starts_with("maxrss_kb="))
            .collect::<Vec<_>>(),
        ["hogs: note: --terminal-width 100000 is more than 4096: using 4096"]
    );
    assert!(kb < 64 * 1024, "peak RSS {kb} KiB for 20,000 rows");
    let (_, out) = peak_rss_kb(&env, &["-T", "10000", "-d", "0", "t"]);
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("hogs: note: --threads 10000 is more than 256: using 256"),
        "{out:?}"
    );
    let report = debug_walk(&env, &["-T", "10000", "-d", "0", "t"]).0;
    assert!(walk_threads(&report) <= 256, "{report}");
}

/// `hogs ARGS` and `du -s --inodes PATH`, retried while the pseudo-filesystem changes
/// under them (du the same before and after hogs): (hogs's count, du's count).
fn count_beside_du(env: &TestEnv, hogs_args: &[&str], path: &str) -> (u64, u64) {
    // (du exits 1 on what it may not read, as hogs does: both leave it out)
    let du = || -> u64 {
        let out = Command::new("du")
            .args(["-s", "--inodes", path])
            .output()
            .expect("run du");
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .expect("du's count")
    };
    let mut last = (0, 0);
    for _ in 0..5 {
        let before = du();
        let out = env.run(hogs_args);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let count = if hogs_args.contains(&"-j") {
            size(&serde_json::from_str(&text).expect("JSON"))
        } else {
            // (dust's forms: `1,234` for counts, `4096B` for bytes)
            text.split_whitespace()
                .next()
                .and_then(|n| n.trim_end_matches('B').replace(',', "").parse().ok())
                .expect("a count")
        };
        let after = du();
        last = (count, before);
        if before == after {
            return last;
        }
    }
    last
}

/// A process that sleeps through a test: its `/proc/PID` is a procfs tree that holds still
/// while hogs and du count it one after the other. PID 1's does not: every descriptor it opens
/// for a moment (a service manager's, a container agent's that starts each command) is a name
/// in `fd/`, `fdinfo/` and each thread's copies, so counts taken a moment apart differ by tens.
struct Sleeper(std::process::Child);

impl Sleeper {
    fn start() -> Self {
        let child = Command::new("sleep")
            .arg("600")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start sleep");
        Sleeper(child)
    }

    fn proc_dir(&self) -> String {
        format!("/proc/{}", self.0.id())
    }
}

impl Drop for Sleeper {
    fn drop(&mut self) {
        // (already gone is fine: nothing is left to stop)
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Issue 22, item 3: on procfs many names share an inode number with one link each (every
/// `/proc/PID/task/TID/net/*` of a namespace, and `/proc/PID/net/*`): -f, which claims files
/// without a stat, merged them. A repeated number is now checked by a stat of its names, so -f
/// equals du --inodes on procfs, sysfs and real hard links, in both of its ways of counting
/// (files summed into their directories for -d 0, nodes otherwise) at 1 and 2 threads; and the
/// stats are about the directories plus the colliding names. The procfs tree is a sleeping
/// child's, which does not change between the two counts.
#[test]
fn count_mode_checks_repeated_inode_numbers() {
    if !std::path::Path::new("/proc/self/task").exists() || !is_root() {
        skip!("skipped: needs /proc and root (to read all of a process's /proc directory)");
        return;
    }
    let env = TestEnv::new();
    let sleeper = Sleeper::start();
    let proc_dir = sleeper.proc_dir();
    for path in [proc_dir.as_str(), "/sys/kernel"] {
        for threads in ["1", "2"] {
            for (args, how) in [
                (&["-f", "-o", "b", "-d", "0"][..], "-d 0"),
                (&["-f", "-j", "-d", "1"][..], "-j"),
            ] {
                let mut all = vec!["-T", threads];
                all.extend_from_slice(args);
                all.push(path);
                let (hogs, du) = count_beside_du(&env, &all, path);
                assert_eq!(hogs, du, "hogs -f {how} -T {threads} {path} vs du --inodes");
            }
        }
    }
    env.file("l/a/f", 5000);
    env.mkdir("l/b");
    for i in 0..3 {
        std::fs::hard_link(env.path("l/a/f"), env.path(format!("l/b/g{i}"))).expect("link");
    }
    assert_eq!(env.total(["-f", "-d", "0", "l"]), env.du_inodes(&["l"]));
    assert_eq!(env.total(["-f", "-d", "1", "l"]), env.du_inodes(&["l"]));
    // stat calls: about one per directory plus one per name of a repeated number
    let Some(summary) = strace_summary(&env, &["-f", "-d", "0", &proc_dir]) else {
        return;
    };
    let find = |args: &str| {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("find {proc_dir} -xdev {args} 2>/dev/null"))
            .output()
            .expect("run find");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let dirs = find("-type d").lines().count();
    let mut numbers: std::collections::HashMap<String, usize> = Default::default();
    for n in find("! -type d -printf '%i\\n'").lines() {
        *numbers.entry(n.to_owned()).or_default() += 1;
    }
    let colliding: usize = numbers.values().filter(|&&n| n > 1).sum();
    let stats = ["statx", "newfstatat", "fstat", "lstat"]
        .iter()
        .map(|call| syscall_count(&summary, call))
        .sum::<usize>();
    // (the portable backend, without openat2's mount check, stats every directory too)
    let per_dir = if cfg!(feature = "portable-walk") {
        2
    } else {
        1
    };
    assert!(
        stats <= per_dir * dirs + colliding + 16,
        "{stats} stat calls for {dirs} directories and {colliding} colliding names"
    );
}

/// `strace -f -c` of `hogs ARGS` (its summary table), or None when strace cannot run.
fn strace_summary(env: &TestEnv, args: &[&str]) -> Option<String> {
    if !have("strace") {
        skip!("skipped (strace part): strace is not available");
        return None;
    }
    let log = env.path("strace-summary.txt");
    let status = Command::new("strace")
        .args(["-f", "-c", "-o"])
        .arg(&log)
        .arg(hogs_bin())
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("run strace");
    assert!(status.success() || status.code() == Some(1), "{status:?}");
    Some(fs::read_to_string(log).expect("read the strace summary"))
}

/// The calls column of `call` in an strace summary (0 when absent).
fn syscall_count(summary: &str, call: &str) -> usize {
    summary
        .lines()
        .find(|l| l.split_whitespace().last() == Some(call))
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}
