//! The store's layout: sizes of its parts, values too wide for a slot, own values beside totals.

use super::*;
use crate::tree::flags;

#[test]
fn directories_stay_compact() {
    assert_eq!(std::mem::size_of::<DirInfo>(), 40);
}

/// With the column of apparent sizes and times and without it (see `slot`).
#[test]
fn values_that_do_not_fit_a_slot_come_back_whole() {
    for keep_tails in [false, true] {
        values_come_back_whole(keep_tails);
    }
}

fn values_come_back_whole(keep_tails: bool) {
    let mut t = Tree::with_total();
    if keep_tails {
        t.make_columns();
    }
    let cases = [
        (0, 0, 0, 1),
        (512, 1, 1, 0),
        (4096 * 3, 12_000, 1_700_000_000, 1),
        (1 << 45, 5 << 32, -5, 1), // 32 TiB, 20 GiB, before 1970
        (513, u64::from(u32::MAX), i64::from(u32::MAX), 7), // odd size, the escapes
        (u64::MAX, u64::MAX, i64::MAX, u32::MAX),
    ];
    for (disk, apparent, mtime, entries) in cases {
        let mut n = Node::new(EntryKind::File, disk, apparent, mtime, flags::HARDLINK);
        n.entries = entries;
        let id = t.push_node(TOTAL, &n);
        let got = t.node(id);
        assert_eq!(
            (got.disk, got.apparent, got.mtime, got.entries, got.kind()),
            (disk, apparent, mtime, entries, EntryKind::File)
        );
        assert!(got.has(flags::HARDLINK));
        // and back to small values: nothing wide is left behind
        t.set_node(id, &Node::new(EntryKind::Symlink, 1024, 3, 9, 0));
        let got = t.node(id);
        assert_eq!(
            (got.disk, got.apparent, got.mtime, got.entries),
            (1024, 3, 9, 1)
        );
        assert_eq!(got.kind(), EntryKind::Symlink);
    }
    // (the total's time, i64::MIN, is the one value kept whole; without the column,
    // the small apparent sizes and times wait there, see `slot`)
    let spilled = |k: u64| !keep_tails && t.wide[&k] <= 9;
    let left: Vec<_> = t
        .wide
        .keys()
        .filter(|&&k| k >> FIELD_BITS != 0 && !spilled(k))
        .collect();
    assert!(left.is_empty(), "{:?}", t.wide);
    assert_eq!(t.made_columns(), [keep_tails; 2]);
}

/// A directory's own values, even those kept whole, come back unchanged from sums made
/// while the walk runs, whatever the walk changes meanwhile.
#[test]
fn a_directorys_own_values_survive_live_sums() {
    let mut t = Tree::with_total();
    assert_eq!(t.node(TOTAL).mtime, i64::MIN, "a time kept whole");
    let d = t.push_node(TOTAL, &Node::new(EntryKind::Dir, 513, 5 << 32, -5, 0));
    t.close_block(TOTAL, d, 1);
    let f = t.push_node(d, &Node::new(EntryKind::File, 4096, 100, 2_000_000_000, 0));
    t.close_block(d, f, 1);
    let values = |n: Node| (n.disk, n.apparent, n.entries, n.mtime);
    t.sum_live();
    t.sum_live();
    assert_eq!(
        values(t.node(d)),
        (513 + 4096, (5 << 32) + 100, 2, 2_000_000_000)
    );
    assert_eq!(values(t.own_node(d)), (513, 5 << 32, 1, -5));
    let mut own = t.own_node(d);
    own.disk = 1024;
    t.set_own_node(d, &own);
    assert_eq!(
        t.node(d).disk,
        513 + 4096,
        "the totals wait for the next sum"
    );
    t.sum_live();
    assert_eq!(values(t.node(d)).0, 1024 + 4096);
    assert_eq!(
        values(t.node(TOTAL)),
        (1024 + 4096, (5 << 32) + 100, 2, 2_000_000_000)
    );
    t.forget_totals();
    assert_eq!(values(t.node(d)), (1024, 5 << 32, 1, -5));
    assert_eq!(values(t.node(TOTAL)).3, i64::MIN, "its own time again");
    t.finish();
    assert_eq!(
        values(t.node(d)),
        (1024 + 4096, (5 << 32) + 100, 2, 2_000_000_000)
    );
}

#[test]
fn a_file_becoming_a_directory_keeps_its_parent() {
    let mut t = Tree::with_total();
    let d = t.push_node(TOTAL, &Node::new(EntryKind::Dir, 0, 0, 0, 0));
    t.close_block(TOTAL, d, 1);
    let f = t.push_node(d, &Node::new(EntryKind::File, 512, 1, 1, 0));
    t.close_block(d, f, 1);
    assert_eq!(t.parent(f), d);
    t.set_node(f, &Node::new(EntryKind::Dir, 4096, 4096, 1, 0));
    assert_eq!((t.parent(f), t.node(f).disk), (d, 4096));
    t.set_node(f, &Node::new(EntryKind::File, 512, 1, 1, 0));
    assert_eq!(
        (t.parent(f), t.node(f).disk, t.node(f).is_dir()),
        (d, 512, false)
    );
}
