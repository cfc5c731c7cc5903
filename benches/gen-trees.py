#!/usr/bin/env python3
"""Create deterministic directory trees for the hogs benchmarks.

Usage: gen-trees.py DIR [TREE...]

Trees (all of them when none is named), each created as DIR/TREE:

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

Everything comes from fixed seeds, so names, sizes and link structure are the
same on every run and every machine (disk usage still depends on the file
system's block size). A finished tree gets a marker DIR/.TREE.done (outside
the tree, so it is not counted) written last; a tree whose marker matches the
current generator version is skipped, anything else under DIR/TREE is
removed and rebuilt. Only the Python standard library is used.
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


def new_file(dfd, name, size):
    """Create `name` in directory fd `dfd`, `size` bytes long.

    Up to MAX_REAL bytes are written; beyond that the file is extended with
    ftruncate (a sparse tail), which keeps generation fast and the trees
    small on disk while apparent sizes stay realistic.
    """
    fd = os.open(name, O_CREATE, 0o644, dir_fd=dfd)
    try:
        real = min(size, MAX_REAL)  # MAX_REAL < len(PAYLOAD)
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


def tree_big(root_fd):
    rng = random.Random(315)  # seed picked for ~503k entries
    n = {"dirs": 0, "files": 0, "symlinks": 0, "sparse": 0}
    # Explicit stack (no recursion): (dir fd, depth).
    stack = [(os.dup(root_fd), 0)]
    while stack:
        dfd, depth = stack.pop()
        names = []
        for k in range(rng.randint(2, 23)):
            name = f"{rng.choice(('mod', 'lib', 'test', 'util', 'gen', 'data'))}{k:02d}.{rng.choice(SUFFIXES)}"
            new_file(dfd, name, size_tiny_tail(rng))
            names.append(name)
        n["files"] += len(names)
        if rng.random() < 0.05:
            os.symlink(rng.choice(names), "latest", dir_fd=dfd)
            n["symlinks"] += 1
        if rng.random() < 1 / 1500:
            sparse_image(dfd, "disk.img", rng.randint(64, 1024) << 20)
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
            stack.append((new_dir(dfd, f"pkg{j:02d}"), depth + 1))
            n["dirs"] += 1
        os.close(dfd)
    return " ".join(f"{k}={v}" for k, v in n.items())


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


def build(base, name):
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
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    base = argv[1]
    names = argv[2:] or list(TREES)
    unknown = [n for n in names if n not in TREES]
    if unknown:
        print(f"unknown tree(s): {' '.join(unknown)}; known: {' '.join(TREES)}", file=sys.stderr)
        return 2
    os.makedirs(base, exist_ok=True)
    for name in names:
        build(base, name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
