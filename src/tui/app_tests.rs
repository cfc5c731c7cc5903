//! The event loop with a walk that tests drive by hand: sums, lending, the walk's end.

use super::*;
use crate::tree::{EntryKind, Node, TreeBuilder};
use crate::vocab::{SizeMode, UnitStyle};

fn app() -> App {
    App::new(
        WalkOptions {
            mode: SizeMode::Disk,
            one_filesystem: false,
            follow_links: false,
            exclusions: Default::default(),
            threads: Some(1),
            keep_identity: true,
            sparse_identity: false,
            keep_extra: false,
            keep_times: true,
            fold_files: false,
        },
        PathFilters::default(),
        Options {
            mode: SizeMode::Disk,
            units: UnitStyle::HumanIec,
            allow_delete: true,
        },
        Styles::plain(),
    )
}

fn names(app: &App) -> Vec<&[u8]> {
    let s = &app.state;
    s.rows().iter().map(|&id| s.tree().name(id)).collect()
}

fn owned(names: Vec<&[u8]>) -> Vec<Vec<u8>> {
    names.into_iter().map(<[u8]>::to_vec).collect()
}

/// Makes the next `poll` sum the walk's tree.
fn due(app: &mut App) {
    if let Some(w) = &mut app.walking {
        w.last_sum -= w.interval;
    }
}

#[test]
fn the_walks_own_tree_is_shown_and_the_selection_stays_on_its_entry() {
    let dir = || Node::new(EntryKind::Dir, 10, 10, 0, 0);
    let file = |n| Node::new(EntryKind::File, n, n, 0, 0);
    let live = Arc::new(LiveScan::keeping_tree());
    let mut app = app();
    app.watch(Arc::clone(&live), Arc::new(Progress::default()));
    assert!(app.state.scan().running && app.lend(|a| a.state.rows().is_empty()));
    let a = {
        let mut b = live.builder.lock().expect("lock");
        *b = TreeBuilder::with_identity(true);
        b.add_roots(vec![(b"r".to_vec(), dir())]);
        b.add_children(1, [(dir(), &b"a"[..]), (file(100), &b"b"[..])].into_iter())
    };
    assert!(!app.poll(), "no sum before the interval");
    due(&mut app);
    assert!(app.poll());
    assert_eq!(
        app.lend(|a| owned(names(a))),
        [b"b".to_vec(), b"a".to_vec()]
    );
    app.lend(|app| app.state.apply(crate::tui::action::Action::Down));
    assert_eq!(app.state.selected(), Some(a));
    // a grows past b: the rows re-sort, the selection stays on a
    live.builder
        .lock()
        .expect("lock")
        .add_children(a, [(file(1000), &b"x"[..])].into_iter());
    due(&mut app);
    assert!(app.poll());
    assert_eq!(
        app.lend(|a| owned(names(a))),
        [b"a".to_vec(), b"b".to_vec()]
    );
    assert_eq!(app.state.selected(), Some(a));
    assert_eq!(app.state.cursor(), 0);
    assert!(!app.poll(), "at most one sum per interval");
    // deleted while the walk goes on: stays deleted in every later sum
    app.lend(|app| app.state.delete_done(&[a + 1], &[], 0, false));
    due(&mut app);
    assert!(app.poll());
    assert_eq!(app.lend(|a| owned(names(a))), [b"a".to_vec()]);
    assert_eq!(app.lend(|a| a.state.tree().node(1).disk), 10 + 10 + 1000);
    // one tree: the state holds none of its own while the walk runs
    assert!(app.state.tree().len() <= 1);
    // the walk ends: its tree, settled, becomes the state's; nothing is left behind
    let scan = Scan {
        tree: crate::tree::Tree::default(),
        errors: Vec::new(),
    };
    app.tx
        .send(Done::Scan(Box::new(scan), Loaded::Raw))
        .expect("send");
    assert!(app.poll());
    assert!(!app.state.scan().running);
    assert_eq!(names(&app), [&b"a"[..]]);
    assert_eq!(app.state.tree().node(1).disk, 10 + 10 + 1000);
    assert!(live.builder.lock().expect("lock").tree().len() <= 1);
}

/// The first frame never waits for the walk: while it holds its lock before the view
/// ever had its tree, the view shows what it holds (nothing read yet).
#[test]
fn the_view_does_not_wait_for_a_walk_it_never_had() {
    let live = Arc::new(LiveScan::keeping_tree());
    let mut app = app();
    app.watch(Arc::clone(&live), Arc::new(Progress::default()));
    let held = live.builder.lock().expect("lock");
    assert!(app.lend(|a| a.state.rows().is_empty()));
    due(&mut app);
    assert!(app.poll());
    drop(held);
}

/// The walk's tree goes back to the walk however the view's use of it ends: a panic in the
/// middle of a frame leaves the walk its tree, not the empty one the view held.
#[test]
fn a_panic_while_the_tree_is_lent_gives_it_back_to_the_walk() {
    let live = Arc::new(LiveScan::keeping_tree());
    let mut app = app();
    app.watch(Arc::clone(&live), Arc::new(Progress::default()));
    {
        let mut b = live.builder.lock().expect("lock");
        *b = TreeBuilder::with_identity(true);
        b.add_roots(vec![(
            b"r".to_vec(),
            Node::new(EntryKind::Dir, 10, 10, 0, 0),
        )]);
    }
    let walks_roots = |app: &App| app.state.tree().roots().len();
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        app.lend(|a| {
            assert_eq!(walks_roots(a), 1, "the walk's tree is lent");
            panic!("a bug while drawing");
        })
    }));
    assert!(panicked.is_err());
    assert!(!app.lent, "nothing is lent any more");
    assert_eq!(walks_roots(&app), 0, "the view holds its empty tree again");
    let b = live.builder.lock().unwrap_or_else(PoisonError::into_inner);
    assert_eq!(b.tree().roots().len(), 1, "the walk has its tree back");
}

/// Issue 41, 15: a view opened mid-scan keeps its cursor on the top row, whichever entry
/// is biggest now, until the user moves it (it followed the entry first shown there).
#[test]
fn until_the_user_moves_the_cursor_stays_on_the_top_row() {
    let dir = || Node::new(EntryKind::Dir, 10, 10, 0, 0);
    let file = |n| Node::new(EntryKind::File, n, n, 0, 0);
    let live = Arc::new(LiveScan::keeping_tree());
    let mut app = app();
    app.watch(Arc::clone(&live), Arc::new(Progress::default()));
    let lib = {
        let mut b = live.builder.lock().expect("lock");
        *b = TreeBuilder::with_identity(true);
        b.add_roots(vec![(b"usr".to_vec(), dir())]);
        let ids = [(dir(), &b"lib"[..]), (file(100), &b"share"[..])];
        b.add_children(1, ids.into_iter())
    };
    due(&mut app);
    assert!(app.poll());
    assert_eq!(
        app.lend(|a| owned(names(a))),
        [b"share".to_vec(), b"lib".to_vec()]
    );
    // lib grows past share: the top row is lib now, and so is the cursor
    live.builder
        .lock()
        .expect("lock")
        .add_children(lib, [(file(4000), &b"x"[..])].into_iter());
    due(&mut app);
    assert!(app.poll());
    assert_eq!(
        app.lend(|a| owned(names(a))),
        [b"lib".to_vec(), b"share".to_vec()]
    );
    assert_eq!(app.state.cursor(), 0);
    assert_eq!(app.lend(|a| a.state.selected()), Some(lib));
}
