//! A wide terminal is used (issue 41, 20): at 200 columns the bar stayed 24 cells and about
//! 140 columns were empty.

use super::Journey;
use crate::util::TestEnv;

#[test]
fn at_200_columns_the_bar_is_wider_and_count_and_mtime_are_shown() {
    let env = TestEnv::new();
    env.file("t/d/a", 300 * 1024)
        .file("t/d/b", 4096)
        .file("t/small", 1024);
    let mut j = Journey::open(&env, &["t"], 200, 12);
    let line = j.line_of("d/");
    let bar = line.chars().filter(|&c| c == '█' || c == '░').count();
    assert_eq!(bar, 40, "{line}");
    let year = String::from_utf8_lossy(
        &std::process::Command::new("date")
            .arg("+%Y-")
            .output()
            .expect("date")
            .stdout,
    )
    .trim()
    .to_string();
    assert!(line.contains(&year), "the mtime column: {line}");
    assert!(
        line.contains("     3 "),
        "the count column (d, a, b): {line}"
    );
    // `c` and `M` hide them there
    j.keys("cM");
    let line = j.line_of("d/");
    assert!(!line.contains(&year) && !line.contains("     3 "), "{line}");
}
