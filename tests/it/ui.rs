//! What a reader sees first (issue 21), on the committed site/ (the whole
//! leaderboard, seven workloads; `site.rs` checks it is current): the
//! leaderboard's default columns, the column chooser that works without
//! JavaScript, column heads that explain themselves, one caveat per kind
//! on the front page, and citations that name their page.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;

use scraper::{ElementRef, Html, Selector};

fn site() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("site")
}

fn page(rel: &str) -> (String, Html) {
    let text = fs::read_to_string(site().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let doc = Html::parse_document(&text);
    (text, doc)
}

fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

fn text(e: ElementRef<'_>) -> String {
    e.text()
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every workload's id, from the folders of the committed site.
fn workloads() -> Vec<String> {
    let mut ids: Vec<String> = fs::read_dir(site().join("workloads"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    assert_eq!(ids.len(), 7, "{ids:?}");
    ids
}

/// The keys of a table's column heads, in order.
fn head_keys(doc: &Html, table: &str) -> Vec<String> {
    doc.select(&sel(&format!("{table} thead th")))
        .map(|th| th.value().attr("data-key").unwrap().to_owned())
        .collect()
}

/// The column positions (from 1) the page's own style hides while the box
/// of `key` is not ticked.
fn hidden_by(page_text: &str, table: &str, key: &str) -> Vec<usize> {
    let rule = format!("main:has(#show-{key}:not(:checked)) #{table} tr>:nth-child(");
    page_text
        .match_indices(&rule)
        .map(|(at, _)| {
            let rest = &page_text[at + rule.len()..];
            rest[..rest.find(')').unwrap()].parse().unwrap()
        })
        .collect()
}

#[test]
fn leaderboards_show_the_essential_columns_first_and_hide_the_rest_by_css() {
    for w in workloads() {
        for (rel, table) in [
            (format!("workloads/{w}/index.html"), "leaderboard"),
            (
                format!("workloads/{w}/gpus/h100/index.html"),
                "gpu-leaderboard",
            ),
        ] {
            let (raw, doc) = page(&rel);
            let keys = head_keys(&doc, &format!("table#{table}"));
            let boxes: Vec<(String, bool)> = doc
                .select(&sel("details.cols .picks input[type=checkbox]"))
                .map(|b| {
                    (
                        b.value().attr("value").unwrap().to_owned(),
                        b.value().attr("checked").is_some(),
                    )
                })
                .collect();
            // One box per column but the row's name, in the table's order.
            assert_eq!(
                boxes.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
                keys[1..].iter().map(String::as_str).collect::<Vec<_>>(),
                "{rel}"
            );
            // The ticked ones come first: the default view is the table's
            // left part, at most eight columns with the name.
            let shown = boxes.iter().take_while(|(_, on)| *on).count();
            assert!(boxes[shown..].iter().all(|(_, on)| !on), "{rel}: {boxes:?}");
            assert!((4..=7).contains(&shown), "{rel}: {shown} shown");
            // The energy, the latency and the GPU count are among them.
            let first: Vec<&str> = boxes[..shown].iter().map(|(k, _)| k.as_str()).collect();
            assert!(first.contains(&"num_gpus"), "{rel}: {first:?}");
            assert!(
                first
                    .iter()
                    .any(|k| k.starts_with("joules_per_") || k.starts_with("wh_per_million")),
                "{rel}: {first:?}"
            );
            assert!(
                first.contains(&"median_itl_ms") || first.contains(&"batch_latency_s"),
                "{rel}: {first:?}"
            );
            // Each box's rule hides its own column, and nothing else.
            for (i, key) in keys.iter().enumerate().skip(1) {
                assert_eq!(hidden_by(&raw, table, key), vec![i + 1], "{rel}: {key}");
            }
            assert!(hidden_by(&raw, table, &keys[0]).is_empty(), "{rel}");
        }
    }
}

#[test]
fn column_heads_are_distinct_and_explain_themselves() {
    for w in workloads() {
        let rel = format!("workloads/{w}/index.html");
        let (_, doc) = page(&rel);
        let mut seen = BTreeSet::new();
        for th in doc.select(&sel("table#leaderboard thead th")) {
            let head = text(th);
            assert!(seen.insert(head.clone()), "{rel}: two heads read {head:?}");
            let link = th.select(&sel("a[title]")).next();
            let title = link.and_then(|a| a.value().attr("title")).unwrap_or("");
            assert!(title.len() > 20, "{rel}: {head:?} has no explanation");
        }
        // The table is sorted by its headline as built, and says so.
        let sorted: Vec<String> = doc
            .select(&sel("table#leaderboard thead th[aria-sort=ascending]"))
            .map(|th| th.value().attr("data-key").unwrap().to_owned())
            .collect();
        assert_eq!(sorted.len(), 1, "{rel}");
        assert!(
            sorted[0].starts_with("wh_per_million") || sorted[0].starts_with("joules_per_"),
            "{rel}: {sorted:?}"
        );
    }
}

#[test]
fn energy_per_response_is_in_joules_wherever_a_leaderboard_shows_it() {
    let (_, doc) = page("workloads/lm-arena-chat/index.html");
    let head = doc
        .select(&sel(
            "table#leaderboard thead th[data-key=joules_per_response]",
        ))
        .next()
        .expect("energy per response on the leaderboard");
    assert_eq!(text(head), "Energy per response J");
    assert!(
        doc.select(&sel("table#leaderboard thead th[data-key=wh_per_response]"))
            .next()
            .is_none()
    );
    let (_, about) = page("about/index.html");
    let units = text(about.select(&sel("#units")).next().expect("a unit policy"));
    assert!(units.contains("in joules (J)"), "{units}");
}

#[test]
fn the_front_page_states_each_caveat_once_and_counts_what_it_counts() {
    let (_, doc) = page("index.html");
    let caveat = text(doc.select(&sel(".caveat")).next().unwrap());
    // The sentence every workload's caveat ends with, said once.
    let floors = caveat.matches("Every figure is a floor").count();
    assert_eq!(floors, 1, "{caveat}");
    let mut seen = BTreeSet::new();
    for li in doc.select(&sel(".caveat li")) {
        let said = text(li);
        let body = said.split_once(": ").unwrap().1.to_owned();
        assert!(seen.insert(body), "{said}");
    }
    let lede = text(doc.select(&sel("p.lede")).next().unwrap());
    let pages = workloads()
        .iter()
        .map(|w| {
            fs::read_dir(site().join("workloads").join(w).join("models"))
                .unwrap()
                .count()
        })
        .sum::<usize>();
    assert!(
        lede.contains(&format!("{pages} model and workload pairs")),
        "{pages}: {lede}"
    );
}

#[test]
fn every_model_page_cites_itself_with_a_key_title_and_url_of_its_own() {
    let mut keys: BTreeMap<String, String> = BTreeMap::new();
    let mut titles: BTreeMap<String, String> = BTreeMap::new();
    for w in workloads() {
        for e in fs::read_dir(site().join("workloads").join(&w).join("models")).unwrap() {
            let slug = e.unwrap().file_name().to_string_lossy().into_owned();
            let rel = format!("workloads/{w}/models/{slug}/index.html");
            let (_, doc) = page(&rel);
            let bib = doc.select(&sel("#cite pre code")).next().map_or_else(
                || panic!("{rel}: no BibTeX"),
                |c| c.text().collect::<String>(),
            );
            let key = bib["@misc{".len()..bib.find(',').unwrap()].to_owned();
            let title = bib
                .lines()
                .find(|l| l.trim_start().starts_with("title"))
                .unwrap()
                .to_owned();
            // The page cites its current version's permanent address.
            assert!(
                bib.contains(&format!("url          = {{workloads/{w}/models/{slug}/v/")),
                "{rel}: {bib}"
            );
            if let Some(other) = keys.insert(key.clone(), rel.clone()) {
                panic!("{rel} and {other} share the key {key}");
            }
            if let Some(other) = titles.insert(title.clone(), rel.clone()) {
                panic!("{rel} and {other} share the title {title}");
            }
        }
    }
    assert!(keys.len() >= 62, "{}", keys.len());
}

/// The rows of a leaderboard's limit candidates, from the file beside it
/// (`limit-rows.html`, named by the page's data): (row, k, cells' texts).
fn spare_rows(rows_text: &str) -> Vec<(usize, usize, Vec<String>)> {
    Html::parse_document(rows_text)
        .select(&sel("tr"))
        .map(|tr| {
            let n = |a: &str| tr.value().attr(a).unwrap().parse::<usize>().unwrap();
            (
                n("data-row"),
                n("data-k"),
                tr.select(&sel("td")).map(text).collect(),
            )
        })
        .collect()
}

/// Issue 21: a latency limit acts on the one leaderboard table. The file
/// beside the page (fetched when a limit is first set, so a first visit
/// does not download it) carries, for every row, each other configuration
/// the limit can pick (the analysis's candidates), with a cell for every
/// column of the table but the model's, so the chosen columns, sorting and
/// filters apply; there is no second table, and the page itself carries
/// no rows of it.
#[test]
fn a_latency_limit_has_the_cells_of_every_candidate_in_the_tables_columns() {
    for w in workloads() {
        let rel = format!("workloads/{w}/index.html");
        let (page_text, doc) = page(&rel);
        assert!(!page_text.contains("leaderboard-limit"), "{rel}");
        let columns = head_keys(&doc, "#leaderboard").len();
        let rows = doc.select(&sel("#leaderboard tbody tr")).count();
        let data: serde_json::Value = serde_json::from_str(
            &doc.select(&sel("#limit-data"))
                .next()
                .map(|e| e.inner_html())
                .unwrap(),
        )
        .unwrap();
        let lists = data["rows"].as_array().unwrap();
        assert_eq!(lists.len(), rows, "{rel}");
        let mut have: BTreeSet<(usize, usize)> = BTreeSet::new();
        assert!(!page_text.contains("data-k="), "{rel}: rows in the page");
        let spare = data["spare"].as_str().unwrap();
        let (rows_text, _) = page(&format!("workloads/{w}/{spare}"));
        for (row, k, cells) in spare_rows(&rows_text) {
            assert_eq!(cells.len(), columns - 1, "{rel}: row {row} candidate {k}");
            assert!(
                have.insert((row, k)),
                "{rel}: row {row} candidate {k} twice"
            );
        }
        let mut candidates = 0;
        for (i, list) in lists.iter().enumerate() {
            let latencies = list["latencies"].as_array().unwrap();
            let base = list["shown"].as_u64().map(|b| b as usize);
            assert!(base.is_some(), "{rel}: row {i} is not among its candidates");
            for k in 0..latencies.len() {
                assert_eq!(
                    have.contains(&(i, k)),
                    Some(k) != base,
                    "{rel}: row {i} candidate {k}"
                );
            }
            candidates += latencies.len();
        }
        assert!(
            candidates > rows,
            "{rel}: {candidates} candidates for {rows} rows"
        );
    }
}

/// Issue 21: a model page has a GPU filter (where it has more than one GPU)
/// and an energy budget in the headline unit, hidden without JavaScript,
/// naming the column of the configuration tables the budget reads.
#[test]
fn model_pages_filter_by_gpu_and_energy_budget() {
    let (_, doc) = page("workloads/lm-arena-chat/models/qwen-3-235b-a22b-instruct/index.html");
    let form = doc
        .select(&sel("form#page-filters"))
        .next()
        .expect("filters");
    assert!(form.value().attr("hidden").is_some());
    let gpus: Vec<String> = form
        .select(&sel("select[name=gpu] option[data-seg]"))
        .map(text)
        .collect();
    let measured: Vec<String> = doc
        .select(&sel("#configurations h3[id^=configs-]"))
        .map(text)
        .collect();
    assert_eq!(gpus, measured);
    assert!(gpus.len() > 1, "{gpus:?}");
    assert_eq!(
        text(form.select(&sel("label .unit")).next().unwrap()),
        "Wh/M tok"
    );
    let key = form.value().attr("data-key").unwrap();
    assert!(
        doc.select(&sel(&format!("#configurations th[data-key={key}]")))
            .count()
            == gpus.len(),
        "{key}"
    );
}

/// Issue 21: energy per image or video to four significant figures, not
/// the source's two decimals (6,678.81 J read as 6,679 J).
#[test]
fn diffusion_energy_shows_four_significant_figures() {
    for w in ["text-to-image", "text-to-video"] {
        let rel = format!("workloads/{w}/index.html");
        let (_, doc) = page(&rel);
        let at = head_keys(&doc, "#leaderboard")
            .iter()
            .position(|k| k.starts_with("joules_per_"))
            .unwrap();
        for tr in doc.select(&sel("#leaderboard tbody tr")) {
            let cell = text(tr.child_elements().nth(at).unwrap());
            let digits = cell.chars().filter(char::is_ascii_digit).count();
            let whole = cell
                .split('.')
                .next()
                .unwrap()
                .chars()
                .filter(char::is_ascii_digit)
                .count();
            assert!(
                digits == 4 || (whole >= 4 && !cell.contains('.')),
                "{rel}: {cell}"
            );
        }
    }
}
