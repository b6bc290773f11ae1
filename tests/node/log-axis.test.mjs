// web/train/log-axis.js: the Train page's log-scale axes are ruled at the powers of ten inside
// their range, for every range the page can give (0.8 × the lowest loss up to 1.2 × the highest),
// including a start just below a power of ten, where uPlot's own splits never ended.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { decadesBetween } from '../../web/train/log-axis.js';

test('the powers of ten inside the range, ascending, each one exact', () => {
  assert.deepEqual(decadesBetween(0.008, 4.8), [0.01, 0.1, 1]);
  assert.deepEqual(decadesBetween(0.00072, 3.6), [0.001, 0.01, 0.1, 1]);
  assert.deepEqual(decadesBetween(0.5, 120), [1, 10, 100]);
  assert.deepEqual(decadesBetween(2e-7, 5), [1e-6, 1e-5, 1e-4, 0.001, 0.01, 0.1, 1]);
  assert.equal(decadesBetween(0.0008, 1.2)[0], 0.001, 'written 0.001, not 0.0010000000000000002');
});

test('a start just below a power of ten (the range that froze the chart) gives that power and the rest', () => {
  // 0.8 × 0.00119 = 0.000952: uPlot stepped from it by 0.0011 and rounded to 0, forever.
  assert.deepEqual(decadesBetween(0.8 * 0.00119, 1.2 * 2.9), [0.001, 0.01, 0.1, 1]);
});

test('bounds that are powers of ten are included, also when rounding put them a hair outside', () => {
  assert.deepEqual(decadesBetween(0.01, 10), [0.01, 0.1, 1, 10]);
  assert.deepEqual(decadesBetween(0.1 * 0.1, 0.1 * 100), [0.01, 0.1, 1, 10]); // 0.010000000000000002, 10.000000000000002
});

test('a range with no power of ten, or a range that is not positive, gives no rule', () => {
  assert.deepEqual(decadesBetween(0.2, 0.9), []);
  assert.deepEqual(decadesBetween(0, 1), []);
  assert.deepEqual(decadesBetween(-1, 1), []);
  assert.deepEqual(decadesBetween(5, 1), []);
  assert.deepEqual(decadesBetween(NaN, 1), []);
  assert.deepEqual(decadesBetween(0.1, Infinity), []);
});

test('every start from 1e-9 to 1 (a thousand of them) gives the decades an independent count expects', () => {
  for (let i = 0; i <= 1000; i += 1) {
    const min = 10 ** (-9 + (9 * i) / 1000);
    const got = decadesBetween(min, 4.8);
    // Counted without logarithms: the powers of ten p = 1e-9 … 1 with min ≤ p (and p ≤ 4.8).
    const want = [];
    for (let e = -9; e <= 0; e += 1) if (Number(`1e${e}`) >= min * (1 - 1e-12)) want.push(Number(`1e${e}`));
    assert.deepEqual(got, want, `min = ${min}`);
  }
});
