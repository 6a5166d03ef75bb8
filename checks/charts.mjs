#!/usr/bin/env node
// Chart text a reader can read: on the pages the browser checks visit (see
// lib/site.mjs), at 390 px and at 1280 px, every text of every chart is
// drawn at least 11 CSS px high, and at 1280 px none is drawn more than
// 18 CSS px high (one 400-unit drawing serves phones and laptops, so it
// must not grow to fill a wide page). A chart is an SVG shown as an <img>, an
// <object> or inline (`svg.ebc`); its texts' font sizes are in its own
// units (an <iframe> too), so the size on screen is the font size times the width the chart
// is shown at over its viewBox width. An <img> inside a <picture> is
// measured in the file the browser chose (`currentSrc`).
//
// With --shots DIR, also writes a screenshot of the first chart of each
// kind (by file name, e.g. energy-vs-concurrency.svg) at both widths in
// light and dark, to look at.
//
// As a command: node charts.mjs SITE_DIR [--base-path P] [--base-url URL] [--shots DIR]

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { listFiles, choosePages, urlPathOf } from './lib/site.mjs';
import { guardedContext } from './lib/browser.mjs';
import { runAlone } from './lib/cli.mjs';
import { sideBySide } from './lib/report.mjs';

export const MIN_PX = 11;
/** The largest chart text at desktop widths (≥ 1280 px), in CSS px. */
export const MAX_PX = 18;
const DESKTOP = 1280;
const WIDTHS = [390, 1280];

/** In the page: every chart shown, with its smallest text on screen. */
async function measure() {
  const charts = [];
  const small = (doc, scale) => {
    let min = Infinity;
    let max = 0;
    let which = '';
    let biggest = '';
    for (const t of doc.querySelectorAll('text')) {
      const size = parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize);
      if (size * scale < min) {
        min = size * scale;
        which = t.textContent;
      }
      if (size * scale > max) {
        max = size * scale;
        biggest = t.textContent;
      }
    }
    return { min, which, max, biggest };
  };
  const viewBoxWidth = (svg) => parseFloat((svg.getAttribute('viewBox') || '').split(/[ ,]+/)[2]);
  for (const el of document.querySelectorAll('img, object, iframe')) {
    const src = el.localName === 'img' ? el.currentSrc || el.src : el.data || el.src;
    if (!/\.svg(\?|#|$)/.test(src)) continue;
    const shown = el.getBoundingClientRect().width;
    if (!shown || getComputedStyle(el).display === 'none') continue;
    const text = await (await fetch(src)).text();
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    if (!svg.classList.contains('ebc')) continue; // not a chart (badges, icons)
    const { min, which, max, biggest } = small(svg, shown / viewBoxWidth(svg));
    charts.push({ src: src.replace(location.origin, ''), shown: Math.round(shown), min, which, max, biggest });
  }
  for (const svg of document.querySelectorAll('svg.ebc')) {
    const shown = svg.getBoundingClientRect().width;
    if (!shown) continue;
    const { min, which, max, biggest } = small(svg, shown / viewBoxWidth(svg));
    charts.push({ src: `inline svg in ${location.pathname}`, shown: Math.round(shown), min, which, max, biggest });
  }
  return charts;
}

export async function checkCharts({ siteDir, served, browser, report, shotsDir = '' }) {
  const root = path.resolve(siteDir);
  const files = await listFiles(root);
  const { pages } = await choosePages(root, files);
  const kindOf = (src) => (src.startsWith('inline') ? 'frontier-picker.svg' : src).split(/[?#]/)[0].split('/').pop().replace(/-(b200|h100|[a-z0-9]+\d+)\.svg$/, '-GPU.svg');
  const shotsTaken = new Set();
  // The widths side by side (a part that waits mostly on page loads).
  await sideBySide(report, WIDTHS.map((width) => (r) => chartsAt({
    served, browser, pages, report: r, shotsDir, kindOf, shotsTaken, width,
  })));
}

/** The chart text of `pages` at `width`. */
async function chartsAt({ served, browser, pages, report, shotsDir, kindOf, shotsTaken, width }) {
  for (const scheme of ['light', 'dark']) {
    if (scheme === 'dark' && !shotsDir) continue;
    const { context } = await guardedContext(browser, served, {
      colorScheme: scheme, viewport: { width, height: 900 }, reducedMotion: 'reduce',
    });
    for (const p of pages) {
      if (p.kind === '404') continue;
      const page = await context.newPage();
      const problems = [];
      let count = 0;
      try {
        await page.goto(served.url + urlPathOf(p.rel), { waitUntil: 'load', timeout: 30000 });
        await page.evaluate(() => { for (const img of document.querySelectorAll('img, iframe')) img.loading = 'eager'; });
        await page.waitForLoadState('networkidle');
        const charts = await page.evaluate(measure);
        count = charts.length;
        for (const c of charts) {
          if (c.min < MIN_PX) {
            problems.push(`${c.src} shown ${c.shown}px wide: "${c.which}" is ${c.min.toFixed(1)}px`);
          }
          if (width >= DESKTOP && c.max > MAX_PX) {
            problems.push(`${c.src} shown ${c.shown}px wide: "${c.biggest}" is ${c.max.toFixed(1)}px, over ${MAX_PX}px`);
          }
        }
        if (shotsDir) {
          for (const c of charts) {
            const kind = kindOf(c.src);
            const key = `${kind}-${width}-${scheme}`;
            if (shotsTaken.has(key)) continue;
            shotsTaken.add(key);
            const el = c.src.startsWith('inline')
              ? page.locator('svg.ebc').first()
              : page.locator(`img[src$="${c.src.split('/').pop()}"], object[data$="${c.src.split('/').pop()}"], iframe[src$="${c.src.split('/').pop()}"]`).first();
            await fs.mkdir(shotsDir, { recursive: true });
            await el.scrollIntoViewIfNeeded();
            await el.screenshot({ path: path.join(shotsDir, `${kind.replace(/\.svg$/, '')}-${width}-${scheme}.png`) });
          }
        }
      } catch (err) {
        problems.push(`could not check: ${err.message.split('\n')[0]}`);
      }
      if (scheme === 'light') {
        report.check(`chart text ${p.name} ${width}px`, problems, `${count} charts, every text ≥ ${MIN_PX}px${width >= DESKTOP ? ` and ≤ ${MAX_PX}px` : ''}`);
      }
      await page.close();
    }
    await context.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runAlone({
    name: 'charts',
    title: 'Chart text in Chromium',
    usage: 'node charts.mjs SITE_DIR [--base-path P] [--base-url URL] [--shots DIR]',
    valued: ['--shots'],
    check: ({ siteDir, served, browser, report, args }) => checkCharts({
      siteDir, served, browser, report, shotsDir: args.opt('--shots', ''),
    }),
  });
}
