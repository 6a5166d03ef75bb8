#!/usr/bin/env node
// Link check of a built site as served under a sub-path. Every HTML page and
// SVG file is fetched from the local server and parsed with parse5 (the
// HTML standard's parsing algorithm, as a browser parses a page with
// JavaScript off; no browser is started); every href/src/srcset/xlink:href/
// poster/data/action and og:/twitter: URL is resolved against the page's
// served URL, and must:
// - not be root-relative (`/x`): under a sub-path it leaves the site;
// - when internal, name a file of the site, and a fragment must name an id
//   (or <a name>) in the target page;
// - when it loads something (img, script, stylesheet, icon, iframe, ...,
//   and url() in a style attribute or <style> element), not point off-site.
// What the browser itself requests from a page is watched by the browser
// checks (pages.mjs) on a sample of each page kind.
// Links to other sites in <a href> are allowed and not fetched. CSS files'
// url() and @import, sitemap.xml and robots.txt are checked the same way.
// The 404 page is loaded at its own URL and at missing URLs at two depths.
// One check per document (per URL for the 404 page), per CSS file, per
// sitemap/robots file.
//
// As a command: node links.mjs SITE_DIR [--base-path /energyboard/] [--base-url URL]

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { parse } from 'parse5';

import { listFiles, urlPathOf } from './lib/site.mjs';
import { runAlone } from './lib/cli.mjs';

const RESOURCE_RELS = new Set([
  'stylesheet', 'icon', 'shortcut', 'preload', 'modulepreload', 'manifest', 'apple-touch-icon',
  'prefetch', 'preconnect', 'dns-prefetch', 'mask-icon', 'prerender',
]);
const RESOURCE_TAGS = new Set([
  'img', 'source', 'script', 'iframe', 'embed', 'object', 'video', 'audio', 'track', 'input',
  'image', 'use', 'feimage', 'frame',
]);
// Where an absolute URL to the published site belongs.
const ABSOLUTE_OK_RELS = new Set(['canonical', 'alternate']);

const XLINK = 'http://www.w3.org/1999/xlink';

/** The element nodes of a parse5 tree, in document order (not inside <template>, as querySelectorAll). */
function* elements(node) {
  for (const child of node.childNodes || []) {
    if (child.tagName) yield child;
    yield* elements(child);
  }
}

/** The url() and @import URLs of a piece of CSS. */
function cssUrls(css) {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const found = [];
  for (const m of text.matchAll(/url\(\s*(['"]?)([^'")]*?)\1\s*\)/g)) found.push(m[2]);
  for (const m of text.matchAll(/@import\s+(['"])([^'"]+)\1/g)) found.push(m[2]);
  return found.filter((value) => !value.startsWith('#')); // an SVG paint server in the same document
}

/** Collects ids and URL-bearing attributes from a document's text. */
function extract(text) {
  const ids = [];
  const refs = [];
  const attrs = ['href', 'src', 'srcset', 'poster', 'action', 'formaction', 'cite'];
  for (const el of elements(parse(text))) {
    const tag = el.tagName.toLowerCase();
    // getAttribute: an attribute without a namespace prefix (xlink:href has one).
    const get = (name) => {
      const a = el.attrs.find((x) => x.name === name && !x.prefix);
      return a ? a.value : null;
    };
    if (get('id')) ids.push(get('id'));
    if (tag === 'a' && get('name')) ids.push(get('name'));
    const rel = (get('rel') || '').toLowerCase();
    for (const attr of attrs) {
      if (get(attr) !== null) refs.push({ tag, attr, value: get(attr), rel });
    }
    if (tag === 'object' && get('data') !== null) refs.push({ tag, attr: 'data', value: get('data'), rel });
    const xl = el.attrs.find((x) => x.namespace === XLINK && x.name === 'href');
    if (xl) refs.push({ tag, attr: 'xlink:href', value: xl.value, rel });
    if (get('style') !== null) {
      for (const value of cssUrls(get('style'))) refs.push({ tag, attr: 'style url()', value, rel: '' });
    }
    if (tag === 'style') {
      const css = el.childNodes.map((c) => c.value || '').join('');
      for (const value of cssUrls(css)) refs.push({ tag, attr: 'url()', value, rel: '' });
    }
    if (tag === 'meta') {
      const prop = (get('property') || get('name') || '').toLowerCase();
      if (/^(og:(url|image|image:url|image:secure_url|video|audio)|twitter:(image|url)(:src)?)$/.test(prop)) {
        refs.push({ tag, attr: `content of ${prop}`, value: get('content') || '', rel: 'meta' });
      }
      if ((get('http-equiv') || '').toLowerCase() === 'refresh') {
        const m = /url\s*=\s*['"]?([^'"]+)/i.exec(get('content') || '');
        if (m) refs.push({ tag, attr: 'refresh url', value: m[1], rel: '' });
      }
    }
  }
  return { ids, refs };
}

function isResource(ref) {
  if (ref.attr.endsWith('url()')) return true;
  if (ref.tag === 'link') return ref.rel.split(/\s+/).some((r) => RESOURCE_RELS.has(r));
  if (RESOURCE_TAGS.has(ref.tag)) return true;
  return ref.attr === 'poster' || ref.attr === 'srcset';
}

/** Splits a srcset into its URLs. */
function srcsetUrls(value) {
  return value.split(',').map((part) => part.trim().split(/\s+/)[0]).filter(Boolean);
}

/**
 * Links of a site, checked against the files in it.
 * `served` comes from makeServed().
 */
export async function checkLinks({ siteDir, served, report }) {
  const root = path.resolve(siteDir);
  const files = await listFiles(root);
  const fileSet = new Set(files);
  const dirSet = new Set();
  for (const f of files) {
    const parts = f.split('/');
    for (let i = 1; i < parts.length; i += 1) dirSet.add(parts.slice(0, i).join('/'));
  }
  const docs = files.filter((f) => f.endsWith('.html') || f.endsWith('.svg'));
  if (!docs.length) {
    report.fail('site has pages', `no .html or .svg file under ${root}`);
    return;
  }

  // Visits: each document at its URL; the 404 page also at missing URLs.
  const visits = [];
  for (const rel of docs) {
    if (rel === '404.html') {
      visits.push({ rel, url: `${served.url}404.html`, label: '404.html', status: 200, strict: true });
      visits.push({ rel, url: `${served.url}this-page-does-not-exist`, label: '404.html served at /this-page-does-not-exist', status: 404, strict: true });
      visits.push({
        rel,
        url: `${served.url}models/no-such-model/`,
        label: '404.html served at /models/no-such-model/',
        status: 404,
        strict: Boolean(served.publishedBase),
      });
    } else {
      visits.push({ rel, url: served.url + urlPathOf(rel), label: rel, status: 200, strict: true });
    }
  }

  const idsOf = new Map();
  const loaded = [];
  for (const visit of visits) {
    let status = 0;
    let data = { ids: [], refs: [] };
    let loadError = null;
    try {
      const response = await fetch(visit.url, { signal: AbortSignal.timeout(30000) });
      status = response.status;
      data = extract(await response.text());
    } catch (err) {
      loadError = err.message.split('\n')[0];
    }
    if (!idsOf.has(visit.rel) && !loadError) idsOf.set(visit.rel, new Set(data.ids));
    loaded.push({ visit, status, data, loadError });
  }

  const referenced = new Set();
  const externalLinks = new Set();

  /** Resolves one URL found in `docUrl`; returns a list of problems. */
  function checkUrl(rawValue, docUrl, { resource, absoluteOk, what, fromRel, docRel = null }) {
    const value = rawValue.trim();
    if (value === '' || value === '#' || value === '#top') return [];
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(value);
    if (scheme) {
      const s = scheme[1].toLowerCase();
      if (s === 'mailto' || s === 'tel' || s === 'data') return [];
      if (s === 'javascript') return [`${what}="${value}": javascript: URL`];
    }
    if (value.startsWith('/') && !value.startsWith('//')) {
      return [`${what}="${value}": root-relative URL; under the sub-path ${served.basePath} it leaves the site (make it relative)`];
    }
    let url;
    try {
      url = new URL(value, docUrl);
    } catch {
      return [`${what}="${value}": not a valid URL`];
    }
    let local = null;
    if (url.origin === served.origin) {
      local = url;
    } else {
      const mapped = served.mapPublished(url.href);
      if (mapped) {
        if (!absoluteOk) {
          return [`${what}="${value}": absolute URL to this site; make it relative so the site works under any sub-path and from disk`];
        }
        local = new URL(mapped);
      }
    }
    if (!local) {
      if (resource) return [`${what}="${value}": loads a resource from another site (${url.host || url.protocol})`];
      if (url.protocol === 'http:' || url.protocol === 'https:') externalLinks.add(url.href.split('#')[0]);
      return [];
    }
    if (!local.pathname.startsWith(served.basePath)) {
      return [`${what}="${value}": resolves to ${local.pathname}, outside the sub-path ${served.basePath}`];
    }
    let target;
    try {
      target = local.pathname.slice(served.basePath.length).split('/').map(decodeURIComponent).join('/');
    } catch {
      return [`${what}="${value}": bad percent-encoding`];
    }
    let file = null;
    const problems = [];
    if (docRel && local.href.split('#')[0] === new URL(docUrl).href.split('#')[0]) {
      file = docRel; // the document itself, wherever it is served (the 404 page)
    } else if (target === '' || target.endsWith('/')) {
      file = fileSet.has(`${target}index.html`) ? `${target}index.html` : null;
    } else if (fileSet.has(target)) {
      file = target;
    } else if (dirSet.has(target) && fileSet.has(`${target}/index.html`)) {
      file = `${target}/index.html`;
      report.warn(fromRel, `${what}="${value}" names a folder without its trailing slash (works only through a redirect)`);
    }
    if (!file) return [`${what}="${value}": broken, no file for ${local.pathname} in the site`];
    referenced.add(file);
    if (local.hash && local.hash !== '#') {
      let id;
      try {
        id = decodeURIComponent(local.hash.slice(1));
      } catch {
        return [`${what}="${value}": bad percent-encoding in the fragment`];
      }
      const ids = idsOf.get(file);
      if (ids) {
        if (!ids.has(id) && !(id === 'top' && file.endsWith('.html'))) {
          problems.push(`${what}="${value}": fragment #${id} does not exist in ${file}`);
        }
      } else if (!file.endsWith('.html') && !file.endsWith('.svg')) {
        report.warn(fromRel, `${what}="${value}": fragment into a non-HTML file is not checked`);
      }
    }
    return problems;
  }

  let refCount = 0;
  for (const { visit, status, data, loadError } of loaded) {
    const problems = [];
    if (loadError) problems.push(`could not load ${visit.url}: ${loadError}`);
    else if (status !== visit.status) problems.push(`${visit.url} answered ${status}, expected ${visit.status}`);
    const is404 = visit.rel === '404.html';
    for (const ref of data.refs) {
      const values = ref.attr === 'srcset' ? srcsetUrls(ref.value) : [ref.value];
      for (const value of values) {
        refCount += 1;
        const what = `<${ref.tag} ${ref.attr}>`.replace(' content of', ' content of');
        const absoluteOk = is404 || ref.rel === 'meta' || (ref.tag === 'link' && ref.rel.split(/\s+/).some((r) => ABSOLUTE_OK_RELS.has(r)));
        problems.push(...checkUrl(value, visit.url, { resource: isResource(ref), absoluteOk, what, fromRel: visit.label, docRel: visit.rel }));
      }
    }
    const name = `links ${visit.label}`;
    if (visit.strict) {
      report.check(name, problems, `${data.refs.length} URLs`);
    } else if (problems.length) {
      report.warn(name, `without a base URL, relative links cannot work at this depth:\n          - ${problems.join('\n          - ')}`);
    } else {
      report.pass(name, `${data.refs.length} URLs`);
    }
  }

  // CSS: url() and @import.
  for (const rel of files.filter((f) => f.endsWith('.css'))) {
    const cssUrl = served.url + rel;
    const problems = [];
    const found = cssUrls(await fs.readFile(path.join(root, rel), 'utf8'));
    for (const value of found) {
      problems.push(...checkUrl(value, cssUrl, { resource: true, absoluteOk: false, what: 'url()', fromRel: rel }));
    }
    report.check(`links ${rel}`, problems, `${found.length} URLs`);
  }

  // sitemap.xml and robots.txt, when the site has them.
  if (fileSet.has('sitemap.xml')) {
    const xml = await fs.readFile(path.join(root, 'sitemap.xml'), 'utf8');
    const locs = [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    const problems = [];
    if (!locs.length) problems.push('sitemap.xml lists no <loc>');
    if (!served.publishedBase) {
      report.warn('links sitemap.xml', 'the site has a sitemap but no --base-url was given to the checks, so its URLs are not checked');
    } else {
      for (const loc of locs) {
        if (!served.mapPublished(loc)) problems.push(`<loc>${loc}</loc> is not under the base URL ${served.publishedBase}`);
        else problems.push(...checkUrl(loc, served.url, { resource: false, absoluteOk: true, what: '<loc>', fromRel: 'sitemap.xml' }));
      }
      const pages = files.filter((f) => f.endsWith('.html') && f !== '404.html');
      const listed = new Set(locs.map((l) => served.mapPublished(l)).filter(Boolean).map((u) => new URL(u).pathname.slice(served.basePath.length)));
      for (const p of pages) {
        // A page that asks not to be indexed (a leaderboard's rows for a
        // latency limit, read by its script) belongs in no sitemap.
        if (/<meta name="robots" content="noindex">/.test(await fs.readFile(path.join(root, p), 'utf8'))) continue;
        if (!listed.has(urlPathOf(p))) problems.push(`page ${urlPathOf(p) || '(root)'} is not in the sitemap`);
      }
      report.check('links sitemap.xml', problems, `${locs.length} URLs`);
    }
  }
  if (fileSet.has('robots.txt')) {
    const txt = await fs.readFile(path.join(root, 'robots.txt'), 'utf8');
    const problems = [];
    for (const m of txt.matchAll(/^\s*sitemap:\s*(\S+)/gim)) {
      if (!served.publishedBase) problems.push(`Sitemap: ${m[1]} in a site built without a base URL`);
      else if (!served.mapPublished(m[1])) problems.push(`Sitemap: ${m[1]} is not under the base URL ${served.publishedBase}`);
      else problems.push(...checkUrl(m[1], served.url, { resource: false, absoluteOk: true, what: 'Sitemap:', fromRel: 'robots.txt' }));
    }
    report.check('links robots.txt', problems);
  }

  const orphans = files.filter((f) => f.endsWith('.html') && f !== 'index.html' && f !== '404.html' && !referenced.has(f));
  for (const o of orphans) report.warn('links', `${o} is not linked from any page`);
  report.note(`${docs.length} documents, ${refCount} URLs checked; ${externalLinks.size} distinct links to other sites (allowed, not fetched)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  await runAlone({
    name: 'links',
    title: 'Links',
    usage: 'node links.mjs SITE_DIR [--base-path /energyboard/] [--base-url URL]',
    check: checkLinks,
    needsBrowser: false,
  });
}
