//! The import rules of ARCHITECTURE.md, checked over the source: each top-level module
//! imports only modules of lower layers, and no files import each other in a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first: a module may name only modules of a lower layer.
const LAYERS: &[&[&str]] = &[
    &["vocab"],
    &["sys", "units"],
    &["tree"],
    &["walk"],
    &["settle"],
    &["diff", "export", "owners", "progress"],
    &["render"],
    &["error"],
    &["formats"],
    &["import"],
    &["config"],
    &["app"],
    &["tui"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Every `.rs` file under src/ as (module path, code without comments and test modules).
fn sources() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("list src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let rel = path
                .strip_prefix(&src)
                .expect("under src")
                .with_extension("");
            let mut parts: Vec<String> = rel
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            let text = std::fs::read_to_string(&path).expect("read source");
            // unit tests may reach anywhere; they are the last item of a file by convention
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let code: String = code
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n");
            out.insert(parts.join("::"), code);
        }
    }
    out
}

/// The paths a file names that start with `crate::` or `super::`, resolved to the longest
/// module they reach (`use super::{a, b}` groups included).
fn named_modules(module: &str, code: &str, all: &BTreeMap<String, String>) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    let here: Vec<&str> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").collect()
    };
    let resolve = |path: &[&str]| -> Option<String> {
        let (mut base, mut rest): (Vec<&str>, &[&str]) = match path.first() {
            Some(&"crate") => (Vec::new(), &path[1..]),
            Some(&"super") => (here[..here.len().saturating_sub(1)].to_vec(), &path[1..]),
            _ => return None,
        };
        while rest.first() == Some(&"super") {
            base.pop();
            rest = &rest[1..];
        }
        base.extend_from_slice(rest);
        (1..=base.len())
            .rev()
            .map(|k| base[..k].join("::"))
            .find(|m| all.contains_key(m))
    };
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let tail = &code[at..];
            let end = tail
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            let path: Vec<&str> = tail[..end].split("::").filter(|s| !s.is_empty()).collect();
            if tail[end..].starts_with('{') {
                let group = &tail[end + 1..tail.find('}').unwrap_or(tail.len())];
                for item in group.split(',') {
                    let first = item.trim().split("::").next().unwrap_or("").trim();
                    if !first.is_empty() && first != "self" {
                        let mut p = path.clone();
                        p.push(first);
                        named.extend(resolve(&p));
                    }
                }
            }
            named.extend(resolve(&path));
        }
    }
    named.remove(module);
    // a file may name what its parents declare (their items are its context)
    named.retain(|m| !module.starts_with(&format!("{m}::")) && !m.is_empty());
    named
}

#[test]
fn modules_import_only_lower_layers() {
    let all = sources();
    let mut wrong = Vec::new();
    for (module, code) in &all {
        let top = module.split("::").next().unwrap_or("");
        let Some(own) = layer_of(top) else {
            assert!(
                ["lib", "main"].contains(&top),
                "module {top} is in no layer of tests/cli/layers.rs: place it"
            );
            continue;
        };
        for named in named_modules(module, code, &all) {
            let other = named.split("::").next().unwrap_or("");
            if other == top {
                continue;
            }
            let layer = layer_of(other).expect("a known module");
            if layer >= own {
                wrong.push(format!("{module} names {named}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let all = sources();
    let graph: BTreeMap<String, BTreeSet<String>> = all
        .iter()
        .map(|(m, code)| (m.clone(), named_modules(m, code, &all)))
        .collect();
    // depth-first search for a back edge, iteratively
    let mut state: BTreeMap<&str, u8> = BTreeMap::new(); // 1 on the path, 2 done
    for start in graph.keys() {
        if state.contains_key(start.as_str()) {
            continue;
        }
        let mut path: Vec<(&str, Vec<&str>)> =
            vec![(start, graph[start].iter().map(String::as_str).collect())];
        state.insert(start, 1);
        while let Some((node, next)) = path.last_mut() {
            let node = *node;
            match next.pop() {
                None => {
                    state.insert(node, 2);
                    path.pop();
                }
                Some(n) => match state.get(n) {
                    Some(1) => {
                        let circle: Vec<&str> = path
                            .iter()
                            .map(|(m, _)| *m)
                            .skip_while(|m| *m != n)
                            .collect();
                        panic!("an import circle: {} -> {n}", circle.join(" -> "));
                    }
                    Some(_) => {}
                    None => {
                        state.insert(n, 1);
                        let kids = graph
                            .get(n)
                            .map(|s| s.iter().map(String::as_str).collect())
                            .unwrap_or_default();
                        path.push((n, kids));
                    }
                },
            }
        }
    }
}

/// The tree's lifecycle (what an import saved, filters, extents, time, totals; the sums of a
/// walk still running) is the settle stage's: app/ and tui/ hand it a tree and a plan and call
/// no step of it themselves, so its order is written in one place (`src/settle/mod.rs`).
#[test]
fn only_the_settle_stage_steps_a_tree_through_its_lifecycle() {
    const STEPS: &[&str] = &[
        ".apply_filters(",
        ".mark_filtered(",
        "tree.finish()",
        "t.finish()",
        ".sum_live(",
        ".use_time(",
        ".forget_live_sums(",
        ".mark_live_duplicates(",
        "extents::measure(",
        ".drop_identity(",
        ".sharing = ",
        ".links = ",
        ".extra = ",
    ];
    let mut wrong = Vec::new();
    for (module, code) in sources() {
        let top = module.split("::").next().unwrap_or("");
        if !["app", "tui"].contains(&top) {
            continue;
        }
        for step in STEPS {
            if code.contains(step) {
                wrong.push(format!("{module} calls {step}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "lifecycle steps outside src/settle (call settle::settle with a Plan):\n{}",
        wrong.join("\n")
    );
}
