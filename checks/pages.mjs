#!/usr/bin/env node
// Browser checks of the pages a reader sees, in headless Chromium driven by
// playwright-core: the leaderboard, two model pages (smallest and largest),
// one GPU page, compare, about, data, the change log and the 404 page (served at a missing
// URL, with status 404).
//
// Checks, each one per page:
// - axe <page> light / dark: zero axe-core violations (all rules axe runs by
//   default) at 1280 px, in each colour scheme;
// - browser <page>: no script errors and no off-site requests while loading;
// - width <page> 360px: the page itself does not scroll sideways at 360 px
//   (wide tables must scroll inside their own container); checked on the
//   light-scheme load, resized to 360 px;
// - nojs <page>: with JavaScript off, no element marked `hidden` shows (a
//   CSS display rule overriding [hidden] reveals controls that do nothing);
// - shots <page>: full-page screenshots at 1280 px and 390 px, light and dark
//   (and, for the leaderboard, with JavaScript off), written outside the
//   repository; only when asked for (a shots folder: --shots DIR or
//   ENERGYBOARD_SHOTS_DIR), since they take as long as the checks above.
// A page kind the site does not have yet is skipped with a message, or
// fails when requireAll is set (CI sets it: the final site has them all).
//
// As a command: node pages.mjs SITE_DIR [--base-path P] [--base-url URL]
//               [--require-all] [--shots DIR] [--label NAME]

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';

import { listFiles, choosePages, urlPathOf } from './lib/site.mjs';
import { guardedContext, watchErrors } from './lib/browser.mjs';
import { runAlone } from './lib/cli.mjs';
import { sideBySide } from './lib/report.mjs';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where screenshots go; none are taken without a folder. */
export const DEFAULT_SHOTS = process.env.ENERGYBOARD_SHOTS_DIR || '';

const MISSING_PATH = 'this-page-does-not-exist';

function pageUrl(served, p) {
  return p.kind === '404' ? `${served.url}${MISSING_PATH}` : served.url + urlPathOf(p.rel);
}

function describeViolation(v) {
  const nodes = v.nodes.slice(0, 4).map((n) => {
    const target = n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : t)).join(' ');
    const why = (n.failureSummary || '').split('\n').map((s) => s.trim()).filter(Boolean).slice(1, 2).join(' ');
    return `${target}${why ? ` (${why})` : ''}`;
  });
  const more = v.nodes.length > 4 ? `; and ${v.nodes.length - 4} more` : '';
  return `axe ${v.id} [${v.impact}]: ${v.help} — ${v.nodes.length} element(s): ${nodes.join('; ')}${more}`;
}

/** Elements that stick out past the viewport's right edge, outside any scroll container. */
function overflowers() {
  const width = document.documentElement.clientWidth;
  const scrollWidth = document.documentElement.scrollWidth;
  if (scrollWidth <= width) return { width, scrollWidth, culprits: [] };
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const ox = getComputedStyle(p).overflowX;
      if (ox === 'auto' || ox === 'scroll' || ox === 'hidden' || ox === 'clip') return true;
    }
    return false;
  };
  const name = (el) => el.localName + (el.id ? `#${el.id}` : '') + (el.classList.length ? `.${[...el.classList].join('.')}` : '')
    + (el.getAttribute('src') ? `[src="${el.getAttribute('src')}"]` : '');
  const culprits = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 && !clipped(el)) {
      // Report the outermost offender only.
      if (!culprits.some((c) => c.el.contains(el))) culprits.push({ el, right: Math.round(r.right) });
    }
  }
  return { width, scrollWidth, culprits: culprits.slice(0, 5).map((c) => `${name(c.el)} reaches ${c.right}px`) };
}

/**
 * Full-page screenshots would show lazy images below the fold as empty
 * boxes: load them all first (works with JavaScript off too, since
 * playwright evaluates in its own world).
 */
async function loadLazyImages(page) {
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const img of images) if (img.loading === 'lazy') img.loading = 'eager';
    await Promise.race([
      Promise.all(images.map((img) => (img.complete ? null : new Promise((done) => {
        img.addEventListener('load', done, { once: true });
        img.addEventListener('error', done, { once: true });
      })))),
      new Promise((done) => { setTimeout(done, 5000); }),
    ]);
  });
}

/**
 * Runs the browser checks on the chosen pages. Returns the list of screenshot
 * files written.
 */
export async function checkPages({ siteDir, served, browser, report, requireAll = false, shotsDir = DEFAULT_SHOTS, label = 'site' }) {
  const root = path.resolve(siteDir);
  const files = await listFiles(root);
  const { pages, missing } = await choosePages(root, files);
  for (const m of missing) {
    const name = `page kind "${m.kind}" exists`;
    if (requireAll) report.fail(name, `no ${m.rel} in the site; the checks need a ${m.kind} page`);
    else report.skip(name, `no ${m.rel} in the site yet (set ENERGYBOARD_REQUIRE_ALL_PAGES=1 to make this fail)`);
  }
  if (!pages.length) return [];
  report.note(`pages: ${pages.map((p) => `${p.kind}=${p.rel}`).join(', ')}`);

  // axe, script errors and off-site requests, at 1280 px in each scheme;
  // and the pages without JavaScript: the three side by side, each in a
  // context of its own (a part that waits mostly on page loads).
  await sideBySide(report, [
    (r) => checkScheme({ served, browser, pages, report: r, scheme: 'light' }),
    (r) => checkScheme({ served, browser, pages, report: r, scheme: 'dark' }),
    (r) => checkNoJs({ served, browser, pages, report: r }),
  ]);

  // Screenshots, outside the repository, when asked for.
  if (!shotsDir) {
    report.note('no screenshots (set ENERGYBOARD_SHOTS_DIR=DIR to write them)');
    return [];
  }
  return takeShots({ served, browser, pages, report, shotsDir, label });
}

/** axe, and in the light scheme script errors, off-site requests and the width at 360 px. */
async function checkScheme({ served, browser, pages, report, scheme }) {
  const { context, offsite } = await guardedContext(browser, served, {
    colorScheme: scheme,
    viewport: { width: 1280, height: 900 },
    reducedMotion: 'reduce',
  });
  for (const p of pages) {
    const page = await context.newPage();
    const url = pageUrl(served, p);
    const errors = watchErrors(page, url);
    offsite.length = 0;
    const problems = [];
    try {
      const response = await page.goto(url, { waitUntil: 'load', timeout: 30000 });
      const want = p.kind === '404' ? 404 : 200;
      if (!response || response.status() !== want) {
        problems.push(`${url} answered ${response ? response.status() : 'nothing'}, expected ${want}`);
      }
      await page.addScriptTag({ path: AXE_PATH });
      const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      problems.push(...result.violations.map(describeViolation));
    } catch (err) {
      problems.push(`could not check ${url}: ${err.message.split('\n')[0]}`);
    }
    report.check(`axe ${p.name} ${scheme}`, problems);
    if (scheme === 'light') {
      const browserProblems = [...errors, ...[...new Set(offsite)].map((u) => `off-site request: ${u}`)];
      report.check(`browser ${p.name}`, browserProblems, 'no script errors, no off-site requests');
      // Readable at 360 px: no sideways scrolling of the page itself. The
      // same load, resized (no script of the site reads the width; the
      // self-test's layout case shows a resize finds what a load finds).
      const narrow = [];
      try {
        await page.setViewportSize({ width: 360, height: 740 });
        await page.evaluate(() => new Promise((done) => { requestAnimationFrame(() => requestAnimationFrame(done)); }));
        const o = await page.evaluate(overflowers);
        if (o.scrollWidth > o.width) {
          narrow.push(`the page is ${o.scrollWidth}px wide in a ${o.width}px viewport and scrolls sideways${o.culprits.length ? `: ${o.culprits.join(', ')}` : ''}`);
        }
      } catch (err) {
        narrow.push(`could not check: ${err.message.split('\n')[0]}`);
      }
      report.check(`width ${p.name} 360px`, narrow);
    }
    await page.close();
  }
  await context.close();
}

/**
 * Without JavaScript: what the script would reveal stays hidden. An
 * element marked `hidden` (e.g. filters the script turns on) must not show
 * because a stylesheet rule overrides the attribute.
 */
async function checkNoJs({ served, browser, pages, report }) {
  const { context } = await guardedContext(browser, served, { viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
  for (const p of pages) {
    const page = await context.newPage();
    const problems = [];
    try {
      await page.goto(pageUrl(served, p), { waitUntil: 'load', timeout: 30000 });
      const shown = await page.evaluate(() => [...document.querySelectorAll('[hidden]')]
        .filter((el) => el.hidden && getComputedStyle(el).display !== 'none')
        .map((el) => `<${el.localName}${el.className ? ` class="${el.className}"` : ''}> has the hidden attribute but displays as "${getComputedStyle(el).display}" (a CSS rule overrides [hidden])`));
      problems.push(...shown);
    } catch (err) {
      problems.push(`could not load: ${err.message.split('\n')[0]}`);
    }
    report.check(`nojs ${p.name}`, problems, 'hidden stays hidden without JavaScript');
    await page.close();
  }
  await context.close();
}

/** Screenshots of `pages` into `shotsDir`/`label`; returns the files written. */
async function takeShots({ served, browser, pages, report, shotsDir, label }) {
  const outDir = path.resolve(shotsDir, label);
  const rel = path.relative(REPO_ROOT, outDir);
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) {
    report.fail('screenshots folder', `${outDir} is inside the repository; set ENERGYBOARD_SHOTS_DIR to a folder outside it`);
    return [];
  }
  await fs.mkdir(outDir, { recursive: true });
  for (const old of await fs.readdir(outDir)) {
    if (old.endsWith('.png')) await fs.rm(path.join(outDir, old));
  }
  const written = [];
  const shotProblems = new Map(pages.map((p) => [p.name, []]));
  const combos = [];
  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark']) {
      combos.push({ width, scheme, js: true });
      combos.push({ width, scheme, js: false });
    }
  }
  for (const { width, scheme, js } of combos) {
    const targets = js ? pages : pages.filter((p) => p.kind === 'leaderboard' || p.kind === 'workload');
    if (!targets.length) continue;
    const { context } = await guardedContext(browser, served, {
      colorScheme: scheme,
      viewport: { width, height: width > 800 ? 900 : 844 },
      javaScriptEnabled: js,
      reducedMotion: 'reduce',
    });
    for (const p of targets) {
      const page = await context.newPage();
      const file = path.join(outDir, `${p.name}-${width}-${scheme}${js ? '' : '-nojs'}.png`);
      try {
        await page.goto(pageUrl(served, p), { waitUntil: 'load', timeout: 30000 });
        await loadLazyImages(page);
        await page.screenshot({ path: file, fullPage: true });
        const size = (await fs.stat(file)).size;
        if (size < 1000) shotProblems.get(p.name).push(`${file} is only ${size} bytes`);
        else written.push(file);
      } catch (err) {
        shotProblems.get(p.name).push(`${path.basename(file)}: ${err.message.split('\n')[0]}`);
      }
      await page.close();
    }
    await context.close();
  }
  for (const p of pages) {
    const n = p.kind === 'leaderboard' || p.kind === 'workload' ? 8 : 4;
    report.check(`shots ${p.name}`, shotProblems.get(p.name), `${n} screenshots`);
  }
  report.note(`${written.length} screenshots in ${outDir}`);
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  await runAlone({
    name: 'pages',
    title: 'Pages in Chromium',
    usage: 'node pages.mjs SITE_DIR [--base-path P] [--base-url URL] [--require-all] [--shots DIR] [--label NAME]',
    valued: ['--shots', '--label'],
    check: ({ siteDir, served, browser, report, args }) =>
      checkPages({
        siteDir,
        served,
        browser,
        report,
        requireAll: args.has('--require-all') || process.env.ENERGYBOARD_REQUIRE_ALL_PAGES === '1',
        shotsDir: args.opt('--shots', DEFAULT_SHOTS),
        label: args.opt('--label', 'site'),
      }),
  });
}
