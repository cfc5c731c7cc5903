//! `--import A.json B.json …`: scans of parts of a tree, made by separate processes, merged
//! into one scan that equals GNU du of the whole (docs/SPLIT-SCANS.md's recipe, for real).

use std::ffi::OsString;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::util::*;

/// A tree with files at every level, hard links inside a part, across two parts and between
/// the top part and a part, an empty directory and a symlink.
fn split_tree(env: &TestEnv) {
    env.file("top/f0", 10_000).file("top/.hidden", 3_000);
    env.file("top/a/f1", 5_000).file("top/a/x/big", 200_000);
    env.file("top/a/x/deep/d1", 12_345)
        .file("top/a/y/h", 30_000);
    env.file("top/b/k", 7_000).file("top/b/z/m", 40_000);
    env.file("top/b/z/n", 1).file("top/c/only", 9_000);
    env.mkdir("top/b/empty").mkdir("top/d");
    env.file("top/e/w/v/u", 4_321);
    env.symlink("../f0", "top/a/link");
    // a file of part 1 hard-linked from part 2 counts once in the merge, as in du
    env.hardlink("top/a/x/big", "top/b/z/big-too");
    env.hardlink("top/a/y/h", "top/a/y/h2"); // inside one part
    env.hardlink("top/f0", "top/e/w/f0-too"); // the top part and a part
}

/// The parts as docs/SPLIT-SCANS.md lists them: every directory two levels down.
fn parts_of(env: &TestEnv) -> Vec<String> {
    let out = Command::new("find")
        .args(["top", "-mindepth", "2", "-maxdepth", "2", "-type", "d"])
        .current_dir(env.root())
        .output()
        .expect("run find");
    assert!(out.status.success());
    let mut parts: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    parts.sort();
    parts
}

/// Scans the parts and the top part (the parts left out with -X) in separate processes
/// started together; returns the export files, the top part's first.
fn scan_split(env: &TestEnv, parts: &[String]) -> Vec<String> {
    let mut jobs: Vec<(String, Vec<OsString>)> = Vec::new();
    let mut top: Vec<OsString> = vec!["-O".into(), "part-0.json".into()];
    for p in parts {
        top.extend(["-X".into(), OsString::from(p)]);
    }
    top.push("top".into());
    jobs.push(("part-0.json".into(), top));
    for (i, p) in parts.iter().enumerate() {
        let file = format!("part-{}.json", i + 1);
        jobs.push((file.clone(), vec!["-O".into(), file.into(), p.into()]));
    }
    let children: Vec<_> = jobs
        .iter()
        .map(|(_, args)| {
            Command::new(hogs_bin())
                .args(args)
                .current_dir(env.root())
                .env("XDG_CONFIG_HOME", env.root().join("no-such-config-dir"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start hogs")
        })
        .collect();
    for (child, (_, args)) in children.into_iter().zip(&jobs) {
        let out = child.wait_with_output().expect("wait for hogs");
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "hogs {args:?}: {:?} {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    jobs.into_iter().map(|(file, _)| file).collect()
}

fn with<'a>(flags: &[&'a str], rest: &[&'a str]) -> Vec<&'a str> {
    [flags, rest].concat()
}

#[test]
fn parts_scanned_in_parallel_merge_to_what_du_says_of_the_whole() {
    let env = TestEnv::new();
    split_tree(&env);
    let parts = parts_of(&env);
    assert_eq!(parts.len(), 5, "{parts:?}");
    let files = scan_split(&env, &parts);
    let mut import: Vec<&str> = vec!["--import"];
    import.extend(files.iter().map(String::as_str));
    let whole = env.path("top").to_string_lossy().into_owned();
    for (flags, du) in [
        (&["-s"][..], env.du_apparent(&["top"])),
        (&[][..], env.du_disk(&["top"])),
        (&["-f"][..], env.du_inodes(&["top"])),
    ] {
        let v = env.json(with(flags, &import));
        assert_eq!(size(&v), du, "merged {flags:?}");
        assert_eq!(full_name(&v), whole, "the merge's root is the top part's");
        // as the walk of the whole counts it, directory by directory
        let walked = env.json(with(flags, &["top"]));
        assert_eq!(child_sizes(&v), child_sizes(&walked), "{flags:?}");
    }
    // a part given alone is what it was; the parts' order does not matter
    let mut reversed: Vec<&str> = vec!["--import"];
    reversed.extend(files.iter().rev().map(String::as_str));
    assert_eq!(env.total(&reversed), env.du_disk(&["top"]));
    // repeated flags are the same as one flag with several files
    let mut repeated: Vec<&str> = Vec::new();
    for f in &files {
        repeated.extend(["--import", f.as_str()]);
    }
    assert_eq!(env.total(with(&["-f"], &repeated)), env.du_inodes(&["top"]));

    // the merge exported is one scan: imported, compared, and the same again
    env.stdout_ok(with(&["-O", "merged.json"], &import));
    for (flags, du) in [
        (&["-s"][..], env.du_apparent(&["top"])),
        (&[][..], env.du_disk(&["top"])),
        (&["-f"][..], env.du_inodes(&["top"])),
    ] {
        assert_eq!(
            env.total(with(flags, &["--import", "merged.json"])),
            du,
            "merged.json {flags:?}"
        );
    }
    let diff = env.stdout_ok(with(&["--diff", "merged.json", "-j"], &import));
    let diff: Value = serde_json::from_slice(&diff).expect("diff json");
    assert_eq!(diff["status"], "same", "{diff}");
    assert!(children(&diff).is_empty(), "nothing changed: {diff}");
    // and compared with a walk of the whole now: nothing changed either
    let diff = env.stdout_ok(["--diff", "merged.json", "-j", "top"]);
    let diff: Value = serde_json::from_slice(&diff).expect("diff json");
    assert!(children(&diff).is_empty(), "merge and walk agree: {diff}");
}

#[test]
fn directories_no_part_scanned_have_no_size_and_say_so() {
    let env = TestEnv::new();
    split_tree(&env);
    let a = ["-O", "a.json", "top/a/x"];
    let b = ["-O", "b.json", "top/b/z"];
    env.stdout_ok(a);
    env.stdout_ok(b);
    let v = env.json(["--import", "a.json", "b.json", "-s"]);
    assert_eq!(full_name(&v), env.path("top").to_string_lossy());
    assert_eq!(v["unscanned"], Value::Bool(true), "{v}");
    assert_eq!(
        field_u64(&v, "entries"),
        env.du_inodes(&["top/a/x", "top/b/z"])
    );
    assert_eq!(size(&v), env.du_apparent(&["top/a/x", "top/b/z"]));
    let a_dir = child(&v, "a");
    assert_eq!(a_dir["unscanned"], Value::Bool(true));
    assert_eq!(size(a_dir), env.du_apparent(&["top/a/x"]));
    assert!(
        child(a_dir, "x").get("unscanned").is_none(),
        "a part's root was scanned"
    );
    // the export says so in a key other readers skip, and reads back the same
    env.stdout_ok(["--import", "a.json", "b.json", "-O", "ab.json"]);
    let text = std::fs::read_to_string(env.path("ab.json")).expect("read ab.json");
    assert_eq!(text.matches("\"unscanned\":true").count(), 3, "{text}");
    let again = env.json(["--import", "ab.json", "-s"]);
    assert_eq!(again, v);
}

#[test]
fn overlapping_parts_are_refused_unless_the_first_is_kept() {
    let env = TestEnv::new();
    split_tree(&env);
    env.stdout_ok(["-O", "a.json", "top/a"]);
    env.stdout_ok(["-O", "ax.json", "top/a/x"]);
    env.stdout_ok(["-O", "a-again.json", "top/a/"]);
    // the same directory twice
    let out = env.run(["--import", "a.json", "a-again.json"]);
    assert_eq!(out.status.code(), Some(1));
    let top_a = env.path("top/a").to_string_lossy().into_owned();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("hogs: cannot merge 'a.json' and 'a-again.json': both are scans of {top_a} (--import-keep-first keeps the first)\n")
    );
    assert!(out.stdout.is_empty());
    // a part inside another that lists it
    let out = env.run(["--import", "a.json", "ax.json"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("hogs: cannot merge 'a.json' and 'ax.json': both scanned ")
            && err.contains(&format!("{top_a}/x"))
            && err.lines().count() == 1,
        "{err}"
    );
    assert!(out.stdout.is_empty(), "no partial view");
    // kept first: either way round, the whole is counted once, with a note
    for pair in [["a.json", "ax.json"], ["ax.json", "a.json"]] {
        let out = env.run(["-j", "--import", pair[0], pair[1], "--import-keep-first"]);
        assert_eq!(out.status.code(), Some(0), "{pair:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("hogs: note: ") && err.contains("given first"),
            "{err}"
        );
        let v: Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(size(&v), env.du_disk(&["top/a"]), "{pair:?}");
        assert_eq!(
            field_u64(&v, "entries"),
            env.du_inodes(&["top/a"]),
            "{pair:?}"
        );
    }
    let out = env.run([
        "-j",
        "--import",
        "a.json",
        "a-again.json",
        "--import-keep-first",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(size(&v), env.du_disk(&["top/a"]));
}

#[test]
fn parts_that_cannot_be_merged_are_one_line_errors() {
    let env = TestEnv::new();
    split_tree(&env);
    env.stdout_ok(["-O", "a.json", "top/a"]);
    let out = env.run(["--import", "a.json", "-"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot merge '-': stdin can only be imported alone (save it to a file)\n"
    );
    std::fs::write(
        env.path("rel.json"),
        "[1,2,{},[{\"name\":\"rel/dir\"},{\"name\":\"f\",\"asize\":1}]]",
    )
    .expect("write");
    let out = env.run(["--import", "a.json", "rel.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot merge 'rel.json': its root 'rel/dir' is not an absolute path without '..' (as hogs -O and ncdu -o write)\n"
    );
    let out = env.run(["--import", "a.json", "nope.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hogs: cannot import 'nope.json': No such file or directory\n"
    );
    // a broken part fails the merge, naming it, with nothing shown
    std::fs::write(
        env.path("bad.json"),
        "[1,2,{},[{\"name\":\"/elsewhere\"},{\"name\":\"f\",\"asize\":-1}]]",
    )
    .expect("write");
    let out = env.run(["--import", "a.json", "bad.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("hogs: cannot import 'bad.json': line 1, column ")
            && err.lines().count() == 1,
        "{err}"
    );
}

/// docs/SPLIT-SCANS.md's recipe as it is written there (xargs -P), names with a space and a
/// newline among the parts: the merge is du of the whole.
#[test]
fn the_documented_xargs_recipe_merges_to_du() {
    let env = TestEnv::new();
    split_tree(&env);
    env.file("top/b/we ird\nname/q", 6_000);
    let script = r#"set -e
TOP="$PWD/top"
mkdir -p parts
find "$TOP" -mindepth 2 -maxdepth 2 -type d -print0 > parts.list
top_part() {                           # the whole tree, every part left out
  local args=() p
  while IFS= read -r -d '' p; do args+=(-X "$p"); done < parts.list
  hogs -O parts/top.json "${args[@]}" "$TOP"
}
top_part & top=$!
xargs -0 -a parts.list -P 8 -n 1 sh -c \
  'hogs -T 2 -O "parts/$(printf %s "$1" | sha256sum | cut -c1-16).json" "$1"' sh
wait "$top"
"#;
    let bin_dir = hogs_bin().parent().expect("bin dir").to_owned();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin_dir];
    dirs.extend(std::env::split_paths(&path));
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(env.root())
        .env("PATH", std::env::join_paths(dirs).expect("PATH"))
        .env("XDG_CONFIG_HOME", env.root().join("no-such-config-dir"))
        .output()
        .expect("run bash");
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<String> = std::fs::read_dir(env.path("parts"))
        .expect("parts/")
        .map(|e| format!("parts/{}", e.expect("entry").file_name().to_string_lossy()))
        .collect();
    files.sort();
    assert_eq!(files.len(), 7, "the top part and six parts: {files:?}");
    let mut import: Vec<&str> = vec!["--import"];
    import.extend(files.iter().map(String::as_str));
    assert_eq!(env.total(with(&["-s"], &import)), env.du_apparent(&["top"]));
    assert_eq!(env.total(&import), env.du_disk(&["top"]));
    assert_eq!(env.total(with(&["-f"], &import)), env.du_inodes(&["top"]));
}

/// A mount point the outer part did not enter (`-x`: `"excluded":"othfs"`) is where the part
/// scanned on that filesystem goes: no overlap, its sizes in place of the mark.
#[test]
fn a_part_fills_a_mount_point_the_outer_part_did_not_enter() {
    let env = TestEnv::new();
    std::fs::write(
        env.path("outer.json"),
        r#"[1,2,{},[{"name":"/srv","asize":4096,"dsize":4096,"dev":1},
{"name":"f","asize":100,"dsize":4096},
[{"name":"mnt","dev":2,"excluded":"othfs"}]]]"#,
    )
    .expect("write");
    std::fs::write(
        env.path("mnt.json"),
        r#"[1,2,{},[{"name":"/srv/mnt","asize":4096,"dsize":4096,"dev":2},
{"name":"g","asize":1000,"dsize":4096}]]"#,
    )
    .expect("write");
    for order in [["outer.json", "mnt.json"], ["mnt.json", "outer.json"]] {
        let v = env.json(["-s", "--import", order[0], order[1]]);
        assert_eq!(size(&v), 4096 + 100 + 4096 + 1000, "{order:?}");
        assert_eq!(field_u64(&v, "entries"), 4);
        assert_eq!(size(child(&v, "mnt")), 4096 + 1000);
    }
}

/// A merge's JSON without what only a JSON merge can say: which directories no part scanned
/// (the binary format has no key for it; they come back as empty directories of their own).
fn without_unscanned_marks(v: &Value) -> Value {
    let mut v = v.clone();
    let mut todo = vec![&mut v];
    while let Some(node) = todo.pop() {
        let Some(obj) = node.as_object_mut() else {
            continue;
        };
        obj.remove("unscanned");
        obj.remove("entries");
        if let Some(Value::Array(kids)) = obj.get_mut("children") {
            todo.extend(kids.iter_mut());
        }
    }
    v
}

#[test]
fn binary_parts_merge_into_a_binary_export_as_the_json_merge_does() {
    let env = TestEnv::new();
    split_tree(&env);
    env.file("top/b/z/more/deeper/f", 3_333);
    let parts = parts_of(&env); // no top part: the directories above the parts are unscanned
    let (mut bin, mut json, mut mixed) = (Vec::new(), Vec::new(), Vec::new());
    for (i, p) in parts.iter().enumerate() {
        for ext in ["ncdu", "json"] {
            env.stdout_ok(["-O", &format!("p{i}.{ext}"), p]);
        }
        bin.push(format!("p{i}.ncdu"));
        json.push(format!("p{i}.json"));
        mixed.push(format!("p{i}.{}", ["ncdu", "json"][i % 2]));
    }
    let part_paths: Vec<&str> = parts.iter().map(String::as_str).collect();
    let import = |files: &[String], rest: &[&str]| -> Vec<String> {
        let mut args = vec!["--import".to_owned()];
        args.extend(files.iter().cloned());
        args.extend(rest.iter().map(|s| s.to_string()));
        args
    };
    let from_json = env.json(import(&json, &[]));
    let from_json_s = env.json(import(&json, &["-s"]));
    assert_eq!(size(&from_json), env.du_disk(&part_paths));
    // binary parts merge to a view too
    assert_eq!(env.total(import(&bin, &[])), env.du_disk(&part_paths));
    for (out, files) in [("merged.ncdu", &bin), ("mixed.ncdu", &mixed)] {
        let run = env.run(import(files, &["-O", out]));
        assert!(
            run.status.success() && run.stderr.is_empty(),
            "{out}: {:?} {}",
            run.status,
            String::from_utf8_lossy(&run.stderr)
        );
        let v = env.json(["--import", out]);
        assert_eq!(size(&v), env.du_disk(&part_paths), "{out}");
        let s = env.json(["--import", out, "-s"]);
        assert_eq!(size(&s), env.du_apparent(&part_paths), "{out}");
        // entry for entry what the JSON merge has, the hard link across parts counted in
        // the same part
        assert_eq!(
            without_unscanned_marks(&v),
            without_unscanned_marks(&from_json),
            "{out}"
        );
        assert_eq!(
            without_unscanned_marks(&s),
            without_unscanned_marks(&from_json_s),
            "{out}"
        );
    }
}
