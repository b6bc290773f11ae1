// Compares the first paint (or the time to ready) of pages or builds with interleaved cold loads:
// one load of every variant in turn, round after round, so a slow minute on a shared machine hits
// them all alike.
// The pages bench (pages.mjs) loads each page five times in a row: right for a page's figure, too
// noisy to tell whether a change moves first paint by 10–20 ms. This is for that question.
//
//   node scripts/bench/paint-ab.mjs [--runs N] [--contentful | --ready] VARIANT...
//     VARIANT  a page of this checkout's build, e.g. `doctor.html?example=pad-to-max-all-ones`,
//              or DIR=PAGE for a page of another build, e.g. `/tmp/other/dist=doctor.html`
//
//   node scripts/bench/paint-ab.mjs --runs 20 index.html /tmp/before/dist=index.html
//
// --contentful measures the first contentful paint instead: the first frame with the page's text
// (a first paint can be an empty frame drawn while the HTML is still parsing).
// --ready measures the moment the page sets body[data-state="ready"] instead (no empty-page row:
// an empty page has no ready). pages.mjs waits for each page's own marks as well; this is the
// quicker, less noisy comparison of one change.
//
// Prints, per variant, the median, 80th percentile and largest first paint over N loads (default
// 15), and the same for an empty page loaded in the same rounds: the floor every page sits on at
// that moment. Figures only, no verdict: read a difference against the spread (docs/performance.md
// says how the figures of issue 12 were read). Serves each build and launches Chromium exactly as
// the browser tests do (tests/browser/helpers.mjs); every load uses a new browser context.

import { resolve } from 'node:path';

import { DIST, launchChromium, startSite } from '../../tests/browser/helpers.mjs';

const VIEWPORT = { width: 1100, height: 800 }; // as pages.mjs and the browser tests
const EMPTY_PAGE = 'data:text/html,<!doctype html><title>empty</title><p>masklab';

function parseArgs(argv) {
  let runs = 15;
  let entry = 'first-paint';
  const variants = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--runs') {
      runs = Number(argv[++i]);
      if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs needs a whole number ≥ 1');
    } else if (argv[i] === '--contentful') {
      entry = 'first-contentful-paint';
    } else if (argv[i] === '--ready') {
      entry = 'ready';
    } else {
      // DIR=PAGE: the "=" that ends DIR comes before the page's query (which has its own "=").
      const at = argv[i].indexOf('=');
      const query = argv[i].indexOf('?');
      const hasDir = at > 0 && (query < 0 || at < query);
      variants.push({ label: argv[i], root: hasDir ? resolve(argv[i].slice(0, at)) : DIST, page: hasDir ? argv[i].slice(at + 1) : argv[i] });
    }
  }
  if (!variants.length) throw new Error('name at least one page, e.g. `index.html` (see the comment at the top)');
  return { runs, entry, variants };
}

// Notes when the page first sets body[data-state="ready"], from navigation start (runs in the
// page before its scripts).
function noteReady() {
  new MutationObserver((changes, observer) => {
    if (document.body?.dataset.state !== 'ready') return;
    window.__readyAt = performance.now();
    observer.disconnect();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
}

async function firstPaint(browser, url, entry) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    if (entry === 'ready') await page.addInitScript(noteReady);
    const response = await page.goto(url, { waitUntil: 'load' });
    // A mistyped page would be measured as the server's "not found" text.
    if (response && !response.ok()) throw new Error(`${url}: HTTP ${response.status()}`);
    if (entry === 'ready') {
      await page.waitForFunction(() => window.__readyAt !== undefined, null, { timeout: 20_000 });
      return await page.evaluate(() => window.__readyAt);
    }
    const paintOf = (name) => performance.getEntriesByType('paint').find((e) => e.name === name)?.startTime;
    await page.waitForFunction(paintOf, entry, { timeout: 10_000 });
    return await page.evaluate(paintOf, entry);
  } finally {
    await context.close();
  }
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
// Nearest-rank percentile: the smallest value with at least p% of the samples at or below it.
const percentile = (xs, p) => sorted(xs)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];

async function main() {
  const { runs, entry, variants } = parseArgs(process.argv.slice(2));
  const sites = new Map(); // build folder -> its server
  for (const { root } of variants) if (!sites.has(root)) sites.set(root, await startSite({ root }));
  const browser = await launchChromium();
  const rows = entry === 'ready' ? [] : [{ label: 'empty page (the floor)', url: EMPTY_PAGE, times: [] }];
  for (const v of variants) rows.push({ label: v.label, url: sites.get(v.root).url + v.page, times: [] });
  try {
    for (let round = 0; round < runs; round += 1) {
      for (const row of rows) {
        const t = await firstPaint(browser, row.url, entry);
        if (t !== undefined) row.times.push(t);
      }
    }
  } finally {
    await browser.close();
    for (const site of sites.values()) await site.close();
  }
  const width = Math.max(...rows.map((r) => r.label.length));
  const measure = entry === 'ready' ? 'ready (body[data-state="ready"])' : entry.replaceAll('-', ' ');
  console.log(`${measure}, ms since navigation start; ${runs} interleaved cold loads per variant`);
  console.log(`${'variant'.padEnd(width)}  median    p80    max`);
  for (const { label, times } of rows) {
    const fig = (x) => (x === undefined ? '—' : x.toFixed(0)).padStart(6);
    console.log(`${label.padEnd(width)}  ${fig(percentile(times, 50))} ${fig(percentile(times, 80))} ${fig(times.length ? Math.max(...times) : undefined)}`);
  }
}

main().catch((error) => {
  console.error(`paint-ab: ${error.message.split('\n')[0]}`);
  process.exit(2); // also stops a server already started
});
