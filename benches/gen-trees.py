#!/usr/bin/env python3
"""Create deterministic directory trees for the hogs benchmarks.

Usage: gen-trees.py [-j JOBS] DIR [TREE...]
       gen-trees.py --count TREE...     (big and the curve trees: entries, nothing made)

Trees (all but the curve trees when none is named), each created as DIR/TREE:

  balanced     1010 directories (10 x 10 x 9 levels), 20 files in each:
               ~21k entries of typical small-file sizes
  wide_flat    a single directory holding 100,000 small files (0..64 bytes)
  deep_narrow  a chain of 1500 nested directories, one small file per level
  big          ~503k entries: a wide, irregular tree of source/build-like
               directories, mostly tiny files with a long tail (big files are
               sparse), a few symlinks and some huge sparse images
  links        2000 files hard-linked 4..6 times across directories, plus
               symlinks to files and directories, symlink loops, a link to
               '..' and a dangling one

The curve trees, for entries against memory and time (benches/memory-curve.sh),
built only when named:

  big1m        ~1.0M entries \  directories part0, part1, ... each a tree of
  big2m        ~2.0M entries  > big's shape from a seed of its own (part0 has
  big5m        ~5.0M entries /   big's seed: big's names and sizes); each tree's
               parts are the first parts of the next, so they only add entries.
               Unlike big, a file of at most 8 KiB (96% of them) is a hole: its
               apparent size is big's, but it has no block on disk: big5m takes
               4.2 GB of disk (big's files would make it 20 GB) and 5M inodes;
               8.4 minutes to build with -j 2 (big1m 1.5, big2m 2.2), which
               builds two parts at a time, a process each.

Everything comes from fixed seeds, so names, sizes and link structure are the
same on every run and every machine (disk usage still depends on the file
system's block size). A finished tree gets a marker DIR/.TREE.done (outside
the tree, so it is not counted) written last, with the entries below DIR/TREE
(`du --inodes -s` counts one more: the tree's own directory); a tree whose
marker matches the current generator version is skipped, anything else under
DIR/TREE is removed and rebuilt. Only the Python standard library is used.
"""
import os
import random
import subprocess
import sys
import time

GEN_VERSION = "hogs-trees-2"  # change when a generator changes: old trees are rebuilt

O_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
O_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
# Fixed pseudo-random payload; files are slices of it (no per-file generation).
PAYLOAD = memoryview(random.Random(12345).randbytes(64 * 1024))
MAX_REAL = 16 * 1024  # bytes actually written; larger files get a sparse tail


def new_file(dfd, name, size, hole_max=-1):
    """Create `name` in directory fd `dfd`, `size` bytes long.

    Up to MAX_REAL bytes are written; beyond that the file is extended with
    ftruncate (a sparse tail), which keeps generation fast and the trees
    small on disk while apparent sizes stay realistic. A file of at most
    `hole_max` bytes gets no data at all: one hole, no block on disk.
    """
    fd = os.open(name, O_CREATE, 0o644, dir_fd=dfd)
    try:
        real = 0 if size <= hole_max else min(size, MAX_REAL)  # MAX_REAL < len(PAYLOAD)
        off = 0
        while off < real:
            off += os.write(fd, PAYLOAD[off:real])
        if size > real:
            os.ftruncate(fd, size)
    finally:
        os.close(fd)


def new_dir(dfd, name):
    """Create directory `name` under directory fd `dfd`; return an fd for it."""
    os.mkdir(name, 0o755, dir_fd=dfd)
    return os.open(name, O_DIR, dir_fd=dfd)


def sparse_image(dfd, name, size):
    """A huge file with one 4 KiB block of data at each end."""
    fd = os.open(name, O_CREATE, 0o644, dir_fd=dfd)
    try:
        os.write(fd, PAYLOAD[:4096])
        os.pwrite(fd, PAYLOAD[4096:8192], size - 4096)
    finally:
        os.close(fd)


def size_small(rng):
    """Size mix of a home/source directory: many 1..4K files, few large ones."""
    x = rng.random()
    if x < 0.12:
        return 0
    if x < 0.68:
        return rng.randint(1, 4096)
    if x < 0.94:
        return rng.randint(4097, 16384)
    return rng.randint(16385, 200_000)


def size_tiny_tail(rng):
    """Mostly tiny files with a long, thin tail (for `big`)."""
    x = rng.random()
    if x < 0.22:
        return 0
    if x < 0.77:
        return rng.randint(1, 1024)
    if x < 0.96:
        return rng.randint(1025, 8192)
    if x < 0.997:
        return rng.randint(8193, 100_000)
    return rng.randint(100_001, 2_000_000)


SUFFIXES = ("rs", "c", "h", "py", "js", "txt", "md", "json", "o", "toml", "png", "so")


# ------------------------------------------------------------------ trees
def tree_balanced(root_fd):
    rng = random.Random(101)

    def files(dfd, tag):
        for k in range(20):
            new_file(dfd, f"{tag}{k:02d}.{SUFFIXES[(k * 7) % len(SUFFIXES)]}", size_small(rng))

    for a in range(10):
        fa = new_dir(root_fd, f"top{a}")
        files(fa, "a")
        for b in range(10):
            fb = new_dir(fa, f"mid{b}")
            files(fb, "b")
            for c in range(9):
                fc = new_dir(fb, f"leaf{c}")
                files(fc, "c")
                os.close(fc)
            os.close(fb)
        os.close(fa)
    return "1010 dirs x 20 files"


def tree_wide_flat(root_fd):
    rng = random.Random(202)
    for k in range(100_000):
        new_file(root_fd, f"entry_{k:06d}.dat", rng.randint(0, 64))
    return "100000 files in one directory"


def tree_deep_narrow(root_fd):
    # One-letter names keep the deepest path (~3 KB) below PATH_MAX.
    fd = os.dup(root_fd)
    for level in range(1500):
        new_file(fd, "f", 50 + (level * 37) % 1000)
        child = new_dir(fd, "d")
        os.close(fd)
        fd = child
    new_file(fd, "f", 4096)
    os.close(fd)
    return "1500 nested directories"


class Disk:
    """Makes what a generator asks for; files of at most `hole_max` bytes are holes."""

    def __init__(self, hole_max=-1):
        self.hole_max = hole_max

    def file(self, dfd, name, size):
        new_file(dfd, name, size, self.hole_max)

    def symlink(self, target, name, dfd):
        os.symlink(target, name, dir_fd=dfd)

    dir = staticmethod(new_dir)
    image = staticmethod(sparse_image)
    dup = staticmethod(os.dup)
    close = staticmethod(os.close)


class DryRun:
    """Makes nothing (--count). A generator's random draws never depend on the file
    system, so it counts what the real run makes."""

    def file(self, *_):
        pass

    symlink = dir = image = dup = close = file


COUNTED = ("dirs", "files", "symlinks", "sparse")  # the kinds grow_big counts: all it makes


def grow_big(root_fd, rng, make):
    """The shape of `big`, drawn from `rng`, under directory fd `root_fd`."""
    n = {"dirs": 0, "files": 0, "symlinks": 0, "sparse": 0}
    # Explicit stack (no recursion): (dir fd, depth).
    stack = [(make.dup(root_fd), 0)]
    while stack:
        dfd, depth = stack.pop()
        names = []
        for k in range(rng.randint(2, 23)):
            name = f"{rng.choice(('mod', 'lib', 'test', 'util', 'gen', 'data'))}{k:02d}.{rng.choice(SUFFIXES)}"
            make.file(dfd, name, size_tiny_tail(rng))
            names.append(name)
        n["files"] += len(names)
        if rng.random() < 0.05:
            make.symlink(rng.choice(names), "latest", dfd)
            n["symlinks"] += 1
        if rng.random() < 1 / 1500:
            make.image(dfd, "disk.img", rng.randint(64, 1024) << 20)
            n["sparse"] += 1
        if depth < 3:
            fan = rng.randint(10, 20)
        elif depth == 3:
            fan = rng.randint(0, 11)
        elif depth < 7 and rng.random() < 0.1:
            fan = rng.randint(1, 3)
        else:
            fan = 0
        for j in range(fan):
            stack.append((make.dir(dfd, f"pkg{j:02d}"), depth + 1))
            n["dirs"] += 1
        make.close(dfd)
    return n


def tree_big(root_fd, make=Disk()):
    n = grow_big(root_fd, random.Random(315), make)  # seed picked for ~503k entries
    return " ".join(f"{k}={v}" for k, v in n.items())


# The curve trees: parts of big's shape, one seed each. Part 0 has big's seed (big's names
# and sizes, one level down); the others were picked with --count among seeds 300..350
# (230k..497k entries each: big's seed gives more than most) for totals of 1.0M, 2.0M and
# 5.0M entries. A tree's parts are the first ones of the next: big2m is big1m and three
# parts more.
PART_SEEDS = (315, 314, 322, 327, 334, 302, 303, 307, 316, 320, 337, 350)
CURVE_PARTS = {"big1m": 2, "big2m": 5, "big5m": 12}
# In the curve trees a file of at most this many bytes is a hole: its apparent size is
# kept, with no block on disk (96% of the files), which keeps big5m to 4.2 GB instead of 20.
CURVE_HOLE_MAX = 8192


def grow_part(root, k, dry):
    """Part k of a curve tree, as directory part<k> of directory `root` (a path)."""
    make = DryRun() if dry else Disk(CURVE_HOLE_MAX)
    fd = None
    if not dry:
        root_fd = os.open(root, O_DIR)
        try:
            fd = new_dir(root_fd, f"part{k}")
        finally:
            os.close(root_fd)
    try:
        n = grow_big(fd, random.Random(PART_SEEDS[k]), make)
    finally:
        make.close(fd)
    n["dirs"] += 1  # part<k> itself
    return n


def curve_tree(name, root, dry=False, jobs=1):
    """Builds curve tree `name` in the existing, empty directory `root`, `jobs` parts at a
    time (a process each); returns its counts by kind and per part."""
    args = [(root, k, dry) for k in range(CURVE_PARTS[name])]
    if jobs > 1 and not dry:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(min(jobs, len(args))) as pool:
            counts = list(pool.map(grow_part, *zip(*args)))
    else:
        counts = [grow_part(*a) for a in args]
    n = {key: sum(c[key] for c in counts) for key in counts[0]}
    parts = ",".join(str(sum(c.values())) for c in counts)
    return " ".join(f"{k}={v}" for k, v in n.items()) + f" parts={parts}"


def tree_links(root_fd):
    rng = random.Random(404)
    count = 2000
    orig = new_dir(root_fd, "orig")
    for k in range(count):
        new_file(orig, f"o{k:04d}", rng.randint(1, 20_000))
    group_fds = [new_dir(root_fd, f"group{g}") for g in range(5)]
    for k in range(count):
        # 3..5 more names in distinct groups: nlink 4..6
        for g in rng.sample(range(5), rng.randint(3, 5)):
            os.link(f"o{k:04d}", f"hl{k:04d}", src_dir_fd=orig, dst_dir_fd=group_fds[g])
        if k % 10 == 0:  # and a second name in the same directory
            os.link(f"o{k:04d}", f"twin{k:04d}", src_dir_fd=orig, dst_dir_fd=orig)
    for fd in group_fds:
        os.close(fd)
    sym = new_dir(root_fd, "symlinks")
    for k in range(0, count, 4):
        os.symlink(f"../orig/o{k:04d}", f"to_o{k:04d}", dir_fd=sym)
    for g in range(5):
        os.symlink(f"../group{g}", f"to_group{g}", dir_fd=sym)  # directory link
    os.symlink("ping", "pong", dir_fd=sym)  # two-link cycle
    os.symlink("pong", "ping", dir_fd=sym)
    os.symlink("me", "me", dir_fd=sym)  # points to itself
    os.symlink("..", "parent", dir_fd=sym)  # directory cycle when followed
    os.symlink(".", "dot", dir_fd=sym)
    os.symlink("nowhere/at/all", "dangling", dir_fd=sym)
    os.close(sym)
    os.close(orig)
    return "2000 files x 4..6 names, 520 symlinks"


TREES = {
    "balanced": tree_balanced,
    "wide_flat": tree_wide_flat,
    "deep_narrow": tree_deep_narrow,
    "big": tree_big,
    "links": tree_links,
}
CURVE = ("big1m", "big2m", "big5m")  # built by curve_tree, and only when named


def count_entries(path):
    """Names below `path` (not `path` itself); symlinks are not followed."""
    total, todo = 0, [path]
    while todo:
        with os.scandir(todo.pop()) as it:
            for entry in it:
                total += 1
                if entry.is_dir(follow_symlinks=False):
                    todo.append(entry.path)
    return total


def build(base, name, jobs=1):
    path = os.path.join(base, name)
    marker = os.path.join(base, f".{name}.done")
    try:
        with open(marker) as f:
            info = f.read().strip()
        if info.split(" ", 1)[0] == GEN_VERSION and os.path.isdir(path):
            print(f"{name}: exists, skipped ({info})")
            return
    except FileNotFoundError:
        pass
    if os.path.lexists(marker):
        os.unlink(marker)
    if os.path.lexists(path):
        # rm copes with 1500-deep trees; shutil.rmtree may hit the recursion limit
        subprocess.run(["rm", "-rf", "--", path], check=True)
    start = time.monotonic()
    os.mkdir(path, 0o755)
    if name in CURVE:
        detail = curve_tree(name, path, jobs=jobs)
    else:
        root_fd = os.open(path, O_DIR)
        try:
            detail = TREES[name](root_fd)
        finally:
            os.close(root_fd)
    entries = count_entries(path)
    info = f"{GEN_VERSION} entries={entries} {detail}"
    with open(marker + ".tmp", "w") as f:
        f.write(info + "\n")
    os.replace(marker + ".tmp", marker)  # the marker appears only when all is done
    print(f"{name}: created in {time.monotonic() - start:.1f}s ({info})")


def main(argv):
    args = argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    if args[0] == "--count":
        for name in args[1:]:
            if name == "big":
                detail = tree_big(None, DryRun())
            elif name in CURVE:
                detail = curve_tree(name, None, dry=True)
            else:
                print(f"--count: only big and {', '.join(CURVE)}, not {name}", file=sys.stderr)
                return 2
            n = sum(int(kv.split("=")[1]) for kv in detail.split() if kv.split("=")[0] in COUNTED)
            print(f"{name}: entries={n} {detail}")
        return 0
    jobs = 1
    if args[0] == "-j" and len(args) > 1 and args[1].isdigit() and int(args[1]) > 0:
        jobs, args = int(args[1]), args[2:]
    if not args:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    base = args[0]
    names = args[1:] or list(TREES)
    unknown = [n for n in names if n not in TREES and n not in CURVE]
    if unknown:
        known = " ".join([*TREES, *CURVE])
        print(f"unknown tree(s): {' '.join(unknown)}; known: {known}", file=sys.stderr)
        return 2
    os.makedirs(base, exist_ok=True)
    for name in names:
        build(base, name, jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
