//! The cursor's row: marked so that its bar still reads as the others do (issue 41, 12).

use hogs::tree::PathFilters;
use hogs::tui::app::App;
use hogs::tui::state::Options;
use hogs::tui::style::Styles;
use hogs::vocab::{SizeMode, UnitStyle};
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;

use super::{walk_options, Journey};
use crate::util::TestEnv;

/// A journey whose names are drawn in colours (`styles`), as a terminal with colours shows.
fn journey(env: &TestEnv, styles: Styles) -> Journey {
    let opts = Options {
        mode: SizeMode::Disk,
        units: UnitStyle::HumanIec,
        allow_delete: true,
    };
    let mut app = App::new(
        walk_options(SizeMode::Disk),
        PathFilters::default(),
        opts,
        styles,
    );
    app.start_scan(vec![env.path("usr").into()]);
    app.wait_for_scan();
    let term = Terminal::new(TestBackend::new(100, 12)).expect("test terminal");
    let mut j = Journey { app, term };
    j.draw();
    j
}

/// The bar of the row on line `y` as a reader sees it: a cell is full when it shows `█` on
/// the normal colours or `░` reversed (reverse video swaps what is ink). Also whether the
/// row is marked at all (a background, or reverse video anywhere).
fn seen_bar(j: &Journey, y: u16) -> (String, bool) {
    let buf = j.term.backend().buffer();
    let mut bar = String::new();
    let mut marked = false;
    for x in 0..buf.area.width {
        let cell = &buf[(x, y)];
        let reversed = cell.modifier.contains(Modifier::REVERSED);
        marked |= reversed || cell.bg != Color::Reset;
        match (cell.symbol(), reversed) {
            ("█", false) | ("░", true) => bar.push('#'),
            ("░", false) | ("█", true) => bar.push('.'),
            _ => {}
        }
    }
    (bar, marked)
}

/// lib/ 75% and python3/ small: each row's bar reads the same with the cursor on it as
/// without, in colours and without them.
#[test]
fn the_selected_rows_bar_keeps_its_ratio() {
    let env = TestEnv::new();
    env.file("usr/lib/big", 300 * 1024)
        .file("usr/share/mid", 80 * 1024)
        .file("usr/python3/small", 16 * 1024);
    for (styles, what) in [
        (Styles::from_string("di=01;34"), "colours"),
        (Styles::plain(), "no colours"),
    ] {
        let mut j = journey(&env, styles);
        assert_eq!(j.rows(), ["lib", "share", "python3"], "{what}");
        let top = j.app.state.list_top();
        // each row unselected first (the cursor on another), then selected
        j.keys("G");
        let unselected: Vec<(String, bool)> = (0..2).map(|i| seen_bar(&j, top + i)).collect();
        j.keys("g");
        let last = seen_bar(&j, top + 2);
        for (i, (bar, marked)) in unselected.into_iter().chain([last]).enumerate() {
            assert!(!marked, "{what}: row {i} is not the cursor's");
            assert!(bar.len() == 16, "{what}: row {i}: {bar}");
            j.keys("g");
            for _ in 0..i {
                j.keys("j");
            }
            let (selected, marked) = seen_bar(&j, top + i as u16);
            assert!(marked, "{what}: the cursor's row {i} is marked");
            assert_eq!(selected, bar, "{what}: row {i} with the cursor on it");
        }
    }
}
