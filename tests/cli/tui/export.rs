//! `hogs i --import x.ncdu` read on demand: the screens of the read-only view of the file
//! equal those of the loaded import for the same keys (drill, sort, columns, search), and
//! damage met while browsing is one line in the footer, the rest browsable.

use std::ffi::OsString;
use std::fs::File;

use hogs::config::Config;
use hogs::formats::ncdu_bin::lazy::LazyTree;
use hogs::tui::browse::Browser;
use hogs::tui::event::key_event;
use hogs::tui::shown::READ_ONLY;
use hogs::tui::state::Options;
use hogs::tui::style::Styles;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use super::Journey;
use crate::util::TestEnv;

const WIDTH: u16 = 100;
const HEIGHT: u16 = 24;

/// The config of `hogs i --import FILE`.
fn config(file: &std::path::Path) -> Config {
    let argv: Vec<OsString> = vec![
        "hogs".into(),
        "--no-config".into(),
        "i".into(),
        "--import".into(),
        file.into(),
    ];
    let cli = hogs::config::file::parse_args(argv).unwrap_or_else(|e| panic!("{e:?}"));
    Config::from_cli(cli).unwrap_or_else(|e| panic!("{e}"))
}

fn options(config: &Config) -> Options {
    Options {
        mode: config.walk.mode,
        units: config.view.units,
        allow_delete: true,
    }
}

/// The view the binary opens on `file`, read on demand (it must choose to).
fn on_demand(file: &std::path::Path) -> Browser<LazyTree<File>> {
    let config = config(file);
    let tree = match hogs::tui::export::open(&config) {
        Some(Ok(tree)) => tree,
        Some(Err(e)) => panic!("{e}"),
        None => panic!("hogs i --import {} loads the file whole", file.display()),
    };
    let name = file.display().to_string();
    hogs::tui::export::browser(tree, options(&config), Styles::plain(), name)
}

/// The view of the loaded import of `file`, as `hogs i --import` showed it before.
fn loaded(file: &std::path::Path) -> Journey {
    let config = config(file);
    let mut j = Journey::empty(WIDTH, HEIGHT, config.walk.mode);
    hogs::tui::load(&config, &mut j.app).expect("load");
    j.draw();
    j
}

fn lines(term: &Terminal<TestBackend>) -> Vec<String> {
    let buf = term.backend().buffer();
    buf.content()
        .chunks(usize::from(buf.area.width))
        .map(|row| row.iter().map(|c| c.symbol()).collect())
        .collect()
}

/// The loaded view and the view read on demand, driven by the same keys.
struct Pair {
    load: Journey,
    read: Browser<LazyTree<File>>,
    term: Terminal<TestBackend>,
}

impl Pair {
    fn new(file: &std::path::Path) -> Pair {
        let mut p = Pair {
            load: loaded(file),
            read: on_demand(file),
            term: Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test terminal"),
        };
        p.read.draw(&mut p.term).expect("draw");
        p
    }

    fn keys(&mut self, keys: &str) {
        for c in keys.chars() {
            self.load.keys(&c.to_string());
            self.read.on_event(&key_event(c));
            self.read.draw(&mut self.term).expect("draw");
        }
    }

    /// Both screens, the same but for the read-only note in the footer.
    fn same_screens(&self, after: &str) -> Vec<String> {
        let (load, read) = (self.load.lines(), lines(&self.term));
        let last = load.len() - 1;
        assert_eq!(load[..last], read[..last], "after {after:?}");
        let words = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
        let (s, r) = (words(&load[last]), words(&read[last]));
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

    fn journey(&mut self) {
        let journey = [
            "j", "l", "jjl", "h", "h", "G", "g", // moves, in and out
            "n", "n", "C", "m", "s", "s", "s", // sorts by name, count, mtime, size
            "c", "M", "a", "a", "cM", // columns and modes
            "/", "f1", "\n", "j", "/", "\x08\x08", "mix", "\x08", "\n", "l", "h", "/", "f",
            "\x1b", // the filter of the visible directory
            " ", "j ", "l", "h", // marks
            "e", "\x1b", "?", "x", // errors, help
        ];
        for keys in journey {
            self.keys(keys);
            self.same_screens(keys);
        }
    }
}

/// t/{big, mid/{a, b, deep/x}, small, f00..f29, a name with an escape sequence}.
fn sample(env: &TestEnv) {
    env.file("t/big", 100 * 1024)
        .file("t/mid/a", 50 * 1024)
        .file("t/mid/b", 10 * 1024)
        .file("t/mid/deep/x", 3 * 1024)
        .file("t/small", 1024)
        .file("t/bad\x1b[31mname", 2048);
    for i in 0..30 {
        env.file(format!("t/f{i:02}"), 512 * (i % 7));
    }
}

/// An export hogs made of a real tree, times included (the mtime column and sort).
#[test]
fn an_export_read_on_demand_is_browsed_as_its_loaded_import() {
    let env = TestEnv::new();
    sample(&env);
    env.stdout_ok(["-O", "t.ncdu", "--export-extended", "t"]);
    let mut p = Pair::new(&env.path("t.ncdu"));
    let first = p.same_screens("");
    assert!(first[2].contains("big"), "{}", first.join("\n"));
    p.journey();
    p.keys("gn");
    let screen = p.same_screens("gn");
    assert!(screen.iter().any(|l| l.contains("bad\\x1b[31mname")));
}

/// ncdu 2.8's own exports (of its balanced fixture tree: 21,001 entries, in several blocks
/// and in many small ones); one whose hard links only the whole file counts right is loaded.
#[test]
fn ncdu_exports_read_on_demand_are_browsed_as_their_loaded_imports() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ncdu2");
    for name in ["balanced.ncdu", "balanced-8k-blocks.ncdu"] {
        let mut p = Pair::new(&fixtures.join(name));
        p.same_screens(name);
        p.journey();
    }
    let shared = config(&fixtures.join("tree.ncdu"));
    assert!(
        hogs::tui::export::open(&shared).is_none(),
        "ncdu's shared sizes"
    );
}

/// t/a with 4,000 files (their items fill the export's first blocks) and t/b/{f1, f2}; its
/// export with the second block's compressed data overwritten (the first holds b's items:
/// the writer's first block is the last to fill).
pub(super) fn damaged_export(env: &TestEnv) -> std::path::PathBuf {
    // (by the shell: 4,000 files one fsync each would take seconds under a loaded machine)
    env.bash("mkdir -p t/a && for i in $(seq 0 3999); do printf xx > t/a/file_with_a_rather_long_name_$i; done");
    env.file("t/b/f1", 5000).file("t/b/f2", 5000);
    env.stdout_ok(["-O", "t.ncdu", "t"]);
    let path = env.path("t.ncdu");
    let mut bytes = std::fs::read(&path).expect("read the export");
    // after the magic: blocks, each with its length in the low 28 bits of its header
    let len = |at: usize| {
        let head = u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        (head & 0x0fff_ffff) as usize
    };
    let second = 8 + len(8);
    assert!(
        second + len(second) < bytes.len() - 100,
        "three blocks or more"
    );
    let middle = second + len(second) / 2;
    bytes[middle..middle + 32].fill(0xff);
    std::fs::write(&path, bytes).expect("write the export");
    path
}

/// A damaged block: one line in the footer naming the file and what is wrong, the rest
/// of the tree still browsed, and no panic.
#[test]
fn a_damaged_block_is_one_line_in_the_footer_and_the_rest_is_browsed() {
    let env = TestEnv::new();
    let path = damaged_export(&env);
    let mut read = on_demand(&path);
    let mut term = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test terminal");
    read.draw(&mut term).expect("draw");
    let screen = lines(&term);
    let footer = screen[usize::from(HEIGHT) - 1].trim_end();
    let said = format!("cannot read all of '{}': ", path.display());
    assert!(
        footer.trim_start().starts_with(&said),
        "{}",
        screen.join("\n")
    );
    assert!(
        screen[2..4].iter().any(|l| l.contains(" a/")),
        "{}",
        screen.join("\n")
    );
    assert!(
        screen[2..4].iter().any(|l| l.contains(" b/")),
        "{}",
        screen.join("\n")
    );
    // said once: in a, whose damaged items each frame reads again, the next keys' frames
    // have the usual footer
    for c in "gljj".chars() {
        read.on_event(&key_event(c));
        read.draw(&mut term).expect("draw");
    }
    let footer = lines(&term)[usize::from(HEIGHT) - 1].trim_end().to_string();
    assert!(footer.contains(READ_ONLY), "{footer}");
    // into b, whose entries are readable; into a, whose are not: no panic
    for (c, _) in "GlhglhGl".chars().zip(0..) {
        read.on_event(&key_event(c));
        read.draw(&mut term).expect("draw");
    }
    let screen = lines(&term).join("\n");
    assert!(screen.contains("f1") && screen.contains("f2"), "{screen}");
}

/// A directory whose stored totals are not what its entries add up to: `hogs i` says so in
/// the footer, naming the file and the directory (and the run ends with status 1: the
/// loaded import refuses the file, as `tests/cli/damaged_exports.rs` checks).
#[test]
fn totals_that_do_not_add_up_are_one_line_in_the_footer() {
    let env = TestEnv::new();
    let path = env.path("over.ncdu");
    crate::damaged_exports::one_file(10, &path);
    let mut read = on_demand(&path);
    let mut term = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test terminal");
    read.draw(&mut term).expect("draw");
    let screen = lines(&term);
    let footer = screen[usize::from(HEIGHT) - 1].trim();
    let said = format!("cannot read all of '{}': directory /r ", path.display());
    assert!(footer.starts_with(&said), "{}", screen.join("\n"));
}
