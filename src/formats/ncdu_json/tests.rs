//! The parser on hand-written and damaged inputs (the CLI tests cover real scans).

use super::ImportError;
use super::{read, read_tree};
use crate::tree::{flags, EntryKind, NodeId, Tree, TOTAL};
use crate::walk::ErrorAt;

const SAMPLE: &str = r#"[1,2,{"progname":"ncdu","progver":"1.18","timestamp":1700000000},
[{"name":"/srv/data","asize":4096,"dsize":4096,"dev":64768},
{"name":"a.txt","asize":10,"dsize":4096},
[{"name":"sub","asize":4096,"dsize":4096,"unknown":{"deep":[1,[2,{"x":null}]]}},
{"name":"h1","asize":5000,"dsize":8192,"ino":42,"hlnkc":true,"nlink":2},
{"name":"link","asize":7,"notreg":true}],
{"name":"h2","asize":5000,"dsize":8192,"ino":42,"hlnkc":true,"nlink":2},
[{"name":"mnt","dev":99,"excluded":"otherfs"}],
[{"name":"old","dev":98,"excluded":"othfs"}],
{"name":"skipped","excluded":"pattern"},
{"name":"gone","read_error":true},
[{"name":"locked","asize":4096,"dsize":4096,"read_error":true}]]]"#;

fn by_path(tree: &Tree, path: &str) -> NodeId {
    (1..tree.len() as NodeId)
        .find(|&id| tree.path(id) == path.as_bytes())
        .unwrap_or_else(|| panic!("no {path}"))
}

#[test]
fn sample_loads_with_every_field() {
    let import = read(SAMPLE.as_bytes()).expect("the sample loads");
    assert_eq!(import.meta.progname.as_deref(), Some("ncdu"));
    assert_eq!(import.meta.progver.as_deref(), Some("1.18"));
    assert_eq!(import.meta.timestamp, Some(1_700_000_000));
    assert_eq!((import.meta.major, import.meta.minor), (1, 2));
    let mut tree = import.scan.tree;
    assert_eq!(tree.roots().len(), 1);
    assert_eq!(tree.name(1), b"/srv/data");
    // gone (read_error, not a directory) is only an error, as in a walk
    assert_eq!(tree.len(), 1 + 10);
    let sub = by_path(&tree, "/srv/data/sub");
    assert_eq!(tree.node(sub).child_count, 2);
    let h1 = by_path(&tree, "/srv/data/sub/h1");
    let h2 = by_path(&tree, "/srv/data/h2");
    assert!(tree.node(h1).has(flags::HARDLINK) && !tree.node(h1).has(flags::DUPLICATE));
    assert!(
        tree.node(h2).has(flags::DUPLICATE),
        "the later name of inode 42"
    );
    assert_eq!(tree.links_of(h2), Some(2));
    assert_eq!(tree.identity_of(h1), Some((64768, 42)), "dev inherited");
    let link = by_path(&tree, "/srv/data/sub/link");
    assert_eq!(tree.node(link).kind(), EntryKind::Other);
    for m in ["mnt", "old"] {
        let id = by_path(&tree, &format!("/srv/data/{m}"));
        assert!(tree.node(id).has(flags::OTHER_FS), "{m}");
        assert!(tree.node(id).is_dir());
    }
    assert_eq!(
        tree.identity_of(by_path(&tree, "/srv/data/mnt")),
        Some((99, 0))
    );
    assert!(tree
        .node(by_path(&tree, "/srv/data/skipped"))
        .has(flags::FILTERED));
    let locked = by_path(&tree, "/srv/data/locked");
    assert!(tree.node(locked).has(flags::UNREADABLE));

    let errors = &import.scan.errors;
    assert_eq!(errors.len(), 2);
    assert!(matches!(&errors[0].at, ErrorAt::Entry(p, n) if *p == 1 && &**n == b"gone"));
    assert!(matches!(errors[1].at, ErrorAt::Node(id) if id == locked));

    tree.finish();
    // 4096 * 3 directories + a.txt + one of the hard links
    assert_eq!(tree.node(TOTAL).disk, 3 * 4096 + 4096 + 8192);
    assert_eq!(tree.node(TOTAL).apparent, 3 * 4096 + 10 + 5000 + 7);
}

#[test]
fn every_truncation_is_an_error_never_a_partial_tree() {
    for cut in 0..SAMPLE.len() {
        let input = &SAMPLE.as_bytes()[..cut];
        if input.iter().all(u8::is_ascii_whitespace) && cut > 0 {
            continue;
        }
        assert!(
            read_tree(input).is_err(),
            "a prefix of {cut} bytes loaded: {:?}",
            String::from_utf8_lossy(input)
        );
    }
    assert!(read_tree(SAMPLE.as_bytes()).is_ok());
}

#[test]
fn every_single_byte_change_is_handled() {
    // flip each byte to a few troublemakers: the parser must answer, never panic
    for i in 0..SAMPLE.len() {
        for b in [b'"', b'[', b']', b'{', b'}', b',', b'\\', 0xff, 0, b'9'] {
            let mut input = SAMPLE.as_bytes().to_vec();
            input[i] = b;
            let _ = read(input.as_slice());
        }
    }
}

fn error_of(input: &str) -> String {
    match read(input.as_bytes()) {
        Ok(_) => panic!("loaded: {input}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn malformed_inputs_say_where_and_what() {
    let cases: &[(&str, &str)] = &[
        (
            "",
            "line 1, column 1 (byte 0): unexpected end of input, expected '['",
        ),
        (
            "{}",
            "line 1, column 1 (byte 0): expected '[' (an ncdu export starts",
        ),
        (
            "[2,0,{},[{\"name\":\"/\"}]]",
            "unsupported format version 2",
        ),
        (
            "[1,2,{},{\"name\":\"/\"}]",
            "the top-level entry must be a directory",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"}]] x",
            "line 1, column 25 (byte 24): expected the end of the input, found 'x'",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"},\n {\"asize\":1}]]",
            "line 2, column 2 (byte 24): entry without a \"name\"",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"},{\"name\":\"a\",\"dsize\":1.5}]]",
            "\"dsize\" must be a whole number",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"},{\"name\":\"a\",\"dsize\":\"1\"}]]",
            "\"dsize\" must be a whole number",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"},{\"name\":\"a\",\"hlnkc\":1}]]",
            "\"hlnkc\" must be true or false",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"},{\"name\":\"..\"}]]",
            "the name '.' or '..'",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"},{\"name\":\"\"}]]",
            "an empty name",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"},{\"name\":\"a\\u0000b\"}]]",
            "NUL byte",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"},{\"name\":\"a\tb\"}]]",
            "control character 0x09",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"},{\"name\":\"a\"}}]]",
            "expected ',' or ']', found '}'",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"},[{\"name\":\"d\"},]]]",
            "expected '[' (a directory) or '{' (a file), found ']'",
        ),
        (
            "[1,2,{},[{\"name\":\"/\"},{\"name\":\"a\",\"x\":[1,}]]",
            "line 1, column 42 (byte 41): expected a value, found '}'",
        ),
        ("[1,2,{},[{\"name\":\"\"}]]", "the root needs a name"),
        (
            "[1,2,{},[{\"name\":\"/\"},{\"name\":\"a\",\"asize\":18446744073709551616}]]",
            "\"asize\" must be a whole number",
        ),
    ];
    for (input, want) in cases {
        let got = error_of(input);
        assert!(
            got.contains(want),
            "{input:?}\n  got:  {got}\n  want: {want}"
        );
    }
    let long = format!(
        "[1,2,{{}},[{{\"name\":\"/\"}},{{\"name\":\"{}\"}}]]",
        "x".repeat(256)
    );
    assert!(error_of(&long).contains("a name longer than 255 bytes"));
    let longer = long.replace(&"x".repeat(256), &"y".repeat(100_000));
    assert!(error_of(&longer).contains("column 31 (byte 30): name too long"));
    let ok = format!(
        "[1,2,{{}},[{{\"name\":\"/\"}},{{\"name\":\"{}\"}}]]",
        "x".repeat(255)
    );
    assert!(read(ok.as_bytes()).is_ok());
}

#[test]
fn compressed_and_binary_inputs_are_named() {
    for (head, what) in [
        (&[0x28u8, 0xb5, 0x2f, 0xfd, 0][..], "zstd"),
        (&[0x1f, 0x8b, 8, 0], "gzip"),
        (b"\xbfncduEX1....", "ncdu's binary export format"),
    ] {
        match read(head) {
            Err(e @ ImportError::Unsupported(_)) => {
                assert!(e.to_string().contains(what), "{e}")
            }
            other => panic!("{what}: {other:?}"),
        }
    }
}

#[test]
fn a_20000_deep_export_loads() {
    const DEEP: usize = 20_000;
    let mut doc = String::from("[1,2,{},\n[{\"name\":\"/r\",\"asize\":1}");
    for _ in 0..DEEP {
        doc.push_str(",\n[{\"name\":\"d\",\"asize\":1,\"dsize\":4096}");
    }
    doc.push_str(",{\"name\":\"leaf\",\"dsize\":8192}");
    doc.push_str(&"]".repeat(DEEP + 1));
    doc.push(']');
    let mut tree = read_tree(doc.as_bytes()).expect("the deep export loads");
    assert_eq!(tree.len(), 1 + 1 + DEEP + 1);
    let leaf = tree.len() as NodeId - 1;
    assert_eq!(tree.name(leaf), b"leaf");
    assert_eq!(tree.depth(leaf), DEEP + 1);
    tree.finish();
    assert_eq!(tree.node(TOTAL).disk, DEEP as u64 * 4096 + 8192);
    assert_eq!(tree.node(TOTAL).entries, DEEP as u32 + 2);
}

#[test]
fn children_stay_in_file_order_and_contiguous() {
    let doc = r#"[1,2,{},[{"name":"/r"},[{"name":"a"},{"name":"a1"},[{"name":"a2"},{"name":"x"}]],{"name":"b"},[{"name":"c"},{"name":"c1"}]]]"#;
    let tree = read_tree(doc.as_bytes()).expect("loads");
    let names = |id: NodeId| -> Vec<String> {
        tree.node(id)
            .children()
            .map(|c| String::from_utf8_lossy(tree.name(c)).into_owned())
            .collect()
    };
    assert_eq!(names(1), ["a", "b", "c"]);
    let a = by_path(&tree, "/r/a");
    assert_eq!(names(a), ["a1", "a2"]);
    assert_eq!(names(by_path(&tree, "/r/a/a2")), ["x"]);
    assert_eq!(names(by_path(&tree, "/r/c")), ["c1"]);
    for id in 1..tree.len() as NodeId {
        assert!(tree.parent(id) < id || id == 1, "parents come first");
    }
}

#[test]
fn what_is_not_asked_for_is_not_kept() {
    let doc = r#"[1,2,{},[{"name":"/r","dev":5,"ino":1,"uid":1,"gid":1,"mode":16877},{"name":"h","ino":9,"hlnkc":true,"nlink":3,"uid":2,"gid":2,"mode":33188},[{"name":"d","ino":2},{"name":"f","ino":3}]]]"#;
    let read = |identity, extra| {
        super::read_keeping(
            doc.as_bytes(),
            super::Keep {
                identity,
                extra,
                time: None,
            },
        )
        .expect("loads")
        .scan
        .tree
    };
    let all = read(true, true);
    let h = by_path(&all, "/r/h");
    assert_eq!(all.identity_of(h), Some((5, 9)));
    assert_eq!(all.links_of(h), Some(3));
    assert_eq!(all.extra_of(h).map(|e| e.uid), Some(2));
    assert_eq!(all.extra_of(1).map(|e| e.mode), Some(16877));
    // an entry the export records no owner for has none, not root's
    assert_eq!(all.extra_of(by_path(&all, "/r/d/f")), None);
    assert!(all.has_identity());
    assert_eq!(all.extra.len(), all.len());

    let bare = read(false, false);
    assert!(!bare.has_identity() && bare.links.is_empty() && bare.extra.is_empty());
    // the tree itself is the same
    for id in 0..all.len() as NodeId {
        assert_eq!(bare.path(id), all.path(id));
        assert_eq!(bare.node(id).flags(), all.node(id).flags());
    }
}

/// `--extents`'s keys come back as the tree's sharing, node for node (the file's order is
/// the tree's depth-first order); an export without them, or with a root without them, has
/// none.
#[test]
fn exclusive_and_shared_bytes_are_read_back() {
    let doc = r#"[1,2,{},[{"name":"/r","dsize":4096,"exclusive_bytes":9096,"shared_bytes":3000},
[{"name":"b","dsize":4096,"exclusive_bytes":4096,"shared_bytes":3000},
{"name":"clone","shared_bytes":3000}],
{"name":"own","dsize":1000,"exclusive_bytes":1000},
[{"name":"a","dsize":4096,"exclusive_bytes":4096,"shared_bytes":3000},
{"name":"orig","dsize":3000,"shared_bytes":3000}]]]"#;
    let tree = read_tree(doc.as_bytes()).expect("loads");
    let sh = |path: &str| {
        let s = tree.sharing[by_path(&tree, path) as usize];
        (s.exclusive, s.shared)
    };
    assert_eq!(sh("/r"), (9096, 3000));
    assert_eq!(sh("/r/b"), (4096, 3000));
    assert_eq!(sh("/r/b/clone"), (0, 3000));
    assert_eq!(sh("/r/own"), (1000, 0));
    assert_eq!(sh("/r/a/orig"), (0, 3000));
    let total = tree.sharing[TOTAL as usize];
    assert_eq!((total.exclusive, total.shared), (9096, 3000));
    let plain = read_tree(SAMPLE.as_bytes()).expect("loads");
    assert!(plain.sharing.is_empty(), "no --extents keys, no sharing");
    let no_root = doc.replacen(r#","exclusive_bytes":9096,"shared_bytes":3000"#, "", 1);
    let tree = read_tree(no_root.as_bytes()).expect("loads");
    assert!(
        tree.sharing.is_empty(),
        "the root says whether the file has them"
    );
}
