//! The analysis on the seed and fixture files: best rows per GPU, load
//! curves, Pareto frontiers, latency budgets and the latency-limit
//! candidates, against the leaderboard and figures worked out by hand; and
//! energy per response read off output-length histograms.

use energyboard::analyse::response::{quantile, response_energy};
use energyboard::analyse::{
    PEERS, best_overall, best_per_gpu, cheapest_within, latency_budgets, limit_candidates,
    load_curves, pareto_frontier, size_peers, size_peers_of_all,
};
use energyboard::model::{Configuration, ModelFile, OutputLengthDistribution, SeriesKey};
use energyboard::select::GpuBest;

fn seed(name: &str) -> ModelFile {
    let text = std::fs::read_to_string(format!("tests/fixtures/seeds/{name}.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn best_on<'a>(m: &'a ModelFile, gpu: &str) -> &'a Configuration {
    let on_gpu = best_per_gpu(m).into_iter().find(|b| b.gpu == gpu).unwrap();
    &m.configurations[on_gpu.best.unwrap()]
}

#[test]
fn qwen_3_32b_best_per_gpu_matches_the_leaderboard() {
    let m = seed("qwen-3-32b");
    let b200 = best_on(&m, "B200");
    assert_eq!(
        (
            b200.num_gpus,
            b200.max_num_seqs.unwrap(),
            b200.wh_per_million_output_tokens.unwrap()
        ),
        (1, 384, 39.05)
    );
    let h100 = best_on(&m, "H100");
    assert_eq!(
        (
            h100.num_gpus,
            h100.tensor_parallel.unwrap(),
            h100.max_num_seqs.unwrap()
        ),
        (2, 2, 256)
    );
    assert_eq!(h100.wh_per_million_output_tokens.unwrap(), 63.47);
}

#[test]
fn qwen_3_30b_a3b_best_per_gpu_matches_the_leaderboard() {
    let m = seed("qwen-3-30b-a3b-instruct");
    let b200 = best_on(&m, "B200");
    assert_eq!(
        (
            b200.max_num_seqs.unwrap(),
            b200.wh_per_million_output_tokens.unwrap()
        ),
        (1024, 15.67)
    );
    let h100 = best_on(&m, "H100");
    assert_eq!(
        (
            h100.num_gpus,
            h100.expert_parallel.unwrap(),
            h100.max_num_seqs.unwrap()
        ),
        (2, 2, 1024)
    );
    assert_eq!(h100.wh_per_million_output_tokens.unwrap(), 24.69);
    assert_eq!(
        m.configurations[best_overall(&m).unwrap()].row_id,
        "qwen-3-30b-a3b-instruct/B200/1/1024"
    );
}

#[test]
fn repeats_stay_distinct_points_in_their_series() {
    let m = seed("qwen-3-30b-a3b-instruct");
    let curves = load_curves(&m);
    let total: usize = curves.iter().map(|s| s.points.len()).sum();
    assert_eq!(total, m.configurations.len());
    let h100x2 = curves
        .iter()
        .find(|s| {
            let c = &m.configurations[s.points[0]];
            c.gpu == "H100" && c.num_gpus == 2
        })
        .unwrap();
    let seqs: Vec<(u32, u32)> = h100x2
        .points
        .iter()
        .map(|&i| {
            (
                m.configurations[i].max_num_seqs.unwrap(),
                m.configurations[i].repeat,
            )
        })
        .collect();
    assert!(seqs.contains(&(256, 1)) && seqs.contains(&(256, 2)));
    assert!(seqs.contains(&(512, 1)) && seqs.contains(&(512, 2)));
    assert!(seqs.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(h100x2.label, "H100 ×2 EP2");
    assert_eq!(curves.len(), 3);
}

fn point(itl: f64, wh: f64) -> Configuration {
    let mut c = seed("qwen-3-32b").configurations[0].clone();
    c.median_itl_ms = Some(itl);
    c.wh_per_million_output_tokens = Some(wh);
    c
}

#[test]
fn frontier_keeps_only_undominated_points() {
    // 0: fast and costly; 1: dominated by 2; 2: middle; 3: slow and
    // cheap; 4: same ITL as 3 but costlier (dominated); 5: duplicate of 2.
    let configs = vec![
        point(10.0, 100.0),
        point(30.0, 80.0),
        point(20.0, 50.0),
        point(40.0, 20.0),
        point(40.0, 25.0),
        point(20.0, 50.0),
    ];
    assert_eq!(pareto_frontier(&configs), vec![0, 2, 5, 3]);
}

/// A row at 10 ms and 30 Wh/M on `gpus` GPUs, at concurrency `seqs`
/// (the seed row's when `None`).
fn tied(gpus: u32, seqs: Option<u32>) -> Configuration {
    let mut c = point(10.0, 30.0);
    c.num_gpus = gpus;
    c.max_num_seqs = seqs.or(c.max_num_seqs);
    c
}

#[test]
fn ties_break_to_fewer_gpus_then_lower_concurrency() {
    let configs = vec![tied(2, None), tied(1, Some(64)), tied(1, Some(32))];
    assert_eq!(cheapest_within(&configs, 500.0, |_| true), Some(2));
}

#[test]
fn budgets_end_at_the_deadline_and_may_be_empty() {
    let m = seed("qwen-3-32b");
    let budgets = latency_budgets(&m);
    let limits: Vec<f64> = budgets.iter().map(|b| b.limit).collect();
    assert_eq!(limits, vec![25.0, 50.0, 100.0, 200.0, 500.0]);
    assert!(budgets[4].is_deadline);
    // H100 at 25 ms: only the 2-GPU runs at 8..64 are fast enough; the
    // cheapest is TP2 at 64 (22.4 ms, 101.96 Wh/M).
    let h100_25 = budgets[0].per_gpu[1].best;
    assert_eq!(
        m.configurations[h100_25.unwrap()].row_id,
        "qwen-3-32b/H100/2/64"
    );
    // B200 at 50 ms excludes 384 (50.2 ms): 256 at 41.87 is cheapest.
    let b200_50 = budgets[1].per_gpu[0].best;
    assert_eq!(
        m.configurations[b200_50.unwrap()].row_id,
        "qwen-3-32b/B200/1/256"
    );
    let tight = cheapest_within(&m.configurations, 5.0, |_| true);
    assert_eq!(tight, None);
}

/// The first of `candidates` within `limit`: the rule the pages'
/// script (`static/limit.js`, `pick`) applies to the embedded list.
fn first_within(configs: &[Configuration], candidates: &[usize], limit: f64) -> Option<usize> {
    candidates
        .iter()
        .copied()
        .find(|&i| configs[i].latency() <= limit)
}

/// Every limit worth trying on `configs`: each latency, just below and
/// just above it, and a few far away.
fn limits_to_try(configs: &[Configuration]) -> Vec<f64> {
    let mut limits = vec![0.0, 1e-9, 1e9];
    for c in configs {
        let l = c.latency();
        limits.extend([l, l * (1.0 - 1e-12), l * (1.0 + 1e-12), l + 0.05, l - 0.05]);
    }
    limits
}

#[test]
fn the_first_candidate_within_any_limit_is_the_analysis_pick() {
    let mut files: Vec<ModelFile> = vec![seed("qwen-3-32b"), seed("qwen-3-30b-a3b-instruct")];
    for entry in std::fs::read_dir("tests/fixtures/leaderboard").unwrap() {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
            files.push(serde_json::from_str(&text).unwrap());
        }
    }
    assert!(files.len() > 50, "{}", files.len());
    let checked: usize = files.iter().map(candidates_agree).sum();
    assert!(checked > 5000, "{checked}");
}

/// Checks on each GPU of `m` that the first candidate within every limit
/// worth trying is the analysis pick, uncapped and capped at the
/// deadline; returns how many uncapped limits it tried.
fn candidates_agree(m: &ModelFile) -> usize {
    let mut checked = 0;
    for gpu in &m.gpus {
        let keep = |c: &Configuration| &c.gpu == gpu;
        let candidates = limit_candidates(&m.configurations, f64::INFINITY, keep);
        for limit in limits_to_try(&m.configurations) {
            assert_eq!(
                first_within(&m.configurations, &candidates, limit),
                cheapest_within(&m.configurations, limit, keep),
                "{} on {gpu} at {limit}",
                m.slug
            );
            checked += 1;
        }
        // Capped at the deadline: nothing over it is listed, and up to
        // it the answers agree.
        let capped = limit_candidates(&m.configurations, m.deadline(), keep);
        assert!(
            capped
                .iter()
                .all(|&i| m.configurations[i].latency() <= m.deadline())
        );
        for limit in limits_to_try(&m.configurations) {
            if limit <= m.deadline() {
                assert_eq!(
                    first_within(&m.configurations, &capped, limit),
                    cheapest_within(&m.configurations, limit, keep)
                );
            }
        }
    }
    checked
}

#[test]
#[allow(clippy::many_single_char_names)]
fn candidates_keep_the_tie_rule_and_repeats() {
    // Same energy and latency: fewer GPUs, then lower load, then the
    // first repeat, then the earlier row win, as in `cheapest_within`.
    let (a, b, mut c) = (tied(2, None), tied(1, Some(64)), tied(1, Some(32)));
    c.repeat = 2;
    let mut d = c.clone();
    d.repeat = 1;
    let e = d.clone();
    // A faster, dearer row, and a slower, cheaper one.
    let f = point(5.0, 90.0);
    let g = point(40.0, 10.0);
    let configs = vec![a, b, c, d, e, f, g];
    let candidates = limit_candidates(&configs, f64::INFINITY, |_| true);
    assert_eq!(candidates, vec![6, 3, 5]);
    for limit in [4.0, 5.0, 9.0, 10.0, 39.9, 40.0, 100.0] {
        assert_eq!(
            first_within(&configs, &candidates, limit),
            cheapest_within(&configs, limit, |_| true),
            "{limit}"
        );
    }
    assert_eq!(limit_candidates(&configs, 39.0, |_| true), vec![3, 5]);
}

#[test]
fn diffusion_candidates_agree_with_the_analysis() {
    for (workload, slug) in [
        ("text-to-image", "flux-1-dev"),
        ("text-to-video", "wan-2-1-14b"),
    ] {
        candidates_agree(&diffusion(workload, slug));
    }
}

fn diffusion(workload: &str, slug: &str) -> ModelFile {
    let text = std::fs::read_to_string(format!("tests/fixtures/diffusion/{workload}/{slug}.json"))
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// (energy, GPUs, batch size, Ulysses, ring, batch latency) of the
/// best row on `gpu`.
fn diffusion_best(m: &ModelFile, gpu: &str) -> (f64, u32, u32, u32, u32, f64) {
    let c = best_on(m, gpu);
    (
        c.joules_per_item().unwrap(),
        c.num_gpus,
        c.batch_size.unwrap(),
        c.ulysses_degree.unwrap(),
        c.ring_degree.unwrap(),
        c.batch_latency_s.unwrap(),
    )
}

#[test]
fn diffusion_best_per_gpu_matches_the_figures_computed_by_hand() {
    // Computed by hand from the leaderboard's raw task files.
    let flux = diffusion("text-to-image", "flux-1-dev");
    assert_eq!(diffusion_best(&flux, "B200"), (6678.81, 1, 1, 1, 1, 7.755));
    assert_eq!(diffusion_best(&flux, "H100"), (7866.31, 1, 2, 1, 1, 22.889));
    let wan = diffusion("text-to-video", "wan-2-1-14b");
    assert_eq!(
        diffusion_best(&wan, "B200"),
        (342_623.06, 2, 1, 1, 2, 185.238)
    );
    assert_eq!(
        diffusion_best(&wan, "H100"),
        (344_018.87, 2, 1, 2, 1, 250.921)
    );
    // The file's own best agrees, row for row.
    for GpuBest { gpu, best } in best_per_gpu(&wan) {
        assert_eq!(wan.configurations[best.unwrap()], *wan.best[&gpu]);
    }
}

#[test]
fn diffusion_ties_break_to_fewer_gpus_then_smaller_batches_then_first_run() {
    let template = diffusion("text-to-image", "pixart").configurations[0].clone();
    let row = |gpus: u32, batch: u32, repeat: u32| {
        let mut c = template.clone();
        c.num_gpus = gpus;
        c.batch_size = Some(batch);
        c.repeat = repeat;
        c.joules_per_image = Some(100.0);
        c.batch_latency_s = Some(1.0);
        c
    };
    let configs = vec![
        row(2, 1, 1),
        row(1, 4, 1),
        row(1, 2, 2),
        row(1, 2, 1),
        row(1, 2, 1),
    ];
    assert_eq!(cheapest_within(&configs, 30.0, |_| true), Some(3));
    // Over the limit does not count, however cheap.
    let mut cheap = row(1, 1, 1);
    cheap.joules_per_image = Some(1.0);
    cheap.batch_latency_s = Some(31.0);
    let configs = vec![cheap, row(1, 1, 1)];
    assert_eq!(cheapest_within(&configs, 30.0, |_| true), Some(1));
}

#[test]
fn diffusion_budgets_climb_in_seconds_to_the_deadline() {
    let flux = diffusion("text-to-image", "flux-1-dev");
    let limits: Vec<f64> = latency_budgets(&flux).iter().map(|b| b.limit).collect();
    assert_eq!(limits, vec![2.0, 5.0, 10.0, 20.0, 30.0]);
    let wan = diffusion("text-to-video", "wan-2-1-14b");
    let budgets = latency_budgets(&wan);
    let limits: Vec<f64> = budgets.iter().map(|b| b.limit).collect();
    assert_eq!(limits, vec![60.0, 120.0, 200.0, 300.0]);
    assert!(budgets[3].is_deadline && !budgets[2].is_deadline);
    // Each rung is the cheapest within its limit, so energy never rises
    // as the limit loosens.
    for gpu in 0..wan.gpus.len() {
        let energies: Vec<f64> = budgets
            .iter()
            .filter_map(|b| b.per_gpu[gpu].best)
            .map(|i| wan.configurations[i].joules_per_item().unwrap())
            .collect();
        assert!(energies.windows(2).all(|w| w[1] <= w[0]), "{energies:?}");
    }
    let at_deadline = budgets[3].per_gpu[0].best;
    assert_eq!(
        wan.configurations[at_deadline.unwrap()]
            .joules_per_item()
            .unwrap(),
        342_623.06
    );
}

#[test]
fn diffusion_curves_are_one_series_per_setup_ordered_by_batch_size() {
    let flux = diffusion("text-to-image", "flux-1-dev");
    let curves = load_curves(&flux);
    let total: usize = curves.iter().map(|s| s.points.len()).sum();
    assert_eq!(total, flux.configurations.len());
    for s in &curves {
        let batches: Vec<u32> = s
            .points
            .iter()
            .map(|&i| flux.configurations[i].batch_size.unwrap())
            .collect();
        assert!(batches.windows(2).all(|w| w[0] < w[1]), "{batches:?}");
        let key = flux.configurations[s.points[0]].series_key();
        assert!(
            s.points
                .iter()
                .all(|&i| flux.configurations[i].series_key() == key)
        );
    }
    let labels: Vec<&str> = curves.iter().map(|s| s.label.as_str()).collect();
    assert!(labels.contains(&"B200 ×1"), "{labels:?}");
    assert!(labels.contains(&"H100 ×8 U4·R2"), "{labels:?}");
    // B200 first, as in the file's gpus list.
    assert!(flux.configurations[curves[0].points[0]].gpu == "B200");
}

#[test]
fn diffusion_frontier_is_on_batch_latency_and_energy_per_item() {
    let flux = diffusion("text-to-image", "flux-1-dev");
    let front = pareto_frontier(&flux.configurations);
    let pts: Vec<(f64, f64)> = front
        .iter()
        .map(|&i| {
            let c = &flux.configurations[i];
            (c.batch_latency_s.unwrap(), c.joules_per_item().unwrap())
        })
        .collect();
    // Faster points cost more: latency rises and energy falls along it.
    assert!(pts.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 >= w[1].1));
    // The cheapest row of all is on it, and so is the fastest.
    let cheapest = flux
        .configurations
        .iter()
        .map(Configuration::energy)
        .fold(f64::INFINITY, f64::min);
    assert_eq!(pts.last().unwrap().1, cheapest);
    let fastest = flux
        .configurations
        .iter()
        .map(|c| c.batch_latency_s.unwrap())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(pts[0].0, fastest);
}

/// The curves as the first version built them: each series scans every
/// row (quadratic), kept here as the reference for the output.
fn curves_by_scanning(m: &ModelFile) -> Vec<Vec<usize>> {
    let mut keys: Vec<SeriesKey> = m
        .configurations
        .iter()
        .map(Configuration::series_key)
        .collect();
    let gpu_rank = |g: &str| m.gpus.iter().position(|x| x == g).unwrap_or(usize::MAX);
    keys.sort_by(|a, b| {
        gpu_rank(&a.gpu)
            .cmp(&gpu_rank(&b.gpu))
            .then_with(|| a.cmp(b))
    });
    keys.dedup();
    keys.into_iter()
        .map(|key| {
            let mut points: Vec<usize> = (0..m.configurations.len())
                .filter(|&i| m.configurations[i].series_key() == key)
                .collect();
            points.sort_by_key(|&i| {
                let c = &m.configurations[i];
                (c.max_num_seqs.unwrap(), c.repeat, i)
            });
            points
        })
        .collect()
}

/// Grouping gives what scanning every configuration for each key gives,
/// on the seeds and on a model of 30,000 configurations (no wall-clock
/// bound: speed is measured by the benchmarks, `cargo bench --bench stages`
/// and `bench/growth.sh`; scanning took about a minute for 30,000 in a
/// debug build, grouping well under a second).
#[test]
fn curves_group_with_the_same_output_as_scanning() {
    for name in ["qwen-3-32b", "qwen-3-30b-a3b-instruct"] {
        let m = seed(name);
        let points: Vec<Vec<usize>> = load_curves(&m).into_iter().map(|s| s.points).collect();
        assert_eq!(points, curves_by_scanning(&m), "{name}");
    }
    let mut m = seed("qwen-3-32b");
    let template = m.configurations[0].clone();
    m.configurations = (0..30_000)
        .map(|i| {
            let mut c = template.clone();
            c.precision = format!("P{i}");
            c.gpu = m.gpus[i % m.gpus.len()].clone();
            c
        })
        .collect();
    let curves = load_curves(&m);
    assert_eq!(curves.len(), 30_000);
    m.configurations.truncate(2_000);
    let points: Vec<Vec<usize>> = load_curves(&m).into_iter().map(|s| s.points).collect();
    assert_eq!(points, curves_by_scanning(&m));
}

// Energy per response (`analyse::response`).
#[test]
fn median_and_p90_interpolate_within_their_bin() {
    // Edges 0, 100, 200, 300 tokens at 0.5 J/token: 0, 50, 100, 150 J.
    // 10 responses: 2, 6, 2. The median (5th of 10) lies 3 of 6 into
    // the second bin: 50 + 3/6 × 50 = 75 J. The p90 (9th) lies 1 of 2
    // into the third: 100 + 1/2 × 50 = 125 J.
    let d = OutputLengthDistribution {
        bins: vec![0.0, 100.0, 200.0, 300.0],
        counts: vec![2, 6, 2],
    };
    let r = response_energy(0.5, &d);
    assert_eq!(r.edges_j, vec![0.0, 50.0, 100.0, 150.0]);
    assert_eq!(r.total, 10);
    assert!((r.median_j - 75.0).abs() < 1e-12, "{}", r.median_j);
    assert!((r.p90_j - 125.0).abs() < 1e-12, "{}", r.p90_j);
}

#[test]
fn empty_bins_are_skipped_and_the_ends_are_the_edges() {
    let edges = [10.0, 20.0, 30.0, 40.0];
    let counts = [0, 4, 0];
    // All four responses in [20, 30): q = 0 is 20, q = 1 is 30, and the
    // median is halfway.
    assert!((quantile(&edges, &counts, 0.0) - 20.0).abs() < 1e-12);
    assert!((quantile(&edges, &counts, 1.0) - 30.0).abs() < 1e-12);
    assert!((quantile(&edges, &counts, 0.5) - 25.0).abs() < 1e-12);
    assert!((quantile(&edges, &[0, 0, 0], 0.5) - 10.0).abs() < 1e-12);
}

/// Issue 45: the peers of every model from one sort by size are exactly
/// those of the pass over every model per model ([`size_peers`], the rule
/// as written): sizes shared by many models (a synthetic set copies its
/// seeds' sizes), sizes at the same distance below and above, slugs out of
/// order, and workloads smaller than [`PEERS`].
#[test]
fn size_peers_from_one_sort_equal_the_rule_model_by_model() {
    let base = seed("qwen-3-32b");
    let sizes = [
        8.0, 32.0, 32.0, 14.0, 50.0, 32.0, 0.5, 235.0, 8.0, 30.0, 34.0, 32.0, 1.0, 14.0,
    ];
    for n in [1, 2, 3, PEERS, PEERS + 1, sizes.len()] {
        let models: Vec<ModelFile> = (0..n)
            .map(|i| ModelFile {
                // Slugs not in size order, nor in index order.
                slug: format!("m-{}", (i * 7) % 13),
                params_b: sizes[i],
                ..base.clone()
            })
            .collect();
        let files: Vec<&ModelFile> = models.iter().collect();
        let every: Vec<Vec<usize>> = (0..n).map(|i| size_peers(&files, i)).collect();
        assert_eq!(size_peers_of_all(&files), every, "{n} models");
        assert!(
            every.iter().all(|p| p.len() == PEERS.min(n - 1)),
            "{every:?}"
        );
    }
    // 30 and 34 are both 2 from 32: the smaller first; then the two at 14 by slug.
    let models: Vec<ModelFile> = [32.0, 34.0, 30.0, 14.0, 14.0, 50.0]
        .iter()
        .zip(["a", "b", "c", "e", "d", "f"])
        .map(|(&params_b, slug)| ModelFile {
            slug: slug.into(),
            params_b,
            ..base.clone()
        })
        .collect();
    let files: Vec<&ModelFile> = models.iter().collect();
    assert_eq!(size_peers_of_all(&files)[0], vec![2, 1, 4, 3]);
}

/// A model's look (colour and marker) comes from who it is, not where it
/// sits: the same on every workload, whatever the order, and unchanged by
/// a second source's models.
#[test]
fn a_model_keeps_its_look_whatever_else_the_site_holds() {
    use energyboard::analyse::{LOOKS, model_looks};
    use std::collections::BTreeSet;
    let base = seed("qwen-3-32b");
    let model = |id: String, source: Option<&str>| {
        let mut m = base.clone();
        m.model_id = id;
        if let Some(s) = source {
            let mut src = (*m.source).clone();
            src.id = Some(s.to_owned());
            m.source = std::sync::Arc::new(src);
        }
        m
    };
    let board: Vec<ModelFile> = (0..40)
        .map(|i| model(format!("org/model-{i}"), None))
        .collect();
    let refs: Vec<&ModelFile> = board.iter().collect();
    let looks = model_looks(&refs);
    assert_eq!(
        looks.iter().collect::<BTreeSet<_>>().len(),
        40,
        "no two alike: {looks:?}"
    );
    assert!(looks.iter().all(|&l| l < LOOKS));
    // Not by position: the models in reverse keep their looks.
    let reversed: Vec<&ModelFile> = refs.iter().rev().copied().collect();
    let mut again = model_looks(&reversed);
    again.reverse();
    assert_eq!(again, looks);
    // The same model in two workloads looks the same in both.
    let twice = model_looks(&[&board[3], &board[7], &board[3]]);
    assert_eq!(twice[0], twice[2]);
    // Another source's models, some with the leaderboard's ids, listed
    // first: no leaderboard model changes its look, and up to LOOKS
    // models all differ.
    let lab: Vec<ModelFile> = (0..9)
        .map(|i| model(format!("org/model-{}", i * 5), Some("lab")))
        .collect();
    let mixed: Vec<&ModelFile> = lab.iter().chain(&board).collect();
    let mixed_looks = model_looks(&mixed);
    assert_eq!(mixed_looks[lab.len()..], looks[..]);
    assert_eq!(mixed_looks.iter().collect::<BTreeSet<_>>().len(), LOOKS);
}

/// Issue 42: every configuration with an output-length histogram has its
/// energy per response (the chosen configuration's histogram), in file
/// order, each the histogram of its own lengths and energy per token; the
/// best configurations' are
/// among them, equal to the best's own.
#[test]
fn every_configuration_with_output_lengths_has_its_energy_per_response() {
    let text = std::fs::read_to_string("tests/fixtures/distributions/gpqa/qwen-3-8b.json").unwrap();
    let m: ModelFile = serde_json::from_str(&text).unwrap();
    let a = energyboard::analyse::analyse(&m);
    let with: Vec<usize> = (0..m.configurations.len())
        .filter(|&i| m.configurations[i].output_lengths().is_some())
        .collect();
    assert!(
        with.len() > a.responses.len(),
        "{} configurations",
        with.len()
    );
    let chosen: Vec<usize> = a.chosen_responses.iter().map(|r| r.config).collect();
    assert_eq!(chosen, with);
    for r in &a.chosen_responses {
        let o = m.configurations[r.config].output_lengths().unwrap();
        assert_eq!(r.energy, response_energy(o.joules_per_token, o.histogram));
        assert!(r.energy.median_j <= r.energy.p90_j);
    }
    for best in &a.responses {
        let same = a
            .chosen_responses
            .iter()
            .find(|r| r.config == best.config)
            .unwrap();
        assert_eq!(same.energy, best.energy);
    }
}

#[test]
fn compare_pages_hold_at_most_their_models_and_configurations() {
    use energyboard::analyse::{COMPARE_PAGE_MODELS, COMPARE_PAGE_POINTS, compare_pages};
    assert_eq!(compare_pages(&[]), vec![0..0]);
    assert_eq!(compare_pages(&[10, 20]), vec![0..2]);
    // Models: 120 small ones make three pages of 50, 50 and 20.
    let small = vec![1; 120];
    assert_eq!(
        compare_pages(&small),
        vec![0..COMPARE_PAGE_MODELS, 50..100, 100..120]
    );
    // Configurations: a page closes before it would pass the budget, and a
    // model bigger than the budget has a page of its own.
    let big = COMPARE_PAGE_POINTS / 2 + 1;
    assert_eq!(compare_pages(&[big, big, 5]), vec![0..1, 1..3]);
    assert_eq!(
        compare_pages(&[5, COMPARE_PAGE_POINTS * 2, 5]),
        vec![0..1, 1..2, 2..3]
    );
}
