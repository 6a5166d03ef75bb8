//! The site's static assets (CSS, the table script, the icon): compiled
//! into the binary, so it builds a complete site from any folder, and
//! overridable file by file by a `static/` folder, as mdBook's `theme/`
//! overrides its built-in theme.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;

use crate::load::{Asset, load_static_dir};

/// The default assets, as in this repository's `static/` when the binary
/// was built: `(path inside static/, bytes)`.
pub const BUILT_IN: [(&str, &[u8]); 6] = [
    ("compare.js", include_bytes!("../static/compare.js")),
    ("favicon.svg", include_bytes!("../static/favicon.svg")),
    ("limit.js", include_bytes!("../static/limit.js")),
    ("model.js", include_bytes!("../static/model.js")),
    ("style.css", include_bytes!("../static/style.css")),
    ("table.js", include_bytes!("../static/table.js")),
];

/// The assets of a site: the built-in ones, each replaced by the file of
/// the same path in `static_dir`, plus any other file there. A missing
/// `static_dir` gives the built-in assets alone.
pub fn site_assets(static_dir: &Path) -> Result<Vec<Asset>> {
    let mut assets: BTreeMap<String, Vec<u8>> = BUILT_IN
        .iter()
        .map(|(rel, bytes)| ((*rel).to_owned(), bytes.to_vec()))
        .collect();
    if std::fs::symlink_metadata(static_dir).is_ok() {
        for asset in load_static_dir(static_dir)? {
            assets.insert(asset.rel, asset.bytes);
        }
    }
    Ok(assets
        .into_iter()
        .map(|(rel, bytes)| Asset { rel, bytes })
        .collect())
}
