//! Site-wide charts: best-energy bars (leaderboard and GPU pages) and every
//! model's Pareto frontier on one chart (compare page).

use super::axis::{Axis, tick_label};
use super::draw::{self, Frame, Header, Key, PAD, TEXT_PX, WIDTH};
use super::layout::{Align, Placement, Rect, label_box, wrap};
use super::num as fmt;
use super::style::{Role, gpu_slot};
use super::{BarEntry, Chart, DataTable, svg};
use crate::analyse::ModelAnalysis;
use crate::model::ModelFile;

const ENERGY: &str = "Energy (Wh per million output tokens)";
const LINE_H: i32 = 17;
const BAR_H: i32 = 14;

/// Sorted horizontal bars of best energy.
pub(crate) fn best_energy_bars(file_name: &str, title: &str, entries: &[BarEntry]) -> Chart {
    let mut sorted: Vec<&BarEntry> = entries.iter().collect();
    sorted.sort_by(|a, b| {
        a.wh_per_million
            .total_cmp(&b.wh_per_million)
            .then_with(|| a.model.cmp(&b.model))
            .then_with(|| a.gpu.cmp(&b.gpu))
    });
    let mut gpus: Vec<(usize, &str)> = sorted
        .iter()
        .map(|e| (gpu_slot(&e.gpu), e.gpu.as_str()))
        .collect();
    gpus.sort_unstable();
    gpus.dedup();
    let keys = gpus
        .iter()
        .map(|&(slot, gpu)| Key::Bar(slot, gpu.to_owned()))
        .collect();
    let label_max = f64::from(WIDTH - 2 * PAD - 24);
    let labels: Vec<Vec<String>> = sorted
        .iter()
        .map(|e| wrap(&format!("{} · {}", e.model, e.gpu), TEXT_PX, label_max))
        .collect();
    let row_height = |lines: usize| draw::count(lines) * LINE_H + BAR_H + 12;
    let all_rows: i32 = labels
        .iter()
        .map(|l| row_height(l.len()))
        .sum::<i32>()
        .max(30);
    let max = sorted.iter().map(|e| e.wh_per_million).fold(0.0, f64::max);
    let frame = Frame {
        header: Header::new(title, keys),
        // Room right of the longest bar for its value.
        x: Axis::from_zero(max * 1.12),
        y: Axis::rows(sorted.len()),
        x_desc: ENERGY.to_owned(),
        y_desc: String::new(),
        body: all_rows + 10 + 46,
        y_area: Some(6),
        x_ticks: tick_label,
    };
    let doc = draw::render_xy(&frame, 16 * 1024, |p| {
        let x0 = p.area.x0 as i32;
        let mut top = p.area.y0 as i32 + 6;
        if sorted.is_empty() {
            return draw::text(
                p.root,
                "No configuration to show",
                (x0 + 8, top + 10),
                TEXT_PX,
                Align::Start,
                Role::Ink,
                false,
            );
        }
        for (e, lines) in sorted.iter().zip(&labels) {
            let slot = gpu_slot(&e.gpu);
            let mut y = top + LINE_H / 2;
            draw::marker(p.root, (x0 + 8, y), slot, Role::Swatch(slot), true)?;
            for l in lines {
                draw::text(
                    p.root,
                    l,
                    (x0 + 20, y),
                    TEXT_PX,
                    Align::Start,
                    Role::Ink,
                    false,
                )?;
                y += LINE_H;
            }
            let bar_top = top + draw::count(lines.len()) * LINE_H + 1;
            let (x1, _) = p.px(e.wh_per_million, 0.0);
            p.root.draw(&plotters::element::Rectangle::new(
                [(x0, bar_top), (x1.max(x0 + 1), bar_top + BAR_H)],
                plotters::style::Color::filled(&Role::Bar(slot).color()),
            ))?;
            draw::text(
                p.root,
                &fmt::wh_per_million(e.wh_per_million),
                (x1 + 6, bar_top + BAR_H / 2),
                TEXT_PX,
                Align::Start,
                Role::Ink,
                false,
            )?;
            top += row_height(lines.len());
        }
        Ok(())
    });
    let description = match (sorted.first(), sorted.last()) {
        (Some(lo), Some(hi)) => format!(
            "Lowest energy per million output tokens within each model's latency deadline, {} bars sorted lowest first, coloured by GPU. From {} on {} at {} Wh/M to {} on {} at {} Wh/M.",
            sorted.len(),
            lo.model,
            lo.gpu,
            fmt::wh_per_million(lo.wh_per_million),
            hi.model,
            hi.gpu,
            fmt::wh_per_million(hi.wh_per_million)
        ),
        _ => "No configuration to show.".to_owned(),
    };
    let rows = sorted
        .iter()
        .enumerate()
        .map(|(i, e)| {
            vec![
                (i + 1).to_string(),
                e.model.clone(),
                e.gpu.clone(),
                fmt::wh_per_million(e.wh_per_million),
            ]
        })
        .collect();
    Chart {
        file_name: file_name.to_owned(),
        svg: svg::finish(&doc, title, &description),
        title: title.to_owned(),
        description,
        table: DataTable {
            headers: ["Rank", "Model", "GPU", ENERGY].map(str::to_owned).to_vec(),
            rows,
        },
    }
}

/// Every model's Pareto frontier on one ITL-vs-energy chart.
pub(crate) fn compare_frontiers(models: &[(&ModelFile, &ModelAnalysis)]) -> Chart {
    let points = || {
        models
            .iter()
            .flat_map(|(m, a)| a.frontier.iter().map(move |&i| &m.configurations[i]))
    };
    let mut deadlines: Vec<f64> = models.iter().map(|(m, _)| m.itl_deadline_ms).collect();
    deadlines.sort_by(f64::total_cmp);
    deadlines.dedup();
    let fold = |f: fn(&crate::model::Configuration) -> f64| {
        points()
            .map(f)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            })
    };
    let (mut ilo, mut ihi) = fold(|c| c.median_itl_ms);
    let (mut elo, mut ehi) = fold(|c| c.wh_per_million_output_tokens);
    if !ilo.is_finite() {
        (ilo, ihi, elo, ehi) = (10.0, 100.0, 10.0, 100.0);
    }
    ihi = deadlines.iter().copied().fold(ihi, f64::max);
    let keys = models
        .iter()
        .enumerate()
        .map(|(mi, (m, _))| Key::Series(mi, m.name.clone()))
        .collect();
    let title = "Time–energy Pareto frontiers, all models";
    let frame = Frame {
        header: Header::new(title, keys),
        x: Axis::log(ilo, ihi),
        y: Axis::auto(elo, ehi),
        x_desc: "Median inter-token latency (ms)".to_owned(),
        y_desc: ENERGY.to_owned(),
        body: 360,
        y_area: None,
        x_ticks: tick_label,
    };
    let doc = draw::render_xy(&frame, 16 * 1024, |p| {
        let (y0, y1) = (p.area.y0 as i32, p.area.y1 as i32);
        for (k, &d) in deadlines.iter().enumerate() {
            let (x, _) = p.px(d, 1.0);
            draw::line(p.root, &[(x, y0), (x, y1)], Role::Deadline, 2)?;
            let text = format!("deadline {} ms", fmt::limit_ms(d));
            let at = (x - 6, y0 + 12 + 18 * draw::count(k));
            p.placer.occupy_label(label_box(
                &text,
                TEXT_PX,
                Placement {
                    x: at.0,
                    y: at.1,
                    align: Align::End,
                },
            ));
            draw::text(p.root, &text, at, TEXT_PX, Align::End, Role::Label, false)?;
        }
        for (mi, (m, a)) in models.iter().enumerate() {
            let pts: Vec<(i32, i32)> = a
                .frontier
                .iter()
                .map(|&i| {
                    let c = &m.configurations[i];
                    p.px(c.median_itl_ms, c.wh_per_million_output_tokens)
                })
                .collect();
            draw::line(p.root, &pts, Role::Line(mi), 2)?;
            for &at in &pts {
                draw::marker(p.root, at, mi, Role::Point(mi), true)?;
                p.placer.occupy(Rect::around(at, 6.0));
            }
        }
        Ok(())
    });
    let cheapest = models
        .iter()
        .flat_map(|(m, a)| a.frontier.iter().map(move |&i| (*m, &m.configurations[i])))
        .min_by(|a, b| {
            a.1.wh_per_million_output_tokens
                .total_cmp(&b.1.wh_per_million_output_tokens)
        });
    let description = match cheapest {
        Some((m, c)) => format!(
            "Pareto frontiers of {} models: for each, the configurations that no other configuration of the same model beats on both median inter-token latency and energy per million output tokens (log scales). Lowest energy overall: {} on {} ×{} at {} Wh/M and {} ms.",
            models.len(),
            m.name,
            c.gpu,
            c.num_gpus,
            fmt::wh_per_million(c.wh_per_million_output_tokens),
            fmt::ms(c.median_itl_ms)
        ),
        None => "No model to compare.".to_owned(),
    };
    let mut rows = Vec::new();
    for (m, a) in models {
        for &i in &a.frontier {
            let c = &m.configurations[i];
            let setup = a
                .curves
                .iter()
                .find(|s| s.points.contains(&i))
                .map_or_else(String::new, |s| s.label.clone());
            rows.push(vec![
                m.name.clone(),
                setup,
                c.max_num_seqs.to_string(),
                c.repeat.to_string(),
                fmt::ms(c.median_itl_ms),
                fmt::wh_per_million(c.wh_per_million_output_tokens),
            ]);
        }
    }
    Chart {
        file_name: "frontiers.svg".to_owned(),
        svg: svg::finish(&doc, title, &description),
        title: title.to_owned(),
        description,
        table: DataTable {
            headers: [
                "Model",
                "GPU setup",
                "Concurrency (max_num_seqs)",
                "Run",
                "Median ITL (ms)",
                ENERGY,
            ]
            .map(str::to_owned)
            .to_vec(),
            rows,
        },
    }
}
