//! Number formats shared by pages, charts and downloads, so one figure reads
//! the same everywhere (every format is explicit: no float is printed with
//! `{}`), and the one XML/HTML escape they share.

/// `text` with its first letter in upper case: "median ITL" → "Median ITL".
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// `value` with exactly `decimals` decimals, e.g. `fixed(39.05, 2)` → `39.05`,
/// exactly as the standard float formatting writes it (ties round as the
/// binary value's exact decimal expansion does), and never "-0.00".
///
/// Most figures go through [`fixed_by_scaling`], which gives the same text
/// without the standard formatting's exact arithmetic; the standard
/// formatting writes the rest. A 1,000-model site prints several million
/// figures, and the standard formatting took 11% of its build's CPU time
/// (`perf`, 2026-12-07); `tests/it/fmt.rs` compares the two on a million
/// values.
pub fn fixed(value: f64, decimals: usize) -> String {
    if let Some(text) = fixed_by_scaling(value, decimals) {
        return text;
    }
    let s = format!("{value:.decimals$}");
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_owned()
    } else {
        s
    }
}

/// Powers of ten up to the most decimals [`short_decimal`] tries (of which
/// [`fixed_by_scaling`] uses the first ten); each is an exact `f64`.
const POWERS_OF_TEN: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// The most decimals [`fixed_by_scaling`] writes.
const MOST_SCALED_DECIMALS: usize = 9;

/// [`fixed`]'s text by scaling: `|value| × 10^decimals`, rounded to a whole
/// number, its digits with the decimal point put back. The product is off
/// the exact one by at most half a unit in its last place, so it rounds the
/// same way unless it lies that close to a tie (a fraction of one half):
/// then, or for more than nine decimals, or a product too large to hold
/// every whole number exactly, `None`, and the standard formatting decides.
pub fn fixed_by_scaling(value: f64, decimals: usize) -> Option<String> {
    if decimals > MOST_SCALED_DECIMALS {
        return None;
    }
    let power = POWERS_OF_TEN[decimals];
    let scaled = value.abs() * power;
    // Below 2^52 the fraction is exact, and so is every whole number.
    if !scaled.is_finite() || scaled >= 4_503_599_627_370_496.0 {
        return None;
    }
    let whole = scaled.floor();
    let fraction = scaled - whole;
    // Twice the largest error of the product, so a tie is never guessed.
    let doubt = scaled * f64::EPSILON;
    if (fraction - 0.5).abs() <= doubt {
        return None;
    }
    let rounded = if fraction > 0.5 { whole + 1.0 } else { whole };
    // A whole number below 2^52 + 1: exact as an integer.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let units = rounded as u64;
    Some(fixed_digits(units, decimals, value < 0.0 && units != 0))
}

/// `units / 10^decimals` written with exactly `decimals` decimals, with a
/// minus sign if `negative`.
fn fixed_digits(units: u64, decimals: usize, negative: bool) -> String {
    let mut buffer = itoa::Buffer::new();
    let digits = buffer.format(units);
    let mut text = String::with_capacity(digits.len() + decimals + 3);
    if negative {
        text.push('-');
    }
    if digits.len() > decimals {
        // Whole digits, then the decimals.
        let point = digits.len() - decimals;
        text.push_str(&digits[..point]);
        if decimals > 0 {
            text.push('.');
            text.push_str(&digits[point..]);
        }
    } else {
        // Below one: "0.", the zeros the digits do not fill, the digits.
        text.push_str("0.");
        for _ in digits.len()..decimals {
            text.push('0');
        }
        text.push_str(digits);
    }
    text
}

/// Appends an integer in decimal (the charts write about 100,000).
pub fn push_int(out: &mut String, v: i64) {
    out.push_str(itoa::Buffer::new().format(v));
}

/// `value` rounded to a whole number, grouped by commas: `10648.0` → `10,648`.
pub fn grouped(value: f64) -> String {
    grouped_fixed(value.round(), 0)
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

/// Energy per response in J: one decimal, thousands grouped, `11,974.3`
/// (the same on the model page's tables, the overview and the charts).
pub fn joules_per_response(value: f64) -> String {
    grouped_fixed(value, 1)
}

/// `value` with `decimals` decimals, grouped by commas: `342623.06` → `342,623.06`.
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

/// Energy per image or video in J (or Wh): four significant figures (no
/// fewer whole digits), thousands grouped, e.g. `6,679`, `95.50`,
/// `342,623`: the source's two decimals claim more than a measurement of
/// thousands of joules holds.
pub fn energy_per_item(value: f64) -> String {
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
        fixed(value, 4)
    } else {
        significant(value, 4)
    }
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
        "joules_per_image" | "joules_per_video" => energy_per_item(value),
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
        shortest(v)
    } else {
        format!("{v:e}")
    }
}

/// `v` as `format!("{v}")` writes it: the shortest digits that read back
/// as `v`, never in exponent form.
///
/// Most figures in data files have a few decimals, and [`short_decimal`]
/// finds those without the standard formatting's search; it writes the
/// rest. The standard formatting took about 1,000 instructions a figure,
/// 8% of a synthetic site's build in CSV cells and sort keys (callgrind,
/// 2026-12-07); `ryu`'s digits, laid out the same way, took more.
/// `tests/it/fmt.rs` compares the two on a million values.
pub fn shortest(v: f64) -> String {
    short_decimal(v).unwrap_or_else(|| format!("{v}"))
}

/// `v`'s shortest form when it has at most 15 significant digits: the
/// fewest decimals `d` for which `round(|v| × 10^d) / 10^d` is `v` again.
/// That division is exact arithmetic rounded once, as reading the decimal
/// is, so the decimal reads back as `v`; and with at most 15 digits it is
/// the only decimal of its length that does (15 digits are finer than a
/// float's spacing), so it is the shortest form's value too. `None` for
/// zero (whose sign `{}` keeps), infinities, NaN and more than 15 digits.
pub fn short_decimal(v: f64) -> Option<String> {
    let size = v.abs();
    if size == 0.0 || !size.is_finite() {
        return None;
    }
    for (decimals, &power) in POWERS_OF_TEN.iter().enumerate() {
        let scaled = size * power;
        if scaled >= 1e15 {
            return None;
        }
        let units = scaled.round();
        if units / power != size {
            continue;
        }
        // A whole number below 10^15: exact as an integer.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let mut text = fixed_digits(units as u64, decimals, v < 0.0);
        if decimals > 0 {
            // A rounding of the product may have missed a shorter form.
            text.truncate(text.trim_end_matches('0').trim_end_matches('.').len());
        }
        return Some(text);
    }
    None
}
