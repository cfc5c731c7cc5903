//! The config file: where it is found, the command line overriding it both ways, and
//! errors that name the file, line and key.

use std::path::Path;

use crate::util::*;

/// Writes `XDG/hogs/config.toml` below the test root and returns the XDG_CONFIG_HOME to use.
fn write_config(env: &TestEnv, text: &str) -> std::path::PathBuf {
    let xdg = env.path("xdg");
    std::fs::create_dir_all(xdg.join("hogs")).expect("mkdir xdg/hogs");
    std::fs::write(xdg.join("hogs/config.toml"), text).expect("write config.toml");
    xdg
}

fn run_with(env: &TestEnv, xdg: &Path, args: &[&str]) -> std::process::Output {
    env.hogs()
        .env("XDG_CONFIG_HOME", xdg)
        .args(args)
        .output()
        .expect("run hogs")
}

fn ok_with(env: &TestEnv, xdg: &Path, args: &[&str]) -> String {
    let out = run_with(env, xdg, args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "hogs {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Is the root (`d`) on the first line (reversed) or the last?
fn reversed(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 1, "a tree of several lines: {text}");
    lines[0].trim_end().ends_with(" d")
}

fn tree(env: &TestEnv) {
    env.file("d/a/x", 30_000)
        .file("d/b/y", 10_000)
        .file("d/c", 5000);
    env.file("d/node_modules/big", 90_000)
        .file("d/.git/obj", 70_000);
}

#[test]
fn config_sets_flags_and_the_command_line_undoes_them() {
    let env = TestEnv::new();
    tree(&env);
    let xdg = write_config(&env, "reverse = true\n");
    assert!(
        reversed(&ok_with(&env, &xdg, &["-b", "d"])),
        "config: reverse"
    );
    assert!(!reversed(&ok_with(
        &env,
        &xdg,
        &["-b", "--no-reverse", "d"]
    )));
    // the last one given wins, on the command line too
    assert!(reversed(&ok_with(
        &env,
        &xdg,
        &["-b", "--no-reverse", "-r", "d"]
    )));
    assert!(!reversed(&ok_with(
        &env,
        &xdg,
        &["-b", "-r", "--no-reverse", "d"]
    )));

    let xdg = write_config(&env, "reverse = false\n");
    assert!(!reversed(&ok_with(&env, &xdg, &["-b", "d"])));
    assert!(reversed(&ok_with(&env, &xdg, &["-b", "-r", "d"])));

    // flags named no-…: their opposite is the plain name
    let xdg = write_config(&env, "no-percent-bars = true\n");
    assert!(!ok_with(&env, &xdg, &["d"]).contains('█'), "no bars");
    assert!(ok_with(&env, &xdg, &["--percent-bars", "d"]).contains('█'));

    // --no-config: nothing from the file
    let xdg = write_config(&env, "reverse = true\n");
    assert!(!reversed(&ok_with(&env, &xdg, &["-b", "--no-config", "d"])));
}

#[test]
fn config_values_yield_to_the_command_line() {
    let env = TestEnv::new();
    tree(&env);
    let xdg = write_config(&env, "depth = 0\napparent-size = true\n");
    let v = |args: &[&str]| {
        let out = ok_with(&env, &xdg, &[&["-j"], args].concat());
        serde_json::from_str::<serde_json::Value>(&out).expect("json")
    };
    let top = v(&["d"]);
    assert!(children(&top).is_empty(), "depth = 0");
    assert_eq!(size(&top), env.du_apparent(&["d"]), "apparent-size = true");
    let deeper = v(&["-d", "1", "d"]);
    assert_eq!(children(&deeper).len(), 5, "-d 1 beats depth = 0");
    // -f after the file's apparent-size: count, no conflict
    assert_eq!(size(&v(&["-f", "d"])), env.du_inodes(&["d"]));
    assert_eq!(size(&v(&["--no-apparent-size", "d"])), env.du_disk(&["d"]));
}

#[test]
fn config_lists_add_to_the_command_line() {
    let env = TestEnv::new();
    tree(&env);
    let xdg = write_config(&env, "ignore-directory = [\"node_modules\"]\n");
    let names = |args: &[&str]| {
        let out = ok_with(&env, &xdg, &[&["-j", "-d", "1"], args].concat());
        let v: serde_json::Value = serde_json::from_str(&out).expect("json");
        let mut n: Vec<String> = children(&v).iter().map(|c| name(c).to_owned()).collect();
        n.sort();
        n
    };
    assert_eq!(names(&["d"]), [".git", "a", "b", "c"]);
    assert_eq!(names(&["-X", ".git", "d"]), ["a", "b", "c"]);
    // a single string is a list of one
    let xdg = write_config(&env, "ignore-directory = \".git\"\n");
    let out = ok_with(&env, &xdg, &["-j", "-d", "1", "d"]);
    assert!(!out.contains("\".git\"") && out.contains("node_modules"));
}

#[test]
fn config_is_found_in_xdg_then_home_or_given() {
    let env = TestEnv::new();
    tree(&env);
    std::fs::create_dir_all(env.path("home/.config/hogs")).expect("mkdir");
    std::fs::write(
        env.path("home/.config/hogs/config.toml"),
        "reverse = true\n",
    )
    .expect("write");
    let run = |xdg: Option<&str>, args: &[&str]| {
        let mut cmd = env.hogs();
        cmd.env_remove("XDG_CONFIG_HOME")
            .env("HOME", env.path("home"));
        if let Some(x) = xdg {
            cmd.env("XDG_CONFIG_HOME", x);
        }
        let out = cmd.args(args).output().expect("run hogs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(
        reversed(&run(None, &["-b", "d"])),
        "~/.config/hogs/config.toml"
    );
    assert!(
        reversed(&run(Some("relative/dir"), &["-b", "d"])),
        "a relative XDG_CONFIG_HOME is ignored"
    );
    let xdg = write_config(&env, "reverse = false\n");
    assert!(
        !reversed(&run(xdg.to_str(), &["-b", "d"])),
        "XDG_CONFIG_HOME first"
    );
    // --config FILE instead of either
    std::fs::write(env.path("mine.toml"), "reverse = true\n").expect("write");
    assert!(reversed(&run(
        xdg.to_str(),
        &["-b", "--config", "mine.toml", "d"]
    )));
    // a --config FILE that is not there is said, and the run goes on (as dust)
    let out = env.run(["--config", "missing.toml", "d"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: warning: cannot read config file 'missing.toml': No such file or directory; \
         going on without it\n"
    );
}

/// Issue 24, item 2: dust's own sample settings are taken with dust's meaning, from dust's
/// file when hogs has none of its own (`~/.dust.toml`, else `~/.config/dust/config.toml`);
/// a key hogs cannot take there is skipped with a warning, not fatal.
#[test]
fn dust_config_is_read_with_dusts_keys() {
    let env = TestEnv::new();
    tree(&env);
    let home = env.path("dusthome");
    std::fs::create_dir_all(home.join(".config/dust")).expect("mkdir");
    std::fs::write(env.path("list.txt"), "d\n").expect("write");
    let dust_sample = "reverse = true\nno-colors = true\nno-bars = true\nskip-total = true\n\
        ignore-hidden = true\nlimit-filesystem = true\ndisplay-full-paths = true\n\
        display-apparent-size = true\ndisable-progress = true\nstack-size = 1048576\n\
        threads = 2\nnumber-of-lines = 5\nprint-errors = true\nbars-on-right = true\n\
        only-dir = true\nscreen-reader = false\noutput-json = false\ndim = false\n\
        force-colors = false\nmin-size = \"1\"\noutput-format = \"si\"\n\
        collapse = [\"nothing-here\"]\nfiles-from = \"list.txt\"\n";
    let run = |home: &Path| {
        env.hogs()
            .env("HOME", home)
            .env_remove("XDG_CONFIG_HOME")
            .args(["-w", "60", "-o", "b"])
            .output()
            .expect("run hogs")
    };
    for file in [".config/dust/config.toml", ".dust.toml"] {
        std::fs::write(home.join(file), dust_sample).expect("write dust's config");
        let out = run(&home);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{file}: {out:?}");
        assert!(out.stderr.is_empty(), "{file}: {out:?}");
        // apparent sizes (display-apparent-size), full paths, no bars, the biggest first
        // (reverse) and the one path's own row left out (skip-total), as dust prints them
        let first = text.lines().next().unwrap_or("");
        assert!(first.ends_with("├── d/node_modules"), "reverse: {text}");
        assert!(
            !text.lines().any(|l| l.ends_with(" d")),
            "skip-total: {text}"
        );
        let size: u64 = first
            .split_whitespace()
            .next()
            .and_then(|n| n.trim_end_matches('B').parse().ok())
            .unwrap_or(0);
        assert!(
            !size.is_multiple_of(512),
            "apparent sizes, not blocks: {text}"
        );
        assert!(!text.contains('█'), "no-bars: {text}");
        assert!(text.contains("d/"), "display-full-paths: {text}");
    }
    // a key dust has and hogs does not take: a warning, the rest applies
    std::fs::write(home.join(".dust.toml"), "reverse = true\nno-such-key = 1\n").expect("write");
    let out = run(&home);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("hogs: warning: ") && err.contains("no-such-key"),
        "{err}"
    );
    // hogs's own file, when there is one, is the one read
    let xdg = write_config(&env, "reverse = false\n");
    let out = env
        .hogs()
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", &xdg)
        .args(["-w", "60", "d"])
        .output()
        .expect("run hogs");
    assert!(out.stderr.is_empty(), "{out:?}");
}

#[test]
fn invalid_config_names_file_line_and_key() {
    let env = TestEnv::new();
    tree(&env);
    let cases = [
        (
            "# settings\n\nrevers = true\n",
            "3: key 'revers': unknown key",
        ),
        ("reverse = 1\n", "1: key 'reverse': expected true or false"),
        (
            "\ndepth = \"deep\"\n",
            "2: key 'depth': invalid value 'deep' for --depth: expected a whole number",
        ),
        (
            "depth = 1.5\n",
            "1: key 'depth': expected a string or a whole number",
        ),
        (
            "output-format = \"zz\"\n",
            "1: key 'output-format': invalid value 'zz' for '--output-format <FORMAT>'",
        ),
        (
            "filter = [\"(\"]\n",
            "1: key 'filter': invalid regex '(' for --filter",
        ),
        (
            "ignore-directory = [1.5]\n",
            "1: key 'ignore-directory': expected a list of strings",
        ),
        (
            "reverse = true\nreverse = false\n",
            "2: invalid TOML: duplicate key",
        ),
        (
            "[section]\nreverse = true\n",
            "1: key 'section': unknown key",
        ),
        ("config = \"x\"\n", "1: key 'config': unknown key"),
        ("no-reverse = true\n", "1: key 'no-reverse': unknown key"),
    ];
    for (text, want) in cases {
        let xdg = write_config(&env, text);
        let out = run_with(&env, &xdg, &["d"]);
        let err = String::from_utf8_lossy(&out.stderr);
        let file = xdg.join("hogs/config.toml");
        let want = format!("hogs: {}:{want}", file.display());
        assert!(
            err.starts_with(&want),
            "{text:?}\n  got:  {err}\n  want: {want}"
        );
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert_eq!(out.status.code(), Some(1), "{text:?}");
        assert!(out.stdout.is_empty(), "{text:?}: nothing runs");
    }
}

#[test]
fn interactive_settings_do_not_disturb_the_other_views() {
    let env = TestEnv::new();
    tree(&env);
    let xdg = write_config(&env, "no-delete = true\nprint-marked = true\n");
    ok_with(&env, &xdg, &["d"]);
    // on the command line they are still refused outside `hogs i`
    let out = run_with(&env, &xdg, &["--no-delete", "d"]);
    assert_eq!(out.status.code(), Some(1));
    let xdg = write_config(&env, "no-delete = 3\n");
    let out = run_with(&env, &xdg, &["d"]);
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains(":1: key 'no-delete': expected true or false"));
}

/// A value for every option key, so that a new option fails here until it is handled.
fn sample_value(key: &str) -> &'static str {
    match key {
        "depth" | "number-of-lines" | "threads" => "2",
        "terminal-width" => "80",
        "min-size" => "\"1K\"",
        "output-format" => "\"si\"",
        "ignore-directory" | "filter" | "invert-filter" | "collapse" => "[\"x\"]",
        "ignore-all-in-file" => "\"ignore.txt\"",
        "mtime" | "atime" | "ctime" => "\"-1\"",
        "filetime" => "\"m\"",
        "files-from" | "files0-from" => "\"empty.txt\"",
        "stack-size" => "1048576",
        other => panic!("no sample value for the config key {other:?}: add one"),
    }
}

#[test]
fn every_long_flag_is_a_documented_config_key() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("read README.md");
    let env = TestEnv::new();
    tree(&env);
    std::fs::write(env.path("ignore.txt"), "x\n").expect("write");
    std::fs::write(env.path("empty.txt"), "").expect("write");
    let cmd = hogs::config::cli::command();
    let not_keys = [
        "help",
        "version",
        "config",
        "no-config",
        "import",
        "import-keep-first",
        "export",
        "export-extended",
        "export-format",
        "diff",
        "diff-root-any",
        "html",
        "by-owner",
        "null",
        "extents",
        "record",
        "history",
        "between",
        "trend",
        "prometheus",
        "forget-before",
    ];
    let mut keys = 0;
    for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
        let Some(key) = arg.get_long() else { continue };
        if not_keys.contains(&key) {
            continue;
        }
        keys += 1;
        assert!(
            readme.contains(&format!("| `{key}` |")),
            "README.md documents no config key `{key}`"
        );
        let value = match arg.get_action() {
            clap::ArgAction::SetTrue => "true",
            _ => sample_value(key),
        };
        let xdg = write_config(&env, &format!("{key} = {value}\n"));
        let out = run_with(&env, &xdg, &["-P", "d"]);
        assert!(
            out.status.code() == Some(0),
            "config {key} = {value}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(keys > 20, "only {keys} keys found");
}
