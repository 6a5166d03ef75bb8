//! Synthetic model files made from the seeds: valid, reproducible, with
//! their best rows recomputed, written to a folder of their own.

use std::path::{Path, PathBuf};

use crate::synthetic::{SYNTH_WORKLOADS, SynthOptions, synthesise, write_synthetic};
use energyboard::analyse::best_per_gpu;
use energyboard::load::{load_data_dir, validate_model};
use energyboard::model::ModelFile;
use energyboard::select::GpuBest;
use energyboard::{BuildOptions, check};

fn seeds() -> Vec<ModelFile> {
    load_data_dir(Path::new("tests/fixtures/seeds"))
        .unwrap()
        .models
        .into_iter()
        .map(|m| m.file)
        .collect()
}

#[test]
fn synthetic_models_pass_validation() {
    let seeds = seeds();
    for i in 0..200 {
        let m = synthesise(&seeds[i % seeds.len()], i, 3, 7);
        let problems = validate_model(Path::new("synthetic.json"), &m);
        assert!(problems.is_empty(), "model {i}: {problems:?}");
        for c in &m.configurations {
            let derived = c.joules_per_output_token.unwrap() * 1e6 / 3600.0;
            // Half a unit in the second decimal, plus float noise.
            let gap = (derived - c.wh_per_million_output_tokens.unwrap()).abs();
            assert!(gap <= 0.005 + 1e-9, "{gap}");
            assert!(c.row_id.starts_with(&format!("{}/", m.slug)));
        }
        let id = m.workload_ref().unwrap().id;
        assert_eq!(id, SYNTH_WORKLOADS[i % 5].0);
    }
}

#[test]
fn same_seed_same_model_and_other_seed_other_numbers() {
    let seeds = seeds();
    let a = synthesise(&seeds[0], 42, 4, 1);
    assert_eq!(a, synthesise(&seeds[0], 42, 4, 1));
    let b = synthesise(&seeds[0], 42, 4, 2);
    assert_eq!(a.slug, b.slug);
    let joules = |m: &ModelFile| m.configurations[0].joules_per_output_token.unwrap();
    assert_ne!(joules(&a), joules(&b));
    assert_ne!(joules(&a), joules(&synthesise(&seeds[0], 43, 4, 1)));
}

#[test]
fn best_is_recomputed_after_jitter() {
    let seeds = seeds();
    let m = synthesise(&seeds[0], 5, 1, 9);
    for GpuBest { gpu, best } in best_per_gpu(&m) {
        let stated = &m.best[&gpu];
        assert_eq!(**stated, m.configurations[best.unwrap()]);
    }
}

#[test]
fn writes_a_loadable_folder_and_refuses_a_foreign_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("synth");
    let opts = SynthOptions {
        data_dir: PathBuf::from("tests/fixtures/seeds"),
        out_dir: out.clone(),
        count: 100,
        seed: 3,
        force: false,
        workloads: SYNTH_WORKLOADS.len(),
    };
    let summary = write_synthetic(&opts).unwrap();
    assert_eq!(summary.files, 100);
    let checked = check(&BuildOptions {
        data_dir: out.clone(),
        ..BuildOptions::default()
    })
    .unwrap();
    assert_eq!(checked.models, 100);
    let first = out.join("qwen-3-30b-a3b-instruct-synth-00.json");
    let bytes = std::fs::read(&first).unwrap();
    // Rewriting its own folder is allowed and gives the same bytes.
    write_synthetic(&opts).unwrap();
    assert_eq!(std::fs::read(&first).unwrap(), bytes);

    let foreign = dir.path().join("mine");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "keep").unwrap();
    let err = write_synthetic(&SynthOptions {
        out_dir: foreign.clone(),
        ..opts
    })
    .unwrap_err();
    assert!(
        format!("{err:#}").contains("not built by energyboard"),
        "{err:#}"
    );
    assert_eq!(std::fs::read_dir(&foreign).unwrap().count(), 1);
}
