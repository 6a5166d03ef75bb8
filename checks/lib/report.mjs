// Counts checks and prints them as they happen. A check is one assertion
// group about one thing (a file, a page, a page in one colour scheme); it
// passes or fails as a whole and lists every problem it found.

export class Report {
  /**
   * `out` receives each printed line (default: console.log); run.mjs gives
   * each part of a site a buffer of its own, printed when the site is done.
   */
  constructor(section = '', { quiet = false, out = null } = {}) {
    this.section = section;
    this.quiet = quiet;
    this.out = out;
    this.passed = 0;
    this.failed = 0;
    this.skipped = 0;
    this.warnings = 0;
    /** Every failure, for the summary at the end: { section, name, problems }. */
    this.failures = [];
  }

  /** A report for one part of the run that adds into this one. */
  child(section, { out = this.out } = {}) {
    const parent = this;
    const child = new Report(section, { quiet: this.quiet, out });
    for (const key of ['pass', 'fail', 'skip', 'warn']) {
      const own = child[key].bind(child);
      child[key] = (...args) => {
        own(...args);
        parent.#absorb(key, section, args);
      };
    }
    return child;
  }

  #absorb(kind, section, [name, problems]) {
    if (kind === 'pass') this.passed += 1;
    if (kind === 'fail') {
      this.failed += 1;
      this.failures.push({ section, name, problems: asList(problems) });
    }
    if (kind === 'skip') this.skipped += 1;
    if (kind === 'warn') this.warnings += 1;
  }

  pass(name, detail = '') {
    this.passed += 1;
    this.log(`  ok    ${name}${detail ? ` (${detail})` : ''}`);
  }

  /** Fails one check; `problems` is a message or a list of messages. */
  fail(name, problems) {
    const list = asList(problems);
    this.failed += 1;
    this.failures.push({ section: this.section, name, problems: list });
    this.log(`  FAIL  ${name}`);
    for (const p of list) this.log(`          - ${p}`);
  }

  /** Checks `problems` (a list): passes when it is empty. */
  check(name, problems, detail = '') {
    if (problems.length === 0) this.pass(name, detail);
    else this.fail(name, problems);
  }

  skip(name, why) {
    this.skipped += 1;
    this.log(`  skip  ${name}: ${why}`);
  }

  warn(name, message) {
    this.warnings += 1;
    this.log(`  warn  ${name}: ${message}`);
  }

  note(message) {
    this.log(`  note  ${message}`);
  }

  log(line) {
    if (this.quiet) return;
    if (this.out) this.out(line);
    else console.log(line);
  }

  /** The closing line: exactly `N passed, N failed`. */
  summaryLine() {
    return `${this.passed} passed, ${this.failed} failed`;
  }
}

function asList(problems) {
  if (problems === undefined || problems === null) return [];
  return Array.isArray(problems) ? problems : [String(problems)];
}

/** Prints a heading for one part of the run. */
export function heading(text) {
  console.log(`\n== ${text}`);
}

/** Seconds since `start` (a `performance.now()` reading), one decimal. */
export function since(start) {
  return `${((performance.now() - start) / 1000).toFixed(1)} s`;
}

/**
 * Runs `tasks` (async functions of a report) side by side, then adds what
 * each reported to `report` in the order of `tasks`, so that the output
 * reads as if they had run one after the other. A task that throws stops
 * no other; the first error is thrown once all are done.
 */
export async function sideBySide(report, tasks) {
  const recorded = tasks.map(() => []);
  const settled = await Promise.allSettled(tasks.map((task, i) => task(recorder(recorded[i]))));
  for (const calls of recorded) {
    for (const [method, args] of calls) report[method](...args);
  }
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => s.value);
}

/** A stand-in report that records the calls made to it. */
function recorder(calls) {
  const r = {};
  for (const method of ['pass', 'fail', 'check', 'skip', 'warn', 'note']) {
    r[method] = (...args) => { calls.push([method, args]); };
  }
  return r;
}
