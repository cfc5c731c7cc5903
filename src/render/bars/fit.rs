//! How the names and the bars share the width, as dust shares it (display.rs `draw_it`): the
//! names take what the longest needs and the bars the rest; where a bar of one cell no longer
//! fits there are no bars, and the names are cut to the width with `..`. Where dust cannot
//! draw at all (it panics), hogs's own narrow layout.

/// Columns taken by `│`, `│`, and ` 100%`.
const BAR_FRAME: usize = 7;
/// Narrower than this, bars say nothing: drop them (hogs's narrow layout).
const MIN_BAR: usize = 4;

/// How the guides and names are laid out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Names {
    /// dust's layout, wherever dust can draw one: the whole guides, then the name, padded to
    /// `longest` columns (with the guides and the blank after them) when `padded`, else cut
    /// to them with `..`.
    Dust { longest: usize, padded: bool },
    /// Too narrow for dust, which panics there: names cut with `…` and the outer guides
    /// elided, in `label_w` columns.
    Elided { label_w: usize },
}

/// The layout of rows in `width` columns, `left` of them before the guides (the sizes and
/// their blank), rows of at most `longest` columns of guides, blank and name
/// (`2 * depth + 4 + name`), drawn at most `deepest` levels below the top. `bars_asked`: not
/// `-b` (dust then pads the names, even for `-m`); `bars_drawn`: and the sizes are shares of a
/// whole (not `-m`'s times). Returns the names' layout and the bars' width (with their blank).
pub(super) fn fit(
    width: usize,
    left: usize,
    longest: usize,
    deepest: usize,
    bars_asked: bool,
    bars_drawn: bool,
) -> (Names, usize) {
    match dust_names(width, left, longest, deepest, bars_asked) {
        Some(Names::Dust { longest, padded }) if padded && bars_drawn => {
            // what dust leaves of the width: its bar, then a blank
            let bar_w = width - left - longest - BAR_FRAME;
            (Names::Dust { longest, padded }, bar_w)
        }
        Some(names) => (names, 0),
        None => elided_names(width.saturating_sub(left), longest, bars_drawn),
    }
}

/// dust's layout of the names; names are padded when dust would draw bars (`bars`, and a bar
/// of a cell fits). `None` where dust cannot draw: it panics when the sizes leave no room, or,
/// without bars, when the deepest guides leave less than two columns of name.
fn dust_names(
    width: usize,
    left: usize,
    longest: usize,
    deepest: usize,
    bars: bool,
) -> Option<Names> {
    // dust's `allowed_width`: what the sizes and their blank leave, less one
    let allowed = width.checked_sub(left + 1).filter(|&a| a > 0)?;
    let longest = longest.min(allowed);
    if bars && longest + BAR_FRAME < allowed {
        // then every row fits whole
        return Some(Names::Dust {
            longest,
            padded: true,
        });
    }
    (2 * deepest + 5 <= longest).then_some(Names::Dust {
        longest,
        padded: false,
    })
}

/// Where dust cannot draw: names in at most `after_size` columns, and bars (when `bars`) of
/// at least a quarter of the room, cutting names rather than the bars.
fn elided_names(after_size: usize, longest: usize, bars: bool) -> (Names, usize) {
    let mut label_w = longest.min(after_size).max(1);
    let mut bar_w = 0;
    if bars && after_size > BAR_FRAME + MIN_BAR {
        let room = after_size - BAR_FRAME;
        let min_bar = (room / 4).max(MIN_BAR);
        label_w = longest.min(room - min_bar).max(1);
        bar_w = room - label_w;
    }
    (Names::Elided { label_w }, bar_w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_shared_as_dust_shares_them() {
        // `4.0Ki ` (6 columns) and a row of 9 in 70 columns: dust's allowed width is 63,
        // its bar 63 - 9 - 7 = 47 cells, then the blank
        let padded = Names::Dust {
            longest: 9,
            padded: true,
        };
        assert_eq!(fit(70, 6, 9, 2, true, true), (padded, 48));
        // -m: padded as if bars followed, none drawn
        assert_eq!(fit(70, 6, 9, 2, true, false), (padded, 0));
        // a bar of one cell no longer fits: names left whole, not padded
        let whole = Names::Dust {
            longest: 9,
            padded: false,
        };
        assert_eq!(fit(23, 6, 9, 2, true, true), (whole, 0));
        // the longest row is cut to the allowed width
        let cut = Names::Dust {
            longest: 13,
            padded: false,
        };
        assert_eq!(fit(20, 6, 40, 2, true, true), (cut, 0));
    }

    #[test]
    fn hogs_draws_where_dust_panics() {
        // no room for the sizes
        assert!(matches!(
            fit(7, 6, 9, 0, true, true).0,
            Names::Elided { .. }
        ));
        // the guides of depth 4 take 11 columns and dust wants two of name after them: 12
        // are allowed in 19 columns, 13 in 20
        assert!(matches!(
            fit(19, 6, 40, 4, true, true).0,
            Names::Elided { .. }
        ));
        assert!(matches!(
            fit(20, 6, 40, 4, true, true).0,
            Names::Dust { .. }
        ));
    }
}
