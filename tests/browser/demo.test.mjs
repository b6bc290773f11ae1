// The home page's live demo in headless Chromium: the wasm core loads under the page's strict CSP,
// the batch is collated, the loss is computed by the core, and nothing is logged as an error.
// (The demo lives in web/home/core-demo.js; cells show −100 with a true minus sign, so values are
// read from each cell's data-value.)

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { REPO_ROOT, useSiteAndBrowser } from './helpers.mjs';
import { loadWasmCore } from '../node/helpers.mjs';
import { DEMO_COLLATE_REQUEST, demoLossRequest } from '../../web/demo-batch.js';

let page;
let problems;

const suite = useSiteAndBrowser({
  async setUp() {
    // The page marks <body data-state="ready"> once both answers are shown; the status turns into
    // an alert instead if anything failed, so wait for either and let the assertions say which.
    ({ page, problems } = await suite.openSettled('', { failed: '#status.error' }));
  },
});

async function tableRows() {
  return page.$$eval('#batch-table tbody tr', (rows) =>
    rows.map((row) => ({
      label: row.querySelector('th').textContent,
      // data-value holds the raw number when the cell shows a typeset one (e.g. "−100").
      values: [...row.querySelectorAll('td')].map((cell) => Number(cell.dataset.value ?? cell.textContent)),
    })),
  );
}

test('the page loads the core and shows no error', async () => {
  const status = await page.textContent('#status');
  assert.equal(await page.getAttribute('#status', 'role'), 'status', `status became an alert: ${status}`);
  assert.equal(await page.getAttribute('body', 'data-state'), 'ready');
});

test('the collated batch is shown: right padding with pad id 0, mask 0 and label -100 on pads', async () => {
  // By hand from the request: rows of 6 and 4 tokens; longest = 6, so row 1 gets 2 pads on the
  // right. attention_mask: 1 for real tokens. labels (mask_padding): input_ids, -100 at pads.
  assert.deepEqual(await tableRows(), [
    { label: 'row 0 · input_ids', values: [1, 7, 4, 9, 12, 2] },
    { label: 'row 0 · attention_mask', values: [1, 1, 1, 1, 1, 1] },
    { label: 'row 0 · labels', values: [1, 7, 4, 9, 12, 2] },
    { label: 'row 1 · input_ids', values: [1, 5, 11, 2, 0, 0] },
    { label: 'row 1 · attention_mask', values: [1, 1, 1, 1, 0, 0] },
    { label: 'row 1 · labels', values: [1, 5, 11, 2, -100, -100] },
  ]);
  assert.equal(await page.locator('#batch-table td.pad').count(), 6, '2 pad positions x 3 fields are shaded');
});

test('the loss shown is the core\'s, and matches the hand-computed value', async () => {
  const shown = await page.getAttribute('#loss-value', 'data-value');
  const text = await page.textContent('#loss-value');
  const targets = Number(await page.textContent('#loss-targets'));

  // The same two requests through the node copy of the same wasm module.
  const core = await loadWasmCore();
  const batch = core.collate(DEMO_COLLATE_REQUEST);
  const expected = core.loss(demoLossRequest(batch));
  assert.equal(Number(shown), expected.loss, 'page and node wasm give the same loss');
  assert.equal(text, expected.loss.toFixed(4));
  assert.equal(targets, expected.num_targets);

  // By hand: after the shift, row 0 scores positions 0..4 (5 targets) and row 1 positions 0..2
  // (3 targets; its next labels are then -100) => 8. At each, the right id has logit 2 and the
  // other 15 ids logit 0: loss = -log(e^2 / (e^2 + 15)) = ln(1 + 15 e^-2) ≈ 1.10857 (float64,
  // tolerance 1e-9).
  assert.equal(targets, 8);
  assert.ok(Math.abs(Number(shown) - Math.log1p(15 * Math.exp(-2))) < 1e-9, `loss ${shown}`);
});

test('axe-core finds no accessibility violations', async () => {
  // page.evaluate runs through the DevTools protocol, so injecting axe is not blocked by the CSP.
  await page.evaluate(readFileSync(join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () =>
    (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`),
  );
  assert.deepEqual(violations, []);
});

test('when the wasm file cannot be fetched, the page says so in an alert', async () => {
  const broken = await suite.open('', {
    prepare: (tab) => tab.route('**/*.wasm', (route) => route.abort()),
  });
  await broken.page.waitForSelector('#status.error', { timeout: 20_000 });
  assert.equal(await broken.page.getAttribute('#status', 'role'), 'alert');
  assert.match(await broken.page.textContent('#status'), /WebAssembly core could not be loaded/);
  assert.equal(await broken.page.isHidden('#batch-section'), true, 'no half-drawn demo');
  await broken.page.close();
});

test('no console errors, page errors or failed requests (CSP included)', () => {
  assert.deepEqual(problems, []);
});
