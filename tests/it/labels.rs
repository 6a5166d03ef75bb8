//! Labels that name their unit's quantity (issue 41): an energy figure in
//! Wh per million tokens is labelled "per million tokens", one in J per
//! token "per token", per image "per image", and so on: in every column
//! definition, and on every page of the committed site (`site/`, the build
//! of `data/`), in each table head that shows a unit and each best card.

use std::path::Path;

use energyboard::columns::{DIFFUSION, PER_TOKEN};
use scraper::{ElementRef, Html, Selector};

/// The words a label must hold for an energy `unit` ("Wh/M tok" → "per
/// million"); `None` for a unit that is not energy per something (ms, tok/s,
/// g CO₂e/M tok, a bare J whose table says what it is per).
fn quantity_of(unit: &str) -> Option<&'static str> {
    let (energy, per) = unit.split_once('/')?;
    if !matches!(energy.trim(), "J" | "mJ" | "Wh" | "kWh") {
        return None;
    }
    Some(match per.trim() {
        "M tok" => "per million",
        "tok" => "per token",
        "image" => "per image",
        "video" => "per video",
        "s" => "per video second",
        other => panic!("an energy unit per {other:?}: add its words to this test"),
    })
}

/// The problem with `label` over `unit`, if any (`at` says where).
fn disagreement(at: &str, label: &str, unit: &str) -> Option<String> {
    let words = quantity_of(unit)?;
    let lower = label.to_lowercase();
    (!lower.contains(words))
        .then(|| format!("{at}: \"{label}\" over {unit} does not say \"{words}\""))
}

#[test]
fn the_quantity_rule_catches_the_label_the_issue_found() {
    assert!(disagreement("x", "Energy per token", "Wh/M tok").is_some());
    assert!(disagreement("x", "Energy per million tokens", "Wh/M tok").is_none());
    assert!(disagreement("x", "Joules", "J/tok").is_some());
    assert!(disagreement("x", "Energy per image", "J/image").is_none());
    assert!(disagreement("x", "Median ITL", "ms").is_none());
    assert!(disagreement("x", "Carbon", "g CO₂e/M tok").is_none());
}

#[test]
fn every_column_label_names_its_units_quantity() {
    let mut problems = Vec::new();
    for set in [&PER_TOKEN, &DIFFUSION] {
        for c in set.columns {
            problems.extend(disagreement(c.key, c.label, c.unit));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap()
}

fn text(e: ElementRef<'_>) -> String {
    e.text()
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every HTML page under `dir`, with its path.
fn pages(dir: &Path) -> Vec<(String, Html)> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "html") {
            let rel = entry
                .path()
                .strip_prefix(dir)
                .unwrap()
                .display()
                .to_string();
            out.push((
                rel,
                Html::parse_document(&std::fs::read_to_string(entry.path()).unwrap()),
            ));
        }
    }
    out
}

#[test]
fn every_table_head_and_card_label_on_the_site_agrees_with_its_unit() {
    let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("site");
    let (head, unit_of, card, figure) = (sel("thead th"), sel(".unit"), sel(".card dl"), sel("dt"));
    let (mut problems, mut heads, mut cards) = (Vec::new(), 0, 0);
    for (rel, doc) in pages(&site) {
        for th in doc.select(&head) {
            let Some(unit) = th.select(&unit_of).next().map(text) else {
                continue;
            };
            let label = text(th);
            let label = label.strip_suffix(&unit).unwrap_or(&label).trim();
            heads += 1;
            problems.extend(disagreement(&rel, label, &unit));
        }
        for dl in doc.select(&card) {
            for dt in dl.select(&figure) {
                let dd = dt
                    .next_siblings()
                    .find_map(ElementRef::wrap)
                    .map(text)
                    .unwrap_or_default();
                // "49.10 Wh/M tok": the unit is what follows the number.
                let unit = dd.split_once(' ').map_or("", |(_, u)| u);
                cards += 1;
                problems.extend(disagreement(&rel, &text(dt), unit));
            }
        }
    }
    // The site has its leaderboards, GPU pages and model pages.
    assert!(
        heads > 500 && cards > 500,
        "{heads} heads with a unit, {cards} card figures"
    );
    assert!(
        problems.is_empty(),
        "{} problems: {:#?}",
        problems.len(),
        &problems[..problems.len().min(20)]
    );
}
