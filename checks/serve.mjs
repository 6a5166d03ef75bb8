#!/usr/bin/env node
// A tiny static server for a built site, as GitHub Pages serves a project
// site: the site lives under a sub-path (`/energyboard/`), a folder URL
// without its slash is redirected, a folder serves its index.html, and a
// missing file gets the site's 404.html with status 404. Anything outside the
// sub-path is a plain 404 (on Pages it would not be this site at all).
// Listens on 127.0.0.1 only, on a free port unless one is given.
//
// As a command: node serve.mjs SITE_DIR [--base-path /energyboard/] [--port N]

import { createServer } from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.bib': 'text/plain; charset=utf-8',
};

/** Normalises a sub-path to `/x/` form (`/` for the root). */
export function normaliseBasePath(basePath) {
  const trimmed = String(basePath || '/').replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}/` : '/';
}

/**
 * Starts serving `root` under `basePath`. Resolves to
 * `{ origin, url, basePath, close() }`, where `url` is the site's root URL.
 */
export async function startServer({ root, basePath = '/energyboard/', port = 0 } = {}) {
  const rootDir = path.resolve(root);
  const base = normaliseBasePath(basePath);
  const stat = await fs.stat(rootDir).catch(() => null);
  if (!stat || !stat.isDirectory()) throw new Error(`${rootDir}: not a folder`);

  const server = createServer((req, res) => {
    handle(rootDir, base, req, res).catch((err) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`server error: ${err.message}\n`);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    url: `${origin}${base}`,
    basePath: base,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function handle(rootDir, base, req, res) {
  const headers = { 'cache-control': 'no-store' };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...headers, allow: 'GET, HEAD' });
    res.end();
    return;
  }
  const url = new URL(req.url, 'http://127.0.0.1');
  let pathname = url.pathname;
  if (`${pathname}/` === base) {
    res.writeHead(301, { ...headers, location: base });
    res.end();
    return;
  }
  if (!pathname.startsWith(base)) {
    res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
    res.end(`404: ${pathname} is outside the site, which is served under ${base}\n`);
    return;
  }
  const segments = [];
  for (const raw of pathname.slice(base.length).split('/')) {
    let seg;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return send(res, 400, headers, 'bad URL encoding\n', req);
    }
    if (seg === '..' || seg.includes('/') || seg.includes('\\') || seg.includes('\0')) {
      return send(res, 400, headers, 'path traversal refused\n', req);
    }
    if (seg !== '' && seg !== '.') segments.push(seg);
  }
  let file = path.join(rootDir, ...segments);
  if (file !== rootDir && !file.startsWith(rootDir + path.sep)) {
    return send(res, 400, headers, 'path traversal refused\n', req);
  }
  let st = await fs.stat(file).catch(() => null);
  if (st && st.isDirectory()) {
    if (!pathname.endsWith('/')) {
      res.writeHead(301, { ...headers, location: `${pathname}/${url.search}` });
      res.end();
      return;
    }
    file = path.join(file, 'index.html');
    st = await fs.stat(file).catch(() => null);
  }
  if (!st || !st.isFile()) {
    const notFound = await fs.readFile(path.join(rootDir, '404.html')).catch(() => null);
    if (notFound) {
      res.writeHead(404, { ...headers, 'content-type': TYPES['.html'] });
      res.end(req.method === 'HEAD' ? undefined : notFound);
    } else {
      send(res, 404, headers, `404: no ${pathname} (and the site has no 404.html)\n`, req);
    }
    return;
  }
  const type = TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream';
  const body = await fs.readFile(file);
  res.writeHead(200, { ...headers, 'content-type': type, 'content-length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function send(res, status, headers, text, req) {
  res.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
  res.end(req.method === 'HEAD' ? undefined : text);
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const args = process.argv.slice(2);
  const opt = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : fallback;
  };
  const root = args.find((a, i) => !a.startsWith('--') && !['--base-path', '--port'].includes(args[i - 1]));
  if (!root) {
    console.error('usage: node serve.mjs SITE_DIR [--base-path /energyboard/] [--port N]');
    process.exit(2);
  }
  const server = await startServer({
    root,
    basePath: opt('--base-path', '/energyboard/'),
    port: Number(opt('--port', 0)),
  });
  console.log(`serving ${path.resolve(root)} at ${server.url} (Ctrl-C stops)`);
  process.on('SIGINT', () => server.close().then(() => process.exit(0)));
}
