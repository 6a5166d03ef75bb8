//! Number formats shared by pages, charts and downloads, so one figure reads
//! the same everywhere. Every format is explicit: no float is printed with
//! `{}`.

/// `value` with exactly `decimals` decimals, e.g. `fixed(39.05, 2)` → `39.05`.
pub fn fixed(value: f64, decimals: usize) -> String {
    let s = format!("{value:.decimals$}");
    // Avoid "-0.00".
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_owned()
    } else {
        s
    }
}

/// `value` rounded to a whole number with thin grouping by commas, e.g.
/// `10648.0` → `10,648`.
pub fn grouped(value: f64) -> String {
    let digits = fixed(value.round(), 0);
    let (sign, digits) = digits
        .strip_prefix('-')
        .map_or(("", digits.as_str()), |d| ("-", d));
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    format!("{sign}{out}")
}

/// Wh per million output tokens: two decimals, as the source publishes it.
pub fn wh_per_million(value: f64) -> String {
    fixed(value, 2)
}

/// Joules per output token: four decimals.
pub fn joules_per_token(value: f64) -> String {
    fixed(value, 4)
}

/// Energy per response in Wh: four decimals.
pub fn wh_per_response(value: f64) -> String {
    fixed(value, 4)
}

/// Energy per response in J: one decimal.
pub fn joules_per_response(value: f64) -> String {
    fixed(value, 1)
}

/// Latency in ms: one decimal.
pub fn ms(value: f64) -> String {
    fixed(value, 1)
}

/// A latency limit in ms: no decimals when whole.
pub fn limit_ms(value: f64) -> String {
    if value.fract() == 0.0 {
        fixed(value, 0)
    } else {
        fixed(value, 1)
    }
}

/// Parameters in billions: one decimal.
pub fn params_b(value: f64) -> String {
    fixed(value, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_fixed_and_grouped() {
        assert_eq!(fixed(0.1 + 0.2, 2), "0.30");
        assert_eq!(fixed(-0.0001, 2), "0.00");
        assert_eq!(grouped(10648.0), "10,648");
        assert_eq!(grouped(910.0), "910");
        assert_eq!(grouped(1_234_567.4), "1,234,567");
        assert_eq!(grouped(-1234.0), "-1,234");
        assert_eq!(limit_ms(500.0), "500");
        assert_eq!(limit_ms(62.5), "62.5");
    }
}
