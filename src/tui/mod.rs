//! `hogs i`: a full-screen view to browse the tree while it is scanned, sort it, mark
//! entries and delete them.
//!
//! The split: [`state`] (pure data and transitions), [`action`] (keys and mouse → actions),
//! [`view`] (state → widgets), [`event`] (where input comes from), [`app`] (the event loop and
//! background work), [`delete`] (every destructive syscall), [`terminal`] (raw mode in, and
//! always back out). [`session`] is the one event loop, run on the scan's view ([`app`]) or
//! on a read-only tree's ([`browse`]: no walk, nothing deleted or rescanned); what each can
//! do is the state's [`state::Capabilities`]. [`shown`] is what a tree must be to be browsed.

pub mod action;
pub mod app;
pub mod browse;
mod cells;
pub mod delete;
pub mod diff;
mod errors;
pub mod event;
pub mod export;
pub mod extents;
mod help;
pub mod listing;
pub mod marks;
mod overlay;
mod rows;
pub mod session;
pub mod shown;
pub mod signals;
pub mod state;
pub mod style;
pub mod terminal;
mod text;
pub mod trash;
pub mod view;

use std::io::{self, IsTerminal, Write};

use crate::config::{Config, Interactive};
use crate::error::{fail, report_scan_errors, ExitStatus};
use app::App;
use state::Options;
use terminal::Screen;

/// Scan errors printed after the view closes; the rest are counted.
const ERRORS_SHOWN: usize = 10;

/// Loads what the view starts from, short of a walk: the earlier scan of `--diff OLD`, and a
/// saved scan to show (`--import FILE`, or the NEW.json of `--diff OLD NEW.json`), which turns
/// deleting and rescanning off. Returns whether the old scan recorded no errors; the error is
/// the one line to print.
pub fn load(config: &Config, app: &mut App) -> Result<bool, String> {
    let mut complete = true;
    let mut new = None;
    if let Some(opts) = config.mode.diff() {
        let (old, imported, ok) = crate::app::diff::sides_for_view(config, opts)?;
        complete = ok;
        new = imported;
        app.state.compare_with(old);
    }
    if let Some(imports) = &config.import {
        let scan = match new {
            Some(scan) => scan,
            None => {
                // shown read-only: nothing is deleted or rescanned, so no identities
                let keep = crate::import::Keep {
                    identity: false,
                    extra: config.walk.keep_extra,
                    time: crate::import::time_needed(config.filters.times.iter().map(|t| t.field)),
                };
                crate::import::import_files(
                    &imports.files,
                    imports.keep_first,
                    config.terminals.stderr,
                    keep,
                )?
            }
        };
        app.show_imported(scan);
    }
    Ok(complete)
}

/// Runs the interactive view. Needs a terminal for keys (stdin) and one to draw on: stdout,
/// or stderr when stdout is a pipe that takes `--print-marked`.
pub fn run(config: &Config, ia: &Interactive) -> ExitStatus {
    let ttys = config.terminals;
    // stdin is only asked here: no other run reads it as a terminal
    let screen = if !io::stdin().is_terminal() {
        return fail("interactive mode needs a terminal: stdin is not one");
    } else if ttys.stdout {
        Screen::Stdout
    } else if ia.print_marked && ttys.stderr {
        Screen::Stderr
    } else {
        return fail("interactive mode needs a terminal: stdout is not one");
    };
    let watch = match signals::Watch::start(screen) {
        Ok(w) => w,
        Err(e) => return fail(format!("cannot watch signals: {e}")),
    };
    let styles = if config.view.color {
        style::Styles::from_env()
    } else {
        style::Styles::plain()
    };
    if let Some(opened) = export::open(config) {
        return match opened {
            Ok(tree) => {
                let mut browser = export::session(config, ia, tree, styles);
                show(
                    config,
                    ia,
                    &mut browser,
                    ExitStatus::Success,
                    screen,
                    &watch,
                    |_| {},
                )
            }
            Err(msg) => fail(msg),
        };
    }
    let mut app = App::new(
        config.walk.clone(),
        config.filters.clone(),
        Options {
            mode: config.walk.mode,
            units: config.view.units,
            allow_delete: !ia.no_delete,
        },
        styles,
    );
    app.extents = config.extents;
    // before the screen is taken: what goes wrong stays readable after the view closes
    let status = match load(config, &mut app) {
        Ok(true) => ExitStatus::Success,
        Ok(false) => ExitStatus::Incomplete,
        Err(msg) => return fail(msg),
    };
    if config.import.is_some() {
        return show(config, ia, &mut app, status, screen, &watch, |_| {});
    }
    if !errors::check_paths(&config.paths, &mut io::stderr(), ttys.stderr) {
        return ExitStatus::Incomplete;
    }
    show(config, ia, &mut app, status, screen, &watch, |app| {
        app.start_scan(config.paths.clone())
    })
}

/// Takes the screen, runs `session` (after `start`: the walk begins once the screen is
/// taken) until the user quits, gives the screen back, then says what could not be read and
/// prints the marks for `--print-marked`.
fn show<S: session::Session>(
    config: &Config,
    ia: &Interactive,
    session: &mut S,
    mut status: ExitStatus,
    screen: Screen,
    watch: &std::sync::Arc<signals::Watch>,
    start: impl FnOnce(&mut S),
) -> ExitStatus {
    let ttys = config.terminals;
    watch.taking_terminal();
    let mut term = match terminal::init(screen) {
        Ok(t) => t,
        Err(e) => return fail(format!("cannot set up the terminal: {e}")),
    };
    start(session);
    let mut events = event::TerminalEvents {
        watch: std::sync::Arc::clone(watch),
    };
    let result = session::run(&mut term, &mut events, session, &watch.stop);
    watch.closing();
    drop(term);
    terminal::restore(&screen);

    if let Err(e) = result {
        status = fail(e);
    }
    status = status.max(session.report(config));
    if let Some(sig) = watch.signal() {
        // killed, not quit: no marks for a pipe to act on, and the shell's status
        std::process::exit(128 + sig);
    }
    if ia.print_marked && session.marked() {
        let written = session.print_marked(&mut io::stdout().lock(), ttys.stdout, ia.null);
        // the paths are for a program (`| xargs rm`): a list cut short is a failure
        status = status.max(crate::app::write_status(written, None, true, ttys.stderr));
    }
    status
}

/// The scan's errors, after the view closed: the first [`ERRORS_SHOWN`], then how many more.
fn report_scan_errors_after(app: &mut App, tty: bool) -> ExitStatus {
    if app.errors.is_empty() {
        return ExitStatus::Success;
    }
    let shown = &app.errors[..app.errors.len().min(ERRORS_SHOWN)];
    let mut err = io::stderr().lock();
    // (the walk's errors come with its end: its tree is the state's now)
    let _ = report_scan_errors(shown, app.state.tree(), &mut err, tty);
    if app.errors.len() > shown.len() {
        let _ = writeln!(
            err,
            "hogs: … and {} more entries could not be read",
            app.errors.len() - shown.len()
        );
    }
    ExitStatus::Incomplete
}
