//! Site-wide charts: bars (leaderboard, GPU and overview pages), every
//! model's Pareto frontier (compare page), every configuration (scatter).

use plotters::element::Rectangle;
use plotters::prelude::IntoDrawingArea;
use plotters::style::Color;

use super::axis::{Axis, min_max, tick_label};
use super::draw::{self, Draw, Frame, Header, Key, PAD, TEXT_PX, WIDTH};
use super::layout::{text_width, wrap};
use super::style::{Role, gpu_slot};
use super::{BarEntry, Chart, DataTable, svg};
use crate::analyse::{
    Analysed, BarRank, ModelAnalysis, ModelConfiguration, cheapest_on_frontiers, lowest_bars,
    lowest_energy_first,
};
use crate::columns::Words;
use crate::fmt;
use crate::model::{Configuration, Measure, ModelFile, url_segment};

const LINE_H: i32 = 17;
const BAR_H: i32 = 14;

/// Most bars drawn: past this many rows a bar chart stops being read, so it
/// shows the lowest ones and says so in its title and description.
pub const MAX_BARS: usize = 40;
/// Most frontiers drawn: the palette has seven colours and seven marker
/// shapes, and an eighth series would look exactly like the first.
pub const MAX_FRONTIERS: usize = super::style::PALETTE_SIZE;

/// `title`, saying so when only `shown` of `total` bars or series are
/// drawn: "(lowest 40 of 1,200)".
fn capped_title(title: &str, which: &str, shown: usize, total: usize) -> String {
    if shown < total {
        format!(
            "{title} ({which} {shown} of {})",
            fmt::grouped(total as f64)
        )
    } else {
        title.to_owned()
    }
}

/// Sorted horizontal bars of best energy, lowest first, coloured and marked
/// by GPU, for the leaderboard (`best-energy.svg`) and GPU pages. Past
/// [`MAX_BARS`] entries only the lowest are drawn (and tabled), and the
/// title and description say so.
pub fn best_energy_bars(
    file_name: &str,
    title: &str,
    entries: &[BarEntry],
) -> Result<Chart, draw::DrawError> {
    let sorted = lowest_bars(entries.iter().collect(), MAX_BARS, |e: &BarEntry| BarRank {
        wh_per_million: e.wh_per_million,
        model: &e.model,
        gpu: &e.gpu,
    });
    let title = capped_title(title, "lowest", sorted.len(), entries.len());
    // The bars are per-token workloads' best: "Energy (Wh per million output tokens)".
    let words = Words::of(Measure::Tokens);
    let (energy_axis, wh_m) = (words.energy_axis(), words.energy_short);
    let mut gpus: Vec<LegendSeries> = sorted
        .iter()
        .map(|e| LegendSeries {
            slot: gpu_slot(&e.gpu),
            name: &e.gpu,
        })
        .collect();
    gpus.sort_unstable();
    gpus.dedup();
    let bars: Vec<GroupedBar> = sorted
        .iter()
        .map(|e| GroupedBar {
            label: format!("{} · {}", e.model, e.gpu),
            series: e.gpu.clone(),
            slot: gpu_slot(&e.gpu),
            value: e.wh_per_million,
            whose: e.whose.clone(),
        })
        .collect();
    // Room right of the longest bar for its value.
    let x = bar_axis(&bars, BarScale::Linear, 1.12, fmt::wh_per_million);
    let DrawnBars { doc, sources_note } = draw_bars(BarsDrawing {
        title: &title,
        series: &gpus,
        axis: &energy_axis,
        bars: &bars,
        x,
        empty: "No configuration to show",
        value_text: fmt::wh_per_million,
    })?;
    let description = best_bars_description(&sorted, entries.len(), wh_m, &sources_note);
    let rows = sorted.iter().enumerate().map(|(i, e)| {
        let energy = fmt::wh_per_million(e.wh_per_million);
        (
            vec![(i + 1).to_string(), e.model.clone(), e.gpu.clone(), energy],
            e.whose.as_ref(),
        )
    });
    let table = bar_table(&["Rank", "Model", "GPU", &energy_axis], rows);
    Ok(Chart::new(
        file_name.to_owned(),
        title,
        description,
        &doc,
        table,
        None,
    ))
}

/// The description of [`best_energy_bars`]: what the `sorted` bars (the
/// lowest of `total` pairs) show, from the lowest to the highest.
fn best_bars_description(
    sorted: &[&BarEntry],
    total: usize,
    wh_m: &str,
    sources_note: &str,
) -> String {
    let capped = total > sorted.len();
    let (n, total) = (sorted.len(), fmt::grouped(total as f64));
    match (sorted.first(), sorted.last()) {
        (Some(lo), Some(hi)) => {
            let what = if capped {
                format!(
                    " for the {n} lowest of {total} model and GPU pairs, sorted lowest first and \
                        coloured by GPU; the others are left out so that the chart stays \
                        readable."
                )
            } else {
                format!(", {n} bars sorted lowest first, coloured by GPU.")
            };
            format!(
                "Lowest energy per million output tokens within each model's latency \
                    deadline{what} From {} on {} at {} {wh_m} to {} on {} at {} \
                    {wh_m}.{sources_note}",
                lo.model,
                lo.gpu,
                fmt::wh_per_million(lo.wh_per_million),
                hi.model,
                hi.gpu,
                fmt::wh_per_million(hi.wh_per_million)
            )
        }
        _ => "No configuration to show.".to_owned(),
    }
}

/// A bar chart's data table: `rows` under `headers`, with a "Source"
/// column third when a row has a source.
fn bar_table<'w>(
    headers: &[&str],
    rows: impl Iterator<Item = (Vec<String>, Option<&'w super::Whose>)>,
) -> DataTable {
    let (mut rows, whose): (Vec<Vec<String>>, Vec<_>) = rows.unzip();
    let mut headers: Vec<String> = headers.iter().map(|&h| h.to_owned()).collect();
    if whose.iter().any(Option::is_some) {
        headers.insert(2, "Source".to_owned());
        for (row, w) in rows.iter_mut().zip(whose) {
            row.insert(2, w.map_or_else(String::new, |w| w.name.clone()));
        }
    }
    DataTable { headers, rows }
}

/// The compare page's chart of one page of models: see [`compare_picker`].
#[derive(Debug, Clone)]
pub struct ComparePicker {
    /// The SVG for phones, 400 wide, to place inline: one
    /// `<g class="fm mK">` per model, `K` its index among the workload's
    /// models, holding its frontier line and every configuration as a link
    /// (`a.pt`) with a tooltip.
    pub narrow: String,
    /// The same, [`draw::WIDE`] wide, for wide screens.
    pub wide: String,
    /// Title (also each SVG's `<title>`).
    pub title: String,
    /// What it shows (also each SVG's `<desc>`).
    pub description: String,
    /// Per model, in the order given: a legend swatch (line and marker in
    /// its colour), an inline SVG coloured by the chart's style.
    pub swatches: Vec<String>,
}

/// One model drawn on the compare page's chart.
#[derive(Debug, Clone)]
pub struct CompareModel<'a> {
    /// Its index among the workload's models: its group's class `mK`.
    pub index: usize,
    pub file: &'a ModelFile,
    pub analysis: &'a ModelAnalysis,
    /// Its place among the workload's models, lowest energy first: its
    /// look when it was analysed alone.
    pub rank: usize,
    /// Whose measurements it holds, on a workload of several sources.
    pub whose: Option<super::Whose>,
}

/// An overlay's size: its plot's height, and whether it is drawn wide
/// ([`draw::WIDE`], the legend beside the plot).
#[derive(Debug, Clone, Copy)]
struct Size {
    body: i32,
    wide: bool,
}

/// One model drawn as a series: its index in the chart's models and its look.
#[derive(Debug, Clone, Copy)]
struct Series {
    model: usize,
    look: usize,
}

/// The look of a model on a chart: its site-wide one
/// ([`crate::analyse::model_looks`]), or its `place` on the chart when it
/// was analysed alone.
fn look_of(a: &ModelAnalysis, place: usize) -> usize {
    a.look.unwrap_or(place)
}

/// The frame, `body` pixels high, of overlaid configurations of `models`
/// (their frontiers only, with `frontier`): latency (log) over every point
/// and every deadline, energy over every point (log for every
/// configuration, [`Axis::auto`] for frontiers), 10 to 100 on both when
/// there is no point; under `title` and a legend of `series` (indices into
/// `models`, by style; with a line sample for frontiers) and of the
/// sources of `whose`. With the distinct deadlines, ascending, and the
/// description's note on the sources ([`source_keys`]).
fn overlay_frame(
    words: &Words,
    title: &str,
    models: &[Analysed<'_>],
    whose: &[Option<super::Whose>],
    series: impl Iterator<Item = Series>,
    frontier: bool,
    size: Size,
) -> (Frame, Vec<f64>, String) {
    let Size { body, wide } = size;
    let (source_keys, sources_note) =
        source_keys(whose.iter().map(Option::as_ref), false, "models");
    let keys = series
        .map(|Series { model: mi, look }| Key::Series {
            idx: look,
            label: models[mi].file.name.clone(),
            line: frontier,
            open: super::Whose::open(whose[mi].as_ref()),
        })
        .chain(source_keys)
        .collect();
    let scale = CompareScale::of(models, frontier);
    let header = if wide {
        Header::beside(title, keys, draw::WIDE)
    } else {
        Header::new(title, keys)
    };
    let frame = scale.frame(words, header, frontier, body);
    (frame, scale.deadlines, sources_note)
}

/// The span of an overlay's axes: latency over every point drawn and every
/// deadline, energy over every point drawn (10 to 100 on both when there is
/// no point), and the models' distinct deadlines, ascending. The compare
/// page computes it once over every model of a workload
/// ([`compare_scale`]), so that each page of its models, and a model
/// brought from another page, share one frame.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareScale {
    latency: (f64, f64),
    energy: (f64, f64),
    deadlines: Vec<f64>,
    /// How many models it spans.
    models: usize,
}

/// The span of a compare chart of every configuration of `all`.
pub fn compare_scale(all: &[Analysed<'_>]) -> CompareScale {
    CompareScale::of(all, false)
}

impl CompareScale {
    /// The span of `models`' configurations (their frontiers only, with
    /// `frontier`).
    fn of(models: &[Analysed<'_>], frontier: bool) -> Self {
        let points = || {
            models.iter().flat_map(|&Analysed { file, analysis }| {
                let drawn = move |i: &usize| !frontier || analysis.frontier.contains(i);
                file.configurations
                    .iter()
                    .enumerate()
                    .filter(move |(i, _)| drawn(i))
                    .map(|(_, c)| c)
            })
        };
        let mut deadlines: Vec<f64> = models.iter().map(|m| m.file.deadline()).collect();
        deadlines.sort_by(f64::total_cmp);
        deadlines.dedup();
        let (mut ilo, mut ihi) = min_max(points().map(Configuration::latency));
        let (mut elo, mut ehi) = min_max(points().map(Configuration::energy));
        if !ilo.is_finite() {
            (ilo, ihi, elo, ehi) = (10.0, 100.0, 10.0, 100.0);
        }
        ihi = deadlines.iter().copied().fold(ihi, f64::max);
        CompareScale {
            latency: (ilo, ihi),
            energy: (elo, ehi),
            deadlines,
            models: models.len(),
        }
    }

    /// The frame over this span under `header`, `body` pixels high:
    /// latency (log) across, energy up (log, or [`Axis::auto`] for
    /// frontiers).
    fn frame(&self, words: &Words, header: Header, frontier: bool, body: i32) -> Frame {
        let ((ilo, ihi), (elo, ehi)) = (self.latency, self.energy);
        let y = if frontier {
            Axis::auto(elo, ehi)
        } else {
            Axis::log(elo, ehi)
        };
        let (x_desc, y_desc) = (words.latency_axis(), words.energy_axis());
        Frame::new(header, Axis::log(ilo, ihi), y, x_desc, y_desc, body)
    }
}

/// Draws the frontier of `m` as a line through markers, in the style of
/// series `idx`, the markers hollow unless `filled`.
fn draw_frontier(
    p: &draw::Plot<'_, '_>,
    m: &ModelFile,
    a: &ModelAnalysis,
    idx: usize,
    filled: bool,
) -> Draw {
    let at = |&i: &usize| p.px(m.configurations[i].latency(), m.configurations[i].energy());
    let pts: Vec<(i32, i32)> = a.frontier.iter().map(at).collect();
    draw::line(p.root, &pts, Role::Line(idx), 2)?;
    pts.iter()
        .try_for_each(|&at| draw::marker(p.root, at, idx, Role::Point(idx), filled, false))
}

/// Every configuration of `models` (one page of a workload's) on one
/// chart, one group per model, each model's Pareto frontier joined by a
/// line and drawn solid, its other configurations faded: for the compare
/// page to show any set of them. The axes span `scale` (every model of the
/// workload: see [`compare_scale`]), so they stay put whatever is shown and
/// a model from another page fits the same frame. Each point links to
/// `href(model, configuration)` and names its figures in a tooltip. Each
/// model has its site-wide look ([`crate::analyse::model_looks`]).
pub fn compare_picker(
    words: &Words,
    scale: &CompareScale,
    models: &[CompareModel<'_>],
    href: &dyn Fn(&ModelFile, &Configuration) -> String,
) -> Result<ComparePicker, draw::DrawError> {
    let title = "Every configuration of the chosen models, frontiers solid";
    // Each point's link and tooltip, made once for both drawings.
    let links: Vec<Vec<String>> = models
        .iter()
        .map(|model| point_links(words, model, href))
        .collect();
    let drawing = |size: Size| draw_compare(words, scale, models, &links, size, title);
    let (narrow, frame) = drawing(Size {
        body: 360,
        wide: false,
    })?;
    let (wide, _) = drawing(Size {
        body: 460,
        wide: true,
    })?;
    let (_, sources_note) = source_keys(models.iter().map(|c| c.whose.as_ref()), false, "models");
    let description = format!(
        "Every configuration of the chosen models, of {}: {} against {} ({}). Each model's \
            Pareto frontier (the configurations that no other configuration of the same model \
            beats on both) is joined by a line and drawn solid, its other configurations faded. \
            Each model has its own colour and marker, shown beside its name in the list of \
            models; hovering or tapping a point shows its figures, and the table below the \
            chart lists every point drawn.{sources_note}",
        fmt::grouped(scale.models as f64),
        words.latency,
        words.energy_per.to_owned(),
        super::axis::scales_note(&frame.x, &frame.y),
    );
    let swatch = |c: &CompareModel<'_>| -> Result<String, draw::DrawError> {
        let look = look_of(c.analysis, c.rank);
        let filled = !super::Whose::open(c.whose.as_ref());
        let mut key = svg::Doc::new((26, 12), 512);
        let root = svg::Canvas::new(&mut key).into_drawing_area();
        draw::line(&root, &[(1, 6), (25, 6)], Role::Line(look), 2)?;
        draw::marker(&root, (13, 6), look, Role::Point(look), filled, false)?;
        drop(root);
        Ok(svg::bare(&key))
    };
    let finish = |doc: &svg::Doc| svg::finish(doc, title, &description, Some(""));
    Ok(ComparePicker {
        narrow: finish(&narrow),
        wide: finish(&wide),
        title: title.to_owned(),
        description: description.clone(),
        swatches: models.iter().map(swatch).collect::<Result<_, _>>()?,
    })
}

/// One drawing of [`compare_picker`], `size` big, and its frame.
fn draw_compare(
    words: &Words,
    scale: &CompareScale,
    models: &[CompareModel<'_>],
    links: &[Vec<String>],
    size: Size,
    title: &str,
) -> Result<(svg::Doc, Frame), draw::DrawError> {
    // The legend of the models is the page's; the chart's says how each
    // source is drawn, on a workload of several.
    let (keys, _) = source_keys(models.iter().map(|c| c.whose.as_ref()), false, "models");
    let header = match (size.wide, keys.is_empty()) {
        (true, true) => Header::across(title, draw::WIDE),
        (true, false) => Header::beside(title, keys, draw::WIDE),
        (false, _) => Header::new(title, keys),
    };
    let frame = scale.frame(words, header, false, size.body);
    let capacity = 1024
        + 512
            * models
                .iter()
                .map(|c| c.file.configurations.len())
                .sum::<usize>();
    let doc = draw::render(&frame, &[], capacity, |_, p| {
        draw::deadlines(p, words, &scale.deadlines)?;
        // Highest energy first, so the lowest (shown by default) lie on top.
        models
            .iter()
            .zip(links)
            .rev()
            .try_for_each(|(c, links)| draw_model_configurations(p, c, links))
    })?;
    Ok((doc, frame))
}

/// `model` on the compare chart: a group of class `fm mK` (and its
/// source's `from-<key>`), its frontier line, its other configurations
/// faded, then its frontier's solid on top, each a link with a tooltip,
/// out of the tab order (the table under the chart has the same links:
/// hundreds of points would stand between a keyboard and the choice):
/// `links`, by configuration ([`point_links`]).
fn draw_model_configurations(
    p: &draw::Plot<'_, '_>,
    model: &CompareModel<'_>,
    links: &[String],
) -> Draw {
    let (m, a) = (model.file, model.analysis);
    let look = look_of(a, model.rank);
    let filled = !super::Whose::open(model.whose.as_ref());
    // On a workload of several sources: the source's class, so the page
    // can show one source alone, and the source in the line's tooltip.
    p.root.draw(&svg::Markup(&match &model.whose {
        Some(w) => format!(
            "<g class=\"fm m{} from-{}\">\n<title>{}</title>\n",
            model.index,
            svg::xml_escape(&w.key),
            svg::xml_escape(&format!("{} · source: {}", &m.name, w.name))
        ),
        None => format!("<g class=\"fm m{}\">\n", model.index),
    }))?;
    let at = |&i: &usize| p.px(m.configurations[i].latency(), m.configurations[i].energy());
    let line: Vec<(i32, i32)> = a.frontier.iter().map(at).collect();
    draw::line(p.root, &line, Role::Line(look), 2)?;
    let rest = (0..m.configurations.len()).filter(|i| !a.frontier.contains(i));
    for i in rest.chain(a.frontier.iter().copied()) {
        let on = a.frontier.contains(&i);
        p.root.draw(&svg::Markup(&links[i]))?;
        draw::marker(p.root, at(&i), look, Role::Point(look), filled, !on)?;
        p.root.draw(&svg::Markup("</a>\n"))?;
    }
    p.root.draw(&svg::Markup("</g>\n"))
}

/// The opening of each configuration's link on the compare chart, by
/// configuration: to `href`, marked `fr` on the model's frontier, out of
/// the tab order, with its tooltip.
fn point_links(
    words: &Words,
    model: &CompareModel<'_>,
    href: &dyn Fn(&ModelFile, &Configuration) -> String,
) -> Vec<String> {
    let (m, a) = (model.file, model.analysis);
    let setup = m.series_labels();
    m.configurations
        .iter()
        .enumerate()
        .map(|(i, conf)| {
            let tip = point_tip(words, m, &setup(conf), conf, model.whose.as_ref());
            format!(
                "<a href=\"{}\" class=\"pt{}\" tabindex=\"-1\"><title>{}</title>\n",
                svg::xml_escape(&href(m, conf)),
                if a.frontier.contains(&i) { " fr" } else { "" },
                svg::xml_escape(&tip)
            )
        })
        .collect()
}

/// A point's tooltip: "model[ · source: S]: setup, load, run R: energy at
/// latency" (the scripts that show it in a box split it at its first and
/// last ": ").
fn point_tip(
    words: &Words,
    m: &ModelFile,
    setup: &str,
    c: &Configuration,
    whose: Option<&super::Whose>,
) -> String {
    let from = whose.map_or_else(String::new, |w| format!(" · source: {}", w.name));
    let load = (words.load_phrase)(c.load());
    let load = if load.parse::<u32>().is_ok() {
        format!("concurrency {load}")
    } else {
        load
    };
    format!(
        "{}{from}: {setup}, {load}, run {}: {} {} at {} {}",
        &m.name,
        c.repeat,
        (words.energy_text)(c.energy()),
        words.energy_short,
        (words.latency_text)(c.latency()),
        words.latency_unit
    )
}

/// Every model's Pareto frontier on one ITL-vs-energy chart
/// (`frontiers.svg`), one series per model in the order given. Past
/// [`MAX_FRONTIERS`] models, only those with the lowest energy within
/// their deadline are drawn (and tabled), and the title and description
/// say so.
pub fn compare_frontiers(words: &Words, all: &[Analysed<'_>]) -> Result<Chart, draw::DrawError> {
    // In the order given: every model when there are few enough.
    let mut chosen = lowest_energy_first(all, MAX_FRONTIERS);
    chosen.sort_unstable();
    let models: Vec<Analysed<'_>> = chosen.iter().map(|&i| all[i]).collect();
    let models = models.as_slice();
    let capped = models.len() < all.len();
    let whose = super::whose_of(models.iter().map(|m| m.file));
    let series: Vec<Series> = models
        .iter()
        .enumerate()
        .map(|(mi, m)| Series {
            model: mi,
            look: look_of(m.analysis, mi),
        })
        .collect();
    let (n, total) = (models.len(), fmt::grouped(all.len() as f64));
    let title = if capped {
        format!("Time–energy Pareto frontiers, {n} lowest-energy models of {total}")
    } else {
        "Time–energy Pareto frontiers, all models".to_owned()
    };
    let (frame, deadlines, sources_note) = overlay_frame(
        words,
        &title,
        models,
        &whose,
        series.iter().copied(),
        true,
        Size {
            body: 360,
            wide: false,
        },
    );
    let doc = draw::render(&frame, &[], 16 * 1024, |_, p| {
        draw::deadlines(p, words, &deadlines)?;
        let open = |mi: usize| super::Whose::open(whose[mi].as_ref());
        series.iter().try_for_each(|s| {
            let Analysed { file, analysis } = models[s.model];
            draw_frontier(p, file, analysis, s.look, !open(s.model))
        })
    })?;
    let description = frontiers_description(words, models, &frame, all.len(), &sources_note);
    let table = configuration_table(words, frontier_rows(models));
    Ok(Chart::new(
        "frontiers.svg".to_owned(),
        title,
        description,
        &doc,
        table,
        None,
    ))
}

/// What the chart of frontiers draws, for its description: `models` of
/// `total`, and the lowest energy on their frontiers.
fn frontiers_description(
    words: &Words,
    models: &[Analysed<'_>],
    frame: &Frame,
    total: usize,
    sources_note: &str,
) -> String {
    let capped = models.len() < total;
    let (n, total) = (models.len(), fmt::grouped(total as f64));
    let cheapest = cheapest_on_frontiers(models);
    let which = if capped {
        format!(
            "the {n} models, of {total}, with the lowest energy within their deadline (no more \
                can be told apart by colour and marker)"
        )
    } else {
        format!("{n} models")
    };
    match cheapest {
        Some(ModelConfiguration {
            model: m,
            config: c,
        }) => format!(
            "Pareto frontiers of {which}: for each, the configurations that no other \
                configuration of the same model beats on both {} and {} ({}). Lowest energy {}: \
                {} on {} ×{} at {} {} and {} {}.{sources_note}",
            words.latency,
            words.energy_per,
            super::axis::scales_note(&frame.x, &frame.y),
            if capped { "among them" } else { "overall" },
            &m.name,
            c.gpu,
            c.num_gpus,
            (words.energy_text)(c.energy()),
            words.energy_short,
            (words.latency_text)(c.latency()),
            words.latency_unit
        ),
        None => "No model to compare.".to_owned(),
    }
}

/// The data table's rows of the chart of frontiers: each model's frontier.
fn frontier_rows(models: &[Analysed<'_>]) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for &Analysed { file: m, analysis } in models {
        // A configuration's series is labelled as its setup.
        let setup = m.series_labels();
        for c in analysis.frontier.iter().map(|&i| &m.configurations[i]) {
            rows.push(configuration_row(m, setup(c), c));
        }
    }
    rows
}

/// The x axis of a bar chart ([`BarScale`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarScale {
    /// Linear from zero: bar lengths compare as the values do.
    Linear,
    /// Logarithmic, from the power of ten below the smallest value: for
    /// values so far apart that the small bars would vanish on a linear
    /// axis. Linear all the same when a value is not positive.
    Log,
}

/// The legend entries of the sources of `whose` (none when no bar or
/// series has one), in their rank order, and the sentence the description
/// ends with: each source's name, how its `things` ("bars", "markers")
/// are drawn and how many of them there are.
pub(super) fn source_keys<'w>(
    whose: impl Iterator<Item = Option<&'w super::Whose>>,
    bar: bool,
    things: &str,
) -> (Vec<Key>, String) {
    let mut seen: Vec<(usize, &super::Whose, usize)> = Vec::new();
    for w in whose.flatten() {
        match seen.iter_mut().find(|(r, ..)| *r == w.rank) {
            Some((.., n)) => *n += 1,
            None => seen.push((w.rank, w, 1)),
        }
    }
    if seen.is_empty() {
        return (Vec::new(), String::new());
    }
    seen.sort_unstable_by_key(|&(rank, _, _)| rank);
    let (mut keys, mut parts) = (Vec::new(), Vec::new());
    for &(rank, w, n) in &seen {
        let open = rank > 0;
        keys.push(Key::Source {
            bar,
            open,
            name: w.name.clone(),
            key: w.key.clone(),
        });
        let drawn = match (bar, open) {
            (true, false) => "filled bars",
            (true, true) => "outlined bars",
            (false, false) => "filled markers",
            (false, true) => "open markers",
        };
        parts.push(format!(
            "{}: {} {things}, {drawn}",
            w.name,
            fmt::grouped(n as f64)
        ));
    }
    let note = if parts.len() == 1 {
        format!(" Every figure here is from {}.", parts[0])
    } else {
        format!(
            " Figures from {} sources, each as its source published it and never merged: {}.",
            parts.len(),
            parts.join("; ")
        )
    };
    (keys, note)
}

/// The x axis for `bars` (label, colour slot, value). Linear: from zero,
/// the longest bar's value times `room` short of its end, leaving space
/// for its value label. Log: ends where every bar's label (`value_text`)
/// fits right of its bar.
fn bar_axis(
    bars: &[GroupedBar],
    scale: BarScale,
    room: f64,
    value_text: fn(f64) -> String,
) -> Axis {
    let values = || bars.iter().map(|b| b.value).filter(|v| v.is_finite());
    let (min, max) = min_max(values());
    if scale == BarScale::Linear || min <= 0.0 || bars.iter().any(|b| !b.value.is_finite()) {
        return Axis::from_zero(max * room);
    }
    // The plot is at least this wide (the canvas less the y label area and
    // the margins); a bar ending at `f` of it leaves `(1 - f)` for a label
    // 6 pixels right of its end.
    let span = f64::from(WIDTH - 40);
    let lo = Axis::log_from_decade(min, max).lo;
    let decades = bars
        .iter()
        .map(|b| {
            let label = text_width(&value_text(b.value), TEXT_PX) + 6.0;
            (b.value / lo).ln() * span / (span - label).max(1.0)
        })
        .fold(0.0, f64::max);
    Axis::log_from_decade(min, lo * decades.exp())
}

/// One entry of a bar chart's legend: a series' colour slot and name.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct LegendSeries<'a> {
    slot: usize,
    name: &'a str,
}

/// A chart of horizontal bars to draw: under `title`, a legend of `series`
/// and of the bars' sources; each bar on the axis `x` (named `axis`) with
/// its value written by `value_text`; `empty` when there are no bars.
struct BarsDrawing<'a> {
    title: &'a str,
    series: &'a [LegendSeries<'a>],
    axis: &'a str,
    bars: &'a [GroupedBar],
    x: Axis,
    empty: &'a str,
    value_text: fn(f64) -> String,
}

/// A drawn bar chart and its description's note on the sources
/// ([`source_keys`]).
struct DrawnBars {
    doc: svg::Doc,
    sources_note: String,
}

/// The height of a bar's row, its label `lines` long.
fn bar_row_height(lines: usize) -> i32 {
    draw::count(lines) * LINE_H + BAR_H + 12
}

/// Draws the bars of `d`, one row each: the label (wrapped) beside a swatch
/// of its colour, the bar below it from the axis' start, and its value at
/// the bar's end; an open bar (another source's) is outlined in its colour.
fn draw_bars(d: BarsDrawing<'_>) -> Result<DrawnBars, draw::DrawError> {
    let (source_keys, sources_note) =
        source_keys(d.bars.iter().map(|b| b.whose.as_ref()), true, "bars");
    let keys = d
        .series
        .iter()
        .map(|s| Key::Bar(s.slot, s.name.to_owned()))
        .chain(source_keys)
        .collect();
    let label_max = f64::from(WIDTH - 2 * PAD - 24);
    let labels: Vec<Vec<String>> = d
        .bars
        .iter()
        .map(|b| wrap(&b.label, TEXT_PX, label_max))
        .collect();
    let all_rows: i32 = labels
        .iter()
        .map(|l| bar_row_height(l.len()))
        .sum::<i32>()
        .max(30);
    let x_desc = if d.x.log {
        format!("{}, log scale", d.axis)
    } else {
        d.axis.to_owned()
    };
    let rows = Axis::rows(d.bars.len());
    let frame = Frame {
        y_area: Some(6),
        ..Frame::new(
            Header::new(d.title, keys),
            d.x,
            rows,
            x_desc,
            String::new(),
            all_rows + 56,
        )
    };
    let doc = draw::render(&frame, &[], 16 * 1024, |_, p| {
        let x0 = p.area.x0 as i32;
        let mut top = p.area.y0 as i32 + 6;
        if d.bars.is_empty() {
            let at = (x0 + 8, top + 10);
            return draw::text(p.root, d.empty, at, draw::TextStyle::INK);
        }
        for (bar, lines) in d.bars.iter().zip(&labels) {
            draw_bar(p, bar, lines, top, d.value_text)?;
            top += bar_row_height(lines.len());
        }
        Ok(())
    })?;
    Ok(DrawnBars { doc, sources_note })
}

/// Draws one bar's row from the height `top`: its swatch and label
/// `lines`, the bar, and its value.
fn draw_bar(
    p: &draw::Plot<'_, '_>,
    bar: &GroupedBar,
    lines: &[String],
    top: i32,
    value_text: fn(f64) -> String,
) -> draw::Draw {
    let ink = |s: &str, at| draw::text(p.root, s, at, draw::TextStyle::INK);
    let (x0, slot, value) = (p.area.x0 as i32, bar.slot, bar.value);
    let mut y = top + LINE_H / 2;
    draw::marker(p.root, (x0 + 8, y), slot, Role::Swatch(slot), true, false)?;
    for l in lines {
        ink(l, (x0 + 20, y))?;
        y += LINE_H;
    }
    let bar_top = top + draw::count(lines.len()) * LINE_H + 1;
    let (x1, _) = p.px(value, 0.0);
    let end = x1.max(x0 + 1);
    if super::Whose::open(bar.whose.as_ref()) {
        // Inside the filled bar's box, so both read the same length.
        p.root.draw(&Rectangle::new(
            [
                (x0 + 1, bar_top + 1),
                ((end - 1).max(x0 + 1), bar_top + BAR_H - 1),
            ],
            Role::Swatch(slot).color().stroke_width(2),
        ))?;
    } else {
        let corners = [(x0, bar_top), (end, bar_top + BAR_H)];
        p.root
            .draw(&Rectangle::new(corners, Role::Bar(slot).color().filled()))?;
    }
    ink(&value_text(value), (end + 6, bar_top + BAR_H / 2))
}

/// One bar of a grouped bar chart ([`grouped_bars`]).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupedBar {
    /// The bar's label, e.g. "Qwen 3 32B · H100".
    pub label: String,
    /// Its series (legend entry and colour), e.g. the workload's name.
    pub series: String,
    /// The series' colour slot.
    pub slot: usize,
    /// The value drawn, in the chart's unit.
    pub value: f64,
    /// Whose measurement it is, on a site of several sources.
    pub whose: Option<super::Whose>,
}

/// A chart of [`grouped_bars`]: its file, title, axis title, the opening
/// of its description, its bars, its scale and how a value is written.
#[derive(Clone, Copy)]
pub struct BarChart<'a> {
    pub file_name: &'a str,
    pub title: &'a str,
    pub axis: &'a str,
    pub what: &'a str,
    pub bars: &'a [GroupedBar],
    pub scale: BarScale,
    pub value_text: fn(f64) -> String,
}

/// Horizontal bars in the order given, coloured by series (e.g. one colour
/// per workload), each labelled with `value_text` of its value, on a
/// `scale` axis named `axis` (the axis title adds "log scale" to a log
/// one). `what` opens the description ("Energy per response of …"). Past
/// [`MAX_BARS`] bars only the first are drawn, and the title and
/// description say so; the data table lists every bar.
pub fn grouped_bars(chart: BarChart<'_>) -> Result<Chart, draw::DrawError> {
    let BarChart {
        file_name,
        title,
        axis,
        what,
        bars,
        scale,
        value_text,
    } = chart;
    let shown = &bars[..bars.len().min(MAX_BARS)];
    let capped = bars.len() > shown.len();
    let title = capped_title(title, "first", shown.len(), bars.len());
    let mut series: Vec<LegendSeries> = Vec::new();
    for b in shown {
        if !series.iter().any(|s| s.name == b.series) {
            series.push(LegendSeries {
                slot: b.slot,
                name: &b.series,
            });
        }
    }
    let x = bar_axis(shown, scale, 1.18, value_text);
    let scale_text = if x.log {
        format!(
            "on a log scale from {} (lengths grow with the logarithm, so small and large values \
                both show; read the printed values)",
            tick_label(x.lo)
        )
    } else {
        "on a linear axis from zero".to_owned()
    };
    let DrawnBars { doc, sources_note } = draw_bars(BarsDrawing {
        title: &title,
        series: &series,
        axis,
        bars: shown,
        x,
        empty: "Nothing to show",
        value_text,
    })?;
    let description = if shown.is_empty() {
        "Nothing to show.".to_owned()
    } else {
        let (n, total) = (shown.len(), fmt::grouped(bars.len() as f64));
        let cap = if capped {
            format!(
                " Only the first {n} of {total} bars are drawn so that the chart stays readable; \
                    the table lists them all."
            )
        } else {
            String::new()
        };
        let names = series.iter().map(|s| s.name).collect::<Vec<_>>().join(", ");
        format!("{what} {n} horizontal bars {scale_text}, coloured by {names}.{cap}{sources_note}")
    };
    let rows = bars.iter().map(|b| {
        (
            vec![b.label.clone(), b.series.clone(), value_text(b.value)],
            b.whose.as_ref(),
        )
    });
    let table = bar_table(&["Bar", "Series", axis], rows);
    Ok(Chart::new(
        file_name.to_owned(),
        title,
        description,
        &doc,
        table,
        None,
    ))
}

/// One configuration as a row of a chart's data table (the columns of
/// [`configuration_table`]).
fn configuration_row(m: &ModelFile, setup: String, c: &Configuration) -> Vec<String> {
    let words = Words::of(m.measure());
    vec![
        m.name.clone(),
        setup,
        c.load().to_string(),
        c.repeat.to_string(),
        (words.latency_text)(c.latency()),
        (words.energy_text)(c.energy()),
    ]
}

/// The data table of a chart of configurations from several models.
fn configuration_table(words: &Words, rows: Vec<Vec<String>>) -> DataTable {
    let (latency, energy) = (words.latency_header(), words.energy_axis());
    let headers = [
        "Model",
        "GPU setup",
        words.load_axis,
        "Run",
        &latency,
        &energy,
    ];
    DataTable {
        headers: headers.map(str::to_owned).to_vec(),
        rows,
    }
}

/// The scatter's script (`templates/scatter.js`): the reader's latency limit,
/// energy budget and theme, from the chart's address fragment.
pub(super) const SCATTER_READER: &str = include_str!("../../templates/scatter.js");
/// The scatter's own style (`templates/scatter.css`).
pub(super) const SCATTER_STYLE: &str = include_str!("../../templates/scatter.css");

/// The title of a workload's chart of every configuration.
pub const EVERY_CONFIGURATION: &str = "Every configuration of every model";

/// A model on the chart of every configuration: its file, its look and its
/// source on a site of several.
struct ScatterModel<'a> {
    file: &'a ModelFile,
    look: usize,
    whose: Option<&'a super::Whose>,
}

/// What the chart of every configuration draws of each model of a
/// workload, by model and configuration: the opening of the point's link
/// and its row of the data table. Made once for the phone's drawing and
/// the wide one.
pub struct ScatterPoints {
    /// The opening `<a>` of each point, with the classes and figures the
    /// reader's filters select by (templates/scatter.js) and its tooltip.
    links: Vec<Vec<String>>,
    /// Each point's row of the data table.
    rows: Vec<Vec<Vec<String>>>,
}

impl ScatterPoints {
    /// The points of `all`, each model's source `whose`, linking to
    /// `href(model, configuration)`.
    fn new(
        words: &Words,
        all: &[Analysed<'_>],
        whose: &[Option<super::Whose>],
        href: &dyn Fn(&ModelFile, &Configuration) -> String,
    ) -> Self {
        let (mut links, mut rows) = (Vec::new(), Vec::new());
        for (model, whose) in all.iter().zip(whose) {
            let m = model.file;
            let setup = m.series_labels();
            let arch = url_segment(&m.architecture);
            let (mut model_links, mut model_rows) = (Vec::new(), Vec::new());
            for c in &m.configurations {
                let label = setup(c);
                // On a site of several sources, each tooltip names its source.
                let tip = point_tip(words, m, &label, c, whose.as_ref());
                model_links.push(format!(
                    "<a href=\"{}\" target=\"_top\" class=\"pt gpu-{} arch-{arch}\" \
                        data-latency=\"{}\" data-energy=\"{}\"><title>{}</title>\n",
                    svg::xml_escape(&href(m, c)),
                    url_segment(&c.gpu),
                    fmt::shortest(c.latency()),
                    fmt::shortest(c.energy()),
                    svg::xml_escape(&tip)
                ));
                model_rows.push(configuration_row(m, label, c));
            }
            links.push(model_links);
            rows.push(model_rows);
        }
        Self { links, rows }
    }
}

/// Every configuration of `model` as a link to its row (`links`, by
/// configuration, from [`ScatterPoints`]).
fn scatter_points(p: &draw::Plot<'_, '_>, model: &ScatterModel<'_>, links: &[String]) -> Draw {
    let (m, look) = (model.file, model.look);
    let filled = !super::Whose::open(model.whose);
    p.root.draw(&svg::Markup("<g class=\"sm\">\n"))?;
    for (c, link) in m.configurations.iter().zip(links) {
        p.root.draw(&svg::Markup(link))?;
        let at = p.px(c.latency(), c.energy());
        let over = c.latency() > m.deadline();
        draw::marker(p.root, at, look, Role::Point(look), filled, over)?;
        p.root.draw(&svg::Markup("</a>\n"))?;
    }
    p.root.draw(&svg::Markup("</g>\n"))
}

/// The layer and script of a chart whose points show their figures in a
/// box (`templates/scatter.js`), which also draws the reader's latency
/// limit and energy budget: the plot's pixel span of each log axis and the
/// values at its ends, so a value maps to its place exactly as the points
/// do. Used by the all-configurations scatter and the model page's
/// time–energy chart.
pub(super) fn scatter_reader(p: &draw::Plot<'_, '_>, words: &Words, frame: &Frame) -> Draw {
    let (x0, y0) = p.px(frame.x.lo, frame.y.lo);
    let (x1, y1) = p.px(frame.x.hi, frame.y.hi);
    p.root.draw(&svg::Markup(&format!(
        "<g id=\"reader\" data-x=\"{x0} {x1} {} {}\" data-y=\"{y0} {y1} {} {}\" \
            data-ux=\"{}\" data-uy=\"{}\"></g>\n",
        frame.x.lo,
        frame.x.hi,
        frame.y.lo,
        frame.y.hi,
        svg::xml_escape(words.latency_unit),
        svg::xml_escape(words.energy_short),
    )))?;
    p.root.draw(&svg::Markup(&format!(
        "<script><![CDATA[{SCATTER_READER}]]></script>\n"
    )))
}

/// Every configuration of every model of a workload on one chart, its
/// latency against its energy (`all-configurations.svg`, 400 wide, its
/// legend above the plot; with `wide`, `all-configurations-wide.svg`,
/// [`draw::WIDE`] wide, its legend beside the plot): one colour and
/// marker per model (its site-wide look, as on every chart), faded over
/// the model's deadline. Each point is a link (`href(model, configuration)`,
/// relative to the chart's file, opened in the whole window) with a
/// tooltip (`<title>`) naming the model, the setup, the load and the
/// figures; hovering a model's point fades every other model. `whose` gives
/// each model's source, so a chart of one source's models marks them as the
/// chart of every source does ([`super::whose_of`] finds them).
pub fn configuration_scatter_marked(
    words: &Words,
    all: &[Analysed<'_>],
    whose: &[Option<super::Whose>],
    title: &str,
    href: impl Fn(&ModelFile, &Configuration) -> String,
    wide: bool,
) -> Result<Chart, draw::DrawError> {
    let points = ScatterPoints::new(words, all, whose, &href);
    scatter_drawing(words, all, whose, title, &points, wide)
}

/// The phone's drawing and the wide one of
/// [`configuration_scatter_marked`], their points made once.
pub fn configuration_scatters_marked(
    words: &Words,
    all: &[Analysed<'_>],
    whose: &[Option<super::Whose>],
    title: &str,
    href: impl Fn(&ModelFile, &Configuration) -> String,
) -> Result<[Chart; 2], draw::DrawError> {
    let points = ScatterPoints::new(words, all, whose, &href);
    Ok([
        scatter_drawing(words, all, whose, title, &points, false)?,
        scatter_drawing(words, all, whose, title, &points, true)?,
    ])
}

/// One drawing of [`configuration_scatter_marked`], of `points`.
fn scatter_drawing(
    words: &Words,
    all: &[Analysed<'_>],
    whose: &[Option<super::Whose>],
    title: &str,
    points: &ScatterPoints,
    wide: bool,
) -> Result<Chart, draw::DrawError> {
    let by_energy = lowest_energy_first(all, all.len());
    let series: Vec<Series> = by_energy
        .iter()
        .enumerate()
        .map(|(r, &mi)| Series {
            model: mi,
            look: look_of(all[mi].analysis, r),
        })
        .collect();
    let (frame, deadlines, sources_note) = overlay_frame(
        words,
        title,
        all,
        whose,
        series.iter().copied(),
        false,
        Size { body: 380, wide },
    );
    let mut rows = Vec::new();
    let doc = draw::render(&frame, &[], 64 * 1024, |_, p| {
        draw::deadlines(p, words, &deadlines)?;
        // Highest energy first, so the lowest lie on top.
        for &Series { model: mi, look } in series.iter().rev() {
            let model = ScatterModel {
                file: all[mi].file,
                look,
                whose: whose[mi].as_ref(),
            };
            scatter_points(p, &model, &points.links[mi])?;
            rows.extend(points.rows[mi].iter().cloned());
        }
        scatter_reader(p, words, &frame)
    })?;
    rows.reverse();
    let description = format!(
        "Every configuration of {} models as {} against {} ({}), one colour and marker per \
            model, faded where it misses the model's deadline (dashed); a latency limit or \
            energy budget set on the leaderboard is drawn as a dotted line. Each point names \
            its model, setup and figures on hover and links to its row on the model \
            page.{sources_note}",
        fmt::grouped(all.len() as f64),
        words.latency,
        words.energy_per.to_owned(),
        super::axis::scales_note(&frame.x, &frame.y),
    );
    // Its own document in an <iframe>: the same colour scheme as the page,
    // so the frame stays transparent in dark mode.
    // Its hover fading, filtered points and box of figures
    // (templates/scatter.js).
    let css = SCATTER_STYLE;
    let table = configuration_table(words, rows);
    let file = if wide {
        "all-configurations-wide.svg"
    } else {
        "all-configurations.svg"
    }
    .to_owned();
    Ok(Chart::new(
        file,
        title.to_owned(),
        description,
        &doc,
        table,
        Some(css),
    ))
}
