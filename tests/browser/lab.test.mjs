// The normalization lab (lab.html) in headless Chromium: the two guided steps of y = a·x² done
// with the keyboard alone, wrong and malformed predictions, then the two loss panels, whose
// figures are the core's answers and match values worked out by hand; state survives a reload;
// 320 px works; axe finds nothing.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { withAxeScanner } from './axe-scan.mjs';
import { useSiteAndBrowser } from './helpers.mjs';
import { loadWasmCore } from '../node/helpers.mjs';
import { TOY_VOCAB, toyBatch, toyMicroBatch } from '../../web/lab/toy-logits.js';

let page;
let problems;
let core;

const suite = useSiteAndBrowser({
  async setUp() {
    ({ page, problems } = await suite.openSettled('lab.html'));
    core = await loadWasmCore();
  },
});

async function typeInto(text) {
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

async function result(key) {
  return {
    value: (await page.textContent(`[data-result="${key}"] dd.value`)).trim(),
    verdict: (await page.textContent(`[data-result="${key}"] dd.verdict`)).trim(),
  };
}

async function figure(key) {
  return page.getAttribute(`[data-figure="${key}"] dd[data-value]`, 'data-value');
}

// The toy model puts logit L on the right token and 0 on the other V − 1 = 7 ids, so each target
// costs −log(e^L / (e^L + 7)) = ln(1 + 7·e^−L).
const tokenLoss = (L) => Math.log1p((TOY_VOCAB - 1) * Math.exp(-L));
const TOLERANCE = 1e-12; // float64

test('step 1 by keyboard: a = 1, x = 1 gives y = 1 and dy/dx = 2 (dy/da = 1)', async () => {
  await page.focus('input[name="a"]');
  await typeInto('1');
  await page.keyboard.press('Tab');
  await typeInto('1');
  await page.keyboard.press('Tab');
  await page.keyboard.type('1'); // prediction for y
  await page.keyboard.press('Tab');
  await page.keyboard.type('2'); // prediction for dy/dx
  await page.keyboard.press('Enter'); // submits the form: Inspect

  // By hand: y = 1·1² = 1, dy/dx = 2·1·1 = 2, dy/da = 1² = 1.
  assert.deepEqual(await result('y'), { value: '1', verdict: '✓ matches your 1' });
  assert.deepEqual(await result('dydx'), { value: '2', verdict: '✓ matches your 2' });
  assert.equal((await result('dyda')).value, '1');
  assert.match(await page.getAttribute('.guided-steps [data-step="1"]', 'class'), /step-right/);
  assert.match(await page.textContent('.guided-steps [data-step="1"]'), /y = 1, dy\/dx = 2 \(dy\/da = 1\)/);
});

test('step 2 by keyboard: Reset, then a = 0.5 gives y = 0.5 and dy/dx = 1', async () => {
  await page.keyboard.press('Tab'); // Inspect
  await page.keyboard.press('Tab'); // Reset
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('input[name="py"]'), '', 'Reset clears the predictions');
  assert.equal(await page.evaluate(() => document.activeElement.name), 'a', 'Reset puts focus on a');
  await typeInto('0.5');
  await page.keyboard.press('Tab');
  assert.equal(await page.inputValue('input[name="x"]'), '1', 'x is back at 1 after Reset');
  await page.keyboard.press('Tab');
  await page.keyboard.type('0.5');
  await page.keyboard.press('Tab');
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');

  // By hand: y = 0.5·1² = 0.5, dy/dx = 2·0.5·1 = 1, dy/da = 1.
  assert.deepEqual(await result('y'), { value: '0.5', verdict: '✓ matches your 0.5' });
  assert.deepEqual(await result('dydx'), { value: '1', verdict: '✓ matches your 1' });
  assert.equal((await result('dyda')).value, '1');
  assert.match(await page.getAttribute('.guided-steps [data-step="2"]', 'class'), /step-right/);
  assert.equal(await page.isVisible('.note-box:has-text("Halving a halved y")'), true);
  assert.equal(new URL(page.url()).searchParams.get('a'), '0.5');
});

test('a wrong prediction is marked wrong, a fraction is accepted, and text that is not a number is explained', async () => {
  await page.fill('input[name="py"]', '1/2'); // 0.5 as a fraction: right
  await page.fill('input[name="pdx"]', '3');
  await page.click('button[type="submit"]');
  assert.equal((await result('y')).verdict, '✓ matches your 1/2');
  assert.equal((await result('dydx')).verdict, '✗ you said 3');

  await page.fill('input[name="a"]', 'half');
  await page.click('button[type="submit"]');
  assert.match(await page.textContent('.fn-form .control-error'), /“half” is not a number/);
  assert.equal(await page.getAttribute('input[name="a"]', 'aria-invalid'), 'true');
  await page.fill('input[name="a"]', '0.5');
  await page.click('button[type="submit"]');
  assert.equal(await page.isVisible('.fn-form .control-error'), false);
});

test('one batch, two averages: the core’s numbers, equal to the hand values', async () => {
  const { logits, labels } = toyBatch([2, 8], [1, 3]);
  const mean = core.loss({ logits, labels, reduction: 'mean' });
  const perExample = core.loss({ logits, labels, reduction: 'per_example_mean' });
  assert.equal(Number(await figure('global')), mean.loss);
  assert.equal(Number(await figure('per-example')), perExample.loss);
  // By hand: 2 targets at ℓ(1) and 8 at ℓ(3): global = (2ℓ(1) + 8ℓ(3)) / 10, mean of the two
  // row means = (ℓ(1) + ℓ(3)) / 2.
  assert.ok(Math.abs(mean.loss - (2 * tokenLoss(1) + 8 * tokenLoss(3)) / 10) < TOLERANCE);
  assert.ok(Math.abs(perExample.loss - (tokenLoss(1) + tokenLoss(3)) / 2) < TOLERANCE);

  await page.focus('#mean-nl');
  await page.keyboard.press('ArrowRight'); // long response: 9 targets
  await page.waitForFunction(() => new URLSearchParams(location.search).get('nl') === '9');
  const global = Number(await figure('global'));
  assert.ok(Math.abs(global - (2 * tokenLoss(1) + 9 * tokenLoss(3)) / 11) < TOLERANCE, `${global}`);
  assert.equal(await page.getAttribute('#mean-nl', 'aria-valuetext'), '9 targets');
  assert.match(await page.textContent('[role="status"][aria-live]:not(#status)'), /^Global token mean /);
});

test('gradient accumulation: mean of micro-batch means vs global token mean, and a micro-batch with no target', async () => {
  const answer = core.accumulate({ micro_batches: [toyMicroBatch(2, 1), toyMicroBatch(6, 3)] });
  assert.equal(Number(await figure('acc-mean-of-means')), answer.mean_of_means);
  assert.equal(Number(await figure('acc-global')), answer.global_token_mean);
  assert.equal(Number(await figure('acc-items')), 8);
  // By hand: micro-batch 1 has 2 targets at ℓ(1), micro-batch 2 has 6 at ℓ(3).
  assert.ok(Math.abs(answer.mean_of_means - (tokenLoss(1) + tokenLoss(3)) / 2) < TOLERANCE);
  assert.ok(Math.abs(answer.global_token_mean - (2 * tokenLoss(1) + 6 * tokenLoss(3)) / 8) < TOLERANCE);

  await page.focus('#acc-n1');
  await page.keyboard.press('Home'); // micro-batch 1: 0 targets
  await page.waitForFunction(() => new URLSearchParams(location.search).get('mn') === '0,6');
  assert.match(await page.textContent('[data-figure="acc-mean-of-means"] dd[data-value]'), /^none — Micro-batch 1 has no targets/);
  assert.match(await page.textContent('[data-micro="1"]'), /none \(0\/0\)/);
  // Only micro-batch 2's six targets are left: the global mean is ℓ(3).
  assert.ok(Math.abs(Number(await figure('acc-global')) - tokenLoss(3)) < TOLERANCE);

  await page.selectOption('#acc-count', '3');
  assert.equal(await page.locator('[data-micro]').count(), 3);
});

test('state survives a reload', async () => {
  await page.reload();
  await page.waitForSelector('body[data-state="ready"]');
  assert.equal(await page.inputValue('input[name="a"]'), '0.5');
  assert.equal(await page.inputValue('#mean-nl'), '9');
  assert.equal(await page.inputValue('#acc-n1'), '0');
  assert.equal(await page.locator('[data-micro]').count(), 3);
});

test('a bad URL parameter is explained', async () => {
  const { page: bad, problems: badProblems } = await suite.open('lab.html?a=abc&mn=2,99');
  await bad.waitForSelector('body[data-state="ready"]');
  const note = await bad.textContent('#url-note');
  assert.match(note, /a=abc is not a number/);
  assert.match(note, /mn: item 2 \(99\) is outside 0–16/);
  assert.deepEqual(badProblems, []);
  await bad.close();
});

test('at 320 px the page does not scroll sideways', async () => {
  assert.equal(await suite.scrollWidthAt('lab.html', 320), 320);
});

test('axe-core finds no accessibility violations, in light and dark', async () => {
  await withAxeScanner(async (scanner) => {
    for (const colorScheme of ['light', 'dark']) {
      const violations = await scanner.scan(suite.url('lab.html?py=1&pdx=3&mn=0,6'), {
        colorScheme,
        prepare: async (p) => {
          await p.waitForSelector('body[data-state="ready"]');
          await p.click('button[type="submit"]'); // results with a right and a wrong verdict
        },
      });
      assert.deepEqual(violations, [], colorScheme);
    }
  });
});

test('no console errors, page errors, failed requests or CSP violations', () => {
  assert.deepEqual(problems, []);
});
