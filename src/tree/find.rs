//! Finding directories by name or by path (`--collapse`), in one depth-first pass that keeps
//! a single path buffer (no path is built per node, no recursion).

use super::{NodeId, Tree};

impl Tree {
    /// Directories whose name is one of `names`, or whose path (as the walk spells it: the
    /// root as typed, then '/'-joined names) is one of `paths`. Sorted by id.
    pub fn dirs_matching(&self, names: &[Vec<u8>], paths: &[Vec<u8>]) -> Vec<NodeId> {
        let mut found = Vec::new();
        if names.is_empty() && paths.is_empty() {
            return found;
        }
        let mut path = Vec::new();
        // (node, length of its parent's path in `path`)
        let mut stack: Vec<(NodeId, usize)> = self.roots().rev().map(|r| (r, 0)).collect();
        while let Some((id, parent_len)) = stack.pop() {
            let node = self.node(id);
            if !node.is_dir() {
                continue;
            }
            let name = self.name(id);
            if !paths.is_empty() {
                path.truncate(parent_len);
                if parent_len > 0 && path.last() != Some(&b'/') {
                    path.push(b'/');
                }
                path.extend_from_slice(name);
            }
            let trimmed = crate::vocab::trim_trailing_slashes(&path);
            if names.iter().any(|n| n.as_slice() == name)
                || paths.iter().any(|p| p.as_slice() == trimmed)
            {
                found.push(id);
            }
            let len = path.len();
            stack.extend(node.children().rev().map(|c| (c, len)));
        }
        found.sort_unstable();
        found
    }
}
