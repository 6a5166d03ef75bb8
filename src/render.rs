//! Rendering: analysed data and SVG strings in, pages out (streamed to a
//! [`PageSink`]). Never writes a file itself.

use anyhow::Result;

use crate::analyse::{ModelAnalysis, analyse_model};
use crate::load::{Asset, LoadedModel};
use crate::write::PageSink;

/// Everything the pages are made from.
#[derive(Debug)]
pub struct Site<'a> {
    /// The loaded models, ordered by slug.
    pub models: &'a [LoadedModel],
    /// One analysis per model, same order.
    pub analyses: Vec<ModelAnalysis>,
    /// Absolute base URL, ending in `/`, when known.
    pub base_url: Option<String>,
}

impl<'a> Site<'a> {
    /// Analyses every model.
    pub fn new(models: &'a [LoadedModel], base_url: Option<&str>) -> Result<Self> {
        Ok(Self {
            models,
            analyses: models.iter().map(|m| analyse_model(&m.file)).collect(),
            base_url: base_url.map(|u| format!("{}/", u.trim_end_matches('/'))),
        })
    }
}

/// What was rendered.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderCounts {
    /// HTML pages.
    pub pages: usize,
    /// SVG charts.
    pub charts: usize,
}

/// Renders every page of the site into `sink`.
pub fn render_site(site: &Site<'_>, assets: &[Asset], sink: &dyn PageSink) -> Result<RenderCounts> {
    let mut counts = RenderCounts::default();
    for a in assets {
        sink.put(&format!("assets/{}", a.rel), &a.bytes)?;
    }
    let mut index = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>energyboard</title></head><body><h1>Models</h1><ul>",
    );
    for m in site.models {
        index.push_str(&format!(
            "<li><a href=\"models/{0}/\">{0}</a></li>",
            m.file.slug
        ));
        sink.put(&format!("models/{}/index.html", m.file.slug), b"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>model</title></head><body><h1>model</h1></body></html>")?;
        counts.pages += 1;
    }
    index.push_str("</ul></body></html>");
    sink.put("index.html", index.as_bytes())?;
    counts.pages += 1;
    Ok(counts)
}
