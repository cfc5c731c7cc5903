//! How a view is drawn: decided by `config`, read by every renderer. Which view is drawn is
//! the run's `config::Mode`, not an option here.

use crate::vocab::{TimeField, UnitStyle};

/// What the output looks like.
#[derive(Clone, Debug)]
pub struct ViewOptions {
    /// Deepest level shown (0 = only the roots). `None`: no limit.
    pub depth: Option<usize>,
    /// Most rows shown below the root (the one path, or "(total)") in the bars view, as
    /// dust's `-n` counts them: the root's row is one more. `usize::MAX`: no limit.
    pub lines: usize,
    /// Root first, biggest at the top.
    pub reverse: bool,
    /// Show only entries bigger than this (in the mode's unit), as dust's `-z`.
    pub min_size: Option<u64>,
    pub bars: bool,
    pub bars_on_right: bool,
    pub color: bool,
    pub full_paths: bool,
    pub only_dirs: bool,
    pub width: usize,
    /// `--skip-total`: the top row (the total, or the one path given) is laid out and
    /// measured but not drawn; its children are the top rows, as dust draws them.
    pub skip_total: bool,
    /// `--dim`: tree guides and bars faint when colouring.
    pub dim: bool,
    /// `-m`: which time the sizes are (the walk keeps access and change times for it).
    pub filetime: Option<TimeField>,
    /// Directories shown without their contents (`--collapse`): names anywhere, or paths.
    pub collapse: (Vec<Vec<u8>>, Vec<Vec<u8>>),
    pub units: UnitStyle,
    /// Names go to a terminal: escape everything a terminal could interpret.
    pub to_terminal: bool,
}
