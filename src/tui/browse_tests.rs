//! A read-only tree browsed key by key beside the in-memory scan of the same directories:
//! the scan is a real walk of a temporary tree, the read-only tree that scan's tree seen
//! through [`Sparse`] ids (neither dense nor a range of children, as a file-backed tree's
//! offsets are not) with no stored parents ([`Remembered`]), so a screen that differs (or a
//! panic) shows a part of the listing that still reads the tree's storage.

use std::cell::RefCell;
use std::ffi::OsString;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use rustc_hash::FxHashMap;

use super::*;
use crate::tree::{EntryKind, PathFilters, Sparse, Tree, TreeView};
use crate::tui::app::App;
use crate::tui::event::{key_event, Scripted};
use crate::tui::shown::{Shown, READ_ONLY};
use crate::tui::state::{AsScan, Overlay};
use crate::vocab::{SizeMode, UnitStyle};
use crate::walk::WalkOptions;

const WIDTH: u16 = 100;
const HEIGHT: u16 = 24;

fn options() -> Options {
    Options {
        mode: SizeMode::Disk,
        units: UnitStyle::HumanIec,
        allow_delete: true,
    }
}

/// A scan of `paths` (below `root`) in the view, walked to its end and shown as an import
/// is (no delete, no rescan: what a read-only tree offers too).
fn scanned(root: &Path, paths: &[&str]) -> App {
    let walk = WalkOptions {
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
    };
    let mut app = App::new(walk, PathFilters::default(), options(), Styles::plain());
    app.start_scan(paths.iter().map(|p| OsString::from(root.join(p))).collect());
    app.wait_for_scan();
    app.state.set_imported();
    app
}

/// t/{big 100K, mid/{a 50K, b 10K, deep/x 3K}, small 1K, f00..f29 (scrolling), a name with
/// an escape sequence}, and u/{one 7K}.
fn sample() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = |rel: &str, size: usize| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, vec![b'x'; size]).expect("write");
    };
    file("t/big", 100 * 1024);
    file("t/mid/a", 50 * 1024);
    file("t/mid/b", 10 * 1024);
    file("t/mid/deep/x", 3 * 1024);
    file("t/small", 1024);
    file("t/bad\x1b[31mname", 2048);
    for i in 0..30 {
        file(&format!("t/f{i:02}"), 512 * (i % 7));
    }
    file("u/one", 7 * 1024);
    dir
}

/// The scan's tree through [`Sparse`] ids, knowing the parent only of what it listed (as a
/// file-backed tree, which stores no parent links, remembers them as it visits): a view that
/// asks for the parent of an entry it did not reach from the top panics here.
#[derive(Debug)]
struct Remembered<'t> {
    ids: Sparse<'t>,
    parents: RefCell<FxHashMap<u64, u64>>,
}

impl<'t> Remembered<'t> {
    fn new(tree: &'t Tree) -> Remembered<'t> {
        Remembered {
            ids: Sparse(tree),
            parents: RefCell::default(),
        }
    }
}

impl TreeView for Remembered<'_> {
    type Id = u64;
    fn total(&self) -> u64 {
        self.ids.total()
    }
    fn roots(&self) -> impl Iterator<Item = u64> + '_ {
        let total = self.total();
        let listed = move |&r: &u64| {
            self.parents.borrow_mut().insert(r, total);
        };
        self.ids.roots().inspect(listed)
    }
    fn name(&self, id: u64) -> &[u8] {
        self.ids.name(id)
    }
    fn kind(&self, id: u64) -> EntryKind {
        self.ids.kind(id)
    }
    fn flags(&self, id: u64) -> u8 {
        self.ids.flags(id)
    }
    fn size(&self, id: u64, mode: SizeMode) -> u64 {
        self.ids.size(id, mode)
    }
    fn mtime(&self, id: u64) -> i64 {
        self.ids.mtime(id)
    }
    fn parent(&self, id: u64) -> u64 {
        if id == self.total() {
            return id;
        }
        let parents = self.parents.borrow();
        *parents
            .get(&id)
            .expect("the parent of an entry never listed")
    }
    fn child_count(&self, id: u64) -> usize {
        self.ids.child_count(id)
    }
    fn children(&self, id: u64) -> impl Iterator<Item = u64> + '_ {
        let listed = move |&c: &u64| {
            self.parents.borrow_mut().insert(c, id);
        };
        self.ids.children(id).inspect(listed)
    }
}

impl Shown for Remembered<'_> {}

impl AsScan for Remembered<'_> {}

fn lines(term: &Terminal<TestBackend>) -> Vec<String> {
    let buf = term.backend().buffer();
    buf.content()
        .chunks(usize::from(buf.area.width))
        .map(|row| row.iter().map(|c| c.symbol()).collect())
        .collect()
}

/// The scan's view and the read-only view of its tree, driven by the same keys.
struct Pair<'t> {
    scan: App,
    scan_term: Terminal<TestBackend>,
    read: Browser<Remembered<'t>>,
    read_term: Terminal<TestBackend>,
}

impl<'t> Pair<'t> {
    fn new(scan: App, tree: &'t Tree) -> Pair<'t> {
        let term = || Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test terminal");
        let mut p = Pair {
            scan,
            scan_term: term(),
            read: Browser::new(Remembered::new(tree), options(), Styles::plain()),
            read_term: term(),
        };
        p.draw();
        p
    }

    fn draw(&mut self) {
        self.scan.draw(&mut self.scan_term).expect("draw");
        self.read.draw(&mut self.read_term).expect("draw");
    }

    fn keys(&mut self, keys: &str) {
        for c in keys.chars() {
            self.scan.on_event(&key_event(c));
            self.read.on_event(&key_event(c));
            self.draw();
        }
    }

    /// Both screens, which must be the same but for the read-only note in the footer.
    fn same_screens(&self, after: &str) -> Vec<String> {
        let (scan, read) = (lines(&self.scan_term), lines(&self.read_term));
        let last = scan.len() - 1;
        assert_eq!(scan[..last], read[..last], "after {after:?}");
        // (the words, not the blanks: the count of marks is right-aligned)
        let words = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
        let (s, r) = (words(&scan[last]), words(&read[last]));
        match s.find("q:quit") {
            Some(i) => {
                let (keys, marked) = s.split_at(i + "q:quit".len());
                assert_eq!(
                    r,
                    format!("{keys} · {READ_ONLY}{marked}"),
                    "after {after:?}"
                );
            }
            None => assert_eq!(r, s, "after {after:?}"),
        }
        read
    }

    fn footer(&self) -> String {
        lines(&self.read_term)[usize::from(HEIGHT) - 1]
            .trim_end()
            .to_string()
    }
}

/// Every key of the listing, one at a time, gives the read-only tree the scan's screen:
/// rows, sorts, columns, modes, drilling in and out, the filter, marks and their pane, help.
#[test]
fn a_read_only_tree_is_browsed_as_the_scan_is() {
    let dir = sample();
    let scan = scanned(dir.path(), &["t"]);
    let tree = scan.state.tree().clone();
    let mut p = Pair::new(scan, &tree);
    let first = p.same_screens("");
    assert!(first[2].contains("big"), "{}", first.join("\n"));
    assert!(p.footer().contains(READ_ONLY), "{}", p.footer());
    // a move, into mid, deeper, back out twice (onto the directory left), a page
    let journey = [
        "j", "l", "jjl", "h", "h", "G", "g", // moves
        "n", "n", "C", "m", "s", "s", "s", // sorts and their reverse
        "c", "M", "a", "a", "cM", // columns and modes
        "/", "f1", "\n", "j", "/", "\x08\x08", "mix", "\x08", "\n", "l", "h", "/", "f",
        "\x1b", // the filter
        " ", "j ", "jj ", "k ", "l", "h", // marks, the pane
        "?", "x", "e", // help, closed; nothing failed
    ];
    for keys in journey {
        p.keys(keys);
        p.same_screens(keys);
    }
    let screen = p.same_screens("the journey");
    assert!(
        screen.iter().any(|l| l.contains("Marked: 2 ·")),
        "{}",
        screen.join("\n")
    );
    // no name drives the terminal: the escape is shown escaped
    p.keys("gn");
    let screen = p.same_screens("gn");
    assert!(screen.iter().any(|l| l.contains("bad\\x1b[31mname")));
}

/// The keys that delete, rescan or list owners say they are off, and ask for no work.
#[test]
fn keys_that_change_the_disk_say_a_read_only_tree_has_none() {
    let dir = sample();
    let scan = scanned(dir.path(), &["t"]);
    let tree = scan.state.tree().clone();
    let mut p = Pair::new(scan, &tree);
    p.keys("j ");
    for (key, what) in [
        ("d", "nothing to delete"),
        ("t", "nothing to delete"),
        ("r", "nothing to rescan"),
        ("o", "no owners recorded"),
    ] {
        p.keys(key);
        let said = format!("{READ_ONLY}: {what}");
        assert!(p.footer().starts_with(&said), "{key}: {}", p.footer());
        assert_eq!(*p.read.state.overlay(), Overlay::None, "{key}");
        assert!(p.read.state.work().busy().is_none(), "{key}");
    }
    // quitting with a mark asks first, as the scan's view does
    let mut events = Scripted::keys("qy");
    let stop = AtomicBool::new(false);
    run(&mut p.read_term, &mut events, &mut p.read, &stop).expect("run");
    assert!(p.read.state.quit());
}

/// Several paths: the rows of the total above them (`(all paths)`), whose id is not 0.
#[test]
fn the_total_of_several_paths_is_browsed_by_its_own_id() {
    let dir = sample();
    let scan = scanned(dir.path(), &["t", "u"]);
    let tree = scan.state.tree().clone();
    let mut p = Pair::new(scan, &tree);
    let screen = p.same_screens("");
    assert!(screen[0].contains("(all paths)"), "{}", screen[0]);
    for keys in ["j", "l", "h", "n", "l", "jl", "h", "h", " "] {
        p.keys(keys);
        p.same_screens(keys);
    }
}
