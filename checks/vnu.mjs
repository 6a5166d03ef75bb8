#!/usr/bin/env node
// HTML, CSS and SVG conformance with the Nu Html Checker (vnu.jar from the
// vnu-jar npm package, run on the installed Java). One check per file: it
// passes with zero errors. Warnings are printed but do not fail. Several
// sites can be checked in one Java run (checkConformanceOf; run.mjs does
// so for the sites it is given).
//
// As a command: node vnu.mjs SITE_DIR

import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

import { Report, heading, since } from './lib/report.mjs';
import { listFiles } from './lib/site.mjs';

const require = createRequire(import.meta.url);
const VNU_JAR = require('vnu-jar');
const JAVA = process.env.JAVA || 'java';

/**
 * Runs vnu once on folders, in the order given (HTML, and CSS and SVG by
 * extension); resolves to its messages. One Java start for the whole run:
 * on 2 cores each start costs seconds. C1-only JIT and the serial GC make a
 * short run cheaper: both sites' 1,619 files in 8–9 CPU-seconds, against
 * 17–18 with the default tiered JIT, with or without the serial GC
 * (2026-12-02, load average 10–14). A second Java run beside this one (the
 * HTML in one, the SVG in the other) would gain nothing: this run ends long
 * before the browser checks.
 */
function vnu(dirs) {
  return new Promise((resolve, reject) => {
    const args = [
      '-Xss4m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-jar', String(VNU_JAR),
      '--format', 'json', '--stdout', '--exit-zero-always', '--also-check-css', '--also-check-svg', ...dirs,
    ];
    const child = spawn(JAVA, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', (e) => reject(new Error(`cannot run ${JAVA}: ${e.message}`)));
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(out).messages);
      } catch {
        reject(new Error(`vnu exited ${code} without JSON output: ${(err || out).slice(0, 2000)}`));
      }
    });
  });
}

function where(m) {
  const line = m.lastLine ?? m.firstLine;
  return line ? `line ${line}${m.firstColumn ? `:${m.firstColumn}` : ''}` : '';
}

/** Checks every .html, .css and .svg file of the site; adds one check per file to `report`. */
export async function checkConformance(siteDir, report) {
  await checkConformanceOf([{ siteDir, report }]);
}

/**
 * Checks several sites in one vnu run (one Java start and one warm-up for
 * all of them: on 2 cores each costs seconds); `sites` is a list of
 * `{ siteDir, report }`, and each site's files are checked and reported
 * exactly as checkConformance does for one.
 */
export async function checkConformanceOf(sites) {
  // A staging folder with only the files to check (hard links where
  // possible), so that vnu's folder mode skips nothing and checks nothing
  // else: a folder a kind (html, svg, css), in it one numbered folder a
  // site. vnu loads the HTML or the SVG schema again each time the kind of
  // file changes from the one before, and a model page's folder holds its
  // page and its charts side by side: given the site folders, it loaded a
  // schema about 1,300 times for both sites (60 CPU-seconds of Java; kind
  // by kind, twice: 15 CPU-seconds, 2026-12-02).
  const stage = await fs.mkdtemp(path.join(os.tmpdir(), 'energyboard-vnu-'));
  const kinds = ['html', 'svg', 'css'];
  const staged = [];
  let messages = [];
  try {
    for (const [i, { siteDir, report }] of sites.entries()) {
      const root = path.resolve(siteDir);
      const files = await listFiles(root);
      const checked = files.filter((f) => /\.(html|css|svg)$/.test(f));
      if (checked.length === 0) {
        report.fail('site has HTML, CSS or SVG files', `no .html, .css or .svg file under ${root}`);
        continue;
      }
      for (const f of checked) {
        const to = path.join(stage, path.extname(f).slice(1), String(i), ...f.split('/'));
        await fs.mkdir(path.dirname(to), { recursive: true });
        await fs.link(path.join(root, f), to).catch(() => fs.copyFile(path.join(root, f), to));
      }
      staged.push({ i: String(i), report, byFile: new Map(checked.map((f) => [f, { errors: [], warnings: [] }])) });
    }
    if (staged.length) {
      const dirs = [];
      for (const kind of kinds) {
        const dir = path.join(stage, kind);
        if (await fs.stat(dir).then(() => true, () => false)) dirs.push(dir);
      }
      messages = await vnu(dirs);
    }
  } finally {
    await fs.rm(stage, { recursive: true, force: true });
  }
  if (!staged.length) return;
  for (const m of messages) {
    const [, at, ...parts] = m.url ? path.relative(stage, fileURLToPath(m.url)).split(path.sep) : [];
    // A message about no file of a site goes to the first site, as "(unknown)".
    const site = staged.find((s) => s.i === at) || staged[0];
    const rel = site.i === at && parts.length ? parts.join('/') : '(unknown)';
    const entry = site.byFile.get(rel) || site.byFile.set(rel, { errors: [], warnings: [] }).get(rel);
    const text = `${where(m)} ${m.message}${m.extract ? `  [${m.extract.replace(/\s+/g, ' ').trim().slice(0, 120)}]` : ''}`.trim();
    if (m.type === 'error' || m.type === 'non-document-error') entry.errors.push(text);
    else if (m.subType === 'warning') entry.warnings.push({ text, message: m.message });
  }
  for (const { report, byFile } of staged) {
    // Warnings do not fail; the same warning in many files is shown once.
    const warned = new Map();
    for (const [rel, { warnings }] of byFile) {
      for (const w of warnings) {
        const key = w.message;
        if (!warned.has(key)) warned.set(key, { first: `${rel} ${w.text}`, files: new Set() });
        warned.get(key).files.add(rel);
      }
    }
    for (const [message, { first, files: where }] of warned) {
      const others = where.size > 1 ? ` (and ${where.size - 1} more file${where.size > 2 ? 's' : ''})` : '';
      report.warn('vnu', `${message} — first at ${first.split(' ')[0]}${others}`);
    }
    for (const [rel, { errors }] of byFile) {
      report.check(`vnu ${rel}`, errors.map((e) => `vnu: ${e}`));
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const siteDir = process.argv[2];
  if (!siteDir) {
    console.error('usage: node vnu.mjs SITE_DIR');
    process.exit(2);
  }
  const report = new Report('vnu');
  const start = performance.now();
  heading(`Nu Html Checker: ${path.resolve(siteDir)}`);
  try {
    await checkConformance(siteDir, report);
  } catch (err) {
    report.fail('vnu ran', err.message);
  }
  console.log(`  (${since(start)})`);
  console.log(report.summaryLine());
  process.exitCode = report.failed ? 1 : 0;
}
