//! Citable versions (#43): a model's permanent pages
//! `<model page>v/<YYYY-MM-DD>/`, built from the superseded files that
//! `energyboard import` keeps in `data/history/`. The leaderboard's
//! published data of three versions (tests/fixtures/upstream/9fa07d1,
//! 281c69e and 6e70d23: 2025-11-29, 2025-12-17 and the 2026-01-01
//! throughput fix) are imported in turn. No network.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use energyboard::import::{ImportOptions, import};
use energyboard::{BuildOptions, build};
use scraper::{ElementRef, Html, Selector};
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const BASE: &str = "https://example.org/eb/";
const CHAT: &str = "workloads/lm-arena-chat/models/";
/// The leaderboard's latency deadline, which every file of these versions
/// uses.
const DEADLINE_MS: f64 = 500.0;

/// Imports the fixture of each of `commits` in turn into `data`.
fn import_all(data: &Path, commits: &[&str]) {
    for commit in commits {
        import(&ImportOptions {
            from: format!("{ROOT}/tests/fixtures/upstream/{commit}"),
            data_dir: data.to_path_buf(),
            editorial: PathBuf::from(ROOT).join("import/editorial.json"),
            retrieved: Some("2026-11-30".to_owned()),
            updated: None,
            data_version: None,
            tasks_committed: None,
            source: None,
        })
        .unwrap_or_else(|e| panic!("importing {commit}: {e:#}"));
    }
}

/// Builds `data` into `out` with the base URL [`BASE`]: every page, by path.
fn build_site(data: &Path, out: &Path) -> BTreeMap<String, String> {
    build(&BuildOptions {
        data_dir: data.to_path_buf(),
        static_dir: PathBuf::from(ROOT).join("static"),
        out_dir: out.to_path_buf(),
        force: false,
        base_url: Some(BASE.to_owned()),
        repository: None,
        workloads: energyboard::Config::load(&Path::new(ROOT).join("energyboard.toml"))
            .unwrap()
            .workloads,
        footprint: None,
    })
    .unwrap();
    walkdir::WalkDir::new(out)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| {
            let rel = e.path().strip_prefix(out).unwrap().to_string_lossy();
            (rel.into_owned(), fs::read_to_string(e.path()).unwrap())
        })
        .collect()
}

fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

fn text(e: ElementRef<'_>) -> String {
    e.text().collect::<String>()
}

/// A page's `<main>`, as written.
fn main_of(html: &str) -> &str {
    let start = html.find("<main").expect("a <main>");
    let end = html.find("</main>").expect("a </main>");
    &html[start..end]
}

/// The version pages of `pages`: (model page folder, date) → path.
fn version_pages(pages: &BTreeMap<String, String>) -> BTreeMap<(String, String), String> {
    pages
        .keys()
        .filter_map(|rel| {
            let (model, rest) = rel.split_once("/v/")?;
            let date = rest.strip_suffix("/index.html")?;
            Some(((format!("{model}/"), date.to_owned()), rel.clone()))
        })
        .collect()
}

/// Each best card of a page: GPU → (figure label → shown text).
fn cards(html: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let doc = Html::parse_document(html);
    let (dt, dd) = (sel("dl dt"), sel("dl dd"));
    doc.select(&sel("#best .card"))
        .map(|card| {
            let gpu = text(card.select(&sel("h3")).next().unwrap());
            let dts = card.select(&dt).map(text);
            let dds = card.select(&dd).map(text);
            (gpu, dts.zip(dds).collect())
        })
        .collect()
}

/// The number a card shows, e.g. 12393 for "12,393 tok/s", and half a unit
/// of its last digit (how far rounding once may move it).
fn shown(text: &str) -> (f64, f64) {
    let number: String = text
        .split_whitespace()
        .next()
        .unwrap()
        .chars()
        .filter(|c| *c != ',')
        .collect();
    let decimals = number.split_once('.').map_or(0, |(_, d)| d.len());
    let half = 0.5 / 10f64.powi(i32::try_from(decimals).unwrap());
    (number.parse().unwrap(), half)
}

/// Upstream's best row per GPU of `model_id` in the fixture `commit`, found
/// by hand from the raw task file: the lowest energy per token with median
/// ITL within the deadline (ties do not occur in these rows).
fn upstream_best(commit: &str, model_id: &str) -> BTreeMap<String, Value> {
    let path = format!("{ROOT}/tests/fixtures/upstream/{commit}/tasks/lm-arena-chat.json");
    let task: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    let mut best: BTreeMap<String, Value> = BTreeMap::new();
    for row in task["configurations"].as_array().unwrap() {
        if row["model_id"] != model_id || row["median_itl_ms"].as_f64().unwrap() > DEADLINE_MS {
            continue;
        }
        let energy = |r: &Value| r["energy_per_token_joules"].as_f64().unwrap();
        let gpu = row["gpu_model"].as_str().unwrap().to_owned();
        if best.get(&gpu).is_none_or(|b| energy(row) < energy(b)) {
            best.insert(gpu, row.clone());
        }
    }
    best
}

/// Checks the cards of a version page against upstream's figures of its
/// version: energy per million tokens and throughput of each GPU's best.
fn assert_cards_match(page: &str, html: &str, commit: &str, model_id: &str) {
    let cards = cards(html);
    let best = upstream_best(commit, model_id);
    assert_eq!(
        cards.keys().collect::<Vec<_>>(),
        best.keys().collect::<Vec<_>>(),
        "{page}"
    );
    for (gpu, row) in &best {
        let want = [
            (
                "Energy per million tokens",
                row["energy_per_token_joules"].as_f64().unwrap() * 1e6 / 3600.0,
            ),
            (
                "Throughput",
                row["output_throughput_tokens_per_sec"].as_f64().unwrap(),
            ),
        ];
        for (label, exact) in want {
            let (value, half) = shown(&cards[gpu][label]);
            assert!(
                (value - exact).abs() <= half * 1.000_001,
                "{page}, {gpu} {label}: shows {value}, data version of {commit} has {exact}"
            );
        }
    }
}

#[test]
fn each_version_page_shows_the_figures_its_version_published() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_all(&data, &["9fa07d1", "281c69e", "6e70d23"]);
    let pages = build_site(&data, &dir.path().join("site"));
    for (slug, model_id) in [
        ("qwen-3-8b", "Qwen/Qwen3-8B"),
        ("llama-3-1-8b-instruct", "meta-llama/Llama-3.1-8B-Instruct"),
    ] {
        let page = |date: &str| format!("{CHAT}{slug}/v/{date}/index.html");
        for (date, commit) in [
            ("2025-11-29", "9fa07d1"),
            ("2025-12-17", "281c69e"),
            ("2026-01-01", "6e70d23"),
        ] {
            let html = pages
                .get(&page(date))
                .unwrap_or_else(|| panic!("no {}", page(date)));
            assert_cards_match(&page(date), html, commit, model_id);
        }
        // The throughput fix moved the figures: the two pages differ where
        // the two versions do, so the check above tells them apart.
        let throughput = |date: &str| {
            cards(&pages[&page(date)])
                .into_values()
                .map(|c| c["Throughput"].clone())
                .collect::<Vec<_>>()
        };
        assert_ne!(throughput("2025-12-17"), throughput("2026-01-01"), "{slug}");
    }
}

#[test]
fn a_newer_import_adds_a_version_page_and_changes_no_earlier_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_all(&data, &["9fa07d1", "281c69e"]);
    let before = build_site(&data, &dir.path().join("before"));
    import_all(&data, &["6e70d23"]);
    let after = build_site(&data, &dir.path().join("after"));
    let (old, new) = (version_pages(&before), version_pages(&after));
    assert!(old.len() >= 4, "{old:?}");
    let mut kept = 0;
    for ((model, date), rel) in &old {
        let now = after.get(rel).unwrap_or_else(|| panic!("{rel} is gone"));
        let was_current = later_date(&old, model, date).is_empty();
        if was_current && !later_date(&new, model, date).is_empty() {
            // The version that was current gains its "superseded" banner;
            // its figures and citation stay as they were.
            let (b, a) = (
                Html::parse_document(&before[rel]),
                Html::parse_document(now),
            );
            for part in ["#best", "#configurations", "#cite"] {
                let html = |d: &Html| d.select(&sel(part)).next().unwrap().html();
                assert_eq!(html(&b), html(&a), "{rel} {part}");
            }
            assert!(now.contains("Superseded by data version"), "{rel}");
        } else {
            assert_eq!(main_of(&before[rel]), main_of(now), "{rel}: <main> changed");
            kept += 1;
        }
    }
    assert!(kept >= 4, "{kept} superseded pages compared");
    // One page more for each model whose figures the newer version changed,
    // and the former current figures are on their own version page.
    for slug in ["qwen-3-8b", "llama-3-1-8b-instruct"] {
        let model = format!("{CHAT}{slug}/");
        let count =
            |v: &BTreeMap<(String, String), String>| v.keys().filter(|k| k.0 == model).count();
        assert_eq!(count(&new), count(&old) + 1, "{slug}");
        let current_then = cards(&before[&format!("{model}index.html")]);
        let moved = cards(&after[&format!("{model}v/2025-12-17/index.html")]);
        assert_eq!(current_then, moved, "{slug}");
        assert_ne!(
            cards(&after[&format!("{model}index.html")]),
            moved,
            "{slug}"
        );
    }
}

/// The date after `date` among `model`'s version pages, or "" if none.
fn later_date(pages: &BTreeMap<(String, String), String>, model: &str, date: &str) -> String {
    pages
        .keys()
        .filter(|(m, d)| m == model && d.as_str() > date)
        .map(|(_, d)| d.clone())
        .next()
        .unwrap_or_default()
}

#[test]
fn every_version_page_names_its_version_links_to_today_and_cites_itself() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_all(&data, &["9fa07d1", "281c69e", "6e70d23"]);
    let pages = build_site(&data, &dir.path().join("site"));
    let versions = version_pages(&pages);
    assert!(versions.len() >= 8, "{versions:?}");
    for ((model, date), rel) in &versions {
        let doc = Html::parse_document(&pages[rel]);
        let h1 = text(doc.select(&sel("main h1")).next().unwrap());
        assert!(h1.contains(&format!("data version {date}")), "{rel}: {h1}");
        let banner = doc.select(&sel(".version-banner")).next().unwrap();
        let current = banner
            .select(&sel("a"))
            .find(|a| text(*a) == "See the current page")
            .unwrap_or_else(|| panic!("{rel}: no link to the current page"));
        assert_eq!(current.value().attr("href"), Some("../../index.html"));
        let bib = text(doc.select(&sel("#cite pre code")).next().unwrap());
        let url = format!("{BASE}{model}v/{date}/");
        assert!(
            bib.contains(&format!("url          = {{{url}}}")),
            "{rel}: {bib}"
        );
        assert!(
            bib.contains(&format!("Data version {date};")),
            "{rel}: {bib}"
        );
        assert!(bib.contains(&format!("-{date},\n")), "{rel}: key {bib}");
        // The model page lists this version and links to it.
        let listed = Html::parse_document(&pages[&format!("{model}index.html")]);
        let href = format!("v/{date}/index.html");
        assert!(
            listed
                .select(&sel("#versions a"))
                .any(|a| a.value().attr("href") == Some(href.as_str())),
            "{model}: does not list {date}"
        );
    }
    // The current page cites the current version's permanent address.
    let page = &pages[&format!("{CHAT}qwen-3-8b/index.html")];
    let doc = Html::parse_document(page);
    let bib = text(doc.select(&sel("#cite pre code")).next().unwrap());
    let url = format!("{BASE}{CHAT}qwen-3-8b/v/2026-01-01/");
    assert!(bib.contains(&format!("url          = {{{url}}}")), "{bib}");
}

#[test]
fn the_published_version_urls_still_resolve() {
    let list =
        fs::read_to_string(Path::new(ROOT).join("tests/fixtures/published-version-urls.txt"))
            .unwrap();
    let urls: Vec<&str> = list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    assert!(urls.len() >= 100, "{}", urls.len());
    let dir = tempfile::tempdir().unwrap();
    let pages = build_site(&Path::new(ROOT).join("data"), &dir.path().join("site"));
    for url in urls {
        let rel = format!("{url}index.html");
        let html = pages.get(&rel).unwrap_or_else(|| panic!("{url} is gone"));
        let date = url.trim_end_matches('/').rsplit('/').next().unwrap();
        assert!(
            main_of(html).contains(&format!("data version {date}")),
            "{url}"
        );
    }
}

#[test]
fn an_edited_history_file_stops_the_import_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_all(&data, &["9fa07d1", "281c69e"]);
    let kept = data.join("history/lm-arena-chat/qwen-3-8b/2025-11-29.json");
    let mut doc: Value = serde_json::from_str(&fs::read_to_string(&kept).unwrap()).unwrap();
    doc["name"] = "Qwen 3 8B (edited)".into();
    fs::write(&kept, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let before = crate::common::file_tree(&data);
    let err = import(&ImportOptions {
        from: format!("{ROOT}/tests/fixtures/upstream/6e70d23"),
        data_dir: data.clone(),
        editorial: PathBuf::from(ROOT).join("import/editorial.json"),
        retrieved: Some("2026-11-30".to_owned()),
        updated: None,
        data_version: None,
        tasks_committed: None,
        source: None,
    })
    .unwrap_err();
    let message = format!("{err:#}");
    assert!(
        message.contains(&format!(
            "{}: was changed after energyboard import wrote it",
            kept.display()
        )),
        "{message}"
    );
    assert_eq!(crate::common::file_tree(&data), before);
}

/// Model files with no history (no change log, no superseded file: written
/// by hand, or by `energyboard-synth`) have no version pages: the model page
/// is their only address, and its citation names it.
#[test]
fn a_model_without_history_is_cited_at_its_page() {
    let dir = tempfile::tempdir().unwrap();
    let pages = build_site(
        &Path::new(ROOT).join("tests/fixtures/seeds"),
        &dir.path().join("site"),
    );
    assert!(pages.keys().all(|p| !p.contains("/v/")), "a version page");
    let html = &pages[&format!("{CHAT}qwen-3-32b/index.html")];
    assert!(!html.contains("id=\"versions\""));
    assert!(
        html.contains(&format!("url          = {{{BASE}{CHAT}qwen-3-32b/}}")),
        "the citation names the model page"
    );
}
