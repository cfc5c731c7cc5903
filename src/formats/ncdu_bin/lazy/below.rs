//! What is below a directory of a [`LazyTree`], read to its end when asked: the entries
//! counted as the whole import counts them, and what could not be read.

use super::chain::Chain;
use super::listing::Children;
use super::verify::Check;
use super::{damaged, Facts, LazyTree, Stop, COUNTS, UNRECORDED_ERROR, UNSURE_LINK};
use crate::formats::ncdu_bin::spec::etype;
use crate::formats::ncdu_bin::ReadAt;
use crate::walk::ErrorKind;

impl<S: ReadAt> LazyTree<S> {
    /// What could not be read, as the whole import reports it (sorted by path): found by
    /// going down only into the directories that say something below them failed.
    pub fn errors(&self) -> Vec<(ErrorKind, Vec<u8>)> {
        let (mut unreadable, mut failed) = (Vec::new(), Vec::new());
        let mut path = self.root_name.clone();
        let mut name = Vec::new();
        let mut open = Vec::new();
        let mut dir = (self.root, path.len());
        loop {
            let f = self.facts(dir.0);
            if f.errors && !self.stopped() {
                if f.flags & crate::tree::flags::UNREADABLE != 0 {
                    unreadable.push((ErrorKind::ReadDir, path.clone()));
                }
                let kids = Children {
                    listing: Some(self.list(dir.0)),
                    parent: self.dirs.borrow_mut().number(dir.0),
                    next: 0,
                    entries_only: false,
                };
                open.push((kids, dir.1));
            }
            let next = loop {
                let Some((kids, len)) = open.last_mut() else {
                    break None;
                };
                path.truncate(*len);
                let Some(kid) = kids.next() else {
                    open.pop();
                    continue;
                };
                let c = self.entry_facts(kid);
                if c.etype != etype::ERR && !c.errors {
                    continue;
                }
                self.entry_name_of(kid, &mut name);
                if path.last() != Some(&b'/') {
                    path.push(b'/');
                }
                path.extend_from_slice(&name);
                if c.etype == etype::ERR {
                    failed.push((ErrorKind::Access, path.clone()));
                    continue;
                }
                break Some((kid.item, path.len()));
            };
            match next {
                Some(d) => dir = d,
                None => break,
            }
        }
        let mut all: Vec<_> = unreadable.into_iter().chain(failed).collect();
        all.sort_by(|a, b| a.1.cmp(&b.1));
        all
    }

    /// Whether every hard link directory `dir` lists is a name that counts, as the whole
    /// import would find (see [`Sums::links_count`]).
    pub(super) fn links_count(&self, dir: u64) -> bool {
        if let Some(&known) = self.links.borrow().get(&dir) {
            return known;
        }
        let f = self.facts(dir);
        let mut walk = Chain::new(dir, &f);
        let mut sums = Sums::default();
        while let Some((_, c)) = walk.next(self) {
            sums.add(&c);
        }
        let known = sums.links_count(&f);
        let mut links = self.links.borrow_mut();
        if links.len() < COUNTS {
            links.insert(dir, known);
        }
        known
    }

    /// Entries in the subtree of directory `dir` (itself included), as the whole import
    /// counts them: read to its end, its claims checked.
    pub(super) fn count(&self, dir: u64) -> u64 {
        if let Some(&n) = self.counts.borrow().get(&dir) {
            return n;
        }
        struct Open {
            walk: Chain,
            itemref: u64,
            facts: Facts,
            count: u64,
            found: u64,
            sums: Sums,
            check: Check,
        }
        let open = |itemref: u64, f: &Facts| Open {
            walk: Chain::new(itemref, f),
            itemref,
            facts: *f,
            count: 1,
            found: 0,
            sums: Sums::default(),
            check: Check::new(self, itemref),
        };
        let mut stack = vec![open(dir, &self.facts(dir))];
        while let Some(top) = stack.last_mut() {
            let Some((at, c)) = top.walk.next(self) else {
                let done = stack.pop().expect("not empty");
                if done.found != done.facts.items {
                    self.fail(damaged(format!(
                        "directory item {:#x} claims {} entries below it, the file holds {}",
                        done.itemref, done.facts.items, done.found
                    )));
                    if self.browsing {
                        // not read again at every frame
                        let mut counts = self.counts.borrow_mut();
                        if counts.len() < COUNTS {
                            counts.insert(dir, 0);
                        }
                    }
                    return 0;
                }
                done.check.finish(self, done.itemref, &done.facts);
                if !self.browsing && !done.sums.links_count(&done.facts) {
                    self.fail(Stop::Load(UNSURE_LINK));
                    return 0;
                }
                let mut counts = self.counts.borrow_mut();
                if stack.len() <= 1 && counts.len() < COUNTS {
                    counts.insert(done.itemref, done.count);
                }
                match stack.last_mut() {
                    Some(p) => (p.count, p.found) = (p.count + done.count, p.found + done.found),
                    None => return done.count,
                }
                continue;
            };
            top.found += 1;
            top.sums.add(&c);
            top.check.entry(self, top.itemref, at, &c);
            match c.etype {
                // ncdu's sizes of a directory that shares inodes with others: which names
                // count only the whole file tells
                etype::DIR if c.shares && !self.browsing => self.fail(Stop::Load(UNSURE_LINK)),
                etype::DIR if c.items < top.facts.items => stack.push(open(at, &c)),
                etype::DIR => self.fail(damaged(format!(
                    "directory item {at:#x} claims {} entries, not fewer than the {} of the \
                     directory that lists it: the file's references loop",
                    c.items, top.facts.items
                ))),
                etype::ERR if !top.facts.errors => self.fail(Stop::Load(UNRECORDED_ERROR)),
                etype::ERR => {}
                _ if c.flags & crate::tree::flags::UNCOUNTED != 0 => {}
                _ => top.count += 1,
            }
        }
        0
    }
}

/// What a directory's children add up to, hard links counted.
#[derive(Default)]
struct Sums {
    disk: u64,
    apparent: u64,
    links: bool,
    /// A hard link of no size: whether it counts changes no sum.
    empty_link: bool,
}

impl Sums {
    fn add(&mut self, c: &Facts) {
        let counted = c.etype == etype::DIR || c.flags & crate::tree::flags::UNCOUNTED == 0;
        if counted && c.etype != etype::ERR {
            self.disk = self.disk.saturating_add(c.disk);
            self.apparent = self.apparent.saturating_add(c.apparent);
        }
        if c.etype == etype::LINK {
            self.links = true;
            self.empty_link |= c.disk == 0 && c.apparent == 0;
        }
    }

    /// Whether every hard link among the children counts. The stored totals leave out the
    /// names of an inode that do not count (hogs's writer; ncdu counts an inode once in each
    /// directory and says what it shares with others): when the children, every hard link
    /// counted, add up to the directory's totals, none was left out.
    fn links_count(&self, dir: &Facts) -> bool {
        !self.links
            || !self.empty_link
                && self.disk.saturating_add(dir.own.0) == dir.disk
                && self.apparent.saturating_add(dir.own.1) == dir.apparent
    }
}
