#!/usr/bin/env node
// Tests the checks themselves: runs them on selftest/broken-site/, a small
// site with known faults, and asserts that each fault is reported by the
// check that should find it, that the clean pages pass, and that the server
// behaves as Pages does. A check that cannot fail is worse than none.
//
// As a command: node checks/selftest.mjs   (ends with `N passed, N failed`)

import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Report, heading, since } from './lib/report.mjs';
import { launchBrowser } from './lib/browser.mjs';
import { makeServed } from './lib/served.mjs';
import { startServer } from './serve.mjs';
import { checkConformance } from './vnu.mjs';
import { checkLinks } from './links.mjs';
import { checkPages } from './pages.mjs';
import { checkLayout } from './layout.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SITE = path.join(HERE, 'selftest', 'broken-site');

// check name -> substrings that its failure must mention (all of them).
const MUST_FAIL = {
  'vnu index.html': ['An “img” element must have an “alt” attribute', 'Unclosed element “span”'],
  'vnu assets/style.css': ['colr'],
  'vnu chart.svg': ['widht'],
  'links index.html': [
    '"/about/": root-relative URL',
    '"missing/": broken',
    'fragment #nowhere does not exist in about/index.html',
    'fragment #also-nowhere does not exist in index.html',
    '<img src>="https://images.example.com/x.png": loads a resource from another site',
    '<link href>="https://cdn.example.com/theme.css": loads a resource from another site',
    '<p style url()>="https://images.example.com/bg.png": loads a resource from another site',
  ],
  'links assets/style.css': ['https://cdn.example.com/bg.png', '"missing.png": broken'],
  'links chart.svg': ['https://images.example.com/logo.png'],
  'page kind "model" exists': ['page 2 of 2'],
  'page kind "gpu" exists': ['gpus/<gpu>/index.html'],
  'page kind "compare" exists': ['compare/index.html'],
  'page kind "data" exists': ['data/index.html'],
  'page kind "changes" exists': ['changes/index.html'],
  'axe leaderboard light': ['axe image-alt', 'axe html-has-lang', 'axe color-contrast'],
  'axe leaderboard dark': ['axe image-alt'],
  'browser leaderboard': ['off-site request: https://cdn.example.com/theme.css'],
  'width model-m1 360px': ['scrolls sideways', 'table#row-1'],
  'nojs leaderboard': ['<form class="shown"> has the hidden attribute but displays as "flex"'],
  // The 900 px table of models/m1 at each width it does not fit (layout.mjs
  // loads a page once and resizes it: the widths after the first must see
  // the page as a load at that width would).
  'fit overview 320px': ['the page scrolls sideways', 'table#row-1'],
  'fit overview 390px': ['the page scrolls sideways', 'table#row-1'],
  'fit overview 768px': ['the page scrolls sideways', 'table#row-1'],
};
// Checks that must pass (clean pages).
const MUST_PASS = [
  'vnu about/index.html',
  'vnu assets/ok.css',
  'vnu 404.html',
  'links about/index.html',
  'links models/m1/index.html',
  'links 404.html',
  'links 404.html served at /this-page-does-not-exist',
  'axe about light',
  'axe about dark',
  'axe 404 light',
  'browser about',
  'width about 360px',
  'nojs about',
  'shots leaderboard',
  'shots about',
  'fit overview 1280px',
  'fit about 320px',
  'fit about 1280px',
];
// Text that must appear in no failure at all.
const NEVER = ['https://example.org/', 'about/#defined', '#row-1"'];

async function main() {
  const report = new Report('selftest');
  const start = performance.now();
  heading('Self-test of the checks on checks/selftest/broken-site');

  // The server, as Pages serves a project site.
  const server = await startServer({ root: SITE, basePath: '/repo-name/' });
  const get = (p) => fetch(server.origin + p, { redirect: 'manual' });
  const expectations = [
    ['/repo-name/', 200, (r, body) => body.includes('Self-test')],
    ['/repo-name', 301, (r) => r.headers.get('location') === '/repo-name/'],
    ['/repo-name/about', 301, (r) => r.headers.get('location') === '/repo-name/about/'],
    ['/repo-name/about/', 200, (r, body) => body.includes('About')],
    ['/repo-name/assets/ok.css', 200, (r) => r.headers.get('content-type').startsWith('text/css')],
    ['/repo-name/chart.svg', 200, (r) => r.headers.get('content-type') === 'image/svg+xml'],
    ['/repo-name/no/such/page', 404, (r, body) => body.includes('Not found')],
    ['/about/', 404, (r, body) => body.includes('outside the site')],
    ['/repo-name/a%2Fb', 400, () => true],
    ['/repo-name/%2e%2e/%2e%2e/etc/passwd', 404, (r, body) => !body.includes('root:')],
  ];
  for (const [p, status, ok] of expectations) {
    const r = await get(p);
    const body = await r.text();
    const problems = [];
    if (r.status !== status) problems.push(`answered ${r.status}, expected ${status}`);
    else if (!ok(r, body)) problems.push(`unexpected answer: ${r.headers.get('location') || body.slice(0, 80)}`);
    report.check(`server GET ${p} → ${status}`, problems);
  }

  // The checks, quietly, on the broken site.
  const inner = new Report('inner', { quiet: true });
  const served = makeServed(server, '');
  const browser = await launchBrowser();
  const shots = await fs.mkdtemp(path.join(os.tmpdir(), 'energyboard-selftest-shots-'));
  try {
    await checkConformance(SITE, inner.child('vnu'));
    await checkLinks({ siteDir: SITE, served, report: inner.child('links') });
    await checkPages({ siteDir: SITE, served, browser, report: inner.child('pages'), requireAll: true, shotsDir: shots, label: 'selftest' });
    await checkLayout({ siteDir: SITE, served, browser, report: inner.child('layout') });
  } finally {
    await browser.close();
    await server.close();
    await fs.rm(shots, { recursive: true, force: true });
  }

  const failed = new Map(inner.failures.map((f) => [f.name, f.problems.join('\n')]));
  for (const [name, needles] of Object.entries(MUST_FAIL)) {
    const text = failed.get(name);
    if (text === undefined) {
      report.fail(`finds: ${name}`, `the check did not fail (failed checks: ${[...failed.keys()].join(', ')})`);
      continue;
    }
    const missing = needles.filter((n) => !text.includes(n));
    report.check(`finds: ${name}`, missing.map((n) => `its failure does not mention ${JSON.stringify(n)}; it said:\n${text}`));
  }
  for (const name of MUST_PASS) {
    report.check(`passes: ${name}`, failed.has(name) ? [`it failed:\n${failed.get(name)}`] : []);
  }
  const allText = [...failed.values()].join('\n');
  report.check('no false alarms on allowed links', NEVER.filter((n) => allText.includes(n)).map((n) => `a failure mentions ${n}`));
  const expectedCount = Object.keys(MUST_FAIL).length;
  report.check('no unexpected failures', [...failed.keys()].filter((n) => !(n in MUST_FAIL)).map((n) => `unexpected failure: ${n}: ${failed.get(n)}`), `${expectedCount} expected failures found`);

  console.log(`  (${since(start)})`);
  console.log(report.summaryLine());
  process.exitCode = report.failed ? 1 : 0;
}

await main();
