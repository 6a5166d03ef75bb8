//! Charts drawn from the seed data: well-formed, accessible SVG whose marks
//! sit where the data say.

use std::path::Path;

use energyboard::analyse::{Analysed, ModelAnalysis, analyse};
use energyboard::chart::{self, BarEntry, Chart};
use energyboard::columns::Words;
use energyboard::load::read_model_file;
use energyboard::model::ModelFile;
use energyboard::select::GpuBest;

const SEEDS: [&str; 2] = [
    "tests/fixtures/seeds/qwen-3-32b.json",
    "tests/fixtures/seeds/qwen-3-30b-a3b-instruct.json",
];

fn seed(path: &str) -> (ModelFile, ModelAnalysis) {
    let m = read_model_file(Path::new(path))
        .unwrap_or_else(|e| panic!("{path}: {e:?}"))
        .file;
    let a = analyse(&m);
    (m, a)
}

fn seeds() -> Vec<(ModelFile, ModelAnalysis)> {
    SEEDS.iter().map(|p| seed(p)).collect()
}

/// `n` synthetic models made from the seeds in turn.
fn synthetic(n: usize) -> Vec<(ModelFile, ModelAnalysis)> {
    let seeds = seeds();
    (0..n)
        .map(|i| {
            let m = crate::synthetic::synthesise(&seeds[i % seeds.len()].0, i, 4, 7);
            let a = analyse(&m);
            (m, a)
        })
        .collect()
}

fn bar_entries(models: &[(ModelFile, ModelAnalysis)]) -> Vec<BarEntry> {
    models
        .iter()
        .flat_map(|(m, a)| BarEntry::best_of(m, a))
        .collect()
}

/// Every chart of the seed data: model pages, leaderboard, a GPU page and
/// the compare page.
fn all_charts() -> Vec<Chart> {
    let models = seeds();
    let mut charts: Vec<Chart> = models
        .iter()
        .flat_map(|(m, a)| chart::model_charts(m, a).expect("draws"))
        .collect();
    let entries = bar_entries(&models);
    charts
        .push(chart::best_energy_bars("best-energy.svg", "Best energy", &entries).expect("draws"));
    let h100: Vec<BarEntry> = entries
        .iter()
        .filter(|e| e.gpu == "H100")
        .cloned()
        .collect();
    charts.push(chart::best_energy_bars("best-energy.svg", "H100", &h100).expect("draws"));
    let refs: Vec<Analysed<'_>> = models
        .iter()
        .map(|(file, analysis)| Analysed { file, analysis })
        .collect();
    charts.push(chart::compare_frontiers(Words::of(refs[0].file.measure()), &refs).expect("draws"));
    charts
}

fn classes<'a>(n: &roxmltree::Node<'a, 'a>) -> Vec<&'a str> {
    n.attribute("class")
        .map(|c| c.split_whitespace().collect())
        .unwrap_or_default()
}

fn has_class(n: &roxmltree::Node<'_, '_>, class: &str) -> bool {
    classes(n).contains(&class)
}

/// Elements carrying `class`, in document order.
fn with_class<'a>(doc: &'a roxmltree::Document<'a>, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.is_element() && has_class(n, class))
        .collect()
}

fn num(n: &roxmltree::Node<'_, '_>, attr: &str) -> f64 {
    n.attribute(attr)
        .unwrap_or_else(|| panic!("<{}> has no {attr}", n.tag_name().name()))
        .parse()
        .unwrap()
}

fn points(n: &roxmltree::Node<'_, '_>) -> Vec<(f64, f64)> {
    n.attribute("points")
        .unwrap()
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// The centre of a marker, whatever its shape: every shape is drawn
/// symmetric in its bounding box.
fn centre(n: &roxmltree::Node<'_, '_>) -> (f64, f64) {
    match n.tag_name().name() {
        "circle" => (num(n, "cx"), num(n, "cy")),
        "rect" => (
            num(n, "x") + num(n, "width") / 2.0,
            num(n, "y") + num(n, "height") / 2.0,
        ),
        "polygon" | "polyline" => {
            let pts = points(n);
            let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
            for (x, y) in pts {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
            (f64::midpoint(x0, x1), f64::midpoint(y0, y1))
        }
        other => panic!("unexpected marker <{other}>"),
    }
}

/// The data point markers of series `si`, in drawing order (which is the
/// order of `Series::points`).
fn markers<'a>(doc: &'a roxmltree::Document<'a>, si: usize) -> Vec<roxmltree::Node<'a, 'a>> {
    let (filled, open) = (format!("p{si}"), format!("h{si}"));
    doc.descendants()
        .filter(|n| n.is_element() && (has_class(n, &filled) || has_class(n, &open)))
        .collect()
}

/// Pixel centre of every configuration's marker in a model chart.
fn marker_centres(doc: &roxmltree::Document<'_>, a: &ModelAnalysis, n: usize) -> Vec<(f64, f64)> {
    let mut at = vec![(f64::NAN, f64::NAN); n];
    for (si, s) in a.curves.iter().enumerate() {
        let ms = markers(doc, si);
        assert_eq!(ms.len(), s.points.len(), "series {}", s.label);
        for (&i, node) in s.points.iter().zip(&ms) {
            at[i] = centre(node);
        }
    }
    at
}

#[test]
fn model_pages_get_five_charts_with_stable_names() {
    for (m, a) in seeds() {
        let names: Vec<String> = chart::model_charts(&m, &a)
            .expect("draws")
            .into_iter()
            .map(|c| c.file_name)
            .collect();
        assert_eq!(
            names,
            [
                "energy-vs-concurrency.svg",
                "latency-vs-concurrency.svg",
                "throughput-vs-concurrency.svg",
                "power-vs-concurrency.svg",
                "time-energy-tradeoff.svg",
            ]
        );
    }
}

#[test]
fn every_svg_parses_and_scales_with_title_and_desc_first() {
    for c in all_charts() {
        let doc =
            roxmltree::Document::parse(&c.svg).unwrap_or_else(|e| panic!("{}: {e}", c.file_name));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        let vb: Vec<f64> = root
            .attribute("viewBox")
            .expect("viewBox")
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        assert!(
            vb.len() == 4 && vb[2] > 0.0 && vb[3] > 0.0,
            "{}",
            c.file_name
        );
        assert_eq!(
            root.attribute("width"),
            None,
            "{}: fixed width",
            c.file_name
        );
        assert_eq!(root.attribute("height"), None, "{}", c.file_name);
        let kids: Vec<_> = root
            .children()
            .filter(roxmltree::Node::is_element)
            .collect();
        assert_eq!(kids[0].tag_name().name(), "title");
        assert_eq!(kids[0].text(), Some(c.title.as_str()));
        assert_eq!(kids[1].tag_name().name(), "desc");
        assert_eq!(kids[1].text(), Some(c.description.as_str()));
        assert!(!c.description.is_empty() && !c.table.rows.is_empty());
    }
}

#[test]
fn every_class_drawn_has_a_light_and_a_dark_style() {
    for c in all_charts() {
        let doc = roxmltree::Document::parse(&c.svg).unwrap();
        let style = with_style(&doc);
        let (light, dark) = style
            .split_once("@media (prefers-color-scheme:dark)")
            .expect("a dark-mode block");
        for n in doc.descendants().filter(roxmltree::Node::is_element) {
            for class in classes(&n) {
                // The root, groups that only structure the drawing, and a
                // point's link, which the chart's script selects by
                // (`pt`, its GPU).
                if matches!(class, "ebc" | "key" | "panel" | "pt") || class.starts_with("gpu-") {
                    continue;
                }
                let sel = format!(".{class}");
                let styled = |css: &str| {
                    css.match_indices(&sel).any(|(i, _)| {
                        !css[i + sel.len()..].starts_with(|ch: char| ch.is_ascii_alphanumeric())
                    })
                };
                assert!(styled(light), "{}: .{class} has no style", c.file_name);
                // Leader lines and text colours change in dark mode, and so
                // does every palette colour.
                assert!(styled(dark), "{}: .{class} has no dark style", c.file_name);
            }
        }
    }
}

fn with_style(doc: &roxmltree::Document<'_>) -> String {
    doc.descendants()
        .find(|n| n.has_tag_name("style"))
        .and_then(|n| n.text())
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn svgs_are_lean_and_keep_no_plotters_leftovers() {
    for c in all_charts() {
        // The drawing: a script the chart carries is not drawn.
        let script = c
            .svg
            .split_once("<script>")
            .and_then(|(_, rest)| rest.split_once("</script>"))
            .map_or(0, |(s, _)| s.len());
        let drawn = c.svg.len() - script;
        assert!(drawn < 20_000, "{}: {drawn} bytes", c.file_name);
        for leftover in ["opacity=\"1\"", "#EB", "font-family=\"", "fill=\"#"] {
            assert!(!c.svg.contains(leftover), "{}: {leftover}", c.file_name);
        }
        // Whole-pixel coordinates only.
        let doc = roxmltree::Document::parse(&c.svg).unwrap();
        for n in doc.descendants().filter(roxmltree::Node::is_element) {
            for attr in [
                "x", "y", "cx", "cy", "r", "x1", "y1", "x2", "y2", "width", "height",
            ] {
                if let Some(v) = n.attribute(attr) {
                    assert!(v.parse::<i64>().is_ok(), "{}: {attr}={v}", c.file_name);
                }
            }
        }
    }
}

#[test]
fn each_series_draws_one_marker_per_configuration_and_repeats_open() {
    for (m, a) in seeds() {
        for c in chart::model_charts(&m, &a).expect("draws") {
            let doc = roxmltree::Document::parse(&c.svg).unwrap();
            let mut drawn = 0;
            for (si, s) in a.curves.iter().enumerate() {
                let ms = markers(&doc, si);
                assert_eq!(ms.len(), s.points.len(), "{} {}", c.file_name, s.label);
                let open = with_class(&doc, &format!("h{si}")).len();
                let repeats = s
                    .points
                    .iter()
                    .filter(|&&i| m.configurations[i].repeat > 1)
                    .count();
                assert_eq!(open, repeats, "{} {}", c.file_name, s.label);
                drawn += ms.len();
            }
            assert_eq!(drawn, m.configurations.len());
            assert_eq!(c.table.rows.len(), m.configurations.len());
        }
    }
    // The seed with repeated runs really has some.
    let (m, _) = seed(SEEDS[1]);
    assert!(m.configurations.iter().any(|c| c.repeat > 1));
}

#[test]
fn repeated_runs_are_distinct_points() {
    let (m, a) = seed(SEEDS[1]);
    let energy = &chart::model_charts(&m, &a).expect("draws")[0];
    let doc = roxmltree::Document::parse(&energy.svg).unwrap();
    let at = marker_centres(&doc, &a, m.configurations.len());
    for (i, c) in m
        .configurations
        .iter()
        .enumerate()
        .filter(|(_, c)| c.repeat > 1)
    {
        let first = m
            .configurations
            .iter()
            .position(|o| {
                o.repeat == 1
                    && o.max_num_seqs.unwrap() == c.max_num_seqs.unwrap()
                    && o.gpu == c.gpu
                    && o.num_gpus == c.num_gpus
            })
            .unwrap();
        assert_eq!(at[i].0, at[first].0, "same concurrency, same x");
        assert_ne!(
            at[i].1, at[first].1,
            "{} drawn on top of its first run",
            c.row_id
        );
    }
}

#[test]
fn markers_follow_the_data() {
    for (m, a) in seeds() {
        let charts = chart::model_charts(&m, &a).expect("draws");
        let value: [fn(&energyboard::model::Configuration) -> f64; 4] = [
            |c| c.wh_per_million_output_tokens.unwrap(),
            |c| c.median_itl_ms.unwrap(),
            |c| c.tokens_per_second.unwrap(),
            |c| c.gpu_power_watts_total,
        ];
        for (c, value) in charts.iter().zip(value) {
            let doc = roxmltree::Document::parse(&c.svg).unwrap();
            let at = marker_centres(&doc, &a, m.configurations.len());
            for (i, ci) in m.configurations.iter().enumerate() {
                for (j, cj) in m.configurations.iter().enumerate() {
                    // Same concurrency, same x; more concurrency, further
                    // right; a larger value, higher up (smaller y).
                    assert_eq!(
                        ci.max_num_seqs.unwrap().cmp(&cj.max_num_seqs.unwrap()),
                        at[i].0.total_cmp(&at[j].0),
                        "{} x of {} vs {}",
                        c.file_name,
                        ci.row_id,
                        cj.row_id
                    );
                    if (value(ci) - value(cj)).abs() > 0.02 * value(ci).max(value(cj)) {
                        assert_eq!(
                            value(ci).total_cmp(&value(cj)),
                            at[j].1.total_cmp(&at[i].1),
                            "{} y of {} vs {}",
                            c.file_name,
                            ci.row_id,
                            cj.row_id
                        );
                    }
                }
            }
        }
        // Trade-off: x by median ITL, y by energy.
        let doc = roxmltree::Document::parse(&charts[4].svg).unwrap();
        let at = marker_centres(&doc, &a, m.configurations.len());
        for (i, ci) in m.configurations.iter().enumerate() {
            for (j, cj) in m.configurations.iter().enumerate() {
                if ci.median_itl_ms.unwrap() > 1.05 * cj.median_itl_ms.unwrap() {
                    assert!(at[i].0 > at[j].0, "{} right of {}", ci.row_id, cj.row_id);
                }
                if ci.wh_per_million_output_tokens.unwrap()
                    > 1.05 * cj.wh_per_million_output_tokens.unwrap()
                {
                    assert!(at[i].1 < at[j].1, "{} above {}", ci.row_id, cj.row_id);
                }
            }
        }
    }
}

#[test]
fn best_rings_sit_on_each_gpus_best_point() {
    for (m, a) in seeds() {
        let best: Vec<usize> = a.best_per_gpu.iter().filter_map(|b| b.best).collect();
        assert_eq!(best.len(), 2);
        for c in chart::model_charts(&m, &a).expect("draws") {
            let doc = roxmltree::Document::parse(&c.svg).unwrap();
            let at = marker_centres(&doc, &a, m.configurations.len());
            let rings: Vec<(f64, f64)> = with_class(&doc, "b")
                .iter()
                .filter(|n| n.has_tag_name("circle"))
                .map(centre)
                .collect();
            // The legend shows one ring too.
            assert_eq!(rings.len(), best.len() + 1, "{}", c.file_name);
            for &i in &best {
                assert!(
                    rings.contains(&at[i]),
                    "{}: no ring on {}",
                    c.file_name,
                    m.configurations[i].row_id
                );
            }
            // Each best point is labelled with its GPU.
            let labels: Vec<String> = with_class(&doc, "l")
                .iter()
                .filter_map(|n| n.text().map(str::to_owned))
                .collect();
            for GpuBest { gpu, .. } in &a.best_per_gpu {
                assert!(
                    labels
                        .iter()
                        .any(|l| l.starts_with(&format!("{gpu} best: "))),
                    "{}: {gpu} label missing in {labels:?}",
                    c.file_name
                );
            }
        }
    }
}

#[test]
fn best_labels_carry_the_best_values() {
    let (m, a) = seed(SEEDS[0]);
    let charts = chart::model_charts(&m, &a).expect("draws");
    let labels = |c: &Chart| -> Vec<String> {
        let doc = roxmltree::Document::parse(&c.svg).unwrap();
        with_class(&doc, "l")
            .iter()
            .filter_map(|n| n.text().map(str::to_owned))
            .collect()
    };
    let energy = labels(&charts[0]);
    assert!(
        energy.contains(&"B200 best: 39.05 Wh/M".to_owned()),
        "{energy:?}"
    );
    assert!(
        energy.contains(&"H100 best: 63.47 Wh/M".to_owned()),
        "{energy:?}"
    );
    let latency = labels(&charts[1]);
    assert!(
        latency.contains(&"deadline 500 ms".to_owned()),
        "{latency:?}"
    );
    assert!(
        latency.contains(&"B200 best: 50.2 ms".to_owned()),
        "{latency:?}"
    );
}

#[test]
fn frontier_line_runs_through_the_frontier_points() {
    for (m, a) in seeds() {
        let tradeoff = &chart::model_charts(&m, &a).expect("draws")[4];
        let doc = roxmltree::Document::parse(&tradeoff.svg).unwrap();
        let at = marker_centres(&doc, &a, m.configurations.len());
        let lines: Vec<_> = with_class(&doc, "fr")
            .into_iter()
            .filter(|n| points(n).len() > 2)
            .collect();
        assert_eq!(
            lines.len(),
            1,
            "one frontier line besides the legend sample"
        );
        let expected: Vec<(f64, f64)> = a.frontier.iter().map(|&i| at[i]).collect();
        assert_eq!(points(&lines[0]), expected);
        let on_frontier = tradeoff.table.rows.iter().filter(|r| r[5] == "yes").count();
        assert_eq!(on_frontier, a.frontier.len());
    }
}

#[test]
fn latency_chart_marks_p90_and_p99_above_every_median() {
    for (m, a) in seeds() {
        let latency = &chart::model_charts(&m, &a).expect("draws")[1];
        let doc = roxmltree::Document::parse(&latency.svg).unwrap();
        let at = marker_centres(&doc, &a, m.configurations.len());
        for (si, s) in a.curves.iter().enumerate() {
            let p90 = with_class(&doc, &format!("n{si}"));
            let p99 = with_class(&doc, &format!("q{si}"));
            assert_eq!(p90.len(), s.points.len());
            assert_eq!(p99.len(), s.points.len());
            for ((&i, dot), cap) in s.points.iter().zip(&p90).zip(&p99) {
                let (dot, cap) = (centre(dot), points(cap)[0].1);
                let c = &m.configurations[i];
                // Beside the median marker, at or above it, p99 on top.
                assert!((dot.0 - at[i].0).abs() <= 8.0, "{}", c.row_id);
                assert!(dot.1 <= at[i].1 && cap <= dot.1, "{}", c.row_id);
            }
        }
        assert_eq!(
            latency.table.headers[3..6],
            ["Median ITL (ms)", "p90 ITL (ms)", "p99 ITL (ms)"]
        );
        // The deadline is drawn as a line across the plot.
        assert_eq!(with_class(&doc, "dl").len(), 1);
    }
}

/// Estimated box of a text element (DejaVu Sans is about 0.6 em a
/// character), for overlap checks.
fn text_box(n: &roxmltree::Node<'_, '_>) -> (f64, f64, f64, f64) {
    let size = num(n, "font-size");
    let w = n.text().unwrap_or_default().chars().count() as f64 * 0.6 * size;
    let (x, y) = (num(n, "x"), num(n, "y"));
    let x0 = match n.attribute("text-anchor") {
        Some("end") => x - w,
        Some("middle") => x - w / 2.0,
        _ => x,
    };
    // plotters anchors text at its top, centre or bottom through `dy`.
    let (top, bottom) = match n.attribute("dy") {
        Some("0.76em") => (0.0, 1.0),
        Some("-0.5ex") => (-1.05, 0.0),
        _ => (-0.6, 0.5),
    };
    (x0, y + top * size, x0 + w, y + bottom * size)
}

#[test]
fn labels_do_not_overlap_and_stay_inside() {
    for c in all_charts() {
        let doc = roxmltree::Document::parse(&c.svg).unwrap();
        let vb: Vec<f64> = doc
            .root_element()
            .attribute("viewBox")
            .unwrap()
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        let texts: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text") && n.attribute("transform").is_none())
            .collect();
        let boxes: Vec<_> = texts.iter().map(text_box).collect();
        for (i, a) in boxes.iter().enumerate() {
            let what = texts[i].text().unwrap_or_default();
            assert!(
                a.0 >= 0.0 && a.2 <= vb[2] && a.1 >= 0.0 && a.3 <= vb[3],
                "{}: {what:?} leaves the chart",
                c.file_name
            );
            for (j, b) in boxes.iter().enumerate().skip(i + 1) {
                let overlap = a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
                assert!(
                    !overlap,
                    "{}: {what:?} overlaps {:?}",
                    c.file_name,
                    texts[j].text()
                );
            }
        }
    }
}

#[test]
fn bars_are_sorted_lowest_first_one_per_entry_coloured_by_gpu() {
    let entries = bar_entries(&seeds());
    let c = chart::best_energy_bars("best-energy.svg", "Best energy", &entries).expect("draws");
    let doc = roxmltree::Document::parse(&c.svg).unwrap();
    let bars: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && classes(n).iter().any(|k| k.starts_with('c')))
        .collect();
    assert_eq!(bars.len(), entries.len());
    let ys: Vec<f64> = bars.iter().map(|b| num(b, "y")).collect();
    let widths: Vec<f64> = bars.iter().map(|b| num(b, "width")).collect();
    assert!(ys.windows(2).all(|w| w[0] < w[1]), "top to bottom");
    assert!(
        widths.windows(2).all(|w| w[0] < w[1]),
        "lowest first: {widths:?}"
    );
    let values: Vec<&str> = c.table.rows.iter().map(|r| r[3].as_str()).collect();
    assert_eq!(values, ["15.67", "24.69", "39.05", "63.47"]);
    // Width proportional to the value (bars start at zero).
    let ratio = widths[3] / widths[0];
    assert!((ratio - 63.47 / 15.67).abs() < 0.1, "{ratio}");
    // Same GPU, same colour class; different GPUs, different ones.
    let gpu_of = |r: &Vec<String>| r[2].clone();
    for (i, a) in bars.iter().enumerate() {
        for (j, b) in bars.iter().enumerate() {
            let same_gpu = gpu_of(&c.table.rows[i]) == gpu_of(&c.table.rows[j]);
            assert_eq!(same_gpu, a.attribute("class") == b.attribute("class"));
        }
    }
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(texts.contains(&"Qwen 3 30B A3B Instruct · B200"));
    assert!(texts.contains(&"15.67"));
}

#[test]
fn long_bar_charts_draw_the_lowest_bars_and_say_so() {
    let entries = bar_entries(&synthetic(150));
    assert_eq!(entries.len(), 300);
    let c = chart::best_energy_bars("best-energy.svg", "Best energy", &entries).expect("draws");
    let doc = roxmltree::Document::parse(&c.svg).unwrap();
    let bars = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && classes(n).iter().any(|k| k.starts_with('c')))
        .count();
    assert_eq!(bars, chart::MAX_BARS);
    // The lowest values of all, lowest first, ranked from 1.
    let mut all: Vec<f64> = entries.iter().map(|e| e.wh_per_million).collect();
    all.sort_by(f64::total_cmp);
    let lowest: Vec<String> = all[..chart::MAX_BARS]
        .iter()
        .map(|v| energyboard::fmt::wh_per_million(*v))
        .collect();
    let shown: Vec<String> = c.table.rows.iter().map(|r| r[3].clone()).collect();
    assert_eq!(shown, lowest);
    let ranks: Vec<String> = c.table.rows.iter().map(|r| r[0].clone()).collect();
    assert_eq!(ranks.first().map(String::as_str), Some("1"));
    assert_eq!(ranks.last().map(String::as_str), Some("40"));
    // A reader of the picture and of its text alternative is told.
    assert_eq!(c.title, "Best energy (lowest 40 of 300)");
    assert!(
        c.description
            .contains("the 40 lowest of 300 model and GPU pairs"),
        "{}",
        c.description
    );
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
    assert_eq!(title.text(), Some(c.title.as_str()));
    let visible: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert!(
        visible.join(" ").contains("Best energy (lowest 40 of 300)"),
        "the visible title says so too: {visible:?}"
    );
    assert!(c.svg.len() < 20_000, "{} bytes", c.svg.len());
}

#[test]
fn the_compare_chart_draws_the_lowest_energy_frontiers_in_the_order_given() {
    let models = synthetic(30);
    let refs: Vec<Analysed<'_>> = models
        .iter()
        .map(|(file, analysis)| Analysed { file, analysis })
        .collect();
    let c = chart::compare_frontiers(Words::of(refs[0].file.measure()), &refs).expect("draws");
    let best = |(m, a): &(ModelFile, ModelAnalysis)| {
        a.best_per_gpu
            .iter()
            .filter_map(|b| {
                b.best
                    .map(|i| m.configurations[i].wh_per_million_output_tokens.unwrap())
            })
            .fold(f64::INFINITY, f64::min)
    };
    let mut chosen: Vec<usize> = (0..models.len()).collect();
    chosen.sort_by(|&i, &j| best(&models[i]).total_cmp(&best(&models[j])));
    chosen.truncate(chart::MAX_FRONTIERS);
    chosen.sort_unstable();
    // The table lists the chosen models' frontiers, in the order given.
    let mut tabled: Vec<&str> = c.table.rows.iter().map(|r| r[0].as_str()).collect();
    tabled.dedup();
    let expected: Vec<&str> = chosen.iter().map(|&i| models[i].0.name.as_str()).collect();
    assert_eq!(tabled, expected);
    let doc = roxmltree::Document::parse(&c.svg).unwrap();
    for (si, &mi) in chosen.iter().enumerate() {
        let ms = with_class(&doc, &format!("p{si}"));
        assert_eq!(
            ms.len(),
            models[mi].1.frontier.len(),
            "{}",
            models[mi].0.name
        );
    }
    // Every series looks different: no palette slot is used twice.
    assert!(with_class(&doc, &format!("p{}", chart::MAX_FRONTIERS)).is_empty());
    assert_eq!(
        c.title,
        "Time–energy Pareto frontiers, 7 lowest-energy models of 30"
    );
    assert!(
        c.description
            .contains("the 7 models, of 30, with the lowest energy within their deadline"),
        "{}",
        c.description
    );
}

#[test]
fn empty_bar_chart_still_draws() {
    let c = chart::best_energy_bars("best-energy.svg", "Nothing", &[]).expect("draws");
    roxmltree::Document::parse(&c.svg).unwrap();
    assert!(c.table.rows.is_empty());
}

#[test]
fn compare_page_draws_each_models_frontier() {
    let models = seeds();
    let refs: Vec<Analysed<'_>> = models
        .iter()
        .map(|(file, analysis)| Analysed { file, analysis })
        .collect();
    let c = chart::compare_frontiers(Words::of(refs[0].file.measure()), &refs).expect("draws");
    assert_eq!(c.file_name, "frontiers.svg");
    let doc = roxmltree::Document::parse(&c.svg).unwrap();
    for (mi, (m, a)) in models.iter().enumerate() {
        let ms = with_class(&doc, &format!("p{mi}"));
        assert_eq!(ms.len(), a.frontier.len(), "{}", m.name);
        let lines: Vec<_> = with_class(&doc, &format!("s{mi}"))
            .into_iter()
            .filter(|n| points(n).len() > 2)
            .collect();
        assert_eq!(lines.len(), 1);
        let centres: Vec<(f64, f64)> = ms.iter().map(centre).collect();
        assert_eq!(points(&lines[0]), centres);
    }
    let total: usize = models.iter().map(|(_, a)| a.frontier.len()).sum();
    assert_eq!(c.table.rows.len(), total);
}

#[test]
fn charts_are_byte_identical_on_every_call() {
    let first: Vec<String> = all_charts().into_iter().map(|c| c.svg).collect();
    let second: Vec<String> = all_charts().into_iter().map(|c| c.svg).collect();
    assert_eq!(first, second);
}

#[test]
fn markup_in_names_is_escaped() {
    let evil = "<script>alert(1)</script>";
    let (mut m, _) = seed(SEEDS[0]);
    m.name = evil.to_owned();
    let a = analyse(&m);
    let mut charts = chart::model_charts(&m, &a).expect("draws");
    charts.push(
        chart::best_energy_bars(
            "best-energy.svg",
            evil,
            &[BarEntry {
                model: evil.to_owned(),
                gpu: "\"&'>".to_owned(),
                wh_per_million: 1.0,
                whose: None,
            }],
        )
        .expect("draws"),
    );
    charts.push(
        chart::compare_frontiers(
            Words::of(m.measure()),
            &[Analysed {
                file: &m,
                analysis: &a,
            }],
        )
        .expect("draws"),
    );
    for c in charts {
        assert!(!c.svg.contains(evil), "{}", c.file_name);
        let doc = roxmltree::Document::parse(&c.svg).unwrap();
        // No script but the chart's own (the time–energy chart's box of
        // figures), which says nothing of the names.
        let scripts = doc.descendants().filter(|n| n.has_tag_name("script"));
        let own = include_str!("../../templates/scatter.js");
        assert!(
            scripts.clone().all(|n| n.text() == Some(own)),
            "{}",
            c.file_name
        );
        assert!(scripts.count() <= 1, "{}", c.file_name);
        if c.file_name != "frontiers.svg" {
            let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
            assert!(title.text().unwrap().contains(evil), "{}", c.file_name);
        }
        assert!(
            doc.descendants()
                .any(|n| n.has_tag_name("text") && n.text().is_some_and(|t| t.contains(evil))),
            "{}: the name is shown as text",
            c.file_name
        );
    }
}

#[test]
fn tables_carry_units_and_formatted_values() {
    let (m, a) = seed(SEEDS[0]);
    let charts = chart::model_charts(&m, &a).expect("draws");
    let energy = &charts[0].table;
    assert!(
        energy
            .headers
            .iter()
            .any(|h| h == "Energy (Wh per million output tokens)")
    );
    let b200_384 = energy
        .rows
        .iter()
        .find(|r| r[0] == "B200 ×1" && r[1] == "384")
        .unwrap();
    assert_eq!(b200_384[3], "39.05");
    assert!(b200_384[4].contains("best on B200"));
    assert!(
        charts[2]
            .table
            .headers
            .iter()
            .any(|h| h.contains("tokens/s"))
    );
    assert!(charts[3].table.headers.iter().any(|h| h.contains("(W")));
    for c in &charts {
        for row in &c.table.rows {
            assert_eq!(row.len(), c.table.headers.len(), "{}", c.file_name);
        }
    }
}

#[test]
fn descriptions_name_the_scales_actually_drawn() {
    // Energies within a factor of ten: the trade-off chart draws a linear
    // energy axis (and a log latency axis), and must say so.
    let (mut m, _) = seed(SEEDS[0]);
    m.configurations
        .retain(|c| c.wh_per_million_output_tokens.unwrap() < 100.0);
    let lo = m
        .configurations
        .iter()
        .map(|c| c.wh_per_million_output_tokens.unwrap())
        .fold(f64::INFINITY, f64::min);
    m.configurations
        .retain(|c| c.wh_per_million_output_tokens.unwrap() < lo * 5.0);
    m.best.clear();
    let a = analyse(&m);
    let narrow = chart::model_charts(&m, &a).expect("draws");
    let tradeoff = narrow
        .iter()
        .find(|c| c.file_name == "time-energy-tradeoff.svg")
        .unwrap();
    assert!(
        tradeoff
            .description
            .contains("(log x scale, linear y scale)"),
        "{}",
        tradeoff.description
    );
    let refs = [Analysed {
        file: &m,
        analysis: &a,
    }];
    let compare =
        chart::compare_frontiers(Words::of(refs[0].file.measure()), &refs).expect("draws");
    assert!(
        !compare.description.contains("log scales"),
        "{}",
        compare.description
    );
    // Where both axes are logarithmic, "log scales" stays.
    let (m, a) = seed(SEEDS[0]);
    let wide = chart::model_charts(&m, &a).expect("draws");
    let tradeoff = wide
        .iter()
        .find(|c| c.file_name == "time-energy-tradeoff.svg")
        .unwrap();
    assert!(tradeoff.description.contains("(log scales)"));
    let doc = roxmltree::Document::parse(&narrow[4].svg).unwrap();
    let desc = doc
        .descendants()
        .find(|n| n.has_tag_name("desc"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(!desc.contains("log scales"), "{desc}");
}

/// A diffusion fixture, parsed and analysed.
fn diffusion(
    path: &str,
) -> (
    energyboard::model::ModelFile,
    energyboard::analyse::ModelAnalysis,
) {
    let text = std::fs::read_to_string(format!("tests/fixtures/diffusion/{path}")).unwrap();
    let m: energyboard::model::ModelFile = serde_json::from_str(&text).unwrap();
    let a = energyboard::analyse::analyse(&m);
    (m, a)
}

#[test]
fn diffusion_models_get_five_charts_against_batch_size_in_their_own_units() {
    for (path, unit, best) in [
        (
            "text-to-image/flux-1-dev.json",
            "J per image",
            // Both fixtures have more than eight series, so their charts
            // have a panel per GPU, each naming its GPU once.
            "best: 6,679 J/image",
        ),
        (
            "text-to-video/wan-2-1-14b.json",
            "J per video",
            "best: 342,623 J/video",
        ),
    ] {
        let (m, a) = diffusion(path);
        let charts = chart::model_charts(&m, &a).expect("draws");
        let names: Vec<&str> = charts.iter().map(|c| c.file_name.as_str()).collect();
        assert_eq!(
            names,
            [
                "energy-vs-batch-size.svg",
                "latency-vs-batch-size.svg",
                "throughput-vs-batch-size.svg",
                "power-vs-batch-size.svg",
                "time-energy-tradeoff.svg",
            ]
        );
        for c in &charts {
            let doc = roxmltree::Document::parse(&c.svg)
                .unwrap_or_else(|e| panic!("{path} {}: {e}", c.file_name));
            let texts: String = doc
                .descendants()
                .filter_map(|n| n.text())
                .collect::<Vec<_>>()
                .join(" ");
            // Per token never appears on a diffusion chart.
            assert!(
                !texts.contains("token") && !texts.contains("ITL"),
                "{path} {}",
                c.file_name
            );
            assert!(!c.description.contains("Wh/M"), "{}", c.description);
        }
        let energy = &charts[0];
        assert!(energy.svg.contains(&format!("Energy ({unit})")), "{path}");
        assert!(energy.svg.contains("Batch size"), "{path}");
        assert!(energy.svg.contains(best), "{path}: no {best:?}");
        let latency = &charts[1];
        assert!(latency.svg.contains("Batch latency (s)"));
        assert!(
            latency
                .svg
                .contains(&format!("deadline {} s", m.deadline()))
        );
        let tradeoff = &charts[4];
        assert!(tradeoff.svg.contains("Batch latency (s)"));
        assert!(tradeoff.svg.contains(&format!("Energy ({unit})")));
        // Drawing is deterministic.
        assert_eq!(chart::model_charts(&m, &a).expect("draws"), charts);
    }
}

#[test]
fn diffusion_frontiers_compare_on_batch_latency_and_energy_per_item() {
    let models: Vec<_> = ["text-to-image/flux-1-dev.json", "text-to-image/pixart.json"]
        .into_iter()
        .map(diffusion)
        .collect();
    let refs: Vec<_> = models
        .iter()
        .map(|(file, analysis)| Analysed { file, analysis })
        .collect();
    let c = chart::compare_frontiers(Words::of(refs[0].file.measure()), &refs).expect("draws");
    assert!(c.svg.contains("Batch latency (s)") && c.svg.contains("Energy (J per image)"));
    assert!(
        c.description.contains("batch latency and energy per image"),
        "{}",
        c.description
    );
    assert!(c.svg.contains("deadline 30 s"));
}

/// 110 bins of 1–4 responses beside bins of thousands were drawn 0 px
/// high: every non-empty bin is at least a pixel high, every empty one absent.
#[test]
fn every_non_empty_histogram_bin_is_visible() {
    let counts = vec![9000, 1, 0, 4, 2500, 0, 1];
    let r = energyboard::analyse::response::ResponseEnergy {
        edges_j: (0..=counts.len()).map(|i| i as f64 * 10.0).collect(),
        total: counts.iter().sum(),
        counts: counts.clone(),
        median_j: 5.0,
        p90_j: 45.0,
    };
    let c = chart::response_histogram(chart::ResponseHistogram {
        file_name: "energy-per-response-b200.svg",
        model: "M",
        gpu: "B200",
        setup: "B200 ×1 at 64",
        best: true,
        joules_per_token: 0.5,
        response: &r,
        unit: chart::ResponseUnit::Joules,
        x_max_j: 0.0,
        log_from_j: None,
    })
    .expect("draws");
    let doc = roxmltree::Document::parse(&c.svg).unwrap();
    let heights: Vec<f64> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && classes(n).iter().any(|c| c.starts_with('c')))
        .map(|n| num(&n, "height"))
        .collect();
    assert_eq!(heights.len(), 5, "{heights:?}");
    assert!(heights.iter().all(|h| *h >= 1.0), "{heights:?}");
}

/// The histograms of one model's GPUs share their x-scale: a histogram
/// asked to reach a larger top (another GPU's) ends its axis there.
#[test]
fn histograms_of_one_model_share_the_x_scale() {
    let r = energyboard::analyse::response::ResponseEnergy {
        edges_j: vec![0.0, 10.0, 20.0, 30.0],
        counts: vec![5, 10, 2],
        total: 17,
        median_j: 12.0,
        p90_j: 25.0,
    };
    let draw = |top: f64| {
        chart::response_histogram(chart::ResponseHistogram {
            file_name: "energy-per-response-h100.svg",
            model: "M",
            gpu: "H100",
            setup: "H100 ×1 at 64",
            best: true,
            joules_per_token: 0.5,
            response: &r,
            unit: chart::ResponseUnit::Joules,
            x_max_j: top,
            log_from_j: None,
        })
        .expect("draws")
        .svg
    };
    let last_tick = |svg: &str| -> f64 {
        let doc = roxmltree::Document::parse(svg).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name("text") && n.attribute("dy") == Some("0.76em"))
            .filter_map(|n| n.text()?.replace(',', "").parse().ok())
            .fold(0.0, f64::max)
    };
    assert!(last_tick(&draw(0.0)) < 50.0);
    assert!(last_tick(&draw(95.0)) >= 95.0);
}

/// The time–energy chart at p90, p95 and p99 ITL: its own file each, the
/// configurations at that percentile in its table, the frontier on it, and
/// none for a diffusion model (whose latency has no percentiles).
#[test]
fn time_energy_chart_is_drawn_at_each_itl_percentile() {
    for (m, a) in seeds() {
        let charts = chart::percentile_charts(&m, &a).expect("draws");
        let names: Vec<&str> = charts.iter().map(|c| c.file_name.as_str()).collect();
        assert_eq!(
            names,
            [
                "time-energy-tradeoff-p90.svg",
                "time-energy-tradeoff-p95.svg",
                "time-energy-tradeoff-p99.svg"
            ]
        );
        let p99 = &charts[2];
        assert!(p99.svg.contains("p99 inter-token latency (ms)"));
        assert_eq!(p99.table.headers[3], "p99 ITL (ms)");
        let frontier =
            energyboard::analyse::pareto_frontier_by(&m.configurations, |c| c.p99_itl_ms.unwrap());
        let on: usize = p99.table.rows.iter().filter(|r| r[5] == "yes").count();
        assert_eq!(on, frontier.len());
        let mut want: Vec<String> = m
            .configurations
            .iter()
            .map(|c| energyboard::fmt::ms(c.p99_itl_ms.unwrap()))
            .collect();
        let mut got: Vec<String> = p99.table.rows.iter().map(|r| r[3].clone()).collect();
        want.sort();
        got.sort();
        assert_eq!(got, want);
        // The deadline is on the median: no deadline line at p99.
        assert!(!p99.svg.contains("class=\"dl\""));
    }
    let (m, a) = diffusion("text-to-image/flux-1-dev.json");
    assert!(chart::percentile_charts(&m, &a).expect("draws").is_empty());
}
