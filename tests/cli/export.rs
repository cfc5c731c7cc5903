//! `-O/--export`: ncdu's JSON export format. GNU du and lstat are the oracles; the readers
//! (ncdu, gdu) are exercised in `interop.rs`.

use std::os::unix::fs::MetadataExt;

use serde_json::{Map, Value};

use crate::util::*;

/// One entry of an export: its path below the root ("" for the root) and its info object.
#[derive(Debug)]
struct Entry {
    path: String,
    is_dir: bool,
    info: Map<String, Value>,
}

/// Parses an export (UTF-8 names only: serde_json cannot hold other bytes) and checks its
/// frame: `[1, 2, {metadata}, [root…]]`.
fn parse_export(out: &[u8]) -> (Map<String, Value>, Vec<Entry>) {
    let v: Value = serde_json::from_slice(out).unwrap_or_else(|e| {
        panic!(
            "export is not JSON ({e}):\n{}",
            String::from_utf8_lossy(out)
        )
    });
    let top = v.as_array().expect("top level is an array");
    assert_eq!(top.len(), 4, "[major, minor, metadata, root]");
    assert_eq!(top[0], 1, "major version");
    assert_eq!(top[1], 2, "minor version");
    let meta = top[2].as_object().expect("metadata object").clone();
    assert!(top[3].is_array(), "the root is a directory array");
    let mut entries = Vec::new();
    // (value, parent path, is root)
    let mut stack: Vec<(&Value, String, bool)> = vec![(&top[3], String::new(), true)];
    while let Some((v, parent, root)) = stack.pop() {
        let (info, kids): (&Value, &[Value]) = match v {
            Value::Array(a) => (&a[0], &a[1..]),
            other => (other, &[]),
        };
        let info = info.as_object().expect("info object").clone();
        let name = info["name"].as_str().expect("name").to_owned();
        let path = if root {
            String::new()
        } else if parent.is_empty() {
            name
        } else {
            format!("{parent}/{name}")
        };
        for k in kids.iter().rev() {
            stack.push((k, path.clone(), false));
        }
        entries.push(Entry {
            path,
            is_dir: v.is_array(),
            info,
        });
    }
    (meta, entries)
}

fn entry<'a>(entries: &'a [Entry], path: &str) -> &'a Entry {
    entries
        .iter()
        .find(|e| e.path == path)
        .unwrap_or_else(|| panic!("no entry {path:?} in the export"))
}

fn num(e: &Entry, key: &str) -> u64 {
    e.info.get(key).map_or(0, |v| {
        v.as_u64()
            .unwrap_or_else(|| panic!("{key} of {:?} is not a number", e.path))
    })
}

/// Sums (dsize, asize) as ncdu does: a hard-linked inode once.
fn totals(entries: &[Entry]) -> (u64, u64) {
    let mut seen = std::collections::HashSet::new();
    let (mut disk, mut apparent) = (0, 0);
    for e in entries {
        if e.info.get("hlnkc") == Some(&Value::Bool(true))
            && !seen.insert((num(e, "dev"), num(e, "ino")))
        {
            continue;
        }
        disk += num(e, "dsize");
        apparent += num(e, "asize");
    }
    (disk, apparent)
}

#[test]
fn export_has_own_sizes_that_add_up_to_du() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.hardlink("d/a/b/big", "d/z/big-again");
    env.symlink("a", "d/link");
    env.fifo("d/pipe");
    let out = env.stdout_ok(["-O", "-", "d"]);
    let (meta, entries) = parse_export(&out);
    assert_eq!(meta["progname"], "hogs");
    assert_eq!(meta["progver"], env!("CARGO_PKG_VERSION"));
    assert!(meta["timestamp"]
        .as_u64()
        .is_some_and(|t| t > 1_600_000_000));

    let root = entry(&entries, "");
    assert_eq!(
        root.info["name"].as_str(),
        Some(env.path("d").to_str().expect("utf-8 temp dir")),
        "the root is named by its absolute path"
    );
    assert!(root.info.contains_key("dev"), "the root says its device");
    // every entry, with its own sizes (not totals)
    let on_disk = walk(&env.path("d"));
    assert_eq!(entries.len(), on_disk.len() + 1, "one entry per name");
    for (path, md) in &on_disk {
        let rel = path
            .strip_prefix(env.path("d"))
            .expect("below d")
            .to_str()
            .expect("utf-8");
        let e = entry(&entries, rel);
        assert_eq!(e.is_dir, md.is_dir(), "{rel}: array iff directory");
        assert_eq!(num(e, "dsize"), md.blocks() * 512, "{rel}: dsize");
        assert_eq!(num(e, "asize"), md.size(), "{rel}: asize");
        assert!(
            !e.info.contains_key("dev"),
            "{rel}: same device as its parent"
        );
        let regular = md.is_dir() || md.is_file();
        assert_eq!(
            e.info.get("notreg") == Some(&Value::Bool(true)),
            !regular,
            "{rel}: notreg"
        );
        if md.is_file() && md.nlink() > 1 {
            assert_eq!(num(e, "ino"), md.ino(), "{rel}: ino");
            assert_eq!(e.info["hlnkc"], true, "{rel}: hlnkc");
            assert_eq!(num(e, "nlink"), md.nlink(), "{rel}: nlink");
        } else {
            assert!(
                !e.info.contains_key("ino"),
                "{rel}: ino only for hard links"
            );
        }
        for key in ["mtime", "uid", "gid", "mode"] {
            assert!(!e.info.contains_key(key), "{rel}: {key} only when extended");
        }
    }
    assert_eq!(
        totals(&entries),
        (env.du_disk(&["d"]), env.du_apparent(&["d"])),
        "sizes in the export add up to du -sB1 / du -sb"
    );

    // -s and -f do not change what an export records
    for flag in ["-s", "-f"] {
        let out = env.stdout_ok([flag, "-O", "-", "d"]);
        assert_eq!(
            totals(&parse_export(&out).1),
            (env.du_disk(&["d"]), env.du_apparent(&["d"])),
            "hogs {flag} -O - d"
        );
    }
}

#[test]
fn export_to_a_file_equals_export_to_stdout() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let stdout = env.stdout_ok(["--export", "-", "d"]);
    let printed = env.stdout_ok(["--export", "out.json", "d"]);
    assert!(printed.is_empty(), "nothing else is printed");
    let file = std::fs::read(env.path("out.json")).expect("read out.json");
    let strip = |b: &[u8]| {
        let (_, entries) = parse_export(b);
        entries
            .into_iter()
            .map(|e| (e.path, e.info))
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&stdout), strip(&file));
}

#[test]
fn extended_export_has_mtime_owner_and_mode() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.chmod("d/one", 0o640);
    let out = env.stdout_ok(["--export-extended", "-O", "-", "d"]);
    let (_, entries) = parse_export(&out);
    let mut all = walk(&env.path("d"));
    all.push((
        env.path("d"),
        std::fs::symlink_metadata(env.path("d")).expect("lstat d"),
    ));
    for (path, md) in &all {
        let rel = path
            .strip_prefix(env.path("d"))
            .expect("below d")
            .to_str()
            .expect("utf-8");
        let e = entry(&entries, rel);
        assert_eq!(num(e, "mtime"), md.mtime() as u64, "{rel}: mtime");
        assert_eq!(num(e, "uid"), md.uid() as u64, "{rel}: uid");
        assert_eq!(num(e, "gid"), md.gid() as u64, "{rel}: gid");
        assert_eq!(num(e, "mode"), md.mode() as u64, "{rel}: mode");
    }
    assert_eq!(num(entry(&entries, "one"), "mode") & 0o7777, 0o640);
}

#[test]
fn export_escapes_names_as_ncdu_and_keeps_raw_bytes() {
    let env = TestEnv::new();
    env.mkdir("d");
    let names: [&[u8]; 4] = [
        b"q\"uo\\te",
        b"new\nline\t\x1b[31m\x7f",
        b"bad\xff\xfe",
        "日本".as_bytes(),
    ];
    for n in names {
        let mut p = b"d/".to_vec();
        p.extend_from_slice(n);
        std::fs::write(env.path(path_bytes(&p)), b"x").expect("create a hostile name");
    }
    let out = env.stdout_ok(["-O", "-", "d"]);
    for want in [
        &b"{\"name\":\"q\\\"uo\\\\te\","[..],
        b"{\"name\":\"new\\nline\\t\\u001b[31m\\u007f\",",
        b"{\"name\":\"bad\xff\xfe\",",
        "{\"name\":\"日本\",".as_bytes(),
    ] {
        assert!(
            out.windows(want.len()).any(|w| w == want),
            "{:?} not in the export:\n{}",
            String::from_utf8_lossy(want),
            String::from_utf8_lossy(&out)
        );
    }
    // nothing raw below 0x20 but the newlines between entries
    let raw_controls = out
        .iter()
        .filter(|&&b| b < 0x20 && b != b'\n' || b == 0x7f)
        .count();
    assert_eq!(raw_controls, 0, "raw control bytes in the export");
}

#[test]
fn export_marks_filtered_files_and_unreadable_entries() {
    let env = TestEnv::new();
    env.file("d/keep.txt", 5000).file("d/drop.log", 7000);
    env.symlink("missing-target", "d/dangling");
    // -v: left out files are "excluded":"pattern" with no sizes; directories keep theirs
    let out = env.stdout_ok(["-v", r"\.log$", "-O", "-", "d"]);
    let (_, entries) = parse_export(&out);
    let drop = entry(&entries, "drop.log");
    assert_eq!(drop.info["excluded"], "pattern");
    assert!(!drop.info.contains_key("dsize") && !drop.info.contains_key("asize"));
    assert_eq!(
        num(entry(&entries, ""), "dsize"),
        blocks_bytes(&env.path("d"))
    );
    assert!(!entry(&entries, "keep.txt").info.contains_key("excluded"));

    // -L: a dangling link cannot be stat'ed: {"name", "read_error": true}, exit status 1
    let out = env.run(["-L", "-O", "-", "d"]);
    assert_eq!(out.status.code(), Some(1));
    let (_, entries) = parse_export(&out.stdout);
    let dangling = entry(&entries, "dangling");
    assert_eq!(dangling.info["read_error"], true);
    assert_eq!(
        dangling.info.len(),
        2,
        "only name and read_error: {:?}",
        dangling.info
    );
}

#[test]
fn export_marks_unreadable_directories() {
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    env.file("d/locked/secret", 50_000).file("d/open/x", 10);
    env.chmod("d/locked", 0o000);
    let out = env.run_unprivileged(["-O", "-", "d"]);
    assert_eq!(out.status.code(), Some(1), "exit status");
    let (_, entries) = parse_export(&out.stdout);
    let locked = entry(&entries, "locked");
    assert!(locked.is_dir);
    assert_eq!(locked.info["read_error"], true);
    assert_eq!(num(locked, "dsize"), blocks_bytes(&env.path("d/locked")));
    assert!(entries.iter().all(|e| !e.path.starts_with("locked/")));
    assert!(!entry(&entries, "open").info.contains_key("read_error"));
}

#[test]
fn export_of_a_deep_chain() {
    const DEEP: usize = 20_000;
    let mut env = TestEnv::new();
    env.set_deep_cleanup();
    env.mkdir("deep");
    env.deep_chain("deep", DEEP);
    let out = env.stdout_ok(["-O", "-", "deep"]);
    // too deep for serde_json: count the directories and check the brackets balance
    let opens = out.iter().filter(|&&b| b == b'[').count();
    let closes = out.iter().filter(|&&b| b == b']').count();
    assert_eq!(
        opens,
        DEEP + 2,
        "[ of the frame, the root and {DEEP} directories"
    );
    assert_eq!(closes, opens);
    assert!(
        out.ends_with(&b"]]]"[..]),
        "ends as ncdu 1.18's: no newline"
    );
    let lines = lines(&out);
    assert_eq!(lines.len(), DEEP + 2, "a line per entry after the header");
    assert!(lines[DEEP + 1].starts_with(b"[{\"name\":\"d\",\"asize\":"));
}

#[test]
fn export_refuses_what_the_format_cannot_hold() {
    let env = TestEnv::new();
    env.file("d/f", 10).file("e/g", 10);
    let out = env.run(["-O", "-", "d", "e"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: --export writes one directory: give a single path\n"
    );
    let out = env.run(["-O", "-", "d/f"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot export 'd/f': not a directory (the ncdu format needs one)\n"
    );
    let out = env.run(["-O", "no/such/dir/out.json", "d"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot write 'no/such/dir/out.json': cannot create a file beside it in \
         'no/such/dir' (an export replaces the file whole): No such file or directory\n"
    );
    // usage errors: clap's exit status 2
    assert_eq!(env.run(["--export-extended", "d"]).status.code(), Some(2));
    // -j and -O: the last one wins (a config file's choice can be overridden)
    assert!(env.stdout_ok(["-j", "-O", "-", "d"]).starts_with(b"[1,2,"));
    assert!(env
        .stdout_ok(["-O", "-", "-j", "d"])
        .starts_with(b"{\"size\""));
}

#[test]
fn export_names_the_device_where_it_changes() {
    let env = TestEnv::new();
    env.file("d/here", 10).file("d/mnt/.keep", 0).mkdir("d/sub");
    let mnt = env.path("d/mnt");
    let Some(_mounted) = mount_tmpfs(&mnt) else {
        return;
    };
    env.file("d/mnt/inside", 3000);
    let root_dev = std::fs::metadata(env.path("d")).expect("stat d").dev();
    let mnt_dev = std::fs::metadata(&mnt).expect("stat d/mnt").dev();
    assert_ne!(root_dev, mnt_dev, "sanity: a mount point");

    let (_, entries) = parse_export(&env.stdout_ok(["-O", "-", "d"]));
    assert_eq!(num(entry(&entries, ""), "dev"), root_dev);
    assert_eq!(num(entry(&entries, "mnt"), "dev"), mnt_dev);
    for quiet in ["here", "sub", "mnt/inside"] {
        assert!(!entry(&entries, quiet).info.contains_key("dev"), "{quiet}");
    }
    assert_eq!(num(entry(&entries, "mnt/inside"), "asize"), 3000);

    // -x: the mount point is not entered, and says why
    let (_, entries) = parse_export(&env.stdout_ok(["-x", "-O", "-", "d"]));
    let m = entry(&entries, "mnt");
    assert!(m.is_dir);
    assert_eq!(m.info["excluded"], "othfs");
    assert!(!m.info.contains_key("asize") && !m.info.contains_key("dsize"));
    assert!(entries.iter().all(|e| !e.path.starts_with("mnt/")));
    // and, as du -x, no part of the other filesystem counts
    assert_eq!(
        env.total(["-x", "-s", "d"]),
        env.du_total(&["-x", "-b"], &["d"]),
        "hogs -x -s vs du -xsb"
    );
    assert_eq!(
        env.total(["-x", "d"]),
        env.du_total(&["-x", "-B1"], &["d"]),
        "hogs -x vs du -xsB1"
    );
    assert_eq!(
        env.total(["-x", "-f", "d"]),
        env.du_total(&["-x", "--inodes"], &["d"]),
        "hogs -x -f vs du -x --inodes"
    );
}

#[test]
fn export_to_a_full_disk_fails_naming_the_file() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    if std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .is_err()
    {
        skip!("skipped: cannot open /dev/full");
        return;
    }
    let out = env.run(["-O", "/dev/full", "d"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot write '/dev/full': No space left on device\n"
    );
}

/// The temporary files of an export that are left in `dir` (none, once hogs is done).
fn leftover_temporaries(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("list the directory")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("hogs-export-"))
        .collect()
}

/// Issue 22, item 1: `-O FILE` writes FILE only when the export is complete. A path that
/// cannot be scanned (a typo, the export itself, a dangling symlink) leaves a scan kept for
/// `--diff` as it was, and no temporary file behind; a complete export replaces it.
#[test]
fn a_failed_export_leaves_the_kept_file_as_it_was() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.file("keep.json", 0);
    std::fs::write(env.path("keep.json"), b"KEPT SCAN").expect("write keep.json");
    std::os::unix::fs::symlink("nowhere", env.path("dangling")).expect("symlink");
    for bad in ["/nonexistent", "keep.json", "dangling"] {
        let out = env.run(["-O", "keep.json", bad]);
        assert_eq!(out.status.code(), Some(1), "{bad}: {out:?}");
        assert_eq!(
            std::fs::read(env.path("keep.json")).expect("read keep.json"),
            b"KEPT SCAN",
            "-O keep.json {bad} changed the file"
        );
        assert_eq!(
            leftover_temporaries(env.root()),
            Vec::<String>::new(),
            "{bad}"
        );
    }
    let out = env.run(["-O", "keep.json", "d"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let (_, entries) = parse_export(&std::fs::read(env.path("keep.json")).expect("read"));
    assert!(
        entries.len() > 3,
        "the export replaced the file: {entries:?}"
    );
    assert_eq!(leftover_temporaries(env.root()), Vec::<String>::new());
    // as File::create would make it: 0666 less the umask (022 in the test process)
    let mode = std::fs::metadata(env.path("keep.json"))
        .expect("stat")
        .mode()
        & 0o777;
    assert_eq!(mode & 0o644, 0o644, "mode {mode:o}");
}

/// Ctrl-C while the scan runs (held in its first directory listing by strace's delay
/// injection, after the export target was opened): the kept file is intact, the temporary
/// file is removed, and the exit status is the shell's for SIGINT.
#[test]
fn an_interrupted_export_leaves_the_kept_file_as_it_was() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    std::fs::write(env.path("keep.json"), b"KEPT SCAN").expect("write keep.json");
    let mut strace = match Command::new("strace")
        .args(["-f", "-qq", "-o", "/dev/null", "-e", "trace=getdents64"])
        .args(["-e", "inject=getdents64:delay_enter=4000000"])
        .arg(hogs_bin())
        .args(["-O", "keep.json", "d"])
        .current_dir(env.root())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            skip!("skipped: cannot run strace ({e})");
            return;
        }
    };
    let start = Instant::now();
    // opened: the temporary file is there (or, done wrong, the kept file was emptied)
    let kept = || std::fs::read(env.path("keep.json")).expect("read") == b"KEPT SCAN";
    while leftover_temporaries(env.root()).is_empty() && kept() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the export target was never opened"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        std::fs::read(env.path("keep.json")).expect("read"),
        b"KEPT SCAN",
        "the kept file was changed before the scan ended"
    );
    let pids = Command::new("pgrep")
        .args(["-P", &strace.id().to_string()])
        .output()
        .expect("pgrep");
    let hogs_pid = String::from_utf8_lossy(&pids.stdout).trim().to_owned();
    assert!(!hogs_pid.is_empty(), "hogs is strace's child");
    let killed = Command::new("kill")
        .args(["-INT", &hogs_pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    let status = strace.wait().expect("wait for strace");
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert_eq!(
        std::fs::read(env.path("keep.json")).expect("read"),
        b"KEPT SCAN"
    );
    assert_eq!(leftover_temporaries(env.root()), Vec::<String>::new());
}
