//! What the walk is asked to do: decided by `config`, read by the walker.

use crate::vocab::SizeMode;

/// Which entries the walker leaves out entirely (they are neither counted nor shown).
#[derive(Clone, Debug, Default)]
pub struct Exclusions {
    /// Skip names starting with '.'.
    pub hidden: bool,
    /// Skip entries with one of these names anywhere below a root.
    pub names: Vec<Vec<u8>>,
    /// Skip entries at exactly one of these paths (as the walker spells them: root as typed,
    /// then '/'-joined names).
    pub paths: Vec<Vec<u8>>,
    /// Keep what is left out as an entry of its name and kind alone, marked
    /// [`crate::tree::flags::FILTERED`], where it was listed (an export writes it
    /// `"excluded":"pattern"`, as ncdu does): a merge of split scans then knows where in its
    /// directory each part goes, and which part never came (docs/SPLIT-SCANS.md).
    pub mark: bool,
}

/// Options of the walk itself: what to count and how to traverse.
#[derive(Clone, Debug)]
pub struct WalkOptions {
    pub mode: SizeMode,
    /// Do not cross into other filesystems (`-x`).
    pub one_filesystem: bool,
    /// Follow symbolic links (`-L`).
    pub follow_links: bool,
    pub exclusions: Exclusions,
    /// Worker threads (`-T`). `None`: decided by the walk when it first needs a thread (see
    /// [`crate::walk::pool::default_threads`]); asking the system for its CPU count costs more syscalls than a
    /// scan of an empty directory.
    pub threads: Option<usize>,
    /// Record every node's `(dev, ino)` for [`crate::tree::Tree::identity_of`] (for deleting
    /// and exporting; the static view does not need them).
    pub keep_identity: bool,
    /// With `keep_identity`, only the identities an export reads: of directories, of hard
    /// links and of entries on another device than their directory ([`TreeBuilder`]'s
    /// `sparse_identity`). Only where no other name can count a file twice: one path, no -L.
    ///
    /// [`TreeBuilder`]: crate::tree::TreeBuilder
    pub sparse_identity: bool,
    /// Record every node's owner and mode in [`crate::tree::Tree::owners`] (ncdu's extended
    /// export).
    pub keep_extra: bool,
    /// Keep every node's time (`-m`, the time filters, the interactive view, ncdu's extended
    /// export): without, every time is 0 and the tree takes 4 bytes an entry less.
    pub keep_times: bool,
    /// Make no node of a file: its sizes go into its directory's. For a view of totals
    /// only (`-d 0`), which shows no file: the walk then keeps what `du -s` keeps.
    pub fold_files: bool,
}
