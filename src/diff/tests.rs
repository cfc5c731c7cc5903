use std::collections::BTreeMap;

use super::select::{select_diff_rows, DiffSelection};
use super::*;
use crate::tree::{Node, TreeBuilder, TreeView};

/// A finished tree from `path → size` lines; a path ending in `/` is a directory (own size
/// 10). Children are added in the order given, so tests can shuffle them.
fn tree(root: &str, spec: &[(&str, u64)]) -> Tree {
    let mut kids: BTreeMap<String, Vec<(String, Node)>> = BTreeMap::new();
    for &(path, size) in spec {
        let (is_dir, p) = match path.strip_suffix('/') {
            Some(p) => (true, p),
            None => (false, path),
        };
        let (parent, name) = p.rsplit_once('/').unwrap_or(("", p));
        let node = if is_dir {
            Node::new(EntryKind::Dir, 10, 10, 0, 0)
        } else {
            Node::new(EntryKind::File, size, size, 0, 0)
        };
        kids.entry(parent.to_string())
            .or_default()
            .push((name.to_string(), node));
    }
    let mut b = TreeBuilder::new();
    b.add_roots(vec![(
        root.as_bytes().to_vec(),
        Node::new(EntryKind::Dir, 10, 10, 0, 0),
    )]);
    // breadth-first: (id, path)
    let mut queue = vec![(1, String::new())];
    let mut i = 0;
    while i < queue.len() {
        let (id, path) = queue[i].clone();
        i += 1;
        let Some(list) = kids.get(&path) else {
            continue;
        };
        let first = b.add_children(
            id,
            list.iter()
                .map(|(n, node)| (node.clone(), n.as_bytes()))
                .collect::<Vec<_>>()
                .into_iter(),
        );
        for (j, (n, _)) in list.iter().enumerate() {
            let child = if path.is_empty() {
                n.clone()
            } else {
                format!("{path}/{n}")
            };
            queue.push((first + j as NodeId, child));
        }
    }
    let mut t = b.into_tree();
    t.finish();
    t
}

fn matching(old: &Tree, new: &Tree) -> Matching {
    Matching::new(old, 1, new, 1, SizeMode::Disk)
}

/// Every entry below the top: relative path → (status, old, new) in disk bytes.
fn facts<O: TreeView, N: TreeView>(d: &Diff<'_, O, N>) -> BTreeMap<String, (Status, u64, u64)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![d.top()];
    while let Some(e) = stack.pop() {
        let path = String::from_utf8_lossy(&d.rel_path(e)).into_owned();
        let key = match d.status(e) {
            Status::Removed => format!("{path} (removed)"),
            _ => path,
        };
        let fact = (d.status(e), d.old_size(e), d.new_size(e));
        assert!(out.insert(key.clone(), fact).is_none(), "{key} twice");
        stack.extend(d.children(e));
    }
    out
}

#[test]
fn identical_scans_are_the_same_everywhere() {
    let spec = [("a/", 0), ("a/x", 100), ("b", 5)];
    let (old, new) = (tree("/r", &spec), tree("/r", &spec));
    let m = matching(&old, &new);
    let d = m.with(&old, &new);
    let f = facts(&d);
    assert_eq!(f.len(), 4);
    assert!(
        f.values().all(|(s, o, n)| *s == Status::Same && o == n),
        "{f:?}"
    );
    assert_eq!(d.delta(d.top()), 0);
}

/// Two scans with every kind of change, children in another order.
pub(crate) fn changed_pair() -> (Tree, Tree) {
    let old = tree(
        "/r",
        &[
            ("grow", 100),
            ("shrink", 500),
            ("gone", 70),
            ("old-name", 30),
            ("swap", 40),
            ("d/", 0),
            ("d/keep", 1),
            ("d/sub/", 0),
            ("d/sub/deep", 9),
            ("other/", 0),
            ("other/x", 8),
        ],
    );
    let new = tree(
        "/r",
        &[
            // another order than the old scan's: matched by name
            ("swap/", 0),
            ("swap/inner", 3),
            ("new-name", 30),
            ("shrink", 200),
            ("grow", 1000),
            ("fresh", 60),
            ("d/", 0),
            ("d/keep", 1),
            ("other/", 0),
            ("other/x", 8),
        ],
    );
    (old, new)
}

#[test]
fn every_kind_of_change_is_found() {
    let (old, new) = changed_pair();
    let m = matching(&old, &new);
    let d = m.with(&old, &new);
    let f = facts(&d);
    use Status::*;
    let want: BTreeMap<String, (Status, u64, u64)> = [
        ("", (Changed, 10 + 100 + 500 + 70 + 30 + 40 + 30 + 18, 0)),
        ("grow", (Changed, 100, 1000)),
        ("shrink", (Changed, 500, 200)),
        ("gone (removed)", (Removed, 70, 0)),
        ("old-name (removed)", (Removed, 30, 0)),
        ("new-name", (Added, 0, 30)),
        ("fresh", (Added, 0, 60)),
        ("swap (removed)", (Removed, 40, 0)),
        ("swap", (Added, 0, 13)),
        ("swap/inner", (Added, 0, 3)),
        ("d", (Changed, 30, 11)),
        ("d/keep", (Same, 1, 1)),
        ("d/sub (removed)", (Removed, 19, 0)),
        ("d/sub/deep (removed)", (Removed, 9, 0)),
        ("other", (Same, 18, 18)),
        ("other/x", (Same, 8, 8)),
    ]
    .into_iter()
    .map(|(k, mut v)| {
        if k.is_empty() {
            v.2 = 10 + 13 + 30 + 200 + 1000 + 60 + 11 + 18;
        }
        (k.to_string(), v)
    })
    .collect();
    assert_eq!(f, want);
    let top = d.top();
    assert_eq!(
        d.delta(top),
        i128::from(new.node(1).disk) - i128::from(old.node(1).disk)
    );

    // counting entries, a file that only changed size is the same
    let m = Matching::new(&old, 1, &new, 1, SizeMode::Count);
    let d = m.with(&old, &new);
    assert_eq!(d.delta(d.top()), 11 - 12);
    let f = facts(&d);
    assert_eq!(f["grow"].0, Same);
    assert_eq!(f["other"].0, Same);
    assert_eq!(f["d"].0, Changed);
}

#[test]
fn a_rename_inside_changes_the_directory_but_not_its_totals() {
    let old = tree("/r", &[("d/", 0), ("d/a", 5)]);
    let new = tree("/r", &[("d/", 0), ("d/b", 5)]);
    let m = matching(&old, &new);
    let d = m.with(&old, &new);
    let dir = Entry::New(new.node(1).first_child);
    assert_eq!(d.delta(dir), 0);
    assert_eq!(d.status(dir), Status::Changed);
    assert_eq!(d.status(d.top()), Status::Changed);
}

#[test]
fn roots_are_paired_whatever_their_names() {
    let old = tree("/old/place", &[("x", 1)]);
    let new = tree("here", &[("x", 1)]);
    let m = matching(&old, &new);
    let d = m.with(&old, &new);
    assert_eq!(d.status(d.top()), Status::Same);
    assert_eq!(d.name(d.top()), b"here");
    assert_eq!(d.path(Entry::New(2)), b"here/x");
}

#[test]
fn duplicate_names_match_once() {
    // a hand-made export may repeat a name; each old entry has at most one counterpart
    let old = tree("/r", &[("x", 1), ("x", 2)]);
    let new = tree("/r", &[("y", 7), ("x", 1), ("x", 2), ("x", 3)]);
    let m = matching(&old, &new);
    let d = m.with(&old, &new);
    let statuses: Vec<(Vec<u8>, Status)> = d
        .children(d.top())
        .into_iter()
        .map(|e| (d.name(e).to_vec(), d.status(e)))
        .collect();
    assert_eq!(
        statuses,
        vec![
            (b"y".to_vec(), Status::Added),
            (b"x".to_vec(), Status::Same),
            (b"x".to_vec(), Status::Added),
            (b"x".to_vec(), Status::Added),
            (b"x".to_vec(), Status::Removed),
        ]
    );
}

#[test]
fn the_match_made_ahead_and_the_one_made_on_demand_pair_alike() {
    // one rule, two routes: every case, position first then by name, pairs the same entries
    let reordered = (
        tree("/r", &[("a", 1), ("b/", 0), ("b/x", 2), ("c", 3), ("d", 4)]),
        tree(
            "/r",
            &[
                ("d", 4),
                ("c", 3),
                ("e", 5),
                ("b/", 0),
                ("b/x", 9),
                ("a", 1),
            ],
        ),
    );
    let duplicates = (
        tree("/r", &[("x", 1), ("x", 2), ("k/", 0), ("k/y", 1)]),
        tree("/r", &[("y", 7), ("x", 1), ("x", 2), ("x", 3), ("k", 1)]),
    );
    for (old, new) in [changed_pair(), reordered, duplicates] {
        let ahead = matching(&old, &new);
        let ahead = every_entry(&ahead.with(&old, &new));
        let paired = on_demand::Paired::new(&old, 1, &new, 1, SizeMode::Disk);
        let on_demand = every_entry(&Diff::of(&old, &paired, &paired));
        assert_eq!(ahead, on_demand);
    }
}

/// Every entry, depth first in the order the comparison lists them: (path, status, old size,
/// new size), repeated names included.
fn every_entry<O: TreeView, N: TreeView, M: Pairs<O, N>>(
    d: &Diff<'_, O, N, M>,
) -> Vec<(Vec<u8>, Status, u64, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![d.top()];
    while let Some(e) = stack.pop() {
        out.push((d.rel_path(e), d.status(e), d.old_size(e), d.new_size(e)));
        stack.extend(d.children(e).into_iter().rev());
    }
    out
}

#[test]
fn deleted_and_filtered_entries_take_no_part() {
    let old = tree("/r", &[("a", 5), ("b", 6)]);
    let mut new = tree("/r", &[("a", 5), ("b", 6)]);
    new.remove(2); // deleted in the interactive view
    let m = matching(&old, &new);
    let d = m.with(&old, &new);
    let kids = d.children(d.top());
    assert_eq!(kids, vec![Entry::New(3), Entry::Old(2)]);
    assert_eq!(d.status(Entry::Old(2)), Status::Removed);

    // a file left out by -e / -v is renamed: nothing changed as far as the filter counts
    let filters = crate::tree::PathFilters {
        include: vec![],
        exclude: vec![regex::bytes::Regex::new("log").expect("regex")],
        ..Default::default()
    };
    let unfinished = |mut t: Tree| {
        for id in 1..t.len() as crate::tree::NodeId {
            // back to own sizes, as before `finish`
            let mut n = t.node(id);
            n.disk = if n.is_dir() { 10 } else { 5 };
            n.apparent = n.disk;
            n.entries = 1;
            t.set_node(id, &n);
        }
        t.apply_filters(&filters);
        t.finish();
        t
    };
    let old = unfinished(tree("/r", &[("d/", 0), ("d/a.log", 5), ("d/k", 5)]));
    let new = unfinished(tree("/r", &[("d/", 0), ("d/b.log", 5), ("d/k", 5)]));
    let m = matching(&old, &new);
    let d = m.with(&old, &new);
    assert_eq!(d.status(d.top()), Status::Same);
    assert_eq!(d.children(Entry::New(2)), vec![Entry::New(4)]);
}

#[test]
fn a_chain_20000_deep_is_matched_without_recursion() {
    let depth = 20_000;
    let build = |leaf: u64| {
        let mut b = TreeBuilder::new();
        b.add_roots(vec![(
            b"/r".to_vec(),
            Node::new(EntryKind::Dir, 1, 1, 0, 0),
        )]);
        let mut id = 1;
        for _ in 0..depth {
            id = b.add_children(
                id,
                [(Node::new(EntryKind::Dir, 1, 1, 0, 0), &b"d"[..])].into_iter(),
            );
        }
        b.add_children(
            id,
            [(Node::new(EntryKind::File, leaf, leaf, 0, 0), &b"f"[..])].into_iter(),
        );
        let mut t = b.into_tree();
        t.finish();
        t
    };
    let (old, new) = (build(1), build(2));
    let m = matching(&old, &new);
    let d = m.with(&old, &new);
    let mut e = d.top();
    let mut seen = 0;
    loop {
        assert_eq!(d.status(e), Status::Changed);
        assert_eq!(d.delta(e), 1);
        match d.children(e).as_slice() {
            [c] => e = *c,
            [] => break,
            more => panic!("{more:?}"),
        }
        seen += 1;
    }
    assert_eq!(seen, depth + 1);
    let sel = DiffSelection {
        max_rows: 50,
        max_depth: None,
        min_change: None,
        only_dirs: false,
        hide_empty: false,
    };
    assert_eq!(select_diff_rows(&d, &sel).len(), 50);
    assert_eq!(d.rel_path(e).len(), 2 * depth + 1);
}

#[test]
fn rows_come_biggest_change_first_and_skip_the_unchanged() {
    let old = tree(
        "/r",
        &[("a/", 0), ("a/x", 100), ("b", 50), ("c", 7), ("same", 9)],
    );
    let new = tree(
        "/r",
        &[("a/", 0), ("a/x", 120), ("b", 10), ("same", 9), ("z", 7)],
    );
    let m = matching(&old, &new);
    let d = m.with(&old, &new);
    let mut sel = DiffSelection {
        max_rows: 100,
        max_depth: None,
        min_change: None,
        only_dirs: false,
        hide_empty: false,
    };
    let shown = |sel: &DiffSelection| -> Vec<String> {
        select_diff_rows(&d, sel)
            .iter()
            .map(|r| {
                format!(
                    "{}{} {}",
                    " ".repeat(r.depth),
                    String::from_utf8_lossy(d.name(r.id)),
                    d.status(r.id).label()
                )
            })
            .collect()
    };
    // b -40, a +20 (x +20), then c and z tie at 7: by name
    assert_eq!(
        shown(&sel),
        [
            "/r changed",
            " b changed",
            " a changed",
            "  x changed",
            " c removed",
            " z added"
        ]
    );
    sel.min_change = Some(20);
    assert_eq!(
        shown(&sel),
        ["/r changed", " b changed", " a changed", "  x changed"]
    );
    sel.max_depth = Some(1);
    sel.max_rows = 2;
    assert_eq!(shown(&sel), ["/r changed", " b changed"]);
    sel.max_rows = 100;
    sel.only_dirs = true;
    sel.min_change = None;
    assert_eq!(shown(&sel), ["/r changed", " a changed"]);
}

/// The rows a selection chooses, as paths with what happened to each.
fn rows_of<O: TreeView, N: TreeView>(
    d: &Diff<'_, O, N>,
    sel: &DiffSelection,
) -> Vec<(Vec<u8>, Status, usize, bool)> {
    let rows = select_diff_rows(d, sel);
    rows.iter()
        .map(|r| (d.path(r.id), d.status(r.id), r.depth, r.last))
        .collect()
}

/// Two trees read through sparse `u64` ids (as a file-backed tree's), both or only the old
/// one, compare as the in-memory trees do: every entry, and the rows chosen.
#[test]
fn a_comparison_through_sparse_ids_is_the_trees() {
    use crate::tree::Sparse;
    let (old, mut new) = changed_pair();
    new.remove(new.node(1).first_child + 2); // deleted in the interactive view
    let m = matching(&old, &new);
    let want = m.with(&old, &new);
    let (so, sn) = (Sparse(&old), Sparse(&new));
    let root = Sparse::id(1);
    for mode in [SizeMode::Disk, SizeMode::Count] {
        let m = Matching::new(&old, 1, &new, 1, mode);
        let want = m.with(&old, &new);
        let both = Matching::new(&so, root, &sn, root, mode);
        let mixed = Matching::new(&so, root, &new, 1, mode);
        assert_eq!(facts(&both.with(&so, &sn)), facts(&want), "{mode:?}");
        assert_eq!(facts(&mixed.with(&so, &new)), facts(&want), "{mode:?}");
    }
    let both = Matching::new(&so, root, &sn, root, SizeMode::Disk);
    let d = both.with(&so, &sn);
    assert_eq!(d.top(), Entry::New(root));
    for (max_rows, max_depth) in [(100, None), (5, None), (100, Some(1))] {
        let sel = DiffSelection {
            max_rows,
            max_depth,
            min_change: None,
            only_dirs: false,
            hide_empty: false,
        };
        let rows = rows_of(&want, &sel);
        assert!(rows.len() > 3);
        assert_eq!(rows_of(&d, &sel), rows, "{max_rows} {max_depth:?}");
    }
}
