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
