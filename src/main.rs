// hogs starts from the C `main`, not through Rust's runtime start (`lang_start`). That start
// finds the main thread's stack guard by reading and parsing /proc/self/maps and sets up
// stack-overflow handlers with an alternate signal stack, in this thread and in every thread
// spawned later: a visible part of a short run such as `hogs -d0` of an empty directory,
// where GNU du does none of it. The walk does not recurse, so a stack overflow is not a risk
// worth that (70 µs of a 1 ms `hogs -d 0`: docs/BENCHMARKS.md, "Measurements behind the code's
// design"). What the start does that hogs needs is done below: SIGPIPE ignored (a closed
// pipe is a write error the output code handles) and descriptors 0-2 kept from being reused.
//
// Only where std finds the arguments without its start: glibc hands them to std's
// `.init_array` function, macOS keeps them for `_NSGetArgv`. Elsewhere (the BSDs, musl) std
// learns them in its start only, and `std::env::args` would be empty: there hogs starts as
// any Rust program.
#![cfg_attr(
    any(all(target_os = "linux", target_env = "gnu"), target_vendor = "apple"),
    no_main
)]

use hogs::app;
use hogs::config::file::{parse_args, ArgsError};
use hogs::config::{Config, Mode};
use hogs::error::{say, ExitStatus};

#[cfg(any(all(target_os = "linux", target_env = "gnu"), target_vendor = "apple"))]
#[allow(unsafe_code)] // the C entry point: nothing else calls it
#[no_mangle]
pub extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    process_start();
    // std::process::exit flushes stdout (returning from the C main would not)
    std::process::exit(run())
}

#[cfg(not(any(all(target_os = "linux", target_env = "gnu"), target_vendor = "apple")))]
fn main() {
    process_start();
    std::process::exit(run())
}

/// What Rust's runtime start does that hogs relies on.
#[allow(unsafe_code)] // two plain libc calls on values owned by this function
fn process_start() {
    // a descriptor 0-2 that is closed would be handed out by the next open: a directory
    // opened by the walk would become "stdout" (as std does: open /dev/null in its place)
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: `fds` is a valid array of three pollfd for the duration of the call
    if unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) } >= 0 {
        for p in fds {
            if p.revents & libc::POLLNVAL != 0 {
                if p.fd == 1 {
                    hogs::sys::note_stdout_closed();
                }
                // the lowest free descriptor is the closed one; kept open for the run
                let _ = std::fs::File::options()
                    .read(true)
                    .write(true)
                    .open("/dev/null")
                    .map(std::mem::forget);
            }
        }
    }
    // SAFETY: setting a signal's disposition to SIG_IGN installs no handler code
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

fn run() -> i32 {
    let cli = match parse_args(std::env::args_os().collect()) {
        Ok(cli) => cli,
        // usage errors, --help and --version: clap prints them and exits (2 for errors)
        Err(ArgsError::Usage(e)) => e.exit(),
        Err(ArgsError::Config(e)) => {
            say(e);
            return 1;
        }
    };
    let config = match Config::from_cli(cli) {
        Ok(c) => c,
        Err(e) => {
            say(e);
            return 1;
        }
    };
    for note in &config.notes {
        say(note);
    }
    if config.stack_size_ignored && !matches!(config.mode, Mode::Interactive(_)) {
        say("note: --stack-size is ignored (the walk does not recurse: no big stack needed)");
    }
    let status = match &config.mode {
        Mode::Print(view) => app::print::run(&config, *view),
        Mode::Export(target) => app::export::run(&config, target),
        // on demand where both sides allow, else loaded
        Mode::Diff { diff, json } => app::lazy_diff::run(&config, diff, *json)
            .unwrap_or_else(|| app::diff::run(&config, diff, *json)),
        Mode::Interactive(ia) => hogs::tui::run(&config, ia),
        Mode::Html(html) => app::html::run(&config, html),
        Mode::History(run) => app::history::run(&config, run),
    };
    // --exit-zero: what could not be read was named; the status keeps dust's 0
    if config.exit_zero && status == ExitStatus::Incomplete {
        return 0;
    }
    if status == ExitStatus::ReaderGone {
        die_of_sigpipe();
    }
    status as i32
}

/// Ends the process as du and ncdu end when the reader of their output is gone: killed by
/// SIGPIPE, which hogs ignores while it runs (its writes see EPIPE and stop in order). A
/// parent that waits sees the signal (`xargs` stops, a shell says 141).
#[allow(unsafe_code)] // two plain libc calls: the default disposition, then the signal
fn die_of_sigpipe() {
    // SAFETY: SIG_DFL installs no handler code; raise sends the signal to this thread
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
}
