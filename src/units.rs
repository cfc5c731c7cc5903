//! Sizes in and out: parsing `-z 1.5G`, writing `4.0K` / `12M` / `1234`.

use crate::vocab::{SizeMode, UnitStyle};

const IEC: [&str; 7] = ["B", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
const SI: [&str; 7] = ["B", "K", "M", "G", "T", "P", "E"];

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

/// Formats a size for the size column. Counts (`-f`) use the same short units in powers of
/// 1000 without a `B` (as dust does), unless plain output was asked for.
pub fn format_size(value: u64, mode: SizeMode, style: UnitStyle) -> String {
    match (mode, style) {
        (SizeMode::Time, _) => format_time(value),
        (_, UnitStyle::Plain) => value.to_string(),
        (SizeMode::Count, _) => human(value, 1000, &["", "K", "M", "G", "T", "P", "E"]),
        (_, UnitStyle::HumanIec) => human(value, 1024, &IEC),
        (_, UnitStyle::HumanSi) => human(value, 1000, &SI),
        (_, UnitStyle::Fixed(div, suffix)) => {
            let v = value as f64 / div as f64;
            if v > 0.0 && v < 10.0 {
                format!("{v:.1}{suffix}")
            } else {
                format!("{}{suffix}", v.round() as u64)
            }
        }
    }
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SS` (UTC: no time-zone database is read),
/// as wide as dust's `-m` column; `-` for none.
pub fn format_time(secs: u64) -> String {
    if secs == 0 {
        return "-".to_string();
    }
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // days since 1970-01-01 to a civil date (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// `value` in the largest unit that keeps it below `base`: one decimal under 10, none above.
fn human(value: u64, base: u64, units: &[&str]) -> String {
    if value < base {
        return format!("{value}{}", units[0]);
    }
    let mut v = value as f64;
    let mut i = 0;
    while v >= base as f64 && i + 1 < units.len() {
        v /= base as f64;
        i += 1;
    }
    // 1023.96K would print as "1024K": move up a unit instead
    if v >= 9.95 && format!("{v:.0}").len() > 3 && i + 1 < units.len() {
        v /= base as f64;
        i += 1;
    }
    if v < 9.95 {
        format!("{v:.1}{}", units[i])
    } else {
        format!("{v:.0}{}", units[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_utc_dates() {
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

    #[test]
    fn formats_like_dust() {
        let f = |v| format_size(v, SizeMode::Disk, UnitStyle::HumanIec);
        assert_eq!(f(0), "0B");
        assert_eq!(f(1023), "1023B");
        assert_eq!(f(1024), "1.0Ki");
        assert_eq!(f(4096), "4.0Ki");
        assert_eq!(f(10 * 1024), "10Ki");
        assert_eq!(f(1_048_000), "1.0Mi"); // 1023.4Ki: never four digits
        assert_eq!(f(999 * 1024), "999Ki");
        assert_eq!(f(1_048_575), "1.0Mi");
        assert_eq!(f(5 << 30), "5.0Gi");
        assert_eq!(
            format_size(9_100, SizeMode::Disk, UnitStyle::HumanSi),
            "9.1K"
        );
        assert_eq!(format_size(1234, SizeMode::Disk, UnitStyle::Plain), "1234");
        assert_eq!(
            format_size(1500, SizeMode::Count, UnitStyle::HumanIec),
            "1.5K"
        );
        assert_eq!(
            format_size(999, SizeMode::Count, UnitStyle::HumanIec),
            "999"
        );
        assert_eq!(
            format_size(3 << 20, SizeMode::Disk, UnitStyle::Fixed(1024, "Ki")),
            "3072Ki"
        );
    }
}
