//! The built site as a reader and a browser see it: the numbers in the
//! tables, the links between pages, the page frame, the downloads and the
//! promises about the output folder.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use energyboard::{BuildOptions, build};
use scraper::{ElementRef, Html, Selector};

/// The folder of the Text Conversation workload, the one the seed files
/// are in.
const CHAT: &str = "workloads/lm-arena-chat/";

fn chat(rel: &str) -> String {
    format!("{CHAT}{rel}")
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workload settings of the repository's `energyboard.toml`, as the
/// default build uses them.
fn repo_workloads() -> Vec<energyboard::workload::WorkloadSettings> {
    energyboard::Config::load(&repo().join("energyboard.toml"))
        .unwrap()
        .workloads
}

/// The carbon and cost settings of the repository's `energyboard.toml`.
fn repo_footprint() -> Option<energyboard::footprint::Footprint> {
    let path = repo().join("energyboard.toml");
    energyboard::Config::load(&path)
        .unwrap()
        .footprint(&path)
        .unwrap()
}

/// A built site: in a fresh temporary folder, or shared by the tests that
/// only read it.
struct Built {
    _dir: Option<tempfile::TempDir>,
    out: PathBuf,
}

/// A site built once per run of the tests, by the first test that asks,
/// into cargo's temporary folder for tests (`target/tmp/`, replaced by the
/// next run), and then read by every test that asks.
macro_rules! shared {
    ($name:literal, $build:expr) => {{
        static SITE: OnceLock<Built> = OnceLock::new();
        SITE.get_or_init(|| {
            let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(concat!("site-tests-", $name));
            $build(out)
        })
    }};
}

impl Built {
    /// The seed site, shared.
    fn seed() -> &'static Self {
        shared!("seed", |out| Self::into(
            &repo().join("tests/fixtures/seeds"),
            None,
            out
        ))
    }

    fn with(base_url: Option<&str>) -> Self {
        Self::from(&repo().join("tests/fixtures/seeds"), base_url)
    }

    /// The 24-model fixture set: one GPU type only, FP8, mixed precisions,
    /// names with markup characters, a GPU with nothing under the deadline;
    /// shared.
    fn large() -> &'static Self {
        shared!("large", |out| Self::into(
            &repo().join("tests/fixtures/large"),
            None,
            out
        ))
    }

    /// Three workloads with different deadlines (tests/fixtures/workloads),
    /// shared.
    fn workloads() -> &'static Self {
        shared!("workloads", |out| Self::into(
            &repo().join("tests/fixtures/workloads"),
            None,
            out
        ))
    }

    /// `data` built into a fresh temporary folder.
    fn from(data: &Path, base_url: Option<&str>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        Self {
            _dir: Some(dir),
            ..Self::into(data, base_url, out)
        }
    }

    /// `data` built into `out`.
    fn into(data: &Path, base_url: Option<&str>, out: PathBuf) -> Self {
        build(&BuildOptions {
            data_dir: data.to_path_buf(),
            static_dir: repo().join("static"),
            out_dir: out.clone(),
            force: false,
            base_url: base_url.map(str::to_owned),
            repository: None,
            workloads: repo_workloads(),
            footprint: repo_footprint(),
        })
        .unwrap();
        Self { _dir: None, out }
    }

    fn page(&self, rel: &str) -> Html {
        let text = fs::read_to_string(self.out.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        Html::parse_document(&text)
    }

    fn files(&self) -> BTreeMap<String, Vec<u8>> {
        read_tree(&self.out)
    }
}

fn read_tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e
                .path()
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, fs::read(e.path()).unwrap())
        })
        .collect()
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

/// The leaderboard's rows as header key → cell text.
fn table_rows(doc: &Html, table: &str) -> Vec<BTreeMap<String, String>> {
    let keys: Vec<String> = doc
        .select(&sel(&format!("{table} thead th")))
        .map(|th| th.value().attr("data-key").unwrap_or_default().to_owned())
        .collect();
    doc.select(&sel(&format!("{table} tbody tr")))
        .filter(|tr| tr.value().attr("class") != Some("group"))
        .map(|tr| {
            let cells: Vec<String> = tr.select(&sel("th, td")).map(text).collect();
            keys.iter().cloned().zip(cells).collect()
        })
        .collect()
}

#[test]
fn leaderboard_shows_the_best_row_per_model_and_gpu_lowest_first() {
    let site = Built::seed();
    let doc = site.page(&chat("index.html"));
    let rows = table_rows(&doc, "table#leaderboard");
    let summary: Vec<(String, String, String, String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["model"].clone(),
                r["gpu"].clone(),
                r["num_gpus"].clone(),
                r["max_num_seqs"].clone(),
                r["wh_per_million_output_tokens"].clone(),
            )
        })
        .collect();
    let expect = |m: &str, g: &str, n: &str, s: &str, w: &str| {
        (
            m.to_owned(),
            g.to_owned(),
            n.to_owned(),
            s.to_owned(),
            w.to_owned(),
        )
    };
    assert_eq!(
        summary,
        vec![
            expect("Qwen 3 30B A3B Instruct", "B200", "1", "1024", "15.67"),
            expect("Qwen 3 30B A3B Instruct", "H100", "2", "1024", "24.69"),
            expect("Qwen 3 32B", "B200", "1", "384", "39.05"),
            expect("Qwen 3 32B", "H100", "2", "256", "63.47"),
        ]
    );
    let h100_32b = &rows[3];
    assert_eq!(h100_32b["parallelism"], "TP2");
    assert_eq!(h100_32b["median_itl_ms"], "44.5");
    assert_eq!(h100_32b["p99_itl_ms"], "148.2");
    assert_eq!(h100_32b["tokens_per_second"], "5,156");
    // 0.2284806 J/tok × 631 tokens / 3600 — the data file's avg_output_tokens.
    assert_eq!(rows[1]["parallelism"], "EP2");
    assert_eq!(rows[0]["architecture"], "MoE");
    assert_eq!(rows[0]["params_billion"], "30.0");
    assert_eq!(rows[0]["active_params_billion"], "3.0");
    // Every header carries its unit or is a label without one.
    let lede = text(doc.select(&sel("p.lede")).next().unwrap());
    assert!(lede.contains("500 ms"), "{lede}");
    let caveat = text(doc.select(&sel(".caveat")).next().unwrap());
    assert!(caveat.contains("Every figure is a floor"), "{caveat}");
}

#[test]
fn energy_per_response_is_joules_per_token_times_output_length() {
    let site = Built::seed();
    let rows = table_rows(&site.page(&chat("index.html")), "table#leaderboard");
    // Qwen 3 32B on B200 at 384: 0.1405812 J/tok × avg_output_tokens.
    let m: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(repo().join("tests/fixtures/seeds/qwen-3-32b.json")).unwrap(),
    )
    .unwrap();
    let c = m["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["row_id"] == "qwen-3-32b/B200/1/384")
        .unwrap();
    let joules =
        c["joules_per_output_token"].as_f64().unwrap() * c["avg_output_tokens"].as_f64().unwrap();
    assert_eq!(rows[2]["joules_per_response"], format!("{joules:.1}"));
}

#[test]
fn model_page_marks_best_frontier_and_repeat_rows_by_text() {
    let site = Built::seed();
    let doc = site.page(&chat("models/qwen-3-30b-a3b-instruct/index.html"));
    assert_eq!(
        text(doc.select(&sel("h1")).next().unwrap()),
        "Qwen 3 30B A3B Instruct Text Conversation"
    );
    let card = doc.select(&sel("#gpu-h100")).next().expect("GPU anchor");
    let card_text = text(card);
    assert!(card_text.contains("24.69 Wh/M tok"), "{card_text}");
    assert!(card_text.contains("2 × H100, EP2"), "{card_text}");
    let best = doc
        .select(&sel("tr#h100-2-1024"))
        .next()
        .expect("row anchor");
    assert!(text(best).contains("★ Best on H100"));
    let repeat = doc
        .select(&sel("tr#h100-2-256-r2"))
        .next()
        .expect("repeat anchor");
    assert!(text(repeat).contains("Repeat run 2"));
    assert!(text(repeat).contains("40.84"));
    // Both runs at 256 are shown, never averaged.
    assert!(doc.select(&sel("tr#h100-2-256")).next().is_some());
    // All 31 configurations are rows.
    let n = doc.select(&sel("#configurations tbody tr[id]")).count();
    assert_eq!(n, 31);
    // The fastest B200 point is on the frontier.
    let fastest = doc.select(&sel("tr#b200-1-8")).next().unwrap();
    assert!(text(fastest).contains("Pareto frontier"));
}

#[test]
fn latency_budget_table_says_none_when_nothing_is_fast_enough() {
    let site = Built::seed();
    let doc = site.page(&chat("models/qwen-3-32b/index.html"));
    let rows = table_rows(&doc, "table#budgets");
    assert_eq!(rows.len(), 5);
    assert!(rows[0]["b200"].starts_with("57.96 Wh/M"), "{:?}", rows[0]);
    assert!(rows[0]["h100"].starts_with("101.96 Wh/M"), "{:?}", rows[0]);
    assert!(rows[4]["limit"].contains("deadline"));
    assert!(rows[4]["b200"].starts_with("39.05"));
}

#[test]
fn every_page_has_lang_title_one_h1_and_a_description() {
    for site in [Built::seed(), Built::large()] {
        page_frame_is_complete(site);
    }
}

fn page_frame_is_complete(site: &Built) {
    let mut titles = BTreeSet::new();
    for (rel, bytes) in site.files() {
        if !rel.ends_with(".html") {
            continue;
        }
        let doc = Html::parse_document(std::str::from_utf8(&bytes).unwrap());
        let html = doc.select(&sel("html")).next().unwrap();
        assert_eq!(html.value().attr("lang"), Some("en"), "{rel}");
        let title = text(doc.select(&sel("head title")).next().expect(&rel));
        assert!(
            titles.insert(title.clone()),
            "{rel}: duplicate title {title}"
        );
        assert_eq!(doc.select(&sel("h1")).count(), 1, "{rel}");
        let desc = doc
            .select(&sel("meta[name=description]"))
            .next()
            .and_then(|m| m.value().attr("content"))
            .unwrap_or_default();
        assert!(desc.len() > 40, "{rel}: description {desc:?}");
        for img in doc.select(&sel("img")) {
            let alt = img.value().attr("alt").unwrap_or_default();
            assert!(!alt.trim().is_empty(), "{rel}: img without alt");
        }
    }
    assert!(titles.len() >= 9);
}

#[test]
fn every_svg_has_a_viewbox_title_and_desc() {
    for site in [Built::seed(), Built::large()] {
        svgs_are_accessible(site);
    }
}

fn svgs_are_accessible(site: &Built) {
    let mut n = 0;
    for (rel, bytes) in site.files() {
        if !rel.ends_with(".svg") {
            continue;
        }
        n += 1;
        let text = std::str::from_utf8(&bytes).unwrap();
        let doc = roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg", "{rel}");
        assert!(root.attribute("viewBox").is_some(), "{rel}: no viewBox");
        for tag in ["title", "desc"] {
            let found = root.children().any(|c| {
                c.tag_name().name() == tag && c.text().is_some_and(|t| !t.trim().is_empty())
            });
            assert!(found, "{rel}: no <{tag}>");
        }
    }
    assert!(n > 2 * 6, "only {n} SVG files");
}

/// Resolves `href` (relative to the page at `from`) to a site path, or None
/// for links that leave the site on purpose (http, mailto).
fn resolve(from: &str, href: &str) -> Option<(String, Option<String>)> {
    if href.starts_with("http://") || href.starts_with("https://") || href.starts_with("mailto:") {
        return None;
    }
    assert!(
        !href.starts_with('/'),
        "{from}: root-relative link {href} breaks under a sub-path"
    );
    assert!(
        !href.starts_with("//"),
        "{from}: protocol-relative link {href}"
    );
    let (path, frag) = match href.split_once('#') {
        Some((p, f)) => (p, Some(f.to_owned())),
        None => (href, None),
    };
    // A query (a comparison's models, a latency limit) is for the page's
    // script: the file is the path's.
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    if !path.is_empty() {
        for seg in path.split('/') {
            match seg {
                "." | "" => {}
                ".." => {
                    assert!(parts.pop().is_some(), "{from}: {href} leaves the site");
                }
                s => parts.push(s),
            }
        }
    } else {
        parts.push(from.rsplit('/').next().unwrap());
    }
    let mut target = parts.join("/");
    if path.ends_with('/') || target.is_empty() {
        target = format!(
            "{}index.html",
            if target.is_empty() {
                String::new()
            } else {
                format!("{target}/")
            }
        );
    }
    Some((target.replace("//", "/"), frag))
}

#[test]
fn every_internal_link_and_anchor_resolves() {
    for site in [Built::seed(), Built::large()] {
        links_resolve(site);
    }
}

fn links_resolve(site: &Built) {
    let files = site.files();
    let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // Each page parsed once, for its ids and then for its links.
    let mut docs: BTreeMap<&String, Html> = BTreeMap::new();
    for (rel, bytes) in &files {
        if rel.ends_with(".html") {
            let doc = Html::parse_document(std::str::from_utf8(bytes).unwrap());
            ids.insert(
                rel.clone(),
                doc.select(&sel("[id]"))
                    .filter_map(|e| e.value().attr("id").map(str::to_owned))
                    .collect(),
            );
            docs.insert(rel, doc);
        }
    }
    let mut checked = 0;
    for (rel, doc) in &docs {
        let rel: &String = rel;
        if rel == "404.html" {
            continue;
        }
        for (selector, attr) in [
            ("a[href]", "href"),
            ("img[src]", "src"),
            ("link[href]", "href"),
            ("script[src]", "src"),
        ] {
            for e in doc.select(&sel(selector)) {
                let href = e.value().attr(attr).unwrap();
                let Some((target, frag)) = resolve(rel, href) else {
                    assert_eq!(
                        selector, "a[href]",
                        "{rel}: {href} loads a resource from outside the site"
                    );
                    continue;
                };
                assert!(
                    files.contains_key(&target),
                    "{rel}: broken link {href} → {target}"
                );
                if let Some(frag) = frag.filter(|f| !f.is_empty()) {
                    assert!(
                        ids.get(&target).is_some_and(|s| s.contains(&frag)),
                        "{rel}: {href}: no #{frag} in {target}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} links checked");
}

#[test]
fn two_builds_give_identical_bytes() {
    let a = Built::with(None);
    let b = Built::with(None);
    let (fa, fb) = (a.files(), b.files());
    assert_eq!(fa.keys().collect::<Vec<_>>(), fb.keys().collect::<Vec<_>>());
    for (k, v) in &fa {
        assert!(v == &fb[k], "{k} differs between builds");
    }
}

#[test]
fn a_failed_build_leaves_the_previous_site_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    fs::create_dir(&data).unwrap();
    for f in ["qwen-3-32b.json", "qwen-3-30b-a3b-instruct.json"] {
        fs::copy(repo().join("tests/fixtures/seeds").join(f), data.join(f)).unwrap();
    }
    let out = dir.path().join("site");
    let opts = BuildOptions {
        data_dir: data.clone(),
        static_dir: repo().join("static"),
        out_dir: out.clone(),
        force: false,
        base_url: None,
        repository: None,
        workloads: repo_workloads(),
        footprint: repo_footprint(),
    };
    build(&opts).unwrap();
    let before = read_tree(&out);
    let text = fs::read_to_string(data.join("qwen-3-32b.json")).unwrap();
    fs::write(
        data.join("qwen-3-32b.json"),
        text.replacen(
            "\"wh_per_million_output_tokens\": 429.18",
            "\"wh_per_million_output_tokens\": -1",
            1,
        ),
    )
    .unwrap();
    let err = format!("{:#}", build(&opts).unwrap_err());
    assert!(err.contains("qwen-3-32b.json"), "{err}");
    assert!(
        err.contains("configurations[0].wh_per_million_output_tokens"),
        "{err}"
    );
    assert_eq!(read_tree(&out), before);
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "leftovers beside the site: {names:?}");
}

#[test]
fn downloads_parse_back_into_the_numbers_on_the_pages() {
    let site = Built::seed();
    let rows = table_rows(&site.page(&chat("index.html")), "table#leaderboard");
    let mut r = csv::Reader::from_path(site.out.join("data/leaderboard.csv")).unwrap();
    let headers = r.headers().unwrap().clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{name} in {headers:?}"))
    };
    let records: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), rows.len());
    for (rec, row) in records.iter().zip(&rows) {
        assert_eq!(rec[col("model")], row["model"]);
        assert_eq!(rec[col("gpu")], row["gpu"]);
        let wh: f64 = rec[col("wh_per_million_output_tokens (Wh/M tok)")]
            .parse()
            .unwrap();
        assert_eq!(format!("{wh:.2}"), row["wh_per_million_output_tokens"]);
        let resp: f64 = rec[col("joules_per_response (J)")].parse().unwrap();
        assert_eq!(
            format!("{resp:.1}"),
            row["joules_per_response"].replace(',', "")
        );
        let itl: f64 = rec[col("median_itl_ms (ms)")].parse().unwrap();
        assert_eq!(format!("{itl:.1}"), row["median_itl_ms"]);
    }
    let all = csv::Reader::from_path(site.out.join("data/configurations.csv"))
        .unwrap()
        .records()
        .count();
    assert_eq!(all, 31 + 22);
    // The input JSON is published byte for byte.
    assert_eq!(
        fs::read(site.out.join("data/qwen-3-32b.json")).unwrap(),
        fs::read(repo().join("tests/fixtures/seeds/qwen-3-32b.json")).unwrap()
    );
}

#[test]
fn without_a_base_url_there_is_no_canonical_and_no_sitemap() {
    let site = Built::seed();
    assert!(!site.out.join("sitemap.xml").exists());
    let doc = site.page("index.html");
    assert_eq!(doc.select(&sel("link[rel=canonical]")).count(), 0);
    let robots = fs::read_to_string(site.out.join("robots.txt")).unwrap();
    assert!(!robots.contains("Sitemap"));
}

#[test]
fn with_a_base_url_pages_carry_canonical_links_and_a_sitemap() {
    let site = Built::with(Some("https://example.github.io/mirror"));
    let canonical = |rel: &str| {
        site.page(rel)
            .select(&sel("link[rel=canonical]"))
            .next()
            .and_then(|l| l.value().attr("href").map(str::to_owned))
    };
    assert_eq!(
        canonical("index.html").as_deref(),
        Some("https://example.github.io/mirror/")
    );
    assert_eq!(
        canonical("models/qwen-3-32b/index.html").as_deref(),
        Some("https://example.github.io/mirror/models/qwen-3-32b/")
    );
    assert_eq!(
        canonical("gpus/h100/index.html").as_deref(),
        Some("https://example.github.io/mirror/gpus/h100/")
    );
    let sitemap = fs::read_to_string(site.out.join("sitemap.xml")).unwrap();
    let doc = roxmltree::Document::parse(&sitemap).unwrap();
    let locs: Vec<&str> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "loc")
        .filter_map(|n| n.text())
        .collect();
    assert!(locs.contains(&"https://example.github.io/mirror/models/qwen-3-30b-a3b-instruct/"));
    assert!(locs.contains(
        &"https://example.github.io/mirror/workloads/lm-arena-chat/models/qwen-3-30b-a3b-instruct/"
    ));
    // Front, compare, about, data, change log; 2 GPU hubs; 2 model
    // overviews; the workload's leaderboard, compare, 2 GPU pages and 2
    // model pages. The seed files have no history (no change log, no
    // superseded files), so no version pages: tests/it/versions.rs has
    // the sites that do.
    assert_eq!(locs.len(), 5 + 2 + 2 + 6);
    assert!(!locs.iter().any(|l| l.contains("/v/")));
    // The sitemap lists every page written, as written: each HTML file
    // but the 404 page and the latency-limit rows the script reads.
    let mut pages: Vec<String> = walkdir::WalkDir::new(&site.out)
        .into_iter()
        .map(Result::unwrap)
        .map(|e| {
            e.path()
                .strip_prefix(&site.out)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|rel| rel.ends_with(".html") && rel != "404.html" && !rel.contains("limit-rows"))
        .map(|rel| rel.strip_suffix("index.html").unwrap_or(&rel).to_owned())
        .map(|rel| format!("https://example.github.io/mirror/{rel}"))
        .collect();
    pages.sort();
    let mut listed: Vec<String> = locs.iter().map(|l| (*l).to_owned()).collect();
    listed.sort();
    assert_eq!(listed, pages);
    assert_eq!(
        canonical(&chat("models/qwen-3-32b/index.html")).as_deref(),
        Some("https://example.github.io/mirror/workloads/lm-arena-chat/models/qwen-3-32b/")
    );
    let robots = fs::read_to_string(site.out.join("robots.txt")).unwrap();
    assert!(robots.contains("Sitemap: https://example.github.io/mirror/sitemap.xml"));
    let og = site
        .page(&chat("models/qwen-3-32b/index.html"))
        .select(&sel("meta[property='og:description']"))
        .next()
        .unwrap()
        .value()
        .attr("content")
        .unwrap()
        .to_owned();
    assert!(
        og.starts_with(
            "Qwen 3 32B on Text Conversation: 39.05 Wh per million output tokens on B200"
        ),
        "{og}"
    );
    // The 404 page is served at any depth: its links are absolute.
    let nf = site.page("404.html");
    let home = nf
        .select(&sel("main a"))
        .next()
        .unwrap()
        .value()
        .attr("href")
        .unwrap()
        .to_owned();
    assert_eq!(home, "https://example.github.io/mirror/index.html");
    // No script but the light/dark switch's.
    assert!(nf.select(&sel("script:not(.theme)")).next().is_none());
}

#[test]
fn without_a_base_url_the_404_page_finds_the_site_root_with_a_script() {
    // Served for a missing address at any depth, its relative links would
    // point below the site; the inline script probes for assets/style.css
    // upwards from the address and rewrites every "./" link.
    let site = Built::seed();
    let nf = site.page("404.html");
    let links: Vec<&str> = nf
        .select(&sel("main a"))
        .filter_map(|a| a.value().attr("href"))
        .collect();
    assert!(
        !links.is_empty() && links.iter().all(|h| h.starts_with("./")),
        "{links:?}"
    );
    let script: String = nf.select(&sel("script")).flat_map(|s| s.text()).collect();
    assert!(script.contains("assets/style.css"), "{script}");
    assert!(script.contains(r#"a[href^="./"]"#), "{script}");
}

#[test]
fn badge_shows_the_models_best_figure() {
    let site = Built::seed();
    let svg = fs::read_to_string(site.out.join("models/qwen-3-32b/badge.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(texts, vec!["Qwen 3 32B", "39.05 Wh/M tok · B200"]);
}

#[test]
fn the_output_carries_what_github_pages_needs() {
    let site = Built::seed();
    assert!(site.out.join(".nojekyll").is_file());
    assert!(site.out.join("404.html").is_file());
    assert!(site.out.join(energyboard::write::MARKER).is_file());
}

#[test]
fn committed_site_is_up_to_date() {
    let config = energyboard::Config::load(&repo().join("energyboard.toml")).unwrap();
    // The committed site is built from the repository's data/ (the whole
    // imported leaderboard), not the seed files the other tests use.
    let site = Built::from(&repo().join("data"), config.base_url().as_deref());
    let committed = read_tree(&repo().join("site"));
    let fresh = site.files();
    let stale: Vec<&String> = fresh
        .iter()
        .filter(|(k, v)| committed.get(*k) != Some(v))
        .map(|(k, _)| k)
        .chain(committed.keys().filter(|k| !fresh.contains_key(*k)))
        .collect();
    assert!(
        stale.is_empty(),
        "site/ is stale ({} files differ, e.g. {:?}); refresh it with `cargo run --release` and \
            commit",
        stale.len(),
        stale.iter().take(5).collect::<Vec<_>>()
    );
}

#[test]
fn workloads_with_different_deadlines_are_described_as_such() {
    // Text Conversation at 500 ms, reasoning at 100 ms, code at 500 ms.
    let site = Built::workloads();
    let lede = text_of(&site.page("workloads/gpqa/index.html"), "p.lede");
    assert!(lede.contains("within 100 ms"), "{lede}");
    let lede = text_of(&site.page(&chat("index.html")), "p.lede");
    assert!(lede.contains("within 500 ms"), "{lede}");
    let model = text_of(
        &site.page("workloads/gpqa/models/qwen-3-32b/index.html"),
        "#best p",
    );
    assert!(model.contains("within 100 ms"), "{model}");
    // The overview shows each workload with its own deadline.
    let rows = table_rows(&site.page("models/qwen-3-32b/index.html"), "table#overview");
    let deadlines: BTreeSet<(String, String)> = rows
        .iter()
        .map(|r| (r["workload"].clone(), r["deadline"].clone()))
        .collect();
    assert_eq!(
        deadlines,
        BTreeSet::from([
            (
                "Problem Solving with Reasoning".to_owned(),
                "100 ms".to_owned()
            ),
            ("Text Conversation".to_owned(), "500 ms".to_owned()),
        ])
    );
}

fn text_of(doc: &Html, selector: &str) -> String {
    text(
        doc.select(&sel(selector))
            .next()
            .unwrap_or_else(|| panic!("no {selector}")),
    )
}

/// The ids of a page and where its `data-forward` sends unknown fragments,
/// read once a page: the published URLs name the same pages many times.
#[derive(Default)]
struct Anchors(BTreeMap<String, (BTreeSet<String>, Option<String>)>);

impl Anchors {
    fn of(&mut self, site: &Built, rel: &str) -> &(BTreeSet<String>, Option<String>) {
        self.0.entry(rel.to_owned()).or_insert_with(|| {
            let doc = site.page(rel);
            let ids = doc
                .select(&sel("[id]"))
                .filter_map(|e| e.value().attr("id").map(str::to_owned))
                .collect();
            let forward = doc
                .select(&sel("body"))
                .next()
                .and_then(|body| body.value().attr("data-forward").map(str::to_owned));
            (ids, forward)
        })
    }
}

/// Where an anchor of the page at `rel` resolves: on the page itself, or on
/// the page its `data-forward` sends unknown fragments to. `None` when it
/// resolves nowhere.
fn resolve_anchor(site: &Built, anchors: &mut Anchors, rel: &str, id: &str) -> Option<String> {
    let (ids, forward) = anchors.of(site, rel);
    if ids.contains(id) {
        return Some(rel.to_owned());
    }
    let forward = forward.clone()?;
    // Relative to the page's folder.
    let mut parts: Vec<&str> = rel.split('/').collect();
    parts.pop();
    for seg in forward.split('/') {
        match seg {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            s => parts.push(s),
        }
    }
    let target = parts.join("/");
    anchors.of(site, &target).0.contains(id).then_some(target)
}

fn published_v1_urls() -> Vec<String> {
    fs::read_to_string(repo().join("tests/fixtures/published-v1-urls.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_url_published_before_workloads_still_resolves() {
    // The seed data alone, and the seed data beside two more workloads.
    for site in [Built::seed(), Built::workloads()] {
        let mut anchors = Anchors::default();
        let urls = published_v1_urls();
        assert!(urls.len() > 200, "{}", urls.len());
        for url in urls {
            let (file, anchor) = url.split_once('#').unwrap_or((&url, ""));
            assert!(site.out.join(file).is_file(), "{file} is gone");
            if anchor.is_empty() {
                continue;
            }
            let at = resolve_anchor(site, &mut anchors, file, anchor)
                .unwrap_or_else(|| panic!("{url} resolves nowhere"));
            // A model page's anchors lead to the same model's Text
            // Conversation page.
            if let Some(rest) = file.strip_prefix("models/") {
                assert!(
                    at == file || at == format!("{CHAT}models/{rest}"),
                    "{url} → {at}"
                );
            }
        }
        // Files that are not pages keep their content: the legacy chart is
        // the Text Conversation chart drawn still, byte for byte (the rows
        // its points link to are not beside it), where the chart beside
        // the page links each point.
        let seed = repo().join("tests/fixtures/seeds/qwen-3-32b.json");
        let m: energyboard::model::ModelFile =
            serde_json::from_str(&fs::read_to_string(seed).unwrap()).unwrap();
        let still = energyboard::chart::tradeoff_still(&m, &energyboard::analyse::analyse(&m))
            .expect("draws");
        let legacy = "models/qwen-3-32b/time-energy-tradeoff.svg";
        let legacy = fs::read_to_string(site.out.join(legacy)).unwrap();
        assert_eq!(legacy, still.unwrap().svg);
        assert!(!legacy.contains("<a "));
        let beside = fs::read_to_string(
            site.out
                .join(chat("models/qwen-3-32b/time-energy-tradeoff.svg")),
        )
        .unwrap();
        assert!(beside.contains("<a href=\"index.html#"));
        assert_eq!(
            fs::read(site.out.join("data/qwen-3-32b.json")).unwrap(),
            fs::read(repo().join("tests/fixtures/seeds/qwen-3-32b.json")).unwrap()
        );
    }
}

/// An independent recomputation of the best configuration per GPU from the
/// raw JSON: lowest Wh/M with median ITL within the deadline (ties do not
/// occur in the leaderboard's data).
fn best_per_gpu_by_hand(v: &serde_json::Value) -> BTreeMap<String, f64> {
    let deadline = v["itl_deadline_ms"].as_f64().unwrap();
    let mut best: BTreeMap<String, f64> = BTreeMap::new();
    for c in v["configurations"].as_array().unwrap() {
        if c["median_itl_ms"].as_f64().unwrap() > deadline {
            continue;
        }
        let wh = c["wh_per_million_output_tokens"].as_f64().unwrap();
        let e = best
            .entry(c["gpu"].as_str().unwrap().to_owned())
            .or_insert(f64::INFINITY);
        *e = e.min(wh);
    }
    best
}

#[test]
fn every_model_page_of_the_five_leaderboard_workloads_shows_its_best_figures() {
    let data = repo().join("tests/fixtures/leaderboard");
    let site = Built::from(&data, None);
    let mut pages = 0;
    let mut workloads = BTreeSet::new();
    for entry in walkdir::WalkDir::new(&data).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "json") {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(entry.path()).unwrap()).unwrap();
        let workload = entry
            .path()
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let slug = v["slug"].as_str().unwrap();
        let page = site.page(&format!("workloads/{workload}/models/{slug}/index.html"));
        for (gpu, wh) in best_per_gpu_by_hand(&v) {
            let card = page
                .select(&sel(&format!("#gpu-{}", gpu.to_lowercase())))
                .next()
                .unwrap_or_else(|| panic!("{workload}/{slug}: no card for {gpu}"));
            let shown = text(card);
            assert!(
                shown.contains(&format!("{wh:.2} Wh/M tok")),
                "{workload}/{slug} on {gpu}: expected {wh:.2}, card says {shown}"
            );
        }
        workloads.insert(workload);
        pages += 1;
    }
    assert_eq!(pages, 50);
    assert_eq!(
        workloads,
        [
            "gpqa",
            "image-chat",
            "lm-arena-chat",
            "sourcegraph-fim",
            "video-chat"
        ]
        .map(str::to_owned)
        .into()
    );
    // The front page gives each workload's headline.
    let front = site.page("index.html");
    let headings: Vec<String> = front.select(&sel(".wl h3")).map(text).collect();
    assert_eq!(
        headings,
        [
            "Text Conversation",
            "Problem Solving with Reasoning",
            "Code Completion",
            "Image Chat",
            "Video Chat"
        ]
    );
}

/// `value` with two decimals and the thousands grouped, as the pages print
/// energy per image or video: written here independently of `fmt`.
fn joules_as_shown(value: f64) -> String {
    // Four significant figures, no fewer whole digits (the about page's
    // units): 6,678.81 J reads 6,679 J, 95.5 J reads 95.50 J.
    let decimals = (3 - value.log10().floor() as i32).max(0) as usize;
    let text = format!("{value:.decimals$}");
    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mut grouped = String::new();
    for (i, ch) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    if frac.is_empty() {
        grouped
    } else {
        format!("{grouped}.{frac}")
    }
}

/// The lowest energy per item with batch latency within the deadline, per
/// GPU, recomputed from the raw JSON.
fn diffusion_best_by_hand(v: &serde_json::Value) -> BTreeMap<String, f64> {
    let deadline = v["batch_latency_deadline_s"].as_f64().unwrap();
    let field = format!("joules_per_{}", v["kind"].as_str().unwrap());
    let mut best: BTreeMap<String, f64> = BTreeMap::new();
    for c in v["configurations"].as_array().unwrap() {
        if c["batch_latency_s"].as_f64().unwrap() > deadline {
            continue;
        }
        let e = best
            .entry(c["gpu"].as_str().unwrap().to_owned())
            .or_insert(f64::INFINITY);
        *e = e.min(c[&field].as_f64().unwrap());
    }
    best
}

/// The text of a model page's best-per-GPU card.
fn card_text(site: &Built, page: &str, gpu: &str) -> String {
    let doc = site.page(page);
    let card = doc
        .select(&sel(&format!("#gpu-{}", gpu.to_lowercase())))
        .next()
        .unwrap_or_else(|| panic!("{page}: no card for {gpu}"));
    text(card)
}

#[test]
fn diffusion_model_pages_show_the_best_per_gpu_computed_by_hand() {
    let data = repo().join("tests/fixtures/diffusion");
    let site = Built::from(&data, None);
    // Computed by hand from the leaderboard's raw task files.
    for (page, gpu, parts) in [
        (
            "workloads/text-to-image/models/flux-1-dev/index.html",
            "B200",
            ["6,679 J", "1 × B200, BF16, batch size 1", "7.755 s"],
        ),
        (
            "workloads/text-to-image/models/flux-1-dev/index.html",
            "H100",
            ["7,866 J", "1 × H100, BF16, batch size 2", "22.889 s"],
        ),
        (
            "workloads/text-to-video/models/wan-2-1-14b/index.html",
            "B200",
            [
                "342,623 J",
                "2 × B200, U1·R2, BF16, batch size 1",
                "185.238 s",
            ],
        ),
        (
            "workloads/text-to-video/models/wan-2-1-14b/index.html",
            "H100",
            [
                "344,019 J",
                "2 × H100, U2·R1, BF16, batch size 1",
                "250.921 s",
            ],
        ),
    ] {
        let shown = card_text(&site, page, gpu);
        for part in parts {
            assert!(
                shown.contains(part),
                "{page} on {gpu}: {part:?} not in {shown}"
            );
        }
    }
    // Every diffusion model's card agrees with an independent recomputation.
    let mut pages = 0;
    for entry in walkdir::WalkDir::new(&data).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "json") {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(entry.path()).unwrap()).unwrap();
        let workload = entry.path().parent().unwrap().file_name().unwrap();
        let page = format!(
            "workloads/{}/models/{}/index.html",
            workload.to_string_lossy(),
            v["slug"].as_str().unwrap()
        );
        let best = diffusion_best_by_hand(&v);
        assert_eq!(best.len(), 2, "{page}");
        for (gpu, joules) in best {
            let item = v["kind"].as_str().unwrap();
            let shown = card_text(&site, &page, &gpu);
            let want = format!("Energy per {item}{} J", joules_as_shown(joules));
            assert!(
                shown.contains(&want),
                "{page} on {gpu}: expected {want:?} in {shown}"
            );
        }
        pages += 1;
    }
    assert_eq!(pages, 12);
    // The leaderboard ranks by energy per image, lowest first, in J.
    let board = site.page("workloads/text-to-image/index.html");
    let rows = table_rows(&board, "#leaderboard");
    assert_eq!(rows.len(), 14);
    let energies: Vec<f64> = rows
        .iter()
        .map(|r| r["joules_per_image"].replace(',', "").parse().unwrap())
        .collect();
    assert!(energies.windows(2).all(|w| w[0] <= w[1]), "{energies:?}");
    let unit = text(
        board
            .select(&sel("#leaderboard th[data-key=joules_per_image] .unit"))
            .next()
            .unwrap(),
    );
    assert_eq!(unit, "J/image");
}

/// The leaderboard's seven workloads in one data folder: the five per-token
/// fixtures and the two diffusion ones; shared.
fn seven_workloads() -> &'static Built {
    shared!("seven-workloads", seven_workloads_into)
}

fn seven_workloads_into(out: PathBuf) -> Built {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    for (from, sub) in [
        ("tests/fixtures/leaderboard", ""),
        ("tests/fixtures/diffusion/text-to-image", "text-to-image"),
        ("tests/fixtures/diffusion/text-to-video", "text-to-video"),
    ] {
        let from = repo().join(from);
        for entry in walkdir::WalkDir::new(&from) {
            let entry = entry.unwrap();
            let rel = entry.path().strip_prefix(&from).unwrap();
            let to = data.join(sub).join(rel);
            if entry.file_type().is_dir() {
                fs::create_dir_all(&to).unwrap();
            } else {
                fs::copy(entry.path(), &to).unwrap();
            }
        }
    }
    Built::into(&data, None, out)
}

#[test]
fn a_site_with_per_token_and_diffusion_workloads_is_whole_and_keeps_units_apart() {
    let site = seven_workloads();
    page_frame_is_complete(site);
    svgs_are_accessible(site);
    links_resolve(site);
    let files = site.files();
    // Each kind has its own CSV files, with its own columns.
    for (name, column) in [
        (
            "data/leaderboard.csv",
            "wh_per_million_output_tokens (Wh/M tok)",
        ),
        ("data/leaderboard-image.csv", "joules_per_image (J/image)"),
        ("data/leaderboard-video.csv", "joules_per_video (J/video)"),
        (
            "data/configurations-video.csv",
            "joules_per_video_second (J/s)",
        ),
        ("data/text-to-image/flux-1-dev.csv", "batch_latency_s (s)"),
    ] {
        let head = std::str::from_utf8(&files[name])
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_owned();
        assert!(head.contains(column), "{name}: {head}");
    }
    let per_token = std::str::from_utf8(&files["data/configurations.csv"]).unwrap();
    assert!(!per_token.contains("text-to-image") && !per_token.contains("joules_per_image"));
    // The front page gives each workload's headline in its own unit: its
    // group of the table of the lowest per GPU, and its card.
    let front = site.page("index.html");
    let cards: Vec<String> = front.select(&sel("#lowest tbody")).map(text).collect();
    assert_eq!(cards.len(), 7);
    let texts: Vec<String> = front.select(&sel(".wl")).map(text).collect();
    assert!(
        texts[5].contains("batch latency within 30 s"),
        "{}",
        texts[5]
    );
    assert!(cards[0].contains("Wh/M tok") && !cards[0].contains("J/image"));
    assert!(cards[5].starts_with("Text to Image") && cards[5].contains("J/image"));
    assert!(cards[6].contains("J/video") && !cards[6].contains("Wh/M tok"));
    // The cross-workload energy-per-response chart has per-token
    // workloads only.
    let response = std::str::from_utf8(&files["energy-per-response.svg"]).unwrap();
    assert!(!response.contains("Text to Image") && !response.contains("Text to Video"));
    // A diffusion model's overview shows J per image, not Wh per million
    // tokens.
    let overview = site.page("models/flux-1-dev/index.html");
    assert!(overview.select(&sel("#overview")).next().is_none());
    let rows: Vec<String> = overview
        .select(&sel("#overview-items tbody tr"))
        .map(text)
        .collect();
    assert_eq!(rows.len(), 2);
    assert!(rows[0].contains("6,679"), "{}", rows[0]);
    let head = text(
        overview
            .select(&sel("#overview-items thead"))
            .next()
            .unwrap(),
    );
    assert!(head.contains("Energy per image J/image"), "{head}");
    // The GPU hub mixes units, so each figure carries its own.
    let hub = site.page("gpus/h100/index.html");
    let figures: Vec<String> = hub
        .select(&sel("#hub tbody td.num:nth-child(3)"))
        .map(text)
        .collect();
    assert_eq!(figures.len(), 7);
    assert!(figures[0].ends_with("Wh/M tok"), "{figures:?}");
    assert!(
        figures[5].ends_with("J/image") && figures[6].ends_with("J/video"),
        "{figures:?}"
    );
    // The about page defines the diffusion columns its tables link to.
    let about = site.page("about/index.html");
    assert!(
        about
            .select(&sel("#col-diffusion-joules_per_video_second"))
            .next()
            .is_some()
    );
    assert!(
        about
            .select(&sel("#col-wh_per_million_output_tokens"))
            .next()
            .is_some()
    );
}

/// The tie-break sentence of `html`, the one that starts "Ties in energy".
fn tie_breaks(html: &str) -> Vec<String> {
    html.match_indices("Ties in energy go to")
        .map(|(i, _)| html[i..].split_once("file.").unwrap().0.to_owned())
        .collect()
}

#[test]
fn model_pages_state_the_tie_break_the_about_page_states() {
    let site = seven_workloads();
    let files = site.files();
    let read = |rel: &str| String::from_utf8(files[rel].clone()).unwrap();
    let about = tie_breaks(&read("about/index.html"));
    assert_eq!(about.len(), 2, "one per kind: {about:?}");
    let mut seen = std::collections::BTreeSet::new();
    for rel in files.keys() {
        if rel.starts_with("workloads/") && rel.contains("/models/") && rel.ends_with("index.html")
        {
            let own = tie_breaks(&read(rel));
            assert_eq!(own.len(), 1, "{rel}: {own:?}");
            assert!(
                about.contains(&own[0]),
                "{rel}: {:?} is not on the about page",
                own[0]
            );
            seen.insert(own[0].clone());
        }
    }
    assert_eq!(seen.len(), 2, "both kinds' model pages: {seen:?}");
}

#[test]
fn compare_page_draws_every_frontier_in_its_own_group_and_ticks_the_seven_lowest() {
    let site = Built::large();
    let doc = site.page("workloads/lm-arena-chat/compare/index.html");
    let boxes: Vec<_> = doc.select(&sel("input[name=models]")).collect();
    assert_eq!(boxes.len(), 24);
    // One group per model in each drawing (phone and wide), named by the
    // class its checkbox's rule hides.
    let groups: Vec<String> = doc
        .select(&sel(".chart-inline.narrow svg g.fm"))
        .map(|g| g.value().attr("class").unwrap().to_owned())
        .collect();
    assert_eq!(groups.len(), boxes.len());
    // The wide drawing comes in a <template> (compare.js brings it out on
    // a wide window), with the same groups.
    let wide = Html::parse_fragment(
        &doc.select(&sel(".chart-inline.wide > template"))
            .next()
            .unwrap()
            .inner_html(),
    );
    assert_eq!(wide.select(&sel("svg g.fm")).count(), boxes.len());
    let style = doc.select(&sel("head style")).next().unwrap().inner_html();
    for b in &boxes {
        let k = b.value().id().unwrap().strip_prefix("pick-").unwrap();
        assert!(groups.contains(&format!("fm m{k}")), "no group m{k}");
        assert!(
            style.contains(&format!(
                "main:has(#pick-{k}:not(:checked)) .m{k}{{display:none}}"
            )),
            "no rule for m{k}"
        );
        // Its rows in both tables carry the same class.
        assert!(doc.select(&sel(&format!("#compare tr.m{k}"))).count() == 1);
        assert!(
            doc.select(&sel(&format!("#chart-frontiers-data tr.m{k}")))
                .count()
                >= 1
        );
    }
    // Ticked at first: the seven whose frontiers frontiers.svg draws.
    let names: Vec<String> = boxes
        .iter()
        .filter(|b| b.value().attr("checked").is_some())
        .map(|b| {
            let id = b.value().id().unwrap();
            doc.select(&sel(&format!("label:has(#{id})")))
                .next()
                .unwrap()
                .text()
                .collect::<String>()
                .trim()
                .to_owned()
        })
        .collect();
    assert_eq!(names.len(), 7);
    let files = site.files();
    let svg = std::str::from_utf8(&files["workloads/lm-arena-chat/compare/frontiers.svg"]).unwrap();
    for name in &names {
        assert!(
            svg.contains(&format!(">{name}</text>")),
            "{name} is not in frontiers.svg"
        );
    }
}

#[test]
fn model_pages_link_a_comparison_with_their_nearest_peers_by_size() {
    let site = Built::large();
    let doc = site.page("workloads/lm-arena-chat/models/fixture-dense-14b/index.html");
    let href = doc
        .select(&sel("a"))
        .find(|a| a.text().collect::<String>().contains("nearest in size"))
        .and_then(|a| a.value().attr("href"))
        .unwrap()
        .to_owned();
    let (path, query) = href.split_once("?models=").unwrap();
    assert_eq!(
        path,
        "../../../../workloads/lm-arena-chat/compare/index.html"
    );
    let slugs: Vec<&str> = query.split(',').collect();
    assert_eq!(slugs.len(), 5);
    assert_eq!(slugs[0], "fixture-dense-14b");
    // The same 14 B first, then 12 B and 16 B (2 B away; the smaller first).
    assert_eq!(slugs[1], "fixture-dense-14b-fp8");
    assert_eq!(slugs[2..4], ["fixture-dense-tie", "fixture-moe-16b-a2b"]);
    // Every peer is a model of the workload, none twice.
    let compare = site.page("workloads/lm-arena-chat/compare/index.html");
    for s in &slugs {
        assert_eq!(
            compare
                .select(&sel(&format!("input[name=models][value=\"{s}\"]")))
                .count(),
            1,
            "{s}"
        );
    }
    let mut unique = slugs.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), slugs.len());
}
