// The practice draw (web/practice/draw.js): the seed hash, the generator, the shuffle, the filters
// and the whole draw. Pure functions, so these run in node without a browser.
//
// Hand-worked values:
// - FNV-1a of "" is the offset basis 0x811c9dc5 (no byte is mixed in).
// - FNV-1a of "a": 0x811c9dc5 ^ 0x61 = 0x811c9da4; times the prime 0x01000193 mod 2^32 is
//   0x811c9da4·0x193 + (0x811c9da4 << 24) = 0x400c292c + 0xa4000000 = 0xe40c292c (also the
//   published FNV-1a test vector for "a").
// - Fisher–Yates on [a, b, c, d] with random() = 0 always picks j = 0: swap 3↔0 → [d, b, c, a],
//   swap 2↔0 → [c, b, d, a], swap 1↔0 → [b, c, d, a]. With random() just below 1, j = i: no swap.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { drawExercises, hashSeed, matchingExercises, mulberry32, shuffle } from '../../web/practice/draw.js';
import { REPO_ROOT } from './helpers.mjs';

// A five-exercise index a reader can filter by eye.
const INDEX = [
  { id: 'e-one', level: 'beginner', tags: ['labels', 'padding'] },
  { id: 'e-two', level: 'intermediate', tags: ['attention-mask'] },
  { id: 'e-three', level: 'advanced', tags: ['labels', 'loss'] },
  { id: 'e-four', level: 'beginner', tags: ['loss'] },
  { id: 'e-five', level: 'intermediate', tags: ['padding', 'attention-mask'] },
];
const ids = (entries) => entries.map((e) => e.id);

describe('hashSeed (FNV-1a, 32 bit)', () => {
  test('the empty string hashes to the offset basis', () => {
    assert.equal(hashSeed(''), 0x811c9dc5);
  });
  test('"a" hashes to 0xe40c292c (worked in the header)', () => {
    assert.equal(hashSeed('a'), 0xe40c292c);
  });
  test('always an unsigned 32-bit integer; different seeds differ', () => {
    for (const seed of ['x', 'seed-1', 'seed-2', 'ünïcode', 'a'.repeat(40)]) {
      const h = hashSeed(seed);
      assert.ok(Number.isInteger(h) && h >= 0 && h < 2 ** 32, `${seed}: ${h}`);
    }
    assert.notEqual(hashSeed('seed-1'), hashSeed('seed-2'));
  });
});

describe('mulberry32', () => {
  test('the same state gives the same sequence, every value in [0, 1)', () => {
    const a = mulberry32(12345);
    const b = mulberry32(12345);
    for (let i = 0; i < 1000; i += 1) {
      const x = a();
      assert.equal(x, b());
      assert.ok(x >= 0 && x < 1, String(x));
    }
  });
  test('different states give different sequences', () => {
    const a = mulberry32(1);
    const b = mulberry32(2);
    const first = Array.from({ length: 5 }, () => [a(), b()]);
    assert.ok(first.some(([x, y]) => x !== y));
  });
});

describe('shuffle (Fisher–Yates)', () => {
  test('random() = 0 always: [a, b, c, d] -> [b, c, d, a] (worked in the header)', () => {
    assert.deepEqual(shuffle(['a', 'b', 'c', 'd'], () => 0), ['b', 'c', 'd', 'a']);
  });
  test('random() just below 1: no swap, the order is kept', () => {
    assert.deepEqual(shuffle(['a', 'b', 'c', 'd'], () => 0.999999), ['a', 'b', 'c', 'd']);
  });
  test('does not change its input, and returns a permutation of it', () => {
    const input = ['a', 'b', 'c', 'd', 'e', 'f'];
    const out = shuffle(input, mulberry32(7));
    assert.deepEqual(input, ['a', 'b', 'c', 'd', 'e', 'f']);
    assert.deepEqual([...out].sort(), input);
  });
  test('empty and one-item lists', () => {
    assert.deepEqual(shuffle([], () => 0), []);
    assert.deepEqual(shuffle(['a'], () => 0), ['a']);
  });
  test('unbiased: over 4000 seeds each of 4 items comes first about a quarter of the time', () => {
    // Expected 1000 each; binomial sd = sqrt(4000·¼·¾) ≈ 27, so ±150 is > 5 sd. A classic
    // off-by-one (j = floor(random·i)) never leaves the last item in place and fails this badly.
    const firsts = { a: 0, b: 0, c: 0, d: 0 };
    for (let seed = 0; seed < 4000; seed += 1) firsts[shuffle(['a', 'b', 'c', 'd'], mulberry32(hashSeed(`s${seed}`)))[0]] += 1;
    for (const [item, count] of Object.entries(firsts)) assert.ok(Math.abs(count - 1000) < 150, `${item}: ${count}`);
  });
});

describe('matchingExercises', () => {
  test('no filter: everything, in index order', () => {
    assert.deepEqual(ids(matchingExercises(INDEX)), ['e-one', 'e-two', 'e-three', 'e-four', 'e-five']);
  });
  test('tags: any of the chosen tags', () => {
    assert.deepEqual(ids(matchingExercises(INDEX, { tags: ['labels'] })), ['e-one', 'e-three']);
    assert.deepEqual(ids(matchingExercises(INDEX, { tags: ['labels', 'attention-mask'] })), ['e-one', 'e-two', 'e-three', 'e-five']);
  });
  test('levels: any of the chosen levels', () => {
    assert.deepEqual(ids(matchingExercises(INDEX, { levels: ['beginner'] })), ['e-one', 'e-four']);
    assert.deepEqual(ids(matchingExercises(INDEX, { levels: ['beginner', 'advanced'] })), ['e-one', 'e-three', 'e-four']);
  });
  test('tags and levels together: both must hold', () => {
    // padding ∈ {e-one, e-five}; intermediate ∈ {e-two, e-five}; both: e-five.
    assert.deepEqual(ids(matchingExercises(INDEX, { tags: ['padding'], levels: ['intermediate'] })), ['e-five']);
  });
  test('nothing matches: an empty list', () => {
    assert.deepEqual(matchingExercises(INDEX, { tags: ['loss'], levels: ['intermediate'] }), []);
    assert.deepEqual(matchingExercises(INDEX, { tags: ['no-such-tag'] }), []);
  });
});

describe('drawExercises', () => {
  test('the same seed and filters give the same set, in the same order', () => {
    const a = drawExercises(INDEX, { n: 3, seed: 'interview-1' });
    const b = drawExercises(INDEX, { n: 3, seed: 'interview-1' });
    assert.deepEqual(a, b);
    assert.equal(a.ids.length, 3);
    assert.equal(new Set(a.ids).size, 3, 'no exercise twice');
  });

  test('the order of the index does not matter, only its content', () => {
    const reversed = [...INDEX].reverse();
    assert.deepEqual(drawExercises(reversed, { n: 5, seed: 'q' }), drawExercises(INDEX, { n: 5, seed: 'q' }));
  });

  test('different seeds give different orders (almost always)', () => {
    // 5! = 120 orders; 40 seeds landing on fewer than 20 distinct orders would mean the seed
    // barely reaches the generator.
    const orders = new Set();
    for (let i = 0; i < 40; i += 1) orders.add(drawExercises(INDEX, { n: 5, seed: `seed-${i}` }).ids.join(' '));
    assert.ok(orders.size >= 20, `${orders.size} distinct orders`);
  });

  test('filters are respected', () => {
    for (let i = 0; i < 20; i += 1) {
      const { ids: drawn, matching } = drawExercises(INDEX, { n: 10, tags: ['labels', 'loss'], levels: ['beginner', 'advanced'], seed: `f${i}` });
      // labels or loss: e-one, e-three, e-four; all three are beginner or advanced.
      assert.equal(matching, 3);
      assert.deepEqual([...drawn].sort(), ['e-four', 'e-one', 'e-three']);
    }
  });

  test('n is capped by how many match; nothing matching draws nothing', () => {
    assert.deepEqual(drawExercises(INDEX, { n: 10, levels: ['advanced'], seed: 'x' }), { ids: ['e-three'], matching: 1 });
    assert.deepEqual(drawExercises(INDEX, { n: 4, tags: ['nope'], seed: 'x' }), { ids: [], matching: 0 });
    assert.equal(drawExercises(INDEX, { n: 2, seed: 'x' }).ids.length, 2);
  });

  test('a smaller n is a prefix of a larger one with the same seed', () => {
    // The shuffle does not depend on n, so "3 exercises" is the first 3 of "5 exercises".
    const five = drawExercises(INDEX, { n: 5, seed: 'prefix' }).ids;
    assert.deepEqual(drawExercises(INDEX, { n: 3, seed: 'prefix' }).ids, five.slice(0, 3));
  });

  test('the compiled content: 10 distinct existing exercises for any seed', () => {
    const index = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'index.json'), 'utf8'));
    const known = new Set(index.map((e) => e.id));
    for (const seed of ['a', 'b', 'c']) {
      const { ids: drawn } = drawExercises(index, { n: 10, seed });
      assert.equal(drawn.length, Math.min(10, index.length));
      assert.equal(new Set(drawn).size, drawn.length);
      for (const id of drawn) assert.ok(known.has(id), id);
    }
  });
});
