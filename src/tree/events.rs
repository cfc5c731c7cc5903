//! Scan events, depth-first: what every streamed source gives (an export being read, a merge
//! of parts, a walk read back from its export, a scan out of the history) and every streamed
//! output takes (ncdu 2's binary format, the history store).

use std::io;

use super::{LinkKey, Node, StatExtra};

/// Takes a scan depth-first: a directory is entered ([`ScanSink::open_dir`]; the first one is
/// the root, named by its path), then its entries come ([`ScanSink::add`], the directories
/// among them entered and left in turn), then it is left ([`ScanSink::close`]): its totals are
/// the sum of what was given inside it. Only the directories open are held.
pub trait ScanSink {
    /// Enters a directory in the one open (the root when none is): its own sizes and facts,
    /// `key` its device and inode number.
    fn open_dir(&mut self, node: Node, name: &[u8], key: LinkKey, extra: Option<StatExtra>);

    /// An entry that is not a directory, in the directory open; `links` its link count.
    fn add(
        &mut self,
        node: Node,
        name: &[u8],
        key: LinkKey,
        extra: Option<StatExtra>,
        links: Option<u32>,
    );

    /// An entry of the directory open that could not be read.
    fn failed(&mut self, name: &[u8]);

    /// Leaves the directory open.
    fn close(&mut self);

    /// The path of the directory open, from the root's name.
    fn path(&self) -> Vec<u8>;

    /// Everything was given: the output is completed (a file renamed into place, a
    /// transaction committed). Dropped unfinished, a sink leaves nothing of its output.
    fn finish(self: Box<Self>) -> io::Result<()>;
}
