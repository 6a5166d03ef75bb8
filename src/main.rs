//! Command line of energyboard: parses arguments, calls the library, prints
//! the error chain once and returns an exit code.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use energyboard::{BuildOptions, Config};

/// jemalloc, not the system allocator: a build allocates and frees millions
/// of small strings, and with glibc's allocator malloc and free took about a
/// fifth of its CPU time (perf, 1,000 synthetic models, 2026-12-07). The
/// figures, before and after, are in docs/performance.md: 1,000 models'
/// CPU time down by a fifth, and 10,000 models' peak memory within the 256
/// MiB of issue 45 with the one arena that `.cargo/config.toml` builds in.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Builds a static mirror of the ML.ENERGY Leaderboard from the model files
/// in a data folder. With no subcommand, `build` runs with its defaults.
#[derive(Debug, Parser)]
#[command(version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    build: SiteArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate and analyse data/, then write the site to site/ (the default).
    Build(SiteArgs),
    /// Validate and analyse data/ and render every page in memory, writing
    /// nothing.
    Check(SiteArgs),
    /// Build the site, serve it on 127.0.0.1 and rebuild it whenever a file
    /// under the data or static folder changes.
    Serve(ServeArgs),
    /// Import the ML.ENERGY Leaderboard's published data into the data
    /// folder (one file per model and workload) and record what changed in
    /// data/changes.json.
    Import(ImportArgs),
}

#[derive(Debug, Args, Clone)]
struct ImportArgs {
    /// The leaderboard's published data: a folder holding index.json,
    /// tasks/ and models/ (public/data of github.com/ml-energy/leaderboard),
    /// or an https URL of that repository's .tar.gz archive.
    #[arg(long = "from", value_name = "SRC")]
    from: String,
    /// Data folder to write into: files go to <DIR>/<workload>/<slug>.json.
    #[arg(long, value_name = "DIR", default_value = "data")]
    data: PathBuf,
    /// The date written as source.retrieved (YYYY-MM-DD) [default: today,
    /// the only use of the clock; never shown in pages].
    #[arg(long, value_name = "YYYY-MM-DD")]
    retrieved: Option<String>,
    /// The date written as `updated` [default: the retrieved date].
    #[arg(long, value_name = "YYYY-MM-DD")]
    updated: Option<String>,
    /// The date written as `data_version` [default: the retrieved date].
    #[arg(long, value_name = "YYYY-MM-DD")]
    data_version: Option<String>,
    /// Editorial settings: the texts upstream does not publish, one entry
    /// per workload.
    #[arg(long, value_name = "FILE", default_value = "import/editorial.json")]
    editorial: PathBuf,
    /// Date of upstream's last commit to public/data/tasks, when known
    /// (e.g. git log -1 --format=%cs -- public/data/tasks); only words
    /// source.compiled_evidence.
    #[arg(long, value_name = "YYYY-MM-DD")]
    tasks_committed: Option<String>,
    /// Also write the change-log entry, as Markdown, to this file (a
    /// pull-request body); written only when the import changed something,
    /// so its presence tells a script (scripts/sync.sh) that it did.
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    /// Import another source's data beside the leaderboard's, into
    /// <DIR>/sources/<ID>/: its name, address and licence are the
    /// [[sources]] entry with this id in the settings file.
    #[arg(long, value_name = "ID")]
    source: Option<String>,
    /// Settings file holding the [[sources]] entries.
    #[arg(long, value_name = "FILE", default_value = "energyboard.toml")]
    config: PathBuf,
}

#[derive(Debug, Args, Clone)]
struct ServeArgs {
    /// Folder of model files (*.json), searched recursively and watched.
    #[arg(long, value_name = "DIR", default_value = "data")]
    data: PathBuf,
    /// Folder of static assets (CSS, JS) overriding the built-in ones file
    /// by file, watched [default: static, if it exists].
    #[arg(long = "static", value_name = "DIR")]
    static_dir: Option<PathBuf>,
    /// Output folder. By default a temporary folder, removed on exit, so
    /// the preview never rewrites the committed site/.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Replace --out even if it is not empty and was not made by energyboard.
    #[arg(long, requires = "out")]
    force: bool,
    /// TCP port on 127.0.0.1; 0 picks a free one.
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// URL path to serve the site under, e.g. /repo/ for a GitHub Pages
    /// project site at https://user.github.io/repo/.
    #[arg(long, value_name = "PATH", default_value = "/")]
    base_path: String,
}

#[derive(Debug, Args, Clone)]
struct SiteArgs {
    /// Folder of model files (*.json), searched recursively.
    #[arg(long, value_name = "DIR", default_value = "data")]
    data: PathBuf,
    /// Folder of static assets (CSS, JS, icon) copied into the site,
    /// overriding the built-in ones file by file [default: static, if it
    /// exists; else the built-in assets alone].
    #[arg(long = "static", value_name = "DIR")]
    static_dir: Option<PathBuf>,
    /// Output folder. It is replaced whole by a successful build; a failed
    /// build leaves it untouched.
    #[arg(long, value_name = "DIR", default_value = "site")]
    out: PathBuf,
    /// Replace the output folder even if it is not empty and was not made by
    /// energyboard.
    #[arg(long)]
    force: bool,
    /// Absolute URL the site will be served from, e.g.
    /// https://user.github.io/repo/. Used only for canonical links, the
    /// sitemap and link previews; every link between pages stays relative.
    /// Overrides `base_url` in the settings file.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Web address of the repository the site is built from, e.g.
    /// https://github.com/user/repo: the about page links to its guide
    /// (docs/README.md). Overrides `repository` in the settings file.
    #[arg(long, value_name = "URL")]
    repository: Option<String>,
    /// Settings file; a missing file means no settings.
    #[arg(long, value_name = "FILE", default_value = "energyboard.toml")]
    config: PathBuf,
}

impl SiteArgs {
    fn options(&self) -> anyhow::Result<BuildOptions> {
        let config = Config::load(&self.config)?;
        let base_url = self.base_url.clone().or_else(|| config.base_url());
        let footprint = config.footprint(&self.config)?;
        let repository = match &self.repository {
            Some(given) => energyboard::repository_address(given)
                .map_err(|err| anyhow::anyhow!("--repository: {err}"))?,
            None => config.repository(),
        };
        Ok(BuildOptions {
            data_dir: self.data.clone(),
            static_dir: static_dir(self.static_dir.as_ref())?,
            out_dir: self.out.clone(),
            force: self.force,
            base_url,
            repository,
            workloads: config.workloads,
            footprint,
        })
    }
}

/// The static folder: the one given, which must exist, or `static`, which
/// may not (the built-in assets are used alone then).
fn static_dir(given: Option<&PathBuf>) -> anyhow::Result<PathBuf> {
    match given {
        Some(dir) if !dir.is_dir() => anyhow::bail!(
            "--static {}: is not a folder; leave --static out to use the built-in assets",
            dir.display()
        ),
        Some(dir) => Ok(dir.clone()),
        None => Ok(PathBuf::from("static")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        None => build(&cli.build),
        Some(Command::Build(args)) => build(&args),
        Some(Command::Check(args)) => {
            let summary = energyboard::check(&args.options()?)?;
            report_skipped(&summary.skipped);
            println!("check passed: {summary} (nothing written)");
            Ok(())
        }
        Some(Command::Serve(args)) => serve(args),
        Some(Command::Import(args)) => import(&args),
    }
}

/// A progress bar on standard error, shown only on a terminal and only for
/// builds big enough to take a noticeable time.
struct Bar(indicatif::ProgressBar);

impl energyboard::Progress for Bar {
    fn begin(&self, models: usize) {
        use std::io::IsTerminal;
        if models >= 200 && std::io::stderr().is_terminal() {
            self.0
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
            self.0.set_length(models as u64);
            self.0.set_style(
                indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} models")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            self.0.set_message("rendering");
        }
    }
    fn advance(&self) {
        self.0.inc(1);
    }
    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let settings_path = std::path::Path::new("energyboard.toml");
    let settings = Config::load(settings_path)?;
    energyboard::serve::run(&energyboard::serve::ServeOptions {
        build: BuildOptions {
            data_dir: args.data,
            static_dir: static_dir(args.static_dir.as_ref())?,
            out_dir: args.out.clone().unwrap_or_default(),
            force: args.force,
            base_url: None,
            repository: settings.repository(),
            // The repository's settings, when serve runs where they are.
            workloads: settings.workloads.clone(),
            footprint: settings.footprint(settings_path)?,
        },
        temporary: args.out.is_none(),
        port: args.port,
        base_path: args.base_path,
    })
}

fn import(args: &ImportArgs) -> anyhow::Result<()> {
    energyboard::write::stop_on_ctrl_c()?;
    let source = match &args.source {
        None => None,
        Some(id) => {
            let config = Config::load(&args.config)?;
            let found = config.sources.into_iter().find(|s| s.id == *id);
            Some(found.ok_or_else(|| {
                anyhow::anyhow!(
                    "--source {id:?}: {} has no [[sources]] entry with id = {id:?}; add one with \
                        its name, url and licence",
                    args.config.display()
                )
            })?)
        }
    };
    let report = energyboard::import::import(&energyboard::import::ImportOptions {
        source,
        from: args.from.clone(),
        data_dir: args.data.clone(),
        editorial: args.editorial.clone(),
        retrieved: args.retrieved.clone(),
        updated: args.updated.clone(),
        data_version: args.data_version.clone(),
        tasks_committed: args.tasks_committed.clone(),
    })?;
    for warning in &report.warnings {
        eprintln!("warning: {warning}");
    }
    println!("{report}");
    if let Some(path) = args.summary.as_ref().filter(|_| !report.is_unchanged()) {
        std::fs::write(path, report.summary_markdown())
            .map_err(|err| anyhow::anyhow!("--summary {}: cannot write: {err}", path.display()))?;
    }
    Ok(())
}

fn build(args: &SiteArgs) -> anyhow::Result<()> {
    let options = args.options()?;
    energyboard::write::stop_on_ctrl_c()?;
    let summary =
        energyboard::build_with_progress(&options, &Bar(indicatif::ProgressBar::hidden()))?;
    if options.base_url.is_none() {
        eprintln!(
            "note: no base URL (--base-url or base_url in {}): canonical links, sitemap.xml and \
                absolute link-preview URLs are left out",
            args.config.display()
        );
    }
    report_skipped(&summary.skipped);
    report_removed(&args.out, &summary.removed, summary.removed_total);
    println!("built {}: {summary}", args.out.display());
    Ok(())
}

fn report_removed(out: &std::path::Path, removed: &[String], total: usize) {
    if total == 0 {
        return;
    }
    let more = total - removed.len();
    eprintln!(
        "note: removed {total} file{} from {} that this build does not make (only {} are kept): \
            {}{}",
        if total == 1 { "" } else { "s" },
        out.display(),
        energyboard::write::KEPT_IN_SITE.join(" and "),
        removed.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    );
}

fn report_skipped(skipped: &[PathBuf]) {
    for path in skipped {
        eprintln!("note: skipped {} (not a .json model file)", path.display());
    }
}
