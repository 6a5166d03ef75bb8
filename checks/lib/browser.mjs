// Headless Chromium through playwright-core. Only the system Chromium is
// used (never a downloaded browser), with the flags this machine's closed
// network needs.

import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A browser context whose every request is checked: requests to the local
 * server pass; requests under the published base URL (canonical links, a
 * 404 page made absolute) are answered from the local server, as Pages
 * would answer them; anything else is an off-site load, recorded in
 * `offsite` and refused.
 */
export async function guardedContext(browser, served, options = {}) {
  const context = await browser.newContext(options);
  const offsite = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    try {
      if (url.startsWith(`${served.origin}/`)) return await route.continue();
      const mapped = served.mapPublished(url);
      if (mapped) {
        const response = await route.fetch({ url: mapped });
        return await route.fulfill({ response });
      }
      offsite.push(url);
      return await route.abort('blockedbyclient');
    } catch {
      // The page or context closed while this request was in flight (a
      // lazy image, a favicon): nothing left to answer.
      return undefined;
    }
  });
  // Closing with requests still in flight must not throw from a route callback.
  const close = context.close.bind(context);
  context.close = async () => {
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await close();
  };
  return { context, offsite };
}

/**
 * Watches a page for script errors and console errors. The 404 status of
 * the page's own document (the 404 page at a missing URL) is expected and
 * not reported.
 */
export function watchErrors(page, documentUrl = '') {
  const errors = [];
  page.on('pageerror', (err) => errors.push(`script error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const at = msg.location() && msg.location().url;
    if (at === documentUrl && /Failed to load resource.*404/.test(msg.text())) return;
    errors.push(`console error: ${msg.text()}${at && at !== documentUrl ? ` (${at})` : ''}`);
  });
  return errors;
}
