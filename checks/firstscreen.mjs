#!/usr/bin/env node
// First screens of issue 41, in headless Chromium: every page kind opens on
// its data, on a phone (390 × 844) and on a laptop (1280 × 800).
//
// - first screen <page> <size>: the front page, each workload's leaderboard
//   and GPU page, a model page of each workload, a model overview and a GPU hub show data inside the
//   first screen (a version page too): a whole table row with a figure, at least 150 px of a
//   chart, or a best card's energy figure; so does a comparison of two
//   chosen models (`compare/index.html?models=a,b`) of each workload;
// - phone row <workload>: at 390 × 844 the leaderboard's first row is whole
//   in the first screen, its model name in at most two lines, its energy
//   and latency figures inside the table's visible box (no sideways
//   scroll);
// - phone row <front|overview|gpu hub <gpu>>: the same for the first row of the
//   page's leading table (the model name, else the row's head, in at most
//   two lines; its first energy figure in view);
// - phone sources <workload>: on a site of several sources, at 390 px each
//   row of a source other than the first names that source inside the
//   screen's width (its model cell carries the source's label);
// - copy link <page>: on a model page the page, each best card and each
//   chart have a copy-link control, which copies an absolute address
//   (the canonical one when the site has a base URL) and says so.
//
// As a command: node firstscreen.mjs SITE_DIR [--base-path P] [--base-url URL]

import { pathToFileURL } from 'node:url';

import { listFiles } from './lib/site.mjs';
import { guardedContext, watchErrors } from './lib/browser.mjs';
import { runAlone } from './lib/cli.mjs';

const SCREENS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** The pages of each kind whose first screen must show data. */
export function firstScreenPages(files) {
  const workloads = [...new Set(files.map((f) => /^workloads\/([^/]+)\/index\.html$/.exec(f)).filter(Boolean).map((m) => m[1]))];
  const pages = [];
  if (files.includes('index.html')) pages.push(['front', 'index.html', { lead: '#lowest' }]);
  for (const w of workloads) {
    pages.push([`leaderboard ${w}`, `workloads/${w}/index.html`]);
    const gpu = files.find((f) => f.startsWith(`workloads/${w}/gpus/`) && f.endsWith('/index.html'));
    if (gpu) pages.push([`gpu ${w}`, gpu]);
    const models = files.filter((f) => new RegExp(`^workloads/${w}/models/[^/]+/index\\.html$`).test(f));
    // The last in name order (the layout check takes the first).
    if (models.length) pages.push([`model ${w}`, models[models.length - 1], { model: true }]);
    // A version page (issue 43) of the first model that has one.
    const version = files.find((f) => new RegExp(`^workloads/${w}/models/[^/]+/v/[^/]+/index\\.html$`).test(f));
    if (version) pages.push([`version ${w}`, version]);
    // A comparison of two chosen models (the first two in name order): its
    // chart comes before the model picker.
    if (files.includes(`workloads/${w}/compare/index.html`) && models.length >= 2) {
      const [a, b] = models.slice(0, 2).map((f) => f.split('/')[3]);
      pages.push([`compare ${w}`, `workloads/${w}/compare/index.html?models=${a},${b}`]);
    }
  }
  const overview = files.find((f) => /^models\/[^/]+\/index\.html$/.test(f));
  if (overview) pages.push(['overview', overview, { lead: 'main table[id^=overview]' }]);
  // Every GPU hub: on a site of two sources, only some GPUs have rows of
  // both (and a Source column).
  for (const hub of files.filter((f) => /^gpus\/[^/]+\/index\.html$/.test(f))) {
    pages.push([`gpu hub ${hub.split('/')[1]}`, hub, { lead: '#hub' }]);
  }
  return { pages, workloads };
}

/** What data the first screen shows: rows whole with a figure, chart pixels, card figures. */
function dataInView() {
  const h = innerHeight;
  const w = document.documentElement.clientWidth;
  const shown = (el) => {
    const s = getComputedStyle(el);
    return s.display !== 'none' && s.visibility !== 'hidden' && el.getClientRects().length > 0;
  };
  const found = [];
  for (const row of document.querySelectorAll('main table tbody tr')) {
    if (!shown(row) || row.classList.contains('group')) continue;
    const r = row.getBoundingClientRect();
    if (r.top < 0 || r.bottom > h) continue;
    const figure = [...row.cells].find((c) => shown(c) && /\d/.test(c.textContent) && c.getBoundingClientRect().right <= w + 1
      && (c.classList.contains('num') || /^[\d.,\s–—]+\S*$/.test(c.textContent.trim())));
    if (figure) { found.push(`row "${row.cells[0].textContent.trim()}" with ${figure.textContent.trim()}`); break; }
  }
  for (const chart of document.querySelectorAll('main figure.chart img, main figure.chart svg, main .chart-inline svg')) {
    if (!shown(chart)) continue;
    const r = chart.getBoundingClientRect();
    const visible = Math.min(r.bottom, h) - Math.max(r.top, 0);
    if (visible >= 150) { found.push(`${Math.round(visible)} px of a chart`); break; }
  }
  for (const dd of document.querySelectorAll('main .card dd')) {
    if (!shown(dd)) continue;
    const r = dd.getBoundingClientRect();
    if (r.top >= 0 && r.bottom <= h && r.right <= w + 1) { found.push(`card figure ${dd.textContent.trim()}`); break; }
  }
  return found;
}

/** The leaderboard's first row on a phone: whole, name lines, energy and latency in view. */
function phoneRow() {
  const t = document.getElementById('leaderboard');
  const row = [...t.tBodies[0].rows].find((r) => !r.hidden);
  const heads = [...t.tHead.rows[0].cells];
  const energy = heads.findIndex((c) => c.getAttribute('aria-sort') === 'ascending');
  const latency = heads.findIndex((c) => c.dataset.key === 'median_itl_ms' || c.dataset.key === 'batch_latency_s');
  const wrap = t.parentElement.getBoundingClientRect();
  const box = row.getBoundingClientRect();
  const name = row.cells[0].querySelector('a');
  const lineHeight = parseFloat(getComputedStyle(name).lineHeight) || 20;
  const lines = Math.round(name.getBoundingClientRect().height / lineHeight) || name.getClientRects().length;
  const cell = (i) => {
    if (i < 0) return { text: '(no column)', inside: false };
    const c = row.cells[i];
    const r = c.getBoundingClientRect();
    const visible = getComputedStyle(c).display !== 'none';
    return { text: `${heads[i].textContent.trim().replace(/\s+/g, ' ')} ${c.textContent.trim()}`, inside: visible && r.right <= wrap.right + 1 && r.left >= wrap.left - 1 && r.bottom <= innerHeight };
  };
  return {
    name: name.textContent.trim(),
    lines,
    whole: box.top >= 0 && box.bottom <= innerHeight,
    bottom: Math.round(box.bottom),
    cells: [cell(energy), cell(latency)],
  };
}

/**
 * The first row of a page's leading table (front page, GPU hub, model
 * overview) on a phone: whole in the first screen, its name (the model link,
 * else the row's head) in at most two lines, its first energy figure inside
 * the table's visible box.
 */
function phoneLeadRow(selector) {
  const t = document.querySelector(selector);
  if (!t) return { missing: true };
  const row = [...t.querySelectorAll('tbody tr')].find((r) => !r.hidden && !r.classList.contains('group'));
  const heads = [...t.tHead.rows[0].cells];
  const energy = heads.findIndex((c) => c.classList.contains('num') && /energy/i.test(c.textContent));
  const wrap = t.parentElement.getBoundingClientRect();
  const box = row.getBoundingClientRect();
  const name = [...row.cells].map((c) => c.querySelector('a[href*="/models/"]')).find((a) => a && !a.closest('.num'))
    || row.cells[0].querySelector('a') || row.cells[0];
  const lineHeight = parseFloat(getComputedStyle(name).lineHeight) || 20;
  const lines = Math.round(name.getBoundingClientRect().height / lineHeight);
  const n = name.getBoundingClientRect();
  const c = energy < 0 ? null : row.cells[energy];
  const r = c && c.getBoundingClientRect();
  return {
    name: name.textContent.trim(),
    lines,
    nameInside: n.right <= wrap.right + 1,
    whole: box.top >= 0 && box.bottom <= innerHeight,
    bottom: Math.round(box.bottom),
    energy: c ? c.textContent.trim() : '(no energy column)',
    energyInside: !!c && r.right <= wrap.right + 1 && r.left >= wrap.left - 1 && r.bottom <= innerHeight,
  };
}

/** Rows of a source other than the first: whether their model cell names the source inside the screen. */
function sourceRows() {
  const keys = [...document.querySelectorAll('#sources a[id^="only-"]')].map((a) => ({ key: a.id.slice(5), name: a.textContent.replace(/ only$/, '').trim() }));
  const w = document.documentElement.clientWidth;
  const out = [];
  for (const { key, name } of keys.slice(1)) {
    const word = name.split(/\s+/)[0];
    for (const row of document.querySelectorAll(`#leaderboard tbody tr.from-${key}`)) {
      const cell = row.cells[0];
      const r = cell.getBoundingClientRect();
      if (!cell.textContent.includes(word) || r.right > w + 1) out.push(`${cell.textContent.trim()}: ${cell.textContent.includes(word) ? `ends at x ${Math.round(r.right)}` : `does not name ${name}`}`);
    }
  }
  return { sources: keys.length, problems: out };
}

export async function checkFirstScreens({ siteDir, served, browser, report }) {
  const files = await listFiles(siteDir);
  const { pages, workloads } = firstScreenPages(files);
  // A workload some of whose models come from another source (slug `<id>--…`).
  const several = (w) => files.some((f) => f.startsWith(`workloads/${w}/models/`) && f.split('/')[3].includes('--'));
  for (const screen of SCREENS) {
    const { context } = await guardedContext(browser, served, { viewport: screen });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => {});
    for (const [kind, rel, opts] of pages) {
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(served.url + rel, { waitUntil: 'load' });
      const found = await page.evaluate(dataInView);
      report.check(`first screen ${kind} ${screen.width}×${screen.height}`, [
        ...errors,
        ...(found.length ? [] : ['no whole table row with a figure, no 150 px of a chart and no card figure in the first screen']),
      ]);
      if (kind.startsWith('leaderboard ') && screen.width === 390) {
        const w = kind.slice(12);
        const r = await page.evaluate(phoneRow);
        const problems = [];
        if (!r.whole) problems.push(`the first row (${r.name}) ends at y ${r.bottom}, below the 844 px screen`);
        if (r.lines > 2) problems.push(`the model name "${r.name}" takes ${r.lines} lines`);
        for (const c of r.cells) if (!c.inside) problems.push(`"${c.text}" is not in view without scrolling`);
        report.check(`phone row ${w}`, problems);
        const s = await page.evaluate(sourceRows);
        if (s.sources > 1 || several(w)) report.check(`phone sources ${w}`, s.sources > 1 ? s.problems : ['the workload has models of several sources, the page no source filter']);
      }
      if (opts && opts.lead && screen.width === 390) {
        const r = await page.evaluate(phoneLeadRow, opts.lead);
        const problems = [];
        if (r.missing) problems.push(`no table ${opts.lead}`);
        else {
          if (!r.whole) problems.push(`the first row (${r.name}) ends at y ${r.bottom}, below the 844 px screen`);
          if (r.lines > 2) problems.push(`the name "${r.name}" takes ${r.lines} lines`);
          if (!r.nameInside) problems.push(`the name "${r.name}" runs past the table's visible box`);
          if (!r.energyInside) problems.push(`the energy figure "${r.energy}" is not in view without scrolling`);
        }
        report.check(`phone row ${kind}`, problems);
      }
      if (opts && opts.model && screen.width === 1280) {
        report.check(`copy link ${kind}`, await copyLinks(page));
      }
      await page.close();
    }
    await context.close();
  }
  if (!workloads.length) report.fail('first screens', ['no leaderboard in the site']);
}

/** The copy-link controls of a model page: one for the page, each card and each chart; each copies an absolute address and says so. */
async function copyLinks(page) {
  const problems = [];
  const c = await page.evaluate(() => ({
    cards: document.querySelectorAll('#best .card[id]').length,
    charts: document.querySelectorAll('figure.chart[id]').length,
    buttons: [...document.querySelectorAll('button.copy-link')].map((b) => b.getAttribute('aria-label')),
    canonical: (document.querySelector('link[rel=canonical]') || {}).href || null,
  }));
  const want = 1 + c.cards + c.charts;
  if (c.buttons.length !== want) problems.push(`${c.buttons.length} copy-link buttons for the page, ${c.cards} cards and ${c.charts} charts`);
  const card = page.locator('#best .card[id] button.copy-link').first();
  if (await card.count()) {
    // The system clipboard is one for the whole browser, and other checks
    // copy at the same time: read what this page copied, not the clipboard.
    await page.evaluate(() => {
      if (!navigator.clipboard) return;
      const write = navigator.clipboard.writeText.bind(navigator.clipboard);
      navigator.clipboard.writeText = (text) => { window.copiedText = text; return write(text); };
    });
    await card.click();
    await page.waitForFunction(() => /copied/i.test(document.querySelector('#best .card[id] button.copy-link').textContent), null, { timeout: 3000 }).catch(() => {});
    const r = await page.evaluate(async () => {
      const b = document.querySelector('#best .card[id] button.copy-link');
      let copied = null;
      if (typeof window.copiedText === 'string') copied = window.copiedText;
      return { says: b.textContent, copied, id: b.parentNode.id, said: (document.querySelector('.said') || {}).textContent || '' };
    });
    if (!/copied/i.test(r.says) || !/copied/i.test(r.said)) problems.push(`the card's button says "${r.says}" after a click, the live region "${r.said}"`);
    if (r.copied !== null) {
      if (!/^https?:\/\//.test(r.copied) || !r.copied.endsWith(`#${r.id}`)) problems.push(`copied "${r.copied}", not an absolute address ending in #${r.id}`);
      if (c.canonical && !r.copied.startsWith(c.canonical)) problems.push(`copied "${r.copied}", not under the canonical ${c.canonical}`);
    }
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  await runAlone({
    name: 'firstscreen',
    title: 'First screens in Chromium at 390 × 844 and 1280 × 800',
    usage: 'node firstscreen.mjs SITE_DIR [--base-path P] [--base-url URL]',
    check: checkFirstScreens,
  });
}
