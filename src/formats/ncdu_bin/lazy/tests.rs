use super::*;
use crate::formats::ncdu_bin::BinWriter;
use crate::tree::{biggest_files, select_rows, Selection, Ties};

impl<S> LazyTree<S> {
    /// What the tree keeps: names, directories' parents, entry counts.
    fn kept(&self) -> (usize, usize, usize) {
        (
            self.names.len(),
            self.dirs.borrow().len(),
            self.counts.borrow().len(),
        )
    }
}

/// `/r` with a directory `big` of `n` files (sizes that tie often) and a file beside it.
fn one_big_directory(n: u64) -> Vec<u8> {
    let mut w = BinWriter::new(Vec::new()).expect("writer");
    let (mut prev, mut sum) = (None, 0);
    for i in 0..n {
        let size = i % 7 * 4096;
        sum += size;
        let file = Item {
            etype: etype::REG,
            name: format!("f{i}").into_bytes(),
            prev,
            asize: Some(size),
            dsize: Some(size),
            ..Item::default()
        };
        prev = Some(w.item(&file).expect("item"));
    }
    let dir = Item {
        etype: etype::DIR,
        name: b"big".to_vec(),
        sub: prev,
        items: Some(n),
        cumasize: Some(sum),
        cumdsize: Some(sum),
        ..Item::default()
    };
    let dir = w.item(&dir).expect("dir");
    let file = Item {
        etype: etype::REG,
        name: b"beside".to_vec(),
        prev: Some(dir),
        asize: Some(1),
        dsize: Some(4096),
        ..Item::default()
    };
    let last = w.item(&file).expect("file");
    let root = Item {
        etype: etype::DIR,
        name: b"/r".to_vec(),
        sub: Some(last),
        items: Some(n + 2),
        cumasize: Some(sum + 1),
        cumdsize: Some(sum + 4096),
        ..Item::default()
    };
    let root = w.item(&root).expect("root");
    w.finish(root).expect("finish")
}

fn selection(rows: usize) -> Selection<ItemId> {
    Selection {
        mode: SizeMode::Disk,
        max_rows: rows,
        max_depth: None,
        min_size: None,
        only_dirs: false,
        hide_empty: false,
        collapsed: Vec::new(),
        ties: Ties::Paths {
            renamed: Vec::new(),
        },
    }
}

#[test]
fn a_huge_directory_costs_what_the_rows_shown_cost() {
    let bytes = one_big_directory(200_000);
    let tree = LazyTree::open(&bytes[..]).expect("open");
    let top = tree.roots().next().expect("root");
    let rows = select_rows(&tree, &[top], &selection(30));
    assert_eq!(rows.len(), 30);
    let names: Vec<&[u8]> = rows.iter().map(|r| tree.name(r.id)).collect();
    assert_eq!(names[..3], [&b"/r"[..], b"big", b"f99994"]);
    let files = biggest_files(&tree, top, &selection(10));
    assert_eq!(tree.name(files[0]), b"f99994");
    assert_eq!(tree.path(files[0]), b"/r/big/f99994");
    assert_eq!(tree.size(top, SizeMode::Count), 200_003);
    let (names, parents, counts) = tree.kept();
    assert!(names <= 40, "{names} names kept");
    assert!(parents <= 2, "{parents} parents kept");
    assert!(counts <= 3, "{counts} counts kept");
    assert!(tree.outcome().is_ok());
}

#[test]
fn children_come_in_the_stored_order_across_segments() {
    for n in [0, 1, 255, 256, 257, 1000] {
        let bytes = one_big_directory(n);
        let tree = LazyTree::open(&bytes[..]).expect("open");
        let top = tree.roots().next().expect("root");
        let big = tree.children(top).next().expect("big");
        assert_eq!(tree.child_count(big), n as usize);
        let names: Vec<Vec<u8>> = tree.children(big).map(|c| tree.name(c).to_vec()).collect();
        let want: Vec<Vec<u8>> = (0..n).map(|i| format!("f{i}").into_bytes()).collect();
        assert_eq!(names, want, "{n}");
        assert!(tree.outcome().is_ok());
    }
}
