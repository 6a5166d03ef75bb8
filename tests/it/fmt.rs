//! The number formats every page, chart and CSV file shares.

use energyboard::fmt::{
    energy_per_item, figure_value, fixed, grouped, grouped_fixed, items_per_kwh,
    joules_per_response, limit_ms, rate, seconds, setting, significant,
};

#[test]
fn energy_per_response_is_grouped_everywhere() {
    // The tables' column and the overview, cards and charts all print
    // it through this one format.
    assert_eq!(joules_per_response(11_973.84), "11,973.8");
    assert_eq!(joules_per_response(89.31), "89.3");
}

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
fn diffusion_figures_read_as_published() {
    assert_eq!(energy_per_item(342_623.06), "342,623");
    assert_eq!(energy_per_item(6678.81), "6,679");
    assert_eq!(energy_per_item(95.5), "95.50");
    assert_eq!(energy_per_item(999.96), "1,000.0");
    assert_eq!(energy_per_item(342_623.06 / 3600.0), "95.17");
    assert_eq!(seconds(7.755), "7.755");
    assert_eq!(seconds(1374.63), "1,374.630");
    assert_eq!(rate(0.1285), "0.1285");
    assert_eq!(rate(0.002_993), "0.002993");
    assert_eq!(rate(1.947), "1.947");
    assert_eq!(rate(12.5), "12.50");
    assert_eq!(items_per_kwh(3.6e6 / 150.0), "24,000.0");
    assert_eq!(grouped_fixed(-1234.5, 1), "-1,234.5");
}

#[test]
fn figures_read_as_elsewhere_on_the_site() {
    assert_eq!(
        figure_value("wh_per_million_output_tokens", 39.054),
        "39.05"
    );
    // Four significant figures, as the diffusion pages show it.
    assert_eq!(figure_value("joules_per_image", 1234.5), "1,234");
    assert_eq!(figure_value("something_else", 0.125), "0.125");
}

/// The standard formatting's text, as [`fixed`] gives it when scaling
/// cannot decide: never "-0.00".
fn standard_fixed(value: f64, decimals: usize) -> String {
    let s = format!("{value:.decimals$}");
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_owned()
    } else {
        s
    }
}

/// `fixed`'s fast path writes exactly what the standard formatting writes,
/// on a million values: figures as the data gives them (a few decimals,
/// printed with fewer: ties in decimal, not quite in binary), exact binary
/// ties, whole numbers, tiny and huge magnitudes, negatives.
#[test]
fn fixed_by_scaling_writes_what_the_standard_formatting_writes() {
    use energyboard::fmt::fixed_by_scaling;
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut decided = 0;
    for i in 0..1_000_000u64 {
        let r = next();
        let decimals = (r % 11) as usize;
        let value = match i % 5 {
            // A figure with 0–6 decimals, as a data file writes it.
            0 => (r >> 20) as f64 % 10_000_000.0 / 10f64.powi((r >> 8) as i32 % 7),
            // An exact binary tie at the shown decimals, or near one.
            1 => ((r >> 20) % 100_000) as f64 / 8.0,
            // Any bit pattern's magnitude between 1e-12 and 1e18.
            2 => 10f64.powf(((r >> 11) as f64 / (1u64 << 53) as f64) * 30.0 - 12.0),
            // Whole numbers.
            3 => ((r >> 30) % 1_000_000) as f64,
            // A product of two figures, as a computed figure is.
            _ => ((r >> 40) as f64 / 1e3) * (((r >> 8) & 0xFFFF) as f64 / 7.0),
        };
        let value = if r & 1 == 1 { -value } else { value };
        if let Some(text) = fixed_by_scaling(value, decimals) {
            decided += 1;
            assert_eq!(
                text,
                standard_fixed(value, decimals),
                "{value:e} with {decimals}"
            );
        }
        assert_eq!(
            fixed(value, decimals),
            standard_fixed(value, decimals),
            "{value:e}"
        );
    }
    // The fast path decides most values (not those with ten decimals, nor
    // the huge); a test that never used it would prove nothing.
    assert!(decided > 700_000, "{decided}");
}

/// `fmt::shortest` and `fmt::raw` write what the standard formatting
/// writes (`{}`, and `{:e}` outside 1e-6..1e16), on a million values:
/// figures as data files write them, any bit pattern of a finite float,
/// subnormals, whole numbers, products of figures, negatives.
#[test]
fn shortest_writes_what_the_standard_formatting_writes() {
    use energyboard::fmt::{raw, short_decimal, shortest};
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut decided = 0;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in 0..1_000_000u64 {
        let r = next();
        let value = match i % 6 {
            // A figure with 0–9 decimals, as a data file writes it.
            0 => (r >> 20) as f64 % 10_000_000.0 / 10f64.powi((r >> 8) as i32 % 10),
            // Any finite bit pattern.
            1 => Some(f64::from_bits(r))
                .filter(|v| v.is_finite())
                .unwrap_or(1.5),
            // Subnormals and the smallest normals.
            2 => f64::from_bits(r >> 11),
            // Whole numbers, up to past 2^53.
            3 => ((r >> 4) % 100_000_000_000_000_000) as f64,
            // Few digits at any scale: 1e-12 to 1e18.
            4 => ((r >> 40) % 100_000) as f64 * 10f64.powi((r % 31) as i32 - 16),
            // A product of two figures, as a computed figure is.
            _ => ((r >> 40) as f64 / 1e3) * (((r >> 8) & 0xFFFF) as f64 / 7.0),
        };
        let value = if r & 1 == 1 { -value } else { value };
        if let Some(text) = short_decimal(value) {
            decided += 1;
            assert_eq!(text, format!("{value}"), "{value:e}");
        }
        assert_eq!(shortest(value), format!("{value}"), "{value:e}");
        let standard = if value == 0.0 {
            "0".to_owned()
        } else if (1e-6..1e16).contains(&value.abs()) {
            format!("{value}")
        } else {
            format!("{value:e}")
        };
        assert_eq!(raw(value), standard, "{value:e}");
    }
    // The fast path decides the figures with few digits (a third of the
    // values); a test that never used it would prove nothing.
    assert!(decided > 300_000, "{decided}");
    for edge in [
        0.0,
        -0.0,
        1e-6,
        1e15,
        1e16,
        5e-324,
        f64::MAX,
        0.1,
        0.3,
        1.0,
        100.0,
    ] {
        assert_eq!(shortest(edge), format!("{edge}"));
    }
}
