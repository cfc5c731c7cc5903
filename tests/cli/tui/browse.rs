//! Browsing: navigation, sorting, toggles, help, hostile names, small screens.

use hogs::vocab::SizeMode;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use super::Journey;
use crate::util::TestEnv;

/// t/{big 100K, mid/{a 50K, b 10K}, small 1K}
fn sample(env: &TestEnv) {
    env.file("t/big", 100 * 1024)
        .file("t/mid/a", 50 * 1024)
        .file("t/mid/b", 10 * 1024)
        .file("t/small", 1024);
}

fn special(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

#[test]
fn rows_are_the_children_biggest_first_with_sizes_and_percentages() {
    let env = TestEnv::new();
    sample(&env);
    let j = Journey::open(&env, &["t"], 80, 12);
    assert_eq!(j.rows(), ["big", "mid", "small"]);
    let screen = j.screen();
    assert!(screen.contains("hogs"), "{screen}");
    assert!(j.lines()[0].trim_end().ends_with("/t"), "{}", j.lines()[0]);
    // header: total of the directory (du's number), mode and order
    let total = env.du_disk(&["t"]);
    let header = &j.lines()[1];
    assert!(header.contains(&crate::util::iec(total)), "{header}");
    assert!(
        header.contains("disk") && header.contains("by size ↓"),
        "{header}"
    );
    let big = j.line_of("big");
    assert!(big.contains("100Ki") && big.contains('%'), "{big}");
    let mid = crate::util::iec(env.du_disk(&["t/mid"]));
    assert!(j.line_of("mid/").contains(&mid), "{}", j.line_of("mid/"));
    // the footer shows key hints
    assert!(j.lines()[11].contains("?:help"), "{}", j.lines()[11]);
}

#[test]
fn enter_and_back_return_the_selection_to_where_you_came_from() {
    let env = TestEnv::new();
    sample(&env);
    let mut j = Journey::open(&env, &["t"], 80, 12);
    assert_eq!(j.selected_name(), "big");
    j.keys("j");
    assert_eq!(j.selected_name(), "mid");
    j.keys("l");
    assert_eq!(j.rows(), ["a", "b"]);
    assert!(
        j.lines()[0].trim_end().ends_with("t/mid"),
        "{}",
        j.lines()[0]
    );
    j.keys("j");
    assert_eq!(j.selected_name(), "b");
    j.keys("h");
    assert_eq!(j.rows(), ["big", "mid", "small"]);
    assert_eq!(j.selected_name(), "mid", "back lands on the directory left");
    // and going in again remembers the row that was selected there
    j.event(special(KeyCode::Right));
    assert_eq!(j.selected_name(), "b");
    j.event(special(KeyCode::Backspace));
    j.event(special(KeyCode::Left)); // at the top: nothing above the scanned root
    assert_eq!(j.rows(), ["big", "mid", "small"]);
    // Enter on a file does nothing
    j.keys("g\n");
    assert_eq!(j.rows(), ["big", "mid", "small"]);
}

#[test]
fn moves_clamp_and_pages_scroll() {
    let env = TestEnv::new();
    for i in 0..30 {
        env.file(format!("t/f{i:02}"), (i + 1) * 4096);
    }
    // 12 lines: 2 header, 1 footer: 9 rows on screen
    let mut j = Journey::open(&env, &["t"], 60, 12);
    assert_eq!(j.selected_name(), "f29");
    j.keys("k");
    assert_eq!(j.app.state.cursor(), 0, "up at the top stays");
    j.keys("G");
    assert_eq!(j.selected_name(), "f00");
    j.keys("j");
    assert_eq!(j.app.state.cursor(), 29, "down at the bottom stays");
    assert!(j.screen().contains("f00"));
    assert!(!j.screen().contains("f29"), "scrolled:\n{}", j.screen());
    j.keys("g");
    j.event(special(KeyCode::PageDown));
    assert_eq!(j.app.state.cursor(), 9);
    j.event(special(KeyCode::End));
    assert_eq!(j.app.state.cursor(), 29);
    j.event(special(KeyCode::PageUp));
    assert_eq!(j.app.state.cursor(), 20);
    j.event(special(KeyCode::Home));
    assert_eq!(j.app.state.cursor(), 0);
    j.event(special(KeyCode::Down));
    j.event(special(KeyCode::Down));
    j.event(special(KeyCode::Up));
    assert_eq!(j.selected_name(), "f28");
    // the selected row is the one drawn reversed
    let buf = j.term.backend().buffer();
    let y = j.app.state.list_top() + 1;
    assert!(buf[(0, y)]
        .modifier
        .contains(ratatui::style::Modifier::REVERSED));
}

#[test]
fn sort_keys_switch_order_and_the_same_key_reverses() {
    let env = TestEnv::new();
    env.file("t/b_big", 64 * 1024)
        .file("t/a_mid", 16 * 1024)
        .file("t/c_dir/x", 4096)
        .file("t/c_dir/y", 4096)
        .file("t/c_dir/z", 4096);
    env.bash(
        "touch -d '2001-01-01' t/b_big && touch -d '2011-01-01' t/a_mid && \
         touch -d '2005-01-01' t/c_dir/x t/c_dir/y t/c_dir/z t/c_dir",
    );
    let mut j = Journey::open(&env, &["t"], 80, 12);
    assert_eq!(j.rows(), ["b_big", "a_mid", "c_dir"]);
    j.keys("s");
    assert_eq!(
        j.rows(),
        ["c_dir", "a_mid", "b_big"],
        "s again: smallest first"
    );
    assert!(j.lines()[1].contains("by size ↑"), "{}", j.lines()[1]);
    j.keys("n");
    assert_eq!(j.rows(), ["a_mid", "b_big", "c_dir"]);
    j.keys("n");
    assert_eq!(j.rows(), ["c_dir", "b_big", "a_mid"]);
    j.keys("C");
    assert_eq!(j.rows()[0], "c_dir", "most entries first");
    j.keys("m");
    assert_eq!(j.rows(), ["a_mid", "c_dir", "b_big"], "newest first");
    j.keys("m");
    assert_eq!(j.rows(), ["b_big", "c_dir", "a_mid"]);
    // the selection follows its entry through re-sorts
    j.keys("g");
    assert_eq!(j.selected_name(), "b_big");
    j.keys("s");
    assert_eq!(j.selected_name(), "b_big");
    assert_eq!(j.app.state.cursor(), 0);
    j.keys("n");
    assert_eq!(j.selected_name(), "b_big");
    assert_eq!(j.app.state.cursor(), 1);
}

#[test]
fn toggles_switch_size_mode_and_columns_without_rescanning() {
    let env = TestEnv::new();
    env.sparse("t_sparse", 0); // placeholder so the env root is not empty
    env.mkdir("t");
    env.sparse("t/hole", 8 << 20).file("t/data", 100 * 1024);
    env.bash("touch -d '2003-04-05 12:00' t/hole");
    let mut j = Journey::open(&env, &["t"], 100, 12);
    assert_eq!(
        j.rows(),
        ["data", "hole"],
        "on disk the sparse file is empty"
    );
    j.keys("a");
    assert_eq!(j.rows(), ["hole", "data"]);
    assert!(j.line_of("hole").contains("8.0Mi"), "{}", j.line_of("hole"));
    assert!(j.lines()[1].contains("apparent"), "{}", j.lines()[1]);
    j.keys("M");
    assert!(
        j.line_of("hole").contains("2003-04-05"),
        "{}",
        j.line_of("hole")
    );
    j.keys("M");
    assert!(!j.line_of("hole").contains("2003-04-05"));
    j.keys("c");
    let with_count = j.line_of("hole");
    j.keys("c");
    assert_ne!(
        with_count,
        j.line_of("hole"),
        "the count column comes and goes"
    );
    j.keys("a");
    assert_eq!(j.rows(), ["data", "hole"]);
}

#[test]
fn help_overlay_opens_with_question_mark_and_any_key_closes_it() {
    let env = TestEnv::new();
    sample(&env);
    let mut j = Journey::open(&env, &["t"], 80, 24);
    j.keys("?");
    let screen = j.screen();
    for k in ["Keys", "sort: size name count mtime", "mark", "filter"] {
        assert!(screen.contains(k), "{k:?} missing:\n{screen}");
    }
    j.keys("x"); // closes, does not move
    assert!(!j.screen().contains("Keys"));
    assert_eq!(j.selected_name(), "big");
}

/// Issue 41, 17: at 40x12 the help was cut ("any key closes"): it scrolls to its end, where
/// the marks before a name are explained; `j` scrolls and does not move the cursor.
#[test]
fn help_scrolls_on_a_small_screen_to_the_legend_of_the_marks() {
    let env = TestEnv::new();
    sample(&env);
    let mut j = Journey::open(&env, &["t"], 40, 12);
    j.keys("?");
    assert!(j.screen().contains("scroll"), "{}", j.screen());
    assert!(!j.screen().contains("hard link"), "{}", j.screen());
    let mut seen = j.screen();
    for _ in 0..40 {
        j.keys("j");
        seen.push_str(&j.screen());
    }
    for k in [
        "quit",
        "@  symbolic link",
        "*  marked",
        ">  another filesyst",
    ] {
        assert!(seen.contains(k), "{k:?} never shown:\n{seen}");
    }
    assert!(j.screen().contains("Keys"), "still open");
    j.keys("kkq");
    assert!(!j.screen().contains("Keys"), "closed");
    assert!(!j.app.state.quit(), "q closed the help only");
    assert_eq!(j.selected_name(), "big", "the cursor did not move");
}

/// Issue 41, 17: `C` and `m` sort by a column that was not shown: it is shown.
#[test]
fn sorting_by_count_or_mtime_shows_that_column() {
    let env = TestEnv::new();
    sample(&env);
    let mut j = Journey::open(&env, &["t"], 100, 16);
    let plain = j.line_of("big");
    for (sort, column) in [("C", "c"), ("m", "M")] {
        // the row as it reads with the column turned on by hand
        j.keys(column);
        let with_column = j.line_of("big");
        assert_ne!(with_column, plain, "{column} shows a column");
        j.keys(column);
        assert_eq!(j.line_of("big"), plain);
        j.keys(sort);
        assert_eq!(j.line_of("big"), with_column, "sorted by {sort}");
        j.keys("s");
    }
}

#[test]
fn hostile_names_are_escaped_and_cut_by_display_width() {
    let env = TestEnv::new();
    env.mkdir("t");
    env.bash(
        "printf x > \"t/$(printf 'evil\\033[2J\\033]0;pwn\\007')\" && \
         printf x > \"t/$(printf 'new\\nline')\" && \
         printf x > t/日本語の長いファイル名がここにありますとても長いです.txt",
    );
    let j = Journey::open(&env, &["t"], 40, 10);
    let screen = j.screen();
    assert!(
        !screen.contains('\x1b') && !screen.contains('\x07'),
        "{screen:?}"
    );
    assert!(screen.contains("evil\\x1b[2J"), "{screen}");
    assert!(screen.contains("new\\nline"), "{screen}");
    let wide = j.line_of("日");
    assert!(wide.contains('…'), "cut with an ellipsis: {wide}");
    // every line fits the 40 columns (wide characters take two cells)
    let buf = j.term.backend().buffer();
    assert_eq!(buf.area.width, 40);
}

#[test]
fn forty_by_ten_shows_header_rows_and_footer_and_tiny_screens_do_not_panic() {
    let env = TestEnv::new();
    sample(&env);
    let mut j = Journey::open(&env, &["t"], 40, 10);
    let lines = j.lines();
    assert!(lines[0].contains("hogs"));
    assert!(
        lines[2].contains("big") && lines[4].contains("small"),
        "{lines:#?}"
    );
    assert!(lines[9].contains("?:help"));
    j.keys("?");
    assert!(j.screen().contains("Keys"));
    j.keys("x");
    for (w, h) in [(1, 1), (10, 3), (20, 2), (40, 10), (300, 100), (5, 40)] {
        j.term.backend_mut().resize(w, h);
        j.draw();
        j.keys("jGk?x");
    }
}

#[test]
fn several_paths_are_rows_under_a_total() {
    let env = TestEnv::new();
    sample(&env);
    env.file("u/z", 300 * 1024);
    let mut j = Journey::open(&env, &["t", "u"], 80, 12);
    assert_eq!(j.rows().len(), 2);
    assert!(j.rows()[0].ends_with("/u"), "{:?}", j.rows());
    j.keys("jl");
    assert_eq!(j.rows(), ["big", "mid", "small"]);
    j.keys("h");
    assert!(j.selected_name().ends_with("/t"));
}

/// A saved scan (`hogs -O`, then `hogs i --import`): browsed like a walk, labelled imported,
/// and nothing can be deleted or rescanned from it (the files may not even be here).
#[test]
fn an_imported_scan_is_browsed_but_never_deleted_or_rescanned() {
    let env = TestEnv::new();
    sample(&env);
    let out = env.run(["-O", "scan.json", "t"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let scan = hogs::import::import_file(
        env.path("scan.json").as_os_str(),
        false,
        hogs::import::Keep::ALL,
    )
    .expect("import the export");
    let mut j = Journey::empty(80, 12, SizeMode::Disk);
    j.app.show_imported(scan);
    j.draw();
    assert_eq!(j.rows(), ["big", "mid", "small"]);
    assert!(j.lines()[1].contains("imported"), "{}", j.lines()[1]);
    j.keys("jl");
    assert_eq!(j.rows(), ["a", "b"], "entered mid");
    j.keys("h");
    j.keys("d");
    assert!(
        j.screen().contains("nothing here to delete"),
        "{}",
        j.screen()
    );
    j.keys(" d");
    assert!(!j.screen().contains("Delete"), "no dialog: {}", j.screen());
    j.keys("r");
    assert!(j.screen().contains("cannot be rescanned"), "{}", j.screen());
    assert!(env.path("t/mid/a").exists() && env.path("t/big").exists());
}

/// What the walk could not read is listed inside the view: `e` opens the list (the help
/// says so), any key closes it; the header counts the errors and names the key.
#[test]
fn e_lists_what_the_walk_could_not_read() {
    let env = TestEnv::new();
    sample(&env);
    let mut j = Journey::open(&env, &["t", "missing"], 100, 24);
    assert!(
        j.lines()[1].contains("1 unreadable (e lists)"),
        "{}",
        j.screen()
    );
    j.keys("e");
    let screen = j.screen();
    assert!(screen.contains("Could not be read: 1"), "{screen}");
    assert!(
        screen.contains(&format!(
            "cannot access '{}': No such file or directory",
            env.path("missing").display()
        )),
        "{screen}"
    );
    j.keys("x");
    assert!(!j.screen().contains("Could not be read"), "{}", j.screen());
    j.keys("?");
    assert!(
        j.screen().contains("list what could not be read"),
        "{}",
        j.screen()
    );
}

/// A merge of split scans where a part never came (docs/SPLIT-SCANS.md): the directory the
/// top part left out (-X) and no part filled is a row of its own, marked `<` (ncdu's mark of
/// what was left out), and `e` lists the line that names it.
#[test]
fn a_directory_no_part_filled_is_shown_left_out() {
    let env = TestEnv::new();
    env.file("top/a/f", 30_000)
        .file("top/b/g", 20_000)
        .file("top/h", 5_000);
    let (a, b) = (env.path("top/a"), env.path("top/b"));
    let top = env.path("top");
    let out = env.run([
        "-O".as_ref(),
        "top.json".as_ref(),
        "-X".as_ref(),
        a.as_os_str(),
        "-X".as_ref(),
        b.as_os_str(),
        top.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let out = env.run(["-O".as_ref(), "a.json".as_ref(), a.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let files = ["top.json", "a.json"].map(|f| env.path(f).into_os_string());
    let scan = hogs::import::import_files(&files, false, false, hogs::import::Keep::ALL)
        .expect("merge the parts");
    let mut j = Journey::empty(200, 12, SizeMode::Disk);
    j.app.show_imported(scan);
    j.draw();
    assert_eq!(j.rows(), ["a", "h", "b"]);
    let row = j.row_line("b");
    assert!(row.contains('<') && row.contains(" 0B"), "{row}");
    assert!(!j.row_line("a").contains('<'), "{}", j.row_line("a"));
    assert!(
        j.lines()[1].contains("1 unreadable (e lists)"),
        "{}",
        j.screen()
    );
    j.keys("e");
    let screen = j.screen();
    assert!(
        screen.contains("/top/b': excluded in '") && screen.contains("and in no part: not counted"),
        "{screen}"
    );
}
