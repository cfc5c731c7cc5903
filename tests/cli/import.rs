//! `--import`: a scan exported with `-O` loads back into the same tree and shows the same
//! views; damaged files are refused with the place of the damage.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;
use std::process::Stdio;

use hogs::formats::ncdu_json::read;
use hogs::formats::ncdu_json::write::{write_ncdu, NcduOptions};
use hogs::tree::{NodeId, Tree};
use hogs::vocab::SizeMode;
use hogs::walk::{walk, Progress};
use hogs::walk::{Exclusions, WalkOptions};
use serde_json::Value;

use crate::util::*;

/// A tree with everything an export records: nested directories, hard links, a symlink, a
/// FIFO, an empty directory and hostile names.
pub(crate) fn rich_tree(env: &TestEnv) {
    mixed_tree(env, "d");
    env.hardlink("d/a/b/big", "d/z/big-again");
    env.hardlink("d/one", "d/a/one-again");
    env.symlink("a", "d/link");
    env.fifo("d/pipe");
    for name in [
        &b"d/bad\xff\xfename"[..],
        b"d/new\nline",
        "d/日本".as_bytes(),
    ] {
        std::fs::write(env.path(path_bytes(name)), b"data").expect("create a hostile name");
    }
}

/// Every node by path below the root: (kind, disk, apparent, mtime, flags, owner, identity
/// of hard links).
pub(crate) type Facts = BTreeMap<Vec<u8>, String>;

pub(crate) fn facts(tree: &Tree, kinds: bool) -> Facts {
    let root = tree.roots().next().expect("a root");
    let prefix = tree.path(root).len();
    (root..tree.len() as NodeId)
        .map(|id| {
            let n = tree.node(id);
            let kind = match n.kind() {
                hogs::tree::EntryKind::Symlink if !kinds => hogs::tree::EntryKind::Other,
                k => k,
            };
            let link = (n.has(hogs::tree::flags::HARDLINK))
                .then(|| (tree.identity_of(id), tree.links_of(id)));
            let fact = format!(
                "{kind:?} disk={} apparent={} mtime={} flags={} owner={:?} link={link:?} kids={}",
                n.disk,
                n.apparent,
                if kinds { n.mtime } else { 0 },
                n.flags(),
                tree.extra_of(id).map(|e| (e.uid, e.gid, e.mode)),
                n.child_count
            );
            (tree.path(id)[prefix..].to_vec(), fact)
        })
        .collect()
}

#[test]
fn export_then_import_gives_back_the_scanned_tree() {
    let env = TestEnv::new();
    rich_tree(&env);
    for extended in [false, true] {
        let opts = WalkOptions {
            mode: SizeMode::Disk,
            one_filesystem: false,
            follow_links: false,
            exclusions: Exclusions::default(),
            threads: Some(2),
            keep_identity: true,
            sparse_identity: false,
            keep_extra: extended,
            keep_times: extended,
            fold_files: false,
        };
        let root: OsString = env.path("d").into();
        let scan = walk(&[root], &opts, &Progress::default());
        assert!(scan.errors.is_empty());
        let mut file = Vec::new();
        let name = b"/somewhere/else";
        let o = NcduOptions {
            root_name: name,
            extended,
            timestamp: 1,
        };
        write_ncdu(&scan.tree, 1, &scan.errors, &o, &mut file).expect("export");
        let import = read(file.as_slice()).expect("import");
        assert!(import.scan.errors.is_empty());
        let back = import.scan.tree;
        assert_eq!(back.name(1), name);
        let (want, got) = (facts(&scan.tree, extended), facts(&back, extended));
        assert_eq!(want.len(), got.len(), "entries (extended: {extended})");
        for (path, fact) in &want {
            assert_eq!(
                Some(fact),
                got.get(path),
                "{} (extended: {extended})",
                String::from_utf8_lossy(path)
            );
        }
        // and the totals after `finish`
        let (mut a, mut b) = (scan.tree, back);
        a.finish();
        b.finish();
        for id in [0, 1] {
            let (x, y) = (a.node(id), b.node(id));
            assert_eq!(
                (x.disk, x.apparent, x.entries),
                (y.disk, y.apparent, y.entries)
            );
        }
    }
}

/// The JSON view with the root renamed (an import names the root by its absolute path).
fn view(env: &TestEnv, args: &[&str]) -> Value {
    let mut v = env.json(args);
    v["name"] = Value::String("ROOT".into());
    own_names(&mut v);
    v
}

fn drop_bytes(v: &mut Value) {
    if let Some(o) = v.as_object_mut() {
        o.remove("disk_bytes");
        o.remove("apparent_bytes");
    }
    if let Some(kids) = v.get_mut("children").and_then(Value::as_array_mut) {
        kids.iter_mut().for_each(drop_bytes);
    }
}

#[test]
fn imported_views_equal_scanned_views() {
    let env = TestEnv::new();
    rich_tree(&env);
    env.stdout_ok(["--export-extended", "-O", "scan.json", "d"]);
    env.stdout_ok(["-O", "plain.json", "d"]);
    let flag_sets: &[&[&str]] = &[
        &[],
        &["-s"],
        &["-f"],
        &["-d", "1"],
        &["-e", "f40"],
        &["-v", "big", "-s"],
        &["-D"],
        &["-z", "8K"],
    ];
    for flags in flag_sets {
        let mut scanned = view(&env, &[flags, &["d"][..]].concat());
        let mut imported = view(&env, &[flags, &["--import", "scan.json"][..]].concat());
        if flags.contains(&"-f") {
            // a walk that counts entries reads no sizes; an import has them
            drop_bytes(&mut scanned);
            drop_bytes(&mut imported);
        }
        assert_eq!(scanned, imported, "hogs -j {flags:?}");
        // the text view without bars: the same but for the root's name and its padding
        let scanned = env.stdout_ok([flags, &["-b", "-w", "200", "d"][..]].concat());
        let imported =
            env.stdout_ok([flags, &["-b", "-w", "200", "--import", "plain.json"][..]].concat());
        let root = env.path("d");
        let unpad = |b: &[u8], from: &str| {
            String::from_utf8_lossy(b)
                .replace(from, "d")
                .replace(' ', "")
        };
        assert_eq!(
            unpad(&scanned, "\u{0}"),
            unpad(&imported, root.to_str().expect("utf-8 temp dir")),
            "hogs -b {flags:?}"
        );
    }
}

#[test]
fn reexport_of_an_import_is_the_same_file() {
    let env = TestEnv::new();
    rich_tree(&env);
    env.symlink("no-such-target", "d/dangling");
    for extended in [&[][..], &["--export-extended"][..]] {
        // -L: the dangling link is an entry with read_error
        let out = env.run([extended, &["-L", "-O", "a.json", "d"][..]].concat());
        assert_eq!(out.status.code(), Some(1), "the dangling link is an error");
        let out = env.run([extended, &["--import", "a.json", "-O", "b.json"][..]].concat());
        assert_eq!(out.status.code(), Some(1), "the import repeats the error");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "hogs: cannot access '{}/dangling': error recorded in the imported scan\n",
                env.path("d").display()
            )
        );
        let body = |f: &str| {
            let bytes = std::fs::read(env.path(f)).expect("read the export");
            let cut = bytes
                .iter()
                .position(|&b| b == b'\n')
                .expect("a header line");
            bytes[cut..].to_vec()
        };
        assert_eq!(
            String::from_utf8_lossy(&body("a.json")),
            String::from_utf8_lossy(&body("b.json")),
            "{extended:?}"
        );
        assert!(body("a.json").windows(4).any(|w| w == b"\xff\xfena"));
    }
}

#[test]
fn import_of_an_unreadable_directory_repeats_the_error() {
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    env.file("d/locked/secret", 50_000).file("d/open/x", 10);
    env.chmod("d/locked", 0o000);
    // (the unprivileged user cannot write in the test directory: the export goes to stdout)
    let out = env.run_unprivileged(["-O", "-", "d"]);
    assert_eq!(out.status.code(), Some(1));
    std::fs::write(env.path("scan.json"), &out.stdout).expect("save the export");
    let scanned = env.run_unprivileged(["-j", "d"]);
    let out = env.run(["-j", "--import", "scan.json"]);
    assert_eq!(out.status.code(), Some(1), "as the scan itself");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "hogs: cannot read directory '{}/locked': error recorded in the imported scan\n",
            env.path("d").display()
        )
    );
    let mut a: Value = serde_json::from_slice(&scanned.stdout).expect("json");
    let mut b: Value = serde_json::from_slice(&out.stdout).expect("json");
    a["name"] = Value::Null;
    b["name"] = Value::Null;
    own_names(&mut a);
    own_names(&mut b);
    assert_eq!(a, b);
}

#[test]
fn import_of_a_deep_chain_from_stdin() {
    const DEEP: usize = 20_000;
    let mut env = TestEnv::new();
    env.set_deep_cleanup();
    env.mkdir("deep");
    env.deep_chain("deep", DEEP);
    env.file("deep/top", 5000);
    let export = env.stdout_ok(["-O", "-", "deep"]);
    let mut child = std::process::Command::new(hogs_bin())
        .args(["--import", "-", "-j", "-d", "0"])
        .current_dir(env.root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hogs");
    let mut stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || stdin.write_all(&export));
    let out = child.wait_with_output().expect("wait for hogs");
    feeder.join().expect("feeder").expect("feed the export");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(size(&v), env.du_disk(&["deep"]));
    assert_eq!(field_u64(&v, "entries"), env.du_inodes(&["deep"]));
}

#[test]
fn bad_imports_are_one_line_errors() {
    let env = TestEnv::new();
    env.file("d/x", 10);
    let out = env.run(["--import", "nope.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot import 'nope.json': No such file or directory\n"
    );
    std::fs::write(
        env.path("bad.json"),
        "[1,2,{},\n[{\"name\":\"/r\"},\n{\"name\":\"a\",\"asize\":-1}]]",
    )
    .expect("write");
    let out = env.run(["--import", "bad.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "no partial view");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot import 'bad.json': line 3, column 21 (byte 45): \"asize\" must be a whole number from 0 to 2^64-1\n"
    );
    let out = env.run(["--import", "d"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot import 'd': Is a directory\n"
    );
    // a path and an import: which one?
    assert_eq!(
        env.run(["--import", "bad.json", "d"]).status.code(),
        Some(2)
    );
}

#[test]
fn import_accepts_what_other_writers_write() {
    let env = TestEnv::new();
    // ncdu 2 spells it "otherfs", ncdu 1 "othfs"; unknown keys anywhere are skipped
    let doc = r#"[1,2,{"progname":"other","x":[{"y":1}]},
[{"name":"/r","asize":4096,"dsize":4096,"dev":1,"future":{"a":[1,2]}},
[{"name":"m1","dev":2,"excluded":"otherfs"}],
[{"name":"m2","dev":3,"excluded":"othfs"}],
{"name":"f","asize":100,"dsize":4096,"new_flag":true}]]"#;
    std::fs::write(env.path("x.json"), doc).expect("write");
    let v = env.json(["--import", "x.json", "-s"]);
    assert_eq!(size(&v), 4096 + 100);
    // the mount points are read as other filesystems: not shown (as dust -x shows none),
    // written back to an export
    assert_eq!(children(&v).len(), 1, "{v}");
    let export =
        String::from_utf8_lossy(&env.stdout_ok(["--import", "x.json", "-O", "-"])).into_owned();
    for m in ["m1", "m2"] {
        assert!(
            export.contains(&format!(r#"{{"name":"{m}","dev":"#))
                && export.matches(r#""excluded":"othfs""#).count() == 2,
            "{export}"
        );
    }
}
