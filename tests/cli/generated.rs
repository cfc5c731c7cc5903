//! The checked-in completions and man page are what the clap definition generates now.

#[path = "../../examples/generate.rs"]
mod generate;

use std::path::Path;

#[test]
fn completions_and_man_page_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stale = Vec::new();
    for (rel, want) in generate::outputs() {
        let have = std::fs::read(root.join(&rel)).unwrap_or_default();
        if have != want {
            stale.push(rel);
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files {stale:?}: run `cargo run --example generate` and commit them"
    );
}

#[test]
fn completions_offer_the_flags_and_the_man_page_documents_them() {
    let files = generate::outputs();
    let get = |name: &str| {
        let (_, c) = files
            .iter()
            .find(|(rel, _)| rel.ends_with(name))
            .unwrap_or_else(|| panic!("no {name}"));
        String::from_utf8_lossy(c).into_owned()
    };
    for flag in [
        "--export",
        "--import",
        "--file-types",
        "--collapse",
        "--config",
        "--mtime",
    ] {
        for shell in ["hogs.bash", "_hogs", "hogs.fish", "hogs.elv", "_hogs.ps1"] {
            let text = get(shell);
            let bare = flag.trim_start_matches('-');
            assert!(
                text.contains(flag) || text.contains(&format!("-l {bare}")),
                "{shell} does not complete {flag}"
            );
        }
        assert!(
            get("hogs.1").contains(&flag.replace('-', "\\-")),
            "man page: {flag}"
        );
    }
    // the undo flags are hidden from the option list; the page says they exist
    assert!(get("hogs.1").contains("\\-\\-no\\-reverse"));
    assert!(
        get("hogs.1").starts_with(".ie \\n(.g .ds Aq"),
        "a roff page"
    );
}
