//! Sizes in and out: parsing `-z 1.5G`, writing `4.0K` / `12M` / `1234`.

use crate::vocab::{SizeMode, UnitStyle};

// dust stops at peta: 2048 PiB is written `2048Pi`
const IEC: [&str; 6] = ["B", "Ki", "Mi", "Gi", "Ti", "Pi"];
const SI: [&str; 6] = ["B", "K", "M", "G", "T", "P"];

/// Parses a size as users type it: `500`, `20K`, `1.5M`, `2G`, `3Ki`, `4KiB` (powers of 1024),
/// `4KB` (powers of 1000). Case-insensitive. `None` for anything else, negative or overflowing.
pub fn parse_size(input: &str) -> Option<u64> {
    let s = input.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (number, unit) = s.split_at(split);
    if number.is_empty() || number.starts_with('.') && number.len() == 1 {
        return None;
    }
    let unit = unit.trim().to_ascii_lowercase();
    let (letter, rest) = match unit.chars().next() {
        None => return parse_scaled(number, 1),
        Some(c) => (c, &unit[c.len_utf8()..]),
    };
    let power = match letter {
        'b' if rest.is_empty() => 0,
        'k' => 1,
        'm' => 2,
        'g' => 3,
        't' => 4,
        'p' => 5,
        'e' => 6,
        _ => return None,
    };
    let base: u64 = match rest {
        "" | "i" | "ib" => 1024,
        "b" => 1000,
        _ => return None,
    };
    parse_scaled(number, base.checked_pow(power)?)
}

fn parse_scaled(number: &str, scale: u64) -> Option<u64> {
    if let Ok(n) = number.parse::<u64>() {
        return n.checked_mul(scale);
    }
    let f: f64 = number.parse().ok()?;
    let v = f * scale as f64;
    (v.is_finite() && v >= 0.0 && v < u64::MAX as f64).then(|| v.round() as u64)
}

/// Formats a size for the size column, as dust writes it (`display::human_readable_number`):
/// `0B`…`1023B`, then one decimal below ten units (`4.0Ki`) and whole units, rounded down,
/// from ten up (`11Mi` for 11.9 MiB); a fixed unit (`-o k`, `-o mb`) is the whole number of
/// that unit, rounded down; `-o b` is the exact byte count with a `B`. Counts (`-f`) are the
/// exact number with thousands separators (`43,077`), whatever `-o` says.
pub fn format_size(value: u64, mode: SizeMode, style: UnitStyle) -> String {
    match (mode, style) {
        (SizeMode::Time, _) => format_time(value),
        (SizeMode::Count, _) => with_separators(value),
        (_, UnitStyle::Plain) => format!("{value}B"),
        (_, UnitStyle::HumanIec) => human(value, 1024, &IEC),
        (_, UnitStyle::HumanSi) => human(value, 1000, &SI),
        (_, UnitStyle::Fixed(div, suffix)) => format!("{}{suffix}", value / div.max(1)),
    }
}

/// The `"size"` string of `-j`, as dust's JSON writes it: a count is the bare number (no
/// separators), and anything else — a time too, as dust does — goes through the size units.
pub fn format_json_size(value: u64, mode: SizeMode, style: UnitStyle) -> String {
    match mode {
        SizeMode::Count => value.to_string(),
        _ => format_size(value, SizeMode::Disk, style),
    }
}

/// `43077` → `43,077`.
pub fn with_separators(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The width of [`format_time`]'s dates.
pub const TIME_WIDTH: usize = "YYYY-MM-DDTHH:MM:SS".len();

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SS` in local time (TZ, /etc/localtime), as
/// dust writes `-m`; `-` for none.
pub fn format_time(secs: u64) -> String {
    use chrono::{Local, TimeZone};
    if secs == 0 {
        return "-".to_string();
    }
    match i64::try_from(secs)
        .ok()
        .and_then(|s| Local.timestamp_opt(s, 0).earliest())
    {
        Some(t) => t.format("%Y-%m-%dT%H:%M:%S").to_string(),
        None => "-".to_string(),
    }
}

/// `value` in the largest unit (up to peta, as dust) it reaches: one decimal below ten units,
/// computed in `f32` as dust does so that the rare tie rounds alike (a `10.0` from 9.95 and
/// up is written `10`), and from ten units up the whole number, rounded down.
fn human(value: u64, base: u64, units: &[&str]) -> String {
    for i in (1..units.len()).rev() {
        let marker = base.pow(i as u32);
        if value >= marker {
            if value / marker < 10 {
                let v = format!("{:.1}", value as f32 / marker as f32);
                return if v == "10.0" {
                    format!("10{}", units[i])
                } else {
                    format!("{v}{}", units[i])
                };
            }
            return format!("{}{}", value / marker, units[i]);
        }
    }
    format!("{value}B")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the local zone is UTC (the dust_parity tests run hogs and dust under other TZ).
    #[test]
    fn times_are_local_dates() {
        use chrono::{Local, Offset, TimeZone};
        let utc_here = [1i64, 951_782_400, 1_700_000_000, 4_102_444_799]
            .iter()
            .all(|&s| {
                Local
                    .timestamp_opt(s, 0)
                    .earliest()
                    .is_some_and(|t| t.offset().fix().local_minus_utc() == 0)
            });
        if !utc_here {
            return;
        }
        assert_eq!(format_time(0), "-");
        assert_eq!(format_time(1), "1970-01-01T00:00:01");
        assert_eq!(format_time(951_782_400), "2000-02-29T00:00:00");
        assert_eq!(format_time(1_700_000_000), "2023-11-14T22:13:20");
        assert_eq!(format_time(4_102_444_799), "2099-12-31T23:59:59");
    }

    #[test]
    fn parses_sizes_as_typed() {
        assert_eq!(parse_size("500"), Some(500));
        assert_eq!(parse_size("20K"), Some(20 * 1024));
        assert_eq!(parse_size("20k"), Some(20 * 1024));
        assert_eq!(parse_size("1.5M"), Some(1536 * 1024));
        assert_eq!(parse_size("2G"), Some(2 << 30));
        assert_eq!(parse_size("3KiB"), Some(3072));
        assert_eq!(parse_size("4KB"), Some(4000));
        assert_eq!(parse_size("7B"), Some(7));
        for bad in [
            "",
            "abc",
            "-1",
            "1X",
            "K",
            ".",
            "1.2.3",
            "99999999999999999999E",
        ] {
            assert_eq!(parse_size(bad), None, "{bad:?}");
        }
    }

    /// Every expectation checked against dust 1.2.7 on files of these sizes (`dust -s`,
    /// `-o si`, `-o k`, `-o kb`, `-o b`, `-f`).
    #[test]
    fn formats_like_dust() {
        let f = |v| format_size(v, SizeMode::Disk, UnitStyle::HumanIec);
        assert_eq!(f(0), "0B");
        assert_eq!(f(1023), "1023B");
        assert_eq!(f(1024), "1.0Ki");
        assert_eq!(f(1536), "1.5Ki");
        assert_eq!(f(5000), "4.9Ki");
        assert_eq!(f(10188), "9.9Ki");
        assert_eq!(f(10189), "10Ki"); // 9.95: {:.1} says 10.0, written 10
        assert_eq!(f(10 * 1024 - 1), "10Ki");
        assert_eq!(f(10 * 1024), "10Ki");
        assert_eq!(f(999_999), "976Ki");
        assert_eq!(f(1_047_000), "1022Ki");
        assert_eq!(f(1_048_575), "1023Ki"); // rounded down, never up to the next unit
        assert_eq!(f(12_046_336), "11Mi"); // 11.49: rounded down
        assert_eq!(f((12 << 20) - 1), "11Mi");
        assert_eq!(f((1 << 30) - 1), "1023Mi");
        assert_eq!(f(20 << 30), "20Gi");
        assert_eq!(f(5 << 30), "5.0Gi");
        assert_eq!(f(1 << 50), "1.0Pi");
        assert_eq!(f(2048 << 50), "2048Pi"); // no exbi
        let si = |v| format_size(v, SizeMode::Disk, UnitStyle::HumanSi);
        assert_eq!(si(999), "999B");
        assert_eq!(si(1023), "1.0K");
        assert_eq!(si(9_100), "9.1K");
        assert_eq!(si(9_999), "10K");
        assert_eq!(si(102_400), "102K");
        assert_eq!(si(999_999), "999K");
        assert_eq!(si(1_000_000), "1.0M");
        assert_eq!(
            format_size(678_559_744, SizeMode::Disk, UnitStyle::Plain),
            "678559744B"
        );
        assert_eq!(format_size(0, SizeMode::Apparent, UnitStyle::Plain), "0B");
        let fixed = |v, d, u| format_size(v, SizeMode::Disk, UnitStyle::Fixed(d, u));
        assert_eq!(fixed(3 << 20, 1024, "Ki"), "3072Ki");
        assert_eq!(fixed(10_239, 1024, "Ki"), "9Ki");
        assert_eq!(fixed(12_046_336, 1_000, "K"), "12046K");
        assert_eq!(fixed(12_046_336, 1_000_000, "M"), "12M");
        assert_eq!(fixed(999_999_999, 1_000_000_000, "G"), "0G");
        assert_eq!(fixed(12_046_336, 1 << 20, "Mi"), "11Mi");
    }

    #[test]
    fn counts_are_exact_with_separators() {
        for style in [UnitStyle::HumanIec, UnitStyle::Plain, UnitStyle::HumanSi] {
            let c = |v| format_size(v, SizeMode::Count, style);
            assert_eq!(c(0), "0");
            assert_eq!(c(999), "999");
            assert_eq!(c(1_000), "1,000");
            assert_eq!(c(43_077), "43,077");
            assert_eq!(c(1_234_567), "1,234,567");
            assert_eq!(c(u64::MAX), "18,446,744,073,709,551,615");
        }
    }

    #[test]
    fn json_sizes_are_dust_strings() {
        let iec = UnitStyle::HumanIec;
        assert_eq!(format_json_size(43_077, SizeMode::Count, iec), "43077");
        assert_eq!(format_json_size(12_288, SizeMode::Disk, iec), "12Ki");
        assert_eq!(
            format_json_size(12_046_336, SizeMode::Apparent, UnitStyle::Plain),
            "12046336B"
        );
        // dust runs a time through the size units too
        assert_eq!(
            format_json_size(1_795_614_435, SizeMode::Time, UnitStyle::Plain),
            "1795614435B"
        );
    }
}
