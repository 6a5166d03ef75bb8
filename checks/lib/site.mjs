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
  const modelPages = bySize(files.filter((f) => /^workloads\/[^/]+\/models\/[^/]+\/index\.html$/.test(f)));
  const gpuPages = bySize(files.filter((f) => /^workloads\/[^/]+\/gpus\/[^/]+\/index\.html$/.test(f)));
  const leaderboards = bySize(files.filter((f) => /^workloads\/[^/]+\/index\.html$/.test(f)));
  const overviews = bySize(files.filter((f) => /^models\/[^/]+\/index\.html$/.test(f)));
  const hubs = bySize(files.filter((f) => /^gpus\/[^/]+\/index\.html$/.test(f)));
  const last = (list) => list[list.length - 1];
  const slug = (rel) => rel.split('/').slice(0, -1).join('-');

  const pages = [];
  const missing = [];
  const want = (kind, name, rel) => {
    if (rel && sizes.has(rel)) pages.push({ kind, name, rel });
    else missing.push({ kind, rel: rel || `${kind}` });
  };

  want('front', 'front', 'index.html');
  if (leaderboards.length) want('leaderboard', slug(last(leaderboards)), last(leaderboards));
  else missing.push({ kind: 'leaderboard', rel: 'workloads/<workload>/index.html' });
  if (overviews.length) want('overview', slug(last(overviews)), last(overviews));
  else missing.push({ kind: 'overview', rel: 'models/<slug>/index.html' });
  if (hubs.length) want('gpu-hub', slug(last(hubs)), last(hubs));

  let models;
  const chosen = process.env.CHECKS_MODEL_PAGES;
  if (chosen) {
    models = chosen.split(',').map((s) => `workloads/lm-arena-chat/models/${s.trim()}/index.html`);
  } else if (modelPages.length >= 2) {
    models = [modelPages[0], modelPages[modelPages.length - 1]];
  } else {
    models = [...modelPages];
  }
  models.forEach((rel) => want('model', slug(rel), rel));
  for (let i = models.length; i < 2; i += 1) {
    missing.push({ kind: 'model', rel: `models/<slug>/index.html (page ${i + 1} of 2)` });
  }

  if (gpuPages.length) {
    const rel = last(gpuPages);
    want('gpu', slug(rel), rel);
  } else {
    missing.push({ kind: 'gpu', rel: 'gpus/<gpu>/index.html' });
  }
  want('compare-hub', 'compare-hub', 'compare/index.html');
  const compares = bySize(files.filter((f) => /^workloads\/[^/]+\/compare\/index\.html$/.test(f)));
  if (compares.length) want('compare', slug(last(compares)), last(compares));
  else missing.push({ kind: 'compare', rel: 'workloads/<workload>/compare/index.html' });
  want('about', 'about', 'about/index.html');
  want('data', 'data', 'data/index.html');
  want('404', '404', '404.html');
  return { pages, missing };
}
