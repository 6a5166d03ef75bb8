//! Settings: the settings file (`energyboard.toml`) and the base URL the
//! site is published at, checked once, before any data is read.

use anyhow::Result;

use crate::load::limits::{MAX_NAME_CHARS, MAX_PROSE_CHARS, text_problem};
use crate::{footprint, workload};

/// Settings kept in the repository (`energyboard.toml`); the command line overrides them.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Absolute URL the site is published at; empty for none.
    pub base_url: String,
    /// The web address of the repository the site is built from, e.g.
    /// `https://github.com/user/repo`; empty for none (a GitHub Pages base
    /// URL then names it). The about page links to its guide.
    pub repository: String,
    /// Workloads in the order the site lists them, with their names and
    /// descriptions; workloads not listed follow, by id.
    pub workloads: Vec<workload::WorkloadSettings>,
    pub carbon_intensity: Option<footprint::CarbonIntensity>,
    pub electricity_price: Option<footprint::ElectricityPrice>,
    pub facility_overhead: Option<footprint::FacilityOverhead>,
    /// Sources of measurements beside the leaderboard (`[[sources]]`), read
    /// by `energyboard import --source <id>`.
    pub sources: Vec<SourceSettings>,
}

/// One source of measurements beside the leaderboard's: whose they are,
/// where they are published and under which licence. `energyboard import
/// --source <id>` writes these into each imported file's `source` block.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSettings {
    /// Path segment and slug prefix: `^[a-z0-9]+(-[a-z0-9]+)*$`, at most
    /// 32 characters.
    pub id: String,
    /// Display name, e.g. "Example Lab measurements".
    pub name: String,
    /// Short label added to each model's name, e.g. "Example Lab":
    /// "Qwen 3 8B (Example Lab)" (default: the name).
    pub label: Option<String>,
    /// Who measured (default: the name).
    pub publisher: Option<String>,
    /// The source's own page (http or https).
    pub url: String,
    /// Licence of the published measurements.
    pub licence: String,
    /// How to cite them (default: the ML.ENERGY Benchmark paper, the
    /// method they follow).
    pub cite: Option<String>,
    /// Where the citation leads.
    pub cite_url: Option<String>,
}

/// Largest settings file accepted, in bytes.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

impl Config {
    /// Reads `path`; a missing file gives the defaults. Like a model file,
    /// it must be a regular file (not a device or a pipe, which could be
    /// endless or never answer) of at most [`MAX_CONFIG_BYTES`].
    pub fn load(path: &std::path::Path) -> Result<Self> {
        use crate::stage::Unread;
        use anyhow::Context;
        let raw = match crate::stage::read_bounded(path, MAX_CONFIG_BYTES) {
            Ok(raw) => raw,
            Err(Unread::Missing) => return Ok(Self::default()),
            Err(Unread::NotRegular) => anyhow::bail!(
                "{}: is not a regular file (a folder, device, pipe or socket?); --config needs a \
                    settings file",
                path.display()
            ),
            Err(Unread::TooLarge(_)) => anyhow::bail!(
                "{}: is larger than {} kB; a settings file holds a few lines",
                path.display(),
                MAX_CONFIG_BYTES / 1024
            ),
            Err(err) => anyhow::bail!("{}: {err}", path.display()),
        };
        let text = String::from_utf8(raw)
            .with_context(|| format!("{}: is not UTF-8 text", path.display()))?;
        let config: Self = toml::from_str(&text)
            .with_context(|| format!("{}: invalid settings", path.display()))?;
        config.footprint(path)?;
        config.check_texts(path)?;
        Ok(config)
    }

    /// Checks each workload's name and description as a model file's texts
    /// are checked ([`crate::load::limits::text_problem`]), then each
    /// `[[sources]]` entry: its id, one entry per id, its texts, web addresses.
    fn check_texts(&self, path: &std::path::Path) -> Result<()> {
        repository_address(&self.repository)
            .map_err(|err| anyhow::anyhow!("{}: repository: {err}", path.display()))?;
        for (i, w) in self.workloads.iter().enumerate() {
            for (field, text, max) in [
                ("name", w.name.as_deref(), MAX_NAME_CHARS),
                ("description", w.description.as_deref(), MAX_PROSE_CHARS),
            ] {
                if let Some(problem) = text.and_then(|t| text_problem(t, max)) {
                    anyhow::bail!("{}: workloads[{i}].{field}: {problem}", path.display());
                }
            }
        }
        for (i, s) in self.sources.iter().enumerate() {
            let at = |field: &str| format!("{}: sources[{i}].{field}", path.display());
            if !crate::load::is_valid_source_id(&s.id) {
                anyhow::bail!(
                    "{}: {:?} cannot be a source id; use lower-case letters, digits and single \
                        hyphens (at most 32 characters, not \"leaderboard\")",
                    at("id"),
                    s.id
                );
            }
            if self.sources[..i].iter().any(|o| o.id == s.id) {
                anyhow::bail!("{}: {:?} is given twice", at("id"), s.id);
            }
            for (field, text, max) in [
                ("name", Some(&s.name), MAX_NAME_CHARS),
                ("label", s.label.as_ref(), MAX_NAME_CHARS),
                ("publisher", s.publisher.as_ref(), MAX_NAME_CHARS),
                ("licence", Some(&s.licence), MAX_PROSE_CHARS),
                ("cite", s.cite.as_ref(), MAX_PROSE_CHARS),
            ] {
                if text.is_some_and(|t| t.trim().is_empty()) {
                    anyhow::bail!(
                        "{}: is blank; a source's {field} is shown beside its figures, write it \
                            out or leave the key out",
                        at(field)
                    );
                }
                if let Some(problem) = text.and_then(|t| text_problem(t, max)) {
                    anyhow::bail!("{}: {problem}", at(field));
                }
            }
            for (field, url) in [("url", Some(&s.url)), ("cite_url", s.cite_url.as_ref())] {
                if url.is_some_and(|u| !crate::load::is_web_url(u)) {
                    anyhow::bail!("{}: {url:?} is not an http(s) address", at(field));
                }
            }
        }
        Ok(())
    }

    /// The carbon and cost settings, checked; the error names `path` and every bad key.
    pub fn footprint(&self, path: &std::path::Path) -> Result<Option<footprint::Footprint>> {
        footprint::Footprint::from_settings(
            self.carbon_intensity.clone(),
            self.electricity_price.clone(),
            self.facility_overhead.clone(),
        )
        .map_err(|bad| {
            let lines: Vec<String> = bad
                .iter()
                .map(|b| format!("  {}: {b}", path.display()))
                .collect();
            anyhow::anyhow!(
                "{} problem{} in the settings:\n{}",
                bad.len(),
                if bad.len() == 1 { "" } else { "s" },
                lines.join("\n")
            )
        })
    }

    /// The repository's address without its trailing `/`; `None` when blank.
    pub fn repository(&self) -> Option<String> {
        normalise_repository(&self.repository)
    }

    pub fn base_url(&self) -> Option<String> {
        let url = self.base_url.trim();
        (!url.is_empty()).then(|| url.to_owned())
    }
}

/// A repository's address as given in the settings or on the command line
/// (`--repository`), checked: trimmed and without its trailing `/`, `None`
/// when blank; an error when it is not an http(s) address.
pub fn repository_address(given: &str) -> Result<Option<String>> {
    match normalise_repository(given) {
        Some(url) if !crate::load::is_web_url(&url) => {
            anyhow::bail!("{url:?} is not an http(s) address, e.g. https://github.com/user/repo")
        }
        url => Ok(url),
    }
}

fn normalise_repository(given: &str) -> Option<String> {
    let url = given.trim().trim_end_matches('/');
    (!url.is_empty()).then(|| url.to_owned())
}

/// Checks a base URL: `http://` or `https://`, a host (letters, digits,
/// `-`, `.`, and an optional `:port`, or an `[IPv6]` address), then an
/// optional path; no user name, query, fragment, spaces or control
/// characters, which would make the canonical links wrong or unsafe.
pub fn check_base_url(url: &str) -> Result<()> {
    let url = url.trim();
    if url.is_empty() {
        return Ok(());
    }
    let example = "e.g. https://user.github.io/repo/";
    let lower = url.to_ascii_lowercase();
    let Some(rest) = ["https://", "http://"]
        .iter()
        .find_map(|scheme| lower.strip_prefix(scheme).map(|_| &url[scheme.len()..]))
    else {
        anyhow::bail!("--base-url {url:?}: must be an absolute http(s) URL, {example}");
    };
    if let Some(c) = url
        .chars()
        .find(|c| c.is_control() || c.is_whitespace() || "\"<>\\^`{|}".contains(*c))
    {
        anyhow::bail!("--base-url {url:?}: may not contain {c:?}; {example}");
    }
    if url.contains(['?', '#']) {
        anyhow::bail!("--base-url {url:?}: may not have a query or fragment; {example}");
    }
    let host = rest.split('/').next().unwrap_or("");
    let name = if host.starts_with('[') {
        host.split_once(']').map_or("", |(h, _)| h)
    } else {
        host.split(':').next().unwrap_or("")
    };
    let name_ok = !name.is_empty()
        && !name.starts_with(['.', '-'])
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '[' | ':'));
    let port_ok = host
        .rsplit_once("]:")
        .map(|(_, p)| p)
        .or_else(|| (!host.starts_with('[')).then(|| host.split_once(':').map(|(_, p)| p))?)
        .is_none_or(|p| !p.is_empty() && p.parse::<u16>().is_ok());
    if !name_ok || !port_ok {
        anyhow::bail!("--base-url {url:?}: needs a host name after the scheme, {example}");
    }
    if let Some(c) = rest[host.len()..].chars().find(|c| "()[]".contains(*c)) {
        anyhow::bail!(
            "--base-url {url:?}: may not contain {c:?} in its path: it would end the Markdown \
                link of the badge snippet early; {example}"
        );
    }
    Ok(())
}

/// The base URL a build uses: checked ([`check_base_url`]) and ending in
/// `/`; `None` when `raw` is absent or blank.
pub fn base_url(raw: Option<&str>) -> Result<Option<String>> {
    let Some(u) = raw.map(str::trim).filter(|u| !u.is_empty()) else {
        return Ok(None);
    };
    check_base_url(u)?;
    anyhow::ensure!(
        u.starts_with("https://") || u.starts_with("http://"),
        "--base-url {u:?}: must be an absolute http(s) URL, e.g. https://user.github.io/repo/"
    );
    Ok(Some(format!("{}/", u.trim_end_matches('/'))))
}
