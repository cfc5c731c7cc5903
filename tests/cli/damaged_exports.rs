//! A damaged or crafted export is refused, never shown with other names or sizes (issue 40,
//! item 1): random single-bit flips over hogs's binary and zstd JSON exports (every file
//! accepted shows exactly what the undamaged one does), and binary files whose directories'
//! totals are not what their entries add up to, or that list one item in two directories,
//! refused on demand and loaded alike, in every view and in `--diff`.

use std::path::Path;
use std::process::Output;

use hogs::formats::ncdu_bin::spec::{etype, Item};
use hogs::formats::ncdu_bin::BinWriter;

use crate::util::*;

/// hogs on `args`, the import read as `how` says: `load` the whole import, `say` on demand
/// where it can (saying so on stderr when it reads it whole or on demand), `default` as a
/// user runs it.
fn hogs_as(env: &TestEnv, how: &str, args: &[&str]) -> Output {
    let mut cmd = env.hogs();
    if how != "default" {
        cmd.env("HOGS_DEBUG_IMPORT", how);
    }
    cmd.args(args).output().expect("run hogs")
}

/// A small tree with hard links in two directories, a sparse file and hostile names.
fn sample(env: &TestEnv) {
    env.file("t/a/big", 70_000)
        .file("t/a/esc\x1b[31mred", 3_000)
        .file("t/b/d4654", 12_000)
        .file("t/b/c/deep", 9_000)
        .hardlink("t/a/big", "t/b/link")
        .hardlink("t/a/big", "t/b/c/link2")
        .sparse("t/b/sparse", 1 << 20);
    for i in 0..40 {
        env.file(format!("t/many/f{i}"), 100 * i);
    }
}

/// A seeded pseudo-random sequence (xorshift64*): the same flips at every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// Random flips over a file (the file's bytes hold the temporary directory's path, so its
/// length, and the bits flipped, change from run to run; the seed does not).
const FLIPS: usize = 120;

/// Flips `FLIPS` random bits of `file` (from `seed`) and then each of `bits` (counted from
/// the end of the file), one at a time, and runs each view on each damaged copy: refused with
/// one line and exit status 1, or the very output of the undamaged file. Returns how many
/// copies were refused.
fn flip_bits(env: &TestEnv, file: &str, seed: u64, bits: &[usize], hows: &[&str]) -> usize {
    let good = std::fs::read(env.path(file)).expect("the export");
    let views: [&[&str]; 2] = [&["-j"], &["-F", "-n", "5"]];
    let want: Vec<Vec<u8>> = views
        .iter()
        .map(|v| {
            let out = hogs_as(env, "load", &[&["--import", file][..], v].concat());
            assert!(out.status.success(), "{file} {v:?}");
            out.stdout
        })
        .collect();
    let bad_name = format!("bad-{file}");
    let mut rng = Rng(seed);
    let random = (0..FLIPS).map(|_| rng.below(good.len() * 8));
    let from_end = bits.iter().map(|b| good.len() * 8 - 1 - b);
    let mut refused = 0;
    for bit in random.chain(from_end) {
        let mut bad = good.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        std::fs::write(env.path(&bad_name), &bad).expect("write");
        for (view, want) in views.iter().zip(&want) {
            for how in hows {
                let args = [&["--import", &bad_name][..], view].concat();
                let out = hogs_as(env, how, &args);
                let err = String::from_utf8_lossy(&out.stderr);
                let what = format!("{file}, bit {bit} flipped, {view:?} {how}: {err}");
                if out.status.success() {
                    // (the outputs are long: said as a difference, not printed whole)
                    assert!(
                        out.stdout == *want,
                        "{what}: accepted, and shows other names or sizes"
                    );
                    continue;
                }
                refused += 1;
                assert_eq!(out.status.code(), Some(1), "{what}");
                assert!(out.stdout.is_empty(), "{what}");
                assert!(
                    err.starts_with(&format!("hogs: cannot import '{bad_name}': ")),
                    "{what}"
                );
                assert_eq!(err.lines().count(), 1, "{what}");
            }
        }
    }
    refused
}

#[test]
fn random_bit_flips_are_refused_or_change_nothing() {
    let env = TestEnv::new();
    sample(&env);
    env.stdout_ok(["-O", "x.ncdu", "t"]);
    env.stdout_ok(["-O", "x.json.zst", "t"]);
    // a frame carries its checksum, and ncdu 2.8's frames, without one, are still read
    let z = std::fs::read(env.path("x.json.zst")).expect("the export");
    assert_ne!(z[4] & 0x04, 0, "the zstd frame's checksum flag");
    // and every bit of the root's itemref in the index (the 8 bytes before the last 4): one
    // that still lands on an item would show another tree
    let root_ref: Vec<usize> = (32..96).collect();
    let refused = flip_bits(
        &env,
        "x.ncdu",
        0x9e37_79b9_7f4a_7c15,
        &root_ref,
        &["load", "default"],
    );
    assert!(refused > 0);
    let refused = flip_bits(&env, "x.json.zst", 0xdead_beef_cafe_f00d, &[], &["load"]);
    assert!(refused > 0);
}

/// A binary export written item by item, children first.
struct Crafted {
    w: BinWriter<Vec<u8>>,
}

fn file_item(name: &str, size: u64, prev: Option<u64>) -> Item {
    Item {
        etype: etype::REG,
        name: name.into(),
        prev,
        asize: Some(size),
        dsize: Some(size),
        ..Item::default()
    }
}

fn dir_item(name: &str, sub: Option<u64>, prev: Option<u64>, items: u64, cum: u64) -> Item {
    Item {
        etype: etype::DIR,
        name: name.into(),
        prev,
        sub,
        items: Some(items),
        cumasize: Some(cum),
        cumdsize: Some(cum),
        ..Item::default()
    }
}

impl Crafted {
    fn new() -> Crafted {
        Crafted {
            w: BinWriter::new(Vec::new()).expect("writer"),
        }
    }

    fn put(&mut self, item: Item) -> u64 {
        self.w.item(&item).expect("item")
    }

    fn save(self, root: u64, path: &Path) {
        std::fs::write(path, self.w.finish(root).expect("finish")).expect("write");
    }
}

/// `/r` holding one file of 4 KiB, its totals `cum`.
pub(crate) fn one_file(cum: u64, path: &Path) {
    let mut c = Crafted::new();
    let f = c.put(file_item("f", 4096, None));
    let root = c.put(dir_item("/r", Some(f), None, 1, cum));
    c.save(root, path);
}

/// `/r/d` holding one file of 4 KiB, d's totals and the root's `cum`.
fn one_deeper(cum: u64, path: &Path) {
    let mut c = Crafted::new();
    let f = c.put(file_item("f", 4096, None));
    let d = c.put(dir_item("d", Some(f), None, 1, cum));
    let g = c.put(file_item("g", 100, Some(d)));
    let root = c.put(dir_item("/r", Some(g), None, 3, cum + 100));
    c.save(root, path);
}

/// `/r/a` and `/r/b` both listing one file of 4 KiB, every total what its entries add up to.
fn shared_item(path: &Path) {
    let mut c = Crafted::new();
    let f = c.put(file_item("f", 4096, None));
    let a = c.put(dir_item("a", Some(f), None, 1, 4096));
    let b = c.put(dir_item("b", Some(f), Some(a), 1, 4096));
    let root = c.put(dir_item("/r", Some(b), None, 4, 8192));
    c.save(root, path);
}

/// The run refuses the file `name` with one line naming it and `what`, exit status 1.
fn refuses(out: &Output, name: &str, what: &str, args: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.starts_with(&format!("hogs: cannot import '{name}': ")) && err.contains(what),
        "{args:?}: {err}"
    );
}

const VIEWS: &[&[&str]] = &[
    &["-d", "1"],
    &["-j"],
    &["-j", "-d", "1"],
    &["-F"],
    &["-t"],
    &["-n", "2"],
    &["-R"],
];

#[test]
fn totals_that_are_not_what_the_entries_add_up_to_are_refused_on_demand_and_loaded() {
    let env = TestEnv::new();
    one_file(10, &env.path("over.ncdu"));
    one_file(4096, &env.path("good.ncdu"));
    one_deeper(10, &env.path("deep.ncdu"));
    shared_item(&env.path("shared.ncdu"));
    // the undamaged file is read on demand and shows its 4 KiB
    let out = hogs_as(&env, "say", &["--import", "good.ncdu", "-j", "-d", "0"]);
    assert!(out.status.success());
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("\"disk_bytes\":4096"), "{shown}");
    let over = "says it holds 10 bytes on disk, 10 apparent; its entries add up to 4096, 4096";
    for view in VIEWS.iter().chain([&["-d", "0"][..]].iter()) {
        // "say": refused on demand by itself (a run handed to the load says so first)
        for how in ["load", "say"] {
            let args = [&["--import", "over.ncdu"][..], view].concat();
            refuses(&hogs_as(&env, how, &args), "over.ncdu", over, &args);
        }
    }
    for view in VIEWS {
        for how in ["load", "say"] {
            let args = [&["--import", "deep.ncdu"][..], view].concat();
            refuses(&hogs_as(&env, how, &args), "deep.ncdu", "directory ", &args);
            let args = [&["--import", "shared.ncdu"][..], view].concat();
            let out = hogs_as(&env, how, &args);
            // -t's view of types is made of the loaded tree
            let why = match how == "load" || view[0] == "-t" {
                true => "is reached twice",
                false => "is listed by two directories",
            };
            refuses(&out, "shared.ncdu", why, &args);
        }
    }
    // a comparison refuses the damaged side, either way round, on demand and loaded
    for (old, new) in [("over.ncdu", "good.ncdu"), ("good.ncdu", "over.ncdu")] {
        for how in ["load", "say"] {
            let args = ["--diff", old, "--import", new];
            let out = hogs_as(&env, how, &args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?} {how}: {err}");
            assert!(out.stdout.is_empty(), "{args:?} {how}: {err}");
            assert!(
                err.contains("over.ncdu") && err.contains(over),
                "{args:?} {how}: {err}"
            );
        }
    }
}

/// A root reference in the index that lands on another directory (as a flipped bit of it can:
/// 1 of the 64 on an export of benches' `balanced` tree) is refused: the root is the last item
/// written, so it ends its block.
#[test]
fn a_root_reference_to_another_directory_is_refused() {
    let env = TestEnv::new();
    let mut c = Crafted::new();
    let f = c.put(file_item("f", 4096, None));
    let d = c.put(dir_item("d", Some(f), None, 1, 4096));
    c.put(dir_item("/r", Some(d), None, 2, 4096));
    c.save(d, &env.path("x.ncdu"));
    for view in VIEWS {
        for how in ["load", "say"] {
            let args = [&["--import", "x.ncdu"][..], view].concat();
            let why = "the root item 0x";
            refuses(&hogs_as(&env, how, &args), "x.ncdu", why, &args);
        }
    }
}
