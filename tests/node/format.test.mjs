// format.js, formatCount: whole numbers written with commas between thousands, as
// toLocaleString('en') writes them, without the page calling Intl (its first call loads the
// browser's locale data). The expected strings below were written by hand; the sweep compares
// with Node's own Intl, an implementation that shares no code with ours.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { formatCount } from '../../web/shared/format.js';

test('commas go between groups of three digits, counted from the right', () => {
  assert.equal(formatCount(0), '0');
  assert.equal(formatCount(7), '7');
  assert.equal(formatCount(999), '999');
  assert.equal(formatCount(1000), '1,000');
  assert.equal(formatCount(65536), '65,536');
  assert.equal(formatCount(151669), '151,669');
  assert.equal(formatCount(2000000), '2,000,000');
  assert.equal(formatCount(1234567890), '1,234,567,890');
});

test('a fraction is dropped, as a count has none; a negative count keeps its sign before the digits', () => {
  assert.equal(formatCount(1234.9), '1,234');
  assert.equal(formatCount(-4096), '-4,096');
});

test('agrees with Intl.NumberFormat("en") on powers of ten, their neighbours and vocabulary sizes', () => {
  const intl = new Intl.NumberFormat('en', { maximumFractionDigits: 0, useGrouping: true });
  const values = [32000, 32768, 50257, 128256, 151936, 262144, 201088];
  for (let p = 1; p <= 1e12; p *= 10) values.push(p - 1, p, p + 1);
  for (const n of values) assert.equal(formatCount(n), intl.format(n), `n = ${n}`);
});
