//! Unit tests of `settle::extents` (a file of their own, so the module stays readable).

use super::*;
use crate::tree::{Node, TreeBuilder};

/// r/{a/{x, y}, b/{z}}: ids 1 r, 2 a, 3 b, 4 x, 5 y, 6 z.
fn tree() -> Tree {
    let mut b = TreeBuilder::new();
    b.add_roots(vec![(b"r".to_vec(), Node::new(EntryKind::Dir, 0, 0, 0, 0))]);
    let dir = || Node::new(EntryKind::Dir, 0, 0, 0, 0);
    let file = |size| Node::new(EntryKind::File, size, size, 0, 0);
    b.add_children(1, vec![(dir(), &b"a"[..]), (dir(), &b"b"[..])].into_iter());
    b.add_children(
        2,
        vec![(file(8192), &b"x"[..]), (file(8192), &b"y"[..])].into_iter(),
    );
    b.add_children(3, vec![(file(4096), &b"z"[..])].into_iter());
    b.into_tree()
}

fn piece(start: u64, len: u64, shared: bool) -> Piece {
    Piece {
        space: 1,
        start,
        len,
        shared,
        whole: false,
    }
}

fn held(pieces: Vec<Piece>, private: u64) -> Option<Holding> {
    Some(Holding {
        private,
        linked: false,
        pieces,
    })
}

fn totals(mut t: Tree) -> Vec<(u64, u64, u64)> {
    t.finish();
    (0..t.len())
        .map(|i| {
            (
                t.node(i as NodeId).disk,
                t.sharing[i].exclusive,
                t.sharing[i].shared,
            )
        })
        .collect()
}

#[test]
fn a_clone_counts_once_where_first_met_and_is_shared_by_both_sides() {
    let mut t = tree();
    // x and z are clones (one 8 KiB range), y is its own
    let mut h = vec![None; 7];
    h[4] = held(vec![piece(0, 8192, true)], 0);
    h[5] = held(vec![piece(65536, 4096, false)], 100);
    h[6] = held(vec![piece(0, 8192, true)], 0);
    settle(&mut t, h);
    let got = totals(t);
    // (disk, exclusive, shared) of total, r, a, b, x, y, z
    assert_eq!(got[4], (8192, 0, 8192), "x: met first");
    assert_eq!(got[6], (0, 0, 8192), "z: the clone, counted at x");
    assert_eq!(got[5], (4196, 4196, 0), "y: its own");
    assert_eq!(got[2], (12388, 4196, 8192), "a");
    assert_eq!(got[3], (0, 0, 8192), "b");
    assert_eq!(got[1], (12388, 4196, 8192), "r: the clone once");
}

#[test]
fn overlapping_ranges_count_their_union() {
    let mut t = tree();
    let mut h = vec![None; 7];
    // x refers to [0, 12K), z to [4K, 8K) and [8K, 16K) of the same disk
    h[4] = held(vec![piece(0, 12288, true)], 0);
    h[5] = held(vec![], 0);
    h[6] = held(vec![piece(4096, 4096, true), piece(8192, 8192, true)], 0);
    settle(&mut t, h);
    let got = totals(t);
    assert_eq!(got[1].0, 16384, "the union of [0, 12K) and [4K, 16K)");
    assert_eq!(got[4].0, 12288);
    assert_eq!(
        got[6],
        (4096, 0, 12288),
        "z: only [12K, 16K) is first met at z"
    );
    assert_eq!(got[1].2, 16384, "r shares the union, once");
}

#[test]
fn what_nothing_else_refers_to_is_exclusive_all_the_way_up() {
    let mut t = tree();
    let h = vec![
        None,
        None,
        None,
        None,
        held(vec![piece(0, 8192, false)], 0),
        None,
        held(vec![], 4096),
    ];
    settle(&mut t, h);
    let got = totals(t);
    // y was not measured: the walk's 8192 stands, exclusive
    assert_eq!(got[1], (20480, 20480, 0));
    assert_eq!(got[0], (20480, 20480, 0));
}

#[test]
fn a_hard_linked_file_is_never_exclusive() {
    let mut t = tree();
    let mut h = vec![None; 7];
    h[4] = Some(Holding {
        private: 8192,
        linked: true,
        pieces: vec![],
    });
    settle(&mut t, h);
    let got = totals(t);
    assert_eq!(got[4], (8192, 0, 8192));
    assert_eq!(got[1], (20480, 12288, 8192));
}

#[test]
fn fiemap_counts_shared_extents_apart_from_the_rest_of_the_blocks() {
    let e = |logical, physical, length, flags| Extent {
        logical,
        physical,
        length,
        flags,
    };
    let extents = [
        e(0, 1 << 20, 4096, fl::SHARED),
        e(4096, 2 << 20, 8192, 0),
        e(12288, 0, 4096, fl::DELALLOC | fl::UNKNOWN),
    ];
    let h = from_fiemap(7, &extents, 20480, false);
    assert_eq!(h.pieces, vec![piece_in(7, 1 << 20, 4096)]);
    assert_eq!(h.private, 16384, "st_blocks less the shared extent");
    // compressed and shared (btrfs without its tree search): shared, never exclusive
    let compressed = [e(0, 1 << 30, 131072, fl::ENCODED | fl::SHARED)];
    let h = from_fiemap(7, &compressed, 131072, false);
    assert_eq!(h.pieces, vec![piece_in(7, 1 << 30, 131072)]);
    assert_eq!(h.private, 0);
}

fn piece_in(space: u128, start: u64, len: u64) -> Piece {
    Piece {
        space,
        start,
        len,
        shared: true,
        whole: false,
    }
}

#[test]
fn btrfs_items_count_compressed_sizes_and_inline_data() {
    let items = [
        BtrfsExtent::Inline { disk: 6 },
        BtrfsExtent::Regular {
            logical: 0,
            disk_bytenr: 0,
            disk_num_bytes: 0,
            offset: 0,
            num_bytes: 4096,
            compressed: false,
        },
        BtrfsExtent::Regular {
            logical: 4096,
            disk_bytenr: 1 << 30,
            disk_num_bytes: 4096,
            offset: 0,
            num_bytes: 131072,
            compressed: true,
        },
    ];
    let extents = [Extent {
        logical: 4096,
        physical: 1 << 30,
        length: 131072,
        flags: fl::ENCODED | fl::SHARED,
    }];
    let h = from_btrfs_items(9, &items, &extents, false);
    assert_eq!(h.private, 6);
    assert_eq!(h.pieces, vec![piece_in(9, 1 << 30, 4096)]);
}
