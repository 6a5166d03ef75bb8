//! The preview's incremental updates (`serve::Session`) leave the output
//! folder byte for byte as a full build of the same inputs would, after
//! each edit of a series: edits that touch one model, its workload's
//! peers, every page, or no file at all, files added and removed, a broken
//! file and its fix, a changed static file.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use energyboard::BuildOptions;
use energyboard::serve::Session;
use serde_json::Value;

/// Every file under `dir`, by `/`-separated path, with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap();
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            (rel.join("/"), fs::read(e.path()).unwrap())
        })
        .collect()
}

/// Panics, naming the first few differences, unless `got` and `want` hold
/// the same files with the same bytes.
fn assert_same(step: &str, got: &Path, want: &Path) {
    let (got, want) = (tree(got), tree(want));
    let mut differences = Vec::new();
    for (path, bytes) in &want {
        match got.get(path) {
            None => differences.push(format!("missing {path}")),
            Some(b) if b != bytes => differences.push(format!("differs {path}")),
            Some(_) => {}
        }
    }
    for path in got.keys() {
        if !want.contains_key(path) {
            differences.push(format!("extra {path}"));
        }
    }
    assert!(
        differences.is_empty(),
        "{step}: the updated folder is not what a full build gives ({} differences): {:?}",
        differences.len(),
        &differences[..differences.len().min(12)]
    );
}

struct Fixture {
    _dir: tempfile::TempDir,
    data: PathBuf,
    statics: PathBuf,
    out: PathBuf,
    reference: PathBuf,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        for (from, to) in [
            ("tests/fixtures/leaderboard/gpqa", "gpqa"),
            (
                "tests/fixtures/leaderboard/sourcegraph-fim",
                "sourcegraph-fim",
            ),
            ("tests/fixtures/diffusion/text-to-image", "text-to-image"),
        ] {
            fs::create_dir_all(data.join(to)).unwrap();
            for e in fs::read_dir(from).unwrap() {
                let e = e.unwrap();
                fs::copy(e.path(), data.join(to).join(e.file_name())).unwrap();
            }
        }
        let statics = dir.path().join("static");
        fs::create_dir(&statics).unwrap();
        let out = dir.path().join("site");
        let reference = dir.path().join("reference");
        Self {
            data,
            statics,
            out,
            reference,
            _dir: dir,
        }
    }

    fn opts(&self, out: &Path) -> BuildOptions {
        BuildOptions {
            data_dir: self.data.clone(),
            static_dir: self.statics.clone(),
            out_dir: out.to_path_buf(),
            base_url: Some("http://127.0.0.1:8000/".into()),
            ..BuildOptions::default()
        }
    }

    /// Builds the inputs in full into the reference folder and checks the
    /// session's folder against it.
    fn check(&self, step: &str) {
        energyboard::build(&BuildOptions {
            force: true,
            ..self.opts(&self.reference)
        })
        .unwrap_or_else(|e| panic!("{step}: reference build: {e:#}"));
        assert_same(step, &self.out, &self.reference);
    }

    fn edit(&self, rel: &str, change: impl FnOnce(&mut Value)) {
        let path = self.data.join(rel);
        let mut v: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        change(&mut v);
        // Written beside and renamed over, as editors save.
        let temp = path.with_extension("json.new");
        fs::write(&temp, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
        fs::rename(&temp, &path).unwrap();
    }
}

fn first_json(dir: &Path) -> String {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names.remove(0)
}

#[test]
fn every_update_gives_what_a_full_build_gives() {
    let f = Fixture::new();
    let mut session = Session::new(f.opts(&f.out));
    let first = session.update().unwrap();
    assert!(first.full, "{first}");
    f.check("first build");

    let none = session.update().unwrap();
    assert!(!none.full, "{none}");
    assert_eq!(
        (none.parsed, none.rendered, none.removed),
        (0, 0, 0),
        "{none}"
    );
    f.check("no change");

    let gpqa = format!("gpqa/{}", first_json(&f.data.join("gpqa")));
    f.edit(&gpqa, |v| v["name"] = "A Renamed Model".into());
    let renamed = session.update().unwrap();
    assert!(!renamed.full, "{renamed}");
    assert_eq!((renamed.parsed, renamed.rendered), (1, 1), "{renamed}");
    f.check("a model renamed");

    // A model's size: the other model pages of its workload link their
    // nearest peers by size.
    f.edit(&gpqa, |v| v["params_b"] = 1234.5.into());
    let resized = session.update().unwrap();
    assert!(!resized.full && resized.rendered > 1, "{resized}");
    f.check("a model resized");

    // A configuration that is no GPU's best goes: tables, curves, charts.
    f.edit(&gpqa, |v| {
        let best: Vec<Value> = v["best"]
            .as_object()
            .unwrap()
            .values()
            .map(|b| b["row_id"].clone())
            .collect();
        let configs = v["configurations"].as_array_mut().unwrap();
        let i = configs
            .iter()
            .rposition(|c| !best.contains(&c["row_id"]))
            .unwrap();
        configs.remove(i);
    });
    let fewer = session.update().unwrap();
    assert!(!fewer.full, "{fewer}");
    f.check("a configuration removed");

    let image = format!(
        "text-to-image/{}",
        first_json(&f.data.join("text-to-image"))
    );
    f.edit(&image, |v| v["name"] = "A Renamed Image Model".into());
    let diffusion = session.update().unwrap();
    assert!(!diffusion.full && diffusion.rendered == 1, "{diffusion}");
    f.check("a diffusion model renamed");

    // Provenance is on every page.
    f.edit(&gpqa, |v| v["source"]["compiled"] = "2026-03-01".into());
    let everywhere = session.update().unwrap();
    assert!(everywhere.full, "{everywhere}");
    f.check("a source date changed");

    // A broken file: an error, and the folder as it was.
    let before = tree(&f.out);
    fs::write(f.data.join(&gpqa), b"{ \"name\": ").unwrap();
    let err = session.update().unwrap_err();
    assert!(format!("{err:#}").contains("gpqa"), "{err:#}");
    assert_eq!(tree(&f.out), before, "a failed update changed the folder");
    f.edit(&image, |v| v["name"] = "Renamed Again".into());
    fs::write(
        f.data.join(&gpqa),
        serde_json::to_vec_pretty(&serde_json::json!(null)).unwrap(),
    )
    .unwrap();
    assert!(session.update().is_err());
    // Fixed: the file as first copied.
    fs::copy(
        Path::new("tests/fixtures/leaderboard").join(&gpqa),
        f.data.join(&gpqa),
    )
    .unwrap();
    let repaired = session.update().unwrap();
    f.check(&format!("a broken file fixed ({repaired})"));

    // A model removed, then back.
    let fim = format!(
        "sourcegraph-fim/{}",
        first_json(&f.data.join("sourcegraph-fim"))
    );
    let kept = fs::read(f.data.join(&fim)).unwrap();
    fs::remove_file(f.data.join(&fim)).unwrap();
    let removed = session.update().unwrap();
    f.check(&format!("a model removed ({removed})"));
    fs::write(f.data.join(&fim), &kept).unwrap();
    session.update().unwrap();
    f.check("a model added back");

    // The output folder deleted behind the session's back: the next
    // update renders it whole again.
    fs::remove_dir_all(&f.out).unwrap();
    f.edit(&image, |v| v["name"] = "Renamed Once More".into());
    let again = session.update().unwrap();
    assert!(again.full, "{again}");
    f.check("the output folder deleted");

    // A static file overridden.
    fs::write(f.statics.join("robots-extra.txt"), b"hello\n").unwrap();
    let assets = session.update().unwrap();
    assert!(assets.full, "{assets}");
    f.check("a static file added");
}
