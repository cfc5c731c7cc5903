//! What the view shows when room is short, and only what is true: names before optional
//! columns, cut paths marked `…`, the footer offering only keys that work, counts in words.

use hogs::vocab::SizeMode;

use super::Journey;
use crate::util::TestEnv;

fn sample(env: &TestEnv) {
    env.file("t/big", 400 * 1024)
        .file("t/mid/a", 100 * 1024)
        .file("t/small", 4096);
}

/// At 30 columns with the count and mtime columns on, every row still shows its name: the
/// columns give way, not the name; on a wide screen both columns are there.
#[test]
fn on_a_narrow_screen_names_stay_and_optional_columns_give_way() {
    let env = TestEnv::new();
    sample(&env);
    for width in [24, 30, 40] {
        let mut j = Journey::open(&env, &["t"], width, 10);
        j.keys("cM");
        for name in ["big", "mid/", "small"] {
            let line = j.line_of(name);
            assert!(line.contains(name), "{width}: {line}");
        }
    }
    let mut j = Journey::open(&env, &["t"], 100, 10);
    j.keys("cM");
    let line = j.line_of("mid/");
    assert!(
        has_date(&line) && line.contains("     2 "),
        "count and mtime: {line}"
    );
}

/// Whether a line holds a `YYYY-MM-DD` date.
fn has_date(line: &str) -> bool {
    line.as_bytes().windows(10).any(|w| {
        w.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
    })
}

/// A path too long for the delete dialog is cut with `…`, not silently, and keeps its end:
/// the name of what is deleted.
#[test]
fn the_delete_dialog_marks_a_cut_path_with_an_ellipsis() {
    let env = TestEnv::new();
    let long = "a_rather_long_file_name_that_cannot_fit_in_the_box.bin";
    env.file(format!("t/{long}"), 4096);
    let mut j = Journey::open(&env, &["t"], 40, 16);
    j.keys("d");
    let screen = j.screen();
    // the dialog's line of the path (the row behind it is cut too)
    let line = j
        .lines()
        .into_iter()
        .find(|l| l.contains('│') && l.contains("box.bin"))
        .unwrap_or_else(|| panic!("no path in the dialog:\n{screen}"));
    assert!(
        line.contains("│   …") && line.contains("_in_the_box.bin│"),
        "cut without an ellipsis: {line}\n{screen}"
    );
    assert!(j.lines()[1].contains(" · 2 entries · "), "{screen}");
    j.keys("n");
    assert!(env.path(format!("t/{long}")).exists());
}

/// The footer offers the keys that work: no delete with `--no-delete`, neither delete nor
/// rescan on a saved scan.
#[test]
fn the_footer_offers_only_what_works() {
    let env = TestEnv::new();
    sample(&env);
    let footer = |j: &Journey| j.lines().last().cloned().unwrap_or_default();
    let j = Journey::open(&env, &["t"], 100, 10);
    let f = footer(&j);
    assert!(f.contains("d:delete") && f.contains("r:rescan"), "{f}");
    let j = Journey::open_with(&env, &["t"], 100, 10, SizeMode::Disk, false);
    let f = footer(&j);
    assert!(!f.contains("d:delete") && f.contains("r:rescan"), "{f}");

    let out = env.run(["-O", "scan.json", "t"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let scan = hogs::import::import_file(
        env.path("scan.json").as_os_str(),
        false,
        hogs::import::Keep::ALL,
    )
    .expect("import the export");
    let mut j = Journey::empty(100, 10, SizeMode::Disk);
    j.app.show_imported(scan);
    j.draw();
    let f = footer(&j);
    assert!(f.contains("?:help") && f.contains("q:quit"), "{f}");
    assert!(!f.contains("d:delete") && !f.contains("r:rescan"), "{f}");
}

/// Quitting with marks asks in words that agree with the count.
#[test]
fn the_quit_question_counts_one_entry_in_the_singular() {
    let env = TestEnv::new();
    sample(&env);
    let mut j = Journey::open(&env, &["t"], 80, 24);
    j.keys(" q");
    assert!(j.screen().contains("1 entry is marked."), "{}", j.screen());
    j.keys("n jq");
    assert!(
        j.screen().contains("2 entries are marked."),
        "{}",
        j.screen()
    );
}

/// One width rule for every view, the sum of the code points' widths (as the bar chart,
/// tmux and ncdu count): 👍🏽 is a thumb and a skin-tone modifier, two cells of two columns
/// each, and what follows it starts four columns on, not two.
#[test]
fn an_emoji_with_a_modifier_takes_the_columns_of_its_code_points() {
    let env = TestEnv::new();
    env.file("t/a👍🏽z", 40 * 1024).file("t/other", 8 * 1024);
    let j = Journey::open(&env, &["t"], 60, 10);
    let buf = j.term.backend().buffer();
    let row: Vec<&str> = (0..buf.area.width)
        .map(|x| buf[(x, j.app.state.list_top())].symbol())
        .collect();
    let at = row
        .iter()
        .position(|s| s.starts_with('👍'))
        .unwrap_or_else(|| panic!("no thumb: {row:?}"));
    assert_eq!(
        row[at - 1..at + 5],
        ["a", "👍", " ", "🏽", " ", "z"],
        "{row:?}"
    );
    // the bar chart lays the name out in as many columns
    let out = String::from_utf8_lossy(&env.stdout_ok(["-n", "3", "-w", "60", "t"])).into_owned();
    let width = |l: &str| -> usize {
        use unicode_width::UnicodeWidthChar;
        l.chars().map(|c| c.width().unwrap_or(0)).sum()
    };
    let line = |name: &str| out.lines().find(|l| l.contains(name)).unwrap_or_default();
    assert!(!line("a👍🏽z").is_empty(), "{out}");
    assert_eq!(width(line("a👍🏽z")), width(line("other")), "{out}");
}
