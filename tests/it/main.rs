//! The integration tests, one binary with a module per subject (as mdBook
//! and Cargo do), so the suite compiles and links once. Run one subject
//! with `cargo test --test it site::` (a name filter).

mod analyse;
mod assets;
mod bounded_inputs;
mod changes;
mod charts;
mod columns;
mod common;
mod exact;
mod fmt;
mod footprint;
mod fuzz;
mod hostile;
mod import;
mod import_safety;
mod labels;
mod load;
mod model;
mod page_scripts;
mod safety;
mod scale;
mod select;
mod serve;
mod settings;
mod site;
mod site_charts;
mod snapshots;
mod sources;
mod stage;
mod synth;
/// The benchmarks' data generator (`energyboard-synth`), as a module.
#[path = "../../bench/synth.rs"]
#[allow(dead_code)]
mod synthetic;
mod ui;
mod versions;
mod write;
