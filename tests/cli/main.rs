//! Integration tests of the `hogs` binary. GNU du is the oracle for every size.

mod util;

mod adversarial;
mod config_file;
mod dust_flags;
mod errors;
mod export;
mod generated;
mod identity;
mod import;
mod interop;
mod output;
mod shapes;
mod sizes;
mod syscalls;
mod tui;
