//! `hogs i --import x.ncdu`: one ncdu 2 binary export browsed read on demand
//! ([`LazyTree`]) by the read-only view ([`super::browse`]), so that memory is bounded by
//! what is shown, not by the export. Damage met while browsing is said in the footer and
//! the rest stays browsable; the run then exits with 1.

use std::fs::File;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::sync::Arc;

use super::browse::{self, Browser};
use super::event::TerminalEvents;
use super::signals::Watch;
use super::state::Options;
use super::style::Styles;
use super::terminal::{self, Screen};
use super::{marks, ERRORS_SHOWN};
use crate::config::{Config, Interactive};
use crate::error::{fail, report_errors_by_path, say, ExitStatus};
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

/// Runs the view of `tree` until the user quits; what it could not read is printed after.
pub fn run(
    config: &Config,
    ia: &Interactive,
    tree: LazyTree<File>,
    screen: Screen,
    watch: &Arc<Watch>,
    styles: Styles,
) -> ExitStatus {
    let ttys = config.terminals;
    let opts = Options {
        mode: config.walk.mode,
        units: config.view.units,
        allow_delete: !ia.no_delete,
    };
    let source = match config.import.as_ref().and_then(|i| i.files.first()) {
        Some(name) => shown(name.as_bytes(), true),
        None => String::new(),
    };
    let mut browser = browser(tree, opts, styles, source);
    watch.taking_terminal();
    let mut term = match terminal::init(screen) {
        Ok(t) => t,
        Err(e) => return fail(format!("cannot set up the terminal: {e}")),
    };
    let mut events = TerminalEvents {
        watch: Arc::clone(watch),
    };
    let result = browse::run(&mut term, &mut events, &mut browser, &watch.stop);
    watch.closing();
    drop(term);
    terminal::restore(&screen);
    let mut status = ExitStatus::Success;
    if let Err(e) = result {
        status = fail(e);
    }
    let tree = browser.state.tree();
    status = status.max(report(config, tree));
    debug("read on demand");
    if let Some(sig) = watch.signal() {
        std::process::exit(128 + sig);
    }
    if ia.print_marked && !browser.state.marks().is_empty() {
        let out = &mut io::stdout().lock();
        let written = marks::print(browser.state.marks(), tree, out, ttys.stdout, ia.null);
        status = status.max(crate::app::write_status(written, None, true, ttys.stderr));
    }
    status
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
    let mut browser = Browser::new(tree, opts, styles).reading(source);
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
    status
}

/// Says how the export was read, for tests (`HOGS_DEBUG_IMPORT`, as the printed views do).
fn debug(what: &str) {
    if std::env::var_os("HOGS_DEBUG_IMPORT").is_some() {
        say(format!("import: {what}"));
    }
}
