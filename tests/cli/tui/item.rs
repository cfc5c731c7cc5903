//! `i`, the item view, and the totals in the footer (issue 41, 19), checked against
//! `stat` and GNU du.

use std::os::unix::fs::MetadataExt;

use super::Journey;
use crate::util::TestEnv;

fn with_commas(v: u64) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn i_shows_exact_sizes_type_items_and_hard_links() {
    let env = TestEnv::new();
    env.file("t/d/a", 123_457)
        .file("t/d/b", 10)
        .file("t/small", 1);
    std::fs::hard_link(env.path("t/small"), env.path("t/linked")).expect("link");
    let mut j = Journey::open(&env, &["t"], 100, 24);
    j.select("d");
    j.keys("i");
    let screen = j.screen();
    let disk = env.du_disk(&["t/d"]);
    assert!(screen.contains("type      directory"), "{screen}");
    assert!(
        screen.contains(&format!("disk      {} bytes", with_commas(disk))),
        "du says {disk}:\n{screen}"
    );
    let apparent = 123_457 + 10 + std::fs::metadata(env.path("t/d")).expect("stat").len();
    assert!(
        screen.contains(&format!("apparent  {} bytes", with_commas(apparent))),
        "{apparent}:\n{screen}"
    );
    assert!(screen.contains("items     3"), "{screen}");
    j.keys("x");
    assert!(!j.screen().contains("apparent  "), "closed");
    j.select("linked");
    j.keys("i");
    let screen = j.screen();
    let nlink = std::fs::metadata(env.path("t/linked"))
        .expect("stat")
        .nlink();
    assert!(screen.contains("type      file"), "{screen}");
    assert!(screen.contains(&format!("links     {nlink}")), "{screen}");
}

/// The footer gives the directory's disk and apparent totals side by side, as ncdu and gdu.
#[test]
fn the_footer_shows_disk_and_apparent_totals() {
    let env = TestEnv::new();
    env.file("t/a", 300 * 1024).file("t/b", 5);
    let j = Journey::open(&env, &["t"], 120, 12);
    let footer = j.lines()[11].clone();
    assert!(footer.contains(" disk 308Ki · apparent "), "{footer}");
}
