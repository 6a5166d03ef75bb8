//! Property tests of the loader and the analysis: arbitrary bytes, seed
//! files with random bytes edited, and seed-shaped documents with extreme
//! numbers, odd strings, dropped fields and deep nesting. Whatever comes in,
//! nothing panics or hangs, and the result is either a model or problems
//! that name the file.
//!
//! The case counts are small so that the whole file runs in a few seconds
//! of a debug build, in every `cargo test` and `./test.sh` (proptest draws
//! new cases each run; a failing case is kept in fuzz.proptest-regressions
//! and tried first). For a deeper run, `ENERGYBOARD_FUZZ_CASES` (or
//! proptest's own `PROPTEST_CASES`) sets the number of cases of every test:
//!
//! ```text
//! ENERGYBOARD_FUZZ_CASES=200000 cargo test --release --test it fuzz::
//! ```

use std::path::Path;
use std::sync::OnceLock;

use energyboard::analyse::analyse;
use energyboard::load::{self, Problem, parse_model, read_model_file, validate_model};
use energyboard::model::ModelFile;
use energyboard::select::GpuBest;
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const SEEDS: [&str; 2] = ["qwen-3-32b", "qwen-3-30b-a3b-instruct"];
/// The path every in-memory document is said to come from.
const FUZZ_PATH: &str = "data/fuzz-model.json";

/// `cases` unless `ENERGYBOARD_FUZZ_CASES` or `PROPTEST_CASES` asks for
/// another number.
fn cases(cases: u32) -> Config {
    let cases = ["ENERGYBOARD_FUZZ_CASES", "PROPTEST_CASES"]
        .iter()
        .find_map(|name| std::env::var(name).ok()?.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        ..Config::default()
    }
}

fn seed_text(i: usize) -> &'static str {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    &TEXTS.get_or_init(|| {
        SEEDS
            .iter()
            .map(|s| {
                std::fs::read_to_string(
                    Path::new(ROOT).join(format!("tests/fixtures/seeds/{s}.json")),
                )
                .unwrap()
            })
            .collect()
    })[i]
}

fn seed_value(i: usize) -> Value {
    static VALUES: OnceLock<Vec<Value>> = OnceLock::new();
    VALUES.get_or_init(|| {
        (0..SEEDS.len())
            .map(|i| serde_json::from_str(seed_text(i)).unwrap())
            .collect()
    })[i]
        .clone()
}

fn assert_names_the_file(problems: &[Problem], path: &Path) {
    assert!(!problems.is_empty(), "an error with no problems");
    for p in problems {
        assert_eq!(p.path, path, "problem names another file: {p}");
        assert!(!p.field.is_empty(), "problem names no field: {p}");
        assert!(!p.message.is_empty(), "problem says nothing: {p}");
        assert!(
            !p.to_string().chars().any(char::is_control),
            "problem would print control characters: {p:?}"
        );
    }
}

/// Parses, validates and analyses `bytes` as if read from `FUZZ_PATH`;
/// returns the model when it is valid.
fn load_bytes(bytes: &[u8]) -> Option<ModelFile> {
    let path = Path::new(FUZZ_PATH);
    let model = match parse_model(path, bytes) {
        Ok(model) => model,
        Err(problem) => {
            assert_names_the_file(&[problem], path);
            return None;
        }
    };
    // The analysis is pure and must not panic even on data that fails
    // validation (the pipeline never gives it such data, but a panic would
    // show an unchecked index or division).
    let analysis = analyse(&model);
    let problems = validate_model(path, &model);
    if !problems.is_empty() {
        assert_names_the_file(&problems, path);
        return None;
    }
    check_analysis(&model, &analysis);
    Some(model)
}

/// What must hold for the analysis of any valid model.
fn check_analysis(m: &ModelFile, a: &energyboard::analyse::ModelAnalysis) {
    let n = m.configurations.len();
    assert_eq!(a.best_per_gpu.len(), m.gpus.len());
    for GpuBest { gpu, best } in &a.best_per_gpu {
        if let Some(i) = best {
            let c = &m.configurations[*i];
            assert_eq!(&c.gpu, gpu);
            assert!(c.median_itl_ms.unwrap() <= m.deadline());
        }
    }
    assert!(!a.frontier.is_empty() && a.frontier.iter().all(|&i| i < n));
    let mut points: Vec<usize> = a.curves.iter().flat_map(|s| s.points.clone()).collect();
    points.sort_unstable();
    assert_eq!(
        points,
        (0..n).collect::<Vec<_>>(),
        "curves drop or repeat rows"
    );
    assert_eq!(a.budgets.last().map(|b| b.is_deadline), Some(true));
}

// ---------------------------------------------------------------------------
// Bytes.

/// Pieces of JSON and of things that are not JSON, strung together.
fn json_ish_bytes() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        Just(b"{".to_vec()),
        Just(b"}".to_vec()),
        Just(b"[".to_vec()),
        Just(b"]".to_vec()),
        Just(b":".to_vec()),
        Just(b",".to_vec()),
        Just(b"\"".to_vec()),
        Just(b"\"slug\"".to_vec()),
        Just(b"\"configurations\"".to_vec()),
        Just(b"null".to_vec()),
        Just(b"true".to_vec()),
        Just(b"1e400".to_vec()),
        Just(b"-0".to_vec()),
        Just(b"NaN".to_vec()),
        Just(b"\\u0000".to_vec()),
        Just(b"\\ud800".to_vec()),
        Just(b"\xef\xbb\xbf".to_vec()),
        Just(b"\xff".to_vec()),
        Just(b"\xc3".to_vec()),
        Just(b" \n\t".to_vec()),
        any::<i64>().prop_map(|n| n.to_string().into_bytes()),
        any::<f64>().prop_map(|n| n.to_string().into_bytes()),
        "[a-z0-9 ./<>-]{0,8}".prop_map(|s| format!("\"{s}\"").into_bytes()),
    ];
    prop::collection::vec(token, 0..64).prop_map(|t| t.concat())
}

/// A seed file with a few bytes replaced, inserted or deleted, perhaps cut.
fn edited_seed_bytes() -> impl Strategy<Value = Vec<u8>> {
    let edit = (any::<prop::sample::Index>(), 0u8..4, any::<u8>());
    (
        0..SEEDS.len(),
        prop::collection::vec(edit, 1..6),
        prop::option::of(any::<prop::sample::Index>()),
    )
        .prop_map(|(seed, edits, cut)| {
            let mut bytes = seed_text(seed).as_bytes().to_vec();
            for (at, kind, byte) in edits {
                if bytes.is_empty() {
                    break;
                }
                let i = at.index(bytes.len());
                match kind {
                    0 => bytes[i] = byte,
                    1 => bytes.insert(i, byte),
                    2 => {
                        bytes.remove(i);
                    }
                    _ => bytes[i] = b"{}[]\",:0-e."[usize::from(byte) % 11],
                }
            }
            if let Some(cut) = cut {
                bytes.truncate(cut.index(bytes.len() + 1));
            }
            bytes
        })
}

proptest! {
    #![proptest_config(cases(80))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..1024)) {
        load_bytes(&bytes);
    }

    #[test]
    fn json_ish_bytes_never_panic(bytes in json_ish_bytes()) {
        load_bytes(&bytes);
    }

    #[test]
    fn edited_seed_files_load_or_name_the_file(bytes in edited_seed_bytes()) {
        load_bytes(&bytes);
    }
}

// ---------------------------------------------------------------------------
// Seed-shaped documents.

/// What a mutation puts at, or does to, one place in the document.
#[derive(Debug, Clone)]
enum Change {
    /// Number text written as is, so it may be out of range or not JSON.
    Number(String),
    /// The number there times this factor.
    Scale(f64),
    Text(String),
    Bool(bool),
    Null,
    Remove,
    Empty,
    /// Wrap the value in this many arrays.
    Nest(usize),
    /// Append a copy of one element (an array) or of the whole value's
    /// first entry (an object gets it under a new key).
    Duplicate,
    /// Put here a copy of the value at another place.
    CopyFrom(prop::sample::Index),
}

fn extreme_number() -> impl Strategy<Value = String> {
    let special = prop::sample::select(vec![
        "0",
        "-0",
        "0.0",
        "-1",
        "1e308",
        "-1e308",
        "1.7976931348623157e308",
        "1e309",
        "1e400",
        "-1e400",
        "5e-324",
        "1e-400",
        "4294967295",
        "4294967296",
        "-4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "123456789012345678901234567890",
        "0.000000001",
        "2.5",
        "NaN",
        "Infinity",
        "-Infinity",
        "1e",
        "01",
    ]);
    prop_oneof![
        special.prop_map(str::to_owned),
        any::<f64>()
            .prop_filter("JSON has no NaN or infinity", |f| f.is_finite())
            .prop_map(|f| format!("{f:e}")),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u32>().prop_map(|n| n.to_string()),
    ]
}

fn odd_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "",
            " ",
            "NaN",
            "inf",
            "-1",
            "fast",
            "../etc",
            "a/b",
            "<script>alert(1)</script>",
            "B200",
            "H100",
            "\u{0}",
            "qwen-3-32b",
            "qwen-3-32b/H100/2/256",
            "javascript:alert(1)",
            "\u{1b}[2J\u{1b}[31mred",
            "two\nlines",
            "https://ml.energy/",
        ])
        .prop_map(str::to_owned),
        any::<String>(),
    ]
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        4 => extreme_number().prop_map(Change::Number),
        3 => prop::sample::select(vec![-1.0, 0.0, 1e-12, 0.5, 0.999_9, 1.000_1, 1.01, 2.0, 1e12, 1e300])
            .prop_map(Change::Scale),
        2 => odd_text().prop_map(Change::Text),
        1 => any::<bool>().prop_map(Change::Bool),
        1 => Just(Change::Null),
        2 => Just(Change::Remove),
        1 => Just(Change::Empty),
        1 => prop_oneof![1usize..8, 120usize..140, 10_000usize..20_000].prop_map(Change::Nest),
        2 => Just(Change::Duplicate),
        2 => any::<prop::sample::Index>().prop_map(Change::CopyFrom),
    ]
}

/// JSON pointers to every value in `v`, the root included.
fn pointers(v: &Value, at: &str, out: &mut Vec<String>) {
    out.push(at.to_owned());
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let key = k.replace('~', "~0").replace('/', "~1");
                pointers(child, &format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Whether `change` puts a value of the kind `v` already has.
fn same_kind(change: &Change, v: &Value) -> bool {
    match change {
        Change::Number(_) | Change::Scale(_) => v.is_number(),
        Change::Text(_) => v.is_string(),
        Change::Bool(_) => v.is_boolean(),
        _ => true,
    }
}

/// Applies `change` at the place `at` picks (among values of the same kind
/// when `same_kind` says so, to get past the parser into validation); raw
/// number texts go into `raw`, and a placeholder string into the document.
fn apply(
    doc: &mut Value,
    (at, keep_kind): (prop::sample::Index, bool),
    change: &Change,
    raw: &mut Vec<String>,
) {
    let mut all = Vec::new();
    pointers(doc, "", &mut all);
    let kind: Vec<&String> = all
        .iter()
        .filter(|p| doc.pointer(p).is_some_and(|v| same_kind(change, v)))
        .collect();
    let target = if keep_kind && !kind.is_empty() {
        kind[at.index(kind.len())].clone()
    } else {
        all[at.index(all.len())].clone()
    };
    let new = match change {
        Change::Scale(factor) => {
            let old = doc.pointer(&target).cloned().unwrap_or(Value::Null);
            let whole = old.is_u64() || old.is_i64();
            let scaled = old.as_f64().unwrap_or(1.0) * factor;
            raw.push(if !scaled.is_finite() {
                "1e400".to_owned()
            } else if whole && scaled.abs() < 1e15 {
                format!("{}", scaled.round() as i64)
            } else {
                format!("{scaled:?}")
            });
            Value::String(format!("\u{1}{}\u{1}", raw.len() - 1))
        }
        Change::Number(text) => {
            raw.push(text.clone());
            Value::String(format!("\u{1}{}\u{1}", raw.len() - 1))
        }
        Change::Text(s) => Value::String(s.clone()),
        Change::Bool(b) => Value::Bool(*b),
        Change::Null => Value::Null,
        Change::Empty => match doc.pointer(&target) {
            Some(Value::Object(_)) => Value::Object(serde_json::Map::new()),
            _ => Value::Array(Vec::new()),
        },
        Change::Nest(depth) => {
            // Written as text: a deep `Value` would overflow the test's own
            // stack when serialised or dropped.
            let inner = doc
                .pointer(&target)
                .map_or("null".to_owned(), Value::to_string);
            raw.push(format!(
                "{}{inner}{}",
                "[".repeat(*depth),
                "]".repeat(*depth)
            ));
            Value::String(format!("\u{1}{}\u{1}", raw.len() - 1))
        }
        Change::CopyFrom(from) => doc
            .pointer(&all[from.index(all.len())])
            .cloned()
            .unwrap_or(Value::Null),
        Change::Duplicate => {
            match doc.pointer_mut(&target) {
                Some(Value::Array(items)) if !items.is_empty() => {
                    let copy = items[0].clone();
                    items.push(copy);
                }
                Some(Value::Object(map)) => {
                    if let Some((_, first)) = map.iter().next() {
                        let copy = first.clone();
                        map.insert("B200 ".to_owned(), copy);
                    }
                }
                _ => {}
            }
            return;
        }
        Change::Remove => {
            if let Some((parent, last)) = target.rsplit_once('/') {
                match doc.pointer_mut(parent) {
                    Some(Value::Object(map)) => {
                        map.remove(&last.replace("~1", "/").replace("~0", "~"));
                    }
                    Some(Value::Array(items)) => {
                        if let Ok(i) = last.parse::<usize>() {
                            items.remove(i);
                        }
                    }
                    _ => {}
                }
            }
            return;
        }
    };
    if let Some(slot) = doc.pointer_mut(&target) {
        *slot = new;
    }
}

/// A seed document with 1 to 5 changes, as bytes.
fn mutated_seed() -> impl Strategy<Value = Vec<u8>> {
    (
        0..SEEDS.len(),
        prop::collection::vec(
            (
                (any::<prop::sample::Index>(), prop::bool::weighted(0.8)),
                change(),
            ),
            1..6,
        ),
    )
        .prop_map(|(seed, changes)| {
            let mut doc = seed_value(seed);
            let mut raw = Vec::new();
            for (at, change) in &changes {
                apply(&mut doc, *at, change, &mut raw);
            }
            let mut text = serde_json::to_string_pretty(&doc).unwrap();
            for (i, number) in raw.iter().enumerate() {
                text = text.replace(&format!("\"\\u0001{i}\\u0001\""), number);
            }
            text.into_bytes()
        })
}

proptest! {
    #![proptest_config(cases(100))]

    #[test]
    fn mutated_seed_documents_load_or_name_the_file(bytes in mutated_seed()) {
        load_bytes(&bytes);
    }
}

// ---------------------------------------------------------------------------
// Through the file system and the whole check, fewer cases.

proptest! {
    #![proptest_config(cases(16))]

    #[test]
    fn read_model_file_names_the_file(bytes in prop_oneof![
        prop::collection::vec(any::<u8>(), 0..256),
        edited_seed_bytes(),
        mutated_seed(),
    ]) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.json");
        std::fs::write(&path, &bytes).unwrap();
        if let Err(problems) = read_model_file(&path) {
            assert_names_the_file(&problems, &path);
        }
    }

    #[test]
    fn check_passes_or_names_the_file(bytes in prop_oneof![
        1 => edited_seed_bytes(),
        3 => mutated_seed(),
    ]) {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir(&data).unwrap();
        let file = data.join("model.json");
        std::fs::write(&file, &bytes).unwrap();
        let opts = energyboard::BuildOptions {
            data_dir: data.clone(),
            static_dir: Path::new(ROOT).join("static"),
            out_dir: dir.path().join("site"),
            ..energyboard::BuildOptions::default()
        };
        match energyboard::check(&opts) {
            Ok(summary) => {
                prop_assert_eq!(summary.models, 1);
                prop_assert!(load::load_data_dir(&data).is_ok());
            }
            Err(err) => {
                let message = format!("{err:#}");
                prop_assert!(
                    message.contains(&file.display().to_string()),
                    "the error does not name {}: {}", file.display(), message
                );
            }
        }
        prop_assert!(!dir.path().join("site").exists(), "check wrote a site");
    }
}

// ---------------------------------------------------------------------------
// Values JSON cannot carry (NaN, infinity) straight into validation.

const POSITIVE: [&str; 9] = [
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "median_itl_ms",
    "p90_itl_ms",
    "p95_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "gpu_power_watts_total",
    "avg_output_tokens",
];

proptest! {
    #![proptest_config(cases(60))]

    #[test]
    fn impossible_quantities_are_named_by_validation(
        seed in 0..SEEDS.len(),
        row in any::<prop::sample::Index>(),
        field in 0..POSITIVE.len(),
        value in prop_oneof![
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            Just(0.0),
            Just(-0.0),
            (-1e300..0.0f64),
        ],
    ) {
        let path = Path::new(FUZZ_PATH);
        let mut m: ModelFile = serde_json::from_str(seed_text(seed)).unwrap();
        let i = row.index(m.configurations.len());
        let c = &mut m.configurations[i];
        if POSITIVE[field] == "gpu_power_watts_total" {
            c.gpu_power_watts_total = value;
        }
        let slot = match POSITIVE[field] {
            "wh_per_million_output_tokens" => &mut c.wh_per_million_output_tokens,
            "joules_per_output_token" => &mut c.joules_per_output_token,
            "median_itl_ms" => &mut c.median_itl_ms,
            "p90_itl_ms" => &mut c.p90_itl_ms,
            "p95_itl_ms" => &mut c.p95_itl_ms,
            "p99_itl_ms" => &mut c.p99_itl_ms,
            "tokens_per_second" => &mut c.tokens_per_second,
            "gpu_power_watts_total" => &mut None,
            _ => &mut c.avg_output_tokens,
        };
        if slot.is_some() {
            *slot = Some(value);
        }
        let _ = analyse(&m);
        let problems = validate_model(path, &m);
        let want = format!("configurations[{i}].{}", POSITIVE[field]);
        prop_assert!(
            problems.iter().any(|p| p.field == want),
            "no problem for {} = {}: {:?}", want, value, problems
        );
        assert_names_the_file(&problems, path);
    }

    #[test]
    fn zero_counts_are_named_by_validation(
        seed in 0..SEEDS.len(),
        row in any::<prop::sample::Index>(),
        field in prop::sample::select(vec!["num_gpus", "max_num_seqs"]),
    ) {
        let path = Path::new(FUZZ_PATH);
        let mut m: ModelFile = serde_json::from_str(seed_text(seed)).unwrap();
        let i = row.index(m.configurations.len());
        if field == "num_gpus" {
            m.configurations[i].num_gpus = 0;
        } else {
            m.configurations[i].max_num_seqs = Some(0);
        }
        let _ = analyse(&m);
        let problems = validate_model(path, &m);
        let want = format!("configurations[{i}].{field}");
        prop_assert!(problems.iter().any(|p| p.field == want && p.message.contains("must be 1 or more")));
    }
}

// ---------------------------------------------------------------------------
// The limits of the format (src/load/limits.rs).

/// Each quantity of a configuration with its upper limit.
const LIMITED: [(&str, f64); 11] = [
    ("wh_per_million_output_tokens", 1e9),
    ("joules_per_output_token", 3.6e6),
    ("median_itl_ms", 1e7),
    ("p90_itl_ms", 1e7),
    ("p95_itl_ms", 1e7),
    ("p99_itl_ms", 1e7),
    ("tokens_per_second", 1e9),
    ("gpu_power_watts_total", 1e9),
    ("avg_output_tokens", 1e9),
    ("avg_requests_in_flight", 1e9),
    ("avg_running_batch", 1e9),
];

/// The JSON path validation uses for a JSON pointer into a model file,
/// e.g. `/configurations/3/gpu` → `configurations[3].gpu`.
fn field_of(pointer: &str) -> String {
    let mut out = String::new();
    for part in pointer.split('/').skip(1) {
        if part.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{part}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(part);
        }
    }
    out
}

proptest! {
    #![proptest_config(cases(60))]

    #[test]
    fn out_of_range_quantities_are_named_by_validation(
        seed in 0..SEEDS.len(),
        row in any::<prop::sample::Index>(),
        field in 0..LIMITED.len(),
        factor in prop_oneof![1.000_001..10.0f64, 10.0..1e300f64],
    ) {
        let (name, limit) = LIMITED[field];
        let value = (limit * factor).min(f64::MAX);
        let mut v = seed_value(seed);
        let i = row.index(v["configurations"].as_array().unwrap().len());
        v["configurations"][i][name] = serde_json::json!(value);
        let bytes = serde_json::to_vec(&v).unwrap();
        let path = Path::new(FUZZ_PATH);
        let m = parse_model(path, &bytes).unwrap();
        let problems = validate_model(path, &m);
        let want = format!("configurations[{i}].{name}");
        prop_assert!(
            problems.iter().any(|p| p.field == want && p.message.contains("is out of range")),
            "no range problem for {} = {}: {:?}", want, value, problems
        );
        for p in &problems {
            prop_assert!(p.message.len() < 600, "a long message: {}", p);
        }
    }

    #[test]
    fn control_characters_in_any_text_are_named_by_validation(
        seed in 0..SEEDS.len(),
        at in any::<prop::sample::Index>(),
        position in any::<prop::sample::Index>(),
        control in prop_oneof![0u32..0x20, Just(0x7f), 0x80u32..0xa0],
    ) {
        let mut v = seed_value(seed);
        let mut all = Vec::new();
        pointers(&v, "", &mut all);
        // Text fields outside `best`, whose rows are checked against the
        // configurations they repeat.
        let texts: Vec<String> = all
            .into_iter()
            .filter(|p| !p.starts_with("/best") && v.pointer(p).is_some_and(Value::is_string))
            .collect();
        let pointer = at.get(&texts).clone();
        let text = v.pointer_mut(&pointer).unwrap();
        let mut chars: Vec<char> = text.as_str().unwrap().chars().collect();
        let c = char::from_u32(control).unwrap();
        chars.insert(position.index(chars.len() + 1), c);
        *text = Value::String(chars.into_iter().collect());
        let bytes = serde_json::to_vec(&v).unwrap();
        let path = Path::new(FUZZ_PATH);
        let m = parse_model(path, &bytes).unwrap();
        let problems = validate_model(path, &m);
        let want = field_of(&pointer);
        prop_assert!(
            problems.iter().any(|p| p.field == want && p.message.contains("control character")),
            "no control-character problem for {}: {:?}", want, problems
        );
        assert_names_the_file(&problems, path);
    }

    #[test]
    fn dates_pass_exactly_when_they_are_real_iso_dates(
        seed in 0..SEEDS.len(),
        field in prop::sample::select(vec![
            "/updated", "/data_version", "/source/released", "/source/compiled", "/source/retrieved",
        ]),
        date in prop_oneof![
            (0u32..3000, 0u32..14, 0u32..33).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}")),
            "[0-9 /.T:-]{0,12}",
        ],
    ) {
        let mut v = seed_value(seed);
        *v.pointer_mut(field).unwrap() = Value::String(date.clone());
        let bytes = serde_json::to_vec(&v).unwrap();
        let path = Path::new(FUZZ_PATH);
        let m = parse_model(path, &bytes).unwrap();
        let problems = validate_model(path, &m);
        let refused = problems.iter().any(|p| p.field == field_of(field));
        prop_assert_eq!(refused, !energyboard::load::limits::is_iso_date(&date), "{}", date);
    }

    #[test]
    fn parallel_degrees_that_break_the_rule_load_and_are_marked_exactly_then(
        seed in 0..SEEDS.len(),
        row in any::<prop::sample::Index>(),
        degrees in (1u32..10, 1u32..10, 1u32..10, 1u32..10),
    ) {
        let (n, tp, dp, ep) = degrees;
        let mut v = seed_value(seed);
        let i = row.index(v["configurations"].as_array().unwrap().len());
        let c = &mut v["configurations"][i];
        c["num_gpus"] = serde_json::json!(n);
        c["tensor_parallel"] = serde_json::json!(tp);
        c["data_parallel"] = serde_json::json!(dp);
        c["expert_parallel"] = serde_json::json!(ep);
        let bytes = serde_json::to_vec(&v).unwrap();
        let path = Path::new(FUZZ_PATH);
        let m = parse_model(path, &bytes).unwrap();
        let problems = validate_model(path, &m);
        // Published versions before 2026-02-16 broke the rule: a mirror
        // shows them as published, marked on the page.
        let want = format!("configurations[{i}].num_gpus");
        prop_assert!(!problems.iter().any(|p| p.field == want), "{:?}", degrees);
        let fits = (ep == 1 && tp * dp == n) || (ep == n && (tp * dp == n || tp * dp == 1));
        let marked = m.configurations[i].parallelism().contains("as recorded upstream");
        prop_assert_eq!(marked, !fits, "{:?}", degrees);
    }
}
