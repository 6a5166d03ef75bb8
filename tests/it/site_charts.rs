//! Every chart the seven-workload build writes (the repository's `data/`),
//! read as a reader reads it: no two series in one panel look the same
//! (colour, marker and dash), and no text overlaps another.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use energyboard::{BuildOptions, build};
use roxmltree::{Document, Node};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every chart the build of `data/` writes (an SVG whose root has the class
/// `ebc`; badges and the icon are not charts), by path within the site.
fn built_charts() -> &'static [(String, String)] {
    &built().charts
}

/// The build of `data/` and its charts.
struct Built {
    site: PathBuf,
    charts: Vec<(String, String)>,
}

/// `data/` built once per run of the tests, by the first test that asks,
/// into cargo's temporary folder for tests (`target/tmp/`, replaced by the
/// next run), then read by every test here (each built it anew before: six
/// builds of the whole leaderboard).
fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let config = energyboard::Config::load(&repo().join("energyboard.toml")).unwrap();
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("site-charts-tests-data");
        build(&BuildOptions {
            data_dir: repo().join("data"),
            static_dir: repo().join("static"),
            out_dir: out.clone(),
            force: false,
            base_url: None,
            repository: None,
            workloads: config.workloads.clone(),
            footprint: config.footprint(&repo().join("energyboard.toml")).unwrap(),
        })
        .unwrap();
        let mut charts = Vec::new();
        collect(&out, &out, &mut charts);
        charts.sort();
        assert!(charts.len() > 400, "{} charts", charts.len());
        Built { site: out, charts }
    })
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "svg") {
            let text = fs::read_to_string(&path).unwrap();
            if text.contains("class=\"ebc\"") {
                let rel = path.strip_prefix(root).unwrap().display().to_string();
                out.push((rel, text));
            }
        }
    }
}

fn has_class(n: &Node<'_, '_>, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split(' ').any(|k| k == class))
}

/// What a legend entry's sample looks like: each drawn element's tag,
/// class (which decides colour and dash) and shape relative to the
/// entry's first element. Empty for an entry without a sample.
fn look(key: &Node<'_, '_>) -> Vec<String> {
    let mut origin: Option<(f64, f64)> = None;
    let mut out = Vec::new();
    for n in key.descendants().filter(|n| n.is_element() && n != key) {
        if n.has_tag_name("text") {
            continue;
        }
        let attr = |a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok());
        let points: Vec<(f64, f64)> = match n.tag_name().name() {
            "circle" => vec![(attr("cx").unwrap(), attr("cy").unwrap())],
            "rect" => vec![(attr("x").unwrap(), attr("y").unwrap())],
            _ => n
                .attribute("points")
                .unwrap_or_default()
                .split(' ')
                .filter_map(|p| p.split_once(','))
                .map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap()))
                .collect(),
        };
        let o = *origin.get_or_insert(points.first().copied().unwrap_or_default());
        let rel: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{},{}", x - o.0, y - o.1))
            .collect();
        out.push(format!(
            "{} {} r={:?} w={:?} h={:?} {}",
            n.tag_name().name(),
            n.attribute("class").unwrap_or_default(),
            attr("r"),
            attr("width"),
            attr("height"),
            rel.join(" ")
        ));
    }
    out
}

/// The panels of a chart: its `g.panel` groups, or the whole chart.
fn panels<'a>(doc: &'a Document<'a>) -> Vec<Node<'a, 'a>> {
    let groups: Vec<Node<'_, '_>> = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && has_class(n, "panel"))
        .collect();
    if groups.is_empty() {
        vec![doc.root_element()]
    } else {
        groups
    }
}

#[test]
fn no_two_series_in_a_panel_look_the_same() {
    let mut keys_seen = 0;
    let mut failures = Vec::new();
    for (rel, svg) in built_charts() {
        let doc = Document::parse(svg).unwrap();
        for panel in panels(&doc) {
            let mut seen: Vec<(Vec<String>, String)> = Vec::new();
            for key in panel
                .descendants()
                .filter(|n| n.has_tag_name("g") && has_class(n, "key"))
            {
                let look = look(&key);
                if look.is_empty() {
                    continue;
                }
                keys_seen += 1;
                let label: String = key
                    .descendants()
                    .filter(|n| n.has_tag_name("text"))
                    .filter_map(|n| n.text())
                    .collect();
                if let Some((_, other)) = seen.iter().find(|(l, _)| *l == look) {
                    failures.push(format!("{rel}: {label:?} looks like {other:?}"));
                }
                seen.push((look, label));
            }
        }
    }
    assert!(keys_seen > 1000, "{keys_seen} legend entries");
    assert!(
        failures.is_empty(),
        "{} series look like another in their panel:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Advance of a character in em, as the chart layout estimates it (a wide
/// sans-serif, so estimates err on the large side).
fn advance(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | 'I' => 0.30,
        ' ' | 'f' | 't' | 'r' | '(' | ')' | '-' | '/' => 0.38,
        'm' | 'w' => 0.95,
        'M' | 'W' => 1.0,
        '×' | '–' | '—' | '+' | '=' | '<' | '>' => 0.84,
        'A'..='Z' => 0.72,
        '0'..='9' => 0.64,
        _ => 0.62,
    }
}

/// The box of a text element as drawn: its width from the font size and
/// characters (bold a tenth wider), its height from the font size and the
/// vertical anchor plotters gives it through `dy`. `None` for rotated text
/// (axis titles, alone on their side).
fn text_box(n: &Node<'_, '_>) -> Option<(f64, f64, f64, f64)> {
    if n.attribute("transform").is_some() {
        return None;
    }
    let num = |a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
    let size = num("font-size");
    let bold = n.attribute("font-weight").is_some_and(|w| w == "bold");
    let em: f64 = n.text().unwrap_or_default().chars().map(advance).sum();
    let w = em * size * if bold { 1.1 } else { 1.0 };
    let (x, y) = (num("x"), num("y"));
    let x0 = match n.attribute("text-anchor") {
        Some("end") => x - w,
        Some("middle") => x - w / 2.0,
        _ => x,
    };
    let (top, bottom) = match n.attribute("dy") {
        Some("0.76em") => (0.0, 1.0),
        Some("-0.5ex") => (-1.05, 0.0),
        _ => (-0.5, 0.5),
    };
    Some((x0, y + top * size, x0 + w, y + bottom * size))
}

#[test]
fn no_text_overlaps_other_text_or_leaves_the_chart() {
    let mut texts_seen = 0;
    let mut failures = Vec::new();
    for (rel, svg) in built_charts() {
        let doc = Document::parse(svg).unwrap();
        let vb: Vec<f64> = doc
            .root_element()
            .attribute("viewBox")
            .unwrap()
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        let texts: Vec<(String, (f64, f64, f64, f64))> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| Some((n.text().unwrap_or_default().to_owned(), text_box(&n)?)))
            .collect();
        texts_seen += texts.len();
        for (i, (what, a)) in texts.iter().enumerate() {
            if a.0 < -0.5 || a.2 > vb[2] + 0.5 || a.1 < -0.5 || a.3 > vb[3] + 0.5 {
                failures.push(format!("{rel}: {what:?} leaves the chart"));
            }
            for (other, b) in &texts[i + 1..] {
                // Boxes that touch by less than half a pixel do not overlap.
                let overlap =
                    a.0 + 0.5 < b.2 && b.0 + 0.5 < a.2 && a.1 + 0.5 < b.3 && b.1 + 0.5 < a.3;
                if overlap {
                    failures.push(format!("{rel}: {what:?} overlaps {other:?}"));
                }
            }
        }
    }
    assert!(texts_seen > 10_000, "{texts_seen} texts");
    assert!(
        failures.is_empty(),
        "{} texts overlap or leave their chart:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A workload's scatter of every configuration: each point a link, opened
/// in the whole window, to an existing row of a model page of that
/// workload, with a tooltip naming the model; every model page linked.
#[test]
fn every_configuration_on_the_scatter_names_itself_and_links_to_its_row() {
    let Built { site, charts } = built();
    let mut scatters = 0;
    for (rel, svg) in charts
        .iter()
        .filter(|(r, _)| r.ends_with("/all-configurations.svg"))
    {
        scatters += 1;
        let base = site.join(rel).parent().unwrap().to_path_buf();
        let doc = Document::parse(svg).unwrap();
        let mut linked = std::collections::BTreeSet::new();
        for a in doc.descendants().filter(|n| n.has_tag_name("a")) {
            let href = a.attribute("href").unwrap();
            assert_eq!(a.attribute("target"), Some("_top"), "{rel}: {href}");
            let (page, anchor) = href.split_once('#').unwrap();
            let html = fs::read_to_string(base.join(page))
                .unwrap_or_else(|e| panic!("{rel}: {href}: {e}"));
            assert!(
                html.contains(&format!("id=\"{anchor}\"")),
                "{rel}: no row {href}"
            );
            let tip = a
                .children()
                .find(|n| n.has_tag_name("title"))
                .and_then(|n| n.text())
                .unwrap_or_else(|| panic!("{rel}: {href} has no tooltip"));
            let model = tip.split(": ").next().unwrap();
            assert!(
                html.contains(model),
                "{rel}: {tip} names no model of {href}"
            );
            linked.insert(page.to_owned());
        }
        let pages: std::collections::BTreeSet<String> = fs::read_dir(base.join("models"))
            .unwrap()
            .map(|e| {
                format!(
                    "models/{}/index.html",
                    e.unwrap().file_name().to_string_lossy()
                )
            })
            .collect();
        assert_eq!(linked, pages, "{rel}");
    }
    assert_eq!(scatters, 7);
}

/// Every per-token model page links its time–energy chart at p90, p95 and
/// p99 ITL, each a file beside the page; diffusion pages have none.
#[test]
fn per_token_model_pages_link_the_chart_at_each_itl_percentile() {
    let Built { site, charts } = built();
    let pages: Vec<&String> = charts
        .iter()
        .map(|(rel, _)| rel)
        .filter(|rel| rel.ends_with("/time-energy-tradeoff.svg") && rel.starts_with("workloads/"))
        .collect();
    let mut per_token = 0;
    for rel in pages {
        let folder = site.join(rel).parent().unwrap().to_path_buf();
        let html = fs::read_to_string(folder.join("index.html")).unwrap();
        let tokens = folder.join("energy-vs-concurrency.svg").is_file();
        for p in ["p90", "p95", "p99"] {
            let file = format!("time-energy-tradeoff-{p}.svg");
            assert_eq!(folder.join(&file).is_file(), tokens, "{rel}: {file}");
            assert_eq!(
                html.contains(&format!("href=\"{file}\"")),
                tokens,
                "{rel}: {file}"
            );
        }
        per_token += usize::from(tokens);
    }
    assert!(per_token > 40, "{per_token}");
}

/// The front page compares energy per response across workloads, from a
/// chat answer of about 34 J to a reasoning answer of about 12,000 J; so
/// does each model overview that has more than one workload. On a linear
/// axis the chat bars were one or two pixels wide; on a log scale every bar
/// is long enough to read, the chart says it is a log scale, and every tick
/// label lies inside the chart.
#[test]
fn energy_per_response_bars_are_all_readable_on_a_log_scale() {
    let charts = built_charts();
    let (_, svg) = charts
        .iter()
        .find(|(rel, _)| rel == "energy-per-response.svg")
        .expect("the front page's energy-per-response chart");
    assert_readable_log_bars("energy-per-response.svg", svg, 10);
    let overviews: Vec<&(String, String)> = charts
        .iter()
        .filter(|(rel, svg)| {
            rel.starts_with("models/")
                && rel.ends_with("/workloads.svg")
                && svg.contains("energy per response")
        })
        .collect();
    assert!(overviews.len() > 10, "{} model overviews", overviews.len());
    for (rel, svg) in overviews {
        assert_readable_log_bars(rel, svg, 2);
    }
}

/// The bar chart `svg` says it is on a log scale, has at least `min_bars`
/// bars, each at least 24 px long and at most 10 times the shortest, and
/// its tick labels inside it.
fn assert_readable_log_bars(rel: &str, svg: &str, min_bars: usize) {
    let doc = Document::parse(svg).unwrap();
    let text_of = |tag: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name(tag))
            .filter_map(|n| n.text().map(str::to_owned))
            .collect()
    };
    let title = text_of("title").concat();
    assert!(title.contains("log scale"), "{rel}: {title}");
    let desc = text_of("desc").concat();
    assert!(desc.contains("log scale"), "{rel}: {desc}");
    assert!(
        text_of("text").iter().any(|t| t.ends_with("log scale")),
        "{rel}: no axis title says log scale"
    );
    // Bars are the rectangles filled with a series colour (`c0`, `c1`, …).
    let bars: Vec<f64> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect"))
        .filter(|n| {
            n.attribute("class")
                .and_then(|c| c.strip_prefix('c'))
                .is_some_and(|slot| slot.parse::<usize>().is_ok())
        })
        .map(|n| n.attribute("width").unwrap().parse().unwrap())
        .collect();
    assert!(bars.len() >= min_bars, "{rel}: {} bars", bars.len());
    let (narrowest, widest) = bars.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &w| {
        (lo.min(w), hi.max(w))
    });
    assert!(
        narrowest >= 24.0 && widest <= 10.0 * narrowest,
        "{rel}: bars from {narrowest} to {widest} px wide"
    );
    let width: f64 = doc
        .root_element()
        .attribute("viewBox")
        .unwrap()
        .split(' ')
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    let ticks: Vec<(String, (f64, f64, f64, f64))> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("dy") == Some("0.76em"))
        .map(|n| {
            (
                n.text().unwrap_or_default().to_owned(),
                text_box(&n).unwrap(),
            )
        })
        .collect();
    assert!(ticks.len() >= 3, "{ticks:?}");
    for (label, (x0, _, x1, _)) in ticks {
        assert!(
            x0 >= 0.0 && x1 <= width,
            "{rel}: {label:?} spans {x0}..{x1} of {width}"
        );
    }
}

/// Issue 22's second part, on the seven-workload build: the compare page
/// overlays each model's energy per response on a log scale (a group per
/// model, hidden with its checkbox); the time–energy chart's percentiles
/// and a long-tailed histogram's log scale are views switched in place by
/// links to their anchors (no script), the files at their URLs; the
/// scatter carries the map its script draws the reader's limit and budget
/// with; inline and framed charts follow the page's theme switch.
#[test]
fn compare_overlay_switches_in_place_scatter_limits_and_theme() {
    let Built { site, charts } = built();
    // The compare page's overlay.
    let html = fs::read_to_string(site.join("workloads/lm-arena-chat/compare/index.html")).unwrap();
    let start = html.find("id=\"chart-responses\"").expect("no overlay");
    let figure = &html[start..start + html[start..].find("</figure>").unwrap()];
    let svg = &figure[figure.find("<svg").unwrap()..figure.find("</svg>").unwrap() + 6];
    let doc = Document::parse(svg).unwrap();
    let groups: Vec<Node<'_, '_>> = doc.descendants().filter(|n| has_class(n, "rm")).collect();
    assert!(groups.len() >= 7, "{} groups", groups.len());
    for g in &groups {
        let k = g
            .attribute("class")
            .unwrap()
            .split(' ')
            .find_map(|c| c.strip_prefix('m'))
            .unwrap();
        assert!(
            html.contains(&format!("id=\"pick-{k}\"")),
            "m{k} has no checkbox"
        );
        assert!(
            g.children().any(|n| n.has_tag_name("polyline")),
            "m{k}: no line"
        );
        let tip = g.children().find(|n| n.has_tag_name("title")).unwrap();
        assert!(tip.text().unwrap().contains("median"), "{:?}", tip.text());
    }
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("Energy per response (") && t.ends_with(", log scale)")),
        "{texts:?}"
    );
    assert!(texts.contains(&"Responses at or below (%)"), "{texts:?}");
    assert!(figure.contains("log x scale"), "caption says the scale");
    assert!(figure.contains("id=\"chart-responses-data\""), "data table");
    // Inline and framed charts follow the theme switch; image charts follow
    // it through their <img>'s color-scheme and carry no theme rules.
    assert!(svg.contains(":root[data-theme=dark]"), "overlay not themed");
    for (rel, svg) in charts {
        let themed = svg.contains(":root[data-theme=dark]");
        // The time–energy chart beside its page (not its still copy at the
        // legacy address).
        let framed = rel.ends_with("/all-configurations.svg")
            || rel.ends_with("/all-configurations-wide.svg")
            || (rel.starts_with("workloads/") && rel.ends_with("/time-energy-tradeoff.svg"))
            || rel.ends_with("/time-energy-tradeoff-wide.svg");
        assert_eq!(themed, framed, "{rel}");
    }
    // The scatter's reader (phone and wide drawings): pixel ends and values
    // of both log axes, and the script that draws a limit and a budget from
    // its fragment.
    let scatters = charts.iter().filter(|(r, _)| {
        r.ends_with("/all-configurations.svg") || r.ends_with("/all-configurations-wide.svg")
    });
    for (rel, svg) in scatters {
        let doc = Document::parse(svg).unwrap();
        let reader = doc
            .descendants()
            .find(|n| n.attribute("id") == Some("reader"))
            .unwrap_or_else(|| panic!("{rel}: no reader"));
        for axis in ["data-x", "data-y"] {
            let v: Vec<f64> = reader
                .attribute(axis)
                .unwrap()
                .split(' ')
                .map(|s| s.parse().unwrap())
                .collect();
            assert_eq!(v.len(), 4, "{rel} {axis}");
            assert!(
                v[0] != v[1] && v[2] > 0.0 && v[3] > v[2],
                "{rel} {axis}: {v:?}"
            );
        }
        assert!(
            svg.contains("location.hash") && svg.contains("hashchange"),
            "{rel}"
        );
    }
    // The time–energy chart's percentiles as views of one switch.
    let model = site.join("workloads/sourcegraph-fim/models/qwen-3-coder-30b-a3b");
    let page = fs::read_to_string(model.join("index.html")).unwrap();
    let sw = &page[page
        .find("<div class=\"chart-switch\" role=\"group\" aria-labelledby=\"itl-percentiles\">")
        .expect("no switch")..];
    let sw = &sw[..sw.find("</div>\n</div>").unwrap()];
    for p in ["", "-p90", "-p95", "-p99"] {
        let id = format!("chart-time-energy-tradeoff{p}");
        assert!(sw.contains(&format!("href=\"#{id}\"")), "no link to {id}");
        assert!(
            sw.contains(&format!("<figure class=\"chart\" id=\"{id}\"")),
            "no view {id}"
        );
        assert!(
            sw.contains(&format!("src=\"time-energy-tradeoff{p}.svg\"")),
            "no image {p}"
        );
        assert!(model.join(format!("time-energy-tradeoff{p}.svg")).is_file());
    }
    // Its long-tailed histograms have a log view, the same way.
    for gpu in ["b200", "h100"] {
        let id = format!("chart-energy-per-response-{gpu}-log");
        assert!(page.contains(&format!("href=\"#{id}\"")), "no link to {id}");
        assert!(
            page.contains(&format!("<figure class=\"chart\" id=\"{id}\"")),
            "no view {id}"
        );
        let svg =
            fs::read_to_string(model.join(format!("energy-per-response-{gpu}-log.svg"))).unwrap();
        assert!(
            svg.contains("log scale: Qwen 3 Coder 30B A3B</title>"),
            "{gpu}: title"
        );
        assert!(
            svg.contains("Energy per response (J, log scale)</text>"),
            "{gpu}: axis"
        );
        assert!(svg.contains("; log x scale"), "{gpu}: description");
    }
}

/// Every id and chart file of every model page that names one of the
/// page's GPUs continues after the GPU's segment only with a word of
/// `model::GPU_SUFFIX_WORDS` (a GPU ending in one is refused); row anchors,
/// which begin with the GPU and are checked as rows, are left out. A view
/// or anchor added later with a new word fails here until it is listed.
#[test]
fn what_the_pages_append_to_a_gpu_name_is_a_refused_suffix_word() {
    let allowed = |word: &str| energyboard::model::GPU_SUFFIX_WORDS.contains(&word);
    let site = &built().site;
    let mut seen = 0;
    for entry in walkdir::WalkDir::new(site.join("workloads")) {
        let entry = entry.unwrap();
        if entry.file_name() != "index.html" || !entry.path().to_string_lossy().contains("/models/")
        {
            continue;
        }
        let page = fs::read_to_string(entry.path()).unwrap();
        let folder = entry.path().parent().unwrap();
        let gpus: Vec<&str> = page
            .split("id=\"gpu-")
            .skip(1)
            .filter_map(|rest| rest.split('"').next()?.strip_suffix("-h"))
            .collect();
        let mut names: Vec<String> = page
            .split(" id=\"")
            .skip(1)
            .filter_map(|r| r.split('"').next())
            .map(String::from)
            .collect();
        for file in fs::read_dir(folder).unwrap() {
            let name = file.unwrap().file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".svg") {
                names.push(stem.to_owned());
            }
        }
        for gpu in &gpus {
            for name in &names {
                let Some(at) = name.find(&format!("-{gpu}-")).map(|at| at + 1) else {
                    continue;
                };
                let rest = &name[at + gpu.len() + 1..];
                for word in rest.split('-') {
                    assert!(
                        allowed(word),
                        "{}: {name}: {word:?} after the GPU {gpu:?}",
                        folder.display()
                    );
                    seen += 1;
                }
            }
        }
    }
    assert!(seen > 100, "{seen} words seen");
}

/// Issue 42: a model page states each configuration's energy per response
/// (`#chosen-data`, named fields) for every configuration of its data file
/// with an output-length histogram, and each has its histogram beside the
/// page, whose median and p90 are the stated ones and whose row is on the
/// page; the figure is hidden until the script shows it; the time–energy
/// chart's points (phone and wide drawings) each link to a row of the page
/// and name it.
#[test]
fn model_page_states_every_configuration_histogram_and_links_its_points() {
    let slug = "qwen-3-235b-a22b-instruct";
    let dir = built()
        .site
        .join(format!("workloads/lm-arena-chat/models/{slug}"));
    let page = fs::read_to_string(dir.join("index.html")).unwrap();
    let data = page
        .split_once("<script type=\"application/json\" id=\"chosen-data\">")
        .and_then(|(_, rest)| rest.split_once("</script>"))
        .expect("the page states its configurations' histograms")
        .0;
    let data: serde_json::Value = serde_json::from_str(data).unwrap();
    let rows = data["rows"].as_object().unwrap();
    let file = fs::read_to_string(repo().join(format!("data/lm-arena-chat/{slug}.json"))).unwrap();
    let file: serde_json::Value = serde_json::from_str(&file).unwrap();
    let configurations = file["configurations"].as_array().unwrap();
    let with = configurations
        .iter()
        .filter(|c| c.get("output_length_distribution").is_some())
        .count();
    assert_eq!(
        rows.len(),
        with,
        "one row per configuration with a histogram"
    );
    for (row, c) in rows {
        assert!(page.contains(&format!("<tr id=\"{row}\"")), "{row}: no row");
        let dir_name = data["dir"].as_str().unwrap();
        let svg = fs::read_to_string(dir.join(format!("{dir_name}{row}.svg"))).unwrap();
        for (key, label) in [("median", "median"), ("p90", "p90")] {
            let figure = c[key].as_str().unwrap();
            assert!(
                svg.contains(&format!(">{label} {figure} J<")),
                "{row}: {key} {figure}"
            );
        }
        assert!(!c["setup"].as_str().unwrap().is_empty());
    }
    assert!(
        page.contains("<figure class=\"chart chosen-response\" id=\"chosen-response\" hidden>")
    );
    for name in ["time-energy-tradeoff.svg", "time-energy-tradeoff-wide.svg"] {
        let svg = fs::read_to_string(dir.join(name)).unwrap();
        let doc = Document::parse(&svg).unwrap();
        let points: Vec<Node<'_, '_>> = doc
            .descendants()
            .filter(|n| {
                n.has_tag_name("a") && n.attribute("class").is_some_and(|c| c.starts_with("pt "))
            })
            .collect();
        assert_eq!(points.len(), configurations.len(), "{name}: a link a point");
        for p in points {
            let row = p.attribute("data-row").unwrap();
            let href = p
                .attribute(("http://www.w3.org/1999/xlink", "href"))
                .or(p.attribute("href"));
            assert_eq!(href, Some(format!("index.html#{row}").as_str()), "{name}");
            assert!(page.contains(&format!("<tr id=\"{row}\"")), "{name}: {row}");
        }
    }
}
