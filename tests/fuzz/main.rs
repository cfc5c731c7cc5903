//! Generated-input tests (proptest) of everything that parses user input or prints names:
//! size strings (`-z`), the config file, the ncdu importer (JSON and binary), and the bars
//! renderer on arbitrary byte names. A plain `cargo test` runs a few hundred cases of each
//! (256, under a second for the binary reader); a long run:
//!
//! ```text
//! PROPTEST_CASES=100000 cargo test --release --test fuzz
//! ```
//!
//! Inputs that once found a bug are kept below as plain regression tests.

use std::ffi::OsString;
use std::path::Path;

use clap::Parser;
use proptest::prelude::*;
use unicode_width::UnicodeWidthChar;

/// Columns of a row as wcwidth-based terminals count them: the sum of its characters' widths.
/// (Whole-string rules such as an emoji presentation selector widening `0\u{fe0f}` to 2 are
/// not what xterm or VTE do; the renderer measures per character too.)
fn columns(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

use hogs::config::cli::Cli;
use hogs::config::Config;
use hogs::tree::{EntryKind, Node, Tree, TreeBuilder};
use hogs::units::parse_size;

// ---------- size strings ----------

proptest! {
    #[test]
    fn size_strings_never_panic(s in "\\PC{0,24}") {
        let _ = parse_size(&s);
    }

    #[test]
    fn size_strings_with_units(n in 0u64..1_000_000, unit in prop::sample::select(vec![
        ("", 1u64), ("B", 1), ("K", 1024), ("Ki", 1024), ("KiB", 1024), ("M", 1 << 20),
        ("Mi", 1 << 20), ("G", 1 << 30), ("Gi", 1 << 30), ("T", 1 << 40),
        ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000),
    ])) {
        let text = format!("{n}{}", unit.0);
        if let Some(v) = parse_size(&text) {
            prop_assert_eq!(v, n * unit.1, "{}", text);
        }
    }

    #[test]
    fn size_strings_huge_numbers(digits in "[0-9]{15,40}", unit in "(|K|M|G|T|P|E|Ki|Ti|Pi)") {
        // overflow is refused or saturates, never wraps or panics
        let text = format!("{digits}{unit}");
        if let Some(v) = parse_size(&text) {
            let plain: Option<u64> = digits.parse().ok();
            if let (Some(p), "") = (plain, unit.as_str()) {
                prop_assert_eq!(v, p);
            }
        }
    }
}

// ---------- config file ----------

fn config_key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "reverse",
            "depth",
            "number-of-lines",
            "apparent-size",
            "filecount",
            "ignore-directory",
            "filter",
            "invert-filter",
            "min-size",
            "threads",
            "terminal-width",
            "output-format",
            "no-colors",
            "force-colors",
            "full-paths",
            "only-dir",
            "only-file",
            "bars-on-right",
            "no-reverse",
            "config",
            "import",
            "collapse",
            "file-types",
            "mtime",
            "filetime",
            "stack-size",
        ])
        .prop_map(str::to_string),
        "[a-z-]{1,12}",
    ]
}

fn config_value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("true".to_string()),
        Just("false".to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| format!("{f:?}")),
        "\"[^\"\\\\\n]{0,12}\"".prop_map(|s| s),
        prop::collection::vec("\"[a-z.]{0,6}\"", 0..4).prop_map(|v| format!("[{}]", v.join(", "))),
        Just("{ a = 1 }".to_string()),
        Just("\"\\u0000\"".to_string()),
    ]
}

proptest! {
    #[test]
    fn config_text_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check_config(&bytes)?;
    }

    #[test]
    fn config_settings(lines in prop::collection::vec((config_key(), config_value()), 0..8)) {
        let text: String = lines.iter().map(|(k, v)| format!("{k} = {v}\n")).collect();
        check_config(text.as_bytes())?;
    }
}

/// Errors are one line that names the file and a line that exists.
fn check_config(bytes: &[u8]) -> Result<(), TestCaseError> {
    let path = Path::new("/cfg/config.toml");
    if let Err(e) = hogs::config::file::check_text(path, bytes) {
        prop_assert!(!e.contains('\n'), "multi-line error: {:?}", e);
        let rest = e.strip_prefix("/cfg/config.toml:");
        prop_assert!(rest.is_some(), "error does not name the file: {:?}", e);
        let line: usize = rest
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
        prop_assert!(
            line >= 1 && line <= lines,
            "line {} of {}: {:?}",
            line,
            lines,
            e
        );
    }
    Ok(())
}

// ---------- the ncdu importer ----------

/// A valid export with the given names (as JSON strings) under one root.
fn export_with(names: &[String]) -> String {
    let mut s = String::from(
        r#"[1,2,{"progname":"fuzz","progver":"0","timestamp":1},[{"name":"/r","asize":4096,"dsize":4096,"dev":1,"ino":1}"#,
    );
    for (i, n) in names.iter().enumerate() {
        // a unique prefix: no '.', '..' or duplicate names, which an export may not have
        // and no '/' (an export may not have those either)
        let n = &format!("\"n{i}-{}", &n[1..])
            .replace("\\u002f", "\\u002e")
            .replace('/', "_");
        if i % 3 == 0 {
            s.push_str(&format!(
                r#",[{{"name":{n},"asize":4096,"dsize":4096,"ino":{}}},{{"name":"f","asize":{i},"dsize":4096}}]"#,
                i + 10
            ));
        } else {
            s.push_str(&format!(
                r#",{{"name":{n},"asize":{i},"dsize":512,"ino":{}}}"#,
                i + 10
            ));
        }
    }
    s.push_str("]]");
    s
}

fn json_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "\"[a-zA-Z0-9 ._-]{1,12}\"",
        "\"(\\\\u00[1-7][0-9a-f]|\\\\n|\\\\\\\\|\\\\\"|[^\"\\\\\\x00-\\x1f]){1,8}\"",
    ]
}

proptest! {
    #[test]
    fn import_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = hogs::formats::ncdu_json::read_tree(&bytes[..]);
    }

    #[test]
    fn import_mutated_exports(
        names in prop::collection::vec(json_name(), 1..12),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
    ) {
        let text = export_with(&names);
        let mut bytes = text.clone().into_bytes();
        let whole = hogs::formats::ncdu_json::read_tree(&bytes[..]);
        prop_assert!(whole.is_ok(), "valid export refused: {:?}\n{}", whole.err().map(|e| e.to_string()), text);
        for (at, b) in &flips {
            let i = at.index(bytes.len());
            bytes[i] = *b;
        }
        let _ = hogs::formats::ncdu_json::read_tree(&bytes[..]);
    }

    #[test]
    fn import_truncated_is_an_error(names in prop::collection::vec(json_name(), 1..12), cut in any::<prop::sample::Index>()) {
        let text = export_with(&names);
        let end = text.trim_end().len();
        let at = cut.index(end);
        // never a partial tree passed off as complete
        prop_assert!(hogs::formats::ncdu_json::read_tree(&text.as_bytes()[..at]).is_err(), "accepted a cut at {}: {}", at, &text[..at]);
    }
}

// ---------- the reader of ncdu 2's binary format ----------

/// A valid binary export: a root, directories of files named from `names`, as hogs writes
/// them, with blocks of `block` bytes (many blocks, references across them). Every inode is
/// its own and every directory stores what its entries add up to: a reader refuses a
/// directory whose stored totals are not its entries' sum (issue 40).
fn binary_with(names: &[String], block: usize) -> Vec<u8> {
    use hogs::formats::ncdu_bin::spec::{etype, Item};
    let mut w = hogs::formats::ncdu_bin::BinWriter::with_block_size(Vec::new(), Some(block))
        .expect("a writer");
    let (mut root_last, mut dir_last, mut in_dir) = (None, None, 0u64);
    let (mut items, mut dir_sums, mut root_sums) = (0, (0u64, 0u64), (0u64, 0u64));
    for (i, n) in names.iter().enumerate() {
        let file = Item {
            etype: [etype::REG, etype::LINK, etype::NONREG][i % 3],
            name: format!("n{i}-{}", n.replace('/', "_")).into_bytes(),
            prev: dir_last,
            asize: Some(i as u64),
            dsize: Some(4096),
            ino: Some(i as u64),
            nlink: Some(2),
            ..Item::default()
        };
        dir_last = Some(w.item(&file).expect("item"));
        in_dir += 1;
        dir_sums = (dir_sums.0 + 4096, dir_sums.1 + i as u64);
        if i % 3 == 2 || i + 1 == names.len() {
            let dir = Item {
                etype: etype::DIR,
                name: format!("d{i}").into_bytes(),
                prev: root_last,
                sub: dir_last.take(),
                items: Some(in_dir),
                rderr: Some(false),
                cumdsize: Some(dir_sums.0),
                cumasize: Some(dir_sums.1),
                ..Item::default()
            };
            root_last = Some(w.item(&dir).expect("dir"));
            root_sums = (root_sums.0 + dir_sums.0, root_sums.1 + dir_sums.1);
            dir_sums = (0, 0);
            items += in_dir + 1;
            in_dir = 0;
        }
    }
    let root = Item {
        etype: etype::DIR,
        name: b"/r".to_vec(),
        sub: root_last,
        items: Some(items),
        dev: Some(1),
        cumdsize: Some(root_sums.0),
        cumasize: Some(root_sums.1),
        ..Item::default()
    };
    let root = w.item(&root).expect("root");
    w.finish(root).expect("finish")
}

fn read_binary(bytes: &[u8]) -> Result<hogs::formats::builder::Import, hogs::import::ImportError> {
    hogs::formats::ncdu_bin::read_binary(bytes, hogs::import::Keep::ALL)
}

proptest! {
    #[test]
    fn binary_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut file = b"\xbfncduEX1".to_vec();
        file.extend_from_slice(&bytes);
        let _ = read_binary(&file);
    }

    #[test]
    fn binary_mutated_exports(
        names in prop::collection::vec("[a-z0-9 ._-]{1,12}", 1..20),
        block in 40usize..400,
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
    ) {
        let mut bytes = binary_with(&names, block);
        let whole = read_binary(&bytes);
        prop_assert!(whole.is_ok(), "valid export refused: {:?}", whole.err().map(|e| e.to_string()));
        for (at, b) in &flips {
            let i = at.index(bytes.len());
            bytes[i] = *b;
        }
        // an error or a tree, never a panic, a hang or an unbounded allocation
        let _ = read_binary(&bytes);
    }

    #[test]
    fn binary_truncated_is_an_error(
        names in prop::collection::vec("[a-z0-9]{1,8}", 1..12),
        cut in any::<prop::sample::Index>(),
    ) {
        let bytes = binary_with(&names, 64);
        let at = cut.index(bytes.len());
        prop_assert!(read_binary(&bytes[..at]).is_err(), "accepted a cut at {}", at);
    }
}

// ---------- the binary format read on demand ----------

/// A valid binary export without hard links or errors: a root, directories of files named
/// from `names` with sizes that often tie, each directory's cumulative sizes as hogs writes
/// them.
fn plain_binary_with(names: &[String], block: usize) -> Vec<u8> {
    use hogs::formats::ncdu_bin::spec::{etype, Item};
    let mut w = hogs::formats::ncdu_bin::BinWriter::with_block_size(Vec::new(), Some(block))
        .expect("a writer");
    let (mut root_last, mut dir_last, mut in_dir) = (None, None, 0u64);
    let (mut items, mut sum, mut total) = (0, 0, 0);
    for (i, n) in names.iter().enumerate() {
        let size = (i as u64 % 4) * 512;
        let file = Item {
            etype: [etype::REG, etype::NONREG, etype::PATTERN][i % 3],
            name: format!("n{i}-{}", n.replace('/', "_")).into_bytes(),
            prev: dir_last,
            asize: Some(size),
            dsize: Some(size),
            ..Item::default()
        };
        if i % 3 != 2 {
            sum += size;
        }
        dir_last = Some(w.item(&file).expect("item"));
        in_dir += 1;
        if i % 4 == 3 || i + 1 == names.len() {
            let dir = Item {
                etype: etype::DIR,
                name: format!("d{i}").into_bytes(),
                prev: root_last,
                sub: dir_last.take(),
                items: Some(in_dir),
                asize: Some(0),
                dsize: Some(0),
                cumasize: Some(sum),
                cumdsize: Some(sum),
                ..Item::default()
            };
            root_last = Some(w.item(&dir).expect("dir"));
            items += in_dir + 1;
            (in_dir, total, sum) = (0, total + sum, 0);
        }
    }
    let root = Item {
        etype: etype::DIR,
        name: b"/r".to_vec(),
        sub: root_last,
        items: Some(items),
        cumasize: Some(total),
        cumdsize: Some(total),
        ..Item::default()
    };
    let root = w.item(&root).expect("root");
    w.finish(root).expect("finish")
}

/// The rows a view of `tree` chooses (at most `rows`, to `depth`), by path, size and entries.
fn lazy_rows<T: hogs::tree::TreeView>(
    tree: &T,
    top: T::Id,
    rows: usize,
    depth: Option<usize>,
) -> Vec<(Vec<u8>, usize, u64, u64)> {
    use hogs::tree::{select_rows, Selection, Ties};
    use hogs::vocab::SizeMode;
    let sel = Selection {
        mode: SizeMode::Disk,
        max_rows: rows,
        max_depth: depth,
        min_size: None,
        only_dirs: false,
        hide_empty: false,
        collapsed: Vec::new(),
        ties: Ties::Paths {
            renamed: Vec::new(),
        },
    };
    let count = |id| tree.size(id, SizeMode::Count);
    let mut got: Vec<_> = select_rows(tree, &[top], &sel)
        .iter()
        .map(|r| {
            (
                tree.path(r.id),
                r.depth,
                tree.size(r.id, SizeMode::Disk),
                count(r.id),
            )
        })
        .collect();
    let files = hogs::tree::biggest_files(tree, top, &sel);
    got.extend(
        files
            .into_iter()
            .map(|f| (tree.path(f), 0, tree.size(f, SizeMode::Disk), 0)),
    );
    got
}

proptest! {
    #[test]
    fn binary_read_on_demand_shows_what_the_load_shows(
        names in prop::collection::vec("[a-z0-9]{1,6}", 1..40),
        block in 40usize..400,
        rows in 1usize..30,
        depth in prop::option::of(0usize..3),
    ) {
        use hogs::formats::ncdu_bin::lazy::LazyTree;
        use hogs::tree::TreeView;
        let bytes = plain_binary_with(&names, block);
        let mut loaded = read_binary(&bytes).expect("a valid export").scan.tree;
        loaded.finish();
        let lazy = LazyTree::open(&bytes[..]).expect("opened");
        let top = lazy.roots().next().expect("a root");
        let got = lazy_rows(&lazy, top, rows, depth);
        prop_assert!(lazy.outcome().is_ok());
        let want = lazy_rows(&loaded, 1, rows, depth);
        prop_assert_eq!(got, want);
    }

    #[test]
    fn binary_mutated_exports_read_on_demand(
        names in prop::collection::vec("[a-z0-9 ._-]{1,12}", 1..20),
        block in 40usize..400,
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        plain in any::<bool>(),
    ) {
        use hogs::formats::ncdu_bin::lazy::LazyTree;
        use hogs::tree::TreeView;
        let mut bytes = match plain {
            true => plain_binary_with(&names, block),
            false => binary_with(&names, block),
        };
        for (at, b) in &flips {
            let i = at.index(bytes.len());
            bytes[i] = *b;
        }
        // an answer or a reason to stop, never a panic, a hang or an unbounded allocation
        if let Ok(lazy) = LazyTree::open(&bytes[..]) {
            let top = lazy.roots().next().expect("a root");
            let _ = lazy.errors();
            let _ = lazy_rows(&lazy, top, 20, None);
            let _ = lazy.outcome();
        }
    }
}

// ---------- the renderer on arbitrary names ----------

fn tree_with(names: &[Vec<u8>]) -> Tree {
    let mut b = TreeBuilder::new();
    let root = b.add_roots(vec![(
        b"root".to_vec(),
        Node::new(EntryKind::Dir, 4096, 4096, 0, 0),
    )]);
    let kids: Vec<(Node, &[u8])> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let kind = if i % 4 == 0 {
                EntryKind::Dir
            } else {
                EntryKind::File
            };
            (
                Node::new(kind, 4096 * (i as u64 + 1), 1000 * i as u64, 0, 0),
                &n[..],
            )
        })
        .collect();
    let first = b.add_children(root, kids.into_iter());
    // a grandchild under the first child, with the last name
    if let Some(last) = names.last() {
        b.add_children(
            first,
            std::iter::once((Node::new(EntryKind::File, 8192, 10, 0, 0), &last[..])),
        );
    }
    let mut t = b.into_tree();
    t.finish();
    t
}

fn render(tree: &Tree, width: usize, extra: &[&str], terminal: bool) -> Vec<u8> {
    let mut args: Vec<OsString> = vec![
        "hogs".into(),
        "-w".into(),
        width.to_string().into(),
        "-n".into(),
        "100".into(),
    ];
    args.extend(extra.iter().map(OsString::from));
    let cli = Cli::try_parse_from(args).expect("arguments");
    let mut config = Config::from_cli(cli).expect("config");
    config.view.to_terminal = terminal;
    config.view.color = false;
    let mut out = Vec::new();
    hogs::app::print::render(tree, &config, &mut out).expect("render");
    out
}

proptest! {
    #[test]
    fn renderer_arbitrary_names(
        names in prop::collection::vec(prop_oneof![
            prop::collection::vec(any::<u8>(), 1..40),
            "\\PC{1,20}".prop_map(String::into_bytes),
            prop::collection::vec(prop::sample::select(vec![
                "\u{1b}[2J", "\n", "\r", "\u{202e}", "\u{200b}", "日本", "😀", "\u{0301}", "a", "\u{7}", "\u{9b}",
            ]), 1..6).prop_map(|v| v.concat().into_bytes()),
        ], 1..10),
        width in 20usize..160,
        flags in prop::sample::select(vec!["", "-p", "-r", "-b", "-B", "-F", "-D", "--skip-total"]),
    ) {
        let names: Vec<Vec<u8>> = names.into_iter().filter(|n| !n.contains(&b'/') && !n.contains(&0)).collect();
        prop_assume!(!names.is_empty());
        let tree = tree_with(&names);
        let extra: Vec<&str> = if flags.is_empty() { vec![] } else { vec![flags] };
        let out = render(&tree, width, &extra, true);
        let text = String::from_utf8(out.clone());
        prop_assert!(text.is_ok(), "a terminal got bytes that are not UTF-8");
        let text = text.unwrap_or_default();
        let rows: Vec<&str> = text.lines().collect();
        let expect_rows = match flags {
            "-F" => rows.len(), // a flat list of files: its own count
            "-D" => 1 + names.iter().enumerate().filter(|(i, _)| i % 4 == 0).count(),
            // the one path's own row is left out
            "--skip-total" => 1 + names.len(),
            _ => 2 + names.len(),
        };
        prop_assert_eq!(rows.len(), expect_rows, "rows:\n{}", text);
        let mut widths = Vec::new();
        for l in &rows {
            prop_assert!(!l.chars().any(|c| c.is_control() || matches!(c, '\u{202e}' | '\u{200b}')), "raw control in {:?}", l);
            let w = columns(l);
            prop_assert!(w <= width.max(40), "row wider ({}) than the terminal ({}): {:?}", w, width, l);
            widths.push(w);
        }
        // rows with bars are all as wide; where names leave no room for bars, dust (and so
        // hogs) draws none and does not pad the names
        let bars = rows.iter().all(|l| l.contains('│'));
        if bars && !flags.contains('b') && flags != "-F" {
            prop_assert!(widths.windows(2).all(|w| w[0] == w[1]), "rows of different widths {:?}:\n{}", widths, text);
        }
        // piped: the same number of rows (raw bytes may differ), nothing but names' own bytes
        let piped = render(&tree, width, &extra, false);
        prop_assert_eq!(piped.iter().filter(|&&b| b == b'\n').count(), rows.len());
        prop_assert!(!piped.contains(&0x1b) && !piped.contains(&b'\r'), "raw ESC/CR through a pipe");
    }
}

// ---------- inputs that found bugs ----------

/// `-z 1é`: the unit was sliced at byte 1, inside the two-byte 'é' (a panic, found by
/// `size_strings_never_panic`).
#[test]
fn size_with_a_multibyte_unit_is_refused() {
    assert_eq!(parse_size("1é"), None);
    assert_eq!(parse_size("5\u{1e018}<h"), None);
    assert_eq!(parse_size("2ḱ"), None);
}

/// A name of one combining mark (width 0) at depth 2 in 21 columns: the elided tree prefix
/// `…└─┬ ` took 5 columns where 4 were left, and the row came out one column wider than the
/// others (found by `renderer_arbitrary_names`).
#[test]
fn zero_width_name_in_a_narrow_terminal() {
    let tree = tree_with(&[vec![0xcc, 0x81]]);
    let text = String::from_utf8(render(&tree, 21, &["-r"], true)).expect("UTF-8");
    let widths: Vec<usize> = text.lines().map(columns).collect();
    assert!(
        widths.windows(2).all(|w| w[0] == w[1]),
        "{widths:?}\n{text}"
    );
}
