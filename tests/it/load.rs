//! Loading's rules on their own: slugs, links, dates, parallelism and
//! numbers in messages, and a parse error in a reader's words.

use std::path::Path;

use energyboard::load::limits::{is_iso_date, number};
use energyboard::load::{is_valid_slug, is_web_url, parse_model};
use energyboard::model::parallelism_fits;

#[test]
fn slugs_that_are_paths_are_refused() {
    assert!(is_valid_slug("qwen-3-32b"));
    assert!(is_valid_slug("7b"));
    assert!(!is_valid_slug("-x"));
    assert!(!is_valid_slug("../etc"));
    assert!(!is_valid_slug("a/b"));
    assert!(!is_valid_slug("Qwen"));
    assert!(!is_valid_slug(""));
}

#[test]
fn only_web_addresses_are_links() {
    assert!(is_web_url("https://ml.energy/leaderboard/"));
    assert!(is_web_url("HTTP://example.org"));
    assert!(!is_web_url("javascript:alert(1)"));
    assert!(!is_web_url("https://"));
    assert!(!is_web_url("//evil.example"));
    assert!(!is_web_url("data:text/html,x"));
}

#[test]
fn dates_are_real_iso_dates() {
    assert!(is_iso_date("2026-09-27"));
    assert!(is_iso_date("2024-02-29"));
    assert!(is_iso_date("2000-02-29"));
    assert!(!is_iso_date("1900-02-29"));
    assert!(!is_iso_date("2026-02-30"));
    assert!(!is_iso_date("2026-13-01"));
    assert!(!is_iso_date("2026-00-10"));
    assert!(!is_iso_date("2026-1-10"));
    assert!(!is_iso_date("27/09/2026"));
    assert!(!is_iso_date("2026-09-27T00:00"));
    assert!(!is_iso_date("+202-09-27"));
    assert!(!is_iso_date("0000-01-01"));
    assert!(!is_iso_date(""));
}

#[test]
fn parallelism_rule_holds_for_every_published_shape() {
    // (num_gpus, tp, dp, ep) as found in the leaderboard's data.
    for shape in [
        (1, 1, 1, 1),
        (2, 1, 1, 2),
        (2, 2, 1, 1),
        (4, 1, 1, 4),
        (4, 1, 4, 4),
        (4, 4, 1, 1),
        (8, 1, 1, 8),
        (8, 1, 8, 8),
        (8, 8, 1, 1),
    ] {
        assert!(
            parallelism_fits(shape.0, shape.1, shape.2, shape.3),
            "{shape:?}"
        );
    }
    for shape in [
        (2, 1, 1, 1),
        (4, 2, 1, 1),
        (4, 2, 1, 4),
        (8, 1, 1, 4),
        (1, 2, 1, 1),
    ] {
        assert!(
            !parallelism_fits(shape.0, shape.1, shape.2, shape.3),
            "{shape:?}"
        );
    }
    assert!(!parallelism_fits(1, u32::MAX, u32::MAX, 1));
}

#[test]
fn numbers_in_messages_stay_short() {
    assert_eq!(number(1.7e308), "1.7e308");
    assert_eq!(number(-1.7e308), "-1.7e308");
    assert_eq!(number(1e7), "10000000");
    assert_eq!(number(19.6), "19.6");
    assert_eq!(number(-0.0), "0");
    assert_eq!(number(5e-324), "5e-324");
}

#[test]
fn type_error_names_the_field_in_reader_words() {
    let text = std::fs::read_to_string("tests/fixtures/seeds/qwen-3-32b.json").unwrap();
    let broken = text.replacen("\"median_itl_ms\": 14.1", "\"median_itl_ms\": \"fast\"", 1);
    assert_ne!(text, broken);
    let err = parse_model(Path::new("data/qwen-3-32b.json"), broken.as_bytes()).unwrap_err();
    assert_eq!(err.field, "configurations[0].median_itl_ms");
    assert!(
        err.message
            .starts_with("expected a number, found the string \"fast\""),
        "{}",
        err.message
    );
}
