//! Analysis: pure functions from a model file to the figures the pages show.
//! No I/O and no formatting; configurations are referred to by their index in
//! `ModelFile::configurations`.
//!
//! [`analyse_data`] is the pipeline's analysis stage: it runs once per model,
//! after loading and before any chart or page, and gives the renderer
//! everything it shows beyond the files themselves.

pub mod response;

use rayon::prelude::*;

use crate::load::LoadedModel;
use crate::model::{Configuration, ModelFile};
use crate::select;
use crate::workload::Workload;

/// The cheapest configuration among those `keep` accepts whose latency is
/// at most `limit`, by [`select::selection_order`].
pub fn cheapest_within(
    configs: &[Configuration],
    limit: f64,
    keep: impl Fn(&Configuration) -> bool,
) -> Option<usize> {
    select::cheapest_within(figures(configs, keep), limit)
}

/// [`select::limit_candidates`] among the configurations `keep` accepts.
pub fn limit_candidates(
    configs: &[Configuration],
    max: f64,
    keep: impl Fn(&Configuration) -> bool,
) -> Vec<usize> {
    select::limit_candidates(figures(configs, keep), max)
}

/// The configurations `keep` accepts, by position, as the selection rule reads them.
fn figures(
    configs: &[Configuration],
    keep: impl Fn(&Configuration) -> bool,
) -> impl Iterator<Item = (usize, select::Figures)> {
    configs.iter().enumerate().filter(move |(_, c)| keep(c)).map(|(i, c)| (i, c.figures()))
}

/// Best configuration per GPU, in the order of the file's `gpus` list: the
/// lowest-energy configuration whose latency is within the file's
/// deadline, or `None` when no configuration on that GPU meets it.
pub fn best_per_gpu(m: &ModelFile) -> Vec<(String, Option<usize>)> {
    let rows = m.configurations.iter().map(|c| (c.gpu.as_str(), c.figures()));
    select::best_per_gpu(m.gpus.as_slice(), m.deadline(), rows)
}

/// Best configuration over all GPUs, by the same rule.
pub fn best_overall(m: &ModelFile) -> Option<usize> {
    cheapest_within(&m.configurations, m.deadline(), |_| true)
}

/// The precisions a model was measured in, sorted, each once.
pub fn precisions(m: &ModelFile) -> Vec<String> {
    let set: std::collections::BTreeSet<&str> =
        m.configurations.iter().map(|c| c.precision.as_str()).collect();
    set.into_iter().map(str::to_owned).collect()
}

/// One line of a curve against the load (concurrency, or batch size).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Short label, e.g. "H100 ×2 EP2" (with the precision when a model has several).
    pub label: String,
    /// Configuration indices ordered by load, then `repeat` (repeats are separate points).
    pub points: Vec<usize>,
}

/// Curves against the load: one series per distinct
/// [`SeriesKey`](crate::model::SeriesKey), in the order of the file's
/// `gpus` list then the key.
pub fn load_curves(m: &ModelFile) -> Vec<Series> {
    let configs = &m.configurations;
    // One pass to group rows by key, so the work grows as n log n with the
    // number of rows (30,000 single-row series took a minute when each
    // series scanned every row).
    let mut groups: std::collections::BTreeMap<crate::model::SeriesKey, Vec<usize>> =
        std::collections::BTreeMap::new();
    for (i, c) in configs.iter().enumerate() {
        groups.entry(c.series_key()).or_default().push(i);
    }
    let rank: std::collections::HashMap<&str, usize> =
        m.gpus.iter().enumerate().rev().map(|(i, g)| (g.as_str(), i)).collect();
    let gpu_rank = |g: &str| rank.get(g).copied().unwrap_or(usize::MAX);
    let mut groups: Vec<(crate::model::SeriesKey, Vec<usize>)> = groups.into_iter().collect();
    // Stable: within one GPU the keys stay in their own order.
    groups.sort_by_key(|(_, points)| gpu_rank(&configs[points[0]].gpu));
    let label = m.series_labels();
    groups
        .into_iter()
        .map(|(_, mut points)| {
            points.sort_by_key(|&i| (configs[i].load(), configs[i].repeat, i));
            let label = label(&configs[points[0]]);
            Series { label, points }
        })
        .collect()
}

/// Pareto frontier on (latency, energy): the configurations that no other
/// configuration matches or beats on both and strictly beats on one.
/// Returned ordered by latency (then energy).
pub fn pareto_frontier(configs: &[Configuration]) -> Vec<usize> {
    pareto_frontier_by(configs, Configuration::latency)
}

/// The Pareto frontier at each of the [`crate::model::ITL_PERCENTILES`]
/// of the inter-token latency instead of its median, in that order; none
/// where the data have no percentiles.
pub fn percentile_frontiers(configs: &[Configuration]) -> Vec<Vec<usize>> {
    if configs.first().and_then(Configuration::itl_percentiles).is_none() {
        return Vec::new();
    }
    (0..crate::model::ITL_PERCENTILES.len())
        .map(|k| pareto_frontier_by(configs, |c| c.itl_percentiles().map_or(c.latency(), |p| p[k])))
        .collect()
}

/// [`pareto_frontier`] on (`latency(c)`, energy), e.g. at an ITL percentile.
pub fn pareto_frontier_by(
    configs: &[Configuration],
    latency: impl Fn(&Configuration) -> f64,
) -> Vec<usize> {
    let dominates = |a: &Configuration, b: &Configuration| {
        latency(a) <= latency(b)
            && a.energy() <= b.energy()
            && (latency(a) < latency(b) || a.energy() < b.energy())
    };
    let mut order: Vec<usize> = (0..configs.len()).collect();
    order.sort_by(|&a, &b| {
        latency(&configs[a])
            .total_cmp(&latency(&configs[b]))
            .then(configs[a].energy().total_cmp(&configs[b].energy()))
            .then(a.cmp(&b))
    });
    // Sweep in latency order: a point is on the frontier when its energy is
    // lower than every point before it, or equal to the last frontier point
    // at the same latency (an exact duplicate dominates nothing).
    let mut frontier: Vec<usize> = Vec::new();
    let mut best_energy = f64::INFINITY;
    for i in order {
        let c = &configs[i];
        // The last frontier point first: it is the likeliest to dominate.
        if c.energy() < best_energy
            || (!frontier.is_empty() && !frontier.iter().rev().any(|&f| dominates(&configs[f], c)))
        {
            best_energy = best_energy.min(c.energy());
            frontier.push(i);
        }
    }
    frontier
}

/// One rung of the latency ladder: each GPU's cheapest configuration within `limit_ms`.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyBudget {
    /// The latency limit, in the file's latency unit (ms for median ITL,
    /// s for batch latency); the name is kept from the per-token kind.
    pub limit_ms: f64,
    pub is_deadline: bool,
    /// Per GPU, in the file's `gpus` order: the cheapest configuration, or
    /// `None` when nothing on that GPU is fast enough.
    pub per_gpu: Vec<(String, Option<usize>)>,
}

/// A model's latency ladder: its kind's rungs ([`crate::model::Words::ladder`])
/// below the deadline, then the deadline.
pub fn latency_budgets(m: &ModelFile) -> Vec<LatencyBudget> {
    let deadline = m.deadline();
    let ladder = m.measure().words().ladder;
    let mut limits: Vec<f64> = ladder.iter().copied().filter(|&l| l < deadline).collect();
    limits.push(deadline);
    limits
        .into_iter()
        .map(|limit_ms| LatencyBudget {
            limit_ms,
            is_deadline: limit_ms == deadline,
            per_gpu: m
                .gpus
                .iter()
                .map(|gpu| {
                    (gpu.clone(), cheapest_within(&m.configurations, limit_ms, |c| c.gpu == *gpu))
                })
                .collect(),
        })
        .collect()
}

/// Everything the pages need to know about one model beyond its file.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelAnalysis {
    /// See [`best_per_gpu`].
    pub best_per_gpu: Vec<(String, Option<usize>)>,
    /// See [`best_overall`].
    pub best_overall: Option<usize>,
    /// See [`load_curves`].
    pub curves: Vec<Series>,
    /// See [`pareto_frontier`].
    pub frontier: Vec<usize>,
    /// See [`percentile_frontiers`].
    pub percentile_frontiers: Vec<Vec<usize>>,
    /// Per GPU, in the file's GPU order: the [`limit_candidates`] up to the
    /// deadline, which the latency-limit control embeds.
    pub limit_candidates: Vec<(String, Vec<usize>)>,
    /// See [`latency_budgets`].
    pub budgets: Vec<LatencyBudget>,
    /// The configuration index and [`response::response_energy`] of each
    /// GPU's best configuration that has an output-length histogram, in
    /// [`ModelAnalysis::best_per_gpu`] order.
    pub responses: Vec<(usize, response::ResponseEnergy)>,
    /// The entry of `responses` whose configuration uses the least energy
    /// (the first on a tie), which the workload's overlay shows.
    pub lowest_response: Option<usize>,
    /// See [`precisions`].
    pub precisions: Vec<String>,
    /// The model's nearest peers in its workload by total parameters, as
    /// indexes into the workload's models ([`size_peers`]); set by
    /// [`analyse_workload`], empty from [`analyse`] alone.
    pub peers: Vec<usize>,
}

impl ModelAnalysis {
    /// Whether configuration `i` is the best on its GPU.
    pub fn is_best(&self, i: usize) -> bool {
        self.best_per_gpu.iter().any(|(_, b)| *b == Some(i))
    }

    /// The [`limit_candidates`] on `gpu` (none for a GPU the model lacks).
    pub fn candidates_on(&self, gpu: &str) -> &[usize] {
        self.limit_candidates.iter().find(|(g, _)| g == gpu).map_or(&[], |(_, list)| list)
    }

    pub fn is_on_frontier(&self, i: usize) -> bool {
        self.frontier.contains(&i)
    }
}

/// Runs every analysis on one model, of either kind.
pub fn analyse(m: &ModelFile) -> ModelAnalysis {
    let responses = best_responses(m);
    let configs = &m.configurations;
    let lowest_response = (0..responses.len()).min_by(|&x, &y| {
        configs[responses[x].0].energy().total_cmp(&configs[responses[y].0].energy())
    });
    ModelAnalysis {
        best_per_gpu: best_per_gpu(m),
        best_overall: best_overall(m),
        curves: load_curves(m),
        frontier: pareto_frontier(&m.configurations),
        percentile_frontiers: percentile_frontiers(&m.configurations),
        limit_candidates: m
            .gpus
            .iter()
            .map(|gpu| (gpu.clone(), limit_candidates(configs, m.deadline(), |c| c.gpu == *gpu)))
            .collect(),
        budgets: latency_budgets(m),
        responses,
        lowest_response,
        precisions: precisions(m),
        peers: Vec::new(),
    }
}

/// How many peers a model page's compare link brings along.
pub const PEERS: usize = 4;

/// The models of `models` nearest to model `i` by total parameters, at
/// most [`PEERS`], nearest first (ties: the smaller model, then the slug).
pub fn size_peers(models: &[&ModelFile], i: usize) -> Vec<usize> {
    let m = models[i];
    let key = |j: usize| (models[j].params_b - m.params_b).abs();
    let nearer = |x: usize, y: usize| {
        let (a, b) = (models[x], models[y]);
        key(x)
            .total_cmp(&key(y))
            .then(a.params_b.total_cmp(&b.params_b))
            .then_with(|| a.slug.cmp(&b.slug))
    };
    // The nearest PEERS kept in order as the models go by: no list of
    // every model per model.
    let mut peers: Vec<usize> = Vec::with_capacity(PEERS + 1);
    for j in (0..models.len()).filter(|&j| models[j].slug != m.slug) {
        let at = peers.partition_point(|&p| nearer(p, j).is_le());
        if at < PEERS {
            peers.insert(at, j);
            peers.truncate(PEERS);
        }
    }
    peers
}

/// One workload's models, analysed.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadAnalysis {
    /// One analysis per model, in the workload's model order.
    pub models: Vec<ModelAnalysis>,
    /// The workload's leaderboard rows, best first ([`leaderboard`]).
    pub leaderboard: Vec<LeaderboardRow>,
}

/// Analyses one workload's models (in parallel) and ranks them.
pub fn analyse_workload(models: &[LoadedModel]) -> WorkloadAnalysis {
    let files: Vec<&ModelFile> = models.iter().map(|m| &m.file).collect();
    let analyses: Vec<ModelAnalysis> = models
        .par_iter()
        .enumerate()
        .map(|(i, m)| ModelAnalysis { peers: size_peers(&files, i), ..analyse(&m.file) })
        .collect();
    let pairs: Vec<(&ModelFile, &ModelAnalysis)> =
        models.iter().map(|m| &m.file).zip(&analyses).collect();
    let leaderboard = leaderboard(&pairs);
    WorkloadAnalysis { models: analyses, leaderboard }
}

/// The analysis stage: every workload analysed once, in the same order.
pub fn analyse_data(workloads: &[Workload]) -> Vec<WorkloadAnalysis> {
    workloads.iter().map(|w| analyse_workload(&w.models)).collect()
}

/// Energy per response of each GPU's best configuration that has an
/// output-length histogram, in [`best_per_gpu`] order.
fn best_responses(m: &ModelFile) -> Vec<(usize, response::ResponseEnergy)> {
    let configs = &m.configurations;
    best_per_gpu(m)
        .into_iter()
        .filter_map(|(_, best)| {
            let i = best?;
            let (lengths, per_token) = configs[i].output_lengths()?;
            Some((i, response::response_energy(per_token, lengths)))
        })
        .collect()
}

/// One row of the leaderboard: a model's best configuration on one GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaderboardRow {
    /// Index of the model in the loaded data set.
    pub model: usize,
    /// Index of the configuration in that model's file.
    pub config: usize,
}

/// Leaderboard rows for all models, lowest energy first (ties: slug, then GPU).
pub fn leaderboard(models: &[(&ModelFile, &ModelAnalysis)]) -> Vec<LeaderboardRow> {
    let mut rows: Vec<LeaderboardRow> = models
        .iter()
        .enumerate()
        .flat_map(|(mi, (_, a))| {
            a.best_per_gpu
                .iter()
                .filter_map(move |(_, b)| b.map(|config| LeaderboardRow { model: mi, config }))
        })
        .collect();
    rows.sort_by(|a, b| {
        let ca = &models[a.model].0.configurations[a.config];
        let cb = &models[b.model].0.configurations[b.config];
        ca.energy()
            .total_cmp(&cb.energy())
            .then_with(|| models[a.model].0.slug.cmp(&models[b.model].0.slug))
            .then_with(|| ca.gpu.cmp(&cb.gpu))
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Configuration, ModelFile};

    fn seed(name: &str) -> ModelFile {
        let text = std::fs::read_to_string(format!("tests/fixtures/seeds/{name}.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    fn best_on<'a>(m: &'a ModelFile, gpu: &str) -> &'a Configuration {
        let (_, best) = best_per_gpu(m).into_iter().find(|(g, _)| g == gpu).unwrap();
        &m.configurations[best.unwrap()]
    }

    #[test]
    fn qwen_3_32b_best_per_gpu_matches_the_leaderboard() {
        let m = seed("qwen-3-32b");
        let b200 = best_on(&m, "B200");
        assert_eq!(
            (b200.num_gpus, b200.max_num_seqs.unwrap(), b200.wh_per_million_output_tokens.unwrap()),
            (1, 384, 39.05)
        );
        let h100 = best_on(&m, "H100");
        assert_eq!(
            (h100.num_gpus, h100.tensor_parallel.unwrap(), h100.max_num_seqs.unwrap()),
            (2, 2, 256)
        );
        assert_eq!(h100.wh_per_million_output_tokens.unwrap(), 63.47);
    }

    #[test]
    fn qwen_3_30b_a3b_best_per_gpu_matches_the_leaderboard() {
        let m = seed("qwen-3-30b-a3b-instruct");
        let b200 = best_on(&m, "B200");
        assert_eq!(
            (b200.max_num_seqs.unwrap(), b200.wh_per_million_output_tokens.unwrap()),
            (1024, 15.67)
        );
        let h100 = best_on(&m, "H100");
        assert_eq!(
            (h100.num_gpus, h100.expert_parallel.unwrap(), h100.max_num_seqs.unwrap()),
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
            .map(|&i| (m.configurations[i].max_num_seqs.unwrap(), m.configurations[i].repeat))
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
        let limits: Vec<f64> = budgets.iter().map(|b| b.limit_ms).collect();
        assert_eq!(limits, vec![25.0, 50.0, 100.0, 200.0, 500.0]);
        assert!(budgets[4].is_deadline);
        // H100 at 25 ms: only the 2-GPU runs at 8..64 are fast enough; the
        // cheapest is TP2 at 64 (22.4 ms, 101.96 Wh/M).
        let (_, h100_25) = &budgets[0].per_gpu[1];
        assert_eq!(m.configurations[h100_25.unwrap()].row_id, "qwen-3-32b/H100/2/64");
        // B200 at 50 ms excludes 384 (50.2 ms): 256 at 41.87 is cheapest.
        let (_, b200_50) = &budgets[1].per_gpu[0];
        assert_eq!(m.configurations[b200_50.unwrap()].row_id, "qwen-3-32b/B200/1/256");
        let tight = cheapest_within(&m.configurations, 5.0, |_| true);
        assert_eq!(tight, None);
    }

    /// The first of `candidates` within `limit`: the rule the pages'
    /// script (`static/limit.js`, `pick`) applies to the embedded list.
    fn first_within(configs: &[Configuration], candidates: &[usize], limit: f64) -> Option<usize> {
        candidates.iter().copied().find(|&i| configs[i].latency() <= limit)
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
            assert!(capped.iter().all(|&i| m.configurations[i].latency() <= m.deadline()));
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
        for (workload, slug) in [("text-to-image", "flux-1-dev"), ("text-to-video", "wan-2-1-14b")]
        {
            candidates_agree(&diffusion(workload, slug));
        }
    }

    fn diffusion(workload: &str, slug: &str) -> crate::model::ModelFile {
        let text =
            std::fs::read_to_string(format!("tests/fixtures/diffusion/{workload}/{slug}.json"))
                .unwrap();
        serde_json::from_str(&text).unwrap()
    }

    /// (energy, GPUs, batch size, Ulysses, ring, batch latency) of the
    /// best row on `gpu`.
    fn diffusion_best(m: &crate::model::ModelFile, gpu: &str) -> (f64, u32, u32, u32, u32, f64) {
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
        assert_eq!(diffusion_best(&wan, "B200"), (342_623.06, 2, 1, 1, 2, 185.238));
        assert_eq!(diffusion_best(&wan, "H100"), (344_018.87, 2, 1, 2, 1, 250.921));
        // The file's own best agrees, row for row.
        for (gpu, best) in best_per_gpu(&wan) {
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
        let configs = vec![row(2, 1, 1), row(1, 4, 1), row(1, 2, 2), row(1, 2, 1), row(1, 2, 1)];
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
        let limits: Vec<f64> = latency_budgets(&flux).iter().map(|b| b.limit_ms).collect();
        assert_eq!(limits, vec![2.0, 5.0, 10.0, 20.0, 30.0]);
        let wan = diffusion("text-to-video", "wan-2-1-14b");
        let budgets = latency_budgets(&wan);
        let limits: Vec<f64> = budgets.iter().map(|b| b.limit_ms).collect();
        assert_eq!(limits, vec![60.0, 120.0, 200.0, 300.0]);
        assert!(budgets[3].is_deadline && !budgets[2].is_deadline);
        // Each rung is the cheapest within its limit, so energy never rises
        // as the limit loosens.
        for gpu in 0..wan.gpus.len() {
            let energies: Vec<f64> = budgets
                .iter()
                .filter_map(|b| b.per_gpu[gpu].1)
                .map(|i| wan.configurations[i].joules_per_item().unwrap())
                .collect();
            assert!(energies.windows(2).all(|w| w[1] <= w[0]), "{energies:?}");
        }
        let (_, at_deadline) = &budgets[3].per_gpu[0];
        assert_eq!(wan.configurations[at_deadline.unwrap()].joules_per_item().unwrap(), 342_623.06);
    }

    #[test]
    fn diffusion_curves_are_one_series_per_setup_ordered_by_batch_size() {
        let flux = diffusion("text-to-image", "flux-1-dev");
        let curves = load_curves(&flux);
        let total: usize = curves.iter().map(|s| s.points.len()).sum();
        assert_eq!(total, flux.configurations.len());
        for s in &curves {
            let batches: Vec<u32> =
                s.points.iter().map(|&i| flux.configurations[i].batch_size.unwrap()).collect();
            assert!(batches.windows(2).all(|w| w[0] < w[1]), "{batches:?}");
            let key = flux.configurations[s.points[0]].series_key();
            assert!(s.points.iter().all(|&i| flux.configurations[i].series_key() == key));
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
            .map(crate::model::Configuration::energy)
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
        let mut keys: Vec<crate::model::SeriesKey> =
            m.configurations.iter().map(crate::model::Configuration::series_key).collect();
        let gpu_rank = |g: &str| m.gpus.iter().position(|x| x == g).unwrap_or(usize::MAX);
        keys.sort_by(|a, b| gpu_rank(&a.gpu).cmp(&gpu_rank(&b.gpu)).then_with(|| a.cmp(b)));
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

    #[test]
    fn curves_group_in_near_linear_time_with_the_same_output() {
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
        let start = std::time::Instant::now();
        let curves = load_curves(&m);
        assert_eq!(curves.len(), 30_000);
        // Scanning took about a minute in a debug build.
        assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
        m.configurations.truncate(2_000);
        let points: Vec<Vec<usize>> = load_curves(&m).into_iter().map(|s| s.points).collect();
        assert_eq!(points, curves_by_scanning(&m));
    }
}
