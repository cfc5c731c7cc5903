//! The adversarial filesystem suite (issue 4): every case of the hardening list, GNU du as the
//! oracle where it applies. Cases that need a privilege, a namespace or a tool that is missing
//! print `skipped: <reason>` to stderr and return; CI (.ci/run, as root) runs them all.
//!
//! | case | what | tests |
//! |---|---|---|
//! | 1 | nonexistent / empty arguments | `errors::nonexistent_path_among_valid_ones`, `args::empty_argument_among_valid_ones` |
//! | 2 | same path twice, nested, aliases | `sizes::overlapping_arguments`, `args::aliases_count_each_inode_once` |
//! | 3 | names as dust prints them, `/` | `args::names_printed_as_dust_prints_them`, `args::root_slash_never_doubled` |
//! | 4 | symlink / FIFO / device arguments | `args::symlink_argument_followed`, `args::fifo_and_device_arguments_not_opened` |
//! | 5 | invalid option values | `errors::invalid_values`, `args::usage_errors_exit_2` |
//! | 6 | cwd unreadable or deleted | `args::working_directory_gone_or_unreadable` |
//! | 7 | unreadable directories | `errors::unreadable_directory`, `traversal::read_without_search_permission` |
//! | 8 | entries vanishing mid-walk | `traversal::churn_while_walking`, `vanish::*` |
//! | 9 | dangling links, -L loops, ELOOP | `traversal::dangling_and_looping_links` |
//! | 10 | `DT_UNKNOWN` | `traversal::dt_unknown_filesystem` |
//! | 11 | 20,000-level chain | `shapes::deep_chain` |
//! | 12 | 1M entries in one directory | `traversal::million_entries_one_directory` |
//! | 13 | `ulimit -n 64`, 1,500 arguments | `traversal::few_file_descriptors`, `traversal::many_arguments` |
//! | 14 | `-T 1` = `-T 8` | `traversal::thread_count_never_changes_output` (+ `shapes::threads_*`) |
//! | 15 | `-x` across real mounts | `traversal::one_filesystem_with_a_tmpfs_mount` |
//! | 16 | /proc | `traversal::proc_is_stat_only` |
//! | 17 | hard links in all modes | `sizes::hard_links_*`, `counting::hard_links_every_mode_and_argument_order` |
//! | 18 | 8 GiB sparse file | `counting::sparse_8gib_exact` |
//! | 19 | `-d` / `-z` | `counting::depth_limits_printing_not_counting`, `counting::min_size_boundary_included` |
//! | 20 | non-UTF-8 names | `sizes::non_utf8_names`, `names::non_utf8_raw_when_piped_escaped_on_terminal` |
//! | 21 | control, bidi, zero-width, wide names | `output::control_characters_in_names`, `names::*` |
//! | 22 | broken pipe, /dev/full | `errors::broken_pipe_*`, `lost_output::*`, `errors::dev_full_*` |
//! | 23 | not a terminal, `NO_COLOR` | `output::no_escapes_when_not_a_terminal`, `names::no_color_on_a_terminal` |

mod args;
mod counting;
mod names;
mod traversal;
mod vanish;

use std::process::{Command, Output, Stdio};

/// Is `tool` runnable (`tool --version` succeeds)?
pub fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Stderr as lines.
pub fn err_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs `cmd` in a pseudo-terminal with script(1) and returns what the terminal received
/// (stdout and stderr both go to the terminal).
pub fn in_terminal(cwd: &std::path::Path, cmd: &str, env: &[(&str, &str)]) -> Option<Vec<u8>> {
    if !have("script") {
        skip!("skipped: script(1) is not available for a pseudo-terminal");
        return None;
    }
    let mut c = Command::new("script");
    c.args(["-qec", cmd, "/dev/null"])
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    // script -e passes the command's exit status on; callers check what they need
    let out = c.output().expect("run script");
    Some(out.stdout)
}

/// The open calls of `hogs ARGS` as strace(1) logs them, or None (with the reason printed)
/// when strace is missing.
pub fn traced_opens(env: &crate::util::TestEnv, args: &[&str]) -> Option<String> {
    if !have("strace") {
        skip!("skipped (strace part): strace is not available");
        return None;
    }
    let log = env.path("trace");
    let out = Command::new("strace")
        .args(["-f", "-e", "trace=open,openat,openat2", "-o"])
        .arg(&log)
        .arg(crate::util::hogs_bin())
        .args(args)
        .current_dir(env.root())
        .output()
        .expect("run strace");
    assert!(out.status.code().is_some(), "strace hogs {args:?}: {out:?}");
    Some(std::fs::read_to_string(&log).expect("read the strace log"))
}

/// Runs a bash `script` in a private mount namespace (`unshare -m`; as a user, `-rm`) in the
/// test's directory, so its mounts vanish with it. False (with `what` and the reason printed
/// as a skip) when this machine does not allow it.
pub fn in_private_mounts(env: &crate::util::TestEnv, script: &str, what: &str) -> bool {
    let ns: &[&str] = if crate::util::is_root() {
        &["-m"]
    } else {
        &["-rm"]
    };
    let out = Command::new("unshare")
        .args(ns)
        .args(["--propagation", "private", "bash", "-c", script])
        .current_dir(env.root())
        .output()
        .expect("run unshare");
    if !out.status.success() {
        skip!(
            "skipped: cannot {what} in a private mount namespace here: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    out.status.success()
}
