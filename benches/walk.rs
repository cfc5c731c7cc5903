//! Benchmarks of the parallel walk, `hogs::walk::walk`, on a real directory tree.
//!
//! The walk is where `hogs` spends nearly all its time: reading directories, stat'ing entries
//! relative to a directory fd, deduplicating hard links and appending each directory's
//! children to the tree under one lock. These benchmarks guard that path end to end, on a
//! tree created once in a temporary directory (and kept in the page cache by the first
//! runs, so they measure the walker and the system calls, not the disk):
//!
//! - 20 top directories × 10 sub-directories × 100 files of varied small sizes (20,000 files),
//! - one hard link to a file of the neighbouring top directory in each sub-directory (200),
//! - an empty directory in every fifth top directory (4),
//!
//! 20,425 entries with the root. Each mode is measured on one thread (the walker's own cost)
//! and on the default thread count (`available_parallelism`, as `hogs` without `-T`, which
//! shows the cost of the lock and of task spawning):
//! - `walk/disk/*`: the default mode (`st_blocks`), every entry stat'ed;
//! - `walk/count/*`: `-f`, inode counts, where the walker may skip stat'ing plain files.

use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use hogs::vocab::SizeMode;
use hogs::walk::{walk, Progress};
use hogs::walk::{Exclusions, WalkOptions};

const TOP_DIRS: usize = 20;
const SUB_DIRS: usize = 10;
const FILES: usize = 100;
/// Bytes really written per file; longer files get a sparse tail (keeps the setup quick).
const MAX_WRITTEN: u64 = 2048;
/// Entries the walk must find: root, directories, files, hard links, empty directories.
const ENTRIES: usize = 1 + TOP_DIRS + TOP_DIRS * SUB_DIRS * (1 + FILES + 1) + TOP_DIRS.div_ceil(5);

/// Knuth's MMIX LCG, so the tree is the same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// Size mix of a source or home directory: some empty files, mostly under a block, a few
/// tens of KiB.
fn file_size(rng: &mut Lcg) -> u64 {
    match rng.below(100) {
        0..=14 => 0,
        15..=79 => 1 + rng.below(4096),
        80..=94 => 4096 + rng.below(12 * 1024),
        _ => 16 * 1024 + rng.below(240 * 1024),
    }
}

fn write_file(path: &Path, size: u64, payload: &[u8]) {
    let mut f =
        fs::File::create(path).unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
    let real = size.min(MAX_WRITTEN) as usize;
    f.write_all(&payload[..real])
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    if size > real as u64 {
        f.set_len(size)
            .unwrap_or_else(|e| panic!("cannot extend {}: {e}", path.display()));
    }
}

/// Creates the benchmark tree under `root` (which must exist and be empty).
fn create_tree(root: &Path) {
    let mut rng = Lcg(0x7761_6c6b); // "walk"
    let payload: Vec<u8> = (0..MAX_WRITTEN).map(|i| (i * 31 % 251) as u8).collect();
    let sub = |t: usize, s: usize| root.join(format!("top{t:02}")).join(format!("sub{s}"));
    for t in 0..TOP_DIRS {
        for s in 0..SUB_DIRS {
            let dir = sub(t, s);
            fs::create_dir_all(&dir)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
            for f in 0..FILES {
                write_file(
                    &dir.join(format!("file{f:03}.dat")),
                    file_size(&mut rng),
                    &payload,
                );
            }
        }
        if t % 5 == 0 {
            let empty = root.join(format!("top{t:02}")).join("empty");
            fs::create_dir(&empty)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", empty.display()));
        }
    }
    // after all files exist: link into the neighbouring top directory
    for t in 0..TOP_DIRS {
        for s in 0..SUB_DIRS {
            let f = rng.below(FILES as u64);
            let target = sub((t + 1) % TOP_DIRS, s).join(format!("file{f:03}.dat"));
            let link = sub(t, s).join("hardlink.dat");
            fs::hard_link(&target, &link)
                .unwrap_or_else(|e| panic!("cannot link {}: {e}", link.display()));
        }
    }
}

/// Options as `Config::from_cli` builds them with no flags but `-f` and `-T`.
fn options(mode: SizeMode, threads: usize) -> WalkOptions {
    WalkOptions {
        mode,
        keep_sizes: false,
        one_filesystem: false,
        follow_links: false,
        exclusions: Exclusions::default(),
        threads: Some(threads),
        keep_identity: false,
        sparse_identity: false,
        keep_extra: false,
        keep_times: false,
        fold_files: false,
    }
}

fn bench_walk(c: &mut Criterion) {
    let dir = tempfile::Builder::new()
        .prefix("hogs-bench-walk-")
        .tempdir()
        .expect("cannot create a temporary directory");
    create_tree(dir.path());
    let paths = vec![OsString::from(dir.path())];
    let default_threads = std::thread::available_parallelism().map_or(1, |n| n.get());

    let mut group = c.benchmark_group("walk");
    // a walk takes milliseconds: few, equal samples keep a run within seconds
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for (mode_name, mode) in [("disk", SizeMode::Disk), ("count", SizeMode::Count)] {
        for (threads_name, threads) in [("1-thread", 1), ("default-threads", default_threads)] {
            let opts = options(mode, threads);
            // once untimed: proves the tree is read completely (and warms the page cache)
            let scan = walk(&paths, &opts, &Progress::default());
            assert!(scan.errors.is_empty(), "walk errors: {:?}", scan.errors);
            assert_eq!(scan.tree.len(), ENTRIES + 1, "entries plus (total)");

            group.bench_with_input(
                BenchmarkId::new(mode_name, threads_name),
                &opts,
                |b, opts| b.iter(|| walk(&paths, opts, &Progress::default())),
            );
        }
    }
    group.finish();
    dir.close().expect("cannot remove the temporary directory");
}

criterion_group!(benches, bench_walk);
criterion_main!(benches);
