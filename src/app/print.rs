//! `hogs [PATH...]`: a view of the scan printed on stdout — the tree of bars, `-R`'s columns
//! or `-j`'s JSON, of the tree, of `-F`'s biggest files or of `-t`'s file types.

use std::io::{self, BufWriter, Write};

use crate::config::{Config, Form, Mode, Rows, View};
use std::os::unix::ffi::OsStrExt;

use super::rows::{render_rows, Shown};
use crate::error::{fail, ExitStatus};
use crate::owners;
use crate::render::escape::shown;
use crate::render::labels::Labels;
use crate::render::{self, ViewOptions};
use crate::settle::Totals;
use crate::tree::{self, NodeId, Tree, TOTAL};

/// Scans, reports what could not be read, prints the view.
pub fn run(config: &Config, view: View) -> ExitStatus {
    if let Some(status) = super::lazy::print(config, view) {
        return status;
    }
    let (scan, mut status) = match super::scan::load(config) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    let tree = super::scan::settled(config, scan.tree, Totals::Summed, true, true);
    if view.rows == Rows::Owners && owners::owners_of(&tree, TOTAL, config.walk.mode).is_none() {
        // only an import can lack them: a walk records them for this view
        let file = config.import.as_ref().and_then(|i| i.files.first());
        let file = file.map_or(String::new(), |f| {
            format!(" '{}'", shown(f.as_bytes(), config.terminals.stderr))
        });
        return fail(format!(
            "cannot show owners: the scan{file} records none (export it with --export-extended)"
        ));
    }
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let written = render_view(&tree, config, view, &mut out).and_then(|()| out.flush());
    let data = view.form == Form::Json;
    status = status.max(super::write_status(
        written,
        None,
        data,
        config.terminals.stderr,
    ));
    // a failed flush leaves bytes behind; don't let drop try (and fail) again
    std::mem::forget(out);
    // the process exits next: unmapping the tree would only cost a TLB flush on every CPU
    // that runs a pool thread, a cost the walk pays for nothing (3% of a 5 ms walk:
    // docs/BENCHMARKS.md, "Measurements behind the code's design")
    std::mem::forget(tree);
    status
}

/// Writes the view `config.mode` prints (the tree of bars when it prints none) of a finished
/// tree.
pub fn render(tree: &Tree, config: &Config, out: &mut dyn Write) -> io::Result<()> {
    let view = match config.mode {
        Mode::Print(view) => view,
        _ => View::default(),
    };
    render_view(tree, config, view, out)
}

/// Writes `view` of a finished tree.
pub fn render_view(
    tree: &Tree,
    config: &Config,
    view: View,
    out: &mut dyn Write,
) -> io::Result<()> {
    // -t and --by-owner: a small tree of their own, shown whole (depth, -D, -F and
    // --collapse are about directories, which it has none of)
    let types = match view.rows {
        Rows::FileTypes => tree::by_file_type(tree, config.walk.mode, config.view.lines),
        Rows::Owners => {
            let roots = tree.roots();
            let top = if roots.len() == 1 { roots.start } else { TOTAL };
            let found = owners::owners_of(tree, top, config.walk.mode).unwrap_or_default();
            let names = owners::UserNames::load();
            if view.form == Form::Json {
                // every owner: -n does not apply to -j (docs/JSON.md)
                let t = owners::owners_tree(tree, top, &found, &names, usize::MAX);
                let labels = Labels::as_named(config.view.full_paths);
                let json = render::json::render_json_owners;
                return json(
                    &t,
                    &found,
                    config.walk.mode,
                    config.view.units,
                    &labels,
                    out,
                );
            }
            owners::owners_tree(tree, top, &found, &names, config.view.lines)
        }
        Rows::Tree | Rows::OnlyFiles => {
            let roots = shown_roots(tree);
            let labels = Labels::dust(tree, &roots, config.view.full_paths);
            let collapsed = tree.dirs_matching(&config.view.collapse.0, &config.view.collapse.1);
            let rows = Shown {
                roots: &roots,
                labels: &labels,
                collapsed,
            };
            return render_rows(tree, rows, config, &config.view, view, out);
        }
    };
    let flat = ViewOptions {
        depth: None,
        lines: usize::MAX,
        only_dirs: false,
        collapse: Default::default(),
        ..config.view.clone()
    };
    let view = View {
        rows: Rows::Tree,
        ..view
    };
    let roots: Vec<NodeId> = types.roots().collect();
    let labels = Labels::as_named(flat.full_paths);
    let rows = Shown {
        roots: &roots,
        labels: &labels,
        collapsed: Vec::new(),
    };
    render_rows(&types, rows, config, &flat, view, out)
}

/// The paths given that are shown: not a second name of a directory another one walked
/// (`d ./d`), which dust leaves out too, so that one path left is shown alone as the root.
fn shown_roots(tree: &Tree) -> Vec<NodeId> {
    let all = tree.roots();
    let shown: Vec<NodeId> = all
        .clone()
        .filter(|&r| !tree.node(r).has(tree::flags::DUPLICATE))
        .collect();
    if shown.is_empty() {
        all.collect()
    } else {
        shown
    }
}
