//! `hogs i --import x.ncdu`: one ncdu 2 binary export browsed read on demand
//! ([`LazyTree`]) by the read-only view ([`super::browse`]), so that memory is bounded by
//! what is shown, not by the export. Damage met while browsing is said in the footer and
//! the rest stays browsable; the run then exits with 1.

use std::fs::File;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;

use super::browse::Browser;
use super::state::Options;
use super::style::Styles;
use super::ERRORS_SHOWN;
use crate::config::{Config, Interactive};
use crate::error::{report_errors_by_path, say, ExitStatus};
use crate::formats::ncdu_bin::lazy::{LazyTree, Stop};
use crate::render::escape::shown;

/// Opens the export `config` imports to be browsed on demand: `None` when the view must
/// load it instead (not one binary export, a view the stored totals do not answer); an
/// error to print when it is damaged.
pub fn open(config: &Config) -> Option<Result<LazyTree<File>, String>> {
    let file = crate::app::lazy::browsable(config)?;
    let name = config.import.as_ref()?.files.first()?;
    let why = match LazyTree::open(file).map(LazyTree::browse) {
        Ok(Ok(tree)) => return Some(Ok(tree)),
        Ok(Err(why)) | Err(Stop::Load(why)) => why,
        Err(Stop::Damaged(e)) => {
            return Some(Err(format!(
                "cannot import '{}': {e}",
                shown(name.as_bytes(), config.terminals.stderr)
            )))
        }
    };
    debug(&format!("loaded whole: {why}"));
    None
}

/// The view of `tree`, the export `config` imports, until the user quits.
pub fn session(
    config: &Config,
    ia: &Interactive,
    tree: LazyTree<File>,
    styles: Styles,
) -> Browser<LazyTree<File>> {
    let opts = Options {
        mode: config.walk.mode,
        units: config.view.units,
        allow_delete: !ia.no_delete,
    };
    let source = match config.import.as_ref().and_then(|i| i.files.first()) {
        Some(name) => shown(name.as_bytes(), true),
        None => String::new(),
    };
    browser(tree, opts, styles, source)
}

/// The view of `tree` read from `source`, with the errors it records listed as a walk's.
pub fn browser(
    tree: LazyTree<File>,
    opts: Options,
    styles: Styles,
    source: String,
) -> Browser<LazyTree<File>> {
    let lines = tree
        .errors()
        .iter()
        .map(|e| {
            let mut line = Vec::new();
            let _ = report_errors_by_path(std::slice::from_ref(e), &mut line, true);
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end();
            text.strip_prefix("hogs: ").unwrap_or(text).to_string()
        })
        .collect();
    let mut browser = Browser::new(tree, opts, styles)
        .reading(source)
        .reporting(report);
    browser.state.recorded_errors(lines);
    browser
}

/// What the export records it could not read, and the first damage met while browsing.
fn report(config: &Config, tree: &LazyTree<File>) -> ExitStatus {
    let tty = config.terminals.stderr;
    let errors = tree.errors();
    let mut status = ExitStatus::Success;
    if !errors.is_empty() {
        status = ExitStatus::Incomplete;
        let mut err = io::stderr().lock();
        let shown_errors = &errors[..errors.len().min(ERRORS_SHOWN)];
        let _ = report_errors_by_path(shown_errors, &mut err, tty);
        if errors.len() > shown_errors.len() {
            let more = errors.len() - shown_errors.len();
            let _ = writeln!(err, "hogs: … and {more} more entries could not be read");
        }
    }
    if let Some(damage) = tree.first_damage() {
        let name = config.import.as_ref().and_then(|i| i.files.first());
        let name = name.map_or(String::new(), |n| shown(n.as_bytes(), tty));
        say(format!("cannot read all of '{name}': {damage}"));
        status = ExitStatus::Incomplete;
    }
    debug("read on demand");
    status
}

/// Says how the export was read, for tests (`HOGS_DEBUG_IMPORT`, as the printed views do).
fn debug(what: &str) {
    if std::env::var_os("HOGS_DEBUG_IMPORT").is_some() {
        say(format!("import: {what}"));
    }
}
