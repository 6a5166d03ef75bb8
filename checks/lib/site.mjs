// What a built site folder holds: its files by kind, and the pages the
// browser checks look at, found from the folder itself (no page content is
// assumed beyond the URL scheme of the README).

import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Every file under `root` (hidden files and folders left out), as `/`-separated relative paths, sorted. */
export async function listFiles(root) {
  const out = [];
  async function walk(dir, rel) {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(dir, e.name), childRel);
      else if (e.isFile()) out.push(childRel);
    }
  }
  await walk(path.resolve(root), '');
  return out.sort();
}

/** The URL path (relative to the site root) a file is served at: `x/index.html` → `x/`. */
export function urlPathOf(rel) {
  if (rel === 'index.html') return '';
  if (rel.endsWith('/index.html')) return rel.slice(0, -'index.html'.length);
  return rel;
}

/**
 * The pages the browser checks visit, by kind. Model pages: the smallest and
 * the largest (most rows), unless CHECKS_MODEL_PAGES names slugs. GPU page:
 * the largest. Returns `{ pages: [{kind, name, rel}], missing: [{kind, rel}] }`.
 */
export async function choosePages(root, files) {
  const sizes = new Map();
  for (const f of files) {
    if (f.endsWith('.html')) sizes.set(f, (await fs.stat(path.join(root, f))).size);
  }
  const bySize = (list) => [...list].sort((a, b) => sizes.get(a) - sizes.get(b) || a.localeCompare(b));
  // A site with workloads has its model and GPU pages under
  // workloads/<workload>/; models/<slug>/ and gpus/<gpu>/ are then the
  // cross-workload overviews, checked as kinds of their own.
  const hasWorkloads = files.some((f) => f.startsWith('workloads/'));
  const under = (re) => bySize(files.filter((f) => re.test(f)));
  const overviews = under(/^models\/[^/]+\/index\.html$/);
  const hubs = under(/^gpus\/[^/]+\/index\.html$/);
  const modelPages = hasWorkloads ? under(/^workloads\/[^/]+\/models\/[^/]+\/index\.html$/) : overviews;
  const gpuPages = hasWorkloads ? under(/^workloads\/[^/]+\/gpus\/[^/]+\/index\.html$/) : hubs;
  const name = (kind, rel) => `${kind}-${rel.split('/').slice(0, -1).filter((s) => !['models', 'gpus', 'workloads'].includes(s)).join('-')}`;

  const pages = [];
  const missing = [];
  const want = (kind, name, rel) => {
    if (rel && sizes.has(rel)) pages.push({ kind, name, rel });
    else missing.push({ kind, rel: rel || `${kind}` });
  };

  want('leaderboard', 'leaderboard', 'index.html');

  let models;
  const chosen = process.env.CHECKS_MODEL_PAGES;
  if (chosen) {
    models = chosen.split(',').map((s) => `models/${s.trim()}/index.html`);
  } else if (modelPages.length >= 2) {
    models = [modelPages[0], modelPages[modelPages.length - 1]];
  } else {
    models = [...modelPages];
  }
  models.forEach((rel) => want('model', name('model', rel), rel));
  for (let i = models.length; i < 2; i += 1) {
    missing.push({ kind: 'model', rel: `models/<slug>/index.html (page ${i + 1} of 2)` });
  }

  if (gpuPages.length) {
    const rel = gpuPages[gpuPages.length - 1];
    want('gpu', name('gpu', rel), rel);
  } else {
    missing.push({ kind: 'gpu', rel: 'gpus/<gpu>/index.html' });
  }
  want('compare', 'compare', 'compare/index.html');
  if (hasWorkloads) {
    // The largest workload's leaderboard and comparison, the largest model
    // overview and GPU hub.
    const leaderboards = under(/^workloads\/[^/]+\/index\.html$/);
    const compares = under(/^workloads\/[^/]+\/compare\/index\.html$/);
    const last = (list) => list[list.length - 1];
    // A model's permanent version page (v/<YYYY-MM-DD>/): the largest of
    // those a later version superseded (their banner says what changed
    // next), else the largest; every model with a history has one, its
    // current version's. A site whose models have no history (no change
    // log, no superseded files: the 24-model fixture) has none, and its
    // model pages list no versions.
    const versionPages = under(/^workloads\/[^/]+\/models\/[^/]+\/v\/\d{4}-\d{2}-\d{2}\/index\.html$/);
    const folder = (rel) => rel.replace(/v\/[^/]+\/index\.html$/, '');
    const superseded = versionPages.filter((rel) => versionPages.some((o) => folder(o) === folder(rel) && o > rel));
    const workloadModels = under(/^workloads\/[^/]+\/models\/[^/]+\/index\.html$/);
    let versioned = versionPages.length > 0;
    for (const rel of workloadModels) {
      if (versioned) break;
      versioned = (await fs.readFile(path.join(root, rel), 'utf8')).includes('id="versions"');
    }
    for (const [kind, list] of [['model-version', superseded.length ? superseded : versionPages], ['workload', leaderboards], ['workload-compare', compares], ['overview', overviews], ['gpu-hub', hubs]]) {
      if (list.length) want(kind, name(kind, last(list)), last(list));
      else if (kind !== 'model-version' || versioned) missing.push({ kind, rel: `${kind} page` });
    }
    // A site with diffusion workloads (their model pages chart against batch
    // size): the largest diffusion model page and its workload's leaderboard
    // too, whatever the sizes of the per-token pages.
    const diffusion = modelPages.filter((rel) => files.includes(rel.replace(/index\.html$/, 'energy-vs-batch-size.svg')));
    if (diffusion.length) {
      const rel = last(diffusion);
      if (!models.includes(rel)) want('diffusion-model', name('diffusion-model', rel), rel);
      const board = rel.replace(/models\/[^/]+\/index\.html$/, 'index.html');
      if (board !== last(leaderboards)) want('diffusion-workload', name('diffusion-workload', board), board);
    }
  }
  want('about', 'about', 'about/index.html');
  want('data', 'data', 'data/index.html');
  want('changes', 'changes', 'changes/index.html');
  want('404', '404', '404.html');
  return { pages, missing };
}
