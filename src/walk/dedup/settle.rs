//! After the walk: which name of each shared inode counts, and the repeats of files summed
//! into their directories taken off them.

use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::PoisonError;

use super::{ClaimLog, FileClaims, InodeBitmap, LinkSet};
use crate::tree::{flags, NodeId, Tree};

impl LinkSet {
    /// Marks every name that does not own its inode as a duplicate (it then adds nothing to
    /// any total). A directory stays with the name that was walked; among the names of a
    /// file the one met first in a depth-first walk in directory order owns it.
    ///
    /// Gives back the claim logs and bitmaps, for the caller to drop or, when the process
    /// exits next, to forget: freeing them unmaps the logs' pages, and every CPU that ran a
    /// pool thread then flushes its TLB.
    #[must_use = "the claims are dropped or forgotten by the caller"]
    pub fn settle(self, tree: &mut Tree) -> SettledClaims {
        for shard in self.dirs.into_vec() {
            let shard = shard.into_inner().unwrap_or_else(PoisonError::into_inner);
            for id in shard.contested {
                tree.set_flag(id, flags::DUPLICATE);
            }
        }
        let mut logs: Vec<ClaimLog> = Vec::new();
        let mut seen: Option<Vec<InodeBitmap>> = Some(Vec::new());
        let mut folded = FoldedInodes::default();
        for m in self.files.into_vec() {
            let mut files = m.into_inner().unwrap_or_else(PoisonError::into_inner);
            if files.folded > 0 {
                // (a walk that sums files into directories logs no claim)
                debug_assert!(files.log.is_empty());
                folded.take(&mut files);
                continue;
            }
            if files.log.is_empty() {
                continue;
            }
            match (&mut seen, files.seen) {
                (Some(all), Some(one)) => all.push(one),
                _ => seen = None,
            }
            logs.push(files.log);
        }
        let shared = match seen {
            Some(bitmaps) => {
                let (bitmap, shared) = InodeBitmap::merged(bitmaps);
                Shared::Bitmap(bitmap, shared)
            }
            None => Shared::numbered(shared_by_sorting(&logs)),
        };
        if !shared.is_empty() {
            let lone = if self.unverified {
                let repeated = logs.iter().flat_map(ClaimLog::iter);
                super::verify::lone_inodes(
                    repeated.filter(|c| shared.index(c.dev, c.ino).is_some()),
                    tree,
                )
            } else {
                FxHashSet::default()
            };
            mark_duplicate_files(&logs, &shared, &lone, tree);
        }
        let devices = self
            .devs
            .into_inner()
            .map_or_else(|e| e.into_inner().len(), |d| d.len());
        let folded = folded.settle(tree, devices);
        SettledClaims {
            _logs: logs,
            _shared: shared,
            _folded: folded,
        }
    }
}

/// What [`LinkSet::settle`] leaves: the claim logs and the inodes met more than once, held
/// only to be dropped or forgotten.
pub struct SettledClaims {
    _logs: Vec<ClaimLog>,
    _shared: Shared,
    _folded: FoldedInodes,
}

/// Every thread's files summed into their directories ([`LinkSet::count_folded`]).
#[derive(Default)]
struct FoldedInodes {
    claims: usize,
    dirs: Vec<(NodeId, u32)>,
    bitmaps: Vec<InodeBitmap>,
    sets: Vec<FxHashSet<(u32, u64)>>,
    /// Each thread's claims when they were unverified (see `FileClaims::folded_log`).
    logs: Vec<ClaimLog>,
}

impl FoldedInodes {
    fn take(&mut self, files: &mut FileClaims) {
        self.claims += files.folded;
        self.dirs.append(&mut files.folded_dirs);
        self.bitmaps.extend(files.seen.take());
        self.sets.extend(files.folded_set.take());
        if !files.folded_log.is_empty() {
            self.logs.push(std::mem::take(&mut files.folded_log));
        }
    }

    /// Takes the names past the first of each inode off the directories they were summed
    /// into. Under one path it does not matter which directories: each keeps at least
    /// itself, and only the path's total is shown.
    fn settle(mut self, tree: &mut Tree, devices: usize) -> FoldedInodes {
        if self.claims == 0 {
            return self;
        }
        // unverified claims: the numbers met more than once, from copies of the bitmaps
        // (merging keeps only what is shared) or, where numbers were sparse, by sorting
        let repeated = (!self.logs.is_empty() && self.sets.is_empty())
            .then(|| InodeBitmap::merged(self.bitmaps.clone()).0);
        let inodes = if self.sets.is_empty() {
            InodeBitmap::union_len(std::mem::take(&mut self.bitmaps))
        } else {
            let mut all = std::mem::take(&mut self.sets).into_iter();
            let mut set = all.next().unwrap_or_default();
            for s in all {
                set.extend(s);
            }
            for b in &self.bitmaps {
                b.for_each(|d, i| {
                    set.insert((d, i));
                });
            }
            set.len()
        };
        let mut repeats = self.claims.saturating_sub(inodes);
        if repeats > 0 && !self.logs.is_empty() {
            let hidden = match &repeated {
                Some(bitmap) => {
                    let shared = |dev, ino| bitmap.shared_index(dev, ino).is_some();
                    super::verify::hidden_inodes(&self.logs, shared, devices, tree)
                }
                None => {
                    let set = shared_by_sorting(&self.logs);
                    let shared = |dev, ino| set.contains(&(dev, ino));
                    super::verify::hidden_inodes(&self.logs, shared, devices, tree)
                }
            };
            repeats = repeats.saturating_sub(hidden);
        }
        for &(dir, n) in &self.dirs {
            if repeats == 0 {
                break;
            }
            let off = repeats.min(n as usize);
            tree.uncount_entries(dir, off as u32);
            repeats -= off;
        }
        self
    }
}

/// Marks each name of a shared inode but its owner (the first in depth-first order) a
/// duplicate; the `lone` names are inodes of their own whatever their number.
fn mark_duplicate_files(
    logs: &[ClaimLog],
    shared: &Shared,
    lone: &FxHashSet<NodeId>,
    tree: &mut Tree,
) {
    // the owner so far of each shared inode (by its index among them: no hash lookup a
    // claim); every name it beats, or that beats it, is marked as it is met (the order of
    // the logs does not matter, the depth-first order decides)
    const NO_OWNER: NodeId = NodeId::MAX;
    let mut owners = vec![NO_OWNER; shared.len()];
    let mut order = DirOrder::default();
    for c in logs.iter().flat_map(ClaimLog::iter) {
        let Some(i) = shared.index(c.dev, c.ino).filter(|_| !lone.contains(&c.id)) else {
            continue;
        };
        let owner = owners[i];
        if owner == NO_OWNER {
            owners[i] = c.id;
        } else if order.first(tree, c.id, owner) {
            tree.set_flag(owner, flags::DUPLICATE);
            owners[i] = c.id;
        } else {
            tree.set_flag(c.id, flags::DUPLICATE);
        }
    }
}

/// [`Tree::dfs_order`] of two files, remembered for their directories: the names of one
/// inode are compared with its owner so far, mostly across the same few directories, and
/// each comparison climbed both paths to the root (most of the settling of a tree of many
/// hard links across a few directories).
#[derive(Default)]
struct DirOrder {
    /// (directory of a, directory of b) → the order of anything in the one against anything
    /// in the other; `None` when one directory holds the other (then it depends on the
    /// files: those before the subdirectory come before what it holds).
    dirs: FxHashMap<(NodeId, NodeId), Option<std::cmp::Ordering>>,
    /// The pair last looked up, and its answer: the log holds a directory's files together,
    /// and their inodes' other names are mostly in one other directory.
    last: Option<((NodeId, NodeId), Option<std::cmp::Ordering>)>,
}

impl DirOrder {
    /// Whether `a` comes before `b` in a depth-first walk in directory order.
    fn first(&mut self, tree: &Tree, a: NodeId, b: NodeId) -> bool {
        let (pa, pb) = (tree.parent(a), tree.parent(b));
        if pa == pb {
            return a < b; // siblings are stored in directory order
        }
        let known = match self.last {
            Some((pair, known)) if pair == (pa, pb) => known,
            _ => {
                let known = *self.dirs.entry((pa, pb)).or_insert_with(|| {
                    (!tree.is_within(pb, pa) && !tree.is_within(pa, pb))
                        .then(|| tree.dfs_order(pa, pb))
                });
                self.last = Some(((pa, pb), known));
                known
            }
        };
        known.unwrap_or_else(|| tree.dfs_order(a, b)).is_lt()
    }
}

/// The (device index, inode) pairs claimed more than once: a bitmap of them, or (where the
/// inode numbers were too sparse for one) a set.
enum Shared {
    Bitmap(InodeBitmap, usize),
    /// Each pair with its index among them.
    Set(FxHashMap<(u32, u64), usize>),
}

impl Shared {
    fn numbered(set: FxHashSet<(u32, u64)>) -> Shared {
        Shared::Set(set.into_iter().enumerate().map(|(i, k)| (k, i)).collect())
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn len(&self) -> usize {
        match self {
            Shared::Bitmap(_, n) => *n,
            Shared::Set(s) => s.len(),
        }
    }

    /// The index of a shared inode among them (0 to `len`), or `None` for one not shared.
    fn index(&self, dev: u32, ino: u64) -> Option<usize> {
        match self {
            Shared::Bitmap(b, _) => b.shared_index(dev, ino),
            Shared::Set(s) => s.get(&(dev, ino)).copied(),
        }
    }
}

/// The (device index, inode) pairs claimed more than once, found as a walk finds them: a
/// bitmap per log (per thread) filled claim by claim as [`LinkSet::claim_files`] fills it
/// (no larger than the log, plus a little), the bitmaps merged; inode numbers too sparse for
/// that (a filesystem that scatters them) are sorted.
#[cfg(test)]
fn shared_inodes(logs: &[ClaimLog]) -> Shared {
    let mut bitmaps = Vec::new();
    for log in logs {
        let mut seen = InodeBitmap::new();
        for (n, c) in log.iter().enumerate() {
            if !seen.insert(c.dev, c.ino, n + 1) {
                return Shared::numbered(shared_by_sorting(logs));
            }
        }
        bitmaps.push(seen);
    }
    let (bitmap, shared) = InodeBitmap::merged(bitmaps);
    Shared::Bitmap(bitmap, shared)
}

fn shared_by_sorting(logs: &[ClaimLog]) -> FxHashSet<(u32, u64)> {
    let mut keys: Vec<(u32, u64)> = logs
        .iter()
        .flat_map(ClaimLog::iter)
        .map(|c| (c.dev, c.ino))
        .collect();
    keys.sort_unstable();
    keys.chunk_by(|a, b| a == b)
        .filter(|g| g.len() > 1)
        .map(|g| g[0])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::LinkKey;
    use crate::walk::dedup::NameClaim;

    /// A log of these claims, the i-th by node i, a run per device.
    fn log(keys: &[(u32, u64)]) -> ClaimLog {
        let mut log = ClaimLog::default();
        let mut first = 0;
        for run in keys.chunk_by(|a, b| a.0 == b.0) {
            let ids = run
                .iter()
                .enumerate()
                .map(|(i, k)| (k.1, (first + i) as NodeId));
            log.push_named(run[0].0, ids);
            first += run.len();
        }
        log
    }

    fn sorted(set: FxHashSet<(u32, u64)>) -> Vec<(u32, u64)> {
        let mut v: Vec<_> = set.into_iter().collect();
        v.sort_unstable();
        v
    }

    /// The shared keys [`shared_inodes`] found, whichever way it found them.
    fn shared_of(logs: &[ClaimLog]) -> Vec<(u32, u64)> {
        let shared = shared_inodes(logs);
        let mut v: Vec<_> = logs
            .iter()
            .flat_map(ClaimLog::iter)
            .map(|c| (c.dev, c.ino))
            .filter(|&(dev, ino)| shared.index(dev, ino).is_some())
            .collect();
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), shared.len(), "shared inodes counted as found");
        // each has an index of its own, from 0 to their number
        let mut indices: Vec<usize> = v.iter().filter_map(|&(d, i)| shared.index(d, i)).collect();
        indices.sort_unstable();
        assert_eq!(
            indices,
            (0..v.len()).collect::<Vec<_>>(),
            "indices of the shared"
        );
        v
    }

    /// The remembered order of directories gives what `dfs_order` gives for every pair of
    /// nodes: files before, beside and below subdirectories, directories appended in a
    /// scrambled order (as threads finish them), one cache for all the comparisons.
    #[test]
    fn remembered_directory_order_is_depth_first_order() {
        use crate::tree::{EntryKind, Node, TreeBuilder};
        let mut next = crate::tree::xorshift(0x2545_F491_4F6C_DD1D);
        let mut b = TreeBuilder::new();
        let dir = || Node::new(EntryKind::Dir, 0, 0, 0, 0);
        b.add_roots(vec![(b"r".to_vec(), dir()), (b"s".to_vec(), dir())]);
        let mut open: Vec<NodeId> = vec![1, 2];
        let mut nodes: Vec<NodeId> = vec![1, 2];
        while !open.is_empty() && nodes.len() < 400 {
            let d = open.swap_remove(next(open.len() as u64) as usize);
            let kids: Vec<(Node, &[u8])> = (0..next(7))
                .map(|_| {
                    let kind = if next(3) == 0 {
                        EntryKind::Dir
                    } else {
                        EntryKind::File
                    };
                    (Node::new(kind, 0, 0, 0, 0), &b"n"[..])
                })
                .collect();
            let kinds: Vec<bool> = kids.iter().map(|(n, _)| n.is_dir()).collect();
            let first = b.add_children(d, kids.into_iter());
            for (i, is_dir) in kinds.into_iter().enumerate() {
                let id = first + i as NodeId;
                nodes.push(id);
                if is_dir {
                    open.push(id);
                }
            }
        }
        let t = b.into_tree();
        let mut order = DirOrder::default();
        for &x in &nodes {
            for &y in &nodes {
                if x != y {
                    assert_eq!(
                        order.first(&t, x, y),
                        t.dfs_order(x, y).is_lt(),
                        "{x} vs {y}"
                    );
                }
            }
        }
        assert!(order.dirs.len() > 10, "directory pairs were remembered");
    }

    /// Files summed into their directories (-f, totals only) are counted once per inode
    /// whichever way each thread held their inodes: two threads with dense numbers (bitmaps
    /// merged), with sparse ones (the sets a bitmap gives way to), and one of each.
    #[test]
    fn folded_claims_count_each_inode_once_from_bitmaps_and_sets() {
        use crate::tree::{EntryKind, Node, TreeBuilder};
        let dense = |r: std::ops::RangeInclusive<u64>| r.map(|i| (5, i)).collect::<Vec<_>>();
        let sparse = |r: std::ops::RangeInclusive<u64>| r.map(|i| (5, i << 40)).collect();
        let mut mixed = dense(1..=1000);
        mixed.extend(sparse(1..=50)); // 50 pages: within a bitmap's budget
        let cases: [(Vec<LinkKey>, Vec<LinkKey>, u32); 3] = [
            (dense(1..=3000), dense(2001..=3500), 3500),
            (sparse(1..=3000), sparse(2001..=3500), 3500),
            (sparse(1..=3000), mixed, 4000),
        ];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool of two threads");
        for (a, mut b, inodes) in cases {
            b.extend([b[0], b[0]]); // an inode named three times by one thread
            let links = LinkSet::new(false);
            let mut tree = TreeBuilder::new();
            let dir = || Node::new(EntryKind::Dir, 0, 0, 0, 0);
            let root = tree.add_roots(vec![(b"r".to_vec(), dir())]);
            let kids = vec![(dir(), &b"a"[..]), (dir(), &b"b"[..])];
            let first = tree.add_children(root, kids.into_iter());
            let claims = [&a, &b].map(|keys| {
                keys.iter()
                    .map(|&key| NameClaim { key, node: 0 })
                    .collect::<Vec<_>>()
            });
            for (i, c) in claims.iter().enumerate() {
                tree.update(first + i as NodeId, |n| n.entries = 1 + c.len() as u32);
            }
            pool.broadcast(|ctx| {
                let i = ctx.index();
                links.count_folded(first + i as NodeId, &claims[i]);
            });
            let mut tree = tree.into_tree();
            let _ = links.settle(&mut tree);
            let counted = tree.node(first).entries + tree.node(first + 1).entries;
            assert_eq!(counted, 2 + inodes, "the two directories and their inodes");
        }
    }

    #[test]
    fn bitmap_and_sorting_find_the_same_shared_inodes() {
        // dense numbers on two devices, a repeat on each, the same number on both
        let mut keys: Vec<(u32, u64)> = (0..5000).map(|i| (i % 2, 1000 + i as u64)).collect();
        keys.extend([(0, 1000), (1, 1001), (1, 4999), (0, 7)]);
        let expect = vec![(0, 1000), (1, 1001), (1, 4999)];
        // split in two logs, as two threads would leave them
        let (a, b) = keys.split_at(keys.len() / 2);
        let two = [log(a), log(b)];
        assert!(matches!(shared_inodes(&two), Shared::Bitmap(..)));
        assert_eq!(shared_of(&two), expect);
        assert_eq!(sorted(shared_by_sorting(&two)), expect);
    }

    #[test]
    fn three_threads_bitmaps_find_what_sorting_finds_in_any_order() {
        // shared across the first and second, within the second, across the first and
        // third, within the third on a page no other met, and a page met by one alone
        // (the first has the most pages: the others are added to it, the third's own page
        // with its repeat coming last or not)
        let mut a: Vec<(u32, u64)> = (1000..2000).map(|i| (0, i)).collect();
        a.extend([(0, 100_000), (0, 200_000)]);
        let mut b: Vec<(u32, u64)> = (1500..2500).map(|i| (0, i)).collect();
        b.push((0, 2400));
        let mut c: Vec<(u32, u64)> = (5_000_000..5_000_300).map(|i| (1, i)).collect();
        c.extend([(1, 5_000_007), (0, 1000), (0, 9_000_000)]);
        let mut expect: Vec<(u32, u64)> = (1500..2000).map(|i| (0, i)).collect();
        expect.extend([(0, 1000), (0, 2400), (1, 5_000_007)]);
        expect.sort_unstable();
        for order in [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ] {
            let logs: Vec<ClaimLog> = order.iter().map(|&i| log([&a, &b, &c][i])).collect();
            assert!(matches!(shared_inodes(&logs), Shared::Bitmap(..)));
            assert_eq!(shared_of(&logs), expect, "order {order:?}");
        }
    }

    #[test]
    fn sparse_inode_numbers_fall_back_to_sorting() {
        // every number on a page of its own: far past the budget, still right
        let mut keys: Vec<(u32, u64)> = (0..3000u64).map(|i| (0, i << 40)).collect();
        keys.push((0, 17 << 40));
        let l = log(&keys);
        let mut seen = InodeBitmap::new();
        assert!(l.iter().any(|c| !seen.insert(c.dev, c.ino, l.len())));
        assert!(matches!(
            shared_inodes(std::slice::from_ref(&l)),
            Shared::Set(_)
        ));
        assert_eq!(shared_of(&[l]), vec![(0, 17 << 40)]);
    }
}
