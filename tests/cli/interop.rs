//! The export format against the real readers and writers: ncdu 1.18 and gdu from Debian
//! (.ci/run installs them). Each test skips, saying why, when its tool is missing.

use std::process::Command;

use serde_json::Value;

use crate::util::*;

/// The tool's version line, or None (with a note on stderr) when it is not installed.
pub(crate) fn tool(name: &str, version_flag: &str) -> Option<String> {
    match Command::new(name).arg(version_flag).output() {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8_lossy(&out.stdout);
            Some(text.lines().next().unwrap_or("").trim().to_owned())
        }
        _ => {
            skip!("skipped: {name} is not installed (.ci/run installs it)");
            None
        }
    }
}

/// A tree of what the format must carry, minus names gdu's text output cannot show
/// (`hostile` adds those).
fn tree(env: &TestEnv, hostile: bool) {
    mixed_tree(env, "d");
    env.hardlink("d/a/b/big", "d/z/big-again");
    env.symlink("a", "d/link");
    env.fifo("d/pipe");
    if hostile {
        for name in [
            &b"d/bad\xff\xfename"[..],
            b"d/new\nline",
            b"d/q\"uo\\te\x1b",
        ] {
            std::fs::write(env.path(path_bytes(name)), b"data").expect("create a hostile name");
        }
    }
}

/// Everything after the header line (which holds the writer's name and the time), to the
/// last byte.
fn body(export: &[u8]) -> String {
    let cut = export
        .iter()
        .position(|&b| b == b'\n')
        .expect("a header line");
    String::from_utf8_lossy(&export[cut..]).into_owned()
}

pub(crate) fn ncdu(env: &TestEnv, args: &[&str]) -> Vec<u8> {
    let out = Command::new("ncdu")
        .arg("--ignore-config")
        .args(args)
        .current_dir(env.root())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run ncdu");
    assert!(
        out.status.success(),
        "ncdu {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn hogs_writes_what_ncdu_writes() {
    let Some(version) = tool("ncdu", "-v") else {
        return;
    };
    let env = TestEnv::new();
    tree(&env, true);
    for (ncdu_flags, hogs_flags) in [(&[][..], &[][..]), (&["-e"], &["--export-extended"])] {
        let theirs = ncdu(&env, &[ncdu_flags, &["-o", "-", "d"][..]].concat());
        let ours = env.stdout_ok([hogs_flags, &["-O", "-", "d"][..]].concat());
        assert_eq!(
            body(&ours),
            body(&theirs),
            "hogs {hogs_flags:?} vs {version} {ncdu_flags:?}"
        );
    }
}

#[test]
fn ncdu_reads_the_export_and_writes_it_back_unchanged() {
    let Some(version) = tool("ncdu", "-v") else {
        return;
    };
    let env = TestEnv::new();
    tree(&env, true);
    for (ncdu_flags, hogs_flags) in [(&[][..], &[][..]), (&["-e"], &["--export-extended"])] {
        env.stdout_ok([hogs_flags, &["-O", "hogs.json", "d"][..]].concat());
        let again = ncdu(
            &env,
            &[ncdu_flags, &["-f", "hogs.json", "-o", "-"][..]].concat(),
        );
        let ours = std::fs::read(env.path("hogs.json")).expect("read the export");
        assert_eq!(
            body(&again),
            body(&ours),
            "{version} {ncdu_flags:?} -f, then -o"
        );
    }
}

#[test]
fn hogs_imports_what_ncdu_writes() {
    let Some(_) = tool("ncdu", "-v") else {
        return;
    };
    let env = TestEnv::new();
    tree(&env, true);
    std::fs::write(env.path("ncdu.json"), ncdu(&env, &["-e", "-o", "-", "d"])).expect("save");
    for flags in [&[][..], &["-s"], &["-f"], &["-d", "1"]] {
        let mut scanned = env.json([flags, &["d"][..]].concat());
        let mut imported = env.json([flags, &["--import", "ncdu.json"][..]].concat());
        assert_eq!(
            imported["name"].as_str(),
            env.path("d").to_str(),
            "ncdu names the root by its path"
        );
        scanned["name"] = Value::Null;
        imported["name"] = Value::Null;
        own_names(&mut scanned);
        own_names(&mut imported);
        if flags == ["-f"] {
            // a walk that counts entries reads no sizes; the import has them
            scanned = strip_bytes(scanned);
            imported = strip_bytes(imported);
        }
        assert_eq!(
            scanned, imported,
            "hogs -j {flags:?}: the scan vs ncdu's export of it"
        );
    }
    let total = env.total(["--import", "ncdu.json", "-d", "0"]);
    assert_eq!(total, env.du_disk(&["d"]), "vs du -sB1");
    let total = env.total(["--import", "ncdu.json", "-d", "0", "-s"]);
    assert_eq!(total, env.du_apparent(&["d"]), "vs du -sb");
}

fn strip_bytes(mut v: Value) -> Value {
    let mut stack = vec![&mut v];
    while let Some(n) = stack.pop() {
        if let Some(o) = n.as_object_mut() {
            o.remove("disk_bytes");
            o.remove("apparent_bytes");
            if let Some(Value::Array(kids)) = o.get_mut("children") {
                stack.extend(kids.iter_mut());
            }
        }
    }
    v
}

/// `gdu -n -p --no-prefix [-a] -f FILE`: (size, name) of the root's children, and with -s
/// the total.
fn gdu(env: &TestEnv, args: &[&str]) -> Vec<(u64, String)> {
    let out = Command::new("gdu")
        .args(["-n", "-p", "--no-prefix"])
        .args(args)
        .current_dir(env.root())
        .output()
        .expect("run gdu");
    assert!(
        out.status.success(),
        "gdu {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            // "[flag] SIZE NAME": a flag column, the size, then the name ("/dir" for a directory)
            let l = l.get(1..).unwrap_or("").trim_start();
            let (size, name) = l
                .split_once(' ')
                .unwrap_or_else(|| panic!("gdu line {l:?}"));
            let size = size.parse().unwrap_or_else(|_| panic!("gdu size in {l:?}"));
            (size, name.trim_start().trim_start_matches('/').to_owned())
        })
        .collect()
}

#[test]
fn gdu_reads_the_export_with_the_same_sizes() {
    let Some(version) = tool("gdu", "--version") else {
        return;
    };
    let env = TestEnv::new();
    // (small directories: gdu counts every directory as 4096 bytes, whatever the file says)
    tree(&env, false);
    env.stdout_ok(["-O", "hogs.json", "d"]);
    let disk = gdu(&env, &["-s", "-f", "hogs.json"]);
    assert_eq!(
        disk[0].0,
        env.total(["d"]),
        "{version}: total on disk vs hogs"
    );
    assert_eq!(
        disk[0].0,
        env.du_disk(&["d"]),
        "{version}: total on disk vs du"
    );
    let apparent = gdu(&env, &["-s", "-a", "-f", "hogs.json"]);
    assert_eq!(
        apparent[0].0,
        env.total(["-s", "d"]),
        "{version}: apparent total"
    );

    // each child of the root, as hogs shows it
    let v = env.json(["-d", "1", "d"]);
    let mut ours: Vec<(u64, String)> = child_sizes(&v).into_iter().map(|(n, s)| (s, n)).collect();
    let mut theirs = gdu(&env, &["-f", "hogs.json"]);
    ours.sort();
    theirs.sort();
    assert_eq!(theirs, ours, "{version}: children of the root");
}

#[test]
fn hogs_reads_what_gdu_writes() {
    let Some(version) = tool("gdu", "--version") else {
        return;
    };
    let env = TestEnv::new();
    // (gdu drops some bytes of hostile names when it writes them)
    tree(&env, false);
    let out = Command::new("gdu")
        .args(["-n", "-p", "-o", "gdu.json", "d"])
        .current_dir(env.root())
        .output()
        .expect("run gdu");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // gdu writes no sizes for directories and marks only some hard links, so only the
    // shape can be compared: the same names at the same places
    let names = |v: &Value| {
        // every path below the root
        let mut all = Vec::new();
        let mut stack: Vec<(&Value, String)> = vec![(v, String::new())];
        while let Some((n, path)) = stack.pop() {
            for c in children(n) {
                let p = format!("{path}/{}", name(c));
                all.push(p.clone());
                stack.push((c, p));
            }
        }
        all.sort();
        all
    };
    let imported = env.json(["--import", "gdu.json", "-n", "1000"]);
    let scanned = env.json(["d", "-n", "1000"]);
    // a hard-linked inode is shown under one of its names (as dust), which gdu does not
    // always mark: compare without the two names of d/a/b/big, the scan showing one
    let links = ["/a/b/big", "/z/big-again"];
    let shown = names(&scanned)
        .iter()
        .filter(|n| links.contains(&n.as_str()))
        .count();
    assert_eq!(shown, 1, "{version}: one name of the hard-linked inode");
    let without = |v: &Value| -> Vec<String> {
        names(v)
            .into_iter()
            .filter(|n| !links.contains(&n.as_str()))
            .collect()
    };
    assert_eq!(
        without(&imported),
        without(&scanned),
        "{version}: the same entries"
    );
}

#[test]
fn unreadable_directories_are_written_as_ncdu_writes_them() {
    let Some(version) = tool("ncdu", "-v") else {
        return;
    };
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    tree(&env, false);
    env.file("d/locked/secret", 5000);
    env.chmod("d/locked", 0o000);
    let run = |program: &str, args: &[&str]| {
        let out = unprivileged(std::path::Path::new(program))
            .args(args)
            .current_dir(env.root())
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run as an unprivileged user");
        out.stdout
    };
    let hogs = hogs_bin();
    let ours = run(hogs.to_str().expect("utf-8 path"), &["-O", "-", "d"]);
    let theirs = run("ncdu", &["--ignore-config", "-o", "-", "d"]);
    let locked = body(&ours)
        .lines()
        .find(|l| l.starts_with(r#"[{"name":"locked","#))
        .map(str::to_owned);
    assert!(
        locked
            .as_deref()
            .is_some_and(|l| l.ends_with(r#","read_error":true}],"#)),
        "{locked:?}"
    );
    assert_eq!(
        body(&ours),
        body(&theirs),
        "hogs vs {version}, unprivileged"
    );
}

#[test]
fn other_filesystems_are_written_as_ncdu_writes_them() {
    let Some(version) = tool("ncdu", "-v") else {
        return;
    };
    let env = TestEnv::new();
    env.file("d/f", 100).mkdir("d/mnt");
    let Some(_mounted) = mount_tmpfs(&env.path("d/mnt")) else {
        return;
    };
    env.file("d/mnt/inside", 3000);
    for flags in [&["-x"][..], &[]] {
        let theirs = ncdu(&env, &[flags, &["-o", "-", "d"][..]].concat());
        let ours = env.stdout_ok([flags, &["-O", "-", "d"][..]].concat());
        assert_eq!(body(&ours), body(&theirs), "hogs vs {version}, {flags:?}");
    }
}
