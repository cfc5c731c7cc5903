//! The rows of a view of any tree (the loaded scan, or a binary export read on demand):
//! the tree of bars, `-R`'s columns or `-j`'s JSON, of the tree or of `-F`'s files.

use std::io::{self, Write};

use crate::config::{Config, Form, Rows, View};
use crate::render::bars::{flat_rows, BarsView};
use crate::render::color::Palette;
use crate::render::labels::Labels;
use crate::render::{self, ViewOptions};
use crate::tree::{biggest_files, select_rows, Row, Selection, TreeView};

/// What of a tree a view shows: below which paths given, named how, with which directories
/// collapsed (sorted).
pub struct Shown<'a, I> {
    pub roots: &'a [I],
    pub labels: &'a Labels<I>,
    pub collapsed: Vec<I>,
}

/// Writes the tree or `-F`'s files of `tree` below `shown.roots` as `opts` say (`view.rows`
/// is not [`Rows::FileTypes`]: that is a tree of its own, made by `print::render_view`).
pub fn render_rows<T: TreeView>(
    tree: &T,
    shown: Shown<'_, T::Id>,
    config: &Config,
    opts: &ViewOptions,
    view: View,
    out: &mut dyn Write,
) -> io::Result<()> {
    let Shown {
        roots,
        labels,
        collapsed,
    } = shown;
    if roots.is_empty() {
        return Ok(());
    }
    // one top: the path given, or "(total)" above several. --skip-total lays it out all the
    // same (its name and size are in the columns' widths, the rows below it are chosen as
    // they would be) and the renderers leave its row out, as dust draws it
    let top = if roots.len() == 1 {
        roots[0]
    } else {
        tree.total()
    };
    // below a "(total)" line the paths themselves are one level down
    let extra = usize::from(top == tree.total());
    let sel = Selection {
        mode: config.walk.mode,
        // -n counts the rows below the top as dust does: the top's row is one more, and so
        // is --extents's header line (a line of labels, not an entry; the default -n leaves
        // ten lines of the terminal free)
        max_rows: opts.lines.saturating_add(1),
        max_depth: opts.depth.map(|d| d + extra),
        min_size: opts.min_size,
        only_dirs: opts.only_dirs,
        hide_empty: config.filters.hides_empty_dirs(),
        collapsed,
        ties: labels.ties(tree),
    };
    if view.form == Form::Json && view.rows == Rows::OnlyFiles {
        // every file: -n does not apply to -j (docs/JSON.md)
        let all = Selection {
            max_rows: usize::MAX,
            ..sel.clone()
        };
        let files = biggest_files(tree, top, &all);
        let json = render::json::render_json_files;
        return json(tree, top, &files, sel.mode, opts.units, labels, out);
    }
    if view.form == Form::Json {
        return render::json::render_json(tree, top, &sel, opts.units, labels, out);
    }
    let palette = opts.color.then(Palette::from_env);
    let lines = |opts: &ViewOptions, rows: &[Row<T::Id>], out: &mut dyn Write| match view.form {
        Form::ScreenReader => {
            render::reader::render_reader(tree, rows, config.walk.mode, opts, labels, out)
        }
        _ => BarsView {
            opts,
            mode: config.walk.mode,
            palette: palette.as_ref(),
            labels,
        }
        .render(tree, rows, out),
    };
    if view.rows == Rows::OnlyFiles {
        let files = biggest_files(
            tree,
            top,
            &Selection {
                max_rows: sel.max_rows.saturating_sub(1),
                ..sel.clone()
            },
        );
        return lines(opts, &flat_rows(top, &files), out);
    }
    let rows = select_rows(tree, &[top], &sel);
    lines(opts, &rows, out)
}
