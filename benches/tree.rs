//! Benchmarks of the passes over a finished scan, on a synthetic 1,000,000-node tree.
//!
//! They guard the work every run does between the walk and the output, which on a large scan
//! must stay a small fraction of the walk:
//! - `aggregate`: [`Tree::finish`], the reverse sweep that turns own sizes into subtree totals
//!   (one pass over every node, so it scales with the scan);
//! - `select_rows/50` and `select_rows/5000`: the dust-style top-N choice behind the default
//!   view, which must only ever heap the children that can still be shown;
//! - `biggest_files/50`: `-F`, a full traversal with a bounded heap.
//!
//! Equal sizes among siblings (empty files, whole 4 KiB blocks) are common in the synthetic
//! tree, so the depth-first tie-break of the display order is exercised as well.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, SamplingMode};
use hogs::tree::{biggest_files, select_rows, Selection, Ties, Tree};
use hogs::vocab::SizeMode;

mod common;

fn selection(max_rows: usize) -> Selection {
    // what `hogs` uses for a single path without filters: no depth or size limit
    Selection {
        mode: SizeMode::Disk,
        max_rows,
        max_depth: None,
        min_size: None,
        only_dirs: false,
        hide_empty: false,
        collapsed: Vec::new(),
        ties: Ties::Paths { renamed: vec![] },
    }
}

fn aggregate(c: &mut Criterion) {
    let mut group = c.benchmark_group("tree");
    // every iteration first rebuilds the tree, untimed but slower than the sweep: few samples
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    // `finish` may run only once per tree: a fresh tree per run.
    group.bench_function("aggregate", |b| {
        b.iter_batched(
            common::build_tree,
            |mut tree: Tree| {
                tree.finish();
                // returned, so the tree is freed outside the timed section
                tree
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

fn select(c: &mut Criterion) {
    let tree = common::finished_tree();
    let tops = [common::root(&tree)];
    let mut group = c.benchmark_group("tree/select_rows");
    for max_rows in [50, 5000] {
        let sel = selection(max_rows);
        group.bench_with_input(BenchmarkId::from_parameter(max_rows), &sel, |b, sel| {
            b.iter(|| select_rows(black_box(&tree), &tops, sel))
        });
    }
    group.finish();

    let top = common::root(&tree);
    let mut group = c.benchmark_group("tree/biggest_files");
    // as `-F` with 51 lines: the top line is the root itself
    let sel = selection(50);
    group.bench_with_input(BenchmarkId::from_parameter(50), &sel, |b, sel| {
        b.iter(|| biggest_files(black_box(&tree), top, sel))
    });
    group.finish();
}

criterion_group!(benches, aggregate, select);
criterion_main!(benches);
