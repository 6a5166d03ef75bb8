//! Incremental rebuilds for the preview: after an edit, `serve` re-reads only
//! the model files that changed and re-renders only what they touch.
//!
//! The site is cut into units rendered as one ([`Unit`]): each model's pages
//! in its workload, each workload's pages that list its models (leaderboard,
//! GPU pages, comparison), each model's overview across workloads, the front
//! page, and the pages over the whole site (hubs, about, change log,
//! downloads, 404, sitemap). For each unit the session records the files it
//! wrote and a key of its inputs:
//!
//! - the **site key** hashes what every page shows or links: provenance,
//!   workload tabs, GPUs, base URL, feed, carbon and cost settings, the
//!   change history, the assets, and which models exist. When it changes
//!   (a file added or removed, a source block edited, a static file
//!   changed), everything is rendered again and swapped in whole, as
//!   `build` does.
//! - a **workload key** hashes what every model page of a workload shows
//!   beyond its own file: the workload's provenance, GPUs and deadline, and
//!   each model's slug and size (a model page links its nearest peers by
//!   size).
//! - a **model key** hashes the workload key, the file's bytes and the
//!   model's recorded history.
//!
//! A model whose key changed is rendered again, with its workload's pages
//! and its overview; the front page and the site-wide pages always are.
//! Files are then updated in place ([`InPlaceWriter`]): unchanged bytes are
//! not written, files no unit writes any more are removed. A test
//! (`tests/it/serve_incremental.rs`) checks that after each of a series of
//! edits the folder is byte for byte what a full build gives.

use std::collections::{BTreeMap, HashMap};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime};

use anyhow::Result;
use rayon::prelude::*;

use crate::analyse::AnyAnalysis;
use crate::load::{self, AnyModel, Asset, content_digest};
use crate::model::ModelFrame;
use crate::render::{self, Mirror, ModelId, ModelOutput, NoProgress, Part, on_part};
use crate::write::{InPlaceWriter, Made, PageSink, SiteWriter};
use crate::{BuildOptions, analyse, assets, settings, workload};

/// A part of the site rendered as one.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Unit {
    /// The static assets and the Pages marker.
    Assets,
    /// One model's pages, charts and data files in one workload.
    Model(ModelKey),
    /// A workload's leaderboard, GPU pages and comparison.
    Workload(String),
    /// A model's overview across workloads, by slug.
    Overview(String),
    /// The front page.
    Front,
    /// The hubs, about page, change log, downloads, 404 page and sitemap.
    Global,
}

/// A model in a workload: (workload id, slug).
type ModelKey = (String, String);

/// What the file system says of a file: while it says the same, the file
/// holds the same bytes (a save changes the modification time or, when an
/// editor writes a new file and renames it over, the inode).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Some(Stamp {
        len: meta.len(),
        modified: meta.modified().ok(),
        inode,
    })
}

/// What the last good update rendered.
#[derive(Debug)]
struct Rendered {
    site: u64,
    models: HashMap<ModelKey, u64>,
    outputs: HashMap<ModelKey, ModelOutput>,
    units: BTreeMap<Unit, Files>,
}

/// What one update did.
#[derive(Debug, Clone)]
pub struct Update {
    /// Whether the whole site was rendered and swapped in.
    pub full: bool,
    /// Models in the site.
    pub models: usize,
    /// Model pages rendered (all of them on a full update).
    pub rendered: usize,
    /// Files written (on an update in place, those whose bytes changed).
    pub files: usize,
    /// Files removed.
    pub removed: usize,
    /// Model files read and parsed (the others were unchanged).
    pub parsed: usize,
    /// Wall time taken.
    pub elapsed: Duration,
}

impl std::fmt::Display for Update {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.full {
            write!(
                f,
                "{} model{}, {} files in {:.2} s",
                self.models,
                if self.models == 1 { "" } else { "s" },
                self.files,
                self.elapsed.as_secs_f64()
            )
        } else {
            write!(
                f,
                "{} of {} model files read, {} model page{} rendered, {} files written, {} removed, in {:.0} ms",
                self.parsed,
                self.models,
                self.rendered,
                if self.rendered == 1 { "" } else { "s" },
                self.files,
                self.removed,
                self.elapsed.as_secs_f64() * 1e3
            )
        }
    }
}

/// A preview's builds: the first renders everything, later ones only what
/// changed. The output folder is written as `build` writes it.
#[derive(Debug)]
pub struct Session {
    opts: BuildOptions,
    /// The model files of the last good load, by path, with their stamp
    /// taken before they were read.
    files: Mutex<HashMap<PathBuf, (Stamp, AnyModel)>>,
    /// The analyses of the last good update, with the digest of the file
    /// each was made from.
    analyses: HashMap<ModelKey, (u64, AnyAnalysis)>,
    last: Option<Rendered>,
}

impl Session {
    /// A session building `opts` (nothing is read yet).
    pub fn new(opts: BuildOptions) -> Self {
        Self {
            opts,
            files: Mutex::new(HashMap::new()),
            analyses: HashMap::new(),
            last: None,
        }
    }

    /// Brings the output folder up to date with the inputs. On an error
    /// the folder is left as it was, unless the error came while files were
    /// being updated in place; then the next update renders everything.
    pub fn update(&mut self) -> Result<Update> {
        let start = Instant::now();
        let opts = &self.opts;
        let base_url = settings::base_url(opts.base_url.as_deref())?;
        let fresh: Mutex<HashMap<PathBuf, Stamp>> = Mutex::new(HashMap::new());
        let parsed = AtomicUsize::new(0);
        let reuse = |path: &Path| {
            let found = stamp(path).and_then(|now| {
                lock(&fresh).insert(path.to_path_buf(), now);
                let mut cache = lock(&self.files);
                match cache.get(path) {
                    Some((then, _)) if *then == now => cache.remove(path).map(|(_, m)| m),
                    _ => None,
                }
            });
            if found.is_none() {
                parsed.fetch_add(1, Ordering::Relaxed);
            }
            found
        };
        let loaded = load::load_data_dir_reusing(&opts.data_dir, &reuse);
        // What was not taken is gone from the folder, or changed.
        lock(&self.files).clear();
        let mut data = loaded?;
        let workloads = workload::group_data(&mut data, &opts.workloads);
        let assets = assets::site_assets(&opts.static_dir)?;
        let known = &self.analyses;
        let analysed =
            analyse::analyse_data_reusing(&data, &workloads, &|w, slug, digest| match known
                .get(&(w.to_owned(), slug.to_owned()))
            {
                Some((d, a)) if *d == digest => Some(a.clone()),
                _ => None,
            });
        let mirror = Mirror::new(&data, &workloads, analysed, base_url)
            .with_footprint(opts.footprint.as_ref());
        let keys = Keys::of(&mirror, &assets);
        let models = mirror.model_ids().len();
        let result = match self.last.take() {
            // An update in place that fails (the folder was deleted or
            // replaced meanwhile, say) becomes a whole render at once.
            Some(last) if last.site == keys.site => {
                match update_in_place(opts, &mirror, &assets, &keys, last) {
                    Ok(done) => Ok((done, false)),
                    Err(_) => render_all(opts, &mirror, &assets, &keys).map(|done| (done, true)),
                }
            }
            _ => render_all(opts, &mirror, &assets, &keys).map(|done| (done, true)),
        };
        self.analyses = if result.is_ok() {
            analyses_of(mirror)
        } else {
            drop(mirror);
            HashMap::new()
        };
        let fresh = fresh
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Kept for the next update only after a good one: a failed render
        // (a file that changed after it was read, say, where the file
        // system's stamp did not tell) reads every file again next time.
        if result.is_ok() {
            let mut cache = lock(&self.files);
            let tokens = data.models.into_iter().map(AnyModel::Tokens);
            let diffusion = data.diffusion.into_iter().map(AnyModel::Diffusion);
            for m in tokens.chain(diffusion) {
                let path = match &m {
                    AnyModel::Tokens(m) => m.path.clone(),
                    AnyModel::Diffusion(m) => m.path.clone(),
                };
                if let Some(s) = fresh.get(&path) {
                    cache.insert(path, (*s, m));
                }
            }
        }
        let ((rendered, written), full) = result?;
        self.last = Some(rendered);
        Ok(Update {
            full,
            models,
            rendered: written.rendered,
            files: written.files,
            removed: written.removed,
            parsed: parsed.into_inner(),
            elapsed: start.elapsed(),
        })
    }
}

/// The analyses a site was rendered from, by model, with their file's
/// digest.
fn analyses_of(mirror: Mirror<'_>) -> HashMap<ModelKey, (u64, AnyAnalysis)> {
    let mut all = HashMap::new();
    for part in mirror.workloads {
        match part {
            Part::Tokens(s) => {
                for (m, a) in s.models.iter().zip(s.analyses) {
                    let key = (s.workload.id.clone(), m.file.slug.clone());
                    all.insert(key, (m.digest, AnyAnalysis::Tokens(a)));
                }
            }
            Part::Diffusion(s) => {
                for (m, a) in s.models.iter().zip(s.analyses) {
                    let key = (s.workload.id.clone(), m.file.slug.clone());
                    all.insert(key, (m.digest, AnyAnalysis::Diffusion(a)));
                }
            }
        }
    }
    all
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn hash_of(value: &impl std::fmt::Debug) -> u64 {
    let mut h = DefaultHasher::new();
    format!("{value:?}").hash(&mut h);
    h.finish()
}

/// The keys of one update's inputs (see the module's doc).
struct Keys {
    site: u64,
    /// Per model, in [`Mirror::model_ids`] order: its key in the site and
    /// the hash of its inputs.
    models: Vec<(ModelId, ModelKey, u64)>,
}

impl Keys {
    fn of(mirror: &Mirror<'_>, assets: &[Asset]) -> Self {
        let ids = mirror.model_ids();
        let workloads: Vec<_> = mirror
            .workloads
            .iter()
            .map(render::Part::workload)
            .collect();
        let present: Vec<(&str, &str)> = ids
            .iter()
            .map(|id| {
                let part = &mirror.workloads[id.part];
                (part.workload().id.as_str(), part.slug(id.index))
            })
            .collect();
        let assets: Vec<(&str, u64)> = assets
            .iter()
            .map(|a| (a.rel.as_str(), content_digest(&a.bytes)))
            .collect();
        let site = hash_of(&(
            &mirror.info,
            &mirror.tabs,
            &mirror.gpus,
            &mirror.base_url,
            mirror.feed,
            &mirror.footprint,
            mirror.changes.map(|c| c.digest),
            workloads,
            present,
            assets,
        ));
        let workload_keys: Vec<u64> = mirror
            .workloads
            .iter()
            .map(|part| {
                on_part!(part, s => {
                    let sizes: Vec<(&str, f64)> = s
                        .models
                        .iter()
                        .map(|m| (m.file.slug(), m.file.params_b()))
                        .collect();
                    hash_of(&(&s.info, &s.gpus, &s.workload, &s.prefix, sizes))
                })
            })
            .collect();
        let models = ids
            .into_iter()
            .map(|id| {
                let part = &mirror.workloads[id.part];
                let slug = part.slug(id.index);
                let key = on_part!(part, s => {
                    let m = &s.models[id.index];
                    let history = s.history.as_ref().map(|h| h.get(slug));
                    hash_of(&(workload_keys[id.part], m.digest, m.len, history))
                });
                (id, (part.workload().id.clone(), slug.to_owned()), key)
            })
            .collect();
        Self { site, models }
    }
}

/// Records the files written through it (path and digest), for one unit.
struct Recorder<'s> {
    inner: &'s dyn PageSink,
    files: Mutex<Files>,
}

impl<'s> Recorder<'s> {
    fn new(inner: &'s dyn PageSink) -> Self {
        Self {
            inner,
            files: Mutex::new(Vec::new()),
        }
    }

    fn into_files(self) -> Files {
        self.files
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl PageSink for Recorder<'_> {
    fn put(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        let digest = content_digest(bytes);
        self.inner.put_digested(rel, bytes, digest)?;
        lock(&self.files).push((rel.to_owned(), digest));
        Ok(())
    }
}

/// The files one unit wrote: `/`-separated path and digest of the bytes.
type Files = Vec<(String, u64)>;

/// What [`render_plan`] gives: each rendered unit's files, and the output
/// of every model.
type Rendering = (Vec<(Unit, Files)>, Vec<ModelOutput>);

/// A page-listing job of [`render_plan`], run after the models.
enum Listing<'p> {
    Global,
    Front,
    /// A workload's pages, by its index in the site.
    Workload(usize),
    Overview(&'p str),
}

/// Which units an update renders.
struct Plan {
    assets: bool,
    models: Vec<usize>,
    workloads: Vec<usize>,
    overviews: Vec<String>,
}

/// Renders the units of `plan` into `sink`; the front page and the
/// site-wide pages always. `known` gives the output of the models not
/// rendered now. Returns each rendered unit's files and the output of
/// every model (in [`Mirror::model_ids`] order).
fn render_plan(
    mirror: &Mirror<'_>,
    assets: &[Asset],
    keys: &Keys,
    plan: &Plan,
    known: &HashMap<ModelKey, ModelOutput>,
    sink: &dyn PageSink,
) -> Result<Rendering> {
    let mut units = Vec::new();
    if plan.assets {
        let rec = Recorder::new(sink);
        render::render_assets(assets, &rec)?;
        units.push((Unit::Assets, rec.into_files()));
    }
    let rendered: Vec<(usize, Files, ModelOutput)> = plan
        .models
        .par_iter()
        .map(|&i| {
            let rec = Recorder::new(sink);
            let mut out =
                render::render_models(mirror, &[keys.models[i].0], true, &rec, &NoProgress)?;
            let out = out.pop().expect("one output per model");
            Ok((i, rec.into_files(), out))
        })
        .collect::<Result<_>>()?;
    let mut fresh: HashMap<usize, ModelOutput> = HashMap::new();
    for (i, files, out) in rendered {
        fresh.insert(i, out);
        units.push((Unit::Model(keys.models[i].1.clone()), files));
    }
    let outputs: Vec<ModelOutput> = keys
        .models
        .iter()
        .enumerate()
        .map(|(i, (id, key, _))| {
            let mut out = fresh
                .remove(&i)
                .or_else(|| known.get(key).cloned())
                .expect("every model rendered now or before");
            out.id = *id;
            out
        })
        .collect();
    // Then every page that lists models, all at once: the site-wide pages
    // (the longest job) first.
    let jobs: Vec<Listing<'_>> = [Listing::Global, Listing::Front]
        .into_iter()
        .chain(plan.workloads.iter().map(|&p| Listing::Workload(p)))
        .chain(plan.overviews.iter().map(|slug| Listing::Overview(slug)))
        .collect();
    let listed: Vec<(Unit, Files)> = jobs
        .into_par_iter()
        .map(|job| {
            let rec = Recorder::new(sink);
            let unit = match job {
                Listing::Global => {
                    render::render_global(mirror, assets, &outputs, &rec)?;
                    Unit::Global
                }
                Listing::Front => {
                    render::render_front(mirror, &rec)?;
                    Unit::Front
                }
                Listing::Workload(part) => {
                    render::render_workload_pages(mirror, part, &rec)?;
                    Unit::Workload(mirror.workloads[part].workload().id.clone())
                }
                Listing::Overview(slug) => {
                    render::render_model_overview(mirror, slug, &rec)?;
                    Unit::Overview(slug.to_owned())
                }
            };
            Ok((unit, rec.into_files()))
        })
        .collect::<Result<_>>()?;
    units.extend(listed);
    Ok((units, outputs))
}

/// What an update rendered from `keys`, for the next one to compare with.
fn rendered_from(keys: &Keys, outputs: Vec<ModelOutput>, units: BTreeMap<Unit, Files>) -> Rendered {
    Rendered {
        site: keys.site,
        models: keys
            .models
            .iter()
            .map(|(_, k, h)| (k.clone(), *h))
            .collect(),
        outputs: keys
            .models
            .iter()
            .map(|(_, k, _)| k.clone())
            .zip(outputs)
            .collect(),
        units,
    }
}

/// What [`render_all`] or [`update_in_place`] did to the folder.
struct Written {
    /// Models rendered.
    rendered: usize,
    /// Files written.
    files: usize,
    /// Files removed.
    removed: usize,
}

/// Renders the whole site into a staging folder and swaps it in, as
/// `build` does.
fn render_all(
    opts: &BuildOptions,
    mirror: &Mirror<'_>,
    assets: &[Asset],
    keys: &Keys,
) -> Result<(Rendered, Written)> {
    let writer = SiteWriter::begin(
        &opts.out_dir,
        Made::Site,
        opts.force,
        &[&opts.data_dir, &opts.static_dir],
    )?;
    let plan = Plan {
        assets: true,
        models: (0..keys.models.len()).collect(),
        workloads: (0..mirror.workloads.len()).collect(),
        overviews: mirror.slugs.keys().cloned().collect(),
    };
    let (units, outputs) = render_plan(mirror, assets, keys, &plan, &HashMap::new(), &writer)?;
    let written = writer.commit()?;
    Ok((
        rendered_from(keys, outputs, units.into_iter().collect()),
        Written {
            rendered: plan.models.len(),
            files: written.files,
            removed: written.removed_total,
        },
    ))
}

/// Renders again what changed since `last` and updates the folder in place.
fn update_in_place(
    opts: &BuildOptions,
    mirror: &Mirror<'_>,
    assets: &[Asset],
    keys: &Keys,
    last: Rendered,
) -> Result<(Rendered, Written)> {
    let models: Vec<usize> = keys
        .models
        .iter()
        .enumerate()
        .filter(|(_, (_, key, hash))| last.models.get(key) != Some(hash))
        .map(|(i, _)| i)
        .collect();
    let mut workloads: Vec<usize> = models.iter().map(|&i| keys.models[i].0.part).collect();
    workloads.sort_unstable();
    workloads.dedup();
    let mut overviews: Vec<String> = models.iter().map(|&i| keys.models[i].1.1.clone()).collect();
    overviews.sort();
    overviews.dedup();
    let plan = Plan {
        assets: false,
        models,
        workloads,
        overviews,
    };
    let known: HashMap<String, u64> = last.units.values().flatten().cloned().collect();
    let writer = InPlaceWriter::open(&opts.out_dir, &known)?;
    let (units, outputs) = render_plan(mirror, assets, keys, &plan, &last.outputs, &writer)?;
    let mut all = last.units;
    for (unit, files) in units {
        all.insert(unit, files);
    }
    let now: std::collections::HashSet<&str> =
        all.values().flatten().map(|(p, _)| p.as_str()).collect();
    let mut removed = 0;
    for path in known.keys() {
        if !now.contains(path.as_str()) {
            writer.remove(path)?;
            removed += 1;
        }
    }
    Ok((
        rendered_from(keys, outputs, all),
        Written {
            rendered: plan.models.len(),
            files: writer.summary().files,
            removed,
        },
    ))
}
