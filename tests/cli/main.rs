//! Integration tests of the `hogs` binary. GNU du is the oracle for every size.

/// Says why a test did not run, past the test harness's capture (which hides `eprintln!` of
/// passing tests): a skipped case is never silent, in a terminal or in CI's log. Under CI
/// (`CI=true`) a skip is a failure: `.ci/run` installs every tool the tests need and runs as
/// root, so a test that cannot run there means something is missing, not that all is well.
macro_rules! skip {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let why = format!($($arg)*);
        if crate::util::under_ci() {
            panic!("{why} (CI=true: nothing may skip under CI)");
        }
        let _ = writeln!(std::io::stderr().lock(), "{why}");
    }};
}

mod util;

mod adversarial;
mod cold;
mod config_file;
mod damaged_exports;
mod diff;
mod diff_lazy;
mod dust_flags;
mod dust_parity;
mod errors;
mod export;
mod extents;
mod extents_views;
mod generated;
mod html;
mod html_map;
mod identity;
mod import;
mod import_trust;
mod interop;
mod layers;
mod lost_output;
mod merge;
mod merge_order;
mod ncdu_binary;
mod ncdu_lazy;
mod network;
mod output;
mod owners;
mod shapes;
mod sizes;
mod streamed_export;
mod syscalls;
mod totals;
mod tui;
