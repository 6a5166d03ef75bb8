//! Every text and number from an input is bounded and checked in one place
//! (`load::limits`), for model files and the settings file alike (issue
//! 25): workload names and descriptions in `energyboard.toml`, histogram
//! edges, tiny or huge measured values, and GPU names that are device
//! names, full-width or hold bidirectional controls. `check` runs the
//! real binary on a copy of the repository's data.

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const BIN: &str = env!("CARGO_BIN_EXE_energyboard");

/// A copy of the repository's data folder.
fn data_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in walkdir::WalkDir::new(Path::new(ROOT).join("data")) {
        let entry = entry.unwrap();
        let rel = entry
            .path()
            .strip_prefix(Path::new(ROOT).join("data"))
            .unwrap();
        let to = dir.path().join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
    dir
}

/// `energyboard check` on `data` with the settings `config`; its error.
fn check_fails(data: &Path, config: &Path) -> String {
    let out = Command::new(BIN)
        .arg("check")
        .arg("--data")
        .arg(data)
        .arg("--config")
        .arg(config)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "check passed");
    err
}

fn repo_config() -> PathBuf {
    Path::new(ROOT).join("energyboard.toml")
}

/// Replaces `from` by `to` in the file `rel` of `data` (it must be there).
fn edit(data: &Path, rel: &str, from: &str, to: &str) {
    let path = data.join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{rel}: no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn workload_names_and_descriptions_in_the_settings_are_checked_as_data_texts() {
    let data = data_copy();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("energyboard.toml");
    for (toml, says) in [
        (
            "[[workloads]]\nid = \"gpqa\"\nname = \"GP\\u0000QA\"\n",
            "workloads[0].name: contains the control character U+0000",
        ),
        (
            "[[workloads]]\nid = \"gpqa\"\ndescription = \"A \\u202Eevil\"\n",
            "workloads[0].description: contains the control character U+202E",
        ),
        (
            &format!(
                "[[workloads]]\nid = \"gpqa\"\nname = \"{}\"\n",
                "x".repeat(301)
            ),
            "workloads[0].name: is 301 characters long; at most 300 are allowed",
        ),
    ] {
        std::fs::write(&config, toml).unwrap();
        let err = check_fails(data.path(), &config);
        assert!(err.contains(says), "{err}");
    }
}

#[test]
fn histogram_edges_and_measured_values_stay_within_bounds() {
    let data = data_copy();
    let path = data.path().join("gpqa/deepseek-r1.json");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let bins = doc["configurations"][0]["output_length_distribution"]["bins"]
        .as_array_mut()
        .unwrap();
    *bins.last_mut().unwrap() = 1e300.into();
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    let err = check_fails(data.path(), &repo_config());
    assert!(
        err.contains("bins[50]: must be a number of tokens from 0 to 1000000000, found 1e300"),
        "{err}"
    );
    // A tiny positive value, which would print as hundreds of digits.
    let data = data_copy();
    edit(
        data.path(),
        "text-to-video/cogvideox-1-5-5b.json",
        "\"fps\": 8",
        "\"fps\": 5e-324",
    );
    let err = check_fails(data.path(), &repo_config());
    assert!(
        err.contains(
            "fps: is too small to be a measurement: at least 1e-9 is accepted, found 5e-324"
        ),
        "{err}"
    );
}

#[test]
fn gpu_names_that_are_device_names_full_width_or_bidi_are_refused() {
    for (name, says) in [
        ("CON", "\"CON\" is a reserved device name"),
        ("\u{FF28}100", "full-width character"),
        ("H100\u{202E}", "contains the control character U+202E"),
    ] {
        let data = data_copy();
        let rel = "text-to-video/cogvideox-1-5-5b.json";
        let path = data.path().join(rel);
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("\"B200\"", &serde_json::to_string(name).unwrap());
        std::fs::write(&path, text).unwrap();
        let err = check_fails(data.path(), &repo_config());
        assert!(err.contains(says), "{name:?}: {err}");
    }
}

#[test]
fn a_base_url_that_would_break_the_markdown_badge_is_refused() {
    for url in ["https://x.example/a)b/", "https://x.example/[x]/"] {
        let out = Command::new(BIN)
            .args(["check", "--base-url", url, "--data"])
            .arg(Path::new(ROOT).join("data"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{url}: accepted");
        assert!(err.contains("would end the Markdown link"), "{err}");
    }
}
