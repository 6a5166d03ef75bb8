//! Issue 45: a workload of many models stays usable. Its leaderboard is
//! paged as static pages (`index.html`, `page-2.html`, …), each complete
//! without JavaScript, linked to every other, with the latency limit's data
//! and the chart of every configuration of its own rows only. Past
//! [`LISTED_MODELS`] models, the downloads page links each workload's pages
//! of per-model files instead of listing every file itself.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use scraper::{Html, Selector};

use crate::synthetic::{SynthOptions, write_synthetic};
use energyboard::analyse::best_per_gpu;
use energyboard::load::load_data_dir;
use energyboard::render::{LISTED_MODELS, PAGE_ROWS};
use energyboard::{BuildOptions, build};

fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

/// The file a relative link of the page at `page` (relative to `site`)
/// names, without its fragment or query.
fn target(site: &Path, page: &Path, href: &str) -> PathBuf {
    let path = href.split(['#', '?']).next().unwrap();
    let mut at = site.join(page).parent().unwrap().to_path_buf();
    for part in path.split('/') {
        match part {
            ".." => assert!(at.pop(), "{href} leaves the site"),
            "" | "." => {}
            p => at.push(p),
        }
    }
    at
}

#[test]
fn a_leaderboard_of_200_models_is_paged_as_linked_static_pages() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    write_synthetic(&SynthOptions {
        data_dir: PathBuf::from("tests/fixtures/seeds"),
        out_dir: data.clone(),
        count: 200,
        seed: 5,
        force: false,
        workloads: 1,
    })
    .unwrap();
    let site = dir.path().join("site");
    build(&BuildOptions {
        data_dir: data.clone(),
        out_dir: site.clone(),
        static_dir: PathBuf::from("static"),
        base_url: Some("https://example.org/eb/".to_owned()),
        ..BuildOptions::default()
    })
    .unwrap();
    // Every model's best per GPU is a row of the leaderboard, once.
    let expected: usize = load_data_dir(&data)
        .unwrap()
        .models
        .iter()
        .map(|m| {
            best_per_gpu(&m.file)
                .iter()
                .filter(|b| b.best.is_some())
                .count()
        })
        .sum();
    let pages = expected.div_ceil(PAGE_ROWS);
    assert!(pages >= 3, "{expected} rows make {pages} pages");
    // The sitemap lists every page of the leaderboard and of the comparison.
    let sitemap = std::fs::read_to_string(site.join("sitemap.xml")).unwrap();
    for n in 2..=pages {
        let loc =
            format!("<loc>https://example.org/eb/workloads/lm-arena-chat/page-{n}.html</loc>");
        assert!(sitemap.contains(&loc), "{loc}");
    }
    assert!(
        sitemap.contains(
            "<loc>https://example.org/eb/workloads/lm-arena-chat/compare/page-2.html</loc>"
        )
    );

    let folder = Path::new("workloads/lm-arena-chat");
    let files: Vec<PathBuf> = (1..=pages)
        .map(|n| {
            folder.join(if n == 1 {
                "index.html".into()
            } else {
                format!("page-{n}.html")
            })
        })
        .collect();
    assert!(
        !site
            .join(folder)
            .join(format!("page-{}.html", pages + 1))
            .exists()
    );
    let mut seen = BTreeSet::new();
    let mut next_of_previous: Option<PathBuf> = None;
    for (at, file) in files.iter().enumerate() {
        let text = std::fs::read_to_string(site.join(file)).unwrap();
        let doc = Html::parse_document(&text);
        // Reached from the page before by its "Next page" link.
        if let Some(next) = next_of_previous.take() {
            assert_eq!(next, site.join(file));
        }
        // The rows are in the page as built, none hidden: no script needed.
        let rows: Vec<_> = doc.select(&sel("#leaderboard tbody tr")).collect();
        let want = if at + 1 < pages {
            PAGE_ROWS
        } else {
            expected - PAGE_ROWS * (pages - 1)
        };
        assert_eq!(rows.len(), want, "{}", file.display());
        for r in &rows {
            assert!(r.value().attr("hidden").is_none());
            let model = r
                .select(&sel("th a, td a"))
                .next()
                .unwrap()
                .value()
                .attr("href")
                .unwrap();
            let cells: Vec<String> = r.select(&sel("td")).map(|c| c.text().collect()).collect();
            assert!(
                seen.insert((model.to_owned(), cells.join("|"))),
                "row twice: {model}"
            );
        }
        assert!(
            doc.select(&sel("[hidden] #leaderboard, noscript #leaderboard"))
                .next()
                .is_none(),
            "{}: the table needs a script",
            file.display()
        );
        // Two lists of every page (before and after the table), this one current.
        let navs: Vec<_> = doc.select(&sel("nav.pages")).collect();
        assert_eq!(navs.len(), 2, "{}", file.display());
        for nav in &navs {
            assert!(nav.value().attr("hidden").is_none());
            let links: Vec<_> = nav.select(&sel("ol a")).collect();
            assert_eq!(links.len(), pages);
            for (n, a) in links.iter().enumerate() {
                let href = a.value().attr("href").unwrap();
                assert_eq!(target(&site, file, href), site.join(&files[n]));
                assert_eq!(a.value().attr("aria-current").is_some(), n == at);
            }
        }
        let next = doc.select(&sel("nav.pages a[rel=next]")).next();
        assert_eq!(next.is_some(), at + 1 < pages, "{}", file.display());
        next_of_previous = next.map(|a| target(&site, file, a.value().attr("href").unwrap()));
        // Every link, frame, script and stylesheet of the page is a file of the site.
        for (what, attr) in [
            ("a[href]", "href"),
            ("iframe", "src"),
            ("script[src]", "src"),
        ] {
            for e in doc.select(&sel(what)) {
                let href = e.value().attr(attr).unwrap();
                if href.starts_with('#') || href.contains("://") {
                    continue;
                }
                assert!(
                    target(&site, file, href).is_file(),
                    "{}: {href} is not a file",
                    file.display()
                );
            }
        }
        // The limit's data covers this page's rows alone, with its own file
        // of other candidates' rows.
        let data: serde_json::Value =
            serde_json::from_str(&doc.select(&sel("#limit-data")).next().unwrap().inner_html())
                .unwrap();
        assert_eq!(data["rows"].as_array().unwrap().len(), want);
        let spare = data["spare"].as_str().unwrap();
        let spare_text = std::fs::read_to_string(target(&site, file, spare)).unwrap();
        let spare_doc = Html::parse_document(&spare_text);
        for t in spare_doc.select(&sel("tr[data-row]")) {
            let row: usize = t.value().attr("data-row").unwrap().parse().unwrap();
            assert!(row < want, "{spare}: row {row} of a page of {want}");
        }
        // The page's chart of every configuration draws its own rows' models.
        let frame = doc
            .select(&sel("iframe"))
            .next()
            .unwrap()
            .value()
            .attr("src")
            .unwrap();
        let svg = std::fs::read_to_string(target(&site, file, frame)).unwrap();
        // A model's link names its GPU's card (#gpu-…): the model is the page.
        let models: BTreeSet<&str> = rows
            .iter()
            .map(|r| {
                r.select(&sel("a"))
                    .next()
                    .unwrap()
                    .value()
                    .attr("href")
                    .unwrap()
            })
            .map(|href| href.split('#').next().unwrap())
            .collect();
        assert_eq!(
            svg.matches("<g class=\"sm\">").count(),
            models.len(),
            "{frame}"
        );
    }
    assert_eq!(seen.len(), expected);
}

/// The slugs of the models a compare page lists, in order.
fn picked(doc: &Html) -> Vec<String> {
    doc.select(&sel("#pick input[name=models]"))
        .map(|b| b.value().attr("value").unwrap().to_owned())
        .collect()
}

#[test]
fn a_comparison_of_200_models_is_paged_each_page_small_and_complete_without_javascript() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    write_synthetic(&SynthOptions {
        data_dir: PathBuf::from("tests/fixtures/seeds"),
        out_dir: data.clone(),
        count: 200,
        seed: 9,
        force: false,
        workloads: 1,
    })
    .unwrap();
    let site = dir.path().join("site");
    build(&BuildOptions {
        data_dir: data.clone(),
        out_dir: site.clone(),
        static_dir: PathBuf::from("static"),
        ..BuildOptions::default()
    })
    .unwrap();
    let loaded = load_data_dir(&data).unwrap();
    let configurations: std::collections::BTreeMap<String, usize> = loaded
        .models
        .iter()
        .map(|m| (m.file.slug.clone(), m.file.configurations.len()))
        .collect();
    let folder = Path::new("workloads/lm-arena-chat/compare");
    let index: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(site.join(folder).join("pages.json")).unwrap(),
    )
    .unwrap();
    let files: Vec<String> = index["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect();
    assert!(files.len() >= 4, "200 models on {} pages", files.len());
    assert_eq!(files[0], "index.html");
    assert!(
        !site
            .join(folder)
            .join(format!("page-{}.html", files.len() + 1))
            .exists()
    );
    let mut listed = BTreeSet::new();
    for (n, file) in files.iter().enumerate() {
        let path = folder.join(file);
        let bytes = std::fs::metadata(site.join(&path)).unwrap().len();
        assert!(bytes < 2_500_000, "{}: {bytes} bytes", path.display());
        let doc = Html::parse_document(&std::fs::read_to_string(site.join(&path)).unwrap());
        let slugs = picked(&doc);
        assert!(!slugs.is_empty() && slugs.len() <= energyboard::analyse::COMPARE_PAGE_MODELS);
        for s in &slugs {
            assert!(listed.insert(s.clone()), "{s} listed twice");
            assert_eq!(index["models"][s], n, "pages.json misplaces {s}");
        }
        // Without JavaScript: the page's lowest-energy models ticked, and a
        // rule that shows each ticked model's drawing and rows.
        let ticked = doc
            .select(&sel("#pick input[name=models][checked]"))
            .count();
        assert_eq!(ticked, slugs.len().min(7), "{}", path.display());
        let style: String = doc
            .select(&sel("head style"))
            .flat_map(|s| s.text())
            .collect();
        for b in doc.select(&sel("#pick input[name=models]")) {
            let k = b.value().id().unwrap().strip_prefix("pick-").unwrap();
            assert!(style.contains(&format!(
                "main:has(#pick-{k}:not(:checked)) .m{k}{{display:none}}"
            )));
        }
        // Every configuration of every listed model: one point in each
        // drawing, one row of the table.
        let want: usize = slugs.iter().map(|s| configurations[s]).sum();
        assert!(want <= energyboard::analyse::COMPARE_PAGE_POINTS || slugs.len() == 1);
        // The phone's drawing inline, the wide one in its <template>.
        let narrow = doc
            .select(&sel("#chart-frontiers .chart-inline.narrow a.pt"))
            .count();
        assert_eq!(narrow, want, "{} narrow", path.display());
        let wide = Html::parse_fragment(
            &doc.select(&sel("#chart-frontiers .chart-inline.wide > template"))
                .next()
                .unwrap()
                .inner_html(),
        );
        let wide = wide.select(&sel("a.pt")).count();
        assert_eq!(wide, want, "{} wide", path.display());
        let rows = doc.select(&sel("#chart-frontiers-data tbody tr")).count();
        assert_eq!(rows, want, "{}", path.display());
        // Every page links to every other, this one current.
        let nav = doc.select(&sel("nav.pages ol")).next().unwrap();
        let links: Vec<_> = nav.select(&sel("a")).collect();
        assert_eq!(links.len(), files.len());
        for (m, a) in links.iter().enumerate() {
            assert_eq!(a.value().attr("href").unwrap(), files[m]);
            assert_eq!(a.value().attr("aria-current").is_some(), m == n);
        }
    }
    assert_eq!(listed.len(), 200);
}

/// The relative links of `doc` (at `file` in `site`), each checked to name
/// a file of the site.
fn links_are_files(site: &Path, file: &Path, doc: &Html) -> Vec<String> {
    let mut hrefs = Vec::new();
    for a in doc.select(&sel("a[href]")) {
        let href = a.value().attr("href").unwrap();
        if href.starts_with('#') || href.contains("://") {
            continue;
        }
        let to = target(site, file, href);
        assert!(to.is_file(), "{}: {href} is not a file", file.display());
        hrefs.push(href.to_owned());
    }
    hrefs
}

#[test]
fn past_500_models_each_workloads_downloads_are_listed_on_linked_pages() {
    let count = LISTED_MODELS + 20;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    write_synthetic(&SynthOptions {
        data_dir: PathBuf::from("tests/fixtures/seeds"),
        out_dir: data.clone(),
        count,
        seed: 7,
        force: false,
        workloads: 1,
    })
    .unwrap();
    let site = dir.path().join("site");
    build(&BuildOptions {
        data_dir: data.clone(),
        out_dir: site.clone(),
        static_dir: PathBuf::from("static"),
        ..BuildOptions::default()
    })
    .unwrap();
    // The downloads page lists no model's file: it links the workload's pages.
    let index = Path::new("data/index.html");
    let doc = Html::parse_document(&std::fs::read_to_string(site.join(index)).unwrap());
    let hrefs = links_are_files(&site, index, &doc);
    assert!(
        !hrefs
            .iter()
            .any(|h| h.starts_with("lm-arena-chat/") && h != "lm-arena-chat/index.html")
    );
    assert!(hrefs.iter().any(|h| h == "lm-arena-chat/index.html"));
    let files = [
        Path::new("data/lm-arena-chat/index.html"),
        Path::new("data/lm-arena-chat/page-2.html"),
    ];
    assert!(!site.join("data/lm-arena-chat/page-3.html").exists());
    let mut listed = BTreeSet::new();
    for (at, file) in files.iter().enumerate() {
        let doc = Html::parse_document(&std::fs::read_to_string(site.join(file)).unwrap());
        // Every model's two files, in the page as built: no script needed.
        let items = doc.select(&sel("main ul.files li")).count();
        let want = if at == 0 { LISTED_MODELS } else { 20 };
        assert_eq!(items, 2 * want, "{}", file.display());
        let hrefs = links_are_files(&site, file, &doc);
        for ext in [".json", ".csv"] {
            let n = hrefs.iter().filter(|h| h.ends_with(ext)).count();
            assert_eq!(n, want, "{}: {ext}", file.display());
        }
        listed.extend(hrefs.into_iter().filter(|h| h.ends_with(".json")));
        // Two lists of both pages (before and after the files), this one current.
        let navs: Vec<_> = doc.select(&sel("nav.pages")).collect();
        assert_eq!(navs.len(), 2, "{}", file.display());
        for nav in &navs {
            let links: Vec<_> = nav.select(&sel("ol a")).collect();
            assert_eq!(links.len(), files.len());
            for (n, a) in links.iter().enumerate() {
                let href = a.value().attr("href").unwrap();
                assert_eq!(target(&site, file, href), site.join(files[n]));
                assert_eq!(a.value().attr("aria-current").is_some(), n == at);
            }
        }
        let next = doc.select(&sel("nav.pages a[rel=next]")).next();
        assert_eq!(next.is_some(), at == 0, "{}", file.display());
    }
    // Every model's files, each once.
    let slugs: BTreeSet<String> = load_data_dir(&data)
        .unwrap()
        .models
        .iter()
        .map(|m| format!("{}.json", m.file.slug))
        .collect();
    assert_eq!(listed, slugs);
}
