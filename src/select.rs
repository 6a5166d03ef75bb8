//! The selection rule, the one place it is written: which configuration is
//! a model's best on a GPU, or the cheapest within a latency limit.
//!
//! A configuration qualifies when its latency (median ITL in ms, or batch
//! latency in s) is at most the limit (the workload's deadline, or a rung
//! of the latency ladder). Among those that qualify the lowest energy wins
//! (Wh per million output tokens, or J per image or video); ties go to
//! fewer GPUs, then the lower load (`max_num_seqs`, or `batch_size`), then
//! the lower `repeat`, then the row earlier in the file.
//!
//! Pure and at the bottom of the crate: it imports nothing of it, so the
//! loader (which checks a file's stated `best`), the analysis and the
//! importer (which writes `best`) all call down to it. A caller hands over
//! each row's [`Figures`] with its position in the file.

use std::cmp::Ordering;

/// What the selection rule reads of one configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    /// The energy ranked on: Wh per million output tokens, or J per image or video.
    pub energy: f64,
    /// The latency a limit applies to: median ITL (ms), or batch latency (s).
    pub latency: f64,
    pub num_gpus: u64,
    /// The load it ran at: `max_num_seqs`, or `batch_size`.
    pub load: u64,
    /// Run number: 1, or 2+ for a repeated run.
    pub repeat: u64,
}

/// The selection order (the module doc's tie-breaks) among rows that meet
/// a limit, each given with its position in the file.
pub fn selection_order(a: &(usize, Figures), b: &(usize, Figures)) -> Ordering {
    a.1.energy
        .total_cmp(&b.1.energy)
        .then(a.1.num_gpus.cmp(&b.1.num_gpus))
        .then(a.1.load.cmp(&b.1.load))
        .then(a.1.repeat.cmp(&b.1.repeat))
        .then(a.0.cmp(&b.0))
}

/// The position of the row that comes first by [`selection_order`] among
/// `rows` (position, figures) whose latency is at most `limit`.
pub fn cheapest_within(
    rows: impl IntoIterator<Item = (usize, Figures)>,
    limit: f64,
) -> Option<usize> {
    rows.into_iter()
        .filter(|(_, f)| f.latency <= limit)
        .min_by(selection_order)
        .map(|(i, _)| i)
}

/// The best row on one GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuBest {
    pub gpu: String,
    /// The row's index, or `None` when no row on the GPU meets the limit.
    pub best: Option<usize>,
}

/// A model's best row on each GPU of `gpus`, in that order: the
/// [`cheapest_within`] the `deadline` among the `rows` (GPU, figures, in
/// file order) on that GPU, or `None` when none meets it.
pub fn best_per_gpu<'r>(
    gpus: &[String],
    deadline: f64,
    rows: impl IntoIterator<Item = (&'r str, Figures)>,
) -> Vec<GpuBest> {
    let rows: Vec<(&str, Figures)> = rows.into_iter().collect();
    gpus.iter()
        .map(|gpu| {
            let on_gpu = rows
                .iter()
                .enumerate()
                .filter(|(_, (g, _))| g == gpu)
                .map(|(i, (_, f))| (i, *f));
            GpuBest {
                gpu: gpu.clone(),
                best: cheapest_within(on_gpu, deadline),
            }
        })
        .collect()
}

/// The rows [`cheapest_within`] picks for some limit up to `max`, each
/// once, in [`selection_order`] (cheapest first). For any limit `l ≤ max`,
/// the first of them whose latency is at most `l` is exactly
/// `cheapest_within(rows, l)`: the answer at `l` is the answer at the
/// largest latency not above `l`, which is in the list, and no earlier
/// entry is within `l` (it would then have been the answer). This is what
/// the pages' latency-limit control embeds, so a reader's script picks the
/// same row as the analysis (ties and repeats included) without every
/// configuration of the page.
pub fn limit_candidates(rows: impl IntoIterator<Item = (usize, Figures)>, max: f64) -> Vec<usize> {
    let mut by_latency: Vec<(usize, Figures)> =
        rows.into_iter().filter(|(_, f)| f.latency <= max).collect();
    by_latency.sort_by(|a, b| a.1.latency.total_cmp(&b.1.latency));
    let mut picked: Vec<(usize, Figures)> = Vec::new();
    let mut best: Option<(usize, Figures)> = None;
    // Every row at one latency joins before the answer at it is read.
    for same_latency in by_latency.chunk_by(|a, b| a.1.latency == b.1.latency) {
        best = same_latency
            .iter()
            .copied()
            .chain(best)
            .min_by(selection_order);
        if let Some(b) = best
            && !picked.iter().any(|p| p.0 == b.0)
        {
            picked.push(b);
        }
    }
    picked.sort_by(selection_order);
    picked.into_iter().map(|(i, _)| i).collect()
}
