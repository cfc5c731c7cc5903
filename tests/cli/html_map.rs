//! `--html FILE`, what a person sees (issue 41): the treemap draws every child of the zoomed
//! directory and leaves no white where bytes are, at a desktop's, a laptop's and a phone's
//! window; hostile names stay distinct and escaped; a comparison's shares add up; captions
//! count; the keyboard comes back where it was; a phone's tap tells before it zooms; long
//! paths keep the page in its window; the search finds what find finds.

use serde_json::Value;

use crate::html::{browser_report, du_rects, page_path, rects, strings, tree, write_page};
use crate::util::TestEnv;

const WINDOWS: [(u32, u32); 3] = [(1920, 1080), (1280, 720), (390, 844)];

/// A tree shaped like /usr/share: 300 children whose sizes fall off as 1/n, a 12 MB file,
/// and "locale" with 20,000 entries in 200 directories (most of the bytes).
fn share_like(env: &TestEnv) {
    env.bash(
        r#"mkdir -p s && cd s
        for d in $(seq 1 200); do
          mkdir -p locale/l$d && cd locale/l$d
          for f in $(seq 1 100); do printf x > f$f; done
          cd ../..
        done
        for i in $(seq 1 300); do
          mkdir c$i && head -c $(( 2000000 / i )) /dev/zero > c$i/data && printf x > c$i/small
        done
        head -c 12000000 /dev/zero > package.lists"#,
    );
}

/// The top rectangles' paths.
fn drawn(view: &Value) -> Vec<String> {
    rects(view).into_iter().map(|(p, _)| p).collect()
}

/// Every child of `dir` (du's) of at least 1/2000 of it is a top rectangle of `view`, at
/// du's size; no more than 2% of the map is blank.
fn assert_whole_map(env: &TestEnv, view: &Value, dir: &str, window: (u32, u32)) {
    let whole = env.du_total(&["-B1"], &[dir]);
    let drawn = rects(view);
    for (path, size) in du_rects(env, &["-B1"], dir) {
        if size * 2000 >= whole {
            assert!(
                drawn.contains(&(path.clone(), size)),
                "{window:?}: {path} ({size} of {whole}) not drawn: {:?}",
                drawn.iter().map(|r| &r.0).collect::<Vec<_>>()
            );
        }
    }
    let blank = view["blank"].as_f64().expect("blank");
    assert!(
        blank <= 0.02,
        "{window:?}: {:.1}% of the map is blank",
        blank * 100.0
    );
}

#[test]
fn html_map_draws_every_child_and_no_white_at_three_window_sizes() {
    let env = TestEnv::new();
    share_like(&env);
    write_page(&env, &["--html", "page.html", "s"]);
    for window in WINDOWS {
        let journey = format!(
            r#"{{"viewport": [{}, {}], "zoom": "s/locale"}}"#,
            window.0, window.1
        );
        let Some(report) = browser_report(&env, "page.html", &journey) else {
            return;
        };
        let first = &report["first"];
        assert_whole_map(&env, first, "s", window);
        // the map fills its column, and nothing makes the page wider than the window
        let width = first["pageWidth"].as_f64().expect("pageWidth");
        assert!(
            width <= f64::from(window.0),
            "{window:?}: page {width} px wide"
        );
        assert!(
            first["mapWidth"].as_f64().expect("mapWidth") > 0.5 * f64::from(window.0).min(800.0)
        );
        // zoomed into the directory of 200 directories: every one drawn
        let zoomed = &report["zoomed"];
        assert_eq!(zoomed["hash"], "#s%2Flocale");
        assert_whole_map(&env, zoomed, "s/locale", window);
        assert_eq!(drawn(zoomed).len(), 200, "{window:?}");
    }
}

#[test]
fn html_map_draws_every_path_given() {
    let env = TestEnv::new();
    // the first path holds more entries than the page draws at once
    env.bash("for d in $(seq 1 10); do mkdir -p p/d$d; for i in $(seq 1 600); do printf x > p/d$d/f$i; done; done");
    env.file("q/two/big", 12_000_000).file("r/three", 6_000_000);
    write_page(&env, &["--html", "page.html", "p", "q", "r"]);
    let Some(report) = browser_report(&env, "page.html", "{}") else {
        return;
    };
    assert_eq!(drawn(&report["first"]), ["p", "q", "r"]);
    assert!(report["first"]["blank"].as_f64().expect("blank") <= 0.02);
}

/// Names that differ only in bytes that are not UTF-8, the same text spelled with
/// backslashes, and names with direction, control and zero-width characters.
fn hostile_names(env: &TestEnv) {
    env.bash(
        r#"mkdir -p t && cd t
        mkdir "$(printf 'dir\xff\xfe')" "$(printf 'dir\xfd\xfc')" 'dir\xff\xfe'
        head -c 100000 /dev/zero > "$(printf 'dir\xff\xfe')/one"
        head -c 60000 /dev/zero > "$(printf 'dir\xfd\xfc')/two"
        head -c 30000 /dev/zero > 'dir\xff\xfe/three'
        head -c 20000 /dev/zero > "$(printf '\u202eevil\u202c.exe')"
        head -c 20000 /dev/zero > "$(printf 'dir\nnewline')"
        head -c 20000 /dev/zero > "$(printf 'zero\u200bwidth')""#,
    );
}

#[test]
fn html_names_stay_distinct_reachable_and_escaped() {
    let env = TestEnv::new();
    hostile_names(&env);
    write_page(&env, &["--html", "page.html", "t"]);
    let journey = r#"{"zoom": "t/dir\\xfd\\xfc"}"#;
    let Some(report) = browser_report(&env, "page.html", journey) else {
        return;
    };
    let paths = drawn(&report["first"]);
    for want in [
        "t/dir\\xff\\xfe",
        "t/dir\\xfd\\xfc",
        &page_path("t/dir\\xff\\xfe"),
        "t/\\u{202e}evil\\u{202c}.exe",
        "t/dir\\nnewline",
        "t/zero\\u{200b}width",
    ] {
        assert!(paths.iter().any(|p| p == want), "{want} not in {paths:?}");
    }
    assert_eq!(paths.len(), 6, "{paths:?}");
    // the second of the pair opens itself, not the first
    assert_eq!(strings(&report["zoomed"]["table"]), ["two"]);
    let text = report["text"].as_str().expect("text");
    for shown in [
        "dir\\xff\\xfe",
        "\\u{202e}evil\\u{202c}.exe",
        "dir\\nnewline",
    ] {
        assert!(text.contains(shown), "{shown} not shown: {text}");
    }
    for raw in ['\u{202e}', '\u{200b}', '\u{fffd}'] {
        assert!(!text.contains(raw), "{raw:?} reached the page raw");
    }
}

#[test]
fn html_diff_shares_add_up_and_the_header_says_then_and_now() {
    let env = TestEnv::new();
    tree(&env);
    env.hogs().args(["-O", "old.json", "t"]).assert().success();
    env.file("t/a/new", 80_000);
    std::fs::remove_dir_all(env.path("t/d")).expect("rm t/d");
    write_page(&env, &["--diff", "old.json", "--html", "page.html", "t"]);
    let Some(report) = browser_report(&env, "page.html", "{}") else {
        return;
    };
    let first = &report["first"];
    let shares: f64 = strings(&first["shares"])
        .iter()
        .map(|s| s.trim_end_matches('%').parse::<f64>().expect("a share"))
        .sum();
    // the children's shares of t: all of it but its own block
    let whole = env.du_total(&["-B1"], &["t"]) as f64;
    let kids: u64 = du_rects(&env, &["-B1"], "t").iter().map(|r| r.1).sum();
    let want = 100.0 * kids as f64 / whole;
    assert!(
        (shares - want).abs() < 0.3,
        "shares add to {shares}%, not {want:.1}%"
    );
    // the gone directory is listed apart, last, with its size then
    let sizes = strings(&first["sizes"]);
    assert_eq!(
        sizes.last().map(String::as_str),
        Some("was 64Ki"),
        "{sizes:?}"
    );
    let text = report["text"].as_str().expect("text");
    for word in ["Then", "Now", "Change", "1 removed (64Ki)"] {
        assert!(text.contains(word), "{word}: {text}");
    }
}

#[test]
fn html_captions_count_every_entry() {
    let env = TestEnv::new();
    env.mkdir("t/many");
    env.bash("cd t/many && for i in $(seq 1 1589); do printf x > f$i; done");
    env.file("t/many/big", 20_000_000);
    env.file("f/file", 300_000);
    env.mkdir("e/empty");
    write_page(&env, &["--html", "many.html", "t/many"]);
    write_page(&env, &["--html", "file.html", "f/file"]);
    write_page(&env, &["--html", "empty.html", "e/empty"]);
    let Some(many) = browser_report(&env, "many.html", "{}") else {
        return;
    };
    let caption = many["first"]["caption"].as_str().expect("caption");
    assert!(caption.contains("1,590 entries (1,000 shown)"), "{caption}");
    let Some(file) = browser_report(&env, "file.html", "{}") else {
        return;
    };
    let size = env.du_total(&["-B1"], &["f/file"]);
    assert_eq!(rects(&file["first"]), [("f/file".to_owned(), size)]);
    let Some(empty) = browser_report(&env, "empty.html", "{}") else {
        return;
    };
    let caption = empty["first"]["caption"].as_str().expect("caption");
    assert!(caption.ends_with("empty directory"), "{caption}");
    assert!(empty["text"]
        .as_str()
        .expect("text")
        .contains("empty directory"));
}

#[test]
fn html_backspace_comes_back_to_the_directory_it_left() {
    let env = TestEnv::new();
    tree(&env);
    env.file("t/c/more", 10_000);
    write_page(&env, &["--html", "page.html", "t"]);
    let Some(report) = browser_report(&env, "page.html", r#"{"up": "c"}"#) else {
        return;
    };
    assert_eq!(report["up"]["focused"], "c");
}

#[test]
fn html_a_tap_tells_before_it_zooms() {
    let env = TestEnv::new();
    tree(&env);
    write_page(&env, &["--html", "page.html", "t"]);
    let journey = r#"{"viewport": [390, 844], "touch": true, "tap": "t/a"}"#;
    let Some(report) = browser_report(&env, "page.html", journey) else {
        return;
    };
    let taps = &report["taps"];
    let tapped = taps["tapped"].as_str().expect("tapped");
    assert!(tapped.starts_with("t/a/"), "{taps}");
    let first = &taps["first"];
    assert_eq!(first["hash"], "", "the first tap zoomed");
    let pop = first["pop"].as_str().expect("details by the finger");
    assert!(pop.contains(tapped), "{pop}");
    assert_eq!(taps["second"]["hash"], "#t%2Fa");
    // the map fills the phone's column (358 px between the page's margins)
    let map = report["first"]["mapWidth"].as_f64().expect("mapWidth");
    assert!(map >= 356.0, "map {map} px wide");
}

#[test]
fn html_long_paths_keep_the_page_in_its_window() {
    let mut env = TestEnv::new();
    env.set_deep_cleanup();
    env.mkdir("t");
    env.deep_chain("t", 3000);
    let long = "n".repeat(255);
    env.file(format!("t/{long}"), 10_000);
    write_page(&env, &["--html", "page.html", "t"]);
    let deepest = format!("t{}", "/d".repeat(3000));
    let journey = serde_json::json!({
        "viewport": [390, 844],
        "hash": format!("#{}", deepest.replace('/', "%2F")),
    });
    let Some(report) = browser_report(&env, "page.html", &journey.to_string()) else {
        return;
    };
    let first = &report["first"];
    assert_eq!(first["hash"], format!("#{}", deepest.replace('/', "%2F")));
    let crumbs = strings(&first["crumbs"]);
    assert_eq!(crumbs, ["t", "…", "d", "d", "d"]);
    let Some(top) = browser_report(&env, "page.html", r#"{"viewport": [390, 844]}"#) else {
        return;
    };
    let width = top["first"]["pageWidth"].as_f64().expect("pageWidth");
    assert!(
        width <= 390.0,
        "a 255-byte name made the page {width} px wide"
    );
}

#[test]
fn html_search_finds_what_find_finds() {
    let env = TestEnv::new();
    tree(&env);
    env.file("t/c/clip.mp4", 5_000).file("t/d/MOVIE.MP4", 7_000);
    write_page(&env, &["--html", "page.html", "t"]);
    let Some(report) = browser_report(&env, "page.html", r#"{"search": "*.mp4"}"#) else {
        return;
    };
    let find = std::process::Command::new("sh")
        .args(["-c", "find t -iname '*.mp4' | LC_ALL=C sort"])
        .current_dir(env.root())
        .output()
        .expect("run find");
    let found = String::from_utf8(find.stdout).expect("UTF-8");
    let mut listed = strings(&report["search"]["found"]);
    // biggest first: x.mp4 (100,000), then the two small ones
    assert_eq!(listed[0], "t/a/b/x.mp4");
    listed.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    assert_eq!(listed.join("\n") + "\n", found);
    assert_eq!(report["search"]["opened"]["hash"], "#t%2Fa%2Fb");
}

#[test]
fn html_units_say_which() {
    let env = TestEnv::new();
    tree(&env);
    write_page(&env, &["--html", "binary.html", "t"]);
    write_page(&env, &["-o", "si", "--html", "si.html", "t"]);
    let Some(binary) = browser_report(&env, "binary.html", "{}") else {
        return;
    };
    let Some(si) = browser_report(&env, "si.html", "{}") else {
        return;
    };
    let text = binary["text"].as_str().expect("text");
    assert!(
        text.contains("424Ki") && text.contains("Ki = 1024"),
        "{text}"
    );
    let text = si["text"].as_str().expect("text");
    assert!(text.contains("434K") && !text.contains("Ki"), "{text}");
}

#[test]
fn html_owners_have_distinct_colours_others_grey_and_named() {
    if !crate::util::is_root() {
        skip!("skipped: --by-owner's page needs files of other owners (root to chown)");
        return;
    }
    let env = TestEnv::new();
    // 14 owners and root: 11 named in the legend, 4 summed as "others"
    for i in 1..=14u64 {
        env.file(format!("t/o{i:02}/data"), (15 - i) * 100_000);
        env.bash(&format!("chown -R {} t/o{i:02}", 2000 + i));
    }
    write_page(&env, &["--by-owner", "--html", "page.html", "t"]);
    let Some(report) = browser_report(&env, "page.html", "{}") else {
        return;
    };
    let first = &report["first"];
    let colour = |dir: &str| -> String {
        let rects = first["rects"].as_array().expect("rects");
        let r = rects.iter().find(|r| r["path"] == format!("t/{dir}"));
        r.expect("drawn")["colour"]
            .as_str()
            .expect("colour")
            .to_owned()
    };
    let named: Vec<String> = (1..=11).map(|i| colour(&format!("o{i:02}"))).collect();
    let mut distinct = named.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 11, "{named:?}");
    let grey = colour("o12");
    for i in 12..=14 {
        assert_eq!(colour(&format!("o{i}")), grey);
    }
    let rgb: Vec<&str> = grey
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(", ")
        .collect();
    assert!(
        rgb.iter().all(|c| *c == rgb[0]),
        "others are not grey: {grey}"
    );
    assert!(!named.contains(&grey), "{grey} is an owner's too");
    // each row names its owner, one of the others too
    let owners = first["owners"].as_array().expect("owners");
    let o14 = owners.iter().find(|o| o[0] == "o14").expect("o14 listed");
    assert_eq!(o14[1], "2014");
    // (and root, t's own owner, with the fewest bytes)
    assert!(report["text"].as_str().expect("text").contains("4 others"));
}
