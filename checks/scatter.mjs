#!/usr/bin/env node
// Issue 42: the all-configurations chart responds. On a built site:
// `width` the chart shown is at least 70% of a 1280 px page and fits a
// 390 px one; `filter` ?gpu=H100 leaves no B200 point visible, ?budget= no
// point above the budget, ?itl= no point past the limit; `tap` at 390 px
// with touch, a tap on a point shows its figures in a box and the page
// stays; `looks` every titled point of every scatter and frontier chart
// of the site maps to one colour and one marker per model.
//
// As a command: node scatter.mjs SITE_DIR [WORKLOAD [TWO_SOURCE_SITE]]   (serves SITE_DIR itself)

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './lib/browser.mjs';
import { startServer } from './serve.mjs';

const [site, workload = 'lm-arena-chat'] = process.argv.slice(2);
// A third argument: a site of the same data plus another source, whose
// models of the first site must look the same.
let passed = 0, failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++; else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : ': ' + detail}`);
}

async function allFiles(dir) {
  const out = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...await allFiles(p)); else out.push(p);
  }
  return out;
}

// Each titled point's model and look (its marker's class and shape, the
// shape as its outline relative to its centre) in the scatter charts.
async function looks(site) {
  const seen = new Map();
  for (const f of (await allFiles(site)).filter((f) => /all-configurations(-wide)?\.svg$/.test(f))) {
    const svg = await fs.readFile(f, 'utf8');
    const re = /<a [^>]*class="pt[^"]*"[^>]*><title>([^<]*)<\/title>\n<(circle|rect|polygon|path)([^>]*)>/g;
    for (const m of svg.matchAll(re)) {
      // The model and, on a site of several sources, its source.
      const model = m[1].split(': ')[0];
      const cls = (/class="([^"]*)"/.exec(m[3]) || [])[1];
      let shape = m[2];
      const pts = /points="([^"]*)"/.exec(m[3]) || /d="([^"]*)"/.exec(m[3]);
      if (pts) {
        const xy = pts[1].match(/-?\d+/g).map(Number);
        const xs = xy.filter((_, i) => i % 2 === 0), ys = xy.filter((_, i) => i % 2 === 1);
        const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
        shape += xs.map((x, i) => `${x - cx},${ys[i] - cy}`).slice(0, 4).join(' ');
      }
      // Open (another source's) markers are drawn with an `h` class.
      const look = `${cls.replace(/^h/, 'p')} ${shape}`;
      if (!seen.has(model)) seen.set(model, new Set());
      seen.get(model).add(look);
    }
  }
  const many = [...seen].filter(([, s]) => s.size > 1);
  check(`looks ${seen.size} models`, seen.size > 0 && many.length === 0,
    many.map(([m, s]) => `${m}: ${[...s].join(' | ')}`).join('; '));
  return seen;
}

// The looks of `seen` found alike in `other`, a site of more sources.
function unchanged(seen, other) {
  const changed = [...seen].filter(([m, s]) => other.has(m) && [...other.get(m)].join() !== [...s].join());
  check(`looks unchanged by another source (${[...seen.keys()].filter((m) => other.has(m)).length} models)`,
    changed.length === 0, changed.map(([m]) => m).join(', '));
}

function alike(seen) {
  const byLook = new Map();
  for (const [m, s] of seen) for (const l of s) byLook.set(l, [...(byLook.get(l) || []), m]);
  const shared = [...byLook].filter(([, ms]) => ms.length > 1);
  check('looks no two models alike', seen.size > 49 || shared.length === 0,
    shared.map(([l, ms]) => `${l}: ${ms.join(', ')}`).join('; '));
}

// The visible scatter iframe of the page and its frame.
async function shownScatter(page) {
  const frames = await page.$$('figure[id^="chart-all-configurations"]:not(.only-source) iframe');
  for (const f of frames) {
    if (await f.isVisible()) return { el: f, frame: await f.contentFrame() };
  }
  return null;
}

async function visiblePoints(frame, selector) {
  return frame.$$eval(selector, (as) => as.filter((a) => getComputedStyle(a).display !== 'none'
    && a.getBoundingClientRect().width > 0).length);
}

async function browserChecks() {
  const server = await startServer({ root: site, basePath: '/' });
  const base = `${server.url}workloads/${workload}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    for (const width of [1280, 390]) {
      const ctx = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      await page.goto(base);
      const s = await shownScatter(page);
      await s.el.scrollIntoViewIfNeeded();
      const box = await s.el.boundingBox();
      check(`width ${width}px: ${Math.round(box.width)} px`,
        width === 1280 ? box.width >= 0.7 * 1280 : box.width <= 390);
      await ctx.close();
    }
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    for (const [query, bad, good] of [
      ['?gpu=H100', 'a.pt.gpu-b200', 'a.pt.gpu-h100'],
    ]) {
      await page.goto(base + query);
      const s = await shownScatter(page);
      await s.el.scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      const f = (await s.el.contentFrame());
      await f.waitForSelector('a.pt', { state: 'attached' });
      const b = await visiblePoints(f, bad), g = await visiblePoints(f, good);
      check(`filter ${query}: ${b} hidden points shown, ${g} H100 points`, b === 0 && g > 0);
    }
    for (const [query, attr, limit] of [['?budget=100', 'data-energy', 100], ['?itl=50', 'data-latency', 50]]) {
      await page.goto(base + query);
      const s = await shownScatter(page);
      await s.el.scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      const f = await s.el.contentFrame();
      await f.waitForSelector('a.pt', { state: 'attached' });
      const over = await f.$$eval('a.pt', (as, [attr, limit]) => as.filter((a) => getComputedStyle(a).display !== 'none'
        && Number(a.getAttribute(attr)) > limit).length, [attr, limit]);
      const within = await visiblePoints(f, 'a.pt');
      check(`filter ${query}: ${over} points past it shown, ${within} shown`, over === 0 && within > 0);
    }
    await ctx.close();
    const touch = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const tp = await touch.newPage();
    await tp.goto(base);
    const s = await shownScatter(tp);
    await s.el.scrollIntoViewIfNeeded();
    const f = await s.el.contentFrame();
    await f.waitForSelector('a.pt', { state: 'attached' });
    const before = tp.url();
    // A filled point no other covers: the last drawn.
    const points = await f.$$('a.pt:has(> [class^="p"])');
    const target = points[points.length - 1];
    await target.tap();
    await tp.waitForTimeout(300);
    const tip = await f.$eval('.tip', (g) => g.textContent).catch(() => '');
    const title = await target.$eval('title', (t) => t.textContent);
    check(`tap 390px: box "${tip.slice(0, 60)}…", page stays`, tip.length > 0
      && title.startsWith(tip.split(':')[0].slice(0, 10)) && tp.url() === before, `${tp.url()} vs ${before}`);
    await touch.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

const seen = await looks(site);
alike(seen);
if (process.argv[4]) unchanged(seen, await looks(process.argv[4]));
await browserChecks();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
