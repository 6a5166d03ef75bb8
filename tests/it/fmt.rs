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
