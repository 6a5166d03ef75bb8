//! The number formats of [`crate::fmt`], written without going through
//! float formatting: the same strings, made in a fraction of the time,
//! since a chart and its table print hundreds of numbers. Values whose
//! rounding would be a near tie go to [`crate::fmt`] itself.

use super::svg::push_int;

/// `value` with exactly `decimals` decimals; the same string as
/// [`crate::fmt::fixed`].
pub fn fixed(value: f64, decimals: usize) -> String {
    let mut out = String::with_capacity(12);
    push_fixed(&mut out, value, decimals);
    out
}

/// Appends [`fixed`]`(value, decimals)`.
pub fn push_fixed(out: &mut String, value: f64, decimals: usize) {
    const SCALE: [f64; 4] = [1.0, 10.0, 100.0, 1000.0];
    let Some(&scale) = SCALE.get(decimals) else {
        out.push_str(&crate::fmt::fixed(value, decimals));
        return;
    };
    let scaled = value * scale;
    let n = scaled.round();
    // The product is within a rounding error of the exact one, so away
    // from a tie both round to the same integer.
    if n.is_nan() || n.abs() >= 1e12 || (scaled - n).abs() >= 0.499 {
        out.push_str(&crate::fmt::fixed(value, decimals));
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

/// [`crate::fmt::grouped`]: rounded to a whole number, thousands
/// separated by commas.
pub fn grouped(value: f64) -> String {
    let r = value.round();
    // NaN and huge values go the long way.
    if r.is_nan() || r.abs() >= 1e15 {
        return crate::fmt::grouped(value);
    }
    let n = r as i64;
    let mut digits = String::with_capacity(24);
    push_int(&mut digits, n.abs());
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, ch) in digits.char_indices() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// [`crate::fmt::wh_per_million`]: two decimals.
pub fn wh_per_million(value: f64) -> String {
    fixed(value, 2)
}

/// [`crate::fmt::ms`]: one decimal.
pub fn ms(value: f64) -> String {
    fixed(value, 1)
}

/// [`crate::fmt::limit_ms`]: no decimals when whole.
pub fn limit_ms(value: f64) -> String {
    if value.fract() == 0.0 {
        fixed(value, 0)
    } else {
        fixed(value, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::SplitMix64;

    #[test]
    fn formats_match_crate_fmt() {
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
                assert_eq!(fixed(v, d), crate::fmt::fixed(v, d), "{v:e} to {d}");
            }
            if v.is_finite() {
                assert_eq!(grouped(v), crate::fmt::grouped(v), "{v:e}");
            }
            assert_eq!(wh_per_million(v), crate::fmt::wh_per_million(v));
            assert_eq!(ms(v), crate::fmt::ms(v));
            assert_eq!(limit_ms(v), crate::fmt::limit_ms(v));
        }
    }
}
