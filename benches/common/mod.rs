//! A synthetic scan result shared by the in-memory benchmarks (`tree`, `render`).
//!
//! The shape imitates what the walker produces for a large home or source tree: one scanned
//! root, directories fanning out 10 ways for four levels (11,111 directories), a few files at
//! every inner level and 40..=158 files in each of the 10,000 deepest directories, about
//! 1,000,000 nodes in all. File sizes follow a long tail (mostly a few KiB, now and then
//! megabytes or a gigabyte) and about 1% of files are hard-link duplicates. Everything comes
//! from a fixed-seed LCG, so every run and every machine sees the same tree.
//!
//! Children are appended one directory at a time in breadth-first order, as the walker's
//! tasks append them, so node ids and parent links look like those of a real scan.

use std::collections::VecDeque;

use hogs::tree::{flags, EntryKind, Node, NodeId, Tree, TreeBuilder};

/// Sub-directories per inner directory.
const FAN_OUT: usize = 10;
/// Levels of directories below the root; the last level holds most of the files.
const DIR_LEVELS: usize = 4;
/// Files beside the sub-directories of an inner directory.
const INNER_FILES: usize = 3;
/// Files in a deepest directory: `LEAF_FILES_MIN + rand % LEAF_FILES_SPREAD`.
const LEAF_FILES_MIN: u64 = 40;
const LEAF_FILES_SPREAD: u64 = 119;

/// Knuth's MMIX LCG; the high bits are the good ones.
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// A number in `0..n` (n > 0); the tiny modulo bias does not matter here.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Apparent size of a file: many small ones, a long tail of big ones.
fn file_size(rng: &mut Lcg) -> u64 {
    match rng.below(1000) {
        0..=99 => 0,
        100..=799 => 1 + rng.below(8 * 1024),
        800..=979 => 8 * 1024 + rng.below(504 * 1024),
        980..=998 => 512 * 1024 + rng.below(200 << 20),
        _ => (1 << 30) + rng.below(3 << 30),
    }
}

/// Allocated bytes for an apparent size, in 4 KiB blocks.
fn disk_size(apparent: u64) -> u64 {
    apparent.div_ceil(4096) * 4096
}

fn file_node(rng: &mut Lcg) -> Node {
    let apparent = file_size(rng);
    let mtime = 1_600_000_000 + rng.below(100_000_000) as i64;
    let mut f = 0;
    if rng.below(100) == 0 {
        // the second name of a hard-linked inode: the walker marks it so, totals skip it
        f = flags::HARDLINK | flags::DUPLICATE;
    }
    Node::new(EntryKind::File, disk_size(apparent), apparent, mtime, f)
}

fn dir_node(rng: &mut Lcg) -> Node {
    Node::new(
        EntryKind::Dir,
        4096,
        4096,
        1_600_000_000 + rng.below(100_000_000) as i64,
        0,
    )
}

/// Builds the tree with own sizes only, as the walker leaves it: call [`Tree::finish`] before
/// using totals.
pub fn build_tree() -> Tree {
    let mut rng = Lcg::new(0x686f_6773); // "hogs"
    let mut b = TreeBuilder::new();
    b.add_roots(vec![(b"/srv/bench".to_vec(), dir_node(&mut rng))]);

    let mut queue: VecDeque<(NodeId, usize)> = VecDeque::new();
    queue.push_back((b.tree().roots().start, 0));
    let mut kids: Vec<(Node, Vec<u8>)> = Vec::new();
    while let Some((dir, level)) = queue.pop_front() {
        kids.clear();
        let subdirs = if level < DIR_LEVELS { FAN_OUT } else { 0 };
        let files = if level < DIR_LEVELS {
            INNER_FILES
        } else {
            (LEAF_FILES_MIN + rng.below(LEAF_FILES_SPREAD)) as usize
        };
        for i in 0..subdirs {
            kids.push((
                dir_node(&mut rng),
                format!("dir-{level}-{i:02}").into_bytes(),
            ));
        }
        for i in 0..files {
            let ext = ["rs", "o", "json", "txt", "png", "tar.gz"][rng.below(6) as usize];
            kids.push((
                file_node(&mut rng),
                format!("file_{i:04}.{ext}").into_bytes(),
            ));
        }
        let first = b.add_children(
            dir,
            kids.iter().map(|(n, name)| (n.clone(), name.as_slice())),
        );
        // sub-directories come first among the children
        for i in 0..subdirs {
            queue.push_back((first + i as NodeId, level + 1));
        }
    }
    b.into_tree()
}

/// The single scanned root of the synthetic tree.
pub fn root(tree: &Tree) -> NodeId {
    tree.roots().start
}

/// The synthetic tree with subtree totals, ready for views.
pub fn finished_tree() -> Tree {
    let mut tree = build_tree();
    tree.finish();
    tree
}
