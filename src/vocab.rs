//! The vocabulary every layer shares: plain values that import nothing of hogs, so the
//! lowest modules (`sys`, `tree`, `units`) can name them without reaching up to `config`.

/// What a node's "size" means in every view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SizeMode {
    /// Allocated blocks (`st_blocks * 512`), as `du -B1`.
    Disk,
    /// File lengths (`st_size`), as `du -b`.
    Apparent,
    /// Number of inodes, as `du --inodes`.
    Count,
    /// The newest time (`-m`: modification, access or change) in the subtree, in seconds
    /// since the epoch: biggest is most recent.
    Time,
}

/// Which of an entry's times (`-m`, `-M`/`-A`/`-y`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeField {
    Modified,
    Accessed,
    Changed,
}

/// How the size column is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnitStyle {
    /// Short human units in powers of 1024 (`4.0K`, `12M`), dust's default.
    HumanIec,
    /// Short human units in powers of 1000.
    HumanSi,
    /// Exact number.
    Plain,
    /// A fixed unit: the divisor and its suffix.
    Fixed(u64, &'static str),
}

/// `a/b//` → `a/b`, but `/` stays `/`.
pub fn trim_trailing_slashes(p: &[u8]) -> &[u8] {
    let mut end = p.len();
    while end > 1 && p[end - 1] == b'/' {
        end -= 1;
    }
    &p[..end]
}
