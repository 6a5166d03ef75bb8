#!/usr/bin/env node
// All site checks of one or more built sites, in one run: serve each under a
// sub-path on 127.0.0.1, then the Nu Html Checker, the link check and the
// browser checks (axe-core, script errors, width, reader controls, layout,
// chart text, screenshots).
//
// Several sites (separated by `--`, each with its own options) share one
// Java run of the Nu Html Checker and one Chromium: vnu runs in its own
// process while the browser checks go on, and the parts of all sites'
// browser checks run several at a time (each in contexts of its own), so
// that the 2 cores stay busy without two Java starts or two browsers.
//
// Prints each site's output whole when all are done, then one line
// `part NAME: N passed, N failed` per part (`part LABEL NAME: ...` with
// several sites; ./test.sh counts each part as one test and its checks
// apart), then ends with exactly one `N passed, N failed` line; exits 1
// when anything failed.
//
// Usage: node checks/run.mjs SITE_DIR [options] [-- SITE_DIR [options] ...]
//   --base-url URL     the --base-url the site was built with (its URLs are
//                      then mapped onto the local server); the sub-path is
//                      taken from it
//   --base-path P      sub-path to serve under (default /energyboard/)
//   --label NAME       name for this site in the output and the screenshots
//                      folder (default: the folder's name)
//   --shots DIR        screenshots folder, outside the repository (default
//                      $ENERGYBOARD_SHOTS_DIR; none: no screenshots)
//   --require-all      fail when a page kind is missing (also when
//                      ENERGYBOARD_REQUIRE_ALL_PAGES=1)
//   --only a,b         run only some of: vnu, links, pages, reader, layout, charts

import path from 'node:path';

import { Report, since } from './lib/report.mjs';
import { launchBrowser } from './lib/browser.mjs';
import { parseArgs, serveSite } from './lib/cli.mjs';
import { checkConformanceOf } from './vnu.mjs';
import { checkLinks } from './links.mjs';
import { checkPages, DEFAULT_SHOTS } from './pages.mjs';
import { checkReader } from './reader.mjs';
import { checkLayout } from './layout.mjs';
import { checkCharts } from './charts.mjs';
import { checkFirstScreens } from './firstscreen.mjs';

const USAGE = 'usage: node checks/run.mjs SITE_DIR [--base-url URL] [--base-path P] [--label NAME] [--shots DIR] [--require-all] [--only vnu,links,pages,reader,layout,charts,firstscreen] [-- SITE_DIR [options] ...]';
const PARTS = ['vnu', 'links', 'pages', 'reader', 'layout', 'charts', 'firstscreen'];
const BROWSER_PARTS = ['pages', 'reader', 'layout', 'charts', 'firstscreen'];
// The order the parts start in: the longest first (2026-12-02, load average
// about 3, the parts of a site one after the other: pages 97 + 79 s, reader
// 77 + 43 s, layout 40 + 28 s, charts 33 + 44 s, links 9 + 4 s for the whole
// leaderboard and the large fixture), so that no long part starts last.
const ORDER = ['pages', 'reader', 'layout', 'charts', 'firstscreen', 'links'];
// Parts run at once, in one Chromium. A part spends most of its time
// waiting (page loads, rendering, the protocol: 132 CPU-seconds in 257 s for
// both sites, one part of each site at a time), and the slow ones also run
// their halves side by side (pages its colour schemes and no-JavaScript
// pass, reader its two workloads, layout its widths and its tasks, charts
// its two widths), so that about six pages load at once.
const STREAMS = 3;
const TITLES = {
  vnu: 'Nu Html Checker',
  links: 'Links',
  pages: 'Pages in Chromium: axe-core, errors, width, screenshots',
  reader: 'Reader controls in Chromium: compare, latency limit',
  layout: 'Layout at 320–1280 px and reader tasks',
  charts: 'Chart text in Chromium: at least 11 px at 390 and 1280 px',
  firstscreen: 'First screens in Chromium: data in view at 390 × 844 and 1280 × 800',
};

// The command line: one group of arguments a site, separated by `--`.
const groups = [[]];
for (const a of process.argv.slice(2)) {
  if (a === '--') groups.push([]);
  else groups[groups.length - 1].push(a);
}
const report = new Report();
const started = performance.now();
const sites = [];
for (const argv of groups) {
  const args = parseArgs(argv, ['--label', '--shots', '--only']);
  if (args.positional.length !== 1) {
    console.error(USAGE);
    process.exit(2);
  }
  const siteDir = path.resolve(args.positional[0]);
  const only = new Set(args.opt('--only', PARTS.join(',')).split(',').map((s) => s.trim()));
  sites.push({
    args,
    siteDir,
    label: args.opt('--label', path.basename(siteDir)),
    only,
    requireAll: args.has('--require-all') || process.env.ENERGYBOARD_REQUIRE_ALL_PAGES === '1',
    shotsDir: args.opt('--shots', DEFAULT_SHOTS),
    timings: [],
    parts: new Map(), // part name -> { lines, report }
  });
}
const several = sites.length > 1;

/** A part of one site: its report (adding into the whole run's) and its printed lines. */
function partOf(site, name) {
  const lines = [];
  const r = report.child(several ? `${site.label} ${name}` : name, { out: (line) => lines.push(line) });
  site.parts.set(name, { lines, report: r });
  return r;
}

async function run(site, name, fn) {
  const t = performance.now();
  const r = partOf(site, name);
  try {
    await fn(r);
  } catch (err) {
    r.fail(`${name} ran to the end`, err.stack || err.message);
  }
  site.timings.push(`${name} ${since(t)}`);
}

let browser = null;
try {
  for (const site of sites) {
    const { server, served, baseUrl } = await serveSite(site.siteDir, site.args);
    Object.assign(site, { server, served, baseUrl });
  }
  // One Java run for every site's vnu part, in a process of its own, while
  // the browser checks go on.
  const vnuSites = sites.filter((s) => s.only.has('vnu'));
  const vnuStart = performance.now();
  const vnuDone = vnuSites.length
    ? checkConformanceOf(vnuSites.map((s) => ({ siteDir: s.siteDir, report: partOf(s, 'vnu') })))
      .catch((err) => {
        for (const s of vnuSites) s.parts.get('vnu').report.fail('vnu ran to the end', err.stack || err.message);
      })
      .then(() => { for (const s of vnuSites) s.timings.push(`vnu (all sites, one Java run) ${since(vnuStart)}`); })
    : Promise.resolve();

  if (sites.some((s) => BROWSER_PARTS.some((p) => s.only.has(p)))) {
    const t = performance.now();
    browser = await launchBrowser();
    for (const s of sites) s.timings.push(`chromium start ${since(t)}`);
  }
  // Each site's links and browser checks: every part of every site is a
  // job of its own, taken from one queue by STREAMS workers, so that the
  // cores stay busy to the end rather than waiting on one site's parts one
  // after the other.
  const checks = {
    links: (site, r) => checkLinks({ siteDir: site.siteDir, served: site.served, report: r }),
    pages: (site, r) => checkPages({
      siteDir: site.siteDir, served: site.served, browser, report: r,
      requireAll: site.requireAll, shotsDir: site.shotsDir, label: site.label,
    }),
    reader: (site, r) => checkReader({ siteDir: site.siteDir, served: site.served, browser, report: r }),
    layout: (site, r) => checkLayout({ siteDir: site.siteDir, served: site.served, browser, report: r }),
    charts: (site, r) => checkCharts({ siteDir: site.siteDir, served: site.served, browser, report: r }),
    firstscreen: (site, r) => checkFirstScreens({ siteDir: site.siteDir, served: site.served, browser, report: r }),
  };
  const jobs = ORDER.flatMap((name) => sites.filter((s) => s.only.has(name)).map((site) => ({ site, name })));
  await Promise.all(Array.from({ length: Math.min(STREAMS, jobs.length) }, async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      await run(job.site, job.name, (r) => checks[job.name](job.site, r));
    }
  }));
  await vnuDone;
} finally {
  if (browser) await browser.close();
  for (const s of sites) if (s.server) await s.server.close();
}

// Each site's output, whole, part by part.
for (const site of sites) {
  console.log(`\nsite checks for ${site.label}: ${site.siteDir}${site.baseUrl ? ` (built with --base-url ${site.baseUrl})` : ''}`);
  console.log(`served at ${site.served.url}`);
  for (const name of PARTS) {
    const part = site.parts.get(name);
    if (!part) continue;
    console.log(`\n== ${TITLES[name]} (${site.label})`);
    for (const line of part.lines) console.log(line);
  }
}
if (report.failures.length) {
  console.log('\nFailures:');
  for (const f of report.failures) {
    console.log(`  [${f.section}] ${f.name}`);
    for (const p of f.problems) console.log(`      - ${p}`);
  }
}
console.log();
for (const site of sites) console.log(`${site.label}: ${site.timings.join(', ')}`);
console.log(`total ${since(started)}; ${report.warnings} warnings, ${report.skipped} skipped`);
for (const site of sites) {
  for (const name of PARTS) {
    const part = site.parts.get(name);
    if (part) console.log(`part ${several ? `${site.label} ` : ''}${name}: ${part.report.summaryLine()}`);
  }
}
console.log(report.summaryLine());
process.exitCode = report.failed ? 1 : 0;
