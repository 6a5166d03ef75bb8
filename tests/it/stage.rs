//! Paths inside a folder and the lock on a folder being written.

use std::path::{Path, PathBuf};

use energyboard::stage::{Lock, relative_path};

#[test]
fn paths_stay_inside() {
    assert_eq!(
        relative_path("gpqa/x.json"),
        Some(PathBuf::from("gpqa/x.json"))
    );
    assert!(relative_path(".nojekyll").is_some());
    for bad in [
        "",
        "../x",
        "/etc/passwd",
        "a//b",
        "a/../b",
        "a/./b",
        "a\\b",
        "a/",
        "a\0b",
    ] {
        assert!(relative_path(bad).is_none(), "{bad:?}");
    }
}

#[test]
fn a_second_lock_on_the_same_folder_is_refused_until_the_first_goes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".x.lock");
    let first = Lock::take(&path, Path::new("x"), "build again").unwrap();
    let err = Lock::take(&path, Path::new("x"), "build again")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("another energyboard is writing this folder"),
        "{err}"
    );
    drop(first);
    assert!(!path.exists());
    Lock::take(&path, Path::new("x"), "build again").unwrap();
}
