//! ncdu 2's binary export and zstd-compressed JSON: hogs reads what ncdu 2.8 wrote (the
//! fixtures in tests/fixtures/ncdu2, each beside the JSON of the same scan), writes what it
//! reads back as the walk it came from, and refuses damaged files with one line.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use hogs::formats::ncdu_bin::read_binary;
use hogs::formats::ncdu_bin::spec::{etype, Item, MAGIC};
use hogs::formats::ncdu_bin::{write_tree, BinWriter};
use hogs::formats::ncdu_json::write::NcduOptions;
use hogs::import::{import_file, Keep};
use hogs::tree::Tree;
use hogs::vocab::SizeMode;
use hogs::walk::{walk, Exclusions, Progress, Scan, WalkOptions};

use crate::import::{facts, rich_tree, Facts};
use crate::util::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ncdu2")
        .join(name)
}

fn load(path: &Path) -> Scan {
    import_file(path.as_os_str(), false, Keep::ALL)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Facts without which name of a hard link counts (the order of two scans may differ), and
/// the totals after `finish`.
fn comparable(tree: &Tree, kinds: bool) -> (Facts, [(u64, u64, u32); 2]) {
    let f = facts(tree, kinds)
        .into_iter()
        .map(|(p, s)| (p, s.replace("flags=17 ", "flags=16 ")))
        .collect();
    let mut done = tree.clone();
    done.finish();
    let tot = |id| {
        let n = done.node(id);
        (n.disk, n.apparent, n.entries)
    };
    (f, [tot(0), tot(1)])
}

#[test]
fn ncdu2_exports_read_as_the_json_of_the_same_scan() {
    for (file, json, kinds) in [
        ("tree.ncdu", "tree.json", false),
        ("tree-threads.ncdu", "tree.json", false),
        ("tree-small-blocks.ncdu", "tree.json", false),
        ("tree.json.zst", "tree.json", false),
        ("tree-extended.ncdu", "tree-extended.json", true),
        ("tree-exclude.ncdu", "tree-exclude.json", false),
        ("balanced-8k-blocks.ncdu", "balanced.ncdu", false),
    ] {
        let (a, b) = (load(&fixture(file)), load(&fixture(json)));
        let (fa, ta) = comparable(&a.tree, kinds);
        let (fb, tb) = comparable(&b.tree, kinds);
        assert_eq!(ta, tb, "{file}: totals");
        assert_eq!(fa.len(), fb.len(), "{file}: entries");
        for (path, fact) in &fb {
            assert_eq!(
                fa.get(path),
                Some(fact),
                "{file}: {}",
                String::from_utf8_lossy(path)
            );
        }
        assert_eq!(a.errors.len(), b.errors.len(), "{file}: errors");
    }
    // what the README there says du and ncdu counted
    let tree = load(&fixture("tree.ncdu")).tree;
    assert_eq!(comparable(&tree, false).1[1].0, 1_069_056);
    let balanced = load(&fixture("balanced.ncdu")).tree;
    assert_eq!(comparable(&balanced, false).1[1].2, 21_001);
}

fn walk_of(env: &TestEnv, extended: bool) -> Scan {
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
    walk(&[root], &opts, &Progress::default())
}

/// `tree` written with blocks of at most `block` bytes of items.
fn binary(tree: &Tree, extended: bool, block: Option<usize>) -> Vec<u8> {
    let o = NcduOptions {
        root_name: b"/somewhere/else",
        extended,
        timestamp: 1,
    };
    let mut w = BinWriter::with_block_size(Vec::new(), block).expect("a writer");
    let root = write_tree(tree, 1, &[], &o, &mut w).expect("export");
    w.finish(root).expect("export")
}

#[test]
fn binary_export_reads_back_as_the_walk() {
    let env = TestEnv::new();
    rich_tree(&env);
    env.mkdir("d/deep");
    env.deep_chain("d/deep", 300);
    for (extended, block) in [
        (false, None),
        (true, None),
        (true, Some(64)),
        (false, Some(300)),
    ] {
        let scan = walk_of(&env, extended);
        assert!(scan.errors.is_empty());
        let file = binary(&scan.tree, extended, block);
        let back = read_binary(&file[..], Keep::ALL).expect("import").scan.tree;
        assert_eq!(back.name(1), b"/somewhere/else");
        let (want, got) = (facts(&scan.tree, extended), facts(&back, extended));
        assert_eq!(want, got, "extended: {extended}, blocks: {block:?}");
        let (mut a, mut b) = (scan.tree, back);
        a.finish();
        b.finish();
        let tot = |t: &Tree| (t.node(1).disk, t.node(1).apparent, t.node(1).entries);
        assert_eq!(tot(&a), tot(&b));
    }
}

#[test]
fn export_formats_by_name_or_flag_and_totals_equal_du() {
    let env = TestEnv::new();
    rich_tree(&env);
    env.file("d/unreadable/secret", 5000)
        .chmod("d/unreadable", 0o000);
    let du = env.du_total(&["-sB1"], &["d"]);
    for (file, flag, magic) in [
        ("x.ncdu", None, &MAGIC[..]),
        ("x.json.zst", None, &[0x28, 0xb5, 0x2f, 0xfd][..]),
        ("x.json", None, b"[1,"),
        ("y.json", Some("binary"), &MAGIC[..]),
        ("y.ncdu", Some("json"), b"[1,"),
    ] {
        let mut args = vec!["-O", file, "d"];
        if let Some(f) = flag {
            args.extend(["--export-format", f]);
        }
        env.run(args);
        let bytes = std::fs::read(env.path(file)).expect("the export");
        assert!(bytes.starts_with(magic), "{file} {flag:?}");
        let total = env.total(["--import", file, "-d", "0"]);
        assert_eq!(total, du, "{file} {flag:?}");
    }
    // from standard input: a file, and a pipe
    let f = std::fs::File::open(env.path("x.ncdu")).expect("open");
    let out = std::process::Command::new(hogs_bin())
        .args(["--import", "-", "-d", "0", "-o", "b"])
        .stdin(f)
        .output()
        .expect("run");
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with(&format!("{du}B")),
        "{out:?}"
    );
    let bytes = std::fs::read(env.path("x.ncdu")).expect("read");
    let out = env
        .hogs()
        .args(["--import", "-", "-d", "0", "-o", "b"])
        .write_stdin(bytes)
        .output()
        .expect("run");
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with(&format!("{du}B")),
        "{out:?}"
    );
    // and to standard output
    let out = env.stdout_ok(["-O", "-", "--export-format", "binary", "d"]);
    assert!(out.starts_with(MAGIC));
}

// ---------- damaged files ----------

/// A file made by hand: these blocks (raw item data, compressed here) and this root.
pub(crate) fn file_of(blocks: &[Vec<u8>], root: u64) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    let mut index = Vec::new();
    for (num, data) in blocks.iter().enumerate() {
        let frame = zstd::bulk::compress(data, 3).expect("compress");
        let len = (frame.len() + 12) as u32;
        index.push((out.len() as u64) << 24 | u64::from(len));
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(&(num as u32).to_be_bytes());
        out.extend_from_slice(&frame);
        out.extend_from_slice(&len.to_be_bytes());
    }
    let len = (16 + 8 * index.len()) as u32 | 1 << 28;
    out.extend_from_slice(&len.to_be_bytes());
    for i in index {
        out.extend_from_slice(&i.to_be_bytes());
    }
    out.extend_from_slice(&root.to_be_bytes());
    out.extend_from_slice(&len.to_be_bytes());
    out
}

/// A root directory with `kids` files, written by hogs's writer; its itemref.
pub(crate) fn small_export(kids: usize, items: Option<u64>) -> Vec<u8> {
    let mut w = BinWriter::new(Vec::new()).expect("writer");
    let mut prev = None;
    for i in 0..kids {
        let item = Item {
            etype: etype::REG,
            name: format!("f{i}").into_bytes(),
            prev,
            asize: Some(100),
            dsize: Some(4096),
            ..Item::default()
        };
        prev = Some(w.item(&item).expect("item"));
    }
    let root = Item {
        etype: etype::DIR,
        name: b"/r".to_vec(),
        sub: prev,
        items: items.or(Some(kids as u64)),
        cumasize: Some(100 * kids as u64),
        cumdsize: Some(4096 * kids as u64),
        ..Item::default()
    };
    let root = w.item(&root).expect("root");
    w.finish(root).expect("finish")
}

fn refused(bytes: &[u8]) -> String {
    match read_binary(bytes, Keep::ALL) {
        Ok(_) => panic!("a damaged file was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn damaged_binary_exports_are_refused_with_what_is_wrong() {
    let good = small_export(3, None);
    assert!(read_binary(&good[..], Keep::ALL).is_ok());
    // truncated anywhere
    for cut in 0..good.len() {
        let e = refused(&good[..cut]);
        assert!(!e.is_empty(), "cut at {cut}");
    }
    assert!(refused(&good[..good.len() - 1]).contains("does not end with an index"));
    // not the signature
    let mut bad = good.clone();
    bad[1] = b'N';
    assert!(refused(&bad).contains("not an ncdu binary export"));
    // a zstd frame damaged (its magic number)
    let mut bad = good.clone();
    bad[8 + 8] ^= 0xff;
    assert!(
        refused(&bad).contains("block 0 (at byte 8) is damaged"),
        "{}",
        refused(&bad)
    );
    // data that is not CBOR, in a valid zstd frame
    let e = refused(&file_of(&[vec![0xff; 40]], 0));
    assert!(e.contains("item 0x0 (block 0) is damaged"), "{e}");
    // a root itemref outside the file, and past the end of its block
    assert!(
        refused(&file_of(&[vec![0xa0]], 7 << 24)).contains("block 7 is not in the file's index")
    );
    assert!(refused(&file_of(&[vec![0xa0]], 50)).contains("points past the end of block 0"));
    // a directory whose last child is its own previous sibling: a loop (the root written
    // last, as writers do: it ends its block)
    // {0: 1, 1: "f", 2: 0} at 0 (prev: itself); {0: 0, 1: "/r", 12: 0} at 8
    let block = vec![
        0xa3, 0x00, 0x01, 0x01, 0x41, b'f', 0x02, 0x00, //
        0xa3, 0x00, 0x00, 0x01, 0x42, b'/', b'r', 0x0c, 0x00,
    ];
    let e = refused(&file_of(&[block], 8));
    assert!(e.contains("reached twice"), "{e}");
    // a directory claiming 2^32 entries below it
    let e = refused(&small_export(2, Some(1 << 32)));
    assert!(
        e.contains("claims 4294967296 entries below it, the file holds 2"),
        "{e}"
    );
}

#[test]
fn a_damaged_import_is_one_line_and_exit_status_1() {
    let env = TestEnv::new();
    let mut bad = small_export(3, None);
    bad.truncate(bad.len() - 3);
    std::fs::write(env.path("x.ncdu"), &bad).expect("write");
    let out = env.run(["--import", "x.ncdu"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "no partial view");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot import 'x.ncdu': truncated or damaged: the file does not end with an index block\n"
    );
    let z = zstd::bulk::compress(b"[1,2,{},[{\"name\":\"/r\"}", 3).expect("compress");
    std::fs::write(env.path("x.zst"), &z[..z.len() - 2]).expect("write");
    let out = env.run(["--import", "x.zst"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("hogs: cannot import 'x.zst': ") && err.lines().count() == 1,
        "{err}"
    );
}
