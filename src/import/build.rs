//! From the order an export lists entries in (depth-first) to the order the tree stores them.
//!
//! The tree keeps a directory's children contiguous and every child after its parent, which a
//! walk gets for free (it appends a directory's entries in one go). An export interleaves a
//! directory's children with their own contents, so the parser first collects the entries in
//! file order with their parent's index, then this lays them out breadth-first: every
//! directory's children end up side by side, after it.

use rustc_hash::FxHashMap;

use crate::tree::{Node, NodeId, StatExtra, Tree, TreeBuilder};
use crate::walk::{ErrorAt, ErrorKind, Scan, ScanError};

/// One entry as read, before it has its place in the tree.
pub(super) struct Pending {
    /// Index (in file order) of the directory it is in; the root's is its own, 0.
    pub parent: u32,
    pub node: Node,
    pub name_off: usize,
    pub name_len: u8,
    pub dev: u64,
    pub ino: u64,
}

/// Entries in file order (depth-first, parents first), with what goes beside the tree.
#[derive(Default)]
pub(super) struct FileOrder {
    pub entries: Vec<Pending>,
    pub names: Vec<u8>,
    pub root_name: Vec<u8>,
    /// Link counts of hard-linked files, by file-order index.
    pub links: FxHashMap<u32, u32>,
    /// Owner and mode by file-order index; empty when the file has none.
    pub extra: Vec<StatExtra>,
    /// Entries recorded as unreadable that are not directories: (parent index, name). A walk
    /// keeps no node for them either, only the error.
    pub failed: Vec<(u32, Vec<u8>)>,
    /// Directories recorded as unreadable (they keep their node, as in a walk).
    pub unreadable: Vec<u32>,
}

impl FileOrder {
    pub fn name(&self, e: &Pending) -> &[u8] {
        &self.names[e.name_off..e.name_off + e.name_len as usize]
    }

    /// Lays the entries out breadth-first. Everything here is a loop over vectors: no
    /// recursion, whatever the depth.
    pub fn into_scan(self) -> Scan {
        let n = self.entries.len();
        // children of each entry, grouped and in file order: order[start[p]..start[p + 1]]
        let mut start = vec![0u32; n + 1];
        for e in self.entries.iter().skip(1) {
            start[e.parent as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut order = vec![0u32; n.saturating_sub(1)];
        for (i, e) in self.entries.iter().enumerate().skip(1) {
            let slot = &mut next[e.parent as usize];
            order[*slot as usize] = i as u32;
            *slot += 1;
        }
        drop(next);

        let mut b = TreeBuilder::with_identity(true).with_extra(!self.extra.is_empty());
        let mut final_id: Vec<NodeId> = vec![0; n];
        let mut by_id: Vec<u32> = Vec::with_capacity(n); // file-order index of node id - 1
        if let Some(root) = self.entries.first() {
            final_id[0] = b.add_roots(vec![(self.root_name.clone(), root.node.clone())]);
            by_id.push(0);
        }
        let mut done = 0;
        while done < by_id.len() {
            let p = by_id[done] as usize;
            done += 1;
            let kids = &order[start[p] as usize..start[p + 1] as usize];
            if kids.is_empty() {
                continue;
            }
            let first = b.add_children(
                final_id[p],
                kids.iter().map(|&k| {
                    let e = &self.entries[k as usize];
                    (e.node.clone(), self.name(e))
                }),
            );
            for (j, &k) in kids.iter().enumerate() {
                final_id[k as usize] = first + j as NodeId;
                by_id.push(k);
            }
        }
        drop((order, start, by_id));

        for (i, e) in self.entries.iter().enumerate() {
            let id = final_id[i];
            b.set_identity(id, (e.dev, e.ino));
            if let Some(o) = self.extra.get(i) {
                b.set_extra(id, *o);
            }
        }
        for (&i, &nlink) in &self.links {
            b.set_links(final_id[i as usize], u64::from(nlink));
        }
        let tree: Tree = b.into_tree();

        let errors: Vec<ScanError> = self
            .unreadable
            .iter()
            .map(|&i| ScanError {
                at: ErrorAt::Node(final_id[i as usize]),
                kind: ErrorKind::ReadDir,
                errno: 0,
            })
            .chain(self.failed.into_iter().map(|(p, name)| ScanError {
                at: ErrorAt::Entry(final_id[p as usize], name.into_boxed_slice()),
                kind: ErrorKind::Access,
                errno: 0,
            }))
            .collect();
        // as a walk reports them: by path
        Scan::with_errors_by_path(tree, errors)
    }
}
