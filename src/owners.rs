//! `--by-owner`: who is using the space. Per owner (uid), what a subtree counts: each entry's
//! own size goes to its owner, hard links once and entries left out by `-e`/`-v` not at all,
//! so the owners add up to the total the other views show.
//!
//! Owners come from the tree ([`TreeView::owner`]; the in-memory tree's `Tree::extra`): a
//! walk records them when asked (`WalkOptions::keep_extra`), an export written with
//! `--export-extended` carries them.
//!
//! User names come from `/etc/passwd`, read directly: hogs is linked statically with glibc,
//! whose `getpwuid` loads NSS modules at run time (a static binary cannot, and the linker
//! warns), and crates such as `uzers` call that same function. Users known only to another
//! database (LDAP, sssd) are shown by their uid.

use std::cmp::Reverse;

use rustc_hash::FxHashMap;

use crate::tree::{flags, EntryKind, Node, Sizes, Tree, TreeBuilder, TreeView};
use crate::vocab::SizeMode;

/// The owner of entries whose owner a merged part did not record: uid -1, which no file can
/// have (`chown(2)` reads it as "leave unchanged"), so it is never taken for a real user.
pub const NOT_RECORDED: u32 = u32::MAX;

/// How [`NOT_RECORDED`] is named.
pub const NOT_RECORDED_NAME: &[u8] = b"(owner not recorded)";

/// What one owner's entries add up to.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub uid: u32,
    pub disk: u64,
    pub apparent: u64,
    pub entries: u64,
}

impl Usage {
    pub fn size(&self, mode: SizeMode) -> u64 {
        match mode {
            SizeMode::Apparent => self.apparent,
            SizeMode::Count => self.entries,
            SizeMode::Disk | SizeMode::Time => self.disk,
        }
    }
}

/// The owners of the subtree of `top` in a finished tree ([`Tree::finish`]), biggest first in
/// `mode` (ties: smaller uid first). An entry's own share is its total less its children's,
/// which is nothing for a hard link counted elsewhere or an entry filtered out; an entry
/// whose owner was not recorded (a part of a merge exported without owners) counts for
/// [`NOT_RECORDED`]. `None`: the tree recorded no owners.
pub fn owners_of<T: TreeView>(tree: &T, top: T::Id, mode: SizeMode) -> Option<Vec<Usage>> {
    if !tree.records_owners() {
        return None;
    }
    let total = tree.total();
    let mut by_uid: FxHashMap<u32, Usage> = FxHashMap::default();
    let mut stack = vec![top];
    while let Some(id) = stack.pop() {
        if tree.flags(id) & flags::REMOVED != 0 {
            continue;
        }
        // its own share: its totals less its children's
        let mut own = tree.sizes(id);
        for c in tree.children(id) {
            let k = tree.sizes(c);
            own.disk = own.disk.saturating_sub(k.disk);
            own.apparent = own.apparent.saturating_sub(k.apparent);
            own.entries = own.entries.saturating_sub(k.entries);
            stack.push(c);
        }
        if id == total || own == Sizes::default() {
            continue;
        }
        let uid = tree.owner(id).unwrap_or(NOT_RECORDED);
        let u = by_uid.entry(uid).or_insert(Usage {
            uid,
            ..Usage::default()
        });
        u.disk = u.disk.saturating_add(own.disk);
        u.apparent = u.apparent.saturating_add(own.apparent);
        u.entries = u.entries.saturating_add(own.entries);
    }
    if by_uid.len() == 1 && by_uid.contains_key(&NOT_RECORDED) {
        return None;
    }
    let mut owners: Vec<Usage> = by_uid.into_values().collect();
    owners.sort_by_key(|u| (Reverse(u.size(mode)), u.uid));
    Some(owners)
}

/// The owners as a finished tree of their own, for the printed views: one root named `top`'s
/// name, one child per owner (its user name, else its uid). More than `rows` owners: the
/// biggest `rows - 1` and "(other owners)" with the rest, as `-t` groups its "(others)", so
/// the rows still add up to the total.
pub fn owners_tree<T: TreeView>(
    tree: &T,
    top: T::Id,
    owners: &[Usage],
    names: &UserNames,
    rows: usize,
) -> Tree {
    let mut b = TreeBuilder::new();
    let mut root = Node::new(EntryKind::Dir, 0, 0, i64::MIN, 0);
    root.entries = 0;
    let root_id = b.add_roots(vec![(tree.name(top).to_vec(), root)]);
    let shown = if owners.len() > rows {
        rows.saturating_sub(1).max(1)
    } else {
        owners.len()
    };
    let mut labels: Vec<Vec<u8>> = owners[..shown].iter().map(|u| names.name(u.uid)).collect();
    let mut usages = owners[..shown].to_vec();
    if shown < owners.len() {
        let mut rest = Usage::default();
        for u in &owners[shown..] {
            rest.disk = rest.disk.saturating_add(u.disk);
            rest.apparent = rest.apparent.saturating_add(u.apparent);
            rest.entries = rest.entries.saturating_add(u.entries);
        }
        usages.push(rest);
        labels.push(b"(other owners)".to_vec());
    }
    let kids = usages.iter().zip(&labels).map(|(u, label)| {
        let mut n = Node::new(EntryKind::File, u.disk, u.apparent, i64::MIN, 0);
        n.entries = u32::try_from(u.entries).unwrap_or(u32::MAX);
        (n, label.as_slice())
    });
    b.add_children(root_id, kids);
    let mut out = b.into_tree();
    out.finish();
    out
}

/// User names by uid, as `/etc/passwd` lists them (the first name of a uid, as `getpwuid`
/// returns it).
#[derive(Clone, Debug, Default)]
pub struct UserNames {
    names: FxHashMap<u32, Vec<u8>>,
}

impl UserNames {
    /// The system's users; none when `/etc/passwd` cannot be read (uids are shown then).
    pub fn load() -> UserNames {
        std::fs::read("/etc/passwd")
            .map(|text| UserNames::parse(&text))
            .unwrap_or_default()
    }

    /// The users of a passwd file's text (`name:password:uid:…`); lines that are not such
    /// an entry (comments, NIS `+` lines) are skipped.
    pub fn parse(text: &[u8]) -> UserNames {
        let mut names = FxHashMap::default();
        for line in text.split(|&b| b == b'\n') {
            let mut fields = line.split(|&b| b == b':');
            let (Some(name), Some(_), Some(uid)) = (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let uid = std::str::from_utf8(uid).ok().and_then(|u| u.parse().ok());
            if let (Some(uid), false) = (uid, name.is_empty() || name[0] == b'+') {
                names.entry(uid).or_insert_with(|| name.to_vec());
            }
        }
        UserNames { names }
    }

    /// The name of `uid`, else the uid in decimal.
    pub fn name(&self, uid: u32) -> Vec<u8> {
        if uid == NOT_RECORDED {
            return NOT_RECORDED_NAME.to_vec();
        }
        self.names
            .get(&uid)
            .cloned()
            .unwrap_or_else(|| uid.to_string().into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{PostOrderBuilder, StatExtra, TOTAL};

    #[test]
    fn passwd_names_first_one_wins_and_junk_is_skipped() {
        let names = UserNames::parse(
            b"root:x:0:0:root:/root:/bin/bash\n# comment\n+nis::::::\ntoor:x:0:0::/:/bin/sh\nbad:x:notanumber:1\nnobody:x:65534:65534::/:/usr/sbin/nologin",
        );
        assert_eq!(names.name(0), b"root");
        assert_eq!(names.name(65534), b"nobody");
        assert_eq!(names.name(1000), b"1000");
    }

    /// Entries of three owners, a hard link counted once.
    fn owned_tree() -> Tree {
        let who = |uid| {
            Some(StatExtra {
                uid,
                mode: 0o100644,
                ..StatExtra::default()
            })
        };
        let file = |size, f| Node::new(EntryKind::File, size, size, 0, f);
        let mut b = PostOrderBuilder::new(false, true);
        b.root(
            b"/r".to_vec(),
            Node::new(EntryKind::Dir, 10, 10, 0, 0),
            (0, 0),
            who(0),
        );
        b.add(file(100, flags::HARDLINK), b"a", (0, 0), who(7), None);
        b.open_dir(
            Node::new(EntryKind::Dir, 10, 10, 0, 0),
            b"d",
            (0, 0),
            who(7),
        );
        b.add(file(1000, 0), b"x", (0, 0), who(8), None);
        b.add(
            file(100, flags::HARDLINK | flags::DUPLICATE),
            b"a2",
            (0, 0),
            who(7),
            None,
        );
        b.close();
        let mut tree = b.into_tree().tree;
        tree.finish();
        tree
    }

    #[test]
    fn own_shares_add_up_to_the_total_with_links_once() {
        let tree = owned_tree();
        let owners = owners_of(&tree, TOTAL, SizeMode::Disk).expect("owners recorded");
        let got: Vec<(u32, u64, u64)> = owners.iter().map(|u| (u.uid, u.disk, u.entries)).collect();
        assert_eq!(got, vec![(8, 1000, 1), (7, 110, 2), (0, 10, 1)]);
        let d = tree.node(1).children().start + 1;
        let below = owners_of(&tree, d, SizeMode::Count).expect("owners");
        assert_eq!(below.iter().map(|u| u.uid).collect::<Vec<_>>(), vec![7, 8]);
        let mut plain = TreeBuilder::new();
        plain.add_roots(vec![(b"r".to_vec(), Node::new(EntryKind::Dir, 1, 1, 0, 0))]);
        assert!(owners_of(&plain.into_tree(), TOTAL, SizeMode::Disk).is_none());
    }

    /// Owners read through sparse `u64` ids (as a file-backed tree's) add up as in the
    /// in-memory tree, and their tree is named alike.
    #[test]
    fn owners_through_sparse_ids_are_the_trees() {
        use crate::tree::Sparse;
        let tree = owned_tree();
        let sparse = Sparse(&tree);
        let d = tree.node(1).children().start + 1;
        for (top, mode) in [
            (TOTAL, SizeMode::Disk),
            (1, SizeMode::Apparent),
            (d, SizeMode::Count),
        ] {
            let want = owners_of(&tree, top, mode).expect("owners");
            assert_eq!(
                owners_of(&sparse, Sparse::id(top), mode),
                Some(want.clone())
            );
            let names = UserNames::default();
            let t = owners_tree(&sparse, Sparse::id(top), &want, &names, 2);
            let w = owners_tree(&tree, top, &want, &names, 2);
            let row = |t: &Tree, id| (t.path(id), t.node(id).disk, t.node(id).entries);
            let rows = |t: &Tree| (0..t.len() as u32).map(|id| row(t, id)).collect::<Vec<_>>();
            assert_eq!(rows(&t), rows(&w));
        }
    }
}
