// web/shared/claims.js — the executable-claims grammar and evaluator, on hand-built responses
// (no core): every expected value below is read off the tiny objects in this file.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { checkClaim, evaluateClaims, parseMetric, readMetric } from '../../web/shared/claims.js';

// Two hand-built "inspect responses": 2 rows, T = 3, D = 2.
// buggy: row 0 has 3 real tokens, row 1 has 2 (one pad). fixed: the same rows.
// isPad says where the pad is (right padding by default: row 1, t = 2).
const RIGHT = [[0, 0, 0], [0, 0, 1]];
const LEFT = [[0, 0, 0], [1, 0, 0]];
function response({ loss, lossReal, padTargets, eos, outputs, lengths = [3, 2], isPad = RIGHT }) {
  return {
    batch: {
      input_ids: [[5, 6, 7], [8, 9, 0]],
      lengths,
      is_pad: isPad,
      rows: [
        { pad_targets: padTargets[0], eos_targets: eos[0], ignored: { padding: 0 } },
        { pad_targets: padTargets[1], eos_targets: eos[1], ignored: {} },
      ],
    },
    summary: { loss, loss_real: lossReal, loss_pad: null },
    attention: { output: outputs },
  };
}

const OUT = [
  [[1, 2], [3, 4], [5, 6]],
  [[7, 8], [9, 10], [11, 12]],
];
// The fixed batch differs only at row 1, t = 2 (a pad under right padding): +0.5 on d = 0.
const OUT_PAD_CHANGED = [
  [[1, 2], [3, 4], [5, 6]],
  [[7, 8], [9, 10], [11.5, 12]],
];
const buggy = response({ loss: 0.5, lossReal: 0.8, padTargets: [0, 1], eos: [1, 0], outputs: OUT });
const fixed = response({ loss: 0.8, lossReal: 0.8, padTargets: [0, 0], eos: [1, 1], outputs: OUT_PAD_CHANGED });

test('parseMetric: aggregator and path, and the messages for malformed metrics', () => {
  assert.deepEqual(parseMetric('sum:batch.rows.*.pad_targets'), {
    aggregator: 'sum',
    path: ['batch', 'rows', '*', 'pad_targets'],
    special: null,
    text: 'sum:batch.rows.*.pad_targets',
  });
  assert.equal(parseMetric('real_output_change').special, 'real_output_change');
  assert.throws(() => parseMetric('total:summary.loss'), /unknown aggregator "total:"/);
  assert.throws(() => parseMetric('batch.rows.*.pad_targets'), /needs an aggregator such as sum:batch\.rows\.\*\.pad_targets/);
  assert.throws(() => parseMetric('summary..loss'), /bad path part ""/);
  assert.throws(() => parseMetric('sum:real_output_change'), /drop the aggregator/);
  assert.throws(() => parseMetric(3), /must be a string/);
});

test('readMetric: single paths, aggregators, missing keys', () => {
  const context = { buggy, fixed };
  assert.equal(readMetric('summary.loss', 'buggy', context), 0.5);
  assert.equal(readMetric('summary.loss_pad', 'buggy', context), null);
  assert.equal(readMetric('sum:batch.rows.*.pad_targets', 'buggy', context), 1); // 0 + 1
  assert.equal(readMetric('mean:batch.rows.*.eos_targets', 'fixed', context), 1); // (1 + 1) / 2
  assert.equal(readMetric('max:batch.lengths.*', 'buggy', context), 3);
  assert.equal(readMetric('min:batch.lengths.*', 'buggy', context), 2);
  assert.equal(readMetric('count:batch.rows.*', 'buggy', context), 2);
  assert.equal(readMetric('first:batch.rows.*.eos_targets', 'buggy', context), 1);
  assert.equal(readMetric('batch.rows.1.pad_targets', 'buggy', context), 1);
  // ignored.padding exists in row 0 only: missing keys are skipped by sum and count.
  assert.equal(readMetric('sum:batch.rows.*.ignored.padding', 'buggy', context), 0);
  assert.equal(readMetric('count:batch.rows.*.ignored.padding', 'buggy', context), 1);
  assert.equal(readMetric('mean:batch.rows.*.nothing', 'buggy', context), null);
  assert.throws(() => readMetric('summary.nothing', 'buggy', context), /no value at summary\.nothing/);
});

test('real_output_change: max |Δ| over real tokens only; pads are ignored', () => {
  // Right padding: row 1's real tokens are t = 0, 1; the only difference is at the pad (t = 2).
  assert.equal(readMetric('real_output_change', 'buggy', { buggy, fixed }), 0);
  // Left padding (is_pad from the core): row 1's real tokens are t = 1, 2, so the 0.5 at t = 2 counts.
  const leftBuggy = { ...buggy, batch: { ...buggy.batch, is_pad: LEFT } };
  const leftFixed = { ...fixed, batch: { ...fixed.batch, is_pad: LEFT } };
  assert.equal(readMetric('real_output_change', 'buggy', { buggy: leftBuggy, fixed: leftFixed }), 0.5);
  // Matched by k-th real token: buggy row 1 left-padded (t = 1, 2) vs fixed right-padded (t = 0, 1):
  // k = 0: |9 - 7| = 2, |10 - 8| = 2; k = 1: |11 - 9| = 2, |12 - 10| = 2 -> 2.
  assert.equal(readMetric('real_output_change', 'buggy', { buggy: leftBuggy, fixed }), 2);
  // A real token whose output is NaN (fully_masked_rows "nan" writes the row as null) has no
  // difference to measure: the metric says so instead of comparing null.
  const nanRow = structuredClone(buggy);
  nanRow.attention.output[0][0] = null;
  assert.throws(() => readMetric('real_output_change', 'buggy', { buggy: nanRow, fixed }), /row 0, position 0 is NaN/);
});

test('evaluateClaims: each expectation kind, with details that show the numbers', () => {
  const claims = [
    { text: 'less', metric: 'summary.loss', buggy: { less_than: { metric: 'summary.loss_real' } }, fixed: { equals: { metric: 'summary.loss_real' } } },
    { text: 'other', metric: 'summary.loss', buggy: { less_than: { other: 'summary.loss' } } },
    { text: 'agg', metric: 'sum:batch.rows.*.pad_targets', buggy: { greater_than: 0, at_least: 1, at_most: 1 }, fixed: { equals: 0 } },
    { text: 'approx', metric: 'summary.loss', fixed: { approx: { value: 0.8000001, tolerance: 1e-6 } } },
    { text: 'null', metric: 'summary.loss_pad', buggy: { is_null: true } },
    { text: 'not equals', metric: 'batch.rows.1.eos_targets', fixed: { not_equals: { other: 'batch.rows.1.eos_targets' } } },
    { text: 'special', metric: 'real_output_change', buggy: { at_most: 1e-12 } },
  ];
  const results = evaluateClaims(claims, buggy, fixed);
  assert.deepEqual(results.map((r) => [r.text, r.ok]), [
    ['less', true],
    ['other', true],
    ['agg', true],
    ['approx', true],
    ['null', true],
    ['not equals', true],
    ['special', true],
  ]);
  assert.equal(results[0].details, 'buggy: summary.loss = 0.5 < summary.loss_real = 0.8 ✓; fixed: summary.loss = 0.8 = summary.loss_real = 0.8 ✓');
  assert.equal(results[1].details, 'buggy: summary.loss = 0.5 < fixed summary.loss = 0.8 ✓');
  assert.equal(results[2].checks.length, 4, 'every key of a side is checked');
});

test('evaluateClaims: failures say what was expected, and never throw', () => {
  const results = evaluateClaims(
    [
      { text: 'wrong way', metric: 'summary.loss', buggy: { greater_than: { other: 'summary.loss' } } },
      { text: 'null compared', metric: 'summary.loss_pad', buggy: { less_than: 1 } },
      { text: 'missing', metric: 'summary.nothing', fixed: { equals: 0 } },
      { text: 'malformed', metric: 'sum:x', buggy: { bigger: 1 } },
      { text: 'no side', metric: 'summary.loss' },
    ],
    buggy,
    fixed,
  );
  assert.deepEqual(results.map((r) => r.ok), [false, false, false, false, false]);
  assert.equal(results[0].details, 'buggy: summary.loss = 0.5 > fixed summary.loss = 0.8 ✗');
  assert.equal(results[1].details, 'buggy: summary.loss_pad is null, not a number ✗');
  assert.equal(results[2].details, 'fixed: no value at summary.nothing ✗');
  assert.match(results[3].details, /buggy\.bigger: unknown expectation "bigger"/);
  assert.match(results[4].details, /needs a buggy or a fixed expectation/);
});

test('evaluateClaims: a core error on a side is reported, not evaluated', () => {
  const refused = { error: { field: 'max_length', message: 'is required with padding max_length' } };
  const [result] = evaluateClaims([{ text: 't', metric: 'summary.loss', buggy: { equals: 1 } }], refused, fixed);
  assert.equal(result.ok, false);
  assert.equal(result.details, 'the core refused the buggy request: max_length: is required with padding max_length');
});

test('checkClaim: grammar problems with paths relative to the claim', () => {
  assert.deepEqual(checkClaim({ text: 't', metric: 'summary.loss', buggy: { equals: 0 } }), []);
  assert.deepEqual(checkClaim({ text: 't', metric: 'summary.loss', buggy: { approx: { value: 1 } } }), [
    { path: 'buggy.approx', message: 'must be { value: number or { metric|other: path }, tolerance: number >= 0 }' },
  ]);
  assert.deepEqual(checkClaim({ text: 't', metric: 'summary.loss', fixed: { less_than: { metric: 'a', other: 'b' } } }), [
    { path: 'fixed.less_than', message: 'must have exactly one key: metric or other' },
  ]);
  assert.deepEqual(checkClaim({ text: 't', metric: 'summary.loss', fixed: { is_null: 'yes' } }), [{ path: 'fixed.is_null', message: 'must be true or false' }]);
  assert.deepEqual(checkClaim({ text: 't', metric: 'summary.loss', fixed: {} }), [{ path: 'fixed', message: 'has no expectation; add one such as { equals: 0 }' }]);
});
