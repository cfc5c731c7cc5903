//! Key and mouse events → what the user asked for. No state is changed here.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use super::listing::SortKey;

/// One thing the user asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Up,
    Down,
    PageUp,
    PageDown,
    Home,
    End,
    /// Into the selected directory.
    Enter,
    /// Up to the parent directory.
    Back,
    Sort(SortKey),
    ToggleApparent,
    ToggleCount,
    ToggleMtime,
    Help,
    /// List what could not be read.
    Errors,
    /// Who uses the selected directory.
    Owners,
    /// What is known of the selected entry.
    Item,
    Mark,
    Delete,
    Trash,
    /// `r`: the directory shown, as ncdu and gdu.
    Rescan,
    /// `R`: the selected directory.
    RescanSelected,
    FilterStart,
    FilterInput(char),
    FilterBackspace,
    /// Enter while typing a filter: keep it, stop typing.
    FilterDone,
    /// Esc: drop the filter.
    FilterClear,
    Quit,
    /// Ctrl-C: stop the scan, or quit when none runs.
    Interrupt,
    /// `y` in a dialog.
    Confirm,
    /// Anything else in a dialog.
    Cancel,
    ScrollUp,
    ScrollDown,
    /// A click on a screen line (0-based terminal row).
    Click(u16),
    DoubleClick(u16),
    Resize,
}

/// What keys mean right now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InputMode {
    Normal,
    /// Typing after `/`.
    Filter,
    /// A yes/no question: `y` confirms, anything else cancels.
    Confirm,
    /// Help or a report is shown: any key closes it.
    Dismiss,
    /// The help is shown: the keys that move scroll it, any other closes it.
    Scroll,
}

/// Two clicks on the same line within this time are a double click.
const DOUBLE_CLICK: Duration = Duration::from_millis(400);

/// Turns terminal events into actions; remembers the last click to see double clicks.
#[derive(Debug, Default)]
pub struct Mapper {
    last_click: Option<(Instant, u16)>,
}

impl Mapper {
    pub fn map(&mut self, event: &Event, mode: InputMode, now: Instant) -> Option<Action> {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => key_action(key, mode),
            Event::Mouse(m) if mode == InputMode::Normal => self.mouse_action(m, now),
            Event::Resize(..) => Some(Action::Resize),
            _ => None,
        }
    }

    fn mouse_action(&mut self, m: &MouseEvent, now: Instant) -> Option<Action> {
        match m.kind {
            MouseEventKind::ScrollUp => Some(Action::ScrollUp),
            MouseEventKind::ScrollDown => Some(Action::ScrollDown),
            MouseEventKind::Down(MouseButton::Left) => {
                let double = self
                    .last_click
                    .is_some_and(|(t, row)| row == m.row && now.duration_since(t) <= DOUBLE_CLICK);
                if double {
                    self.last_click = None;
                    Some(Action::DoubleClick(m.row))
                } else {
                    self.last_click = Some((now, m.row));
                    Some(Action::Click(m.row))
                }
            }
            _ => None,
        }
    }
}

/// The action of a key in a mode.
pub fn key_action(key: &KeyEvent, mode: InputMode) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl && key.code == KeyCode::Char('c') {
        return Some(Action::Interrupt);
    }
    match mode {
        InputMode::Confirm => Some(match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') => Action::Confirm,
            _ => Action::Cancel,
        }),
        InputMode::Dismiss => Some(Action::Cancel),
        InputMode::Scroll => Some(match key.code {
            KeyCode::Char('j') | KeyCode::Down => Action::Down,
            KeyCode::Char('k') | KeyCode::Up => Action::Up,
            KeyCode::PageDown | KeyCode::Char(' ') => Action::PageDown,
            KeyCode::PageUp => Action::PageUp,
            _ => Action::Cancel,
        }),
        InputMode::Filter => match key.code {
            KeyCode::Esc => Some(Action::FilterClear),
            KeyCode::Enter => Some(Action::FilterDone),
            KeyCode::Backspace => Some(Action::FilterBackspace),
            KeyCode::Up => Some(Action::Up),
            KeyCode::Down => Some(Action::Down),
            KeyCode::Char(c) if !ctrl => Some(Action::FilterInput(c)),
            _ => None,
        },
        InputMode::Normal => normal_key(key.code, ctrl),
    }
}

fn normal_key(code: KeyCode, ctrl: bool) -> Option<Action> {
    Some(match code {
        KeyCode::Char('j') | KeyCode::Down => Action::Down,
        KeyCode::Char('k') | KeyCode::Up => Action::Up,
        KeyCode::Char('d') if ctrl => Action::PageDown,
        KeyCode::Char('u') if ctrl => Action::PageUp,
        KeyCode::PageDown => Action::PageDown,
        KeyCode::PageUp => Action::PageUp,
        KeyCode::Char('g') | KeyCode::Home => Action::Home,
        KeyCode::Char('G') | KeyCode::End => Action::End,
        KeyCode::Enter | KeyCode::Char('l') | KeyCode::Right => Action::Enter,
        KeyCode::Char('h') | KeyCode::Left | KeyCode::Backspace => Action::Back,
        KeyCode::Char('s') => Action::Sort(SortKey::Size),
        KeyCode::Char('n') => Action::Sort(SortKey::Name),
        KeyCode::Char('C') => Action::Sort(SortKey::Count),
        KeyCode::Char('m') => Action::Sort(SortKey::Mtime),
        KeyCode::Char('D') => Action::Sort(SortKey::Change),
        KeyCode::Char('a') => Action::ToggleApparent,
        KeyCode::Char('c') => Action::ToggleCount,
        KeyCode::Char('M') => Action::ToggleMtime,
        KeyCode::Char('?') => Action::Help,
        KeyCode::Char('e') => Action::Errors,
        KeyCode::Char('o') => Action::Owners,
        KeyCode::Char('i') => Action::Item,
        KeyCode::Char(' ') => Action::Mark,
        KeyCode::Char('d') => Action::Delete,
        KeyCode::Char('t') => Action::Trash,
        KeyCode::Char('r') => Action::Rescan,
        KeyCode::Char('R') => Action::RescanSelected,
        KeyCode::Char('/') => Action::FilterStart,
        KeyCode::Esc => Action::FilterClear,
        KeyCode::Char('q') => Action::Quit,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventState;

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn modes_change_what_keys_mean() {
        let mut m = Mapper::default();
        let now = Instant::now();
        let q = key(KeyCode::Char('q'));
        assert_eq!(m.map(&q, InputMode::Normal, now), Some(Action::Quit));
        assert_eq!(
            m.map(&q, InputMode::Filter, now),
            Some(Action::FilterInput('q'))
        );
        assert_eq!(m.map(&q, InputMode::Confirm, now), Some(Action::Cancel));
        let enter = key(KeyCode::Enter);
        assert_eq!(m.map(&enter, InputMode::Confirm, now), Some(Action::Cancel));
        let y = key(KeyCode::Char('y'));
        assert_eq!(m.map(&y, InputMode::Confirm, now), Some(Action::Confirm));
        let release = Event::Key(KeyEvent {
            code: KeyCode::Char('j'),
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Release,
            state: KeyEventState::NONE,
        });
        assert_eq!(m.map(&release, InputMode::Normal, now), None);
        let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert_eq!(
            m.map(&ctrl_c, InputMode::Filter, now),
            Some(Action::Interrupt)
        );
    }

    #[test]
    fn two_quick_clicks_on_one_line_are_a_double_click() {
        let mut m = Mapper::default();
        let click = |row| {
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column: 3,
                row,
                modifiers: KeyModifiers::NONE,
            })
        };
        let t0 = Instant::now();
        let n = InputMode::Normal;
        assert_eq!(m.map(&click(4), n, t0), Some(Action::Click(4)));
        let t1 = t0 + Duration::from_millis(100);
        assert_eq!(m.map(&click(4), n, t1), Some(Action::DoubleClick(4)));
        // a third click starts over; a click on another line or much later is single
        assert_eq!(m.map(&click(4), n, t1), Some(Action::Click(4)));
        assert_eq!(m.map(&click(5), n, t1), Some(Action::Click(5)));
        let t2 = t1 + Duration::from_secs(2);
        assert_eq!(m.map(&click(5), n, t2), Some(Action::Click(5)));
    }
}
