//! Writes the shell completions (completions/) and the man page (man-page/hogs.1) from the
//! clap definition, so they say exactly what the parser accepts. Regenerate after changing
//! a flag:
//!
//! ```text
//! cargo run --example generate
//! ```
//!
//! `tests/cli/generated.rs` fails while the checked-in files differ from what this writes.

use std::path::Path;

use clap_complete::Shell;

/// Every generated file: (path from the crate root, content).
pub fn outputs() -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for (shell, name) in [
        (Shell::Bash, "hogs.bash"),
        (Shell::Zsh, "_hogs"),
        (Shell::Fish, "hogs.fish"),
        (Shell::Elvish, "hogs.elv"),
        (Shell::PowerShell, "_hogs.ps1"),
    ] {
        let mut cmd = hogs::config::cli::command();
        let mut out = Vec::new();
        clap_complete::generate(shell, &mut cmd, "hogs", &mut out);
        files.push((format!("completions/{name}"), out));
    }
    let mut man = Vec::new();
    clap_mangen::Man::new(hogs::config::cli::command())
        .render(&mut man)
        .expect("render to a Vec");
    files.push(("man-page/hogs.1".to_string(), man));
    files
}

#[allow(dead_code)] // the staleness test includes this file for `outputs` only
fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (rel, content) in outputs() {
        let path = root.join(&rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&path, content)?;
        println!("wrote {rel}");
    }
    Ok(())
}
