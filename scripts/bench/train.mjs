// Prints the Train page's figures: the training module's size, training steps per second
// natively and in wasm (node) for each model size with the wasm/native ratio, and in headless
// Chromium the wall time for both runs (buggy + fixed) of the default setting, 300 steps each,
// from pressing Train to the samples on screen — the target is 10 s on a 2-core machine.
// Figures only, no assertions: the machine may be shared, so each timing is given as the median
// of a few repeats with its spread (min–max), which says how noisy it was.
//
//   node scripts/bench/train.mjs        (scripts/bench.sh runs it after bench.mjs)
//
// Needs build/native/masklab_bench, web/generated/masklab_train.* and dist/ (pages.mjs builds
// dist/ when stale; this script expects it built, e.g. by `npx vite build`).

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { DIST, REPO_ROOT, launchChromium, startSite } from '../../tests/browser/helpers.mjs';

const STEPS = 200; // timed steps per model size and side
const REPEATS = 3;
const PAGE_RUNS = 3;
const MODELS = ['tiny', 'small', 'medium'];

const bench = join(REPO_ROOT, 'build', 'native', 'masklab_bench');
const modulePath = join(REPO_ROOT, 'web', 'generated', 'masklab_train.mjs');
const wasmPath = join(REPO_ROOT, 'web', 'generated', 'masklab_train.wasm');

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const spread = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

console.log('\nmasklab train: module size (loaded only by the Train page’s workers)');
for (const path of [wasmPath, modulePath]) {
  const bytes = readFileSync(path);
  console.log(`${path.split('/').pop().padEnd(22)} ${kib(bytes.length).padStart(10)} raw ${kib(gzipSync(bytes, { level: 9 }).length).padStart(10)} gzip`);
}

console.log(`\nmasklab train: ms per training step (16 rows), median of ${REPEATS} × ${STEPS} steps [min–max]`);
const { default: createMasklabTrain } = await import(modulePath);
const core = await createMasklabTrain({ wasmBinary: readFileSync(wasmPath) });
for (const model of MODELS) {
  const native = [];
  const wasm = [];
  for (let r = 0; r < REPEATS; r += 1) {
    const line = execFileSync(bench, ['--train', model, String(STEPS)], { encoding: 'utf8' });
    native.push(Number(/([\d.]+) ms\/step/.exec(line)[1]));
    const started = JSON.parse(core.start(JSON.stringify({ bug: 'pad_eos_masked', model, steps: STEPS + 20 }), 'fixed'));
    if (started.error) throw new Error(`the wasm module refused the settings: ${started.error.message}`);
    core.benchSteps(20); // warm-up: the engine optimises the code over the first steps
    wasm.push(core.benchSteps(STEPS) / STEPS);
  }
  const n = median(native);
  const w = median(wasm);
  console.log(
    `${model.padEnd(7)} native ${n.toFixed(2).padStart(6)} ms [${spread(native)}] = ${(1000 / n).toFixed(0).padStart(4)} steps/s` +
      `   wasm (node, SIMD) ${w.toFixed(2).padStart(6)} ms [${spread(wasm)}] = ${(1000 / w).toFixed(0).padStart(4)} steps/s` +
      `   ratio wasm / native ${(w / n).toFixed(2)}`,
  );
}

// ---- Chromium: both runs of the default setting, as a learner runs them -------------------------

if (!existsSync(join(DIST, 'train.html'))) {
  console.log('\nmasklab train page: dist/train.html is missing; run `npx vite build` first');
  process.exit(0);
}
const site = await startSite();
const browser = await launchChromium();
try {
  const walls = [];
  const rates = [];
  for (let r = 0; r < PAGE_RUNS; r += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${site.url}train.html`, { waitUntil: 'load' });
    await page.waitForSelector('body[data-state="ready"]');
    const t0 = Date.now();
    await page.click('#train');
    await page.waitForSelector('body[data-train="done"], body[data-train="error"]', { timeout: 180_000 });
    walls.push((Date.now() - t0) / 1000);
    const speed = /(\d+) steps\/s/.exec(await page.textContent('#speed'));
    if (speed) rates.push(Number(speed[1]));
    await context.close();
  }
  console.log(`\nmasklab train page: both runs of the default setting (pad_eos_masked, small, 300 steps each), ${PAGE_RUNS} fresh loads`);
  console.log(`Train pressed -> samples shown  median ${median(walls).toFixed(1)} s [${spread(walls)} s]  (target <= 10 s)`);
  if (rates.length) console.log(`speed shown by the page         median ${median(rates)} steps/s per run [${Math.min(...rates)}–${Math.max(...rates)}]`);
} finally {
  await browser.close();
  await site.close();
}
