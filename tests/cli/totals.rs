//! `-d 0` shows only the paths' totals, and the walk then sums files into their directories
//! instead of making a node of each (`WalkOptions::fold_files`); with -f under one path,
//! the repeats of an inode (no link count is read) are taken off the directory they were
//! met in. These compare those totals with du's on every shape that takes a different road
//! through that summing: hard links within and across directories, a directory past 1,024
//! entries (stat'ed in batches, or in -f read past what is summed as read), one past 8,192
//! (its listing split between threads in -f), one thread and several.

use crate::util::TestEnv;

/// (number, path) of each line of `hogs -d 0 -b -p -o b ARGS`: the paths' totals and, for
/// several, "(total)".
fn totals(env: &TestEnv, args: &[&str]) -> Vec<(u64, String)> {
    let mut all = vec!["-d", "0", "-b", "-p", "-o", "b"];
    all.extend_from_slice(args);
    let out = env.stdout_ok(&all);
    let text = String::from_utf8_lossy(&out).into_owned();
    let mut lines: Vec<(u64, String)> = text
        .lines()
        .map(|l| {
            let mut words = l.split_whitespace();
            // `-o b` writes dust's `123B`, -f dust's `1,234`
            let n = words
                .next()
                .and_then(|w| w.trim_end_matches('B').replace(',', "").parse().ok());
            let n = n.unwrap_or_else(|| panic!("hogs {all:?}: no number in {l:?}"));
            (n, words.last().unwrap_or_default().to_owned())
        })
        .collect();
    lines.sort_by(|a, b| a.1.cmp(&b.1));
    lines
}

/// (number, path) of each line of `du -s -c FLAGS PATHS`, the grand total named "(total)".
fn du_totals(env: &TestEnv, flags: &[&str], paths: &[&str]) -> Vec<(u64, String)> {
    let mut args = vec!["-s", "-c"];
    args.extend_from_slice(flags);
    args.extend_from_slice(paths);
    let mut lines: Vec<(u64, String)> = env
        .du_lines(&args)
        .into_iter()
        .map(|(n, p)| {
            let p = String::from_utf8_lossy(&p).into_owned();
            (
                n,
                if p == "total" {
                    "(total)".to_owned()
                } else {
                    p
                },
            )
        })
        .collect();
    if paths.len() == 1 {
        lines.pop(); // du's total of one path is that path's
    }
    lines.sort_by(|a, b| a.1.cmp(&b.1));
    lines
}

const MODES: [(&[&str], &[&str]); 3] = [
    (&[], &["-B1"]),
    (&["-s"], &["-b"]),
    (&["-f"], &["--inodes"]),
];

#[test]
fn totals_of_one_path_match_du_in_every_mode_and_thread_count() {
    let env = TestEnv::new();
    env.bash(
        "mkdir -p d/big d/out d/many d/huge d/same \
         && cd d/big && for i in $(seq 1 1500); do echo x > f$i; done \
         && for i in $(seq 1 200); do mkdir s$i && echo y > s$i/g && ln f$i s$i/link; done \
         && for i in $(seq 1 50); do ln f$((i * 7)) ../out/l$i; done \
         && cd ../many && for i in $(seq 1 300); do mkdir m$i && echo z > m$i/a \
            && printf '%*s' $((i * 53)) '' > m$i/b; done \
         && cd ../huge && seq 1 12000 | sed 's/^/h/' | xargs touch \
         && for i in $(seq 1 30); do ln h$((i * 13)) ../many/m$i/c; done \
         && cd ../same && printf '%*s' 70000 '' > one && ln one two && ln one three \
         && ln -s one sym && mkfifo pipe",
    );
    for threads in ["1", "2", "4"] {
        for (flags, du_flags) in MODES {
            for path in ["d", "d/big", "d/huge", "d/same"] {
                let mut args = vec!["-T", threads];
                args.extend_from_slice(flags);
                args.push(path);
                assert_eq!(
                    totals(&env, &args),
                    du_totals(&env, du_flags, &[path]),
                    "hogs -d 0 {args:?} (left) vs du -s {du_flags:?} {path} (right)"
                );
            }
        }
    }
}

/// Under several paths, an inode shared between them counts in the first, as du counts it:
/// each path's own total must match du's, not only the grand total.
#[test]
fn totals_of_several_paths_count_a_shared_inode_in_the_first() {
    let env = TestEnv::new();
    env.bash(
        "mkdir -p a/sub b && for i in $(seq 1 1200); do echo x > a/f$i; done \
         && for i in $(seq 1 40); do ln a/f$((i * 11)) b/l$i; done \
         && printf '%*s' 90000 '' > b/big && ln b/big a/sub/big \
         && echo own > b/own",
    );
    for threads in ["1", "2"] {
        for (flags, du_flags) in MODES {
            for paths in [["a", "b"], ["b", "a"]] {
                let mut args = vec!["-T", threads];
                args.extend_from_slice(flags);
                args.extend_from_slice(&paths);
                assert_eq!(
                    totals(&env, &args),
                    du_totals(&env, du_flags, &paths),
                    "hogs -d 0 {args:?} (left) vs du -s -c {du_flags:?} {paths:?} (right)"
                );
            }
        }
    }
}

/// A directory that can be listed but not searched, small or so large that -f splits its
/// listing between threads: summed as read, its names must still be found unreachable (one
/// line, exit 1, nothing below it counted), as du finds them, in both modes.
#[test]
fn totals_skip_a_directory_that_cannot_be_searched() {
    if !crate::util::can_run_unprivileged() {
        return;
    }
    let env = TestEnv::new();
    env.bash(
        "mkdir -p d/small d/huge d/ok && echo a > d/small/f && echo b > d/small/g \
         && echo c > d/ok/h && cd d/huge && seq 1 12000 | sed 's/^/h/' | xargs touch",
    );
    for dir in ["small", "huge"] {
        env.chmod(format!("d/{dir}"), 0o644);
        for threads in ["1", "2"] {
            for (flags, du_flags) in [(&[][..], &["-sB1"][..]), (&["-f"], &["-s", "--inodes"])] {
                let du = env.du_unprivileged(&[du_flags, &["d"]].concat());
                let want = crate::util::parse_du(&du.stdout)[0].0;
                let mut args = vec!["-d", "0", "-b", "-o", "b", "-T", threads];
                args.extend_from_slice(flags);
                args.push("d");
                let out = env.run_unprivileged(&args);
                assert_eq!(out.status.code(), Some(1), "hogs {args:?}: exit status");
                assert_eq!(
                    String::from_utf8_lossy(&out.stderr),
                    format!("hogs: cannot read directory 'd/{dir}': Permission denied\n"),
                    "hogs {args:?}: stderr"
                );
                let stdout = String::from_utf8_lossy(&out.stdout);
                let got: Option<u64> = stdout
                    .split_whitespace()
                    .next()
                    .and_then(|w| w.trim_end_matches('B').replace(',', "").parse().ok());
                assert_eq!(
                    got,
                    Some(want),
                    "hogs {args:?} vs du {du_flags:?} d as nobody"
                );
            }
        }
        env.chmod(format!("d/{dir}"), 0o755);
    }
}
