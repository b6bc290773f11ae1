// Prints the site's page figures, measured in headless Chromium on the built site (dist/):
//   - per page: requests, bytes transferred (raw, and gzip -9 of every response body, as a
//     compressing server would send them) on the first view and after scrolling to the end,
//     first paint, first contentful paint, and time to interactive over cold loads; and how many
//     first paints were an empty frame (docs/performance.md, "Reading the figures");
//   - on the exercise page, also the time until the passage is visible (before the core is ready);
//   - on the token grid: latency from pressing Enter on a labels cell to the new loss on screen;
//   - on the loss-dilution page: latency from a slider step to the new headline numbers on
//     screen, and a 21-step drag at one step per frame (total time, longest task);
//   - the first paint of an empty page, loaded in the same rounds as the pages: the floor the
//     page figures sit on (on a loaded machine it rises with them);
//   - the targets of issue 12 next to each figure (ready ≤ 400 ms, goal 250; first paint ≤ 150
//     ms; ≤ 150 KiB gzip on the first view; dilution ready ≤ 600 ms; a slider step ≤ 1 frame).
// Figures only, no assertions: timings vary with the machine and its load (the load average is
// printed with them). Not here: the core's own size and speed (bench.mjs), pass/fail checks of
// the pages (tests/browser/).
//
//   node scripts/bench/pages.mjs                (scripts/bench.sh runs it after bench.mjs)
//   node scripts/bench/pages.mjs --dist DIR     (another build, e.g. main's, to compare)
//   node scripts/bench/pages.mjs --page doctor  (only that page's row; repeatable; no latency sections)
//
// Builds dist/ with `npx vite build` when it is missing or older than its sources, serves it
// and launches Chromium exactly as the browser tests do (tests/browser/helpers.mjs). Every cold
// load uses a new browser context (empty cache and storage; the server also sends no-store).

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

import { DIST, REPO_ROOT, launchChromium, startHostSite, startSite } from '../../tests/browser/helpers.mjs';

// Cold loads per page, taken in rounds: one load of every page (and of an empty page) per round,
// so a slow minute on a shared machine hits every page alike instead of one page's five loads.
const COLD_LOADS = 7;
const TOGGLES = 30;
const SLIDER_STEPS = 21;
const FRAME_MS = 1000 / 60;
const READY_TIMEOUT_MS = 20_000;
// After a page is interactive, the network must stay idle this long before its bytes are summed
// (lazy chunks, KaTeX fonts and the authors page's embedded exercise arrive after the marker).
const NETWORK_QUIET_MS = 500;
const VIEWPORT = { width: 1100, height: 800 }; // as launchBrowser() in helpers.mjs

// The targets of issue 12 (figures only: the bench prints them beside each measure).
const TARGET = { readyMs: 400, readyGoalMs: 250, firstPaintMs: 150, gzipKiB: 150 };

// `--dist DIR` measures another build (no rebuild); default: this checkout's dist/.
const distArg = process.argv.indexOf('--dist');
const DIST_DIR = distArg > 0 ? resolve(process.argv[distArg + 1] ?? '') : DIST;
// `--page NAME` (repeatable): only those pages, and not the toggle and slider sections.
const ONLY_PAGES = process.argv.flatMap((arg, i) => (process.argv[i - 1] === '--page' ? [arg] : []));

// What "interactive" means on each page: the first moment its marks all match, timed in the page
// from navigation start. A mark's `visible` asks for a rendered box, not only a DOM node.
// `failed` is what the page shows when it gives up (reported instead of a time).
const PAGES = [
  {
    // Home: the exercise list renders at once; the page is done when the core demo has shown
    // its collated batch and loss, both computed by the wasm core (core-demo.js sets data-state).
    name: 'index',
    path: 'index.html',
    means: 'core demo: batch + loss shown',
    marks: { ready: { selector: 'body[data-state="ready"]' } },
    failed: 'body[data-state="error"]',
  },
  {
    // Exercise (?ex= the first exercise of the list; without it the page is the list). Here
    // body[data-state="ready"] marks the passage
    // (the exercise JSON is rendered; the wasm core loads in parallel), so it is the "passage"
    // time. Interactive = the core has answered: "See it break" lists the claims it evaluated on
    // the core's inspect answers (the panel sits in a section hidden until Check, so the claim
    // list only has to exist).
    name: 'exercise',
    path: ({ firstExercise }) => `exercise.html?ex=${encodeURIComponent(firstExercise)}`,
    means: '"See it break" claims computed',
    marks: {
      passage: { selector: 'body[data-state="ready"] #passage-box [role="option"]', visible: true },
      ready: { selector: '#break-panel .claim-list' },
    },
    failed: 'body[data-state="error"], #break-panel .error-box',
  },
  {
    // Token grid: data-state is set after the first core.inspect answer is drawn (grid/main.js).
    name: 'grid',
    path: 'grid.html',
    means: 'grid + summary drawn from inspect',
    marks: { ready: { selector: 'body[data-state="ready"] [data-figure="loss"] dd[data-value]' } },
    failed: '#status.error-box',
  },
  {
    // Loss dilution: data-state is set once the core has answered for the k on the slider and
    // the headline figures are drawn (dilution/main.js); the plot, which needs every k, follows.
    // (Before issue 12 the page answered every k first, so the figure then included the sweep.)
    name: 'dilution',
    path: 'dilution.html',
    means: 'headline figures from core (plot next)',
    marks: { ready: { selector: 'body[data-state="ready"] #headline [data-figure] dd' } },
    failed: '#status.error-box',
    readyMs: 600,
  },
  {
    // Normalization lab: the function panel works at once; data-state is set when the core has
    // loaded and both loss panels are drawn from its answers (lab/main.js).
    name: 'lab',
    path: 'lab.html',
    means: 'both loss panels from core',
    marks: { ready: { selector: 'body[data-state="ready"]' } },
    failed: '#status.error-box',
  },
  {
    // Interview practice uses no core: data-state is set when the setup screen is shown.
    name: 'practice',
    path: 'practice.html',
    means: 'setup screen shown (no core)',
    marks: { ready: { selector: 'body[data-state="ready"]' } },
    failed: 'body[data-state="error"]',
  },
  {
    // Train it: the page is interactive at once (its core runs in Web Workers, started by Train).
    name: 'train',
    path: 'train.html',
    means: 'settings shown (workers start on Train)',
    marks: { ready: { selector: 'body[data-state="ready"]' } },
    failed: null,
  },
  {
    // Batch doctor with an example: data-state is set once the example's diagnosis, its grid
    // window and figures are drawn from two core.doctor answers (doctor/main.js).
    name: 'doctor',
    path: 'doctor.html?example=pad-to-max-all-ones',
    means: 'example diagnosed, grid drawn',
    marks: { ready: { selector: 'body[data-state="ready"] #findings > li' } },
    failed: '#status.error-box',
  },
  {
    // Course authors: data-state is set when the embed builder is filled in; the page uses no
    // core. Its live example iframe (an exercise page) loads on its own and is not waited for,
    // but its requests count in the bytes.
    name: 'authors',
    path: 'authors.html',
    means: 'embed builder filled (no core)',
    marks: { ready: { selector: 'body[data-state="ready"]' } },
    failed: null,
  },
];

// ---- build ---------------------------------------------------------------------------------

// Newest modification time of the files under a path (folders walked, skipping node_modules).
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function ensureBuilt() {
  if (DIST_DIR !== DIST) return `given with --dist: ${DIST_DIR}`;
  const built = join(DIST, 'index.html');
  const sources = Math.max(...['web', 'vite.config.js', 'package-lock.json'].map((p) => newestMtime(join(REPO_ROOT, p))));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return 'up to date';
  try {
    execFileSync('npx', ['vite', 'build'], { cwd: REPO_ROOT, stdio: 'pipe', encoding: 'utf8' });
  } catch (error) {
    process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw new Error('`npx vite build` failed (output above)');
  }
  return 'rebuilt';
}

// ---- in-page timing --------------------------------------------------------------------------

// Runs in the page before any of its scripts (an init script): records performance.now() — ms
// since navigation start — the first time each mark's selector matches, checked after every DOM
// mutation, so no polling delay is added. Results in window.__pageBench.
function recordMarks({ marks, failed }) {
  const bench = { marks: {}, failed: null, done: false };
  window.__pageBench = bench;
  const names = Object.keys(marks);
  const matches = (mark) => {
    const el = document.querySelector(mark.selector);
    if (!el) return false;
    return !mark.visible || (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0);
  };
  const check = () => {
    const now = performance.now();
    for (const name of names) if (!(name in bench.marks) && matches(marks[name])) bench.marks[name] = now;
    if (bench.failed === null && failed && document.querySelector(failed)) bench.failed = now;
    if (names.every((n) => n in bench.marks) || bench.failed !== null) {
      bench.done = true;
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}

async function newContext(browser, spec) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(recordMarks, { marks: spec.marks, failed: spec.failed });
  return context;
}

// One cold load: a fresh context, navigate, wait until the page is interactive (or gives up).
// Returns { marks: { name: ms }, failed: ms | null }.
async function coldLoad(browser, url, spec) {
  const context = await newContext(browser, spec);
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__pageBench?.done, null, { timeout: READY_TIMEOUT_MS, polling: 50 });
    return await page.evaluate(() => {
      // First paint and first contentful paint, ms since navigation start (Paint Timing API).
      const paint = Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
      const marks = { ...window.__pageBench.marks };
      if (paint['first-paint'] !== undefined) marks.firstPaint = paint['first-paint'];
      if (paint['first-contentful-paint'] !== undefined) marks.firstContentfulPaint = paint['first-contentful-paint'];
      return { marks, failed: window.__pageBench.failed };
    });
  } catch (error) {
    return { marks: {}, failed: null, error: error.message.split('\n')[0] };
  } finally {
    await context.close();
  }
}

// One more cold load, untimed, for the bytes: on the first view, then after scrolling to the end
// of the page (what loads only when it comes into view). Returns { first, scrolled } (each
// { requests, raw, gzip, httpErrors }) or { error }.
async function transfer(browser, url, spec) {
  const context = await newContext(browser, spec);
  try {
    return await summedResponses(context, url);
  } catch (error) {
    return { error: error.message.split('\n')[0] };
  } finally {
    await context.close();
  }
}

// Sums every response (all frames) of one navigation once the page is interactive and the
// network has been idle for NETWORK_QUIET_MS; then scrolls to the end, a screen at a time, and
// sums again. Returns { first, scrolled }, each { requests, raw, gzip, httpErrors }.
async function summedResponses(context, url) {
  const page = await context.newPage();
  let inFlight = 0;
  let lastActivity = Date.now();
  const sizes = [];
  const httpErrors = [];
  const wasm = new Set(); // the WebAssembly modules the page fetched (hashed names, hash dropped)
  context.on('request', () => {
    inFlight += 1;
    lastActivity = Date.now();
  });
  const settle = () => {
    inFlight -= 1;
    lastActivity = Date.now();
  };
  context.on('requestfinished', settle);
  context.on('requestfailed', settle);
  context.on('response', (response) => {
    if (response.status() >= 400) httpErrors.push(`HTTP ${response.status()} ${new URL(response.url()).pathname}`);
    const path = new URL(response.url()).pathname;
    if (path.endsWith('.wasm')) wasm.add(path.split('/').pop().replace(/-[\w-]{8}\.wasm$/, '.wasm'));
    // Redirects have no body; they still count as a request.
    sizes.push(response.body().then((body) => body, () => Buffer.alloc(0)));
  });
  const quiet = async () => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (inFlight > 0 || Date.now() - lastActivity < NETWORK_QUIET_MS)) {
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const sum = async () => {
    const bodies = await Promise.all(sizes);
    let raw = 0;
    let gzip = 0;
    for (const body of bodies) {
      raw += body.length;
      gzip += gzipSync(body, { level: 9 }).length;
    }
    return { requests: bodies.length, raw, gzip, httpErrors: [...httpErrors], wasm: [...wasm].sort() };
  };
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__pageBench?.done, null, { timeout: READY_TIMEOUT_MS, polling: 50 }).catch(() => {});
  await quiet();
  const first = await sum();
  for (let i = 0; i < 60; i += 1) {
    const atEnd = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight * 0.9);
      return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    });
    await new Promise((r) => setTimeout(r, 100));
    if (atEnd) break;
  }
  await quiet();
  return { first, scrolled: await sum() };
}

// ---- grid toggle latency -------------------------------------------------------------------

// Installed in a page (as window.__probe): when one of `keys` goes down (capture phase, before
// the page's own handler) note the key event's time and the text of `watch` (a selector inside
// `root`); when a mutation under `root` changes that text, note the time, then wait for the next
// animation frame plus one task (a MessageChannel message runs after that frame's style, layout
// and paint), so the second figure includes rendering the new frame. Long tasks are kept too.
// Used for the grid's toggles (Enter, the loss) and the dilution slider (arrows, the headline).
function installKeyProbe({ keys, root, watch }) {
  const box = document.querySelector(root);
  const text = () => box.querySelector(watch)?.textContent ?? '';
  const probe = { pending: null, results: [], longTasks: [] };
  window.__probe = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push(entry.duration);
  }).observe({ type: 'longtask' });
  document.addEventListener(
    'keydown',
    (event) => {
      if (keys.includes(event.key)) probe.pending = { start: event.timeStamp, before: text() };
    },
    true,
  );
  new MutationObserver(() => {
    const pending = probe.pending;
    if (!pending || text() === pending.before) return;
    const changed = performance.now();
    probe.pending = null;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => probe.results.push({ text: changed - pending.start, frame: performance.now() - pending.start });
      channel.port2.postMessage(null);
    });
  }).observe(box, { subtree: true, childList: true, characterData: true });
}

// Row 1's labels cell at position 1: its label is a trained real token (labels[1] is scored by
// logit 0), so each Enter flips it between its id and −100 and the loss changes every time.
// (Position 0's label is never scored after the shift, so toggling it would not move the loss.)
const TOGGLE_CELL = '.token-grid td[data-field="labels"][data-b="0"][data-t="1"][data-toggle="1"]';

async function gridToggles(browser, url) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(5_000);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-state="ready"]', { timeout: READY_TIMEOUT_MS });
    await page.evaluate(installKeyProbe, { keys: ['Enter'], root: '#summary', watch: '[data-figure="loss"] dd[data-value]' });
    for (let i = 0; i < TOGGLES; i += 1) {
      // The grid is redrawn on every toggle and keeps focus on the same cell; focusing it again
      // (outside the timed span) only makes sure the key goes there.
      await page.focus(TOGGLE_CELL);
      await page.keyboard.press('Enter');
      await page.waitForFunction((n) => window.__probe.results.length >= n, i + 1, { polling: 'raf' });
    }
    return { results: await page.evaluate(() => window.__probe.results) };
  } catch (error) {
    return { results: [], error: error.message.split('\n')[0] };
  } finally {
    await context.close();
  }
}

// ---- loss-dilution slider -----------------------------------------------------------------

// A drag: `steps` input events on the slider, one per animation frame (as a pointer drag
// delivers them), from k = `from` up. Resolves when the headline shows the last step and a frame
// has been rendered after it: { totalMs, idealMs, longest long task }.
function dragSlider({ from, steps }) {
  const slider = document.getElementById('pads');
  const headline = document.getElementById('headline');
  const probe = window.__probe;
  probe.longTasks.length = 0;
  return new Promise((resolvePromise) => {
    let i = 0;
    const start = performance.now();
    const frame = () => {
      i += 1;
      slider.value = String(from + i);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      if (i < steps) requestAnimationFrame(frame);
      else {
        const last = headline.textContent;
        const settle = () => {
          // The last step is on screen when the headline stopped changing for a frame.
          requestAnimationFrame(() => {
            if (headline.textContent !== last) return settle();
            setTimeout(() => resolvePromise({ totalMs: performance.now() - start, idealMs: steps * (1000 / 60), longestTask: Math.max(0, ...probe.longTasks) }), 0);
          });
        };
        settle();
      }
    };
    slider.value = String(from);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    requestAnimationFrame(frame);
  });
}

async function sliderSteps(browser, url) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-state="ready"] #headline [data-figure] dd', { timeout: READY_TIMEOUT_MS });
    await page.evaluate(installKeyProbe, { keys: ['ArrowRight', 'ArrowLeft', 'Home', 'End'], root: '#headline', watch: '[data-figure] dd' });
    await page.focus('#pads');
    await page.keyboard.press('Home'); // k = 0 (a change: the default is 8)
    await page.waitForFunction(() => window.__probe.results.length >= 1, null, { polling: 'raf' });
    for (let i = 1; i <= SLIDER_STEPS; i += 1) {
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction((n) => window.__probe.results.length >= n, i + 1, { polling: 'raf' });
    }
    const results = (await page.evaluate(() => window.__probe.results)).slice(1);
    const longTasks = await page.evaluate(() => Math.max(0, ...window.__probe.longTasks));
    // Let deferred work settle before the drag (a learner pauses too).
    await page.waitForTimeout(500);
    const drag = await page.evaluate(dragSlider, { from: 0, steps: SLIDER_STEPS });
    return { results, longTasks, drag };
  } catch (error) {
    return { results: [], error: error.message.split('\n')[0] };
  } finally {
    await context.close();
  }
}

// The first paint of an empty page in the same harness (fresh context, same flags): the floor
// under every page's figure on this machine at this moment, to read the others against.
// `url` (default: a data: URL, no network at all) may be an empty page served over HTTP by the same
// kind of local server as the site, which adds the one round trip every page pays for its HTML.
async function emptyPageFirstPaint(browser, url = 'data:text/html,<!doctype html><title>empty</title><p>masklab', loads = COLD_LOADS) {
  const times = [];
  for (let i = 0; i < loads; i += 1) {
    const context = await browser.newContext({ viewport: VIEWPORT });
    try {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForFunction(() => performance.getEntriesByType('paint').length > 0, null, { timeout: 5000 });
      times.push(await page.evaluate(() => performance.getEntriesByType('paint').find((e) => e.name === 'first-paint').startTime));
    } catch {
      /* no figure from this load */
    } finally {
      await context.close();
    }
  }
  return times;
}

// ---- report ----------------------------------------------------------------------------------

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => {
  const s = sorted(xs);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
// Nearest-rank percentile: the smallest value with at least p% of the samples at or below it.
const percentile = (xs, p) => sorted(xs)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];
const kib = (bytes) => (bytes / 1024).toFixed(1);
const ms = (x, digits = 0) => (x === undefined ? '—' : `${x.toFixed(digits)} ms`);

// Median and min of one mark over the cold loads, and how many loads failed to reach it.
function markStats(loads, name) {
  const times = loads.map((l) => l.marks[name]).filter((t) => t !== undefined);
  const missed = loads.length - times.length;
  const why = loads.find((l) => l.error || l.failed !== null);
  const note = missed ? `${missed} of ${loads.length} loads never ready: ${why?.error ?? 'the page showed an error'}` : '';
  return { median: times.length ? median(times) : undefined, min: times.length ? Math.min(...times) : undefined, note };
}

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  // First and last column left-aligned (names, words), figures right-aligned.
  for (const row of rows) {
    console.log(
      row
        .map((cell, c) => (c === 0 || c === row.length - 1 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
        .join('  ')
        .trimEnd(),
    );
  }
}

// Closed in `finally`, and on Ctrl-C / kill too, so no browser or server outlives the bench.
let site;
let browser;
async function cleanUp() {
  await browser?.close().catch(() => {});
  await site?.close();
  browser = undefined;
  site = undefined;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`bench pages: ${signal}, closing the browser and the server`);
    cleanUp().finally(() => process.exit(130));
  });
}

// Key press -> text changed -> next frame: median, p95 and how many within one frame.
function latencyTable(results, changed) {
  const row = (label, xs) => [label, ms(median(xs), 1), ms(percentile(xs, 95), 1), `${xs.filter((x) => x <= FRAME_MS).length} of ${xs.length}`];
  table([
    ['from the key press to', 'median', 'p95', 'in one 16.7 ms frame'],
    row(changed, results.map((r) => r.text)),
    row('next frame rendered', results.map((r) => r.frame)),
  ]);
}

const verdict = (value, limit) => (value === undefined ? '' : value <= limit ? 'ok' : 'OVER');

async function main() {
  const started = Date.now();
  const buildState = ensureBuilt();
  const load = loadavg().map((x) => x.toFixed(2)).join(', ');
  let firstExercise = '(unknown: no web/generated/content/index.json)';
  try {
    firstExercise = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'index.json'), 'utf8'))[0]?.id ?? firstExercise;
  } catch {}

  try {
    site = await startSite({ root: DIST_DIR });
    browser = await launchChromium();

    const rows = [['page', 'requests', 'gzip KiB', 'scrolled', 'first paint', 'contentful', 'ready median', 'ready min', 'targets', 'interactive means']];
    const notes = [];
    const specs = PAGES.filter((p) => ONLY_PAGES.length === 0 || ONLY_PAGES.includes(p.name));
    const urls = specs.map((spec) => site.url + (typeof spec.path === 'function' ? spec.path({ firstExercise }) : spec.path));
    // Warm-up loads, not counted: the first load after launch also pays for starting a renderer
    // process type and the server's first file reads. They double as the bytes measurement.
    const transfers = [];
    for (const [i, spec] of specs.entries()) transfers.push(await transfer(browser, urls[i], spec));
    const loadsOf = specs.map(() => []);
    const floor = [];
    for (let round = 0; round < COLD_LOADS; round += 1) {
      for (const [i, spec] of specs.entries()) {
        if (loadsOf[i].at(-1)?.error) continue; // a page that timed out once would only time out again
        loadsOf[i].push(await coldLoad(browser, urls[i], spec));
      }
      floor.push(...(await emptyPageFirstPaint(browser, undefined, 1)));
    }
    for (const [i, spec] of specs.entries()) {
      const bytes = transfers[i];
      const loads = loadsOf[i];
      const ready = markStats(loads, 'ready');
      const paint = markStats(loads, 'firstPaint');
      const contentful = markStats(loads, 'firstContentfulPaint');
      // A first paint before the first contentful one drew only the page's background (a frame
      // taken while the HTML was still parsing): it makes the median look faster than the page.
      const empty = loads.filter((l) => l.marks.firstPaint !== undefined && l.marks.firstContentfulPaint > l.marks.firstPaint).length;
      if (empty) notes.push(`${spec.name}: ${empty} of ${loads.length} first paints were an empty frame (before the first contentful paint)`);
      const readyLimit = spec.readyMs ?? TARGET.readyMs;
      const gzipKiB = bytes.error ? undefined : bytes.first.gzip / 1024;
      const targets = [
        `ready ${verdict(ready.median, readyLimit)}${spec.readyMs ? ` (≤ ${readyLimit})` : ''}`,
        `paint ${verdict(paint.median, TARGET.firstPaintMs)}`,
        `size ${verdict(gzipKiB, TARGET.gzipKiB)}`,
      ].join(', ');
      if (bytes.error) {
        rows.push([spec.name, '—', '—', '—', ms(paint.median), ms(contentful.median), ms(ready.median), ms(ready.min), targets, spec.means]);
        notes.push(`${spec.name}: no byte figures: ${bytes.error}`);
      } else {
        rows.push([spec.name, String(bytes.first.requests), kib(bytes.first.gzip), kib(bytes.scrolled.gzip), ms(paint.median), ms(contentful.median), ms(ready.median), ms(ready.min), targets, spec.means]);
        if (bytes.scrolled.httpErrors.length) notes.push(`${spec.name}: ${bytes.scrolled.httpErrors.join(', ')}`);
        notes.push(`${spec.name}: wasm on the first view: ${bytes.first.wasm.join(', ') || 'none'}`);
      }
      if (ready.note) notes.push(`${spec.name}: ${ready.note}`);
      if (spec.marks.passage) {
        const passage = markStats(loads, 'passage');
        rows.push(['  passage', '', '', '', '', '', ms(passage.median), ms(passage.min), '', 'passage visible (core still loading)']);
        if (passage.note) notes.push(`exercise passage: ${passage.note}`);
        const early = loads.filter((l) => l.marks.passage !== undefined && l.marks.ready !== undefined && l.marks.passage < l.marks.ready).length;
        notes.push(`exercise: passage visible before the core was ready in ${early} of ${loads.length} loads`);
      }
    }

    console.log(`\nmasklab pages: ${buildState === 'given with --dist: ' + DIST_DIR ? DIST_DIR : `dist/ (${buildState})`} in headless Chromium, ${COLD_LOADS} cold loads per page (new context each),`);
    console.log(`taken in ${COLD_LOADS} rounds of one load of every page and of an empty page; figures are medians`);
    console.log(`load average at the start (1, 5, 15 min): ${load} — figures taken while other work runs are noisy`);
    console.log(`bytes: every response of one extra load, all frames; gzip = sum of each body at gzip -9, on the first view`);
    console.log(`and after scrolling to the end ("scrolled"). exercise = ${firstExercise}`);
    console.log(`targets: ready ≤ ${TARGET.readyMs} ms (goal ${TARGET.readyGoalMs}), first paint ≤ ${TARGET.firstPaintMs} ms, first view ≤ ${TARGET.gzipKiB} KiB gzip`);
    table(rows);
    for (const note of notes) console.log(note);
    if (floor.length) console.log(`first paint of an empty page in the same rounds (the floor every page sits on): median ${ms(median(floor))}, min ${ms(Math.min(...floor))}`);
    const host = await startHostSite({ '/empty.html': '<!doctype html><html lang="en"><meta charset="utf-8"><title>empty</title><p>masklab' });
    try {
      const served = await emptyPageFirstPaint(browser, host.url('/empty.html'));
      if (served.length) console.log(`the same empty page served from a local HTTP server (the floor for a page's HTML): median ${ms(median(served))}, min ${ms(Math.min(...served))}`);
    } finally {
      await host.close();
    }

    if (ONLY_PAGES.length) return;
    const toggles = await gridToggles(browser, `${site.url}grid.html`);
    console.log(`\nmasklab pages: grid toggle latency, Enter on a labels cell (row 1, position 1), ${TOGGLES} presses alternating it`);
    if (toggles.results.length === 0) {
      console.log(`no figures: ${toggles.error ?? 'the loss never changed'}`);
    } else {
      latencyTable(toggles.results, 'loss text changed');
      if (toggles.error) console.log(`stopped early: ${toggles.error}`);
    }

    const slider = await sliderSteps(browser, `${site.url}dilution.html`);
    console.log(`\nmasklab pages: loss-dilution slider, ${SLIDER_STEPS} steps by ArrowRight (k = 1…${SLIDER_STEPS}); target: the headline in one frame`);
    if (slider.results.length === 0) {
      console.log(`no figures: ${slider.error ?? 'the headline never changed'}`);
    } else {
      latencyTable(slider.results, 'headline text changed');
      console.log(`longest task during the steps: ${ms(slider.longTasks)} (0 = none over 50 ms)`);
      const d = slider.drag;
      console.log(`a ${SLIDER_STEPS}-step drag, one input event per frame: ${ms(d.totalMs)} to the last step on screen (${ms(d.idealMs)} at one frame per step); longest task ${ms(d.longestTask)}`);
      if (slider.error) console.log(`stopped early: ${slider.error}`);
    }
  } finally {
    await cleanUp();
  }
  console.log(`\n(pages benchmark took ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

main().catch((error) => {
  console.error(`bench pages: ${error.message}`);
  process.exitCode = 1;
});
