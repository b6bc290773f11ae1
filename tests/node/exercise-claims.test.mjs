// One executable-claim test per exercise: its "see it break" configurations run through the wasm
// core, and every claim its explanation makes must hold — for the buggy batch (the symptom) and,
// where the claim says so, for the fixed one (the fix removes it). The content build runs the same
// check; this file makes each exercise a named test, so a failure says which exercise and claim.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { parse } from 'yaml';

import { runSeeItBreak } from '../../scripts/content/check-with-core.mjs';
import { evaluateClaims } from '../../web/shared/claims.js';
import { REPO_ROOT, loadWasmCommands } from './helpers.mjs';

const dir = join(REPO_ROOT, 'content', 'exercises');
const exercises = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => parse(readFileSync(join(dir, f), 'utf8')));

test('the bank has at least 16 exercises, each with claims on both sides', () => {
  // 20 before issue 10 merged four duplicates into two survivors; new exercises only add to it.
  assert.ok(exercises.length >= 16, `${exercises.length} exercises`);
  for (const ex of exercises) {
    assert.ok(ex.claims?.length >= 1, `${ex.id} has no claim`);
    assert.ok(ex.claims.some((c) => c.buggy), `${ex.id}: no claim about the buggy batch`);
    assert.ok(ex.claims.some((c) => c.fixed), `${ex.id}: no claim that the fix removes the symptom`);
  }
});

for (const ex of exercises) {
  test(`${ex.id}: every claim holds when the core runs its buggy and fixed batches`, async () => {
    const core = await loadWasmCommands();
    const { buggy, fixed } = runSeeItBreak(ex, core);
    assert.equal(buggy.error, undefined, `buggy batch: ${JSON.stringify(buggy.error)}`);
    assert.equal(fixed.error, undefined, `fixed batch: ${JSON.stringify(fixed.error)}`);
    const results = evaluateClaims(ex.claims, buggy, fixed, {
      buggyRequest: ex.see_it_break.buggy,
      fixedRequest: ex.see_it_break.fixed,
    });
    assert.equal(results.length, ex.claims.length);
    for (const r of results) assert.ok(r.ok, `claim "${r.text}" does not hold: ${JSON.stringify(r.details)}`);
  });
}
