//! The change log as a reader and a feed reader see it: `/changes/`, the
//! Atom feed, each model page's history of best figures and the published
//! history, built from `tests/fixtures/changes/` (two hand-written imports,
//! see its README), and hostile histories refused with the file and field.

use std::fs;
use std::path::{Path, PathBuf};

use energyboard::changes::{BestChange, ChangeHistory, FILE_NAME};
use energyboard::load::{Problem, load_data_dir, validate_history};
use energyboard::{BuildOptions, build};
use scraper::{ElementRef, Html, Selector};

const BASE: &str = "https://example.org/board/";
const ATOM: &str = "http://www.w3.org/2005/Atom";
const QWEN: &str = "workloads/lm-arena-chat/models/qwen-3-32b/index.html";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture() -> PathBuf {
    repo().join("tests/fixtures/changes")
}

struct Built {
    _dir: tempfile::TempDir,
    out: PathBuf,
}

fn options(data: &Path, out: &Path, base_url: Option<&str>) -> BuildOptions {
    BuildOptions {
        data_dir: data.to_path_buf(),
        static_dir: repo().join("static"),
        out_dir: out.to_path_buf(),
        force: false,
        base_url: base_url.map(str::to_owned),
        workloads: energyboard::Config::load(&repo().join("energyboard.toml"))
            .unwrap()
            .workloads,
        repository: None,
        footprint: None,
    }
}

impl Built {
    fn from(data: &Path, base_url: Option<&str>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        build(&options(data, &out, base_url)).unwrap();
        Self { _dir: dir, out }
    }

    fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.out.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    fn page(&self, rel: &str) -> Html {
        Html::parse_document(&self.read(rel))
    }
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

/// The cells of every body row of table `#id`, as text.
fn rows(doc: &Html, id: &str) -> Vec<Vec<String>> {
    let table = doc
        .select(&sel(&format!("table#{id}")))
        .next()
        .unwrap_or_else(|| panic!("no table #{id}"));
    table
        .select(&sel("tbody tr:not(.group)"))
        .map(|tr| tr.select(&sel("th, td")).map(text).collect())
        .collect()
}

/// Where `href` on page `from` leads: (file, fragment), or None for an
/// address off the site.
fn resolve(from: &str, href: &str) -> Option<(String, Option<String>)> {
    if href.contains("://") {
        return None;
    }
    let (path, fragment) = match href.split_once('#') {
        Some((p, f)) => (p, Some(f.to_owned())),
        None => (href, None),
    };
    // A query (a comparison's ?models=, a limit's ?itl=) chooses what a
    // page shows; the file is the part before it.
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    if path.is_empty() {
        return Some((from.to_owned(), fragment));
    }
    for seg in path.split('/') {
        match seg {
            "." | "" => {}
            ".." => {
                parts.pop().expect("link above the site root");
            }
            s => parts.push(s),
        }
    }
    Some((parts.join("/"), fragment))
}

fn links_resolve(site: &Built, page: &str) -> usize {
    let doc = site.page(page);
    let mut n = 0;
    for a in doc.select(&sel("a[href]")) {
        let href = a.value().attr("href").unwrap();
        let Some((file, fragment)) = resolve(page, href) else {
            continue;
        };
        assert!(site.out.join(&file).is_file(), "{page}: {href} → {file}");
        if let Some(id) = fragment {
            let target = site.page(&file);
            assert!(
                target
                    .select(&sel(&format!("[id=\"{id}\"]")))
                    .next()
                    .is_some(),
                "{page}: {href}: no #{id} in {file}"
            );
        }
        n += 1;
    }
    n
}

#[test]
fn the_change_log_lists_every_import_newest_first_with_the_figures_that_moved() {
    let site = Built::from(&fixture(), Some(BASE));
    let doc = site.page("changes/index.html");
    let sections: Vec<String> = doc
        .select(&sel("main section.change"))
        .map(|s| s.value().attr("id").unwrap().to_owned())
        .collect();
    assert_eq!(sections, ["import-2", "import-1"]);
    let headings: Vec<String> = doc
        .select(&sel("main section.change h2"))
        .map(text)
        .collect();
    assert_eq!(
        headings,
        [
            "Leaderboard data of 2026-02-16",
            "Leaderboard data of 2025-12-15"
        ]
    );
    assert_eq!(
        rows(&doc, "best-2"),
        [
            [
                "Qwen 3 32B",
                "Text Conversation",
                "B200",
                "41.20",
                "39.05",
                "Wh/M tok",
                "−5.2"
            ],
            [
                "Qwen 3 32B",
                "Text Conversation",
                "H100",
                "70.00",
                "63.47",
                "Wh/M tok",
                "−9.3"
            ],
            [
                "SANA 1.5 1.6B",
                "Text to Image",
                "B200",
                "—",
                "337.9",
                "J/image",
                "new"
            ],
            [
                "<script>alert(1)</script> Old & Co",
                "Text Conversation",
                "H100",
                "12.50",
                "—",
                "Wh/M tok",
                "gone"
            ],
        ]
    );
    assert_eq!(rows(&doc, "best-1").len(), 3);
    // The unit of the percentage is in the header.
    let change_header = doc
        .select(&sel("table#best-2 thead th[data-key=change]"))
        .map(text)
        .next()
        .unwrap();
    assert_eq!(change_header, "Change %");
    let newest = doc.select(&sel("section#import-2")).next().unwrap();
    let facts: Vec<(String, String)> = newest
        .select(&sel("dt"))
        .zip(newest.select(&sel("dd")))
        .map(|(k, v)| (text(k), text(v)))
        .collect();
    for (k, v) in [
        ("Imported", "2026-02-20 (import 2)"),
        ("Data before", "2025-12-15"),
    ] {
        assert!(facts.contains(&(k.into(), v.into())), "{k}: {facts:?}");
    }
    let items: Vec<String> = newest.select(&sel("li")).map(text).collect();
    assert_eq!(
        items,
        [
            "Text to Image (text-to-image)",
            "Qwen 3 30B A3B Instruct (Text Conversation)",
            "SANA 1.5 1.6B (Text to Image)",
            "<script>alert(1)</script> Old & Co (Text Conversation)",
            "Qwen 3 32B (Text Conversation): qwen-3-32b/B200/1/384",
            "Qwen 3 32B (Text Conversation): qwen-3-32b/B200/1/448",
        ]
    );
    let lists: Vec<String> = newest.select(&sel("h3")).map(text).collect();
    assert_eq!(
        lists,
        [
            "Workloads added",
            "Models added",
            "Models removed",
            "Configurations added (1)",
            "Configurations removed (1)",
            "Best figures"
        ]
    );
    // Links: the model page, its GPU card and the row of the new best; a
    // row, model or GPU that is gone is not linked.
    let hrefs: Vec<&str> = newest
        .select(&sel("table#best-2 a"))
        .map(|a| a.value().attr("href").unwrap())
        .collect();
    let qwen = format!("../{QWEN}");
    for expected in [
        qwen.clone(),
        format!("{qwen}#gpu-b200"),
        format!("{qwen}#b200-1-384"),
        format!("{qwen}#gpu-h100"),
        format!("{qwen}#h100-2-256"),
    ] {
        assert!(
            hrefs.contains(&expected.as_str()),
            "{expected} in {hrefs:?}"
        );
    }
    assert!(
        !hrefs
            .iter()
            .any(|h| h.contains("old-model") || h.contains("448"))
    );
    // Markup in recorded names is text, never markup.
    assert!(doc.select(&sel("main script")).next().is_none());
    assert!(
        site.read("changes/index.html")
            .contains("&#60;script&#62;alert(1)")
    );
    assert!(links_resolve(&site, "changes/index.html") > 20);
    // Every page's footer links the change log, every head the feed.
    for page in ["index.html", "about/index.html", QWEN, "data/index.html"] {
        let doc = site.page(page);
        let footer: Vec<&str> = doc
            .select(&sel("footer a"))
            .filter_map(|a| a.value().attr("href"))
            .collect();
        assert!(
            footer.iter().any(|h| h.ends_with("changes/index.html")),
            "{page}: {footer:?}"
        );
        let feed = doc
            .select(&sel(
                "head link[rel=alternate][type=\"application/atom+xml\"]",
            ))
            .next()
            .unwrap_or_else(|| panic!("{page}: no feed link"));
        let (file, _) = resolve(page, feed.value().attr("href").unwrap()).unwrap();
        assert_eq!(file, "changes/feed.xml", "{page}");
    }
    let about = site.page("about/index.html");
    assert!(text(about.select(&sel("#changes")).next().unwrap()).contains("data/changes.json"));
}

#[test]
fn the_feed_is_atom_with_one_entry_per_import_newest_first_dated_by_the_history() {
    let site = Built::from(&fixture(), Some(BASE));
    let xml = site.read("changes/feed.xml");
    let doc = roxmltree::Document::parse(&xml).expect("the feed is well-formed XML");
    let feed = doc.root_element();
    assert_eq!(feed.tag_name().name(), "feed");
    assert_eq!(feed.tag_name().namespace(), Some(ATOM));
    let child = |n: roxmltree::Node<'_, '_>, name: &str| -> Option<String> {
        n.children()
            .find(|c| c.has_tag_name((ATOM, name)))
            .map(|c| c.text().unwrap_or("").to_owned())
    };
    // Atom 1.0 (RFC 4287): a feed has id, title, updated and an author (or
    // every entry has one); each entry id, title, updated.
    assert_eq!(child(feed, "id").unwrap(), format!("{BASE}changes/"));
    assert!(!child(feed, "title").unwrap().is_empty());
    assert!(feed.children().any(|c| c.has_tag_name((ATOM, "author"))));
    let self_link = feed
        .children()
        .find(|c| c.has_tag_name((ATOM, "link")) && c.attribute("rel") == Some("self"))
        .unwrap();
    assert_eq!(
        self_link.attribute("href"),
        Some(format!("{BASE}changes/feed.xml").as_str())
    );
    // Updated is the newest import's date, not the time of the build.
    assert_eq!(child(feed, "updated").unwrap(), "2026-02-20T00:00:00Z");
    let entries: Vec<roxmltree::Node<'_, '_>> = feed
        .children()
        .filter(|c| c.has_tag_name((ATOM, "entry")))
        .collect();
    let ids: Vec<String> = entries.iter().map(|e| child(*e, "id").unwrap()).collect();
    assert_eq!(
        ids,
        [
            format!("{BASE}changes/#import-2"),
            format!("{BASE}changes/#import-1")
        ]
    );
    let updated: Vec<String> = entries
        .iter()
        .map(|e| child(*e, "updated").unwrap())
        .collect();
    assert_eq!(updated, ["2026-02-20T00:00:00Z", "2025-12-20T00:00:00Z"]);
    for e in &entries {
        assert!(!child(*e, "title").unwrap().is_empty());
        assert!(!child(*e, "summary").unwrap().is_empty());
    }
    assert_eq!(
        child(entries[1], "summary").unwrap(),
        "1 workload added, 2 models added, 3 new best figures."
    );
    // The content is HTML (escaped once in the XML); its text carries every
    // figure that moved, and recorded names stay text.
    let content = entries[0]
        .children()
        .find(|c| c.has_tag_name((ATOM, "content")))
        .unwrap();
    assert_eq!(content.attribute("type"), Some("html"));
    let html = Html::parse_fragment(content.text().unwrap());
    assert!(html.select(&sel("script")).next().is_none());
    let shown = text(html.root_element());
    for expected in [
        "Qwen 3 32B (Text Conversation) on B200: 41.20 → 39.05 Wh/M tok (−5.2 %)",
        "Qwen 3 32B (Text Conversation) on H100: 70.00 → 63.47 Wh/M tok (−9.3 %)",
        "SANA 1.5 1.6B (Text to Image) on B200: — → 337.9 J/image (new)",
        "<script>alert(1)</script> Old & Co (Text Conversation) on H100: 12.50 → — Wh/M tok (gone)",
    ] {
        assert!(shown.contains(expected), "{expected:?} in {shown}");
    }
    let hrefs: Vec<&str> = html
        .select(&sel("a"))
        .map(|a| a.value().attr("href").unwrap())
        .collect();
    assert!(hrefs.contains(&format!("{BASE}{QWEN}#gpu-h100").as_str()));
    assert!(hrefs.iter().all(|h| h.starts_with(BASE)), "{hrefs:?}");
    // Every date in the feed is one of the history's: none is the date of
    // the build.
    let recorded = ["2025-12-15", "2025-12-20", "2026-02-16", "2026-02-20"];
    let bytes = xml.as_bytes();
    let mut dates = 0;
    for i in 0..bytes.len().saturating_sub(10) {
        let w = &bytes[i..i + 10];
        let is_date = w.iter().enumerate().all(|(k, b)| {
            if k == 4 || k == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
        if is_date {
            let date = std::str::from_utf8(w).unwrap();
            assert!(recorded.contains(&date), "the feed carries {date}");
            dates += 1;
        }
    }
    assert!(dates >= 5, "{dates} dates");
    // The same data give the same bytes.
    let again = Built::from(&fixture(), Some(BASE));
    assert_eq!(xml, again.read("changes/feed.xml"));
    assert_eq!(
        site.read("changes/index.html"),
        again.read("changes/index.html")
    );
}

#[test]
fn each_model_page_shows_the_history_of_its_own_best_figures() {
    let site = Built::from(&fixture(), Some(BASE));
    let doc = site.page(QWEN);
    assert_eq!(
        rows(&doc, "table-history"),
        [
            [
                "2026-02-20",
                "2026-02-16",
                "41.20",
                "39.05",
                "Wh/M tok",
                "−5.2"
            ],
            ["2025-12-20", "2025-12-15", "—", "41.20", "Wh/M tok", "new"],
            [
                "2026-02-20",
                "2026-02-16",
                "70.00",
                "63.47",
                "Wh/M tok",
                "−9.3"
            ],
            ["2025-12-20", "2025-12-15", "—", "70.00", "Wh/M tok", "new"],
        ]
    );
    let groups: Vec<String> = doc
        .select(&sel("table#table-history tr.group"))
        .map(text)
        .collect();
    assert_eq!(groups, ["B200", "H100"]);
    assert!(links_resolve(&site, QWEN) > 0);
    let history = text(doc.select(&sel("#history")).next().unwrap());
    assert!(history.contains("change log"), "{history}");
    // The figures after the last change are the page's own best figures.
    for (gpu, figure) in [("b200", "39.05"), ("h100", "63.47")] {
        let card = text(doc.select(&sel(&format!("#gpu-{gpu}"))).next().unwrap());
        assert!(card.contains(figure), "{gpu}: {card}");
    }
    let sana = site.page("workloads/text-to-image/models/sana-1-5-1-6b/index.html");
    assert_eq!(
        rows(&sana, "table-history"),
        [["2026-02-20", "2026-02-16", "—", "337.9", "J/image", "new"]]
    );
    // A model whose best figures never changed says so.
    let other = site.page("workloads/lm-arena-chat/models/qwen-3-30b-a3b-instruct/index.html");
    assert!(other.select(&sel("table#table-history")).next().is_none());
    assert!(text(other.select(&sel("#history")).next().unwrap()).contains("has changed since"));
}

#[test]
fn the_history_is_published_byte_for_byte_and_listed_on_the_data_page() {
    let site = Built::from(&fixture(), None);
    assert_eq!(
        fs::read(site.out.join("data/changes.json")).unwrap(),
        fs::read(fixture().join("changes.json")).unwrap()
    );
    let data = site.page("data/index.html");
    let listed: Vec<String> = data.select(&sel("ul.files li")).map(text).collect();
    assert!(
        listed
            .iter()
            .any(|l| l.starts_with("changes.json") && l.contains("2 recorded imports")),
        "{listed:?}"
    );
    // Without a base URL there is no feed (an Atom id is an absolute
    // address) and no page links one; the change log is there all the same.
    assert!(!site.out.join("changes/feed.xml").exists());
    assert!(!site.read("index.html").contains("application/atom+xml"));
    let doc = site.page("changes/index.html");
    assert_eq!(doc.select(&sel("main section.change")).count(), 2);
    assert!(!text(doc.select(&sel("main")).next().unwrap()).contains("Atom feed"));
}

#[test]
fn a_site_without_a_history_says_no_import_has_been_recorded() {
    let site = Built::from(&repo().join("tests/fixtures/seeds"), Some(BASE));
    let doc = site.page("changes/index.html");
    let main = text(doc.select(&sel("main")).next().unwrap());
    assert!(main.contains("No import has been recorded"), "{main}");
    assert!(!site.out.join("changes/feed.xml").exists());
    assert!(!site.out.join("data/changes.json").exists());
    let model = site.page(QWEN);
    assert!(model.select(&sel("#history")).next().is_none());
    assert!(
        site.read("sitemap.xml")
            .contains(&format!("{BASE}changes/"))
    );
}

/// Builds the fixture with `changes.json` replaced by `history`; the error.
fn build_error(history: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    for sub in ["lm-arena-chat", "text-to-image"] {
        fs::create_dir_all(data.join(sub)).unwrap();
        for f in fs::read_dir(fixture().join(sub)).unwrap() {
            let f = f.unwrap();
            fs::copy(f.path(), data.join(sub).join(f.file_name())).unwrap();
        }
    }
    fs::write(data.join("changes.json"), history).unwrap();
    let out = dir.path().join("site");
    let err = build(&options(&data, &out, None)).unwrap_err();
    assert!(!out.exists(), "a failed build wrote {}", out.display());
    format!("{err:#}")
}

fn entry(extra: &str) -> String {
    format!(
        r#"{{"version": "1", "entries": [{{"upstream_version": "2026-02-16", "imported": "2026-02-20", "source": "s"{extra}}}]}}"#
    )
}

#[test]
fn hostile_histories_are_refused_naming_the_file_and_the_field() {
    let best = |fields: &str| {
        entry(&format!(
            r#", "best_changed": [{{"workload": "lm-arena-chat", "slug": "qwen-3-32b", "gpu": "H100", "figure": "wh_per_million_output_tokens", "unit": "Wh/M tok", {fields}}}]"#
        ))
    };
    for (history, field, says) in [
        (
            best(r#""old": 1, "new": 1e300"#),
            "entries[0].best_changed[0].new",
            "out of range",
        ),
        (
            best(r#""old": 1, "new": 1e400"#),
            "entries[0].best_changed[0].new",
            "",
        ),
        (
            best(r#""old": -5, "new": 1"#),
            "entries[0].best_changed[0].old",
            "out of range",
        ),
        (
            best(r#""old": "many", "new": 1"#),
            "entries[0].best_changed[0].old",
            "",
        ),
        (
            entry(r#", "models_added": [{"workload": "lm-arena-chat", "slug": "m", "name": "a\u001bb"}]"#),
            "entries[0].models_added[0].name",
            "U+001B",
        ),
        (
            entry(r#", "models_added": [{"workload": "lm-arena-chat", "slug": "<b>", "name": "n"}]"#),
            "entries[0].models_added[0].slug",
            "not a model slug",
        ),
        (
            entry(r#", "workloads_added": ["../../etc"]"#),
            "entries[0].workloads_added[0]",
            "not a workload id",
        ),
        (
            entry(r#", "surprise": 1"#),
            "entries[0].surprise",
            "is not a field of the change history's format",
        ),
        (
            r#"{"version": "1", "entries": [{"upstream_version": "2026-02-16", "imported": "yesterday", "source": "s"}]}"#.to_owned(),
            "entries[0].imported",
            "not a date",
        ),
        (
            format!("{}x", entry("")),
            "(file)",
            "",
        ),
    ] {
        let err = build_error(&history);
        assert!(
            err.contains(&format!("changes.json: {field}")),
            "{history}\n→ {err}"
        );
        assert!(err.contains(says), "{history}\n→ {err}");
    }
}

#[test]
fn a_model_may_not_take_the_slug_of_the_published_history() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    fs::create_dir_all(&data).unwrap();
    let seed = fs::read_to_string(repo().join("tests/fixtures/seeds/qwen-3-32b.json")).unwrap();
    let renamed = seed
        .replace("\"slug\": \"qwen-3-32b\"", "\"slug\": \"changes\"")
        .replace("qwen-3-32b/", "changes/");
    assert_ne!(seed, renamed);
    fs::write(data.join("model.json"), renamed).unwrap();
    let err = build(&options(&data, &dir.path().join("site"), None)).unwrap_err();
    let err = format!("{err:#}");
    assert!(
        err.contains("slug: \"changes\" is reserved: data/changes.json"),
        "{err}"
    );
}

// The history file on its own: read beside the model files, and checked
// field by field.

#[test]
fn percent_is_relative_to_the_old_value() {
    let change = BestChange {
        workload: "gpqa".into(),
        slug: "m".into(),
        gpu: "H100".into(),
        figure: "wh_per_million_output_tokens".into(),
        unit: "Wh/M tok".into(),
        old: Some(200.0),
        new: Some(150.0),
        old_row_id: None,
        new_row_id: None,
    };
    assert_eq!(change.percent(), Some(-25.0));
    let appeared = BestChange {
        old: None,
        ..change
    };
    assert_eq!(appeared.percent(), None);
}

fn data_with_history(history: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        "tests/fixtures/seeds/qwen-3-32b.json",
        dir.path().join("qwen-3-32b.json"),
    )
    .unwrap();
    std::fs::write(dir.path().join(FILE_NAME), history).unwrap();
    dir
}

#[test]
fn changes_json_at_the_top_is_the_history_not_a_model() {
    let dir = data_with_history(
        r#"{"version": "1", "entries": [{"upstream_version": "2026-02-16",
        "previous_upstream_version": "2026-01-01", "imported": "2026-11-30",
        "source": "ml-energy/leaderboard public/data",
        "best_changed": [{"workload": "lm-arena-chat", "slug": "qwen-3-32b", "gpu": "H100",
        "figure": "wh_per_million_output_tokens", "unit": "Wh/M tok", "old": 100.0,
        "new": 90.0, "old_row_id": "qwen-3-32b/H100/1/8", "new_row_id": "qwen-3-32b/H100/1/16"}]}]}"#,
    );
    let data = load_data_dir(dir.path()).unwrap();
    assert_eq!(data.models.len(), 1);
    let history = data.changes.unwrap().history;
    assert_eq!(history.entries.len(), 1);
    assert_eq!(history.entries[0].best_changed[0].percent(), Some(-10.0));
}

#[test]
fn a_bad_history_names_the_file_and_field() {
    for (text, field) in [
        (
            r#"{"version": "1", "entries": [{"upstream_version": "soon", "imported": "2026-11-30", "source": "x"}]}"#,
            "entries[0].upstream_version",
        ),
        (
            r#"{"version": "1", "entries": [{"upstream_version": "2026-01-01", "imported": "2026-11-30", "source": "x", "models_added": [{"workload": "../etc", "slug": "a", "name": "A"}]}]}"#,
            "entries[0].models_added[0].workload",
        ),
        (
            r#"{"version": "1", "entries": [{"upstream_version": "2026-01-01", "imported": "2026-11-30", "source": "x", "surprise": 1}]}"#,
            "entries[0]",
        ),
        (r#"{"version": "2", "entries": []}"#, "version"),
    ] {
        let dir = data_with_history(text);
        let err = load_data_dir(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("changes.json") && err.contains(field),
            "{field}: {err}"
        );
    }
}

#[test]
fn a_changes_json_in_a_subfolder_is_a_model_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        "tests/fixtures/seeds/qwen-3-32b.json",
        dir.path().join("qwen-3-32b.json"),
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("w")).unwrap();
    std::fs::write(
        dir.path().join("w").join(FILE_NAME),
        r#"{"version": "1", "entries": []}"#,
    )
    .unwrap();
    assert!(load_data_dir(dir.path()).is_err());
}

fn history(json: &str) -> ChangeHistory {
    serde_json::from_str(json).unwrap()
}

fn fields(problems: &[Problem]) -> Vec<&str> {
    problems.iter().map(|p| p.field.as_str()).collect()
}

#[test]
fn hostile_entries_are_refused_naming_the_field() {
    let h = history(
        r#"{"version": "1", "entries": [
          {"upstream_version": "2026-02-16", "imported": "2026-03-01", "source": "x",
           "models_added": [{"workload": "lm-arena-chat", "slug": "../etc", "name": "a\u0007b"}],
           "best_changed": [{"workload": "Chat", "slug": "m", "gpu": "H100",
             "figure": "wh_per_million_output_tokens", "unit": "Wh/M tok",
             "old": -1, "new": 1e300}]},
          {"upstream_version": "soon", "imported": "2026-02-01", "source": "x"}
        ]}"#,
    );
    let problems = validate_history(Path::new("data/changes.json"), &h);
    assert_eq!(
        fields(&problems),
        [
            "entries[0].models_added[0].slug",
            "entries[0].models_added[0].name",
            "entries[0].best_changed[0].workload",
            "entries[0].best_changed[0].old",
            "entries[0].best_changed[0].new",
            "entries[1].upstream_version",
            "entries[1].imported",
        ],
        "{problems:#?}"
    );
    assert!(problems[1].message.contains("U+0007"), "{}", problems[1]);
    assert!(problems[4].message.contains("1e300"), "{}", problems[4]);
    assert!(
        problems[6].message.contains("oldest first"),
        "{}",
        problems[6]
    );
}

#[test]
fn an_empty_history_of_version_1_is_valid() {
    let h = history(r#"{"version": "1", "entries": []}"#);
    assert!(validate_history(Path::new("c.json"), &h).is_empty());
    let h = history(r#"{"version": "2", "entries": []}"#);
    assert_eq!(
        fields(&validate_history(Path::new("c.json"), &h)),
        ["version"]
    );
}
