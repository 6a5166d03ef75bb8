#!/usr/bin/env node
// Issue 42: a model page's time–energy chart responds, and the chosen
// configuration drives the histogram. On a built site, on the model page
// of WORKLOAD with the most configurations that have a histogram:
// `width` the chart shown is at least 70% of a 1280 px page and fits a
// 390 px one, its text 11–18 px as rendered; `tap` at 390 px with touch, a
// tap on a point that is not the best shows its figures in a box, the page
// stays, and the histogram's caption names the point's setup and shows its
// file; `click` at 1280 px a mouse click on a point goes to its row in the
// same page; `row click` a click on a table row and `row` going to a row's
// anchor (a link of the box, a card) name that configuration in the caption.
//
// As a command: node modelchart.mjs SITE_DIR [WORKLOAD] [--shots DIR]
// (serves SITE_DIR itself; with --shots, screenshots of the chart and the
// histogram at 390 and 1280 px, light and dark).

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './lib/browser.mjs';
import { startServer } from './serve.mjs';

const args = process.argv.slice(2);
const shotsAt = args.indexOf('--shots');
const shots = shotsAt >= 0 ? args.splice(shotsAt, 2)[1] : '';
const [site, workload = 'lm-arena-chat'] = args;
let passed = 0, failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++; else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : ': ' + detail}`);
}

// The model of the workload whose page states the most configurations'
// histograms, with the data its page states.
async function chooseModel() {
  const dir = path.join(site, 'workloads', workload, 'models');
  let best = null;
  for (const slug of await fs.readdir(dir)) {
    const html = await fs.readFile(path.join(dir, slug, 'index.html'), 'utf8').catch(() => '');
    const m = /<script type="application\/json" id="chosen-data">([^<]*)<\/script>/.exec(html);
    if (!m) continue;
    const data = JSON.parse(m[1]);
    const n = Object.keys(data.rows).length;
    if (!best || n > best.n) best = { slug, data, n };
  }
  return best;
}

// The visible time–energy chart frame of the page.
async function shownChart(page) {
  for (const f of await page.$$('#chart-time-energy-tradeoff iframe')) {
    if (await f.isVisible()) return f;
  }
  return null;
}

// The smallest and largest text of the chart in `frame` as rendered, px.
async function textSizes(frame, shownWidth) {
  return frame.evaluate((shown) => {
    const svg = document.documentElement;
    const scale = shown / svg.viewBox.baseVal.width;
    const sizes = [...document.querySelectorAll('text')]
      .map((t) => parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize) * scale);
    return { min: Math.min(...sizes), max: Math.max(...sizes) };
  }, shownWidth);
}

async function caption(page) {
  return page.$eval('#chosen-response-caption', (c) => c.textContent);
}

async function browserChecks(model) {
  const server = await startServer({ root: site, basePath: '/' });
  const url = `${server.url}workloads/${workload}/models/${model.slug}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    for (const width of [1280, 390]) {
      for (const scheme of shots ? ['light', 'dark'] : ['light']) {
        const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
        const page = await ctx.newPage();
        await page.goto(url);
        const el = await shownChart(page);
        await el.scrollIntoViewIfNeeded();
        const box = await el.boundingBox();
        const frame = await el.contentFrame();
        await frame.waitForSelector('a.pt', { state: 'attached' });
        const { min, max } = await textSizes(frame, box.width);
        if (scheme === 'light') {
          check(`width ${width}px: ${Math.round(box.width)} px, text ${min.toFixed(1)}–${max.toFixed(1)} px`,
            (width === 1280 ? box.width >= 0.7 * 1280 : box.width <= 390) && min >= 11 && max <= 18);
        }
        if (shots) {
          await fs.mkdir(shots, { recursive: true });
          await el.screenshot({ path: path.join(shots, `tradeoff-${width}-${scheme}.png`) });
          const fig = page.locator('#chosen-response');
          await fig.scrollIntoViewIfNeeded();
          await page.waitForTimeout(300);
          await fig.screenshot({ path: path.join(shots, `chosen-${width}-${scheme}.png`) });
        }
        await ctx.close();
      }
    }
    const touch = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const tp = await touch.newPage();
    await tp.goto(url);
    const initial = await caption(tp);
    const el = await shownChart(tp);
    await el.scrollIntoViewIfNeeded();
    const f = await el.contentFrame();
    await f.waitForSelector('a.pt', { state: 'attached' });
    const before = tp.url();
    // A configuration other than the one shown first, whose point no
    // other covers (the one whose centre is farthest from any other).
    const firstRows = Object.keys(model.data.rows).filter((r) => initial.includes(model.data.rows[r].setup));
    const row = await f.evaluate((first) => {
      const pts = [...document.querySelectorAll('a.pt[data-row]')].map((a) => {
        const b = a.getBBox();
        return { row: a.getAttribute('data-row'), x: b.x + b.width / 2, y: b.y + b.height / 2 };
      });
      let best = null, far = -1;
      for (const p of pts) {
        if (first.includes(p.row)) continue;
        const d = Math.min(...pts.filter((q) => q !== p).map((q) => Math.hypot(q.x - p.x, q.y - p.y)));
        if (d > far) { far = d; best = p.row; }
      }
      return best;
    }, firstRows);
    const setup = model.data.rows[row].setup;
    const target = await f.$(`a.pt[data-row="${row}"]`);
    await target.tap();
    await tp.waitForTimeout(300);
    const tip = await f.$eval('.tip', (g) => g.textContent).catch(() => '');
    const title = await target.$eval('title', (t) => t.textContent);
    check(`tap 390px: box "${tip.slice(0, 60)}…", page stays`, tip.length > 0
      && title.startsWith(tip.split(':')[0].slice(0, 10)) && tp.url() === before, `${tp.url()} vs ${before}`);
    const chosen = await caption(tp);
    const src = await tp.$eval('#chosen-response img', (i) => i.getAttribute('src'));
    const shown = await tp.$eval('#chosen-response', (fig) => !fig.hidden && fig.getBoundingClientRect().height > 0);
    check(`tap 390px: the histogram of ${row} ("${setup}")`, shown && chosen.includes(setup)
      && !initial.includes(setup) && src.endsWith(`/${row}.svg`), `caption "${chosen}", src ${src}`);
    await touch.close();
    // With a mouse, a click on a point (its figures shown on hover) goes to
    // its row in the same page (no new load) and names it; a click on a
    // table row names that row's configuration.
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(url);
    await page.evaluate(() => { window.sameDocument = true; });
    const wide = await shownChart(page);
    await wide.scrollIntoViewIfNeeded();
    const wf = await wide.contentFrame();
    await wf.waitForSelector('a.pt', { state: 'attached' });
    await (await wf.$(`a.pt[data-row="${row}"]`)).click();
    await page.waitForTimeout(300);
    const same = await page.evaluate(() => window.sameDocument === true);
    check(`click 1280px: the address goes to #${row} in the same page`,
      same && new URL(page.url()).hash === `#${row}` && (await caption(page)).includes(setup), page.url());
    const third = Object.keys(model.data.rows).find((r) => r !== row && !initial.includes(model.data.rows[r].setup));
    await page.click(`tr[id="${third}"] td:last-child`);
    check(`row click: the caption names "${model.data.rows[third].setup}"`,
      (await caption(page)).includes(model.data.rows[third].setup));
    // Going to another row's anchor (a link of the box, a card) names it.
    await page.goto(url);
    const other = Object.keys(model.data.rows).find((r) => r !== row && !initial.includes(model.data.rows[r].setup));
    await page.goto(`${url}#${other}`);
    await page.waitForTimeout(200);
    const named = await caption(page);
    check(`row #${other}: the caption names "${model.data.rows[other].setup}"`,
      named.includes(model.data.rows[other].setup), named);
    await ctx.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

const model = await chooseModel();
check(`a model page of ${workload} states its configurations' histograms`, model !== null);
if (model) {
  console.log(`model page: ${model.slug} (${model.n} configurations)`);
  await browserChecks(model);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
