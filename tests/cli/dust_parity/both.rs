//! Both binaries on the same arguments and environment, for the parity tests that compare
//! what they print byte for byte.

use std::path::Path;

use crate::util::*;

/// Both tools' stdout with these arguments and environment, as text; `None` when dust
/// panicked (it does when the width leaves no room for the sizes or for the deepest guides:
/// hogs then draws its own narrow layout, which nothing here compares).
pub(super) fn run_both(
    env: &TestEnv,
    bin: &Path,
    args: &[&str],
    vars: &[(&str, &str)],
) -> Option<(String, String)> {
    let theirs = super::dust_command(env, bin, args)
        .envs(vars.iter().copied())
        .output()
        .expect("run dust");
    if theirs.status.code() == Some(101) {
        return None;
    }
    let ours = env
        .hogs()
        .args(args)
        .envs(vars.iter().copied())
        .output()
        .expect("run hogs");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    Some((text(ours.stdout), text(theirs.stdout)))
}
