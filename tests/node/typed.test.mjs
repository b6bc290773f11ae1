// The typed-array path through web/core/masklab.js: core.typed.loss / core.typed.collate, and
// core.loss switching to it for large requests. Every answer is compared with the JSON path's
// answer to the same request (core.runJson, which the parity suite pins against the CLI), so the
// two paths cannot drift apart; the values themselves are pinned by the C++ tests.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadWasmCore, runCli } from './helpers.mjs';

// A deterministic loss request: logits with 1-3 decimals, labels with some -100.
function lossRequest(B, T, V, extra = {}) {
  const logits = [];
  const labels = [];
  for (let b = 0; b < B; b++) {
    const rows = [];
    const row = [];
    for (let t = 0; t < T; t++) {
      rows.push(Array.from({ length: V }, (_, v) => (((b * 7 + t * 13 + v * 5) % 41) - 20) / 8));
      row.push(t % 5 === 0 ? -100 : (b + t * 3) % V);
    }
    logits.push(rows);
    labels.push(row);
  }
  return { logits, labels, ...extra };
}

test('core.loss on a large request takes the typed path and answers exactly as the JSON path', async () => {
  const core = await loadWasmCore();
  for (const extra of [{}, { reduction: 'sum', gradient: true }, { reduction: 'per_example_mean', shift: false }]) {
    const request = lossRequest(2, 64, 160, extra); // 20,480 logits: over the typed path's threshold
    const viaJson = JSON.parse(core.runJson('loss', JSON.stringify(request)));
    const viaCore = core.loss(request);
    assert.deepEqual(viaCore, viaJson, JSON.stringify(extra));
    assert.deepEqual(Object.keys(viaCore), Object.keys(viaJson), 'same keys in the same order');
  }
});

test('core.loss falls back to the JSON path for anything irregular, so its messages are the JSON path\'s', async () => {
  const core = await loadWasmCore();
  const ragged = lossRequest(2, 64, 160);
  ragged.logits[1][3] = ragged.logits[1][3].slice(1);
  assert.deepEqual(core.loss(ragged), JSON.parse(core.runJson('loss', JSON.stringify(ragged))));
  assert.match(core.loss(ragged).error.field, /^logits\[1\]\[3\]/);
  const typo = { ...lossRequest(2, 64, 160), reduktion: 'sum' };
  assert.equal(core.loss(typo).error.field, 'reduktion');
});

test('core.typed.loss: float32 logits in, typed per-token losses and a float32 gradient out', async () => {
  const core = await loadWasmCore();
  // B=1, T=2, V=2; logits [0,0] then [ln 3, 0]; labels [-100, 0]: logit 0 scored against label 1
  // = 0, loss ln 2; the last logit has no target. Gradient of the mean: softmax - onehot.
  const answer = core.typed.loss({
    logits: new Float32Array([0, 0, Math.log(3), 0]),
    labels: new Int32Array([-100, 0]),
    shape: [1, 2, 2],
    gradient: true,
  });
  assert.equal(answer.error, undefined, JSON.stringify(answer.error));
  assert.ok(answer.per_token instanceof Float64Array);
  assert.ok(answer.targets instanceof Int32Array);
  assert.ok(answer.gradient instanceof Float32Array);
  assert.ok(Math.abs(answer.loss - Math.LN2) < 1e-15, `${answer.loss}`);
  assert.deepEqual(Array.from(answer.targets), [0, -100]);
  assert.deepEqual(Array.from(answer.gradient), [-0.5, 0.5, 0, 0]);
  assert.deepEqual(answer.shape, [1, 2, 2]);
});

// The wasm loss computes its exps two at a time (cpp/core/softmax_exp.hpp, musl's exp
// algorithm in SIMD) and must give what a plain std::exp per logit gives, which the native CLI
// uses. Rows reach every branch: |x - max| in musl's fast range, below 2^-54 (the max itself and
// near-ties), at or over 512 (std::exp's own special cases), one lane in each; an odd V runs the
// scalar tail. Exact equality: these inputs round identically under glibc's and musl's exp.
test('core.typed.loss: per-token losses and gradient equal the native CLI bit for bit over every exp range', async () => {
  const core = await loadWasmCore();
  const [B, T, V] = [2, 12, 65];
  const logits = new Float64Array(B * T * V);
  for (let row = 0; row < B * T; row++)
    for (let v = 0; v < V; v++) {
      const k = (row * 31 + v * 17) % 97;
      const value = [
        () => (k - 48) / 7.3,                          // ordinary
        () => (v % 2 ? -1 : 1) * k * 1e-18,            // near-ties: x - max below 2^-54
        () => (v % 3 === 0 ? -600 - k : (k - 48) / 3), // some lanes at |x| >= 512
        () => -k * 9.5,                                // 0 down to -912: both sides of 512 and 745
      ][row % 4]();
      logits[row * V + v] = value;
    }
  const labels = Int32Array.from({ length: B * T }, (_, i) => (i % 5 === 3 ? -100 : (i * 7) % V));
  const options = { reduction: 'sum', gradient: true };
  const typed = core.typed.loss({ logits, labels, shape: [B, T, V], ...options });
  assert.equal(typed.error, undefined, JSON.stringify(typed.error));
  const nest = (flat, n) => Array.from({ length: flat.length / n }, (_, i) => Array.from(flat.subarray(i * n, i * n + n)));
  const request = {
    logits: nest(logits, T * V).map((rows) => nest(Float64Array.from(rows), V)),
    labels: nest(labels, T),
    ...options,
  };
  const cli = runCli('loss', request);
  assert.equal(cli.status, 0, cli.stderr);
  const native = JSON.parse(cli.stdout);
  assert.deepEqual(Array.from(typed.per_token), native.per_token.flat());
  assert.deepEqual(Array.from(typed.gradient), native.gradient.flat(2));
  assert.equal(typed.sum, native.sum);
});

// The loss reads the caller's float64 buffer in place and widens float32 a row at a time; in wasm
// it takes each row's max two lanes at a time (f64x2.pmax, with a max of 0 or -0 redone by the
// plain loop) and keeps the forward pass's log-softmax for the gradient. None of that may change
// a bit: the CLI, which runs the plain loops natively, must agree exactly, in the built-in loss
// and in the hand-written gather (which also reaches ignored rows), for V below, at and above
// the two-lane width, odd and even.
test('core.typed.loss: float32 and float64 logits, zero maxima and the gather loss equal the native CLI bit for bit', async () => {
  const core = await loadWasmCore();
  for (const V of [1, 2, 3, 5, 13, 64]) {
    const [B, T] = [2, 6];
    const logits = new Float64Array(B * T * V);
    for (let row = 0; row < B * T; row++)
      for (let v = 0; v < V; v++) {
        const k = (row * 29 + v * 13) % 53;
        logits[row * V + v] = Math.fround([
          () => (k - 26) / 3.7,                        // ordinary
          () => (v === 1 ? -0 : v === V - 1 ? 0 : -1 - k / 8), // max -0 first, then 0
          () => (v % 2 ? 0 : -k),                       // max +0 first
          () => k * 1.5 - 700,                          // far below the max: |x - m| >= 512
        ][row % 4]());
      }
    const labels = Int32Array.from({ length: B * T }, (_, i) => (i % 4 === 1 ? -100 : (i * 5) % V));
    const nest = (flat, n) => Array.from({ length: flat.length / n }, (_, i) => Array.from(flat.subarray(i * n, i * n + n)));
    for (const options of [
      { reduction: 'sum', gradient: true },
      { reduction: 'masked_mean', per_token_loss: 'log_softmax_gather', gradient: true },
    ]) {
      const cli = runCli('loss', { logits: nest(logits, T * V).map((rows) => nest(Float64Array.from(rows), V)), labels: nest(labels, T), ...options });
      assert.equal(cli.status, 0, cli.stderr);
      const native = JSON.parse(cli.stdout);
      const what = `V=${V} ${JSON.stringify(options)}`;
      for (const array of [logits, Float32Array.from(logits)]) {
        const before = array.slice();
        const typed = core.typed.loss({ logits: array, labels, shape: [B, T, V], ...options });
        assert.equal(typed.error, undefined, JSON.stringify(typed.error));
        // JSON has one zero: -0 reads back as 0 (V = 1 gives a loss of -0).
        const json = (values) => Array.from(values, (x) => x + 0);
        assert.deepEqual(json(typed.per_token), json(native.per_token.flat()), what);
        assert.deepEqual(json(typed.gradient), json(array.constructor.from(native.gradient.flat(2))), what);
        assert.equal(typed.sum, native.sum, what);
        assert.deepEqual(array, before, 'the caller\'s logits are read, never written');
      }
    }
  }
});

test('core.typed.loss refuses mismatched buffers with the field named, before the core is called', async () => {
  const core = await loadWasmCore();
  const base = { logits: new Float64Array(4), labels: new Int32Array(2), shape: [1, 2, 2] };
  assert.equal(core.typed.loss({ ...base, logits: [0, 0, 0, 0] }).error.field, 'logits');
  assert.equal(core.typed.loss({ ...base, labels: new Float64Array(2) }).error.field, 'labels');
  assert.equal(core.typed.loss({ ...base, shape: [1, 2] }).error.field, 'shape');
  assert.equal(core.typed.loss({ ...base, logits: new Float64Array(5) }).error.field, 'logits');
  assert.equal(core.typed.loss({ ...base, labels: new Int32Array([0, 7]) }).error.field, 'labels[0][1]');
  assert.equal(core.typed.loss({ ...base, reduction: 'avg' }).error.field, 'reduction');
});

test('core.typed.collate: rows end to end in, [B*T] typed arrays out, equal to the JSON path', async () => {
  const core = await loadWasmCore();
  const features = [{ input_ids: [5, 6, 2] }, { input_ids: [7, 2] }];
  const options = { pad_token_id: 2, eos_token_id: 2, label_policy: 'mask_pad_id' };
  const typed = core.typed.collate({ input_ids: new Int32Array([5, 6, 2, 7, 2]), lengths: [3, 2], ...options });
  const json = core.collate({ features, ...options });
  assert.equal(typed.error, undefined, JSON.stringify(typed.error));
  for (const key of ['input_ids', 'attention_mask', 'labels', 'position_ids', 'is_pad'])
    assert.deepEqual(Array.from(typed[key]), json[key].flat(), key);
  assert.deepEqual(Array.from(typed.label_reasons, (code) => typed.label_reason_names[code]), json.label_reasons.flat());
  for (const key of ['lengths', 'seq_lengths', 'rows', 'shape']) assert.deepEqual(typed[key], json[key], key);
});

test('the typed path is not enumerable: Object.keys(core) lists the commands only', async () => {
  const core = await loadWasmCore();
  assert.deepEqual(Object.keys(core).sort(), ['accumulate', 'attention', 'collate', 'inspect', 'loss']);
  assert.equal(typeof core.typed.loss, 'function');
  assert.equal(core.limits.max_request_bytes, 64 * 1024 * 1024);
});
