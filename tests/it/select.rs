//! The selection rule: the cheapest row within a limit, its tie-breaks, the
//! best row per GPU, and the candidates the latency-limit control embeds.

use energyboard::select::{Figures, GpuBest, best_per_gpu, cheapest_within, limit_candidates};

fn row(energy: f64, latency: f64, num_gpus: u64, load: u64, repeat: u64) -> Figures {
    Figures {
        energy,
        latency,
        num_gpus,
        load,
        repeat,
    }
}

#[test]
fn ties_go_to_fewer_gpus_then_lower_load_then_repeat_then_the_earlier_row() {
    let rows = [
        row(1.0, 10.0, 2, 8, 1),
        row(1.0, 10.0, 1, 16, 1),
        row(1.0, 10.0, 1, 8, 2),
        row(1.0, 10.0, 1, 8, 1),
        row(1.0, 10.0, 1, 8, 1),
        row(0.5, 99.0, 1, 1, 1),
    ];
    let all = || rows.iter().copied().enumerate();
    assert_eq!(cheapest_within(all(), 50.0), Some(3));
    assert_eq!(cheapest_within(all(), 99.0), Some(5));
    assert_eq!(cheapest_within(all(), 5.0), None);
}

#[test]
fn best_per_gpu_follows_the_gpu_list_and_the_deadline() {
    let gpus = ["H100".to_owned(), "B200".to_owned(), "A100".to_owned()];
    let rows = [
        ("B200", row(3.0, 10.0, 1, 8, 1)),
        ("H100", row(2.0, 60.0, 1, 8, 1)),
        ("H100", row(4.0, 40.0, 1, 8, 1)),
        ("B200", row(1.0, 20.0, 1, 8, 1)),
        ("A100", row(1.0, 90.0, 1, 8, 1)),
    ];
    assert_eq!(
        best_per_gpu(&gpus, 50.0, rows),
        [("H100", Some(2)), ("B200", Some(3)), ("A100", None)].map(|(gpu, best)| GpuBest {
            gpu: gpu.to_owned(),
            best
        })
    );
}

#[test]
fn limit_candidates_give_the_cheapest_at_every_limit() {
    let rows = [
        row(5.0, 10.0, 1, 8, 1),
        row(3.0, 20.0, 1, 8, 1),
        row(4.0, 30.0, 1, 8, 1),
        row(1.0, 40.0, 1, 8, 1),
        row(1.0, 40.0, 1, 8, 2),
    ];
    let all = || rows.iter().copied().enumerate();
    let candidates = limit_candidates(all(), f64::INFINITY);
    assert_eq!(candidates, [3, 1, 0]);
    for limit in [0.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0] {
        let first = candidates
            .iter()
            .copied()
            .find(|&i| rows[i].latency <= limit);
        assert_eq!(first, cheapest_within(all(), limit), "limit {limit}");
    }
    assert_eq!(limit_candidates(all(), 39.0), [1, 0]);
}
