//! Energy per response from a configuration's output-length histogram:
//! each bin edge (tokens) × the configuration's energy per output token (J)
//! gives a histogram of energy per response, with its median and 90th
//! percentile read off by linear interpolation within a bin.

use crate::model::OutputLengthDistribution;

/// A histogram of energy per response, in joules.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseEnergy {
    /// Bin edges, J: the output-length edges × J per output token; one more
    /// than `counts`.
    pub edges_j: Vec<f64>,
    /// Responses per bin.
    pub counts: Vec<u64>,
    pub total: u64,
    /// Median energy per response, J ([`quantile`] at 0.5).
    pub median_j: f64,
    /// 90th percentile of energy per response, J ([`quantile`] at 0.9).
    pub p90_j: f64,
}

/// The histogram of energy per response of a configuration that spends
/// `joules_per_token` J per output token and whose responses have the
/// output lengths of `d`.
pub fn response_energy(joules_per_token: f64, d: &OutputLengthDistribution) -> ResponseEnergy {
    let edges_j: Vec<f64> = d.bins.iter().map(|t| t * joules_per_token).collect();
    ResponseEnergy {
        median_j: quantile(&edges_j, &d.counts, 0.5),
        p90_j: quantile(&edges_j, &d.counts, 0.9),
        total: d.total(),
        counts: d.counts.clone(),
        edges_j,
    }
}

/// The scale a model's energy-per-response histograms share, so that its
/// GPUs read alike.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResponseScale {
    /// The top edge over every histogram, J (0 with none).
    pub top_j: f64,
    /// Where the log-scale view starts, J: the lowest positive edge of any
    /// histogram; `None` (no log view) without a long tail.
    pub log_from_j: Option<f64>,
}

/// The shared scale of `histograms`. A long tail (the top edge ten times
/// the median or more, on any of them) gets a log-scale view too, from the
/// lowest positive edge of any, so they still share their scale.
pub fn shared_scale<'r>(
    histograms: impl Iterator<Item = &'r ResponseEnergy> + Clone,
) -> ResponseScale {
    let top = histograms
        .clone()
        .map(|r| r.edges_j.last().copied().unwrap_or(0.0))
        .fold(0.0, f64::max);
    let long_tail = histograms
        .clone()
        .any(|r| r.median_j > 0.0 && top >= 10.0 * r.median_j);
    let log_from = histograms
        .flat_map(|r| r.edges_j.iter().copied())
        .filter(|e| *e > 0.0)
        .fold(f64::INFINITY, f64::min);
    let log_from_j = (long_tail && log_from.is_finite() && log_from < top).then_some(log_from);
    ResponseScale {
        top_j: top,
        log_from_j,
    }
}

/// The `q` quantile (0 to 1) of a histogram with bin `edges` and `counts`,
/// the responses of each bin taken as spread evenly across it: the value at
/// which the cumulative count reaches `q × total`. In the bin `i` where it
/// does, with `before` responses in the bins below it, the value is
/// `edges[i] + (q × total − before) / counts[i] × (edges[i + 1] − edges[i])`.
/// Empty bins are skipped; an empty histogram gives the first edge.
pub fn quantile(edges: &[f64], counts: &[u64], q: f64) -> f64 {
    let total: f64 = counts.iter().map(|&c| c as f64).sum();
    let target = q.clamp(0.0, 1.0) * total;
    let mut before = 0.0;
    for (i, &c) in counts.iter().enumerate() {
        let c = c as f64;
        if c > 0.0 && before + c >= target {
            let (lo, hi) = (edges[i], edges[i + 1]);
            return lo + (target - before) / c * (hi - lo);
        }
        before += c;
    }
    edges.first().copied().unwrap_or(0.0)
}
