#!/usr/bin/env node
// Layout and reader-task checks of issue 21, in headless Chromium:
//
// - fit <page> <width>: at 320, 390, 768 and 1280 px the page does not
//   scroll sideways, and no element sticks out of its parent's box (wide
//   tables scroll inside their own container, which is allowed), on every
//   page kind: front page, each workload's leaderboard, a GPU page, the
//   compare page and the largest model page of each workload, a model
//   overview, a GPU hub, about, data, the change log and 404;
// - table <workload> 1280px: the default leaderboard table needs no
//   sideways scroll at 1280 px;
// - first screen <workload> 390px: on a 390 × 844 phone the first row's
//   model and headline energy are inside the first screen;
// - limit <workload>: with ?itl=50 (or a diffusion rung) the one table
//   shows, in its own columns, only rows within the limit, lowest energy
//   first; the summary names the limit and its lowest row shown, the count
//   agrees with the rows shown, and the bar chart of the deadline's picks
//   is hidden; with a budget
//   every row shown is within it;
// - task compare: two models from the leaderboard into a comparison in at
//   most 3 clicks, the compare page then showing exactly those two;
// - task lowest on H100: the lowest energy per response on H100 for
//   chat, in at most 2 actions (choose H100, sort by energy per response).
//
// As a command: node layout.mjs SITE_DIR [--base-path P] [--base-url URL]

import { pathToFileURL } from 'node:url';

import { listFiles } from './lib/site.mjs';
import { guardedContext, watchErrors } from './lib/browser.mjs';
import { runAlone } from './lib/cli.mjs';
import { sideBySide } from './lib/report.mjs';

const WIDTHS = [320, 390, 768, 1280];

/** Where the page sticks out: the document's scroll width, and elements past their parent's box. */
function overflow() {
  const width = document.documentElement.clientWidth;
  const scrolls = (el) => {
    for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') return true;
    }
    return false;
  };
  const name = (el) => el.localName + (el.id ? `#${el.id}` : '') + (el.classList.length ? `.${[...el.classList].join('.')}` : '');
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.position === 'absolute' || s.position === 'fixed' || s.display === 'inline') continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !el.parentElement || scrolls(el)) continue;
    const p = el.parentElement.getBoundingClientRect();
    if (r.right > p.right + 1 || r.left < p.left - 1) {
      if (!out.some((o) => o.el.contains(el))) out.push({ el, text: `${name(el)} spans ${Math.round(r.left)}–${Math.round(r.right)} px in ${name(el.parentElement)} (${Math.round(p.left)}–${Math.round(p.right)})` });
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, culprits: out.slice(0, 4).map((o) => o.text) };
}

/** One page of each kind, and every workload's leaderboard. */
function pagesOf(files) {
  const workloads = [...new Set(files.map((f) => /^workloads\/([^/]+)\/index\.html$/.exec(f)).filter(Boolean).map((m) => m[1]))];
  const pages = [['front', 'index.html']];
  for (const w of workloads) {
    pages.push([`leaderboard ${w}`, `workloads/${w}/index.html`]);
    const gpu = files.find((f) => f.startsWith(`workloads/${w}/gpus/`) && f.endsWith('/index.html'));
    if (gpu) pages.push([`gpu ${w}`, gpu]);
    if (files.includes(`workloads/${w}/compare/index.html`)) pages.push([`compare ${w}`, `workloads/${w}/compare/index.html`]);
  }
  const model = files.filter((f) => /^workloads\/[^/]+\/models\/[^/]+\/index\.html$/.test(f));
  if (model.length) pages.push(['model', model[0]], ['model last', model[model.length - 1]]);
  // A permanent version page (v/<YYYY-MM-DD>/): one a later version
  // superseded, with its banner, when the site has one.
  const versions = files.filter((f) => /^workloads\/[^/]+\/models\/[^/]+\/v\/\d{4}-\d{2}-\d{2}\/index\.html$/.test(f));
  const older = versions.filter((f, i) => i + 1 < versions.length && versions[i + 1].replace(/v\/[^/]+\/index\.html$/, '') === f.replace(/v\/[^/]+\/index\.html$/, ''));
  if (versions.length) pages.push(['model version', (older.length ? older : versions)[0]]);
  const overview = files.find((f) => /^models\/[^/]+\/index\.html$/.test(f));
  if (overview) pages.push(['overview', overview]);
  const hub = files.find((f) => /^gpus\/[^/]+\/index\.html$/.test(f));
  if (hub) pages.push(['gpu hub', hub]);
  for (const [k, rel] of [['about', 'about/index.html'], ['data', 'data/index.html'], ['changes', 'changes/index.html'], ['404', '404.html']]) {
    if (files.includes(rel)) pages.push([k, rel]);
  }
  return { pages, workloads };
}

async function open(context, served, rel) {
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(served.url + rel, { waitUntil: 'load' });
  return { page, errors };
}

export async function checkLayout({ siteDir, served, browser, report }) {
  const files = await listFiles(siteDir);
  const { pages, workloads } = pagesOf(files);
  // Each page is loaded once and shown at each width in turn (the viewport
  // resized, as a reader turns a tablet or widens a window; no script of
  // the site reads the width, so the layout at each width is the layout a
  // fresh load at that width gets), which is a quarter of the page loads.
  // That, and the limits and reader tasks below, side by side (each in a
  // context of its own: a part that waits mostly on page loads).
  await sideBySide(report, [
    (r) => checkFit({ served, browser, pages, report: r }),
    (r) => checkLimitsAndTasks({ served, browser, files, workloads, report: r }),
  ]);
}

/** `fit`, `table` and `first screen` of each page, at each width. */
async function checkFit({ served, browser, pages, report }) {
  const viewport = (width) => ({ width, height: width < 500 ? 844 : 900 });
  const { context } = await guardedContext(browser, served, { viewport: viewport(WIDTHS[0]) });
  for (const [kind, rel] of pages) {
    const { page } = await open(context, served, rel);
    for (const width of WIDTHS) {
      if (width !== WIDTHS[0]) {
        await page.setViewportSize(viewport(width));
        // Two frames: the resize is laid out and painted.
        await page.evaluate(() => new Promise((done) => { requestAnimationFrame(() => requestAnimationFrame(done)); }));
      }
      const o = await page.evaluate(overflow);
      const problems = [];
      if (o.scrollWidth > o.width) problems.push(`the page scrolls sideways: ${o.scrollWidth} px wide at ${o.width} px`);
      problems.push(...o.culprits);
      report.check(`fit ${kind} ${width}px`, problems);
      if (kind.startsWith('leaderboard ') && width === 1280) {
        const t = await page.evaluate(() => {
          const wrap = document.getElementById('leaderboard').parentElement;
          return [wrap.scrollWidth, wrap.clientWidth];
        });
        report.check(`table ${kind.slice(12)} 1280px`, t[0] > t[1] ? [`the default table is ${t[0]} px wide in a ${t[1]} px box`] : []);
      }
      if (kind.startsWith('leaderboard ') && width === 390) {
        const first = await page.evaluate(() => {
          const t = document.getElementById('leaderboard');
          const row = t.tBodies[0].rows[0];
          const at = [...t.tHead.rows[0].cells].findIndex((h) => h.getAttribute('aria-sort') === 'ascending');
          const wrap = t.parentElement.getBoundingClientRect();
          return [row.cells[0], row.cells[at]].map((c) => {
            const r = c.getBoundingClientRect();
            return { text: c.textContent.trim(), bottom: r.bottom, right: r.right, inside: r.bottom <= innerHeight && r.right <= wrap.right + 1 };
          });
        });
        report.check(`first screen ${kind.slice(12)} 390px`, first.filter((c) => !c.inside).map((c) => `"${c.text}" ends at x ${Math.round(c.right)}, y ${Math.round(c.bottom)}, outside the 390 × 844 first screen`));
      }
    }
    await page.close();
  }
  await context.close();
}

/** Under a limit and a budget, each workload's leaderboard; then the two reader tasks. */
async function checkLimitsAndTasks({ served, browser, files, workloads, report }) {
  const { context } = await guardedContext(browser, served, { viewport: { width: 1280, height: 900 } });
  for (const w of workloads) {
    const diffusion = files.some((f) => f.startsWith(`workloads/${w}/models/`) && f.endsWith('/energy-vs-batch-size.svg'));
    const query = diffusion ? '?latency=100' : '?itl=50';
    const { page, errors } = await open(context, served, `workloads/${w}/index.html${query}`);
    // The limit's rows are fetched on first use.
    await page.waitForFunction(() => document.getElementById('leaderboard').dataset.limit, null, { timeout: 10000 });
    const s = await page.evaluate((lim) => {
      const t = document.getElementById('leaderboard');
      const heads = [...t.tHead.rows[0].cells];
      const lat = heads.findIndex((h) => h.dataset.key === 'median_itl_ms' || h.dataset.key === 'batch_latency_s');
      const all = [...t.tBodies[0].rows];
      const rows = all.filter((r) => !r.hidden);
      const chart = document.getElementById('chart-best-energy');
      return {
        lowest: (document.getElementById('lowest') || {}).textContent || '',
        within: (document.getElementById('within') || {}).textContent || '',
        limit: document.getElementById('limit-value').value,
        first: rows[0] ? rows[0].cells[0].querySelector('a').textContent.trim() : null,
        count: document.querySelector('form.filters output').textContent,
        shown: rows.length,
        found: all.filter((r) => !r.dataset.out).length,
        total: all.length,
        over: rows.filter((r) => Number(r.cells[lat].textContent.replace(/,/g, '')) > lim).map((r) => `${r.cells[0].textContent.trim()} ${r.dataset.gpu}: ${r.cells[lat].textContent}`),
        cells: all.filter((r) => r.cells.length !== heads.length).length,
        sorted: rows.every((r, i) => i === 0 || Number(rows[i - 1].dataset.e) <= Number(r.dataset.e)),
        chartHidden: !chart || chart.hidden,
        other: document.querySelectorAll('#leaderboard-limit').length,
        mainHidden: t.closest('.table-wrap').hidden,
      };
    }, Number(query.split('=')[1]));
    const problems = [...errors];
    if (s.mainHidden || s.other) problems.push('a limit hides the table or shows another');
    if (!s.chartHidden) problems.push('the bar chart of the deadline still shows under a limit');
    if (s.over.length) problems.push(`rows over the limit shown: ${s.over.slice(0, 3).join('; ')}`);
    if (s.cells) problems.push(`${s.cells} rows have other cells than the table's columns`);
    if (!s.sorted) problems.push('the rows are not lowest energy first under the limit');
    if (!s.within.startsWith(`${s.limit} `)) problems.push(`the summary says "within ${s.within}"`);
    if (s.first && !s.lowest.includes(s.first)) problems.push(`the summary says "${s.lowest}", the table's first row is ${s.first}`);
    const more = s.total - s.found;
    if (!s.count.startsWith(`${s.shown} of `) || !s.count.includes(more ? `; ${more} more match` : '; all within')) problems.push(`the count says "${s.count}" for ${s.shown} rows shown, ${s.found} within the limit`);
    report.check(`limit ${w} ${query}`, problems);
    // A budget: every row shown is within it.
    const budget = await page.evaluate(() => {
      const rows = [...document.querySelectorAll('#leaderboard tbody tr')];
      const e = rows.map((r) => Number(r.dataset.e)).sort((a, b) => a - b);
      return e[Math.floor(e.length / 2)];
    });
    await page.goto(served.url + `workloads/${w}/index.html?budget=${budget}`);
    const over = await page.evaluate((b) => [...document.querySelectorAll('#leaderboard tbody tr')]
      .filter((r) => !r.hidden && Number(r.dataset.e) > b).length, budget);
    const shown = await page.evaluate(() => [...document.querySelectorAll('#leaderboard tbody tr')].filter((r) => !r.hidden).length);
    report.check(`budget ${w} ?budget=${budget}`, over || !shown ? [`${over} rows above the budget shown, ${shown} shown`] : []);
    await page.close();
  }

  // Task: two models into a comparison, clicks counted.
  if (workloads.includes('lm-arena-chat')) {
    const { page, errors } = await open(context, served, 'workloads/lm-arena-chat/index.html');
    let clicks = 0;
    const adds = page.locator('#leaderboard button.add');
    const names = [];
    for (const i of [0, 1]) {
      const row = page.locator('#leaderboard tbody tr').nth(i);
      const slug = await row.locator('button.add').getAttribute('data-slug');
      if (names.includes(slug)) continue;
      names.push(slug);
      await row.locator('button.add').click();
      clicks += 1;
    }
    // The first two rows may be one model on two GPUs: take the next model.
    for (let i = 2; names.length < 2 && i < await adds.count(); i += 1) {
      const slug = await adds.nth(i).getAttribute('data-slug');
      if (names.includes(slug)) continue;
      names.push(slug);
      await adds.nth(i).click();
      clicks += 1;
    }
    await page.locator('.compare-bar a').click();
    clicks += 1;
    await page.waitForURL(/compare\/index\.html\?models=/);
    await page.waitForTimeout(100);
    const ticked = await page.evaluate(() => [...document.querySelectorAll('input[name=models]:checked')].map((b) => b.value));
    const problems = [...errors];
    if (clicks > 3) problems.push(`${clicks} clicks`);
    if (ticked.sort().join(',') !== names.sort().join(',')) problems.push(`the compare page shows ${ticked.join(', ')}, not ${names.join(', ')}`);
    report.check('task compare two models from the leaderboard', problems, `${clicks} clicks`);
    await page.close();

    // Task: the lowest energy per response on H100, at most 2 actions.
    const t = await open(context, served, 'workloads/lm-arena-chat/index.html');
    await t.page.selectOption('form.filters select[name=gpu]', 'H100');
    await t.page.locator('#leaderboard th[data-key=joules_per_response] button.sort').click();
    const r = await t.page.evaluate(() => {
      const head = [...document.querySelectorAll('#leaderboard thead th')].findIndex((h) => h.dataset.key === 'joules_per_response');
      const rows = [...document.querySelectorAll('#leaderboard tbody tr')].filter((x) => !x.hidden);
      const v = (x) => Number(x.cells[head].textContent.replace(/,/g, ''));
      return { first: rows.length ? v(rows[0]) : null, min: Math.min(...rows.map(v)), gpus: [...new Set(rows.map((x) => x.dataset.gpu))] };
    });
    const p2 = [...t.errors];
    if (r.first === null || r.first !== r.min) p2.push(`the first row shows ${r.first} J, the lowest is ${r.min} J`);
    if (r.gpus.join() !== 'H100') p2.push(`rows of ${r.gpus.join(', ')} shown`);
    report.check('task lowest energy per response on H100 (2 actions)', p2, `${r.first} J`);
    await t.page.close();
  }
  await context.close();
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  await runAlone({
    name: 'layout',
    title: 'Layout and reader tasks in Chromium',
    usage: 'node layout.mjs SITE_DIR [--base-path P] [--base-url URL]',
    check: checkLayout,
  });
}
