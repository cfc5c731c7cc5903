//! `/` filtering as you type, and the mouse.

use ratatui::crossterm::event::{Event, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use super::Journey;
use crate::util::TestEnv;

fn mouse(kind: MouseEventKind, row: u16) -> Event {
    Event::Mouse(MouseEvent {
        kind,
        column: 10,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

#[test]
fn slash_filters_rows_as_you_type_by_substring_or_regex_and_esc_clears() {
    let env = TestEnv::new();
    env.file("t/report.pdf", 40 * 1024)
        .file("t/photo.JPG", 30 * 1024)
        .file("t/notes.txt", 20 * 1024)
        .file("t/a(b", 10 * 1024)
        .file("t/pdfs/x", 4096);
    let mut j = Journey::open(&env, &["t"], 80, 14);
    j.keys("/p");
    assert_eq!(j.rows(), ["report.pdf", "photo.JPG", "pdfs"]);
    j.keys("df");
    assert_eq!(j.rows(), ["report.pdf", "pdfs"]);
    assert!(j.screen().contains("/pdf▏"), "{}", j.screen());
    j.keys("\x08\x08\x08");
    assert_eq!(j.rows().len(), 5, "backspace widens it again");
    // a regex; lower case matches either case
    j.keys(r"\.(jpg|txt)$");
    assert_eq!(j.rows(), ["photo.JPG", "notes.txt"]);
    j.keys("\x1b");
    assert_eq!(j.rows().len(), 5, "Esc clears");
    // an upper-case letter makes it case-sensitive; a broken regex filters as plain text
    j.keys("/JPG\n");
    assert_eq!(j.rows(), ["photo.JPG"]);
    j.keys("\x1b/jpG\n");
    assert!(j.rows().is_empty());
    assert!(j.screen().contains("no entry matches"), "{}", j.screen());
    j.keys("\x1b/a(\n");
    assert_eq!(j.rows(), ["a(b"]);
    // after Enter keys navigate again; entering a directory drops the filter
    j.keys("\x1b/pdfs\nl");
    assert_eq!(j.rows(), ["x"]);
    j.keys("h");
    assert_eq!(j.rows().len(), 5);
    assert_eq!(j.selected_name(), "pdfs");
}

#[test]
fn wheel_scrolls_click_selects_double_click_enters() {
    let env = TestEnv::new();
    for i in 0..20 {
        env.file(format!("t/f{i:02}"), (i + 1) * 4096);
    }
    env.file("t/zdir/inner", 512 * 1024);
    let mut j = Journey::open(&env, &["t"], 80, 14);
    assert_eq!(j.selected_name(), "zdir");
    j.event(mouse(MouseEventKind::ScrollDown, 5));
    assert_eq!(j.app.state.cursor(), 3);
    j.event(mouse(MouseEventKind::ScrollUp, 5));
    assert_eq!(j.app.state.cursor(), 0);
    let top = j.app.state.list_top();
    j.event(mouse(MouseEventKind::Down(MouseButton::Left), top + 2));
    assert_eq!(j.app.state.cursor(), 2);
    assert_eq!(j.selected_name(), "f18");
    // a click outside the rows (header, footer) selects nothing
    j.event(mouse(MouseEventKind::Down(MouseButton::Left), 0));
    j.event(mouse(MouseEventKind::Down(MouseButton::Left), 13));
    assert_eq!(j.selected_name(), "f18");
    // two quick clicks on the directory's line enter it
    j.event(mouse(MouseEventKind::Down(MouseButton::Left), top));
    j.event(mouse(MouseEventKind::Down(MouseButton::Left), top));
    assert_eq!(j.rows(), ["inner"]);
}
