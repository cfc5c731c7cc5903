//! Key press → frame in `hogs i` on a synthetic 1,000,000-node tree.
//!
//! What a user feels on every key: the action applied to the state, then a full frame drawn
//! into ratatui's TestBackend (200x50) — layout, the visible rows formatted and escaped, the
//! buffer diffed. It must stay far below a frame (16 ms) whatever the size of the tree:
//! sorted rows are cached per directory, and only the rows on screen are drawn.
//! - `down`: move the cursor (alternately down and up, so it stays in range);
//! - `enter_back`: into the first directory and back (both cached after the first press);
//! - `resort`: `s`, reversing the order of the current directory (a real re-sort).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use hogs::tui::action::Action;
use hogs::tui::listing::SortKey;
use hogs::tui::state::{Options, State};
use hogs::tui::style::Styles;
use hogs::tui::view;
use hogs::vocab::{SizeMode, UnitStyle};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

mod common;

fn key_to_frame(c: &mut Criterion) {
    let tree = common::finished_tree();
    let mut state = State::new(
        tree,
        Options {
            mode: SizeMode::Disk,
            units: UnitStyle::HumanIec,
            allow_delete: true,
        },
    );
    let styles = Styles::from_string("di=01;34:ln=01;36:*.tar.gz=01;31:*.png=01;35");
    let (w, h) = (200, 50);
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    let areas = view::layout(ratatui::layout::Rect::new(0, 0, w, h), &state);
    state.set_list_area(areas.list.y, areas.list.height);
    let mut frame = |state: &mut State, action: Action| {
        state.apply(action);
        term.draw(|f| view::draw(f, state, &styles))
            .map(|_| ())
            .expect("draw");
    };
    assert_eq!(
        state.dir(),
        common::root(state.tree()),
        "starts at the scanned root"
    );
    // into a directory of the second level, where rows have names, sizes and bars
    frame(&mut state, Action::Enter);
    let mut group = c.benchmark_group("tui/key_to_frame");
    let mut down = true;
    group.bench_function("down", |b| {
        b.iter(|| {
            down = !down;
            frame(
                black_box(&mut state),
                if down { Action::Down } else { Action::Up },
            )
        })
    });
    group.bench_function("enter_back", |b| {
        b.iter(|| {
            frame(black_box(&mut state), Action::Enter);
            frame(black_box(&mut state), Action::Back);
        })
    });
    group.bench_function("resort", |b| {
        b.iter(|| frame(black_box(&mut state), Action::Sort(SortKey::Size)))
    });
    group.finish();
}

criterion_group!(benches, key_to_frame);
criterion_main!(benches);
