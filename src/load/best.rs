//! A file's `best` must be the best configuration per GPU that the
//! selection rule ([`select::best_per_gpu`]) picks from its own rows.

use std::path::Path;

use super::parse::push_key;
use super::{Problem, problem, shown};
use crate::columns::Words;
use crate::model::ModelFile;
use crate::select::{self, GpuBest};

/// The file's `best` must match the best this program computes, GPU by GPU.
/// A different configuration with the same energy is a tie, not a
/// disagreement.
pub(super) fn check_best(path: &Path, m: &ModelFile, out: &mut Vec<Problem>) {
    let stated_best = &m.best;
    // The kind's words: "median ITL" and "Wh/M", or "batch latency" and
    // "J/image"; the deadline with its unit, "500 ms".
    let words = Words::of(m.measure());
    let (latency, energy) = (words.latency_short, words.energy_short);
    let deadline = format!("{} {}", m.deadline(), words.latency_unit);
    let configs = &m.configurations;
    let rows = configs.iter().map(|c| (c.gpu.as_str(), c.figures()));
    let computed = select::best_per_gpu(m.gpus.as_slice(), m.deadline(), rows);
    let field = |gpu: &str| {
        let mut field = "best".to_owned();
        push_key(&mut field, gpu);
        field
    };
    for GpuBest { gpu, best } in &computed {
        let message = match (stated_best.get(gpu), best) {
            (None, Some(i)) => format!(
                "is missing; the best configuration under the {deadline} deadline is {}",
                shown(&configs[*i].row_id)
            ),
            (Some(stated), None) => format!(
                "names {} but no {} configuration has {latency} within the {deadline} deadline",
                shown(&stated.row_id),
                shown(gpu),
            ),
            (Some(stated), Some(i)) => {
                let ours = &configs[*i];
                let same_row = stated.row_id == ours.row_id;
                let named = configs.iter().find(|c| c.row_id == stated.row_id);
                let tie = named.is_some_and(|c| {
                    c.gpu == *gpu && c.latency() <= m.deadline() && c.energy() == ours.energy()
                });
                if !(same_row || tie) {
                    format!(
                        "names {} ({} {energy}) but the lowest-energy {} configuration within \
                            the {deadline} deadline is {} ({} {energy})",
                        shown(&stated.row_id),
                        stated.energy(),
                        shown(gpu),
                        shown(&ours.row_id),
                        ours.energy()
                    )
                } else if named != Some(stated) {
                    format!(
                        "names {} but its figures differ from that row in configurations",
                        shown(&stated.row_id)
                    )
                } else {
                    continue;
                }
            }
            (None, None) => continue,
        };
        out.push(problem(path, field(gpu), message));
    }
    for gpu in stated_best.keys() {
        if !computed.iter().any(|b| &b.gpu == gpu) {
            out.push(problem(
                path,
                field(gpu),
                format!(
                    "{gpu:?} is not in the file's gpus list {:?}",
                    m.gpus.as_slice()
                ),
            ));
        }
    }
}
