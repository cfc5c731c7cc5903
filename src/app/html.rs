//! `hogs --html FILE [PATH...]`: the scan (a walk or `--import`), its owners (`--by-owner`)
//! or a comparison (`--diff OLD`) written as one self-contained HTML page
//! ([`crate::render::html`]). The file is replaced only once the page is whole.

use std::io::{self, BufWriter, Write};
use std::os::unix::ffi::OsStrExt;

use rustc_hash::FxHashMap;

use crate::config::{Config, HtmlReport, Rows};
use crate::diff::select::DiffSelection;
use crate::error::{fail, ExitStatus};
use crate::export;
use crate::owners;
use crate::render::escape::shown;
use crate::render::html::source::{DiffSource, ScanSource};
use crate::render::html::{render_html, Colours, Facts};
use crate::render::labels::Labels;
use crate::settle::Totals;
use crate::tree::{self, NodeId, Selection, Tree, TOTAL};
use crate::vocab::UnitStyle;

/// Owners the legend names one by one; the rest share one colour.
const OWNER_COLOURS: usize = 12;

/// Opens the target, scans (or loads and compares), writes the page.
pub fn run(config: &Config, html: &HtmlReport) -> ExitStatus {
    let err_tty = config.terminals.stderr;
    let sink = match super::open_target(&html.file, err_tty) {
        Ok(w) => w,
        Err(status) => return status,
    };
    let mut out = BufWriter::with_capacity(64 * 1024, sink);
    let (written, status) = match &html.diff {
        Some(opts) => match super::diff::matched(config, opts) {
            Ok(sides) => {
                let written = diff_page(config, &sides, &mut out);
                (written, sides.status)
            }
            Err(status) => return status,
        },
        None => match scan_page(config, html.rows, &mut out) {
            Ok(written) => written,
            Err(status) => return status,
        },
    };
    // the file is replaced only now, complete (see `export::ExportSink`)
    let written = written
        .and_then(|()| out.into_inner().map_err(io::IntoInnerError::into_error))
        .and_then(export::ExportSink::finish);
    status.max(super::write_status(
        written,
        Some(&html.file),
        true,
        err_tty,
    ))
}

/// The facts every page's header gives. `extents`: the sizes are counted by extents (a walk
/// with `--extents`, or a saved scan that was).
fn facts(
    config: &Config,
    colours: Colours,
    total_top: bool,
    extents: bool,
    old_total: Option<u64>,
) -> Facts {
    let mut notes = Vec::new();
    let paths = match &config.import {
        Some(imports) => {
            let files = imports.files.iter().map(|f| f.as_bytes().to_vec());
            notes.push(format!("read from {} saved scan(s)", imports.files.len()));
            files.collect()
        }
        None => config.paths.iter().map(|p| p.as_bytes().to_vec()).collect(),
    };
    if config.filters.is_active() {
        notes.push("filtered: only the entries the filters kept are counted".into());
    }
    if extents && config.import.is_some() {
        notes.push("sizes by extents, as the saved scan counted them (--extents)".into());
    }
    if let Some(diff) = config.mode.diff() {
        let old = String::from_utf8_lossy(diff.old.as_bytes());
        notes.push(format!("compared with the scan saved in {old}"));
    }
    Facts {
        paths,
        when: export::now(),
        mode: config.walk.mode,
        extents,
        si: config.view.units == UnitStyle::HumanSi,
        total_top,
        old_total,
        colours,
        notes,
    }
}

/// The scan's page: its tree, coloured by kind or (`--by-owner`) by owner.
fn scan_page(
    config: &Config,
    rows: Rows,
    out: &mut dyn Write,
) -> Result<(io::Result<()>, ExitStatus), ExitStatus> {
    let (scan, status) = super::scan::load(config)?;
    let tree = super::scan::settled(config, scan.tree, Totals::Summed, true, false);
    let all = tree.roots();
    let mut roots: Vec<NodeId> = all
        .clone()
        .filter(|&r| !tree.node(r).has(tree::flags::DUPLICATE))
        .collect();
    if roots.is_empty() {
        roots = all.collect();
    }
    let Some(&first) = roots.first() else {
        return Ok((Ok(()), status)); // nothing could be read: said above
    };
    let top = if roots.len() == 1 { first } else { TOTAL };
    let labels = Labels::dust(&tree, &roots, false);
    let view = &config.view;
    let sel = Selection {
        mode: config.walk.mode,
        max_rows: usize::MAX,
        max_depth: None,
        min_size: view.min_size,
        only_dirs: view.only_dirs,
        hide_empty: config.filters.hides_empty_dirs(),
        collapsed: tree.dirs_matching(&view.collapse.0, &view.collapse.1),
        ties: labels.ties(&tree),
    };
    let owners = match rows {
        Rows::Owners => Some(owner_legend(config, &tree, top)?),
        _ => None,
    };
    let colours = match &owners {
        Some((legend, others, _)) => Colours::Owner(legend.clone(), others.clone()),
        None => Colours::Kind,
    };
    let src = ScanSource {
        tree: &tree,
        top,
        sel: &sel,
        labels: &labels,
        owners: owners.as_ref().map(|(legend, _, index)| {
            (
                index,
                u32::try_from(legend.len().saturating_sub(1)).unwrap_or(0),
            )
        }),
    };
    let extents = !tree.sharing.is_empty();
    let facts = facts(config, colours, top == TOTAL, extents, None);
    let written = render_html(&src, &facts, out);
    // the process exits next: unmapping the tree would only cost time (a TLB flush on every
    // CPU that ran a pool thread, as in print.rs)
    std::mem::forget(tree);
    Ok((written, status))
}

/// `--by-owner`: the legend (each owner's name and usage, the smallest ones summed as
/// "others"), the names of the owners summed as others, and each uid's colour: its place in
/// the legend, or past its end the place of its name among the others' (drawn in the colour
/// of "others", named by its own name).
#[allow(clippy::type_complexity)]
fn owner_legend(
    config: &Config,
    tree: &Tree,
    top: NodeId,
) -> Result<(Vec<(Vec<u8>, u64)>, Vec<Vec<u8>>, FxHashMap<u32, u32>), ExitStatus> {
    let mode = config.walk.mode;
    let Some(found) = owners::owners_of(tree, top, mode) else {
        let file = config.import.as_ref().and_then(|i| i.files.first());
        let file = file.map_or(String::new(), |f| {
            format!(" '{}'", shown(f.as_bytes(), config.terminals.stderr))
        });
        return Err(fail(format!(
            "cannot show owners: the scan{file} records none (export it with --export-extended)"
        )));
    };
    let names = owners::UserNames::load();
    let named = if found.len() > OWNER_COLOURS {
        OWNER_COLOURS - 1
    } else {
        found.len()
    };
    let mut legend: Vec<(Vec<u8>, u64)> = found[..named]
        .iter()
        .map(|u| (names.name(u.uid), u.size(mode)))
        .collect();
    let others: Vec<Vec<u8>> = found[named..].iter().map(|u| names.name(u.uid)).collect();
    if !others.is_empty() {
        let rest = found[named..].iter().map(|u| u.size(mode)).sum();
        legend.push((format!("{} others", others.len()).into_bytes(), rest));
    }
    let index = found
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let at = if i < named {
                i
            } else {
                legend.len() + i - named
            };
            (u.uid, u32::try_from(at).unwrap_or(u32::MAX))
        })
        .collect();
    Ok((legend, others, index))
}

/// The comparison's page: every entry there now and what is gone, coloured by growth.
fn diff_page(config: &Config, sides: &super::diff::Matched, out: &mut dyn Write) -> io::Result<()> {
    let diff = sides.matching.with(&sides.old, &sides.new);
    let view = &config.view;
    let sel = DiffSelection {
        max_rows: usize::MAX,
        max_depth: None,
        min_change: view.min_size,
        only_dirs: view.only_dirs,
        hide_empty: config.filters.hides_empty_dirs(),
    };
    let src = DiffSource {
        diff: &diff,
        sel: &sel,
        top_name: &sides.shown_name,
    };
    render_html(
        &src,
        &facts(
            config,
            Colours::Growth,
            false,
            config.extents,
            Some(diff.old_size(diff.top())),
        ),
        out,
    )
}
