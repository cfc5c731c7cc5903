//! Benchmarks of the output views, on the synthetic 1,000,000-node tree of `common`.
//!
//! They guard what happens after the rows are chosen: escaping and measuring names, sizing
//! columns, shading bars and flipping the layout (`bars/50`, `bars/500`; `-n 500` shows how
//! it scales with the number of lines), and the streamed JSON writer (`json/depth2`, what
//! `-j -d 2` prints). Output goes to a `Vec<u8>` that keeps its capacity, so the numbers are
//! the renderers' own and not the terminal's. Row selection is benchmarked in `tree`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use hogs::render::bars::BarsView;
use hogs::render::json::render_json;
use hogs::render::labels::Labels;
use hogs::render::ViewOptions;
use hogs::tree::{select_rows, Selection, Ties};
use hogs::vocab::{SizeMode, UnitStyle};

mod common;

/// What `hogs` decides for output to a pipe with no options besides `-n lines`.
fn view_options(lines: usize) -> ViewOptions {
    ViewOptions {
        depth: None,
        lines,
        reverse: false,
        min_size: None,
        bars: true,
        bars_on_right: false,
        color: false,
        full_paths: false,
        only_dirs: false,
        width: 80,
        skip_total: false,
        units: UnitStyle::HumanIec,
        to_terminal: false,
        collapse: (Vec::new(), Vec::new()),
        filetime: None,
        dim: false,
    }
}

fn selection(max_rows: usize, max_depth: Option<usize>) -> Selection {
    Selection {
        mode: SizeMode::Disk,
        max_rows,
        max_depth,
        min_size: None,
        only_dirs: false,
        hide_empty: false,
        collapsed: Vec::new(),
        ties: Ties::Paths { renamed: vec![] },
    }
}

fn render(c: &mut Criterion) {
    let tree = common::finished_tree();
    let top = common::root(&tree);
    let mut out: Vec<u8> = Vec::with_capacity(1 << 20);

    // the names as `hogs` gives them for one path
    let labels = Labels::dust(&tree, &[top], false);
    let mut group = c.benchmark_group("render/bars");
    for lines in [50, 500] {
        let opts = view_options(lines);
        let rows = select_rows(&tree, &[top], &selection(lines, None));
        assert_eq!(rows.len(), lines, "the synthetic tree has enough rows");
        let view = BarsView {
            opts: &opts,
            mode: SizeMode::Disk,
            palette: None,
            labels: &labels,
        };
        // once untimed: one output line per row
        out.clear();
        view.render(&tree, &rows, &mut out)
            .expect("writing to a Vec cannot fail");
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), lines);
        group.bench_with_input(BenchmarkId::from_parameter(lines), &rows, |b, rows| {
            b.iter(|| {
                out.clear();
                view.render(black_box(&tree), rows, &mut out)
                    .expect("writing to a Vec cannot fail");
                out.len()
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("render/json");
    // as in `hogs::app::print::render` for one path: the view's lines, the depth as given
    let sel = selection(view_options(30).lines, Some(2));
    out.clear();
    render_json(
        &tree,
        top,
        &sel,
        hogs::vocab::UnitStyle::HumanIec,
        &labels,
        &mut out,
    )
    .expect("writing to a Vec cannot fail");
    serde_json::from_slice::<serde_json::Value>(&out).expect("the output is one JSON document");
    group.bench_function("depth2", |b| {
        b.iter(|| {
            out.clear();
            render_json(
                black_box(&tree),
                top,
                &sel,
                hogs::vocab::UnitStyle::HumanIec,
                &labels,
                &mut out,
            )
            .expect("writing to a Vec cannot fail");
            out.len()
        })
    });
    group.finish();
}

criterion_group!(benches, render);
criterion_main!(benches);
