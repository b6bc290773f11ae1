// web/exercise/scoring.js — H5P "Mark the Words" scoring on units: found − wrong, floored at 0.
// A hand-built passage: 6 units; error 0 = units 1, 2; error 1 = unit 4; near miss 0 = unit 5.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { scoreMarks, solutionUnits } from '../../web/exercise/scoring.js';

const unit = (error, nearMiss = null) => ({ text: 'w', ws: ' ', error, near_miss: nearMiss });
const exercise = {
  passage: { units: [unit(null), unit(0), unit(0), unit(null), unit(1), unit(null, 0)] },
  errors: [{ units: [1, 2] }, { units: [4] }],
  near_misses: [{ units: [5] }],
};

test('one marked word of a multi-word error finds it; the others show nothing', () => {
  const s = scoreMarks(exercise, new Set([2]));
  assert.deepEqual(s.found, [true, false]);
  assert.equal(s.score, 1); // 1 found − 0 wrong
  assert.equal(s.maxScore, 2);
  assert.deepEqual([...s.unitResults], [[2, 'correct'], [4, 'missed']]);
});

test('score = found − wrong; wrong marks are listed; near misses are recognised', () => {
  const s = scoreMarks(exercise, new Set([1, 4, 5]));
  assert.equal(s.foundCount, 2);
  assert.deepEqual(s.wrongUnits, [5]);
  assert.equal(s.score, 1); // 2 − 1
  assert.deepEqual(s.nearMissesMarked, [0]);
});

test('the score never drops below 0', () => {
  const s = scoreMarks(exercise, new Set([0, 3, 5]));
  assert.equal(s.foundCount, 0);
  assert.equal(s.wrongUnits.length, 3);
  assert.equal(s.score, 0); // max(0 − 3, 0)
  assert.deepEqual([...s.unitResults].sort(), [[0, 'wrong'], [1, 'missed'], [2, 'missed'], [3, 'wrong'], [4, 'missed'], [5, 'wrong']]);
});

test('nothing marked: every error is missed, score 0', () => {
  const s = scoreMarks(exercise, new Set());
  assert.equal(s.score, 0);
  assert.deepEqual(s.found, [false, false]);
});

test('the solution marks every unit of every error', () => {
  assert.deepEqual([...solutionUnits(exercise)].sort(), [1, 2, 4]);
});
