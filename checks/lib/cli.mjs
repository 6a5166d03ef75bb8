// The command line shared by the check scripts: options, the site served
// the way it was built, and the run of one check on its own.
import path from 'node:path';
import { Report, heading, since } from './report.mjs';
import { launchBrowser } from './browser.mjs';
import { makeServed } from './served.mjs';
import { startServer } from '../serve.mjs';

/** Options that take a value; every script accepts the first two. */
const COMMON_VALUED = ['--base-url', '--base-path'];

/**
 * Splits `argv` into `positional` arguments and options; `valued` names the
 * options that take a value.
 */
export function parseArgs(argv, valued = []) {
  const takes = new Set([...COMMON_VALUED, ...valued]);
  return {
    opt(name, fallback) {
      const i = argv.indexOf(name);
      return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
    },
    has(name) {
      return argv.includes(name);
    },
    positional: argv.filter((a, i) => !a.startsWith('--') && !takes.has(argv[i - 1])),
  };
}

/**
 * Serves `siteDir` on 127.0.0.1 under the sub-path it will have when
 * published: the path of --base-url when it was built with one, else
 * --base-path, else /energyboard/.
 */
export async function serveSite(siteDir, args) {
  const baseUrl = args.opt('--base-url', '');
  const basePath = args.opt('--base-path', baseUrl ? new URL(baseUrl).pathname : '/energyboard/');
  const server = await startServer({ root: siteDir, basePath });
  return { server, served: makeServed(server, baseUrl), baseUrl };
}

/**
 * Runs one check on a site from the command line: serves it, starts
 * Chromium (unless `needsBrowser` is false), calls `check({ siteDir,
 * served, browser, report, args })`, and ends with the `N passed, N failed`
 * line and a matching exit code.
 */
export async function runAlone({ name, title, usage, valued = [], check, needsBrowser = true }) {
  const args = parseArgs(process.argv.slice(2), valued);
  if (args.positional.length !== 1) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  const siteDir = args.positional[0];
  const report = new Report(name);
  const start = performance.now();
  const { server, served } = await serveSite(siteDir, args);
  const browser = needsBrowser ? await launchBrowser() : null;
  heading(`${title}: ${path.resolve(siteDir)} served at ${served.url}`);
  try {
    await check({ siteDir, served, browser, report, args });
  } catch (err) {
    report.fail(`${name} checks ran`, err.stack || err.message);
  } finally {
    if (browser) await browser.close();
    await server.close();
  }
  console.log(`  (${since(start)})`);
  console.log(report.summaryLine());
  process.exitCode = report.failed ? 1 : 0;
}
