// Prints what the renderer's main thread did between navigation and the first paint, per page,
// from a Chromium trace (devtools.timeline categories) of cold loads of the built site:
//   - busy: top-level tasks before the paint, summed (includes the browser's own commit work, the
//     same for an empty page);
//   - work by kind: script (module evaluation, callbacks), style, layout, HTML parsing, paint —
//     the page's own share, and less noisy than wall time on a shared machine;
//   - the event names with the most self time (--top K).
// The trace's first paint is the frame's presentation time: on a loaded machine it can come tens
// of ms after the main thread finished the frame (raster and display run on other threads).
// Figures only, no assertions. Not here: wall-clock first paint and ready (pages.mjs).
//
//   node scripts/bench/paint-trace.mjs [--dist DIR] [--runs N] [--page NAME]… [--top K]
//
// Serves the build and launches Chromium exactly as the browser tests do
// (tests/browser/helpers.mjs); each load uses a new browser context.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { DIST, REPO_ROOT, launchChromium, startSite } from '../../tests/browser/helpers.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const DIST_DIR = resolve(arg('--dist', DIST));
const RUNS = Number(arg('--runs', 3));
const TOP = Number(arg('--top', 8));
const ONLY = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--page' ? [a] : []));
const FIRST_EXERCISE = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'index.json'), 'utf8'))[0].id;
const VIEWPORT = { width: 1100, height: 800 }; // as pages.mjs

const PAGES = {
  index: 'index.html',
  exercise: 'exercise.html?ex=',
  grid: 'grid.html',
  dilution: 'dilution.html',
  lab: 'lab.html',
  practice: 'practice.html',
  train: 'train.html',
  doctor: 'doctor.html?example=pad-to-max-all-ones',
  authors: 'authors.html',
};

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', 'toplevel', 'v8', 'blink'];
const TOP_LEVEL = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);

// The page's renderer main thread, its navigation start and first paint; busy time before the
// paint and self time per event name.
function analyse(events) {
  const paint = events.find((e) => e.name === 'firstPaint');
  if (!paint) return null;
  const { pid } = paint;
  const mainTid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')?.tid;
  const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.navigationId === paint.args?.data?.navigationId)?.ts ?? 0;
  const main = events.filter((e) => e.pid === pid && e.tid === mainTid && e.ph === 'X' && e.ts >= nav && e.ts < paint.ts).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  let busy = 0;
  const self = new Map();
  const stack = [];
  for (const e of main) {
    const end = e.ts + (e.dur ?? 0);
    while (stack.length && stack.at(-1).end <= e.ts) stack.pop();
    if (!stack.length && TOP_LEVEL.has(e.name)) busy += Math.min(end, paint.ts) - e.ts;
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - Math.min(e.dur ?? 0, parent.end - e.ts));
    self.set(e.name, (self.get(e.name) ?? 0) + (e.dur ?? 0));
    stack.push({ name: e.name, end });
  }
  // Page-attributable work, by kind (outermost event of each kind, so nesting is not counted twice).
  const kinds = { script: /^(v8\.evaluateModule|EvaluateScript|FunctionCall|TimerFire|FireAnimationFrame|v8\.compileModule|v8\.compile|RunMicrotasks)$/, style: /^(UpdateLayoutTree|Document::recalcStyle|StyleElement::processStyleSheet)$/, layout: /^(Layout|LocalFrameView::performLayout)$/, parse: /^ParseHTML$/, paint: /^(Paint|PrePaint)$/ };
  const work = {};
  for (const [kind, re] of Object.entries(kinds)) {
    let until = -1;
    work[kind] = 0;
    for (const e of main) {
      if (!re.test(e.name) || e.ts < until) continue;
      until = e.ts + (e.dur ?? 0);
      work[kind] += Math.min(until, paint.ts) - e.ts;
    }
    work[kind] /= 1000;
  }
  const urls = main.filter((e) => e.name === 'EvaluateScript' || e.name === 'v8.evaluateModule').map((e) => `${((e.dur ?? 0) / 1000).toFixed(1)} ${(e.args?.data?.url ?? '').split('/').pop()}`);
  return { paintMs: (paint.ts - nav) / 1000, busyMs: busy / 1000, self, urls, work };
}

const site = await startSite({ root: DIST_DIR });
const browser = await launchChromium();
try {
  for (const [name, path] of Object.entries(PAGES)) {
    if (ONLY.length && !ONLY.includes(name)) continue;
    const results = [];
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      let url = site.url + path;
      if (path.endsWith('?ex=')) url += encodeURIComponent(FIRST_EXERCISE);
      await browser.startTracing(page, { categories: CATEGORIES });
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForFunction(() => performance.getEntriesByType('paint').length > 0, null, { timeout: 10_000 });
      await page.waitForTimeout(300);
      const trace = JSON.parse((await browser.stopTracing()).toString());
      await context.close();
      const result = analyse(trace.traceEvents ?? trace);
      if (result) results.push(result);
    }
    results.sort((a, b) => a.busyMs - b.busyMs);
    const mid = results[results.length >> 1];
    const med = (k) => results.map((r) => r[k]).sort((a, b) => a - b)[results.length >> 1];
    console.log(`\n${name}: main-thread busy before first paint median ${med('busyMs').toFixed(1)} ms (runs: ${results.map((r) => r.busyMs.toFixed(0)).join(' ')}); trace first paint median ${med('paintMs').toFixed(0)} ms`);
    console.log('  work before paint (median per kind, ms): ' + Object.keys(mid.work).map((k) => `${k} ${[...results.map((r) => r.work[k])].sort((a, b) => a - b)[results.length >> 1].toFixed(1)}`).join(' | ') + ` | script runs: ${results.map((r) => r.work.script.toFixed(0)).join(' ')}`);
    const top = [...mid.self].filter(([n]) => !TOP_LEVEL.has(n)).sort((a, b) => b[1] - a[1]).slice(0, TOP);
    console.log('  ' + top.map(([n, us]) => `${n} ${(us / 1000).toFixed(1)}`).join(' | '));
    if (mid.urls.length) console.log('  scripts: ' + mid.urls.join(', '));
  }
} finally {
  await browser.close();
  await site.close();
}
