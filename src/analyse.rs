//! Analysis: pure functions from a model file to the figures the pages show.
//! No I/O and no formatting; configurations are referred to by their index in
//! `ModelFile::configurations`.

use std::cmp::Ordering;

use crate::model::{Configuration, ModelFile};

/// Latency budgets (median ITL, ms) for which the cheapest configuration is
/// shown, besides the file's own deadline. Budgets above the deadline are
/// left out.
pub const LATENCY_LADDER_MS: [f64; 4] = [25.0, 50.0, 100.0, 200.0];

/// The selection order among configurations that meet a latency limit:
/// lowest Wh per million output tokens, then fewer GPUs, then lower
/// `max_num_seqs`, then lower `repeat`, then earlier in the file.
pub fn selection_order(a: (usize, &Configuration), b: (usize, &Configuration)) -> Ordering {
    a.1.wh_per_million_output_tokens
        .total_cmp(&b.1.wh_per_million_output_tokens)
        .then(a.1.num_gpus.cmp(&b.1.num_gpus))
        .then(a.1.max_num_seqs.cmp(&b.1.max_num_seqs))
        .then(a.1.repeat.cmp(&b.1.repeat))
        .then(a.0.cmp(&b.0))
}

/// The cheapest configuration among those `keep` accepts whose median ITL is
/// at most `limit_ms`, by [`selection_order`].
pub fn cheapest_within(
    configs: &[Configuration],
    limit_ms: f64,
    keep: impl Fn(&Configuration) -> bool,
) -> Option<usize> {
    configs
        .iter()
        .enumerate()
        .filter(|(_, c)| keep(c) && c.median_itl_ms <= limit_ms)
        .min_by(|a, b| selection_order(*a, *b))
        .map(|(i, _)| i)
}

/// Best configuration per GPU, in the order of the file's `gpus` list: the
/// lowest-energy configuration whose median ITL is within the file's
/// deadline, or `None` when no configuration on that GPU meets it.
pub fn best_per_gpu(m: &ModelFile) -> Vec<(String, Option<usize>)> {
    m.gpus
        .iter()
        .map(|gpu| {
            (
                gpu.clone(),
                cheapest_within(&m.configurations, m.itl_deadline_ms, |c| c.gpu == *gpu),
            )
        })
        .collect()
}

/// Best configuration over all GPUs, by the same rule.
pub fn best_overall(m: &ModelFile) -> Option<usize> {
    cheapest_within(&m.configurations, m.itl_deadline_ms, |_| true)
}

/// The precisions a model was measured in, sorted, each once.
pub fn precisions(m: &ModelFile) -> Vec<&str> {
    let mut p: Vec<&str> = m
        .configurations
        .iter()
        .map(|c| c.precision.as_str())
        .collect();
    p.sort_unstable();
    p.dedup();
    p
}

/// What makes configurations one series of a concurrency curve: everything
/// but the concurrency.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SeriesKey {
    /// GPU type.
    pub gpu: String,
    /// Number of GPUs.
    pub num_gpus: u32,
    /// Tensor-parallel degree.
    pub tensor_parallel: u32,
    /// Expert-parallel degree.
    pub expert_parallel: u32,
    /// Data-parallel degree.
    pub data_parallel: u32,
    /// Precision.
    pub precision: String,
}

impl SeriesKey {
    /// The key of one configuration.
    pub fn of(c: &Configuration) -> Self {
        Self {
            gpu: c.gpu.clone(),
            num_gpus: c.num_gpus,
            tensor_parallel: c.tensor_parallel,
            expert_parallel: c.expert_parallel,
            data_parallel: c.data_parallel,
            precision: c.precision.clone(),
        }
    }
}

/// One line of a concurrency chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// What the series holds fixed.
    pub key: SeriesKey,
    /// Short label, e.g. "H100 ×2 EP2" (precision added when a model has
    /// several).
    pub label: String,
    /// Configuration indices ordered by `max_num_seqs`, then `repeat`.
    /// Repeated runs are separate points.
    pub points: Vec<usize>,
}

/// Concurrency curves: one series per distinct (GPU, GPU count, parallelism,
/// precision), in the order of the file's `gpus` list then GPU count.
pub fn concurrency_curves(m: &ModelFile) -> Vec<Series> {
    // One pass to group rows by key, so the work grows as n log n with the
    // number of rows (30,000 single-row series took a minute when each
    // series scanned every row).
    let mut groups: std::collections::BTreeMap<SeriesKey, Vec<usize>> =
        std::collections::BTreeMap::new();
    for (i, c) in m.configurations.iter().enumerate() {
        groups.entry(SeriesKey::of(c)).or_default().push(i);
    }
    let rank: std::collections::HashMap<&str, usize> = m
        .gpus
        .iter()
        .enumerate()
        .rev()
        .map(|(i, g)| (g.as_str(), i))
        .collect();
    let gpu_rank = |g: &str| rank.get(g).copied().unwrap_or(usize::MAX);
    let mut groups: Vec<(SeriesKey, Vec<usize>)> = groups.into_iter().collect();
    // Stable: within one GPU the keys stay in their own order.
    groups.sort_by_key(|(key, _)| gpu_rank(&key.gpu));
    let several_precisions = precisions(m).len() > 1;
    groups
        .into_iter()
        .map(|(key, mut points)| {
            points.sort_by_key(|&i| {
                let c = &m.configurations[i];
                (c.max_num_seqs, c.repeat, i)
            });
            let first = &m.configurations[points[0]];
            let mut label = format!("{} ×{}", key.gpu, key.num_gpus);
            let par = first.parallelism();
            if par != "none" {
                label.push(' ');
                label.push_str(&par);
            }
            if several_precisions {
                label.push(' ');
                label.push_str(&key.precision);
            }
            Series { key, label, points }
        })
        .collect()
}

/// Pareto frontier on (median ITL, Wh per million output tokens): the
/// configurations that no other configuration matches or beats on both and
/// strictly beats on one. Returned ordered by median ITL (then energy).
pub fn pareto_frontier(configs: &[Configuration]) -> Vec<usize> {
    let dominates = |a: &Configuration, b: &Configuration| {
        a.median_itl_ms <= b.median_itl_ms
            && a.wh_per_million_output_tokens <= b.wh_per_million_output_tokens
            && (a.median_itl_ms < b.median_itl_ms
                || a.wh_per_million_output_tokens < b.wh_per_million_output_tokens)
    };
    let mut order: Vec<usize> = (0..configs.len()).collect();
    order.sort_by(|&a, &b| {
        configs[a]
            .median_itl_ms
            .total_cmp(&configs[b].median_itl_ms)
            .then(
                configs[a]
                    .wh_per_million_output_tokens
                    .total_cmp(&configs[b].wh_per_million_output_tokens),
            )
            .then(a.cmp(&b))
    });
    // Sweep in ITL order: a point is on the frontier when its energy is
    // lower than every point before it, or equal to the last frontier point
    // at the same ITL (an exact duplicate dominates nothing).
    let mut frontier: Vec<usize> = Vec::new();
    let mut best_energy = f64::INFINITY;
    for i in order {
        let c = &configs[i];
        let kept = if c.wh_per_million_output_tokens < best_energy {
            true
        } else if let Some(&last) = frontier.last() {
            !dominates(&configs[last], c) && !frontier.iter().any(|&f| dominates(&configs[f], c))
        } else {
            false
        };
        if kept {
            best_energy = best_energy.min(c.wh_per_million_output_tokens);
            frontier.push(i);
        }
    }
    frontier
}

/// One rung of the latency ladder: the cheapest configuration per GPU whose
/// median ITL is within `limit_ms`.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyBudget {
    /// The median ITL limit, ms.
    pub limit_ms: f64,
    /// Whether this limit is the file's own deadline.
    pub is_deadline: bool,
    /// Per GPU, in the file's `gpus` order: the cheapest configuration, or
    /// `None` when nothing on that GPU is fast enough.
    pub per_gpu: Vec<(String, Option<usize>)>,
}

/// The latency ladder for a model: [`LATENCY_LADDER_MS`] below the deadline,
/// then the deadline itself.
pub fn latency_budgets(m: &ModelFile) -> Vec<LatencyBudget> {
    let mut limits: Vec<f64> = LATENCY_LADDER_MS
        .iter()
        .copied()
        .filter(|&l| l < m.itl_deadline_ms)
        .collect();
    limits.push(m.itl_deadline_ms);
    limits
        .into_iter()
        .map(|limit_ms| LatencyBudget {
            limit_ms,
            is_deadline: limit_ms == m.itl_deadline_ms,
            per_gpu: m
                .gpus
                .iter()
                .map(|gpu| {
                    (
                        gpu.clone(),
                        cheapest_within(&m.configurations, limit_ms, |c| c.gpu == *gpu),
                    )
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
    /// See [`concurrency_curves`].
    pub curves: Vec<Series>,
    /// See [`pareto_frontier`].
    pub frontier: Vec<usize>,
    /// See [`latency_budgets`].
    pub budgets: Vec<LatencyBudget>,
}

impl ModelAnalysis {
    /// Whether configuration `i` is the best on its GPU.
    pub fn is_best(&self, i: usize) -> bool {
        self.best_per_gpu.iter().any(|(_, b)| *b == Some(i))
    }

    /// Whether configuration `i` is on the Pareto frontier.
    pub fn is_on_frontier(&self, i: usize) -> bool {
        self.frontier.contains(&i)
    }
}

/// Runs every analysis on one model.
pub fn analyse_model(m: &ModelFile) -> ModelAnalysis {
    ModelAnalysis {
        best_per_gpu: best_per_gpu(m),
        best_overall: best_overall(m),
        curves: concurrency_curves(m),
        frontier: pareto_frontier(&m.configurations),
        budgets: latency_budgets(m),
    }
}

/// One row of the leaderboard: a model's best configuration on one GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaderboardRow {
    /// Index of the model in the loaded data set.
    pub model: usize,
    /// Index of the configuration in that model's file.
    pub config: usize,
}

/// Leaderboard rows for all models, lowest Wh per million output tokens
/// first (ties: model slug, then GPU).
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
        ca.wh_per_million_output_tokens
            .total_cmp(&cb.wh_per_million_output_tokens)
            .then_with(|| models[a.model].0.slug.cmp(&models[b.model].0.slug))
            .then_with(|| ca.gpu.cmp(&cb.gpu))
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(name: &str) -> ModelFile {
        let text = std::fs::read_to_string(format!("data/{name}.json")).unwrap();
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
            (
                b200.num_gpus,
                b200.max_num_seqs,
                b200.wh_per_million_output_tokens
            ),
            (1, 384, 39.05)
        );
        let h100 = best_on(&m, "H100");
        assert_eq!(
            (h100.num_gpus, h100.tensor_parallel, h100.max_num_seqs),
            (2, 2, 256)
        );
        assert_eq!(h100.wh_per_million_output_tokens, 63.47);
    }

    #[test]
    fn qwen_3_30b_a3b_best_per_gpu_matches_the_leaderboard() {
        let m = seed("qwen-3-30b-a3b-instruct");
        let b200 = best_on(&m, "B200");
        assert_eq!(
            (b200.max_num_seqs, b200.wh_per_million_output_tokens),
            (1024, 15.67)
        );
        let h100 = best_on(&m, "H100");
        assert_eq!(
            (h100.num_gpus, h100.expert_parallel, h100.max_num_seqs),
            (2, 2, 1024)
        );
        assert_eq!(h100.wh_per_million_output_tokens, 24.69);
        assert_eq!(
            m.configurations[best_overall(&m).unwrap()].row_id,
            "qwen-3-30b-a3b-instruct/B200/1/1024"
        );
    }

    #[test]
    fn repeats_stay_distinct_points_in_their_series() {
        let m = seed("qwen-3-30b-a3b-instruct");
        let curves = concurrency_curves(&m);
        let total: usize = curves.iter().map(|s| s.points.len()).sum();
        assert_eq!(total, m.configurations.len());
        let h100x2 = curves
            .iter()
            .find(|s| s.key.gpu == "H100" && s.key.num_gpus == 2)
            .unwrap();
        let seqs: Vec<(u32, u32)> = h100x2
            .points
            .iter()
            .map(|&i| (m.configurations[i].max_num_seqs, m.configurations[i].repeat))
            .collect();
        assert!(seqs.contains(&(256, 1)) && seqs.contains(&(256, 2)));
        assert!(seqs.contains(&(512, 1)) && seqs.contains(&(512, 2)));
        assert!(seqs.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(h100x2.label, "H100 ×2 EP2");
        assert_eq!(curves.len(), 3);
    }

    fn point(itl: f64, wh: f64) -> Configuration {
        let mut c = seed("qwen-3-32b").configurations[0].clone();
        c.median_itl_ms = itl;
        c.wh_per_million_output_tokens = wh;
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

    #[test]
    fn ties_break_to_fewer_gpus_then_lower_concurrency() {
        let mut a = point(10.0, 30.0);
        a.num_gpus = 2;
        let mut b = point(10.0, 30.0);
        b.num_gpus = 1;
        b.max_num_seqs = 64;
        let mut c = point(10.0, 30.0);
        c.num_gpus = 1;
        c.max_num_seqs = 32;
        let configs = vec![a, b, c];
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
        assert_eq!(
            m.configurations[h100_25.unwrap()].row_id,
            "qwen-3-32b/H100/2/64"
        );
        // B200 at 50 ms excludes 384 (50.2 ms): 256 at 41.87 is cheapest.
        let (_, b200_50) = &budgets[1].per_gpu[0];
        assert_eq!(
            m.configurations[b200_50.unwrap()].row_id,
            "qwen-3-32b/B200/1/256"
        );
        let tight = cheapest_within(&m.configurations, 5.0, |_| true);
        assert_eq!(tight, None);
    }

    /// The curves as the first version built them: each series scans every
    /// row (quadratic), kept here as the reference for the output.
    fn curves_by_scanning(m: &ModelFile) -> Vec<Vec<usize>> {
        let mut keys: Vec<SeriesKey> = m.configurations.iter().map(SeriesKey::of).collect();
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
                    .filter(|&i| SeriesKey::of(&m.configurations[i]) == key)
                    .collect();
                points.sort_by_key(|&i| {
                    let c = &m.configurations[i];
                    (c.max_num_seqs, c.repeat, i)
                });
                points
            })
            .collect()
    }

    #[test]
    fn curves_group_in_near_linear_time_with_the_same_output() {
        for name in ["qwen-3-32b", "qwen-3-30b-a3b-instruct"] {
            let m = seed(name);
            let points: Vec<Vec<usize>> = concurrency_curves(&m)
                .into_iter()
                .map(|s| s.points)
                .collect();
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
        let curves = concurrency_curves(&m);
        assert_eq!(curves.len(), 30_000);
        // Scanning took about a minute in a debug build.
        assert!(
            start.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        m.configurations.truncate(2_000);
        let points: Vec<Vec<usize>> = concurrency_curves(&m)
            .into_iter()
            .map(|s| s.points)
            .collect();
        assert_eq!(points, curves_by_scanning(&m));
    }
}
