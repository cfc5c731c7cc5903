//! `--extents` on real copy-on-write filesystems: a btrfs image mounted with zstd
//! compression (compressible files, reflink clones, a read-only snapshot) against `compsize`
//! and `btrfs filesystem du`; an XFS image with reflinks against one copy's blocks; and an
//! ordinary tree, where the mode must count what du counts. The images are sparse files
//! mounted in a private mount namespace (root, unshare, mkfs.btrfs, mkfs.xfs, compsize).

use std::fs;
use std::process::Command;

use crate::adversarial::in_private_mounts;
use crate::util::*;
use serde_json::Value;

fn tool(name: &str) -> bool {
    Command::new("sh")
        .args([
            "-c",
            &format!("command -v {name} || test -x /usr/sbin/{name} || test -x /sbin/{name}"),
        ])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether the filesystem tests can run here: says why not (`skip!`, which fails under CI).
pub(crate) fn can_mount(tools: &[&str]) -> bool {
    let missing: Vec<&str> = tools.iter().copied().filter(|t| !tool(t)).collect();
    if !is_root() || !missing.is_empty() {
        skip!("skipped: needs root and {tools:?} (missing: {missing:?}) to mount a loop image");
        return false;
    }
    true
}

pub(crate) fn read_json(env: &TestEnv, file: &str) -> Value {
    let text = fs::read(env.path(file)).expect("hogs output");
    serde_json::from_slice(&text).unwrap_or_else(|e| {
        panic!(
            "{file} is not JSON ({e}): {}",
            String::from_utf8_lossy(&text)
        )
    })
}

/// `compsize -b`'s "Disk Usage" of its TOTAL line.
pub(crate) fn compsize_disk(env: &TestEnv, file: &str) -> u64 {
    let text = fs::read_to_string(env.path(file)).expect("compsize output");
    let total = text
        .lines()
        .find(|l| l.starts_with("TOTAL"))
        .unwrap_or_else(|| panic!("no TOTAL line in compsize's output: {text}"));
    total
        .split_whitespace()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("compsize's TOTAL line: {total}"))
}

/// `btrfs filesystem du -s --raw`: (total, exclusive, set shared) by path.
pub(crate) fn btrfs_du(env: &TestEnv, file: &str) -> Vec<(String, (u64, u64, u64))> {
    let text = fs::read_to_string(env.path(file)).expect("btrfs filesystem du output");
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| f[i].parse::<u64>().unwrap_or(0);
            (f[3].to_string(), (n(0), n(1), n(2)))
        })
        .collect()
}

pub(crate) fn sharing(v: &Value) -> (u64, u64, u64) {
    (
        field_u64(v, "disk_bytes"),
        field_u64(v, "exclusive_bytes"),
        field_u64(v, "shared_bytes"),
    )
}

/// The btrfs image: `vol` (compressible text and its clone, incompressible data and its
/// clone, a file of its own, an inline file) with a read-only snapshot `snap`, and `plain`
/// (incompressible files only: one and its clone, one of its own) with none.
pub(crate) fn btrfs_script(then: &str) -> String {
    format!(
        r#"set -e
truncate -s 256M img
mkfs.btrfs -q -f img >/dev/null 2>&1
mkdir -p m
mount -o loop,compress=zstd img m
cd m
btrfs subvolume create vol >/dev/null
mkdir vol/a vol/b
seq -f 'line %g of a compressible text file' 1 600000 > vol/a/text
cp --reflink=always vol/a/text vol/b/clone
head -c 3000000 /dev/urandom > vol/a/random
cp --reflink=always vol/a/random vol/b/rclone
head -c 2000000 /dev/urandom > vol/b/own
echo small > vol/a/tiny
btrfs subvolume create plain >/dev/null
mkdir plain/x plain/y
head -c 3000000 /dev/urandom > plain/x/r1
cp --reflink=always plain/x/r1 plain/y/r1clone
head -c 1000000 /dev/urandom > plain/y/own2
sync
btrfs subvolume snapshot -r vol snap >/dev/null
sync
{then}
cd ..
umount m
"#
    )
}

/// The totals of compressed files, clones and a snapshot are compsize's: each disk extent
/// once at its compressed size, inline data as stored. Without the mode, hogs counts what
/// du counts (every clone and the snapshot again, uncompressed): far more.
#[test]
fn btrfs_totals_equal_compsize() {
    if !can_mount(&["mkfs.btrfs", "btrfs", "compsize", "unshare", "setpriv"]) {
        return;
    }
    let env = TestEnv::new();
    let script = btrfs_script(&format!(
        r#"{hogs} --extents -j vol > ../vol.json
{hogs} --extents -j vol snap > ../both.json
{hogs} --extents -j -T 1 vol snap > ../both1.json
{hogs} -j vol > ../plain-walk.json
chmod -R a+rX vol
setpriv --reuid=65534 --regid=65534 --clear-groups {hogs} --extents -j vol > ../unpriv.json 2> ../unpriv.err
compsize -b vol > ../compsize-vol.txt
compsize -b vol snap > ../compsize-both.txt
du -sB1 vol > ../du.txt"#,
        hogs = hogs_bin().display()
    ));
    if !in_private_mounts(&env, &script, "mount a btrfs image") {
        return;
    }
    let vol = read_json(&env, "vol.json");
    let want = compsize_disk(&env, "compsize-vol.txt");
    assert_eq!(size(&vol), want, "vol: hogs --extents vs compsize -b");
    let both = read_json(&env, "both.json");
    let want_both = compsize_disk(&env, "compsize-both.txt");
    assert_eq!(size(&both), want_both, "vol + snap vs compsize -b");
    assert_eq!(
        size(&read_json(&env, "both1.json")),
        want_both,
        "one thread"
    );
    // the snapshot holds nothing of its own but its inline file: vol met it first
    let snap = child(&both, "snap");
    assert!(size(snap) < 100, "snap counts its inline data only: {snap}");
    // the clones are counted at their originals (met first, depth-first)
    let b = child(&vol, "b");
    assert_eq!(size(child(b, "clone")), 0, "{b}");
    assert_eq!(size(child(b, "rclone")), 0, "{b}");
    let du = parse_du(&fs::read(env.path("du.txt")).expect("du.txt"))[0].0;
    assert_eq!(
        size(&read_json(&env, "plain-walk.json")),
        du,
        "without --extents: du's count"
    );
    assert!(
        du > 4 * want,
        "the mode makes a difference here: {du} vs {want}"
    );
    // without CAP_SYS_ADMIN, no compressed sizes: more than compsize, never more than du,
    // and nothing shared is called exclusive (only the inline file is the volume's own)
    let unpriv = read_json(&env, "unpriv.json");
    assert!(
        (want..=du).contains(&size(&unpriv)),
        "unprivileged: {} between compsize's {want} and du's {du}",
        size(&unpriv)
    );
    assert!(sharing(&unpriv).1 <= 4096, "unprivileged: {unpriv}");
    let err = fs::read_to_string(env.path("unpriv.err")).expect("stderr");
    assert!(err.contains("CAP_SYS_ADMIN"), "the limit is said: {err}");
}

/// Exclusive and shared bytes are `btrfs filesystem du`'s on files stored uncompressed
/// (where its lengths are bytes on disk): a clone is shared on both sides, a file of its own
/// exclusive; with the snapshot every extent is shared.
#[test]
fn btrfs_exclusive_and_shared_match_btrfs_filesystem_du() {
    if !can_mount(&["mkfs.btrfs", "btrfs", "unshare"]) {
        return;
    }
    let env = TestEnv::new();
    let script = btrfs_script(&format!(
        r#"{hogs} --extents -j plain > ../plain.json
{hogs} --extents -j vol > ../vol.json
btrfs filesystem du -s --raw plain plain/x plain/y plain/y/own2 vol/b/own > ../btrfs-du.txt"#,
        hogs = hogs_bin().display()
    ));
    if !in_private_mounts(&env, &script, "mount a btrfs image") {
        return;
    }
    let plain = read_json(&env, "plain.json");
    let vol = read_json(&env, "vol.json");
    let theirs = btrfs_du(&env, "btrfs-du.txt");
    let x = child(&plain, "x");
    let y = child(&plain, "y");
    let own2 = child(y, "own2");
    let own = child(child(&vol, "b"), "own");
    let ours = [("plain", &plain), ("plain/x", x), ("plain/y", y)];
    for (path, node) in ours {
        let (_, (_, excl, set_shared)) = theirs
            .iter()
            .find(|(p, _)| p == path)
            .unwrap_or_else(|| panic!("{path} in btrfs filesystem du: {theirs:?}"));
        let (_, e, s) = sharing(node);
        assert_eq!((e, s), (*excl, *set_shared), "{path}: (exclusive, shared)");
    }
    // a file of its own: exclusive, as btrfs says; in a snapshotted subvolume: shared
    let (_, (_, own2_excl, _)) = &theirs[3];
    assert_eq!(sharing(own2), (1003520, *own2_excl, 0), "plain/y/own2");
    let (_, (_, own_excl, _)) = &theirs[4];
    assert_eq!(*own_excl, 0, "btrfs: vol/b/own is shared with the snapshot");
    assert_eq!(sharing(own).1, 0, "vol/b/own is not exclusive: {own}");
    assert_eq!(sharing(own).2, size(own), "vol/b/own is all shared: {own}");
    // the clone pair: one copy's bytes, counted at x; shared on both sides
    assert_eq!(size(x), 3002368);
    assert_eq!(size(child(y, "r1clone")), 0);
    assert_eq!(sharing(&plain), (size(&plain), 1003520, 3002368));
}

/// A clone partly overwritten refers to only part of the extent it shared (a bookend): its
/// shared bytes are those it still refers to, as `btrfs filesystem du` counts them, and the
/// total is still compsize's (the extent is on disk whole).
#[test]
fn btrfs_partly_overwritten_clone_shares_what_it_refers_to() {
    if !can_mount(&["mkfs.btrfs", "btrfs", "compsize", "unshare"]) {
        return;
    }
    let env = TestEnv::new();
    let script = btrfs_script(&format!(
        r#"head -c 65536 /dev/urandom | dd of=plain/y/r1clone bs=65536 seek=10 conv=notrunc 2>/dev/null
sync
{hogs} --extents -j plain > ../plain.json
btrfs filesystem du -s --raw plain plain/x plain/y > ../btrfs-du.txt
compsize -b plain > ../compsize.txt"#,
        hogs = hogs_bin().display()
    ));
    if !in_private_mounts(&env, &script, "mount a btrfs image") {
        return;
    }
    let plain = read_json(&env, "plain.json");
    let theirs = btrfs_du(&env, "btrfs-du.txt");
    let ours = [
        ("plain", &plain),
        ("plain/x", child(&plain, "x")),
        ("plain/y", child(&plain, "y")),
    ];
    for (path, node) in ours {
        let (_, (_, excl, set_shared)) = theirs
            .iter()
            .find(|(p, _)| p == path)
            .unwrap_or_else(|| panic!("{path} in btrfs filesystem du: {theirs:?}"));
        let (_, e, s) = sharing(node);
        assert_eq!((e, s), (*excl, *set_shared), "{path}: (exclusive, shared)");
    }
    assert_eq!(
        size(&plain),
        compsize_disk(&env, "compsize.txt"),
        "vs compsize"
    );
}

/// XFS with reflinks: a file and two clones count one copy's blocks; every copy is shared.
#[test]
fn xfs_reflink_clones_count_one_copy() {
    if !can_mount(&["mkfs.xfs", "unshare"]) {
        return;
    }
    let env = TestEnv::new();
    let script = format!(
        r#"set -e
truncate -s 320M img
mkfs.xfs -q -f -m reflink=1 img
mkdir -p m
mount -o loop img m
mkdir -p m/d/sub m/d/other
head -c 4000000 /dev/urandom > m/d/orig
cp --reflink=always m/d/orig m/d/sub/c1
cp --reflink=always m/d/orig m/d/sub/c2
head -c 1000000 /dev/urandom > m/d/other/own
sync
{hogs} --extents -j m/d > x.json
du -sB1 m/d > du.txt; du -sB1 m/d/orig >> du.txt; du -sB1 m/d/other/own >> du.txt
umount m
"#,
        hogs = hogs_bin().display()
    );
    if !in_private_mounts(&env, &script, "mount an XFS image") {
        return;
    }
    let d = read_json(&env, "x.json");
    let du = parse_du(&fs::read(env.path("du.txt")).expect("du.txt"));
    let (all, orig, own) = (du[0].0, du[1].0, du[2].0);
    assert_eq!(size(&d), all - 2 * orig, "du less two clones' blocks");
    // counted once, at whichever copy directory order meets first; shared on every side
    let (sub, first) = (child(&d, "sub"), child(&d, "orig"));
    assert_eq!(
        size(first) + size(sub),
        orig,
        "one copy between orig and sub/"
    );
    assert_eq!(sharing(sub).1, 0, "sub: nothing exclusive: {sub}");
    assert_eq!(
        sharing(sub).2,
        orig,
        "sub: its two clones share one copy: {sub}"
    );
    assert_eq!(sharing(first).1, 0, "orig: nothing exclusive");
    assert_eq!(sharing(first).2, orig, "orig: all shared");
    let other = child(&d, "other");
    assert_eq!(sharing(other).1, sharing(other).0, "other: all its own");
    assert!(sharing(other).1 >= own);
    assert_eq!(sharing(&d).2, orig, "d shares one copy, once");
    assert_eq!(sharing(&d).1, size(&d) - orig, "the rest is exclusive");
}

/// Where nothing is shared or compressed (ext4, tmpfs…) the mode counts what du counts,
/// holes, preallocated blocks and hard links included, and all of it is exclusive but the
/// hard-linked file's.
#[test]
fn without_sharing_the_mode_counts_what_du_counts() {
    let env = TestEnv::new();
    env.file("t/a/f1", 300_000)
        .file("t/a/f2", 5_000)
        .file("t/b/f3", 70_000)
        .sparse("t/b/holes", 10_000_000)
        .hardlink("t/a/f1", "t/b/link");
    env.bash("fallocate -l 3000000 t/b/pre 2>/dev/null || head -c 3000000 /dev/zero > t/b/pre");
    env.bash("printf 'x' | dd of=t/b/holes bs=1 seek=5000000 conv=notrunc 2>/dev/null");
    let v = env.json(["--extents", "t"]);
    assert_eq!(size(&v), env.du_disk(&["t"]), "total vs du -sB1");
    for (name, bytes) in env.du_children(&["-B1"], "t") {
        if name.is_empty() {
            continue;
        }
        assert_eq!(size(child(&v, &name)), bytes, "{name} vs du");
    }
    let f1 = env.du_disk(&["t/a/f1"]);
    assert_eq!(
        sharing(&v),
        (size(&v), size(&v) - f1, f1),
        "only f1 is shared (linked)"
    );
    // the bars: a header over the two columns, above the rows -n asks for (the same rows as
    // without --extents)
    for args in [&["-n", "4", "t"][..], &["-n", "4", "-F", "t"]] {
        let plain = String::from_utf8(env.stdout_ok(args)).expect("UTF-8");
        let out =
            String::from_utf8(env.stdout_ok([&["--extents"][..], args].concat())).expect("UTF-8");
        let rows: Vec<&str> = out.lines().collect();
        assert_eq!(
            rows.len(),
            plain.lines().count() + 1,
            "{args:?}: the rows without --extents and the header:\n{out}\n{plain}"
        );
        assert_eq!(
            rows.len(),
            6,
            "{args:?}: -n 4 entries, the root's row and the header:\n{out}"
        );
        let header: Vec<&str> = rows[0].split_whitespace().collect();
        assert_eq!(header, ["Disk", "Excl", "Shared"], "{args:?}:\n{out}");
    }
    let plain = env.json(["t"]);
    assert!(
        plain.get("exclusive_bytes").is_none(),
        "no extents fields without the mode: {plain}"
    );
}
