//! The site writer: a build goes into a fresh folder beside the target and
//! replaces it whole, never over a folder energyboard did not make, its
//! inputs or a git work tree, and never publishes a data file edited after
//! it was checked.

use std::fs;
use std::path::Path;

use energyboard::load::content_digest;

use crate::common::names;
use energyboard::write::{CountingSink, MARKER, Made, PageSink, SiteWriter, made_by};

#[test]
fn a_data_file_edited_after_validation_is_not_published() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.json");
    std::fs::write(&file, b"{\"a\": 1}").unwrap();
    let digest = content_digest(b"{\"a\": 1}");
    let sink = CountingSink::default();
    sink.copy_file("data/m.json", &file, 8, digest).unwrap();
    // Same length, other bytes: refused.
    std::fs::write(&file, b"{\"a\": 2}").unwrap();
    let err = sink
        .copy_file("data/m.json", &file, 8, digest)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("changed while the site was being built"),
        "{err}"
    );
    assert!(err.contains("with other contents"), "{err}");
}

#[test]
fn refuses_a_foreign_non_empty_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("notes.txt"), "mine").unwrap();
    let err = SiteWriter::begin(&out, Made::Site, false, &[])
        .unwrap_err()
        .to_string();
    assert!(err.contains("not built by energyboard"), "{err}");
    assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
}

#[test]
fn dropped_build_leaves_target_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let w = SiteWriter::begin(&out, Made::Site, false, &[]).unwrap();
    w.put("index.html", b"one").unwrap();
    w.commit().unwrap();
    let w = SiteWriter::begin(&out, Made::Site, false, &[]).unwrap();
    w.put("index.html", b"two").unwrap();
    drop(w);
    assert_eq!(fs::read(out.join("index.html")).unwrap(), b"one");
    assert_eq!(names(dir.path()), ["site"]);
}

#[test]
fn a_data_folder_never_passes_for_a_site() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("synth");
    let w = SiteWriter::begin(&out, Made::Data, false, &[]).unwrap();
    w.put("a.json", b"{}").unwrap();
    w.commit().unwrap();
    assert_eq!(made_by(&out), Some(Made::Data));
    let err = SiteWriter::begin(&out, Made::Site, false, &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("is a data folder written by `energyboard-synth`"),
        "{err}"
    );
    // And the other way round.
    let site = dir.path().join("site");
    SiteWriter::begin(&site, Made::Site, false, &[])
        .unwrap()
        .commit()
        .unwrap();
    fs::write(site.join("index.html"), "x").unwrap();
    let err = SiteWriter::begin(&site, Made::Data, false, &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("is a site built by `energyboard build`"),
        "{err}"
    );
}

#[test]
fn force_never_replaces_inputs_the_current_folder_or_a_git_work_tree() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    fs::create_dir_all(data.join("sub")).unwrap();
    fs::write(data.join("a.json"), "{}").unwrap();
    for (out, says) in [
        (data.clone(), "is the input folder"),
        (data.join("sub"), "is inside the input folder"),
        (data.join("new"), "is inside the input folder"),
        (dir.path().to_path_buf(), "contains the input folder"),
    ] {
        let err = SiteWriter::begin(&out, Made::Site, true, &[&data])
            .unwrap_err()
            .to_string();
        assert!(err.contains(says), "{}: {err}", out.display());
    }
    let repo = dir.path().join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    let err = SiteWriter::begin(&repo, Made::Site, true, &[])
        .unwrap_err()
        .to_string();
    assert!(err.contains("is a git work tree"), "{err}");
    let err = SiteWriter::begin(dir.path(), Made::Site, true, &[])
        .unwrap_err()
        .to_string();
    assert!(err.contains("contains a git work tree"), "{err}");
    let cwd = std::env::current_dir().unwrap();
    let err = SiteWriter::begin(&cwd, Made::Site, true, &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("is the current folder or contains it"),
        "{err}"
    );
    let err = SiteWriter::begin(Path::new("/"), Made::Site, true, &[])
        .unwrap_err()
        .to_string();
    assert!(err.contains("root"), "{err}");
    assert!(data.join("a.json").is_file() && repo.join(".git").is_dir());
}

#[test]
fn user_files_cname_and_well_known_are_kept_and_others_reported() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let w = SiteWriter::begin(&out, Made::Site, false, &[]).unwrap();
    w.put("index.html", b"one").unwrap();
    w.put("models/gone/index.html", b"old").unwrap();
    w.commit().unwrap();
    fs::write(out.join("CNAME"), "energy.example.org\n").unwrap();
    fs::create_dir_all(out.join(".well-known")).unwrap();
    fs::write(out.join(".well-known/security.txt"), "Contact: x").unwrap();
    fs::write(out.join("notes.txt"), "mine").unwrap();
    let w = SiteWriter::begin(&out, Made::Site, false, &[]).unwrap();
    w.put("index.html", b"two").unwrap();
    let summary = w.commit().unwrap();
    assert_eq!(fs::read(out.join("index.html")).unwrap(), b"two");
    assert_eq!(
        fs::read_to_string(out.join("CNAME")).unwrap(),
        "energy.example.org\n"
    );
    assert!(out.join(".well-known/security.txt").is_file());
    assert_eq!(summary.removed, ["models/gone/index.html", "notes.txt"]);
    assert_eq!(summary.removed_total, 2);
}

#[test]
fn a_second_writer_into_the_same_folder_is_told_to_wait() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let first = SiteWriter::begin(&out, Made::Site, false, &[]).unwrap();
    let err = SiteWriter::begin(&out, Made::Site, false, &[])
        .unwrap_err()
        .to_string();
    assert!(err.contains("another energyboard"), "{err}");
    assert!(err.contains("is writing this folder"), "{err}");
    first.commit().unwrap();
    // The lock goes with the writer.
    SiteWriter::begin(&out, Made::Site, false, &[])
        .unwrap()
        .commit()
        .unwrap();
    assert_eq!(names(dir.path()), ["site"]);
}

#[test]
fn leftovers_of_stopped_builds_are_removed_and_others_kept() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    // What a killed build leaves: its staging folder, the old site it
    // moved aside, and its lock file (no longer held by anyone).
    for name in [".site.tmp-a1b2c3", ".site.tmp-a1b2c3.old"] {
        fs::create_dir(dir.path().join(name)).unwrap();
        fs::write(dir.path().join(name).join(MARKER), "energyboard site\n").unwrap();
    }
    fs::write(dir.path().join(".site.lock"), "").unwrap();
    // Without the marker, or with another name, it is not ours.
    fs::create_dir(dir.path().join(".site.tmp-mine")).unwrap();
    fs::create_dir(dir.path().join(".other.tmp-1")).unwrap();
    fs::write(
        dir.path().join(".other.tmp-1").join(MARKER),
        "energyboard site\n",
    )
    .unwrap();
    SiteWriter::begin(&out, Made::Site, false, &[])
        .unwrap()
        .commit()
        .unwrap();
    assert_eq!(
        names(dir.path()),
        [".other.tmp-1", ".site.tmp-mine", "site"]
    );
}
