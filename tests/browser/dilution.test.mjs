// The worked loss-dilution page (dilution.html) in headless Chromium: the figures are the core's
// answers for the same batch, they obey the dilution identities worked out by hand, the slider
// (driven by the keyboard) changes the values, the plot and the live region, the URL keeps k,
// and axe finds nothing.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { withAxeScanner } from './axe-scan.mjs';
import { useSiteAndBrowser } from './helpers.mjs';
import { loadWasmCore } from '../node/helpers.mjs';
import { baseRequest, dilutionRequest } from '../../web/dilution/dilution-batch.js';

let page;
let problems;
let core;
let longest;

const suite = useSiteAndBrowser({
  async setUp() {
    ({ page, problems } = await suite.openSettled('dilution.html?pads=8'));
    core = await loadWasmCore();
    longest = core.inspect(baseRequest()).batch.shape[1];
  },
});

async function figure(key) {
  return Number(await page.getAttribute(`[data-figure="${key}"] dd[data-value]`, 'data-value'));
}

// The batch is "The cat sat on the mat." and "A dog ran home." with <bos>/<eos>: 9 and 7 tokens,
// so max_length = 9 + k gives row 1 k pads and row 2 k + 2. By hand, for k extra pads:
// - real targets: each row scores its labels 1..n-1 -> 8 + 6 = 14;
// - pad targets (labels = input_ids): every pad label is scored by the logit before it, so
//   (k) + (k + 2) = 2k + 2; the reported loss is (S_real + S_pad) / (14 + 2k + 2);
// - the factor on each real token's weight is 14 / (16 + 2k).
function handCounts(k) {
  return { real: 14, pad: 2 * k + 2, factor: 14 / (16 + 2 * k) };
}

test('the page shows the core’s numbers for k = 8, and they obey the hand-worked identities', async () => {
  assert.equal(longest, 9, 'the longest example has 9 tokens with <bos> and <eos>');
  const buggy = core.inspect(dilutionRequest('buggy', longest, 8)).summary;
  const fixed = core.inspect(dilutionRequest('fixed', longest, 8)).summary;
  assert.equal(await figure('buggy'), buggy.loss);
  assert.equal(await figure('fixed'), fixed.loss);
  assert.equal(await figure('share'), buggy.pad_share);
  assert.equal(await figure('factor'), buggy.dilution_factor);

  const hand = handCounts(8);
  assert.equal(buggy.real_targets, hand.real);
  assert.equal(buggy.pad_targets, hand.pad);
  assert.ok(Math.abs(buggy.dilution_factor - hand.factor) < 1e-15);
  // The reported loss is the count-weighted mix of the two groups (float64, 1e-12).
  assert.ok(Math.abs(buggy.loss - (buggy.sum_real + buggy.sum_pad) / (hand.real + hand.pad)) < 1e-12);
  assert.ok(Math.abs(fixed.loss - fixed.sum_real / hand.real) < 1e-12);
  // Pad share by hand: (8 + 10) pads of 2 x 17 positions.
  assert.ok(Math.abs(buggy.pad_share - 18 / 34) < 1e-15);
  assert.ok(buggy.loss < fixed.loss, 'scoring easy pad targets lowers the reported loss');
});

test('the derivation is typeset with KaTeX and carries the same numbers', async () => {
  // KaTeX is the page's largest library: the derivation is drawn when it comes into view.
  assert.equal(await page.locator('.derivation').count(), 0, 'not on the first screen');
  await page.locator('#derivation').scrollIntoViewIfNeeded();
  await page.waitForSelector('.derivation .katex');
  assert.equal(await page.locator('.derivation > li').count(), 5);
  assert.ok((await page.locator('.derivation .katex').count()) >= 5);
  const step3 = await page.textContent('.derivation [data-step="3"]');
  assert.match(step3, /14\s*\+\s*18/, 'N_real + N_pad = 14 + 18 in step 3');
  const shown = (await page.textContent('[data-figure="buggy"] dd[data-value]')).trim();
  assert.ok(step3.includes(shown), `step 3 ends with the reported loss ${shown}`);
});

test('keyboard: moving the slider changes the values, the plot and the live region', async () => {
  const canvasBefore = await page.evaluate(() => document.querySelector('.plot-box canvas').toDataURL());
  await page.focus('#pads');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('pads') === '9');

  const buggy = core.inspect(dilutionRequest('buggy', longest, 9)).summary;
  assert.equal(await figure('buggy'), buggy.loss);
  assert.equal(buggy.pad_targets, handCounts(9).pad);
  assert.match(await page.textContent('#pads-value'), /k = 9 → max_length 18/);
  assert.equal(await page.getAttribute('#pads', 'aria-valuetext'), 'k = 9 → max_length 18');
  assert.equal(await page.textContent('.plot-table tr[aria-current="true"] th'), '9');
  const canvasAfter = await page.evaluate(() => document.querySelector('.plot-box canvas').toDataURL());
  assert.notEqual(canvasAfter, canvasBefore, 'the ringed point moved');
  const live = await page.textContent('[role="status"][aria-live]:not(#status)');
  assert.match(live, /^k = 9: pad share/);
  assert.ok(live.includes(buggy.loss.toFixed(4)));

  await page.keyboard.press('Home');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('pads') === '0');
  const zero = core.inspect(dilutionRequest('buggy', longest, 0)).summary;
  assert.equal(await figure('buggy'), zero.loss);
  assert.equal(zero.pad_targets, handCounts(0).pad, 'k = 0 still pads the shorter row by 2');
});

test('the two batches are shown side by side (compare.js) with the differences called out', async () => {
  await page.locator('#batch-grid').scrollIntoViewIfNeeded();
  await page.waitForSelector('.comparison .compare-table');
  const rows = page.locator('.comparison .compare-table tbody tr');
  assert.equal(await rows.count(), 6);
  // k = 0 now: 2 pad targets in the buggy batch, none in the fixed one.
  assert.equal(await page.getAttribute('.comparison tr[data-figure="targets"]', 'data-differs'), '1');
  assert.match(await page.textContent('.comparison tr[data-figure="targets"] td[data-side="buggy"]'), /^16/);
  assert.match(await page.textContent('.comparison tr[data-figure="targets"] td[data-side="fixed"]'), /^14/);
  assert.equal(await page.getAttribute('.comparison tr[data-figure="pad_share"]', 'data-differs'), '0');
  assert.equal(await page.locator('.comparison .token-grid').count(), 2);
  // Row 2's two pads carry different labels in the two grids (pad id 0 vs −100): marked ≠.
  assert.equal(await page.locator('.comparison .token-grid').first().locator('td.differs').count(), 2);
});

test('the plot has 33 points per line, listed in a table as its text alternative', async () => {
  assert.equal(await page.locator('.plot-table tbody tr').count(), 33);
  assert.equal(await page.locator('.plot-box canvas').count(), 1);
  assert.match(await page.getAttribute('.plot-box', 'aria-label'), /Dashed line: labels = input_ids/);
});

test('k survives a reload, and a bad k is explained', async () => {
  await page.goto(suite.url('dilution.html?pads=5'));
  await page.waitForSelector('body[data-state="ready"]');
  assert.equal(await page.inputValue('#pads'), '5');
  const { page: bad, problems: badProblems } = await suite.open('dilution.html?pads=99');
  await bad.waitForSelector('body[data-state="ready"]');
  assert.match(await bad.textContent('#url-note'), /pads=99 is above 32/);
  assert.deepEqual(badProblems, []);
  await bad.close();
});

test('at 320 px the page does not scroll sideways', async () => {
  assert.equal(await suite.scrollWidthAt('dilution.html', 320), 320);
});

test('axe-core finds no accessibility violations, in light and dark', async () => {
  await withAxeScanner(async (scanner) => {
    for (const colorScheme of ['light', 'dark']) {
      const violations = await scanner.scan(suite.url('dilution.html'), {
        colorScheme,
        prepare: async (p) => {
          await p.waitForSelector('body[data-state="ready"]');
          await p.click('.plot-table summary'); // scan the table of plotted numbers too
        },
      });
      assert.deepEqual(violations, [], colorScheme);
    }
  });
});

test('no console errors, page errors, failed requests or CSP violations (KaTeX fonts included)', () => {
  assert.deepEqual(problems, []);
});
