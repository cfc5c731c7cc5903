//! Output that did not reach its reader must not look written: data cut short by a reader
//! that closed the pipe, a stdout closed before the start, an export with nothing to scan or
//! nowhere to go, the temporary file of a killed export.

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::*;

/// A tree whose every output (bars, JSON, an export) is far bigger than a pipe buffer.
fn big_output_tree(env: &TestEnv) {
    env.mkdir("d");
    env.bash(
        "cd d && for i in $(seq 1 3000); do : > \"file-with-a-rather-long-name-number-$i\"; done",
    );
}

/// Runs hogs, reads the first 100 bytes of its stdout and closes the pipe (`| head -c 100`).
fn read_100_then_close(env: &TestEnv, args: &[&str]) -> Output {
    let mut child = Command::new(hogs_bin())
        .args(args)
        .current_dir(env.root())
        .env("XDG_CONFIG_HOME", env.path("no-such-config-dir"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hogs");
    {
        let mut stdout = child.stdout.take().expect("stdout");
        let mut buf = [0u8; 100];
        stdout.read_exact(&mut buf).expect("read 100 bytes");
    }
    child.wait_with_output().expect("wait for hogs")
}

/// JSON, an export on stdout and the JSON of a comparison cut short by the reader end as du
/// and ncdu end: killed by SIGPIPE (141 in a shell, which `set -o pipefail` reports), silently.
#[test]
fn data_cut_short_by_a_closed_pipe_dies_of_sigpipe() {
    let env = TestEnv::new();
    env.mkdir("d");
    let saved = env.run(["-O", "old.json", "d"]);
    assert_eq!(saved.status.code(), Some(0), "save the old scan: {saved:?}");
    big_output_tree(&env);
    for args in [
        &["-j", "d"][..],
        &["-O", "-", "d"],
        &["--diff", "old.json", "-j", "-n", "100000", "d"],
    ] {
        let out = read_100_then_close(&env, args);
        assert_eq!(
            out.status.signal(),
            Some(libc::SIGPIPE),
            "hogs {args:?} | head -c 100: {:?}, stderr: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stderr.is_empty(), "hogs {args:?}: {out:?}");
    }
    // a view for a person ends quietly, as dust's: `hogs | head` has what it wanted
    let out = read_100_then_close(&env, &["-R", "-n", "100000", "d"]);
    assert_eq!(out.status.code(), Some(0), "hogs -R d | head: {out:?}");
    assert!(out.stderr.is_empty(), "hogs -R d | head: {out:?}");
}

/// hogs run with descriptor 1 closed (`hogs ARGS >&-`).
fn run_with_stdout_closed(env: &TestEnv, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg("exec >&-; exec \"$0\" \"$@\"")
        .arg(hogs_bin())
        .args(args)
        .current_dir(env.root())
        .env("XDG_CONFIG_HOME", env.path("no-such-config-dir"))
        .output()
        .expect("run hogs with stdout closed")
}

/// With stdout closed nothing written there reached anyone: a write error and exit 1, as du
/// says, in every mode that writes on stdout; an export to a file does not use it.
#[test]
fn a_closed_stdout_is_a_write_error() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    for args in [&["d"][..], &["-R", "d"], &["-j", "d"], &["-O", "-", "d"]] {
        let out = run_with_stdout_closed(&env, args);
        assert_eq!(out.status.code(), Some(1), "hogs {args:?} >&-: {out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "hogs: write error: Bad file descriptor\n",
            "hogs {args:?} >&-"
        );
    }
    let out = run_with_stdout_closed(&env, &["-O", "scan.json", "d"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "hogs -O scan.json d >&-: {out:?}"
    );
    let saved = std::fs::read(env.path("scan.json")).expect("the export");
    serde_json::from_slice::<serde_json::Value>(&saved).expect("the export is JSON");
}

/// Nothing to scan but empty names is an error (du: "invalid zero-length file name"), not an
/// empty success; the file given to -O is left as it was.
#[test]
fn only_empty_paths_is_an_error() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    std::fs::write(env.path("out.json"), b"the old export").expect("write");
    std::fs::write(env.path("list0"), b"\0").expect("write");
    for args in [
        &["-j", ""][..],
        &["", ""],
        &["-O", "out.json", ""],
        &["--files0-from", "list0"],
    ] {
        let out = env.run(args);
        assert_eq!(out.status.code(), Some(1), "hogs {args:?}: {out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "hogs: invalid zero-length file name: nothing to scan\n",
            "hogs {args:?}"
        );
        assert!(out.stdout.is_empty(), "hogs {args:?}: {out:?}");
    }
    let kept = std::fs::read(env.path("out.json")).expect("read");
    assert_eq!(kept, b"the old export", "out.json untouched");
    let mut names: Vec<_> = std::fs::read_dir(env.root())
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["d", "list0", "out.json"], "no temporary file left");
}

/// An export whose directory takes no new file says so, not just the errno of the attempt.
#[test]
fn an_export_into_a_directory_that_takes_no_file_says_so() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let out = env.run(["-O", "/proc/version", "d"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot write '/proc/version': cannot create a file beside it in '/proc' \
         (an export replaces the file whole): No such file or directory\n"
    );
}

/// The temporary file of an export killed with SIGKILL is named after the file it would have
/// replaced, and the next export to that file removes it; one of a live process stays.
#[test]
fn a_killed_exports_temporary_file_is_named_and_removed_next_time() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.fifo("in.fifo");
    // the import waits for a writer on the FIFO, with the temporary file already made
    let mut child = Command::new(hogs_bin())
        .args(["--import", "in.fifo", "-O", "scan.json"])
        .current_dir(env.root())
        .env("XDG_CONFIG_HOME", env.path("no-such-config-dir"))
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn hogs");
    let temp_files = || -> Vec<String> {
        std::fs::read_dir(env.root())
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    };
    let start = Instant::now();
    while temp_files().is_empty() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("SIGKILL hogs");
    child.wait().expect("reap hogs");
    let left = temp_files();
    let pid = child.id();
    assert_eq!(
        left,
        [format!(".scan.json.unfinished-hogs-export-{pid}-0.tmp")],
        "what the killed export left"
    );
    let live = format!(
        ".scan.json.unfinished-hogs-export-{}-0.tmp",
        std::process::id()
    );
    std::fs::write(env.path(&live), b"").expect("write");
    let out = env.run(["-O", "scan.json", "d"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(temp_files(), [live], "the dead process's file is gone");
    let saved = std::fs::read(env.path("scan.json")).expect("the export");
    serde_json::from_slice::<serde_json::Value>(&saved).expect("the export is JSON");
}
