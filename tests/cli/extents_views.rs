//! `--extents` in the views beyond the printed ones, on the btrfs image of `extents.rs`: the
//! `-O` export (its `dsize` what each file holds, each range of disk once; hogs's own
//! `exclusive_bytes` and `shared_bytes`, which `--import` reads back; ncdu and gdu still read
//! it) and `--diff` (both scans in the mode). `hogs i` is in `tui/extents.rs`.

use std::fs;
use std::process::Command;

use crate::adversarial::in_private_mounts;
use crate::extents::{btrfs_script, can_mount, compsize_disk, read_json, sharing};
use crate::util::*;
use serde_json::Value;

/// (path below the root, (disk, exclusive, shared)) of every node of a `-j` document.
fn triples(v: &Value) -> Vec<(String, (u64, u64, u64))> {
    let mut out = Vec::new();
    let mut stack = vec![(String::new(), v)];
    while let Some((path, n)) = stack.pop() {
        out.push((path.clone(), sharing(n)));
        for c in n
            .get("children")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            stack.push((format!("{path}/{}", name(c)), c));
        }
    }
    out.sort();
    out
}

/// Directories of a `-j` document and the sum of their own disk sizes.
fn dirs_and_own(v: &Value) -> (u64, u64) {
    let mut stack = vec![v];
    let (mut dirs, mut own) = (0, 0);
    while let Some(n) = stack.pop() {
        if n["type"] == "dir" {
            dirs += 1;
            let kids: u64 = children(n).iter().map(size).sum();
            own += size(n) - kids;
            stack.extend(children(n));
        }
    }
    (dirs, own)
}

/// An export made with `--extents` holds its numbers: `--import` gives back every node's
/// disk, exclusive and shared bytes, and compsize's total on compressed clones and a
/// snapshot's volume. ncdu and gdu read it and add up the extents' sizes.
#[test]
fn the_export_keeps_the_numbers_and_ncdu_and_gdu_read_it() {
    if !can_mount(&["mkfs.btrfs", "btrfs", "compsize", "unshare", "ncdu", "gdu"]) {
        return;
    }
    let env = TestEnv::new();
    let script = btrfs_script(&format!(
        r#"{hogs} --extents -j plain > ../walk.json
{hogs} --extents -O ../plain.export.json plain
{hogs} --extents -O ../vol.export.json vol
compsize -b vol > ../compsize-vol.txt"#,
        hogs = hogs_bin().display()
    ));
    if !in_private_mounts(&env, &script, "mount a btrfs image") {
        return;
    }
    let walk = read_json(&env, "walk.json");
    let imported = env.json(["--import", "plain.export.json"]);
    assert_eq!(triples(&imported), triples(&walk), "--import of the export");
    assert!(sharing(&walk).2 > 0, "the image shares something: {walk}");
    let vol = env.json(["--import", "vol.export.json"]);
    assert_eq!(
        size(&vol),
        compsize_disk(&env, "compsize-vol.txt"),
        "vol, imported, vs compsize -b"
    );
    // filters leave part of what was shared out: no columns rather than wrong ones
    let filtered = env.json(["--import", "plain.export.json", "-e", "own"]);
    assert!(filtered.get("exclusive_bytes").is_none(), "{filtered}");

    // ncdu reads it (and drops what it does not know); its sizes are the extents'
    let out = Command::new("ncdu")
        .args(["-f", "plain.export.json", "-o", "ncdu.json"])
        .current_dir(env.root())
        .output()
        .expect("run ncdu");
    assert!(out.status.success(), "ncdu -f: {out:?}");
    let again = env.json(["--import", "ncdu.json"]);
    assert_eq!(size(&again), size(&walk), "ncdu's re-export of it");
    // gdu reads it; it counts every directory as 4096 bytes, whatever the file says
    let out = Command::new("gdu")
        .args(["-n", "-p", "--no-prefix", "-s", "-f", "plain.export.json"])
        .current_dir(env.root())
        .output()
        .expect("run gdu");
    assert!(out.status.success(), "gdu -f: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let total: u64 = text
        .lines()
        .next()
        .and_then(|l| l.get(1..)?.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("gdu's total: {text}"));
    let (dirs, own) = dirs_and_own(&walk);
    assert_eq!(total, size(&walk) - own + 4096 * dirs, "gdu -s -f: {text}");
}

/// `--diff` compares sizes in the mode: a new reflink clone adds nothing on disk, where
/// `st_blocks` see a whole new copy; a saved scan without the mode is said to differ.
#[test]
fn diff_compares_what_the_disk_holds() {
    if !can_mount(&["mkfs.btrfs", "btrfs", "unshare"]) {
        return;
    }
    let env = TestEnv::new();
    let script = btrfs_script(&format!(
        r#"{hogs} --extents -j plain > ../before.json
{hogs} --extents -O ../before.export.json plain
{hogs} -O ../before-blocks.export.json plain
cp --reflink=always plain/x/r1 plain/x/r1again
sync
{hogs} --extents -j --diff ../before.export.json plain > ../diff.json
{hogs} -j --diff ../before-blocks.export.json plain > ../diff-blocks.json
{hogs} --extents -j --diff ../before-blocks.export.json plain > ../mixed.json 2> ../mixed.err
{hogs} -j --diff ../before.export.json plain > ../reverse.json 2> ../reverse.err
du -sB1 plain/x/r1again > ../du-clone.txt"#,
        hogs = hogs_bin().display()
    ));
    if !in_private_mounts(&env, &script, "mount a btrfs image") {
        return;
    }
    let before = size(&read_json(&env, "before.json"));
    let diff = read_json(&env, "diff.json");
    assert_eq!(
        field_u64(&diff, "old"),
        before,
        "the saved scan's total: {diff}"
    );
    assert_eq!(
        field_u64(&diff, "new"),
        before,
        "a clone adds nothing: {diff}"
    );
    let clone = parse_du(&fs::read(env.path("du-clone.txt")).expect("du"))[0].0;
    let blocks = read_json(&env, "diff-blocks.json");
    assert_eq!(
        field_u64(&blocks, "new") - field_u64(&blocks, "old"),
        clone,
        "without the mode: a whole copy more"
    );
    let err = fs::read_to_string(env.path("mixed.err")).expect("stderr");
    assert!(err.contains("not saved with --extents"), "said: {err}");
    // the other way round: every clone shows up as growth, and that is said too
    let reverse = read_json(&env, "reverse.json");
    assert!(
        field_u64(&reverse, "new") - field_u64(&reverse, "old") >= clone,
        "the new side without the mode: {reverse}"
    );
    let err = fs::read_to_string(env.path("reverse.err")).expect("stderr");
    assert!(err.contains("was saved with --extents"), "said: {err}");
}

/// On any filesystem, a comparison whose two sides were measured in different modes says
/// so, whichever side is in the mode and whether the new side is a walk or an export; two
/// sides in the same mode say nothing.
#[test]
fn diff_says_when_the_sides_differ_in_the_mode() {
    let env = TestEnv::new();
    env.file("t/a", 50_000).file("t/b/c", 20_000);
    env.stdout_ok(["--extents", "-O", "ext.export.json", "t"]);
    env.stdout_ok(["-O", "plain.export.json", "t"]);
    let cases: [(&[&str], &str); 6] = [
        (
            &["--diff", "ext.export.json", "t"],
            "'ext.export.json' was saved with --extents",
        ),
        (
            &["--diff", "ext.export.json", "--import", "plain.export.json"],
            "'ext.export.json' was saved with --extents",
        ),
        (
            &["--extents", "--diff", "plain.export.json", "t"],
            "'plain.export.json' was not saved with --extents",
        ),
        (
            &["--diff", "plain.export.json", "--import", "ext.export.json"],
            "'plain.export.json' was not saved with --extents",
        ),
        (&["--extents", "--diff", "ext.export.json", "t"], ""),
        (&["--diff", "plain.export.json", "t"], ""),
    ];
    for (args, said) in cases {
        let out = env.run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        if said.is_empty() {
            assert!(err.is_empty(), "{args:?}: same mode, nothing to say: {err}");
        } else {
            assert!(err.contains(said), "{args:?}: says {said:?}: {err}");
        }
    }
}
