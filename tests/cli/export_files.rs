//! The files an export writes, as a user sees them in the directory: the file replaced keeps
//! what the user gave it (its mode and owner), and no temporary file is left behind or
//! recorded, whatever ends the run.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use crate::interop::{ncdu, tool};
use crate::util::*;

/// A file's mode and owner, as `stat -c '%a %u:%g'` says them.
fn owner_and_mode(p: &Path) -> String {
    let m = std::fs::metadata(p).unwrap_or_else(|e| panic!("stat {}: {e}", p.display()));
    format!("{:o} {}:{}", m.mode() & 0o7777, m.uid(), m.gid())
}

/// An old file at `rel` with `mode`, owned by 65534 when we are root (who may give it).
fn old_file(env: &TestEnv, rel: &str, mode: u32) {
    std::fs::write(env.path(rel), b"OLD SCAN").expect("write the old file");
    if is_root() {
        std::os::unix::fs::chown(env.path(rel), Some(65534), Some(65534)).expect("chown");
    }
    env.chmod(rel, mode);
}

/// Issue 40, item 6: `-O FILE` over a file kept private (600, another owner) keeps it so,
/// in every format, as ncdu 1.18 does (it writes over the file in place); a new file is
/// made as `File::create` makes one.
#[test]
fn an_export_over_a_file_keeps_its_mode_and_owner() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    for mode in [0o600, 0o640, 0o604, 0o660] {
        for name in ["scan.json", "scan.ncdu", "scan.json.zst"] {
            old_file(&env, name, mode);
            let want = owner_and_mode(&env.path(name));
            env.stdout_ok(["-O", name, "d"]);
            assert_ne!(std::fs::read(env.path(name)).expect("read"), b"OLD SCAN");
            assert_eq!(
                owner_and_mode(&env.path(name)),
                want,
                "-O {name} over {mode:o}"
            );
        }
        if tool("ncdu", "-v").is_some() {
            old_file(&env, "ncdu.json", mode);
            ncdu(&env, &["-o", "ncdu.json", "d"]);
            assert_eq!(
                owner_and_mode(&env.path("scan.json")),
                owner_and_mode(&env.path("ncdu.json")),
                "hogs -O vs ncdu -o over a file of mode {mode:o}"
            );
        }
    }
    // a new file: 0666 less the umask (022 in the test process)
    env.stdout_ok(["-O", "new.json", "d"]);
    let new = std::fs::metadata(env.path("new.json")).expect("stat new.json");
    assert_eq!(new.permissions().mode() & 0o666, 0o644);
}

/// Issue 40, item 6, as a user who may not give a file away: the export over a file of
/// theirs keeps its mode (a private one stays private).
#[test]
fn an_unprivileged_export_over_a_file_keeps_its_mode() {
    if !can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    env.mkdir("mine");
    old_file(&env, "mine/scan.json", 0o600);
    if is_root() {
        std::os::unix::fs::chown(env.path("mine"), Some(65534), Some(65534)).expect("chown");
    }
    let want = owner_and_mode(&env.path("mine/scan.json"));
    let out = env.run_unprivileged(["-O", "mine/scan.json", "d"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_ne!(
        std::fs::read(env.path("mine/scan.json")).expect("read"),
        b"OLD SCAN"
    );
    assert_eq!(owner_and_mode(&env.path("mine/scan.json")), want);
    let mode = std::fs::metadata(env.path("mine/scan.json"))
        .expect("stat")
        .permissions();
    assert_eq!(mode.mode() & 0o777, 0o600);
}

/// The temporary files of exports left in `dir`.
fn leftover_temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("list the directory")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("hogs-export-"))
        .collect()
}

/// Issue 40, item 7: SIGTERM, SIGINT or SIGHUP during the second pass of a streamed binary
/// export (a file linked in two directories makes it read the first file back and write a
/// second) leaves neither temporary file, the kept file as it was, and the shell's status.
/// strace slows the second pass's reads (`pread64`, which nothing else does) so that the
/// signal lands in it; the second file's appearing says it has begun.
#[test]
fn a_signal_during_the_second_pass_leaves_no_temporary_file() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let env = TestEnv::new();
    for i in 0..300 {
        env.file(format!("t/a/f{i}"), 10);
    }
    env.mkdir("t/b");
    env.hardlink("t/a/f0", "t/b/link");
    for (sig, name) in [(15, "TERM"), (2, "INT"), (1, "HUP")] {
        for run in 0..3 {
            std::fs::write(env.path("keep.ncdu"), b"KEPT SCAN").expect("write keep.ncdu");
            let mut strace = match Command::new("strace")
                .args(["-f", "-qq", "-o", "/dev/null", "-e", "trace=pread64"])
                .args(["-e", "inject=pread64:delay_enter=300000"])
                .arg(hogs_bin())
                .args(["-O", "keep.ncdu", "t"])
                .current_dir(env.root())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
            {
                Ok(child) => child,
                Err(e) => {
                    skip!("skipped: cannot run strace ({e})");
                    return;
                }
            };
            let start = Instant::now();
            let second = |n: &String| n.ends_with("-1.tmp");
            while !leftover_temporaries(env.root()).iter().any(second) {
                assert!(
                    start.elapsed() < Duration::from_secs(30),
                    "SIG{name} run {run}: the second pass never began"
                );
                std::thread::sleep(Duration::from_millis(5));
            }
            let pids = Command::new("pgrep")
                .args(["-P", &strace.id().to_string()])
                .output()
                .expect("pgrep");
            let hogs_pid = String::from_utf8_lossy(&pids.stdout).trim().to_owned();
            let killed = Command::new("kill")
                .args([&format!("-{name}"), &hogs_pid])
                .status()
                .expect("kill");
            assert!(killed.success(), "kill -{name} {hogs_pid}");
            let status = strace.wait().expect("wait for strace");
            assert_eq!(
                status.code(),
                Some(128 + sig),
                "SIG{name} run {run}: {status:?}"
            );
            assert_eq!(
                leftover_temporaries(env.root()),
                Vec::<String>::new(),
                "SIG{name} run {run}"
            );
            let kept = std::fs::read(env.path("keep.ncdu")).expect("read keep.ncdu");
            assert_eq!(kept, b"KEPT SCAN", "SIG{name} run {run}");
        }
    }
}

/// Issue 40, item 9: an export (or a page) written inside the tree it scans records no
/// temporary file of its own, in every format and on both routes of the binary export (the
/// streamed walk, and its second pass when a file is linked in two directories).
#[test]
fn an_export_inside_the_tree_does_not_record_its_temporary_file() {
    let env = TestEnv::new();
    mixed_tree(&env, "t");
    env.hardlink("t/a/b/big", "t/z/big-again");
    for name in ["x.json", "x.json.zst", "x.ncdu", "x.html"] {
        let target = format!("t/{name}");
        let flag = if name.ends_with(".html") {
            "--html"
        } else {
            "-O"
        };
        env.stdout_ok([flag, &target, "t"]);
        let written = std::fs::read(env.path(&target)).expect("read the export");
        if name.ends_with(".html") || name.ends_with(".json") {
            let text = String::from_utf8_lossy(&written);
            let own = text.lines().filter(|l| l.contains("unfinished"));
            let own: Vec<&str> = own.collect();
            assert!(own.is_empty(), "{flag} {target} t records {own:?}");
            continue;
        }
        let mut names = Vec::new();
        all_names(&env.json(["--import", &target]), &mut names);
        assert!(names.len() > 10, "{names:?}");
        let own: Vec<&String> = names.iter().filter(|n| n.contains("unfinished")).collect();
        assert!(own.is_empty(), "-O {target} t records {own:?}");
    }
}

/// Issue 40, item 9: a full `$TMPDIR` (a small tmpfs, in a private mount namespace) is named
/// as the write that failed: the temporary export `--diff OLD.ncdu PATH` walks PATH into,
/// and the copy of a binary export read from a pipe. Exit status 1, nothing else said.
#[test]
fn a_full_tmpdir_names_the_write_that_failed() {
    if !crate::adversarial::have("unshare") {
        skip!("skipped: unshare(1) is not available");
        return;
    }
    let env = TestEnv::new();
    // an export of some 12 KiB: more than the tmpfs holds
    env.mkdir("t");
    env.bash("for i in $(seq 1 3000); do echo > t/file-with-a-long-name-$i; done");
    env.mkdir("tmp");
    env.stdout_ok(["-O", "old.ncdu", "t"]);
    let script = format!(
        r#"set -e
mount -t tmpfs -o size=8k none tmp
export TMPDIR="$PWD/tmp"
{hogs} --diff old.ncdu t > diff.out 2> diff.err && echo 0 > diff.rc || echo $? > diff.rc
cat old.ncdu | {hogs} --import - -d 0 > pipe.out 2> pipe.err && echo 0 > pipe.rc || echo $? > pipe.rc
"#,
        hogs = hogs_bin().display()
    );
    if !crate::adversarial::in_private_mounts(&env, &script, "mount a small tmpfs") {
        return;
    }
    let read = |f: &str| std::fs::read_to_string(env.path(f)).expect("read the run's output");
    let tmp = env.path("tmp");
    assert_eq!(read("diff.rc"), "1\n");
    assert_eq!(
        read("diff.err"),
        format!(
            "hogs: cannot write the temporary export of 't' in '{}' (TMPDIR): No space left on \
             device\n",
            tmp.display()
        )
    );
    assert_eq!(read("pipe.rc"), "1\n");
    assert_eq!(
        read("pipe.err"),
        format!(
            "hogs: cannot import '-': cannot keep the binary export read from a pipe in a \
             temporary file in '{}' (TMPDIR): No space left on device\n",
            tmp.display()
        )
    );
}
