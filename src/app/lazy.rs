//! `hogs --import x.ncdu` with a view the stored totals of an ncdu 2 binary export answer:
//! the file read on demand ([`LazyTree`]) instead of loaded whole. The view is rendered into
//! memory (a few rows) and printed only when every read succeeded: a damaged file is an
//! error, never a partial view; what the stored totals cannot answer exactly as the whole
//! import does (hard links, ncdu's shared sizes, times) hands the run back to it. What could
//! not be read is reported first, as after a load.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Seek, Write};
use std::os::unix::ffi::OsStrExt;

use super::rows::{render_rows, Shown};
use crate::config::{Config, Form, View};
use crate::error::{fail, report_errors_by_path, say, ExitStatus};
use crate::formats::ncdu_bin::lazy::{LazyTree, Stop};
use crate::formats::ncdu_bin::{is_binary, ReadAt};
use crate::import::unlinked_temp;
use crate::render::escape::shown;
use crate::render::labels::Labels;
use crate::tree::TreeView;

/// Prints `view` of the one binary export `config` imports, read on demand, when the view
/// needs nothing the stored totals lack; `None`: the caller loads the import.
pub fn print(config: &Config, view: View) -> Option<ExitStatus> {
    let file = binary_export(config)?;
    let said = |what: &str| {
        if config.debug.import {
            say(format!("import: {what}"));
        }
    };
    let file_name = config.import.as_ref()?.files.first()?.clone();
    let cannot = |e: &dyn std::fmt::Display| {
        fail(format!(
            "cannot import '{}': {e}",
            shown(file_name.as_bytes(), config.terminals.stderr)
        ))
    };
    let tree = match LazyTree::open(file) {
        Ok(tree) => tree,
        Err(Stop::Damaged(e)) => return Some(cannot(&e)),
        Err(Stop::Load(why)) => {
            said(&format!("loaded whole: {why}"));
            return None;
        }
    };
    let errors = tree.errors();
    let mut out = Held::default();
    let rendered = render(&tree, config, view, &mut out);
    match tree.outcome() {
        Err(Stop::Damaged(e)) => return Some(cannot(&e)),
        Err(Stop::Load(why)) => {
            said(&format!("loaded whole: {why}"));
            return None;
        }
        Ok(()) => said("read on demand"),
    }
    let tty = config.terminals.stderr;
    let _ = report_errors_by_path(&errors, &mut io::stderr().lock(), tty);
    let status = match errors.is_empty() {
        true => ExitStatus::Success,
        false => ExitStatus::Incomplete,
    };
    let written = rendered.and_then(|()| out.write_to(&mut io::stdout().lock()));
    let data = view.form == Form::Json;
    Some(status.max(super::write_status(written, None, data, tty)))
}

/// The file `hogs i` browses on demand: one binary export (not stdin) for a view the stored
/// totals answer (`Config::on_demand`: no comparison, nothing that changes the sums).
pub fn browsable(config: &Config) -> Option<File> {
    binary_export(config)
}

/// The one binary export `config` imports, when the view may read it on demand.
fn binary_export(config: &Config) -> Option<File> {
    if !config.on_demand {
        return None;
    }
    let [file] = &config.import.as_ref()?.files[..] else {
        return None;
    };
    binary_file(file)
}

/// `path` opened when it is an ncdu 2 binary export in a regular file (stdin is not: it
/// cannot be read twice).
pub(super) fn binary_file(path: &OsStr) -> Option<File> {
    if path.as_bytes() == b"-" {
        return None;
    }
    let file = File::open(path).ok()?;
    let mut head = [0u8; 8];
    let regular = file.metadata().is_ok_and(|m| m.is_file());
    (regular && ReadAt::read_exact_at(&file, &mut head, 0).is_ok() && is_binary(&head))
        .then_some(file)
}

/// What a view printed on demand renders, held until it is known to be whole: in memory up
/// to [`HELD`] bytes, then in an unlinked temporary file (every row of a directory of
/// 200,000 files is 40 MB of bars: more than the whole import holds).
#[derive(Default)]
struct Held {
    memory: Vec<u8>,
    file: Option<io::BufWriter<File>>,
}

/// The most bytes of a rendered view held in memory.
const HELD: usize = 1 << 20;

impl Write for Held {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.file.is_none() && self.memory.len() + buf.len() > HELD {
            // no temporary file (a full or read-only $TMPDIR): held in memory, as before
            if let Ok(temp) = unlinked_temp("view") {
                let mut file = io::BufWriter::with_capacity(1 << 16, temp);
                file.write_all(&self.memory)?;
                self.memory = Vec::new();
                self.file = Some(file);
            }
        }
        match &mut self.file {
            Some(file) => file.write_all(buf),
            None => self.memory.write_all(buf),
        }
        .map(|()| buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Held {
    /// Writes what is held to `out`.
    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(file) = self.file {
            let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
            file.seek(io::SeekFrom::Start(0))?;
            io::copy(&mut file, out)?;
        }
        out.write_all(&self.memory)?;
        out.flush()
    }
}

/// The view of the tree, as the loaded import's is drawn.
fn render<S: ReadAt>(
    tree: &LazyTree<S>,
    config: &Config,
    view: View,
    out: &mut dyn Write,
) -> io::Result<()> {
    let roots: Vec<_> = tree.roots().collect();
    let labels = Labels::dust(tree, &roots, config.view.full_paths);
    let rows = Shown {
        roots: &roots,
        labels: &labels,
        collapsed: Vec::new(),
    };
    render_rows(tree, rows, config, &config.view, view, out)
}
