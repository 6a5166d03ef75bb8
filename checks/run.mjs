#!/usr/bin/env node
// All site checks of one built site, in one run: serve it under a sub-path
// on 127.0.0.1, then the Nu Html Checker, the link check and the browser
// checks (axe-core, script errors, width, screenshots). Prints one line
// `part NAME: N passed, N failed` per part (./test.sh counts each part as
// one test and its checks apart), then ends with exactly one
// `N passed, N failed` line; exits 1 when anything failed.
//
// Usage: node checks/run.mjs SITE_DIR [options]
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

import { Report, heading, since } from './lib/report.mjs';
import { launchBrowser } from './lib/browser.mjs';
import { parseArgs, serveSite } from './lib/cli.mjs';
import { checkConformance } from './vnu.mjs';
import { checkLinks } from './links.mjs';
import { checkPages, DEFAULT_SHOTS } from './pages.mjs';
import { checkReader } from './reader.mjs';
import { checkLayout } from './layout.mjs';
import { checkCharts } from './charts.mjs';

const args = parseArgs(process.argv.slice(2), ['--label', '--shots', '--only']);
if (args.positional.length !== 1) {
  console.error('usage: node checks/run.mjs SITE_DIR [--base-url URL] [--base-path P] [--label NAME] [--shots DIR] [--require-all] [--only vnu,links,pages,reader,layout,charts]');
  process.exit(2);
}
const siteDir = path.resolve(args.positional[0]);
const opt = args.opt;
const label = opt('--label', path.basename(siteDir));
const only = new Set(opt('--only', 'vnu,links,pages,reader,layout,charts').split(',').map((s) => s.trim()));
const requireAll = args.has('--require-all') || process.env.ENERGYBOARD_REQUIRE_ALL_PAGES === '1';

const report = new Report();
const timings = [];
const parts = [];
const started = performance.now();

async function part(name, fn) {
  const t = performance.now();
  const r = report.child(name);
  try {
    await fn(r);
  } catch (err) {
    r.fail(`${name} ran to the end`, err.stack || err.message);
  }
  timings.push(`${name} ${since(t)}`);
  parts.push(`part ${name}: ${r.summaryLine()}`);
}

const { server, served, baseUrl } = await serveSite(siteDir, args);
console.log(`site checks for ${label}: ${siteDir}${baseUrl ? ` (built with --base-url ${baseUrl})` : ''}`);
console.log(`served at ${served.url}`);
let browser = null;
try {
  if (only.has('vnu')) {
    heading(`Nu Html Checker (${label})`);
    await part('vnu', (r) => checkConformance(siteDir, r));
  }
  if (only.has('pages') || only.has('reader') || only.has('layout') || only.has('charts')) {
    const t = performance.now();
    browser = await launchBrowser();
    timings.push(`chromium start ${since(t)}`);
  }
  if (only.has('links')) {
    heading(`Links (${label})`);
    await part('links', (r) => checkLinks({ siteDir, served, report: r }));
  }
  if (only.has('pages')) {
    heading(`Pages in Chromium: axe-core, errors, width, screenshots (${label})`);
    await part('pages', (r) => checkPages({
      siteDir, served, browser, report: r, requireAll, shotsDir: opt('--shots', DEFAULT_SHOTS), label,
    }));
  }
  if (only.has('reader')) {
    heading(`Reader controls in Chromium: compare, latency limit (${label})`);
    await part('reader', (r) => checkReader({ siteDir, served, browser, report: r }));
  }
  if (only.has('layout')) {
    heading(`Layout at 320–1280 px and reader tasks (${label})`);
    await part('layout', (r) => checkLayout({ siteDir, served, browser, report: r }));
  }
  if (only.has('charts')) {
    heading(`Chart text in Chromium: at least 11 px at 390 and 1280 px (${label})`);
    await part('charts', (r) => checkCharts({ siteDir, served, browser, report: r }));
  }
} finally {
  if (browser) await browser.close();
  await server.close();
}

if (report.failures.length) {
  console.log(`\nFailures (${label}):`);
  for (const f of report.failures) {
    console.log(`  [${f.section}] ${f.name}`);
    for (const p of f.problems) console.log(`      - ${p}`);
  }
}
console.log(`\n${label}: ${timings.join(', ')}; total ${since(started)}; ${report.warnings} warnings, ${report.skipped} skipped`);
for (const line of parts) console.log(line);
console.log(report.summaryLine());
process.exitCode = report.failed ? 1 : 0;
