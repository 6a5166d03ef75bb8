//! Number formats shared by pages, charts and downloads, so one figure reads
//! the same everywhere (every format is explicit: no float is printed with
//! `{}`), and the one XML/HTML escape they share.

/// `text` with its first letter in upper case, e.g. "median ITL" →
/// "Median ITL".
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// `value` with exactly `decimals` decimals, e.g. `fixed(39.05, 2)` → `39.05`.
///
/// Pages and charts print hundreds of thousands of numbers, so the common
/// case (up to 3 decimals, away from a rounding tie) is written with integer
/// arithmetic; everything else goes through [`fixed_exact`]. Tests check
/// the two agree (on random values and on every figure in `data/`).
///
/// Measured 2026-12-01 on the shared 2-core machine, so that the integer
/// path earns its place:
/// - `cargo bench --bench fmt`, the 12,766 figures with decimals that the
///   pages print for `data/` (the 4-decimal ones go the exact way in both):
///   89.5 ns a figure against 170.4 ns through `fixed_exact` alone (the
///   quietest of four runs; 90–160 against 170–490 ns over all four).
/// - End to end, `energyboard build` of `synth --count 1000 --seed 1` into
///   /dev/shm (about 0.75 million calls): the exact path alone costs 6.0 %
///   more instructions (callgrind: 11.85 G against 11.18 G; 100 models:
///   1.181 G against 1.112 G), and 9 alternating runs take a median of
///   2.73 s CPU (user + sys) against 2.98 s (−8 %). Wall time on the
///   shared cores is noisier than the difference (medians 4.09 s with the
///   integer path, 3.40 s without), so the instruction count is the figure
///   to trust.
pub fn fixed(value: f64, decimals: usize) -> String {
    let mut out = String::with_capacity(12);
    push_fixed(&mut out, value, decimals);
    out
}

/// Appends [`fixed`]`(value, decimals)`.
pub fn push_fixed(out: &mut String, value: f64, decimals: usize) {
    const SCALE: [f64; 4] = [1.0, 10.0, 100.0, 1000.0];
    let Some(&scale) = SCALE.get(decimals) else {
        out.push_str(&fixed_exact(value, decimals));
        return;
    };
    let scaled = value * scale;
    let n = scaled.round();
    // The product is within a rounding error of the exact one, so away
    // from a tie both round to the same integer.
    if n.is_nan() || n.abs() >= 1e12 || (scaled - n).abs() >= 0.499 {
        out.push_str(&fixed_exact(value, decimals));
        return;
    }
    let n = n as i64;
    let magnitude = n.unsigned_abs();
    let unit = 10u64.pow(decimals as u32);
    // "-0.00" is written "0.00".
    if n < 0 {
        out.push('-');
    }
    push_int(out, i64::try_from(magnitude / unit).expect("below 1e12"));
    if decimals > 0 {
        out.push('.');
        let frac = magnitude % unit;
        let mut div = unit / 10;
        while div > 0 {
            out.push(char::from(b'0' + (frac / div % 10) as u8));
            div /= 10;
        }
    }
}

/// Appends an integer in decimal.
///
/// Hand-written, and kept because the `itoa` crate does not beat it
/// (measured 2026-12-01): `cargo bench --bench fmt`, the 99,798 integers
/// of the charts and tables of `data/`, 6.1 ns a number against 7.5 ns for
/// `itoa::Buffer::format` and 20.4 ns for `write!` (the quietest of four
/// runs; `itoa` was ahead in one, by 1.2 ns); end to end (`energyboard
/// build` of `synth --count 1000 --seed 1`, about 3.3 million calls,
/// callgrind) 11.18 G instructions against 11.22 G with `itoa` (+0.4 %);
/// on 100 models 1.112 G, 1.117 G with `itoa` and 1.178 G with `write!`.
pub fn push_int(out: &mut String, v: i64) {
    let digit = |d: u64| char::from(b'0' + d as u8);
    let n = v.unsigned_abs();
    if v < 0 {
        out.push('-');
    }
    // Coordinates have one to three digits: write those directly.
    if n < 10 {
        out.push(digit(n));
    } else if n < 100 {
        out.push(digit(n / 10));
        out.push(digit(n % 10));
    } else if n < 1000 {
        out.push(digit(n / 100));
        out.push(digit(n / 10 % 10));
        out.push(digit(n % 10));
    } else {
        let mut digits = [0u8; 20];
        let (mut n, mut i) = (n, digits.len());
        while n > 0 {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
        }
        out.push_str(std::str::from_utf8(&digits[i..]).expect("ASCII digits"));
    }
}

/// [`fixed`] through the standard float formatting: exact, slower.
pub fn fixed_exact(value: f64, decimals: usize) -> String {
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
    let r = value.round();
    let digits = if r.is_nan() || r.abs() >= 1e15 {
        fixed_exact(r, 0)
    } else {
        let mut d = String::with_capacity(20);
        push_int(&mut d, r as i64);
        if d == "-0" { "0".to_owned() } else { d }
    };
    let (sign, digits) = digits
        .strip_prefix('-')
        .map_or(("", digits.as_str()), |d| ("-", d));
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    out.push_str(sign);
    for (i, ch) in digits.char_indices() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
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

/// `value` with `decimals` decimals and its whole part grouped by commas,
/// e.g. `342623.06` → `342,623.06`.
pub fn grouped_fixed(value: f64, decimals: usize) -> String {
    let text = fixed(value, decimals);
    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
    let (sign, digits) = whole.strip_prefix('-').map_or(("", whole), |d| ("-", d));
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + digits.len() / 3);
    out.push_str(sign);
    for (i, ch) in digits.char_indices() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// Energy per image or video in J: four significant figures (no fewer
/// whole digits), thousands grouped, e.g. `6,679`, `95.50`, `342,623`: the
/// source's two decimals claim more than a measurement of thousands of
/// joules holds.
pub fn joules_per_item(value: f64) -> String {
    significant(value, 4)
}

/// Energy per image or video in Wh: four significant figures, as in J.
pub fn wh_per_item(value: f64) -> String {
    significant(value, 4)
}

/// Images or videos per kWh: one decimal, thousands grouped.
pub fn items_per_kwh(value: f64) -> String {
    grouped_fixed(value, 1)
}

/// A batch latency in s: three decimals, as the source publishes it.
pub fn seconds(value: f64) -> String {
    grouped_fixed(value, 3)
}

/// Images or videos per second: four significant digits (the source's
/// precision), e.g. `0.1285` or `0.002993`.
pub fn rate(value: f64) -> String {
    if !value.is_finite() || value == 0.0 {
        return fixed(value, 4);
    }
    let magnitude = value.abs().log10().floor();
    let decimals = (3.0 - magnitude).clamp(0.0, 12.0) as usize;
    grouped_fixed(value, decimals)
}

/// `value` with `digits` significant digits (at most 12 decimals), the
/// whole part grouped by commas, e.g. `significant(0.0000099312, 3)` →
/// `0.00000993`, `significant(68.8608, 3)` → `68.9`, `significant(2345.6,
/// 3)` → `2,346` (whole numbers keep every digit).
pub fn significant(value: f64, digits: u32) -> String {
    if !value.is_finite() || value == 0.0 {
        return grouped_fixed(value, 0);
    }
    let magnitude = value.abs().log10().floor();
    let decimals = (f64::from(digits) - 1.0 - magnitude).clamp(0.0, 12.0) as usize;
    grouped_fixed(value, decimals)
}

/// A setting as written: up to 6 significant digits, trailing zeros
/// dropped, e.g. `366.0` → `366`, `0.1241` → `0.1241`, `1.5` → `1.5`.
pub fn setting(value: f64) -> String {
    let s = significant(value, 6);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
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

/// Escapes text for XML content and attribute values.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    push_xml_escaped(&mut out, text);
    out
}

/// Appends `text` escaped for XML content and attribute values.
pub fn push_xml_escaped(out: &mut String, text: &str) {
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        let entity = match b {
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'&' => "&amp;",
            b'"' => "&quot;",
            b'\'' => "&apos;",
            _ => continue,
        };
        // The escaped characters are ASCII, so `i` is a char boundary.
        out.push_str(&text[start..i]);
        out.push_str(entity);
        start = i + 1;
    }
    out.push_str(&text[start..]);
}

/// A figure as the site prints that column elsewhere: Wh/M tok with two
/// decimals, J per image or video to four significant figures, J per
/// token with four; another column in its shortest exact form.
pub fn figure_value(figure: &str, value: f64) -> String {
    match figure {
        "wh_per_million_output_tokens" => wh_per_million(value),
        "joules_per_image" | "joules_per_video" => joules_per_item(value),
        "joules_per_output_token" => joules_per_token(value),
        _ => raw(value),
    }
}

/// Full precision, `.` as the decimal mark: Rust's shortest round-trip
/// form, in exponent form (`5e-324`) where that would take more than 16
/// digits, and `0` for negative zero. Validation keeps every figure finite.
pub fn raw(v: f64) -> String {
    let size = v.abs();
    if v == 0.0 {
        "0".to_owned()
    } else if (1e-6..1e16).contains(&size) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::SplitMix64;

    #[test]
    fn significant_digits_keep_small_figures_readable() {
        assert_eq!(significant(0.000_009_931_2, 3), "0.00000993");
        assert_eq!(significant(68.8608, 3), "68.9");
        assert_eq!(significant(0.4, 3), "0.400");
        assert_eq!(significant(2345.6, 3), "2,346");
        assert_eq!(significant(0.0, 3), "0");
        assert_eq!(setting(366.0), "366");
        assert_eq!(setting(0.1241), "0.1241");
        assert_eq!(setting(1.5), "1.5");
        assert_eq!(setting(1200.0), "1,200");
    }

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

    #[test]
    fn fast_formats_match_the_standard_ones() {
        let mut values = vec![
            0.0,
            -0.0,
            0.004,
            -0.004,
            0.005,
            0.015,
            0.025,
            0.125,
            2.5,
            3.5,
            -2.5,
            39.05,
            39.045,
            1.005,
            63.47,
            500.0,
            62.5,
            10648.0,
            1_234_567.4,
            -1234.0,
            999.995,
            0.95,
            1e11,
            -1e11,
            1e13,
            123_456_789.987,
            f64::NAN,
            f64::INFINITY,
            f64::MIN_POSITIVE,
        ];
        let mut rng = SplitMix64::for_model(3, 4);
        for _ in 0..20_000 {
            let mag = 10f64.powi((rng.next_u64() % 12) as i32 - 3);
            let v = rng.between(-1.0, 1.0) * mag;
            values.push(v);
            // Decimal-looking values, as the data files hold them.
            values.push((v * 100.0).round() / 100.0);
            values.push((v * 1000.0).round() / 1000.0 + 0.0005);
        }
        for v in values {
            for d in 0..5 {
                assert_eq!(fixed(v, d), fixed_exact(v, d), "{v:e} to {d}");
            }
            if v.is_finite() {
                let slow = fixed_exact(v.round(), 0);
                let slow = if slow == "-0" { "0".to_owned() } else { slow };
                assert_eq!(grouped(v).replace(',', ""), slow, "{v:e}");
            }
        }
    }

    /// The figures the pages print come from the data files: both paths
    /// must agree on every one of them, at every precision the pages use.
    #[test]
    fn fast_formats_match_the_standard_ones_on_the_data() {
        let set = crate::load::load_data_dir(std::path::Path::new("data"))
            .unwrap_or_else(|e| panic!("data/: {e:?}"));
        let mut values = Vec::new();
        for m in &set.models {
            values.extend([m.file.params_b, m.file.active_params_b]);
            for c in &m.file.configurations {
                values.extend([
                    c.wh_per_million_output_tokens,
                    c.joules_per_output_token,
                    c.wh_per_response(),
                    c.joules_per_response(),
                    c.median_itl_ms,
                    c.p90_itl_ms,
                    c.p95_itl_ms,
                    c.p99_itl_ms,
                    c.avg_running_batch,
                    c.avg_requests_in_flight,
                    c.tokens_per_second,
                    c.tokens_per_wh(),
                    c.gpu_power_watts_total,
                    c.avg_output_tokens,
                ]);
            }
        }
        for m in &set.diffusion {
            values.extend([m.file.params_b, m.file.active_params_b]);
            for c in &m.file.configurations {
                values.extend([
                    c.joules_per_item(),
                    c.wh_per_item(),
                    c.items_per_kwh(),
                    c.items_per_second(),
                    c.batch_latency_s,
                    c.gpu_power_watts_total,
                ]);
            }
        }
        assert!(values.len() > 10_000, "{} figures", values.len());
        for v in values {
            for d in 0..5 {
                assert_eq!(fixed(v, d), fixed_exact(v, d), "{v:e} to {d}");
            }
        }
    }

    #[test]
    fn diffusion_figures_read_as_published() {
        assert_eq!(joules_per_item(342_623.06), "342,623");
        assert_eq!(joules_per_item(6678.81), "6,679");
        assert_eq!(joules_per_item(95.5), "95.50");
        assert_eq!(joules_per_item(999.96), "1,000.0");
        assert_eq!(wh_per_item(342_623.06 / 3600.0), "95.17");
        assert_eq!(seconds(7.755), "7.755");
        assert_eq!(seconds(1374.63), "1,374.630");
        assert_eq!(rate(0.1285), "0.1285");
        assert_eq!(rate(0.002_993), "0.002993");
        assert_eq!(rate(1.947), "1.947");
        assert_eq!(rate(12.5), "12.50");
        assert_eq!(items_per_kwh(3.6e6 / 150.0), "24,000.0");
        assert_eq!(grouped_fixed(-1234.5, 1), "-1,234.5");
    }
}
