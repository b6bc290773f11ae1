// The figures under a grid and in the "see it break" table (web/grid/summary.js): the gradient
// row appears only when the request asked for the gradient, and says NaN when PyTorch's would be.
// The responses are the core's own answers to hand-checkable batches (every label -100, §7.3).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { summaryRows } from '../../web/grid/summary.js';
import { loadWasmCore } from './helpers.mjs';

// One row of two tokens, both labels -100: a micro-batch with nothing to learn. V = 3.
const EMPTY = { features: [{ input_ids: [1, 2], labels: [-100, -100] }], vocab: ['<pad>', 'a', 'b'], pad_token_id: 0, label_policy: 'given' };

test('no gradient row unless the request asks for one', async () => {
  const core = await loadWasmCore();
  const keys = summaryRows(core.inspect(EMPTY)).map((r) => r.key);
  assert.deepEqual(keys, ['targets', 'loss', 'loss_all_positions', 'pad_share', 'dilution_factor', 'eos_targets']);
});

test('masked mean over zero targets: NaN in every entry the gathered loss covers; zero with cross-entropy', async () => {
  const core = await loadWasmCore();
  const gather = summaryRows(core.inspect({ ...EMPTY, reduction: 'masked_mean', per_token_loss: 'log_softmax_gather', gradient: true }));
  const row = gather.find((r) => r.key === 'gradient');
  // The sliced loss covers 1 position (T - 1) of 1 row, over V = 3 ids: 3 NaN entries.
  assert.equal(row.text, 'NaN in 3 entries');
  assert.equal(row.value, null);
  const ce = summaryRows(core.inspect({ ...EMPTY, reduction: 'masked_mean', gradient: true })).find((r) => r.key === 'gradient');
  assert.equal(ce.text, 'norm 0, no NaN');
  assert.equal(ce.value, 0);
});
