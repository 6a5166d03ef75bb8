//! Energy per response (from output-length histograms) and carbon and cost
//! (from the settings), as a reader sees them on the built pages, against
//! values worked out by hand.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use energyboard::footprint::{CarbonIntensity, ElectricityPrice, FacilityOverhead, Footprint};
use energyboard::{BuildOptions, build};
use scraper::{Html, Selector};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// 400 g CO₂e/kWh, 0.10 USD/kWh and PUE 1.5: round numbers to check the
/// arithmetic by hand.
fn test_footprint() -> Footprint {
    Footprint::from_settings(
        Some(CarbonIntensity {
            g_co2e_per_kwh: 400.0,
            source: "Test grid".into(),
            year: 2023,
            url: Some("https://example.org/grid".into()),
        }),
        Some(ElectricityPrice {
            per_kwh: 0.10,
            currency: "USD".into(),
            source: "Test tariff".into(),
            year: 2024,
            url: None,
        }),
        Some(FacilityOverhead {
            pue: 1.5,
            source: "Test hall".into(),
            year: None,
            url: None,
        }),
    )
    .unwrap()
    .unwrap()
}

/// A data folder with the three fixtures that carry output-length
/// histograms and one text-to-image model.
fn fixture_data() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = repo().join("tests/fixtures/distributions");
    for (w, f) in [
        ("lm-arena-chat", "qwen-3-8b"),
        ("gpqa", "qwen-3-8b"),
        ("image-chat", "gemma-3-12b"),
    ] {
        fs::create_dir_all(dir.path().join(w)).unwrap();
        fs::copy(
            src.join(w).join(format!("{f}.json")),
            dir.path().join(w).join(format!("{f}.json")),
        )
        .unwrap();
    }
    fs::create_dir_all(dir.path().join("text-to-image")).unwrap();
    fs::copy(
        repo().join("tests/fixtures/diffusion/text-to-image/flux-1-dev.json"),
        dir.path().join("text-to-image/flux-1-dev.json"),
    )
    .unwrap();
    dir
}

struct Built {
    _dir: tempfile::TempDir,
    out: PathBuf,
}

impl Built {
    fn from(data: &Path, footprint: Option<Footprint>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        build(&BuildOptions {
            data_dir: data.to_path_buf(),
            static_dir: repo().join("static"),
            out_dir: out.clone(),
            footprint,
            ..BuildOptions::default()
        })
        .unwrap();
        Self { _dir: dir, out }
    }

    fn page(&self, rel: &str) -> Html {
        Html::parse_document(&self.read(rel))
    }

    fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.out.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    fn files(&self) -> BTreeMap<String, Vec<u8>> {
        walkdir::WalkDir::new(&self.out)
            .sort_by_file_name()
            .into_iter()
            .map(Result::unwrap)
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let rel = e.path().strip_prefix(&self.out).unwrap();
                (
                    rel.to_string_lossy().replace('\\', "/"),
                    fs::read(e.path()).unwrap(),
                )
            })
            .collect()
    }
}

fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

fn text_of(doc: &Html, selector: &str) -> String {
    doc.select(&sel(selector))
        .map(|e| e.text().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Rows of a table as header key → cell text.
fn rows(doc: &Html, table: &str) -> Vec<BTreeMap<String, String>> {
    let keys: Vec<String> = doc
        .select(&sel(&format!("{table} thead th")))
        .map(|th| th.value().attr("data-key").unwrap_or_default().to_owned())
        .collect();
    let cell = sel("th, td");
    doc.select(&sel(&format!("{table} tbody tr")))
        .map(|tr| {
            let cells = tr.select(&cell).map(|c| {
                c.text()
                    .collect::<String>()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            keys.iter().cloned().zip(cells).collect()
        })
        .collect()
}

fn row_of<'a>(
    rows: &'a [BTreeMap<String, String>],
    key: &str,
    value: &str,
) -> &'a BTreeMap<String, String> {
    rows.iter()
        .find(|r| r.get(key).is_some_and(|v| v.starts_with(value)))
        .unwrap_or_else(|| panic!("no row with {key} = {value} in {rows:?}"))
}

/// How many bins of row `row_id`'s histogram in a distributions fixture
/// hold a response.
fn nonempty_bins(file: &str, row_id: &str) -> usize {
    let path = repo().join("tests/fixtures/distributions").join(file);
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    v["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["row_id"] == row_id)
        .unwrap()["output_length_distribution"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c.as_u64() != Some(0))
        .count()
}

const CHAT_QWEN: &str = "workloads/lm-arena-chat/models/qwen-3-8b/";
const GPQA_QWEN: &str = "workloads/gpqa/models/qwen-3-8b/";

#[test]
fn energy_per_response_median_and_p90_are_read_off_the_histogram() {
    let data = fixture_data();
    let site = Built::from(data.path(), None);
    // lm-arena-chat, best on H100: qwen-3-8b/H100/1/512, 0.0721292 J/token,
    // 1,024 responses. The median (512th) falls in the bin [493.28,
    // 575.16) tokens, with 486 responses below it and 50 in it:
    // 493.28 + (512 − 486) / 50 × 81.88 = 535.8576 tokens × 0.0721292 J
    // = 38.651 J. The p90 works out the same way to 101.975 J. Best on
    // B200 (0.0530581 J/token, 4,096 responses): 27.887 J and 74.691 J.
    let doc = site.page(&format!("{CHAT_QWEN}index.html"));
    let table = rows(&doc, "#response-energy");
    assert_eq!(table.len(), 2, "{table:?}");
    let h100 = row_of(&table, "gpu", "H100");
    assert_eq!(h100["responses"], "1,024");
    assert_eq!(h100["median"], "38.7");
    assert_eq!(h100["p90"], "102.0");
    let b200 = row_of(&table, "gpu", "B200");
    assert_eq!(b200["responses"], "4,096");
    assert_eq!(
        (b200["median"].as_str(), b200["p90"].as_str()),
        ("27.9", "74.7")
    );
    assert!(text_of(&doc, "#response").contains("Energies are in J."));
    // Its histograms are files beside the page, described in words.
    let svg = site.read(&format!("{CHAT_QWEN}energy-per-response-h100.svg"));
    let parsed = roxmltree::Document::parse(&svg).unwrap();
    let desc = parsed
        .descendants()
        .find(|n| n.has_tag_name("desc"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(
        desc.contains("1,024 responses in 50 bins")
            && desc.contains("0.0721 J per output token")
            && desc.contains("Median 38.7 J, 90th percentile 102.0 J"),
        "{desc}"
    );
    assert_eq!(
        svg.matches("<rect").count(),
        // One bar per non-empty bin.
        nonempty_bins("lm-arena-chat/qwen-3-8b.json", "qwen-3-8b/H100/1/512"),
        "{svg}"
    );

    // gpqa's responses run to 7,000 J and more, and the page still gives
    // them in J (one unit for energy per response on every page): best on
    // B200 (0.1731699 J/token): median 1,294.81 J, p90 2,447.11 J.
    let doc = site.page(&format!("{GPQA_QWEN}index.html"));
    let b200 = rows(&doc, "#response-energy")
        .into_iter()
        .find(|r| r["gpu"] == "B200")
        .unwrap();
    assert_eq!(
        (b200["median"].as_str(), b200["p90"].as_str()),
        ("1,294.8", "2,447.1")
    );
    assert!(text_of(&doc, "#response-energy thead").contains("Median J"));
    assert!(text_of(&doc, "#response").contains("Energies are in J."));

    // The about page states the rule once some data carry histograms.
    let about = site.page("about/index.html");
    assert!(text_of(&about, "#formulas").contains("spread evenly across it"));
}

#[test]
fn without_histograms_the_model_page_has_no_energy_per_response_section() {
    let site = Built::from(&repo().join("tests/fixtures/seeds"), None);
    let files = site.files();
    assert!(!files.keys().any(|k| k.contains("energy-per-response")));
    for (rel, bytes) in &files {
        if rel.ends_with(".html") {
            let page = String::from_utf8_lossy(bytes);
            assert!(!page.contains("id=\"response"), "{rel}");
            assert!(!page.contains("CO₂e"), "{rel}");
        }
    }
}

#[test]
fn carbon_and_cost_follow_the_formulas_worked_by_hand() {
    let data = fixture_data();
    let site = Built::from(data.path(), Some(test_footprint()));
    // Best on H100 (lm-arena-chat): 20.04 Wh per million tokens × 1.5 PUE /
    // 1,000 = 0.03006 kWh; × 400 g/kWh = 12.024 g; × 0.10 USD/kWh =
    // 0.003006 USD. Per response: 0.0721292 J × 645 tokens = 46.5233 J =
    // 0.0129231 Wh; × 1.5 / 1,000 = 1.93847e-5 kWh; × 400 = 0.00775 g;
    // × 0.10 = 0.00000194 USD.
    let doc = site.page(&format!("{CHAT_QWEN}index.html"));
    let card = text_of(&doc, "#gpu-h100");
    for figure in [
        "Carbon per million tokens † 12.0 g CO₂e",
        "Carbon per 1,000 responses † 7.75 g CO₂e",
        "Cost per million tokens † 0.00301 USD",
        "Cost per 1,000 responses † 0.00194 USD",
    ] {
        assert!(card.contains(figure), "{figure} not in {card}");
    }
    let note = text_of(&doc, "#footprint-note");
    for part in [
        "400 g CO₂e/kWh (Test grid, 2023)",
        "0.1 USD/kWh (Test tariff, 2024)",
        "PUE 1.5 (Test hall)",
        "floors",
    ] {
        assert!(note.contains(part), "{part} not in {note}");
    }
    // Median energy per response 38.651 J = 0.010736 Wh; × 1.5 / 1,000 ×
    // 400 = 0.00644 g; × 0.10 = 0.00000161 USD.
    let table = rows(&doc, "#response-energy");
    let h100 = row_of(&table, "gpu", "H100");
    assert_eq!(h100["median_g"], "0.00644");
    // Cost per 1,000 responses (the unit policy): 0.00161 USD.
    assert_eq!(h100["median_cost"], "0.00161");

    // The leaderboard and the GPU page carry the same per-million figures,
    // in columns after the energy, with the note under the table.
    for page in [
        "workloads/lm-arena-chat/index.html",
        "workloads/lm-arena-chat/gpus/h100/index.html",
    ] {
        let doc = site.page(page);
        let table = if page.contains("gpus") {
            "#gpu-leaderboard"
        } else {
            "#leaderboard"
        };
        let rows = rows(&doc, table);
        let h100 = rows
            .iter()
            .find(|r| r.get("gpu").is_none_or(|g| g == "H100"))
            .unwrap();
        assert_eq!(h100["g_co2e"], "12.0", "{page}");
        assert_eq!(h100["cost"], "0.00301", "{page}");
        let heads = text_of(&doc, &format!("{table} thead"));
        assert!(
            heads.contains("g CO₂e/M tok") && heads.contains("USD/M tok"),
            "{page}: {heads}"
        );
        assert!(
            text_of(&doc, "#footprint-note").contains("floors"),
            "{page}"
        );
    }

    // Text to image, FLUX.1 Dev best on H100: 7,866.31 J per image =
    // 2.18509 Wh; × 1.5 / 1,000 = 0.00327763 kWh; × 400 = 1.31 g; × 0.10 =
    // 0.000328 USD.
    let doc = site.page("workloads/text-to-image/models/flux-1-dev/index.html");
    let card = text_of(&doc, "#gpu-h100");
    assert!(card.contains("Carbon per image † 1.31 g CO₂e"), "{card}");
    assert!(card.contains("Cost per image † 0.000328 USD"), "{card}");
    let board = site.page("workloads/text-to-image/index.html");
    assert!(text_of(&board, "#leaderboard thead").contains("g CO₂e/image"));

    // The about page gives the settings with their sources and the formulas.
    let about_doc = site.page("about/index.html");
    assert_eq!(
        text_of(
            &about_doc,
            "#footprint a[href=\"https://example.org/grid\"]"
        ),
        "Test grid"
    );
    let about = text_of(&about_doc, "#footprint");
    for part in [
        "Grid carbon intensity 400 g CO₂e/kWh: Test grid",
        "Electricity price 0.1 USD/kWh: Test tariff, 2024",
        "Facility overhead (PUE) 1.5: Test hall",
        "Facility energy (kWh) = GPU energy (Wh) × PUE / 1,000; PUE 1.5 here",
        "0.4 g CO₂e per million tokens",
        "floors",
    ] {
        assert!(about.contains(part), "{part} not in {about}");
    }
}

#[test]
fn leaving_the_settings_out_changes_only_the_pages_that_show_them() {
    let data = fixture_data();
    let plain = Built::from(data.path(), None).files();
    let with = Built::from(data.path(), Some(test_footprint())).files();
    assert_eq!(
        plain.keys().collect::<Vec<_>>(),
        with.keys().collect::<Vec<_>>(),
        "the settings add or remove no file"
    );
    for (rel, bytes) in &plain {
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !text.contains("CO₂e") && !text.contains("footprint"),
            "{rel}"
        );
        if with[rel] != *bytes {
            assert!(
                rel == "about/index.html"
                    // A leaderboard's rows for a latency limit, in its columns.
                    || rel.ends_with("/limit-rows.html")
                    || rel.ends_with("/index.html")
                        && (rel.contains("/models/")
                            || rel.contains("/gpus/")
                            || rel.matches('/').count() == 2),
                "{rel} changed with the settings"
            );
        }
    }
    // Charts, downloads and data files are the same bytes either way.
    assert!(
        plain
            .iter()
            .filter(|(k, _)| !k.ends_with(".html"))
            .all(|(k, v)| with[k] == *v)
    );
}

#[test]
fn bad_settings_are_refused_naming_the_file_and_every_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("energyboard.toml");
    fs::write(
        &path,
        "[carbon_intensity]\ng_co2e_per_kwh = -5\nsource = \"\"\nyear = 2023\n\n[electricity_price]\nper_kwh = 0.1\ncurrency = \"dollars\"\nsource = \"x\"\nyear = 3000\n",
    )
    .unwrap();
    let err = format!("{:#}", energyboard::Config::load(&path).unwrap_err());
    let file = path.display().to_string();
    for key in [
        "4 problems in the settings",
        "carbon_intensity.g_co2e_per_kwh: must be a finite number above 0 up to 2000 g CO₂e per kWh, found -5",
        "carbon_intensity.source: must say where the figure comes from",
        "electricity_price.currency: must be a three-letter ISO 4217 code",
        "electricity_price.year: must be the year the figure describes, 1990 to 2100, found 3000",
    ] {
        assert!(err.contains(key), "{key} not in {err}");
    }
    assert!(
        err.lines()
            .skip(1)
            .all(|l| l.trim_start().starts_with(&file)),
        "every problem names the file: {err}"
    );
    // A misspelt key is refused, not ignored.
    fs::write(
        &path,
        "[carbon_intensity]\ngrams_per_kwh = 400\nsource = \"x\"\nyear = 2023\n",
    )
    .unwrap();
    let err = format!("{:#}", energyboard::Config::load(&path).unwrap_err());
    assert!(
        err.contains(&file) && err.contains("grams_per_kwh"),
        "{err}"
    );
}

// The formulas and the settings' checks on their own, without a build.

fn carbon(g: f64) -> CarbonIntensity {
    CarbonIntensity {
        g_co2e_per_kwh: g,
        source: "test grid".into(),
        year: 2023,
        url: None,
    }
}

fn price(p: f64) -> ElectricityPrice {
    ElectricityPrice {
        per_kwh: p,
        currency: "USD".into(),
        source: "test tariff".into(),
        year: 2024,
        url: None,
    }
}

fn pue(x: f64) -> FacilityOverhead {
    FacilityOverhead {
        pue: x,
        source: "test site".into(),
        year: None,
        url: None,
    }
}

#[test]
fn one_wh_per_million_tokens_at_400_g_is_0_4_g_per_million_tokens() {
    let f = Footprint::from_settings(Some(carbon(400.0)), Some(price(0.10)), None)
        .unwrap()
        .unwrap();
    let i = f.of_wh(1.0);
    // 1 Wh = 0.001 kWh; × 400 g/kWh = 0.4 g; × 0.10 USD/kWh = 0.0001 USD.
    assert!((i.grams_co2e.unwrap() - 0.4).abs() < 1e-12);
    assert!((i.cost.unwrap() - 0.0001).abs() < 1e-15);
    // Per token: 0.4 g / 1e6 = 0.4 µg.
    assert!((i.grams_co2e.unwrap() / 1e6 - 4e-7).abs() < 1e-18);
}

#[test]
fn pue_scales_carbon_and_cost_and_joules_convert_by_3600() {
    let f = Footprint::from_settings(Some(carbon(384.0)), Some(price(0.0813)), Some(pue(1.5)))
        .unwrap()
        .unwrap();
    // 274.88 J = 0.076356 Wh; × 1.5 = 0.114533 Wh = 0.000114533 kWh;
    // × 384 = 0.043981 g; × 0.0813 = 0.0000093116 USD.
    let i = f.of_joules(274.88);
    assert!((i.grams_co2e.unwrap() - 0.043_980_8).abs() < 1e-7, "{i:?}");
    assert!((i.cost.unwrap() - 9.311_56e-6).abs() < 1e-10, "{i:?}");
    // 119.55 Wh/M tok × 1.5 × 384 / 1000 = 68.8608 g per million tokens.
    let m = f.of_wh(119.55);
    assert!((m.grams_co2e.unwrap() - 68.8608).abs() < 1e-9, "{m:?}");
}

#[test]
fn only_what_is_set_is_computed() {
    let f = Footprint::from_settings(None, Some(price(0.2)), None)
        .unwrap()
        .unwrap();
    let i = f.of_wh(1000.0);
    assert_eq!(i.grams_co2e, None);
    assert!((i.cost.unwrap() - 0.2).abs() < 1e-12);
    assert_eq!(Footprint::from_settings(None, None, None), Ok(None));
}

#[test]
fn bad_settings_name_their_key() {
    let mut c = carbon(f64::NAN);
    c.source = " ".into();
    c.year = 1800;
    let mut p = price(-1.0);
    p.currency = "usd".into();
    p.url = Some("ftp://x".into());
    let err = Footprint::from_settings(Some(c), Some(p), Some(pue(0.9))).unwrap_err();
    let all = err.join("\n");
    for key in [
        "carbon_intensity.g_co2e_per_kwh: must be a finite number above 0 up to 2000 g CO₂e per kWh, found NaN",
        "carbon_intensity.source: must say",
        "carbon_intensity.year: must be the year the figure describes, 1990 to 2100, found 1800",
        "electricity_price.per_kwh: must be a finite number above 0",
        "electricity_price.currency: must be a three-letter ISO 4217 code",
        "electricity_price.url: must be an http(s)",
        "facility_overhead.pue: must be a finite number from 1 up to 5, found 0.9",
    ] {
        assert!(all.contains(key), "{key} missing from:\n{all}");
    }
    assert_eq!(err.len(), 7, "{all}");
    for g in [0.0, 2000.5, f64::INFINITY] {
        assert!(Footprint::from_settings(Some(carbon(g)), None, None).is_err());
    }
    let alone = Footprint::from_settings(None, None, Some(pue(1.2))).unwrap_err();
    assert!(
        alone[0].starts_with("facility_overhead: needs"),
        "{alone:?}"
    );
}
