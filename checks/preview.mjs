#!/usr/bin/env node
// Browser check of `energyboard serve`, as a person uses it: with a model
// page open in headless Chromium, an edit to its file (saved as editors
// save, by a rename) makes the open page reload by itself and show the
// edit; a broken file makes it reload with the error banner, naming the
// file, while the last good page stays; the fix takes the banner away.
//
// As a command: node preview.mjs ENERGYBOARD_BINARY DATA_DIR
// (DATA_DIR is copied; the copy is edited, never DATA_DIR itself.)

import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { launchBrowser } from './lib/browser.mjs';

const [bin, dataDir] = process.argv.slice(2);
if (!bin || !dataDir) {
  console.error('usage: node preview.mjs ENERGYBOARD_BINARY DATA_DIR');
  process.exit(2);
}

let failed = 0;
let passed = 0;
function report(ok, what) {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'}  preview: ${what}`);
  if (ok) passed += 1; else failed += 1;
}

async function firstModelFile(dir) {
  for (const entry of (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.')) {
      const found = await firstModelFile(p);
      if (found) return found;
    } else if (entry.name.endsWith('.json') && entry.name !== 'changes.json') {
      return p;
    }
  }
  return null;
}

// How long the page's requests for the build number are held while a
// broken file is saved: longer than a build of the fixture takes.
const HOLD_MS = 4000;

async function save(file, text) {
  await fs.writeFile(`${file}.new`, text);
  await fs.rename(`${file}.new`, file);
}

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'energyboard-preview-check-'));
const data = path.join(work, 'data');
await fs.cp(dataDir, data, { recursive: true });
const file = await firstModelFile(data);
const original = await fs.readFile(file, 'utf8');
const model = JSON.parse(original);
const workload = path.relative(data, path.dirname(file)).split(path.sep)[0] || '';

const statics = path.join(work, 'static');
await fs.mkdir(statics);
const server = spawn(bin, ['serve', '--port', '0', '--data', data, '--static', statics], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
let log = '';
server.stdout.on('data', (d) => { log += d; });
server.stderr.on('data', (d) => { log += d; });
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`serve printed no URL:\n${log}`)), 60000);
  server.on('exit', (code) => { clearTimeout(timer); reject(new Error(`serve exited (${code}):\n${log}`)); });
  const look = () => {
    const m = /serving (http:\/\/\S+)/.exec(log);
    if (m) { clearTimeout(timer); resolve(m[1]); } else setTimeout(look, 50);
  };
  look();
});

const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  const address = `${url}${workload ? `workloads/${workload}/` : ''}models/${model.slug}/`;
  await page.goto(address);
  report((await page.locator('h1').innerText()).includes(model.name), `${address} shows ${model.name}`);

  // An edit: the open page reloads by itself and shows it.
  const renamed = `${model.name} (edited)`;
  const start = Date.now();
  await save(file, JSON.stringify({ ...model, name: renamed }, null, 2));
  const reloaded = await page.waitForFunction((n) => document.querySelector('h1')?.textContent.includes(n), renamed, { timeout: 20000 })
    .then(() => true, () => false);
  report(reloaded, `the open page reloaded with the edited name by itself (${Date.now() - start} ms after the save)`);

  // A broken file: the page reloads with the banner naming the file. Even
  // when it is saved while the page is still loading: the page's requests
  // for the build number are held for a while here (as a busy machine or a
  // slow stylesheet holds its script), so the broken build finishes before
  // the page first asks. A script that took the number it first got as the
  // page's own missed that build and never showed the banner (a failure of
  // this check on a busy machine); the page carries the number of the build
  // it was served from.
  const held = async (route) => {
    await new Promise((resolve) => { setTimeout(resolve, HOLD_MS); });
    await route.continue().catch(() => {});
  };
  await page.route('**/__energyboard/build*', held);
  await page.reload();
  await save(file, '{ "name": ');
  // One check in the page, so a second reload (the save may trigger two
  // failed builds) cannot land between finding the banner and reading it.
  const banner = await page.waitForFunction(
    (name) => document.querySelector('#energyboard-build-error')?.textContent.includes(name),
    path.basename(file), { timeout: 20000 },
  ).then(() => true, () => false);
  report(banner, 'a broken file: the open page shows the error banner naming the file');
  await page.unroute('**/__energyboard/build*', held);
  const stays = await page.waitForFunction(
    (n) => document.querySelector('h1')?.textContent.includes(n), renamed, { timeout: 20000 },
  ).then(() => true, () => false);
  report(stays, 'a broken file: the last good page stays');

  // Fixed: the banner goes.
  await save(file, original);
  const fixed = await page.waitForFunction((n) => document.querySelector('h1')?.textContent.includes(n) && !document.querySelector('#energyboard-build-error'), model.name, { timeout: 20000 })
    .then(() => true, () => false);
  report(fixed, 'fixed: the banner is gone and the page shows the file as it is');
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.on('exit', resolve));
  await fs.rm(work, { recursive: true, force: true });
}
if (failed) {
  console.log(log);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
