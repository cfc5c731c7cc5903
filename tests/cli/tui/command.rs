//! `hogs i` as a command: how it is chosen, and what it does without a terminal.

use crate::util::TestEnv;

#[test]
fn without_a_terminal_it_exits_1_with_a_clear_message() {
    let env = TestEnv::new();
    env.file("t/a", 10);
    for name in ["i", "interactive"] {
        let out = env.hogs().args([name, "t"]).output().expect("run hogs");
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.trim_end(),
            "hogs: interactive mode needs a terminal: stdin is not one",
            "{name}"
        );
    }
}

#[test]
fn a_directory_named_i_is_reachable_as_dot_slash_i() {
    let env = TestEnv::new();
    env.file("i/inside", 8192);
    let out = env.stdout_ok(["-P", "./i"]);
    assert!(String::from_utf8_lossy(&out).contains("inside"));
    // plain `i` is the interactive view (which refuses a pipe)
    let out = env.run(["i"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("interactive mode needs a terminal"));
}

#[test]
fn interactive_only_flags_are_refused_elsewhere() {
    let env = TestEnv::new();
    env.file("t/a", 10);
    for flag in ["--no-delete", "--print-marked"] {
        let out = env.run([flag, "t"]);
        assert_eq!(out.status.code(), Some(1), "{flag}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(flag) && err.contains("hogs i"), "{err}");
    }
}

/// `hogs i --import FILE` shows a saved scan: the `i` names the view, so it is no PATH
/// clashing with --import; a real PATH still is.
#[test]
fn import_goes_with_the_interactive_view_not_with_a_path() {
    let env = TestEnv::new();
    env.file("t/a", 10);
    let out = env.run(["-O", "scan.json", "t"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // past the arguments, to the terminal check (no terminal here)
    let out = env.run(["i", "--import", "scan.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("interactive mode needs a terminal"),
        "{out:?}"
    );
    // a usage error, as clap's own conflicts are
    let out = env.run(["--import", "scan.json", "t"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--import shows a saved scan: no PATH (nor --files-from) goes with it"),
        "{out:?}"
    );
    let out = env.run(["i", "--import", "scan.json", "t"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
