//! Where the entries an export's reader meets go: into a tree ([`PostOrderBuilder`]), or
//! straight into a binary export ([`StreamWriter`]: a merge written as it is read, holding no
//! tree).

use std::io::BufWriter;

use crate::error::{report_streamed_error, report_streamed_unfilled};
use crate::export::ExportSink;
use crate::formats::ncdu_bin::StreamWriter;
use crate::tree::{LinkKey, Node, PostOrderBuilder, StatExtra};
use crate::walk::ErrorKind;

/// A binary export being written, and the errors met on the way.
pub struct Streamed {
    pub writer: StreamWriter<BufWriter<ExportSink>>,
    /// Errors the parts record, reported as met.
    pub errors: usize,
    to_terminal: bool,
    /// Errors are counted, not reported (they were when the export was first written).
    quiet: bool,
    /// Directories opened so far: the sequence numbers a tree would give them.
    opened: u32,
}

impl Streamed {
    pub fn new(writer: StreamWriter<BufWriter<ExportSink>>, to_terminal: bool) -> Streamed {
        Streamed {
            writer,
            errors: 0,
            to_terminal,
            quiet: false,
            opened: 0,
        }
    }

    /// A stream that counts the errors it meets without reporting them: an export written
    /// again from itself, whose errors were reported when it was first written.
    pub fn quiet(writer: StreamWriter<BufWriter<ExportSink>>) -> Streamed {
        Streamed {
            quiet: true,
            ..Streamed::new(writer, false)
        }
    }

    /// Reports a directory `name` of the directory open, left out by the part `by` of a merge
    /// and scanned by no part (the writer keeps such a directory out of its open ones).
    pub(super) fn report_unfilled(&mut self, name: &[u8], by: &[u8]) {
        let mut path = self.writer.path();
        if path.last() != Some(&b'/') {
            path.push(b'/');
        }
        path.extend_from_slice(name);
        self.errors += 1;
        if !self.quiet {
            report_streamed_unfilled(&path, by, self.to_terminal);
        }
    }

    /// Reports an error at the path of the directory open, or of `name` in it.
    pub(super) fn report(&mut self, kind: ErrorKind, name: Option<&[u8]>) {
        let mut path = self.writer.path();
        if let Some(name) = name {
            if path.last() != Some(&b'/') {
                path.push(b'/');
            }
            path.extend_from_slice(name);
        }
        self.errors += 1;
        if !self.quiet {
            report_streamed_error(kind, &path, self.to_terminal);
        }
    }
}

/// The entries' destination, with the calls of a [`PostOrderBuilder`].
// one per import, never in a collection: the builder in place saves a pointer per call
#[allow(clippy::large_enum_variant)]
pub(crate) enum Out {
    Tree(PostOrderBuilder),
    Binary(Box<Streamed>),
}

impl Out {
    pub(crate) fn root(
        &mut self,
        name: Vec<u8>,
        node: Node,
        key: LinkKey,
        extra: Option<StatExtra>,
    ) {
        match self {
            Out::Tree(t) => t.root(name, node, key, extra),
            Out::Binary(b) => b.writer.open_dir(node, &name, key, extra),
        }
    }

    pub(crate) fn add(
        &mut self,
        node: Node,
        name: &[u8],
        key: LinkKey,
        extra: Option<StatExtra>,
        links: Option<u32>,
    ) {
        match self {
            Out::Tree(t) => t.add(node, name, key, extra, links),
            Out::Binary(b) => b.writer.add(node, name, key, extra, links),
        }
    }

    pub(crate) fn open_dir(
        &mut self,
        node: Node,
        name: &[u8],
        key: LinkKey,
        extra: Option<StatExtra>,
    ) -> u32 {
        match self {
            Out::Tree(t) => t.open_dir(node, name, key, extra),
            Out::Binary(b) => {
                b.writer.open_dir(node, name, key, extra);
                b.opened = b.opened.saturating_add(1);
                b.opened
            }
        }
    }

    pub(crate) fn close(&mut self) {
        match self {
            Out::Tree(t) => t.close(),
            Out::Binary(b) => b.writer.close(),
        }
    }
}
