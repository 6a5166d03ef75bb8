#!/usr/bin/env node
// Browser checks of the reader's controls (issue 14), in headless Chromium:
//
// - compare <workload>: choosing two named models (by their labels, with
//   the keyboard) shows exactly their frontier groups in the chart, each
//   with a point (a link) for every configuration its model page tables,
//   its frontier's drawn solid, and exactly their rows in the tables; the
//   address then names them, and loading that address shows the same;
//   sorting the table of configurations by energy orders its rows and the
//   address keeps the order; unticking a GPU hides its columns; the chart
//   is at least 70% of the window wide at 1280 px and fits at 390 px;
// - compare <workload> nojs: without JavaScript the lowest-energy models
//   are chosen at first and ticking a box shows its model (CSS :has());
// - compare legacy address: /compare/?models=a,b (the address from before
//   workloads) opens Text Conversation's comparison of a and b;
// - limit <workload>: a limit on the leaderboard (50 ms per token; a
//   rung of the ladder on a diffusion workload) gives, for every model and
//   GPU, the row that model's page shows in its ladder table at that limit
//   (or "none within"); loading ?itl=50 gives the same rows;
// - limit model <page>: at every rung of the ladder, the model page's
//   chosen row equals the ladder's row, cell for cell (the script's rule
//   against the analysis in Rust), and the cards name the same rows;
// - keyboard <page>: every control is reached with Tab and has a label;
// - axe <page> with a limit light/dark: zero axe-core violations with the
//   controls in use;
// - nojs <page>: without JavaScript the limit control stays hidden and the
//   ladder table and cards are as built.
//
// As a command: node reader.mjs SITE_DIR [--base-path P] [--base-url URL]

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

import { listFiles } from './lib/site.mjs';
import { guardedContext, watchErrors } from './lib/browser.mjs';
import { runAlone } from './lib/cli.mjs';
import { sideBySide } from './lib/report.mjs';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

/** The workloads of the site: their folder, and whether they are per token. */
async function workloadsOf(files) {
  const ids = [...new Set(files.map((f) => /^workloads\/([^/]+)\/index\.html$/.exec(f)).filter(Boolean).map((m) => m[1]))];
  return ids.map((id) => ({
    id,
    dir: `workloads/${id}/`,
    diffusion: files.some((f) => f.startsWith(`workloads/${id}/models/`) && f.endsWith('/energy-vs-batch-size.svg')),
    models: files.filter((f) => new RegExp(`^workloads/${id}/models/[^/]+/index\\.html$`).test(f)),
  }));
}

/** Which frontier groups, table rows and checkboxes show on a compare page. */
function compareState() {
  // Shown: neither it nor any ancestor hidden (checkVisibility() does not
  // see an SVG group hidden by display:none).
  const shown = (el) => {
    for (let e = el; e; e = e.parentElement) if (e.hidden || getComputedStyle(e).display === 'none') return false;
    return true;
  };
  const cls = (el) => [...el.classList].find((c) => /^m\d+$/.test(c));
  const boxes = [...document.querySelectorAll('input[name=models]')];
  const byIndex = new Map(boxes.map((b) => [`m${b.id.replace('pick-', '')}`, b.value]));
  const groups = [...document.querySelectorAll('svg g.fm')].filter(shown).map((g) => ({
    slug: byIndex.get(cls(g)),
    points: g.querySelectorAll('a.pt').length,
    solid: g.querySelectorAll('a.pt.fr').length,
  }));
  const rows = (id) => [...document.querySelectorAll(`#${id} tbody tr`)].filter(shown).map((r) => byIndex.get(cls(r)));
  const pointsOf = {};
  const frontierOf = {};
  for (const r of document.querySelectorAll('#chart-frontiers-data tbody tr')) {
    const slug = byIndex.get(cls(r));
    pointsOf[slug] = (pointsOf[slug] || 0) + 1;
    if (r.lastElementChild.textContent.trim()) frontierOf[slug] = (frontierOf[slug] || 0) + 1;
  }
  return {
    checked: boxes.filter((b) => b.checked).map((b) => b.value),
    labels: Object.fromEntries(boxes.map((b) => [b.value, b.closest('label').textContent.trim()])),
    groups,
    table: [...new Set(rows('compare'))],
    points: [...new Set(rows('chart-frontiers-data'))],
    pointsOf,
    frontierOf,
    width: Math.max(...[...document.querySelectorAll('#chart-frontiers svg.ebc')].filter(shown).map((e) => e.getBoundingClientRect().width)),
  };
}

/** How many configurations the model page at `url` tables. */
async function configurationsOn(context, url) {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  const n = await page.evaluate(() => document.querySelectorAll('table[id^="table-"]:not(#table-history) tbody tr[id]').length);
  await page.close();
  return n;
}

/** The energy figures of the shown rows of the table of configurations, in order. */
function shownEnergies() {
  const heads = [...document.querySelectorAll('#chart-frontiers-data thead th')];
  const at = heads.findIndex((h) => h.dataset.key === 'energy');
  return [...document.querySelectorAll('#chart-frontiers-data tbody tr')]
    .filter((r) => getComputedStyle(r).display !== 'none').map((r) => Number(r.cells[at].getAttribute('data-v')));
}

const same = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

async function checkCompare({ report, context, served, w }) {
  const url = `${served.url}${w.dir}compare/`;
  const page = await context.newPage();
  const errors = watchErrors(page, url);
  const problems = [];
  await page.goto(url, { waitUntil: 'load' });
  let s = await page.evaluate(compareState);
  const all = Object.keys(s.labels);
  if (all.length < 2) {
    await page.close();
    report.skip(`compare ${w.id}`, 'fewer than two models');
    return;
  }
  // Two named models, outside the default choice when there are some.
  const outside = all.filter((slug) => !s.checked.includes(slug));
  const two = [...outside, ...all].filter((v, i, a) => a.indexOf(v) === i).slice(0, 2);
  // Untick everything, then tick the two by their labels, with the keyboard.
  for (const slug of s.checked) {
    await page.getByLabel(s.labels[slug], { exact: true }).focus();
    await page.keyboard.press('Space');
  }
  for (const slug of two) {
    await page.getByLabel(s.labels[slug], { exact: true }).focus();
    await page.keyboard.press('Space');
  }
  s = await page.evaluate(compareState);
  const verify = (state, where) => {
    if (!same(state.checked, two)) problems.push(`${where}: ticked ${state.checked.join(', ')}, expected ${two.join(', ')}`);
    if (!same(state.groups.map((g) => g.slug), two)) problems.push(`${where}: the chart shows ${state.groups.map((g) => g.slug).join(', ') || 'nothing'}, expected ${two.join(', ')}`);
    for (const g of state.groups) {
      if (g.points !== state.pointsOf[g.slug]) problems.push(`${where}: ${g.slug} draws ${g.points} points, the table has ${state.pointsOf[g.slug]} rows`);
      if (g.solid !== state.frontierOf[g.slug] || !g.solid) problems.push(`${where}: ${g.slug} draws ${g.solid} frontier points, the table marks ${state.frontierOf[g.slug]}`);
    }
    if (!same(state.table, two)) problems.push(`${where}: the table shows ${state.table.join(', ')}, expected ${two.join(', ')}`);
    if (!same(state.points, two)) problems.push(`${where}: the chart's data shows ${state.points.join(', ')}, expected ${two.join(', ')}`);
  };
  verify(s, 'after choosing');
  // Every configuration of each model, as its model page tables them.
  for (const g of s.groups) {
    const href = await page.evaluate((slug) => document.querySelector(`#compare tr th a[href*="/${slug}/"]`)?.href, g.slug);
    const n = href ? await configurationsOn(context, href) : -1;
    if (n !== g.points) problems.push(`${g.slug} draws ${g.points} points, its model page tables ${n} configurations`);
  }
  if (s.width < 0.7 * 1280) problems.push(`the chart is ${s.width} px wide at 1280 px`);
  // Sorted by energy, twice (descending), with the order in the address.
  await page.locator('#chart-frontiers-data th[data-key=energy] button.sort').click();
  let order = await page.evaluate(shownEnergies);
  if (order.some((v, i) => i && v < order[i - 1])) problems.push(`sorted by energy, the rows read ${order.join(', ')}`);
  await page.locator('#chart-frontiers-data th[data-key=energy] button.sort').click();
  order = await page.evaluate(shownEnergies);
  if (order.some((v, i) => i && v > order[i - 1])) problems.push(`sorted by energy descending, the rows read ${order.join(', ')}`);
  const address = page.url();
  if (new URL(address).searchParams.get('sort') !== '-energy') problems.push(`the address ${address} does not keep the order`);
  const query = new URL(address).searchParams.get('models');
  if (!query || !same(query.split(','), two)) problems.push(`the address ${address} does not name ${two.join(', ')}`);
  const again = await context.newPage();
  await again.goto(address, { waitUntil: 'load' });
  verify(await again.evaluate(compareState), `loading ${address}`);
  order = await again.evaluate(shownEnergies);
  if (order.some((v, i) => i && v > order[i - 1])) problems.push(`loading ${address}, the rows read ${order.join(', ')}`);
  // On a phone the narrow drawing fits the screen.
  await again.setViewportSize({ width: 390, height: 844 });
  const narrow = (await again.evaluate(compareState)).width;
  if (!(narrow > 300 && narrow <= 390)) problems.push(`the chart is ${narrow} px wide at 390 px`);
  await again.close();
  // A GPU unticked: its two columns go, and the address says which stay.
  const gpus = await page.evaluate(() => [...document.querySelectorAll('input[name=gpus]')].map((b) => [b.id, b.value, b.closest('label').textContent.trim()]));
  if (gpus.length > 1) {
    const [id, value, name] = gpus[0];
    await page.locator(`#${id}`).focus();
    await page.keyboard.press('Space');
    const heads = await page.evaluate(() => [...document.querySelectorAll('#compare thead th')]
      .filter((th) => getComputedStyle(th).display !== 'none').map((th) => th.firstChild.textContent.trim()));
    if (heads.some((h) => h.endsWith(` on ${name}`) || h.startsWith(`${name} setup`))) problems.push(`unticking ${name} leaves its columns: ${heads.join(' | ')}`);
    if (!heads.some((h) => h.endsWith(` on ${gpus[1][2]}`))) problems.push(`unticking ${name} hides ${gpus[1][2]} too`);
    const kept = new URL(page.url()).searchParams.get('gpus');
    if (kept === null || kept.split(',').includes(value)) problems.push(`the address ${page.url()} does not drop ${value}`);
  }
  problems.push(...errors);
  await page.close();
  report.check(`compare ${w.id}`, problems, `${two.join(' and ')}, chosen by keyboard, every configuration drawn, sorted, reloaded from the address`);
}

/** The pre-workload /compare/ passes a comparison on to Text Conversation's. */
async function checkLegacyCompare({ report, context, served, w }) {
  const page = await context.newPage();
  const problems = [];
  await page.goto(`${served.url}${w.dir}compare/`, { waitUntil: 'load' });
  const all = Object.keys((await page.evaluate(compareState)).labels).slice(-2);
  await page.goto(`${served.url}compare/?models=${all.join(',')}`, { waitUntil: 'load' });
  const arrived = (u) => /\/compare\/(index\.html)?$/.test(u.pathname) && u.pathname.includes(`/${w.dir}`);
  await page.waitForURL(arrived, { timeout: 5000 }).catch(() => {});
  const s = await page.evaluate(compareState);
  if (!arrived(new URL(page.url()))) problems.push(`compare/?models=… stays at ${page.url()}`);
  if (!same(s.groups.map((g) => g.slug), all)) problems.push(`compare/?models=${all.join(',')} shows ${s.groups.map((g) => g.slug).join(', ')}`);
  await page.close();
  report.check('compare legacy address', problems, `compare/?models=${all.join(',')} → ${w.dir}compare/`);
}

async function checkCompareNoJs({ report, browser, served, w }) {
  const { context } = await guardedContext(browser, served, { javaScriptEnabled: false });
  const page = await context.newPage();
  const problems = [];
  await page.goto(`${served.url}${w.dir}compare/`, { waitUntil: 'load' });
  let s = await page.evaluate(compareState);
  const all = Object.keys(s.labels);
  const want = Math.min(7, all.length);
  if (s.checked.length !== want) problems.push(`${s.checked.length} models ticked at first, expected ${want}`);
  if (!same(s.groups.map((g) => g.slug), s.checked)) problems.push(`the chart shows ${s.groups.map((g) => g.slug).join(', ')}, ticked: ${s.checked.join(', ')}`);
  if (!same(s.table, s.checked)) problems.push(`the table shows ${s.table.join(', ')}, ticked: ${s.checked.join(', ')}`);
  const other = all.find((slug) => !s.checked.includes(slug)) || all[0];
  await page.getByLabel(s.labels[other], { exact: true }).click();
  const expected = s.checked.includes(other) ? s.checked.filter((x) => x !== other) : [...s.checked, other];
  s = await page.evaluate(compareState);
  if (!same(s.groups.map((g) => g.slug), expected)) problems.push(`after ticking ${other} the chart shows ${s.groups.map((g) => g.slug).join(', ')}`);
  if (!same(s.table, expected)) problems.push(`after ticking ${other} the table shows ${s.table.join(', ')}`);
  await context.close();
  report.check(`compare ${w.id} nojs`, problems, 'CSS shows the ticked models');
}

/** The leaderboard's rows under a limit: (model page, GPU) → row anchor of its headline figure, or "none". */
function limitedRows() {
  const out = {};
  const t = document.getElementById('leaderboard');
  const at = [...t.tHead.rows[0].cells].findIndex((h) => ['wh_per_million_output_tokens', 'joules_per_image', 'joules_per_video'].includes(h.dataset.key));
  for (const r of t.tBodies[0].rows) {
    const page = new URL(r.cells[0].querySelector('a').href).pathname;
    const a = r.cells[at].querySelector('a');
    out[`${page} ${r.dataset.gpu}`] = r.dataset.out ? 'none' : new URL(a.href).hash;
  }
  return out;
}

/**
 * The ladder row of a model page at `limit`: GPU → row anchor or "none
 * within …". `doc` is the page's document (default: the page's own).
 */
function ladderAt(limit, doc = document) {
  const table = doc.getElementById('budgets');
  const gpus = [...table.tHead.rows[0].cells].slice(1).map((th) => th.firstChild.textContent.replace(/:.*$/, '').trim());
  for (const r of table.tBodies[0].rows) {
    if (r.classList.contains('chosen')) continue;
    const m = /≤\s*([\d.,]+)/.exec(r.cells[0].textContent);
    if (!m || Number(m[1].replace(/,/g, '')) !== limit) continue;
    const out = {};
    [...r.cells].slice(1).forEach((c, i) => {
      const a = c.querySelector('a');
      out[gpus[i]] = a ? new URL(a.href).hash : c.textContent.trim();
    });
    return out;
  }
  return null;
}

/**
 * The ladder rows at `limit` of the model pages at `urls`, read in the page
 * (fetched and parsed by the browser's own HTML parser, as built, without
 * rendering each page): page path → ladder row. The ladder table is plain
 * HTML that no script changes before a limit is set.
 */
async function laddersAt(ladder, urls, limit) {
  const out = {};
  for (const url of urls) {
    const response = await fetch(url);
    const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
    out[new URL(response.url).pathname] = ladder(limit, doc);
  }
  return out;
}

/** The ladder's limits on a model page. */
function ladderLimits() {
  return [...document.getElementById('budgets').tBodies[0].rows]
    .filter((r) => !r.classList.contains('chosen'))
    .map((r) => Number(/≤\s*([\d.,]+)/.exec(r.cells[0].textContent)[1].replace(/,/g, '')));
}

async function setLimit(page, value) {
  await page.locator('#limit-value').fill(String(value));
  await page.locator('#limit-value').press('Enter');
  await limitShown(page, value);
}

/** Waits until a leaderboard shows `value`'s rows (fetched on first use). */
async function limitShown(page, value) {
  await page.waitForFunction((v) => {
    const b = document.getElementById('leaderboard');
    return !b || (b.dataset.limit || '').startsWith(`${v} `);
  }, String(value), { timeout: 10000 });
}

async function checkLimit({ report, context, served, w }) {
  const board = `${served.url}${w.dir}`;
  const page = await context.newPage();
  const errors = watchErrors(page, board);
  const problems = [];
  // Per token: 50 ms as the issue asks. Diffusion: the ladder's first
  // rung, read from a model page.
  let limit = 50;
  const probe = await context.newPage();
  await probe.goto(`${served.url}${w.models[0]}`, { waitUntil: 'load' });
  const rungs = await probe.evaluate(ladderLimits);
  await probe.close();
  if (w.diffusion || !rungs.includes(50)) [limit] = rungs;
  await page.goto(board, { waitUntil: 'load' });
  await setLimit(page, limit);
  const rows = await page.evaluate(limitedRows);
  const total = await page.evaluate(() => document.querySelectorAll('#leaderboard tbody tr').length);
  if (Object.keys(rows).length !== total) problems.push(`${Object.keys(rows).length} rows under the limit, the leaderboard has ${total}`);
  if (await page.locator('#leaderboard').isHidden()) problems.push('the table is hidden under a limit');
  // Each model page's ladder at that limit, as built.
  const urls = w.models.map((rel) => `${served.url}${rel}`);
  const ladders = await page.evaluate(`(${laddersAt})(${ladderAt}, ${JSON.stringify(urls)}, ${limit})`);
  let compared = 0;
  for (const [key, got] of Object.entries(rows)) {
    const [pagePath, gpu] = key.split(' ');
    const ladder = ladders[pagePath];
    if (!ladder) { problems.push(`${pagePath}: no ladder row at ${limit}`); continue; }
    const want = ladder[gpu];
    const norm = (v) => (v.startsWith('#') ? v : 'none');
    if (norm(got) !== norm(want)) problems.push(`${pagePath} on ${gpu} at ${limit}: the leaderboard shows ${got}, the ladder ${want}`);
    compared += 1;
  }
  const address = page.url();
  const param = w.diffusion ? 'latency' : 'itl';
  if (new URL(address).searchParams.get(param) !== String(limit)) problems.push(`the address ${address} has no ${param}=${limit}`);
  const again = await context.newPage();
  await again.goto(address, { waitUntil: 'load' });
  await limitShown(again, limit);
  const reloaded = await again.evaluate(limitedRows);
  if (JSON.stringify(reloaded) !== JSON.stringify(rows)) problems.push(`loading ${address} shows other rows than choosing ${limit}`);
  if ((await again.locator('#limit-value').inputValue()) !== String(limit)) problems.push(`loading ${address} does not fill the input with ${limit}`);
  await again.close();
  problems.push(...errors);
  await page.close();
  report.check(`limit ${w.id} leaderboard`, problems, `${compared} model and GPU rows at ≤ ${limit} ${w.diffusion ? 's' : 'ms'} match the ladder tables; reloaded from ${param}=${limit}`);
}

/** The chosen row and the cards of a model page. */
function chosenRow() {
  const r = document.querySelector('#budgets tr.chosen');
  if (!r) return null;
  return [...r.cells].slice(1).map((c) => {
    const a = c.querySelector('a');
    return a ? `${a.textContent.trim()} ${new URL(a.href).hash}` : c.textContent.trim();
  });
}

function ladderCells(limit) {
  for (const r of document.getElementById('budgets').tBodies[0].rows) {
    if (r.classList.contains('chosen')) continue;
    const m = /≤\s*([\d.,]+)/.exec(r.cells[0].textContent);
    if (!m || Number(m[1].replace(/,/g, '')) !== limit) continue;
    return [...r.cells].slice(1).map((c) => {
      const a = c.querySelector('a');
      return a ? `${a.textContent.trim()} ${new URL(a.href).hash}` : c.textContent.trim();
    });
  }
  return null;
}

function cardRows() {
  return [...document.querySelectorAll('#best .card')].map((card) => {
    const links = [...card.querySelectorAll('a')].map((a) => new URL(a.href).hash).filter((h) => !h.startsWith('#configs-'));
    return links[0] || 'none';
  });
}

async function checkModelLimit({ report, context, served, rel }) {
  const url = `${served.url}${rel}`;
  const page = await context.newPage();
  const errors = watchErrors(page, url);
  const problems = [];
  await page.goto(url, { waitUntil: 'load' });
  const rungs = await page.evaluate(ladderLimits);
  for (const limit of rungs) {
    await setLimit(page, limit);
    const chosen = await page.evaluate(chosenRow);
    const ladder = await page.evaluate(ladderCells, limit);
    if (JSON.stringify(chosen) !== JSON.stringify(ladder)) problems.push(`at ${limit}: the control shows ${JSON.stringify(chosen)}, the ladder ${JSON.stringify(ladder)}`);
    const cards = await page.evaluate(cardRows);
    const fromLadder = ladder.map((c) => (/#\S+$/.exec(c) || ['none'])[0]);
    if (JSON.stringify(cards) !== JSON.stringify(fromLadder)) problems.push(`at ${limit}: the cards show ${cards.join(', ')}, the ladder ${fromLadder.join(', ')}`);
  }
  // Back to the deadline: the cards are as built.
  await page.locator('#limit-clear').click();
  if (await page.evaluate(chosenRow)) problems.push('"Back to the deadline" leaves the chosen row');
  if (new URL(page.url()).search) problems.push(`"Back to the deadline" leaves ${new URL(page.url()).search} in the address`);
  problems.push(...errors);
  await page.close();
  report.check(`limit model ${rel}`, problems, `${rungs.length} ladder limits, row for row`);
}

/** Tab through the page; the ids of the controls reached, and any unlabelled control. */
async function tabbing(page, ids) {
  const reached = new Set();
  for (let i = 0; i < 400 && reached.size < ids.length; i += 1) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => document.activeElement && document.activeElement.id);
    if (ids.includes(id)) reached.add(id);
  }
  const unlabelled = await page.evaluate((list) => list.filter((id) => {
    const el = document.getElementById(id);
    return !el || !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !(el.textContent || '').trim();
  }), ids);
  return [
    ...ids.filter((id) => !reached.has(id)).map((id) => `#${id} is not reached with Tab`),
    ...unlabelled.map((id) => `#${id} has no label`),
  ];
}

async function checkKeyboard({ report, context, served, rel, ids }) {
  const page = await context.newPage();
  await page.goto(`${served.url}${rel}`, { waitUntil: 'load' });
  const list = typeof ids === 'function' ? await page.evaluate(ids) : ids;
  report.check(`keyboard ${rel}`, await tabbing(page, list), `${list.length} controls reached and labelled`);
  await page.close();
}

async function checkAxe({ report, browser, served, rel, query }) {
  for (const scheme of ['light', 'dark']) {
    const { context } = await guardedContext(browser, served, { colorScheme: scheme, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${served.url}${rel}${query}`, { waitUntil: 'load' });
    await page.addScriptTag({ path: AXE_PATH });
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    report.check(`axe ${rel}${query} ${scheme}`, result.violations.map((v) => `axe ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')})`));
    await context.close();
  }
}

async function checkNoJs({ report, browser, served, w }) {
  const { context } = await guardedContext(browser, served, { javaScriptEnabled: false });
  const problems = [];
  for (const rel of [`${w.dir}index.html`, w.models[0]]) {
    const page = await context.newPage();
    await page.goto(`${served.url}${rel.replace(/index\.html$/, '')}?${w.diffusion ? 'latency' : 'itl'}=1`, { waitUntil: 'load' });
    if (await page.locator('#limit').isVisible()) problems.push(`${rel}: the limit control shows without JavaScript`);
    if (rel.endsWith('/index.html') && rel.includes('/models/')) {
      if (await page.locator('#budgets tr.chosen').count()) problems.push(`${rel}: a chosen row without JavaScript`);
      if (!(await page.locator('#budgets tbody tr').count())) problems.push(`${rel}: no ladder rows`);
    } else if (!(await page.locator('#leaderboard').isVisible())) problems.push(`${rel}: the leaderboard table is hidden`);
    await page.close();
  }
  await context.close();
  report.check(`nojs ${w.id} limit`, problems, 'control hidden, tables as built');
}

export async function checkReader({ siteDir, served, browser, report }) {
  const files = await listFiles(siteDir);
  const workloads = (await workloadsOf(files)).filter((w) => w.models.length);
  if (!workloads.length) {
    report.skip('reader controls', 'no workload in the site');
    return;
  }
  // The workloads with most models of each kind.
  const pickOf = (list) => list.sort((a, b) => b.models.length - a.models.length || a.id.localeCompare(b.id))[0];
  const chosen = [pickOf(workloads.filter((w) => !w.diffusion)), pickOf(workloads.filter((w) => w.diffusion))].filter(Boolean);
  // The workloads side by side, each in a context of its own (a part that
  // waits mostly on page loads and the page's answers).
  await sideBySide(report, chosen.map((w) => (r) => checkWorkload({ report: r, browser, served, files, w })));
}

/** All of the above on one workload. */
async function checkWorkload({ report, browser, served, files, w }) {
  const { context } = await guardedContext(browser, served, { viewport: { width: 1280, height: 900 } });
  await checkCompare({ report, context, served, w });
  await checkCompareNoJs({ report, browser, served, w });
  if (w.id === 'lm-arena-chat' && files.includes('compare/index.html')) await checkLegacyCompare({ report, context, served, w });
  await checkLimit({ report, context, served, w });
  for (const rel of [w.models[0], w.models[w.models.length - 1]].filter((v, i, a) => a.indexOf(v) === i)) {
    await checkModelLimit({ report, context, served, rel });
  }
  await checkKeyboard({ report, context, served, rel: `${w.dir}index.html`, ids: ['limit-value', 'limit-range', 'limit-clear'] });
  await checkKeyboard({ report, context, served, rel: w.models[0], ids: ['limit-value', 'limit-range', 'limit-clear'] });
  await checkKeyboard({
    report, context, served, rel: `${w.dir}compare/index.html`,
    ids: () => [...document.querySelectorAll('#pick input')].map((b) => b.id),
  });
  const param = w.diffusion ? 'latency' : 'itl';
  await checkAxe({ report, browser, served, rel: w.dir, query: `?${param}=${w.diffusion ? 5 : 50}` });
  await checkAxe({ report, browser, served, rel: w.models[0].replace(/index\.html$/, ''), query: `?${param}=${w.diffusion ? 5 : 50}` });
  await checkNoJs({ report, browser, served, w });
  await context.close();
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  await runAlone({
    name: 'reader',
    title: 'Reader controls in Chromium',
    usage: 'node reader.mjs SITE_DIR [--base-path P] [--base-url URL]',
    check: checkReader,
  });
}
