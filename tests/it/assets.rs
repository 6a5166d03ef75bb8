//! The built-in assets and a `static/` folder that overrides them file by
//! file.

use std::path::Path;

use energyboard::assets::{BUILT_IN, site_assets};
use energyboard::load::load_static_dir;

#[test]
fn built_in_assets_match_the_static_folder() {
    let from_disk = load_static_dir(Path::new("static")).unwrap();
    let names: Vec<&str> = from_disk.iter().map(|a| a.rel.as_str()).collect();
    let built_in: Vec<&str> = BUILT_IN.iter().map(|(rel, _)| *rel).collect();
    assert_eq!(names, built_in, "add new files in static/ to BUILT_IN");
    assert_eq!(site_assets(Path::new("static")).unwrap(), from_disk);
}

#[test]
fn a_static_folder_overrides_file_by_file() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        site_assets(&dir.path().join("missing")).unwrap().len(),
        BUILT_IN.len()
    );
    std::fs::write(dir.path().join("style.css"), "body{}").unwrap();
    std::fs::write(dir.path().join("extra.js"), "1").unwrap();
    let assets = site_assets(dir.path()).unwrap();
    let get = |rel: &str| {
        assets
            .iter()
            .find(|a| a.rel == rel)
            .map(|a| a.bytes.clone())
    };
    assert_eq!(get("style.css").unwrap(), b"body{}");
    assert_eq!(get("extra.js").unwrap(), b"1");
    let built_in = |rel: &str| BUILT_IN.iter().find(|(r, _)| *r == rel).unwrap().1;
    assert_eq!(get("table.js").unwrap(), built_in("table.js"));
    assert_eq!(assets.len(), BUILT_IN.len() + 1);
}
