//! The column definitions: unique keys, a definition and unit for each,
//! values formatted for pages, sorting and CSV files, and columns marked
//! for the output they have values for.

use energyboard::columns::{DIFFUSION, Origin, PER_TOKEN, Record, Value, csv_text, raw};
use energyboard::fmt;
use energyboard::model::{Measure, ModelFile, OutputKind};

#[test]
fn keys_are_unique_and_every_column_has_a_definition_and_numbers_a_unit() {
    for set in [&PER_TOKEN, &DIFFUSION] {
        let mut keys: Vec<_> = set.columns.iter().map(|c| c.key).collect();
        keys.sort_unstable();
        let n = keys.len();
        keys.dedup();
        assert_eq!(n, keys.len(), "{}", set.name);
        for c in set.columns {
            assert!(!c.definition.is_empty(), "{}", c.key);
            if c.origin == Origin::Measured {
                assert!(!c.unit.is_empty(), "{} has no unit", c.key);
            }
        }
    }
}

#[test]
fn values_format_for_pages_sorting_and_csv() {
    let v = Value::Number(39.054_321, fmt::wh_per_million);
    assert_eq!(v.page(), fmt::wh_per_million(39.054_321));
    assert_eq!(v.sort_key().as_deref(), Some("39.054321"));
    assert_eq!(v.csv(), "39.054321");
    assert_eq!(Value::Whole(256).sort_key().as_deref(), Some("256"));
    assert_eq!(Value::Text("=1+1".into()).csv(), "'=1+1");
    assert_eq!(Value::Text("H100".into()).sort_key(), None);
    assert_eq!(Value::Missing.csv(), "");
    assert_eq!(Value::Flag(true).csv(), "true");
}

#[test]
fn formula_cells_are_neutralised() {
    for cell in ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx"] {
        assert_eq!(csv_text(cell), format!("'{cell}"));
    }
    assert_eq!(csv_text("Qwen 3 32B"), "Qwen 3 32B");
    assert_eq!(csv_text("a=b"), "a=b");
}

#[test]
fn raw_numbers_have_no_negative_zero_or_hundreds_of_digits() {
    assert_eq!(raw(-0.0), "0");
    assert_eq!(raw(39.05), "39.05");
    assert_eq!(raw(0.140_581_2), "0.1405812");
    assert_eq!(raw(1e9), "1000000000");
    assert_eq!(raw(5e-324), "5e-324");
    assert_eq!(raw(1.7e308), "1.7e308");
}

/// A column that has no value for a valid row of one output is marked
/// as the other output's, so no table or CSV file of that output shows
/// it empty.
#[test]
fn a_column_without_a_value_for_an_output_is_marked_as_the_others() {
    for (path, kind) in [
        ("text-to-image/flux-1-dev.json", OutputKind::Image),
        ("text-to-video/wan-2-1-14b.json", OutputKind::Video),
    ] {
        let text = std::fs::read_to_string(format!("tests/fixtures/diffusion/{path}")).unwrap();
        let m: ModelFile = serde_json::from_str(&text).unwrap();
        let record = Record::of(&m, &m.configurations[0]);
        for c in DIFFUSION.columns.iter().filter(|c| c.key != "rank") {
            if matches!(c.value(&record), Value::Missing) {
                assert!(!c.applies(Measure::Diffusion(kind)), "{kind:?}: {}", c.key);
            }
        }
    }
}
