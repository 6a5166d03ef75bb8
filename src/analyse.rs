//! Analysis: pure functions from a model file to the figures the pages show.
//! No I/O and no formatting; configurations are referred to by their index in
//! `ModelFile::configurations`.
//!
//! [`analyse_data`] is the pipeline's analysis stage: it runs once per model,
//! after loading and before any chart or page, and gives the renderer
//! everything it shows beyond the files themselves.

pub mod footprint_basis;
pub mod response;
pub mod versions;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rayon::prelude::*;

use crate::columns::Words;
use crate::load::LoadedModel;
use crate::model::{Configuration, ModelFile, SeriesKey};
use crate::select::{self, GpuBest};
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
    configs
        .iter()
        .enumerate()
        .filter(move |(_, c)| keep(c))
        .map(|(i, c)| (i, c.figures()))
}

/// Best configuration per GPU, in the order of the file's `gpus` list: the
/// lowest-energy configuration whose latency is within the file's
/// deadline, or `None` when no configuration on that GPU meets it.
pub fn best_per_gpu(m: &ModelFile) -> Vec<GpuBest> {
    let rows = m
        .configurations
        .iter()
        .map(|c| (c.gpu.as_str(), c.figures()));
    select::best_per_gpu(m.gpus.as_slice(), m.deadline(), rows)
}

/// Best configuration over all GPUs, by the same rule.
pub fn best_overall(m: &ModelFile) -> Option<usize> {
    cheapest_within(&m.configurations, m.deadline(), |_| true)
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
    let mut groups: BTreeMap<SeriesKey, Vec<usize>> = BTreeMap::new();
    for (i, c) in configs.iter().enumerate() {
        groups.entry(c.series_key()).or_default().push(i);
    }
    let rank: HashMap<&str, usize> = m
        .gpus
        .iter()
        .enumerate()
        .rev()
        .map(|(i, g)| (g.as_str(), i))
        .collect();
    let gpu_rank = |g: &str| rank.get(g).copied().unwrap_or(usize::MAX);
    let mut groups: Vec<_> = groups.into_iter().collect();
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
    if configs
        .first()
        .and_then(Configuration::itl_percentiles)
        .is_none()
    {
        return Vec::new();
    }
    crate::model::ITL_PERCENTILES
        .iter()
        .map(|&p| pareto_frontier_by(configs, |c| c.latency_at(Some(p))))
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

/// One rung of the latency ladder: each GPU's cheapest configuration within `limit`.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyBudget {
    /// The latency limit, in the unit of [`Configuration::latency`]: ms of
    /// median ITL per token, s of batch latency for diffusion.
    pub limit: f64,
    pub is_deadline: bool,
    /// Per GPU, in the file's `gpus` order: the cheapest configuration, or
    /// `None` when nothing on that GPU is fast enough.
    pub per_gpu: Vec<GpuBest>,
}

/// A model's latency ladder: its kind's rungs ([`crate::columns::Words::ladder`])
/// below the deadline, then the deadline.
pub fn latency_budgets(m: &ModelFile) -> Vec<LatencyBudget> {
    let deadline = m.deadline();
    let ladder = Words::of(m.measure())
        .ladder
        .iter()
        .copied()
        .filter(|&l| l < deadline);
    ladder
        .chain([deadline])
        .map(|limit| LatencyBudget {
            limit,
            is_deadline: limit == deadline,
            per_gpu: m
                .gpus
                .iter()
                .map(|gpu| GpuBest {
                    gpu: gpu.clone(),
                    best: cheapest_within(&m.configurations, limit, |c| &c.gpu == gpu),
                })
                .collect(),
        })
        .collect()
}

/// The [`limit_candidates`] of one GPU's configurations.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuCandidates {
    pub gpu: String,
    pub candidates: Vec<usize>,
}

/// Everything the pages need to know about one model beyond its file.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelAnalysis {
    pub best_per_gpu: Vec<GpuBest>,
    pub best_overall: Option<usize>,
    pub curves: Vec<Series>,
    pub frontier: Vec<usize>,
    pub percentile_frontiers: Vec<Vec<usize>>,
    /// Per GPU, in the file's GPU order: the [`limit_candidates`] up to the
    /// deadline, which the latency-limit control embeds.
    pub limit_candidates: Vec<GpuCandidates>,
    pub budgets: Vec<LatencyBudget>,
    /// The configuration index and [`response::response_energy`] of each
    /// GPU's best configuration that has an output-length histogram, in
    /// [`ModelAnalysis::best_per_gpu`] order.
    pub responses: Vec<ConfigResponse>,
    /// The entry of `responses` whose configuration uses the least energy
    /// (the first on a tie), which the workload's overlay shows.
    pub lowest_response: Option<usize>,
    /// The scale the histograms of `responses` share.
    pub response_scale: response::ResponseScale,
    /// Every configuration's energy per response, for those with an
    /// output-length histogram, in file order: what the model page shows
    /// for the configuration the reader chooses.
    pub chosen_responses: Vec<ConfigResponse>,
    /// The precisions the model was measured in, sorted, each once.
    pub precisions: Vec<String>,
    /// The model's nearest peers in its workload by total parameters, as
    /// indexes into the workload's models ([`size_peers`]); set by
    /// [`analyse_workload`], empty from [`analyse`] alone.
    pub peers: Vec<usize>,
    /// The model's look on every chart of the site, one of [`LOOKS`]
    /// (a colour and a marker, `chart::style`), from [`model_looks`]; set
    /// by [`analyse_data`], `None` from [`analyse`] alone (a chart then
    /// styles its series by their place).
    pub look: Option<usize>,
}

/// One configuration's energy per response.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigResponse {
    /// The configuration, by index into the model file's.
    pub config: usize,
    pub energy: response::ResponseEnergy,
}

/// The energy per response of every configuration of `m` that has an
/// output-length histogram, in file order.
fn every_response(m: &ModelFile) -> Vec<ConfigResponse> {
    m.configurations
        .iter()
        .enumerate()
        .filter_map(|(config, c)| {
            let o = c.output_lengths()?;
            Some(ConfigResponse {
                config,
                energy: response::response_energy(o.joules_per_token, o.histogram),
            })
        })
        .collect()
}

impl ModelAnalysis {
    /// Whether configuration `i` is the best on its GPU.
    pub fn is_best(&self, i: usize) -> bool {
        self.best_per_gpu.iter().any(|b| b.best == Some(i))
    }

    /// The [`limit_candidates`] on `gpu` (none for a GPU the model lacks).
    pub fn candidates_on(&self, gpu: &str) -> &[usize] {
        self.limit_candidates
            .iter()
            .find(|c| c.gpu == gpu)
            .map_or(&[], |c| &c.candidates)
    }

    pub fn is_on_frontier(&self, i: usize) -> bool {
        self.frontier.contains(&i)
    }
}

/// Runs every analysis on one model, of either kind.
pub fn analyse(m: &ModelFile) -> ModelAnalysis {
    let configs = &m.configurations;
    let best_per_gpu = best_per_gpu(m);
    let responses: Vec<_> = best_per_gpu
        .iter()
        .filter_map(|b| {
            let i = b.best?;
            let o = configs[i].output_lengths()?;
            Some(ConfigResponse {
                config: i,
                energy: response::response_energy(o.joules_per_token, o.histogram),
            })
        })
        .collect();
    let lowest_response = (0..responses.len()).min_by(|&x, &y| {
        configs[responses[x].config]
            .energy()
            .total_cmp(&configs[responses[y].config].energy())
    });
    let precisions: BTreeSet<&str> = configs.iter().map(|c| c.precision.as_str()).collect();
    let chosen_responses = every_response(m);
    ModelAnalysis {
        best_per_gpu,
        best_overall: best_overall(m),
        curves: load_curves(m),
        frontier: pareto_frontier(configs),
        percentile_frontiers: percentile_frontiers(configs),
        limit_candidates: m
            .gpus
            .iter()
            .map(|gpu| GpuCandidates {
                gpu: gpu.clone(),
                candidates: limit_candidates(configs, m.deadline(), |c| &c.gpu == gpu),
            })
            .collect(),
        budgets: latency_budgets(m),
        response_scale: response::shared_scale(responses.iter().map(|r| &r.energy)),
        responses,
        lowest_response,
        chosen_responses,
        precisions: precisions.into_iter().map(str::to_owned).collect(),
        peers: Vec::new(),
        look: None,
    }
}

/// How a model ranks when models are put lowest energy first: a model
/// with a best configuration within its deadline ranks by that
/// configuration's energy, ahead of every model without one, which ranks
/// by the lowest energy its frontier reaches.
#[derive(Debug, Clone, Copy)]
pub enum EnergyRank {
    /// The energy of the model's best configuration within its deadline.
    WithinDeadline(f64),
    /// No configuration within the deadline: the lowest energy on the
    /// model's frontier (infinite when it has none).
    OverDeadline(f64),
}

impl EnergyRank {
    /// The rank of model `m` analysed as `a`.
    pub fn of(m: &ModelFile, a: &ModelAnalysis) -> Self {
        match a.best_overall {
            Some(b) => EnergyRank::WithinDeadline(m.configurations[b].energy()),
            None => EnergyRank::OverDeadline(
                a.frontier
                    .iter()
                    .map(|&c| m.configurations[c].energy())
                    .min_by(f64::total_cmp)
                    .unwrap_or(f64::INFINITY),
            ),
        }
    }
}

/// Lower energy first, every model within its deadline before any other
/// (energies compared by `f64::total_cmp`).
impl Ord for EnergyRank {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        use EnergyRank::{OverDeadline, WithinDeadline};
        match (self, other) {
            (WithinDeadline(a), WithinDeadline(b)) | (OverDeadline(a), OverDeadline(b)) => {
                a.total_cmp(b)
            }
            (WithinDeadline(_), OverDeadline(_)) => std::cmp::Ordering::Less,
            (OverDeadline(_), WithinDeadline(_)) => std::cmp::Ordering::Greater,
        }
    }
}

impl PartialOrd for EnergyRank {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for EnergyRank {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for EnergyRank {}

/// The `k` smallest of `items` by `cmp`, sorted; linear in `items` plus
/// `k log k`.
pub fn smallest<T>(
    mut items: Vec<T>,
    k: usize,
    cmp: impl Fn(&T, &T) -> std::cmp::Ordering,
) -> Vec<T> {
    if items.len() > k {
        if k > 0 {
            items.select_nth_unstable_by(k - 1, &cmp);
        }
        items.truncate(k);
    }
    items.sort_by(&cmp);
    items
}

/// A model's file and its analysis, as the charts and pages across models
/// read them.
#[derive(Debug, Clone, Copy)]
pub struct Analysed<'a> {
    pub file: &'a ModelFile,
    pub analysis: &'a ModelAnalysis,
}

/// One configuration of one model.
#[derive(Debug, Clone, Copy)]
pub struct ModelConfiguration<'a> {
    pub model: &'a ModelFile,
    pub config: &'a Configuration,
}

/// The configuration with the lowest energy on any of `models`' Pareto
/// frontiers (the first of equals); `None` when none has a frontier.
pub fn cheapest_on_frontiers<'a>(models: &[Analysed<'a>]) -> Option<ModelConfiguration<'a>> {
    models
        .iter()
        .flat_map(|&Analysed { file, analysis }| {
            analysis.frontier.iter().map(move |&i| ModelConfiguration {
                model: file,
                config: &file.configurations[i],
            })
        })
        .min_by(|a, b| a.config.energy().total_cmp(&b.config.energy()))
}

/// What a bar of best energy is ordered by ([`lowest_bars`]).
#[derive(Debug, Clone, Copy)]
pub struct BarRank<'a> {
    /// Best Wh per million output tokens.
    pub wh_per_million: f64,
    /// The model's name and the GPU, which break ties in that order.
    pub model: &'a str,
    pub gpu: &'a str,
}

/// The at most `cap` bars of `bars` with the lowest energy, lowest first;
/// ties by model name, then GPU. Each bar is ranked by `rank`.
pub fn lowest_bars<'a, T>(
    bars: Vec<&'a T>,
    cap: usize,
    rank: impl Fn(&'a T) -> BarRank<'a>,
) -> Vec<&'a T> {
    smallest(bars, cap, |a, b| {
        let (a, b) = (rank(a), rank(b));
        a.wh_per_million
            .total_cmp(&b.wh_per_million)
            .then_with(|| a.model.cmp(b.model))
            .then_with(|| a.gpu.cmp(b.gpu))
    })
}

/// The indexes of the first `k` of `all` by [`EnergyRank`], ties by the
/// order given. These are the frontiers the compare chart draws and the
/// compare page checks by default.
pub fn lowest_energy_first(all: &[Analysed<'_>], k: usize) -> Vec<usize> {
    let ranked: Vec<(EnergyRank, usize)> = all
        .iter()
        .enumerate()
        .map(|(i, m)| (EnergyRank::of(m.file, m.analysis), i))
        .collect();
    smallest(ranked, k, Ord::cmp)
        .into_iter()
        .map(|(_, i)| i)
        .collect()
}

/// Most models one compare page lists: past it the list goes on in
/// `page-2.html`, … (see [`compare_pages`]). The leaderboard's largest
/// workload has 18.
pub const COMPARE_PAGE_MODELS: usize = 50;

/// Most configurations one compare page draws and tables, so that no page
/// grows with the workload (about 1.3 KB each: two drawings and a row): a
/// model with more has a page of its own. The leaderboard's largest
/// workload has 638.
pub const COMPARE_PAGE_POINTS: usize = 1_500;

/// The compare pages of a workload's models, given each model's number of
/// configurations in the order the pages list them (lowest energy first):
/// consecutive ranges of at most [`COMPARE_PAGE_MODELS`] models and
/// [`COMPARE_PAGE_POINTS`] configurations (a model with more alone). At
/// least one range, empty for no model.
pub fn compare_pages(configurations: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut pages = Vec::new();
    let (mut start, mut points) = (0, 0);
    for (i, &n) in configurations.iter().enumerate() {
        let full = i - start == COMPARE_PAGE_MODELS || points + n > COMPARE_PAGE_POINTS;
        if i > start && full {
            pages.push(start..i);
            (start, points) = (i, 0);
        }
        points += n;
    }
    pages.push(start..configurations.len());
    pages
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

/// [`size_peers`] of every model of `models`, in their order, from one sort
/// by size: `n log n` for the workload, where a pass over every model per
/// model made 10,000 models in one workload cost 100 million comparisons.
///
/// The models sorted by (total parameters, slug) list each model's peers
/// outward from it: those of the same size (distance 0) in slug order, then,
/// group by group, the next smaller and the next larger size, the nearer
/// first and the smaller on a tie; within a group, slug order. That is
/// [`size_peers`]'s order, so the two agree exactly.
pub fn size_peers_of_all(models: &[&ModelFile]) -> Vec<Vec<usize>> {
    let size = |j: usize| models[j].params_b;
    let mut order: Vec<usize> = (0..models.len()).collect();
    order.sort_by(|&x, &y| {
        size(x)
            .total_cmp(&size(y))
            .then_with(|| models[x].slug.cmp(&models[y].slug))
    });
    let mut position = vec![0; models.len()];
    for (at, &j) in order.iter().enumerate() {
        position[j] = at;
    }
    (0..models.len())
        .map(|i| {
            let m = models[i];
            let distance = |j: usize| (size(j) - m.params_b).abs();
            let mut peers: Vec<usize> = Vec::with_capacity(PEERS);
            let take = |group: &[usize], peers: &mut Vec<usize>| {
                for &j in group {
                    if peers.len() == PEERS {
                        break;
                    }
                    if models[j].slug != m.slug {
                        peers.push(j);
                    }
                }
            };
            // The models of m's own size: [left, right) of `order`.
            let at = position[i];
            let left = order[..at].partition_point(|&j| size(j).total_cmp(&m.params_b).is_lt());
            let right =
                at + order[at..].partition_point(|&j| size(j).total_cmp(&m.params_b).is_le());
            take(&order[left..right], &mut peers);
            let (mut left, mut right) = (left, right);
            while peers.len() < PEERS && (left > 0 || right < order.len()) {
                // The nearest smaller sizes (all at one distance) end at
                // `left`; the nearest larger ones start at `right`. Distance
                // falls towards m from the left and grows away from it on
                // the right.
                let below = (left > 0).then(|| distance(order[left - 1]));
                let above = (right < order.len()).then(|| distance(order[right]));
                let smaller_first = match (below, above) {
                    (Some(b), Some(a)) => b.total_cmp(&a).is_le(),
                    (below, _) => below.is_some(),
                };
                if let (true, Some(d)) = (smaller_first, below) {
                    let start =
                        order[..left].partition_point(|&j| distance(j).total_cmp(&d).is_gt());
                    take(&order[start..left], &mut peers);
                    left = start;
                } else if let Some(d) = above {
                    let end = right
                        + order[right..].partition_point(|&j| distance(j).total_cmp(&d).is_le());
                    take(&order[right..end], &mut peers);
                    right = end;
                }
            }
            peers
        })
        .collect()
}

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
    let peers = size_peers_of_all(&files);
    let analyses: Vec<ModelAnalysis> = peers
        .into_par_iter()
        .enumerate()
        .map(|(i, peers)| ModelAnalysis {
            peers,
            ..analyse(files[i])
        })
        .collect();
    WorkloadAnalysis {
        leaderboard: leaderboard(&files, &analyses),
        models: analyses,
    }
}

/// The analysis stage: every workload analysed once, in the same order,
/// each model given its site-wide look ([`model_looks`]).
pub fn analyse_data(workloads: &[Workload]) -> Vec<WorkloadAnalysis> {
    let mut analysed: Vec<WorkloadAnalysis> = workloads
        .iter()
        .map(|w| analyse_workload(&w.models))
        .collect();
    let files: Vec<&ModelFile> = workloads
        .iter()
        .flat_map(|w| w.models.iter().map(|m| &m.file))
        .collect();
    let mut looks = model_looks(&files).into_iter();
    for wa in &mut analysed {
        for a in &mut wa.models {
            a.look = looks.next();
        }
    }
    analysed
}

/// How many models can be told apart on one chart: seven colours times
/// seven marker shapes (`chart::style::PALETTE_SIZE`, `chart::draw::Shape`).
pub const LOOKS: usize = 49;

/// Each model's look, one of [`LOOKS`], the same on every chart of the
/// site: a model is known by its source and its Hugging Face id, so the
/// same model keeps its look across workloads and pages. A look comes
/// from a stable hash of the id; when another model took it, the next
/// free one. The leaderboard's models choose first, in id order, then each
/// other source's, so importing a second source changes no leaderboard
/// model's look. Past [`LOOKS`] models, looks repeat.
pub fn model_looks(files: &[&ModelFile]) -> Vec<usize> {
    // Leaderboard first (no source id), then by source id, then model id.
    let identity = |m: &ModelFile| (m.source.id.clone(), m.model_id.clone());
    let identities: BTreeSet<(Option<String>, String)> =
        files.iter().map(|m| identity(m)).collect();
    let mut taken = [false; LOOKS];
    let mut look_of: HashMap<(Option<String>, String), usize> = HashMap::new();
    for id in identities {
        let wanted = stable_hash(&id.1) % LOOKS;
        let free = (0..LOOKS)
            .map(|k| (wanted + k) % LOOKS)
            .find(|&l| !taken[l]);
        let look = free.unwrap_or(wanted);
        taken[look] = true;
        look_of.insert(id, look);
    }
    files.iter().map(|m| look_of[&identity(m)]).collect()
}

/// FNV-1a of `text`: the same on every run and platform.
fn stable_hash(text: &str) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for b in text.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h as usize
}

/// One row of the leaderboard: a model's best configuration on one GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaderboardRow {
    /// Index of the model in the loaded data set.
    pub model: usize,
    /// Index of the configuration in that model's file.
    pub config: usize,
}

/// One model file's place in the site (`render::Mirror`): its workload
/// (index in the site's workloads) and its index among that workload's
/// models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModelId {
    pub part: usize,
    pub index: usize,
}

/// One workload's models and their analyses, as the site holds them.
#[derive(Debug, Clone, Copy)]
pub struct WorkloadModels<'a> {
    pub measure: crate::model::Measure,
    pub models: &'a [LoadedModel],
    pub analyses: &'a [ModelAnalysis],
}

/// A model on one per-token workload of several, at its lowest-energy
/// configuration there: a bar of the front page's chart across workloads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrossWorkloadPick {
    pub id: ModelId,
    /// The configuration's index in the model's file.
    pub config: usize,
    pub joules_per_response: f64,
}

/// Every model measured on two per-token workloads or more (`places`:
/// each model's places, in workload order), on each of them at its
/// lowest-energy configuration with an energy per response. Diffusion
/// workloads have no responses to compare.
pub fn cross_workload_picks<'p>(
    workloads: &[WorkloadModels<'_>],
    places: impl IntoIterator<Item = &'p [ModelId]>,
) -> Vec<CrossWorkloadPick> {
    let mut picks = Vec::new();
    for at in places {
        let tokens: Vec<&ModelId> = at
            .iter()
            .filter(|id| workloads[id.part].measure == crate::model::Measure::Tokens)
            .collect();
        if tokens.len() < 2 {
            continue;
        }
        for &id in tokens {
            let w = &workloads[id.part];
            let m = &w.models[id.index].file;
            let Some(config) = w.analyses[id.index].best_overall else {
                continue;
            };
            if let Some(joules) = m.configurations[config].joules_per_response() {
                picks.push(CrossWorkloadPick {
                    id,
                    config,
                    joules_per_response: joules,
                });
            }
        }
    }
    picks
}

/// The first row of `leaderboard` (rows of `models`, lowest energy first)
/// on `gpu` and from the source whose key is `source`, each when given:
/// the lowest-energy configuration there.
pub fn lowest_row(
    models: &[LoadedModel],
    leaderboard: &[LeaderboardRow],
    gpu: Option<&str>,
    source: Option<&str>,
) -> Option<LeaderboardRow> {
    leaderboard.iter().copied().find(|r| {
        let m = &models[r.model].file;
        let c = &m.configurations[r.config];
        gpu.is_none_or(|g| c.gpu == g) && source.is_none_or(|k| m.source.key() == k)
    })
}

/// Leaderboard rows for all models, lowest energy first (ties: slug, then GPU).
fn leaderboard(files: &[&ModelFile], analyses: &[ModelAnalysis]) -> Vec<LeaderboardRow> {
    let mut rows: Vec<LeaderboardRow> = analyses
        .iter()
        .enumerate()
        .flat_map(|(model, a)| {
            a.best_per_gpu
                .iter()
                .filter_map(move |b| b.best.map(|config| LeaderboardRow { model, config }))
        })
        .collect();
    rows.sort_by(|a, b| {
        let (ma, mb) = (files[a.model], files[b.model]);
        let (ca, cb) = (&ma.configurations[a.config], &mb.configurations[b.config]);
        ca.energy()
            .total_cmp(&cb.energy())
            .then_with(|| ma.slug.cmp(&mb.slug))
            .then_with(|| ca.gpu.cmp(&cb.gpu))
    });
    rows
}
