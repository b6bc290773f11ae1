// exercise/related.js: the "Related exercises" after Check — ranked by shared topics, a rare topic
// weighing more than a common one (1 / the number of exercises that carry it), ties in list order.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { relatedExercises } from '../../web/exercise/related.js';
import { REPO_ROOT } from './helpers.mjs';

// Carriers: labels 3 (a, b, d), causal-shift 2 (a, c), loss, dpo and nan 1 each.
const INDEX = [
  { id: 'a', title: 'A', tags: ['labels', 'causal-shift'] },
  { id: 'b', title: 'B', tags: ['labels', 'loss'] },
  { id: 'c', title: 'C', tags: ['causal-shift', 'dpo'] },
  { id: 'd', title: 'D', tags: ['labels'] },
  { id: 'e', title: 'E', tags: ['nan'] },
];
const ids = (related) => related.map((r) => r.entry.id);

test('a rare shared topic outranks a common one; equal weights keep list order', () => {
  // For a: c shares causal-shift (1/2); b and d share labels (1/3 each), b first in the list.
  assert.deepEqual(ids(relatedExercises(INDEX, 'a')), ['c', 'b', 'd']);
  assert.deepEqual(relatedExercises(INDEX, 'a')[0].shared, ['causal-shift']);
  assert.deepEqual(ids(relatedExercises(INDEX, 'a', 2)), ['c', 'b']);
});

test('shared topics are listed rarest first; nothing shared or an unknown id lists nothing', () => {
  const both = [...INDEX, { id: 'f', title: 'F', tags: ['labels', 'causal-shift'] }];
  // f shares labels (now 4 carriers) and causal-shift (3): 1/3 + 1/4 puts it first for a.
  const first = relatedExercises(both, 'a')[0];
  assert.equal(first.entry.id, 'f');
  assert.deepEqual(first.shared, ['causal-shift', 'labels']);
  assert.deepEqual(relatedExercises(INDEX, 'e'), []);
  assert.deepEqual(relatedExercises(INDEX, 'nope'), []);
});

test('the real list: double-shift leads to the other causal-shift exercise; no exercise lists itself', () => {
  const index = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'index.json'), 'utf8'));
  // double-shift is tagged labels, causal-shift, loss; causal-shift is on two exercises (1/2),
  // while loss (1/9) and labels (1/14) together give any other exercise at most 0.18.
  assert.equal(relatedExercises(index, 'double-shift')[0].entry.id, 'dpo-shifted-completion-mask');
  for (const e of index) {
    const related = relatedExercises(index, e.id);
    assert.ok(related.length > 0 && related.length <= 3, `${e.id}: ${related.length} related`);
    for (const r of related) {
      assert.notEqual(r.entry.id, e.id);
      assert.ok(r.shared.length > 0 && r.shared.every((t) => e.tags.includes(t) && r.entry.tags.includes(t)), `${e.id} → ${r.entry.id}`);
    }
  }
});
