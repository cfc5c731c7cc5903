//! Cases 20, 21 and 23: hostile names and what reaches a terminal.

use std::fs;

use super::{err_lines, in_terminal};
use crate::util::*;

/// A name with every kind of trouble: not UTF-8, a newline, a title-setting OSC sequence,
/// a screen-clearing CSI, a bidi override and a zero-width space.
fn hostile_tree(env: &TestEnv) {
    env.mkdir("d");
    let names: &[&[u8]] = &[
        b"bad-\xff\xfe-name",
        b"new\nline",
        b"osc-\x1b]0;pwned\x07",
        b"csi-\x1b[2J",
        "bidi-\u{202e}cod.exe".as_bytes(),
        "zero\u{200b}width".as_bytes(),
        b"plain",
    ];
    for (i, n) in names.iter().enumerate() {
        let p = env.path("d").join(path_bytes(n));
        fs::write(&p, vec![b'x'; 1000 * (i + 1)]).expect("write a hostile name");
    }
}

/// No control character but the line structure (`\n`, and `\r` of the pty) and SGR colours.
fn assert_no_raw_controls(out: &[u8], what: &str) {
    let text = String::from_utf8_lossy(out);
    for (i, c) in text.char_indices() {
        let bad = match c {
            '\n' | '\r' => false,
            // colour sequences are ESC [ digits/; m — anything else after ESC is not ours
            '\x1b' => {
                let rest = &text[i + 1..];
                let seq: String = rest.chars().take_while(|c| *c != 'm').collect();
                !(seq.starts_with('[') && seq[1..].chars().all(|c| c.is_ascii_digit() || c == ';'))
            }
            '\u{202e}' | '\u{200b}' => true,
            c => c.is_control(),
        };
        assert!(!bad, "{what}: raw {c:?} at byte {i}:\n{text:?}");
    }
}

/// Case 20: a non-UTF-8 name comes back as its raw bytes through a pipe, escaped (`\xff`)
/// on a terminal, and losslessly in JSON (`name_bytes`).
#[test]
fn non_utf8_raw_when_piped_escaped_on_terminal() {
    let env = TestEnv::new();
    hostile_tree(&env);
    let piped = env.stdout_ok(["-n", "20", "d"]);
    assert!(
        piped.windows(4).any(|w| w == b"\xff\xfe-n"),
        "raw bytes through a pipe:\n{piped:?}"
    );
    let v = env.json(["d"]);
    let bad = children(&v)
        .iter()
        .find(|c| name(c).starts_with("bad-"))
        .expect("the non-UTF-8 name in JSON");
    let bytes: Vec<u8> = bad["name_bytes"]
        .as_array()
        .expect("name_bytes array")
        .iter()
        .map(|b| b.as_u64().expect("byte") as u8)
        .collect();
    // the path, as `name` is (dust's)
    assert_eq!(bytes, b"d/bad-\xff\xfe-name", "name_bytes keeps every byte");

    let cmd = format!("{} -w 100 -n 20 d", hogs_bin().display());
    let Some(tty) = in_terminal(env.root(), &cmd, &[]) else {
        return;
    };
    let text = String::from_utf8_lossy(&tty);
    assert!(
        text.contains("bad-\\xff\\xfe-name"),
        "escaped on a terminal:\n{text}"
    );
    assert!(!tty.contains(&0xff), "a raw 0xff reached the terminal");
}

/// Case 21: control sequences, bidi overrides and zero-width characters never reach the
/// terminal raw — not in the tree, not in error messages — and every row stays one row.
#[test]
fn hostile_names_never_reach_the_terminal_raw() {
    let env = TestEnv::new();
    hostile_tree(&env);
    for flags in ["", "-p", "-r", "-F", "-b"] {
        let cmd = format!("{} -w 90 -n 30 {flags} d", hogs_bin().display());
        let Some(tty) = in_terminal(env.root(), &cmd, &[]) else {
            return;
        };
        assert_no_raw_controls(&tty, &cmd);
        let rows = String::from_utf8_lossy(&tty).lines().count();
        assert!(
            rows <= 8,
            "{cmd}: {rows} rows for 8 entries (a name broke a line)"
        );
    }
    // piped: the same, but for the non-UTF-8 bytes passed through
    let out = env.stdout_ok(["-n", "30", "d"]);
    assert_no_raw_controls(&out, "piped");
    assert_eq!(lines(&out).len(), 8, "piped: one line per entry");

    // error messages: a missing argument and an unreadable directory with hostile names
    let missing = "gone-\x1b]0;pwned\x07-\u{202e}x";
    let out = env.run([missing, "d"]);
    assert_eq!(out.status.code(), Some(1));
    assert_no_raw_controls(&out.stderr, "error message");
    assert_eq!(err_lines(&out).len(), 1, "one line: {:?}", err_lines(&out));
    let cmd = format!("{} '{missing}' d", hogs_bin().display());
    if let Some(tty) = in_terminal(env.root(), &cmd, &[]) {
        assert_no_raw_controls(&tty, "error message on a terminal");
    }
    if !is_root() || have_setpriv() {
        env.mkdir("d/locked-\n\x1b[31m");
        env.chmod("d/locked-\n\x1b[31m", 0o000);
        let out = unprivileged(&hogs_bin())
            .arg("d")
            .current_dir(env.root())
            .output()
            .expect("run hogs");
        env.chmod("d/locked-\n\x1b[31m", 0o755);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            err_lines(&out),
            ["hogs: cannot read directory 'd/locked-\\n\\x1b[31m': Permission denied"]
        );
    }
}

/// Case 21: wide characters (CJK, emoji) are measured in columns: the bars of every row start
/// and end in the same terminal column.
#[test]
fn wide_names_keep_bars_aligned() {
    let env = TestEnv::new();
    env.file("d/日本語のファイル名", 30_000);
    env.file("d/😀😀😀", 20_000);
    env.file("d/ascii-name", 10_000);
    env.file("d/mixé-中文", 5_000);
    let out = env.stdout_ok(["-w", "70", "-n", "10", "d"]);
    let text = String::from_utf8_lossy(&out);
    let mut bar_cols = Vec::new();
    for l in text.lines() {
        // display column of each '│'
        let mut col = 0;
        let mut cols = Vec::new();
        for c in l.chars() {
            if c == '│' {
                cols.push(col);
            }
            col += unicode_width(c);
        }
        bar_cols.push(cols);
    }
    // every file and the root is a row with a bar (two '│' each), else there is nothing
    // to compare and "aligned" would hold of an empty output
    assert_eq!(bar_cols.len(), 5, "rows:\n{text}");
    for name in ["日本語のファイル名", "😀😀😀", "ascii-name", "mixé-中文"] {
        assert!(text.contains(name), "no row for {name}:\n{text}");
    }
    assert!(
        bar_cols.iter().all(|cols| cols.len() == 2),
        "a row without its bar: {bar_cols:?}\n{text}"
    );
    assert!(
        bar_cols.windows(2).all(|w| w[0] == w[1]),
        "bars not aligned: {bar_cols:?}\n{text}"
    );
    // the rows fill the width asked for, wide characters counted as two columns
    for l in text.lines() {
        let cols: usize = l.chars().map(unicode_width).sum();
        assert_eq!(cols, 70, "row not 70 columns wide: {l:?}");
    }
}

/// Column width of a character, as terminals draw these (wide East Asian and emoji: 2).
fn unicode_width(c: char) -> usize {
    let u = c as u32;
    let wide = (0x1100..=0x115f).contains(&u)
        || (0x2e80..=0xa4cf).contains(&u)
        || (0xac00..=0xd7a3).contains(&u)
        || (0xf900..=0xfaff).contains(&u)
        || (0xfe30..=0xfe4f).contains(&u)
        || (0xff00..=0xff60).contains(&u)
        || (0xffe0..=0xffe6).contains(&u)
        || (0x1f300..=0x1f64f).contains(&u)
        || (0x1f900..=0x1f9ff).contains(&u)
        || (0x20000..=0x3fffd).contains(&u);
    if wide {
        2
    } else {
        1
    }
}

/// Case 23: on a terminal colours are on, and `NO_COLOR` turns them off; through a pipe
/// there are no escapes and no progress line at all.
#[test]
fn no_color_on_a_terminal() {
    let env = TestEnv::new();
    mixed_tree(&env, "d");
    let cmd = format!("{} -w 80 d", hogs_bin().display());
    let Some(colour) = in_terminal(env.root(), &cmd, &[]) else {
        return;
    };
    assert!(colour.contains(&0x1b), "sanity: colours on a terminal");
    let plain = in_terminal(env.root(), &cmd, &[("NO_COLOR", "1")]).expect("script");
    assert!(!plain.contains(&0x1b), "NO_COLOR: escapes sent: {plain:?}");
    let out = env.run(["d"]);
    assert!(
        !out.stdout.contains(&0x1b) && out.stderr.is_empty(),
        "piped: {out:?}"
    );
}

/// Case 20 in error messages: a non-UTF-8 path that cannot be read comes back byte for byte
/// when stderr is a pipe (it was turned into U+FFFD), and escaped on a terminal.
#[test]
fn non_utf8_path_in_an_error_is_raw_when_piped() {
    let env = TestEnv::new();
    env.file("d/f", 100);
    let missing = crate::util::os(b"gone-\xff\xfe");
    let out = env
        .hogs()
        .arg(&missing)
        .arg("d")
        .output()
        .expect("run hogs");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stderr
            .starts_with(b"hogs: cannot access 'gone-\xff\xfe': No such file or directory\n"),
        "{:?}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cmd = format!("{} \"$(printf 'gone-\\377')\" d", hogs_bin().display());
    if let Some(tty) = in_terminal(env.root(), &cmd, &[]) {
        let text = String::from_utf8_lossy(&tty);
        assert!(
            text.contains("'gone-\\xff'"),
            "escaped on a terminal: {text:?}"
        );
    }
}

/// Issue 22, item 15: in a 20-column terminal the progress line is cut to fit one row, so
/// returning to its start erases it: no redraw leaves a wrapped row behind in the
/// scrollback, and the line is gone before the result is printed.
#[test]
fn the_progress_line_fits_a_narrow_terminal_and_is_erased() {
    let env = TestEnv::new();
    env.mkdir("many");
    for i in 0..40_000 {
        let p = env.path(format!("many/f{i:05}"));
        fs::File::create(&p).unwrap_or_else(|e| panic!("create {}: {e}", p.display()));
    }
    // no delay before the first draw, so even this short scan shows the line; one thread
    // and the stat of every entry (-s is not -f) keep it on screen for several redraws
    let cmd = format!(
        "stty cols 20 rows 10; {} -T 1 -d 0 many",
        hogs_bin().display()
    );
    let Some(screen) = in_terminal(env.root(), &cmd, &[("HOGS_PROGRESS_DELAY_MS", "0")]) else {
        return;
    };
    let text = String::from_utf8_lossy(&screen);
    // what each redraw wrote: the text between one erase and the next (after the last
    // erase comes the result)
    let segments: Vec<&str> = text.split("\r\x1b[K").skip(1).collect();
    let drawn: Vec<&str> = segments[..segments.len().saturating_sub(1)]
        .iter()
        .map(|s| s.split(['\r', '\n']).next().unwrap_or(""))
        .collect();
    assert!(
        drawn.iter().any(|s| s.starts_with("scanning")),
        "no progress line was drawn: {text:?}"
    );
    for s in &drawn {
        assert!(
            s.chars().count() < 20,
            "a progress line wider than the terminal: {s:?} in {text:?}"
        );
    }
    // the last thing before the result is the erase, and the result is the root's row (in
    // 20 columns without bars: dust draws none where the name leaves no room)
    let last_erase = text.rfind("\r\x1b[K").expect("an erase");
    let after = &text[last_erase + 4..];
    assert!(
        !after.contains("scanning") && after.contains("┌── ") && after.contains("many"),
        "the line was not erased before the result: {text:?}"
    );
}
