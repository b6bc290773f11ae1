// web/core/masklab.js, the JS API of the core module (chat.js and doctor.js share its face):
// loads once, plain objects in and out, and failures come back as { error: { field, message } }
// instead of exceptions.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { REPO_ROOT, loadWasmCore } from './helpers.mjs';
import { loadCore, version } from '../../web/core/masklab.js';

test('loadCore() loads the module once and returns a frozen API with its commands', async () => {
  const core = await loadWasmCore();
  assert.equal(await loadCore(), core, 'a second call returns the same object');
  assert.ok(Object.isFrozen(core));
  assert.deepEqual(Object.keys(core).sort(), ['accumulate', 'attention', 'collate', 'inspect', 'loss']);
});

test('collate returns a plain object', async () => {
  const core = await loadWasmCore();
  // Rows of 3 and 1 tokens, pad id 0, right padding to T=3; labels -100 where padded.
  const batch = core.collate({ features: [{ input_ids: [5, 6, 7] }, { input_ids: [8] }], pad_token_id: 0 });
  assert.deepEqual(batch.input_ids, [[5, 6, 7], [8, 0, 0]]);
  assert.deepEqual(batch.attention_mask, [[1, 1, 1], [1, 0, 0]]);
  assert.deepEqual(batch.labels, [[5, 6, 7], [8, -100, -100]]);
});

test('a bad request is answered with an error, not thrown', async () => {
  const core = await loadWasmCore();
  const answer = core.collate({ features: [{ input_ids: [1, 2] }], pad_token_id: 0, pad_to_multiple_of: 0 });
  assert.equal(typeof answer.error.field, 'string');
  assert.ok(answer.error.field.includes('pad_to_multiple_of'), answer.error.field);
  assert.ok(answer.error.message.length > 0);
});

test('a request JSON cannot encode is answered with an error on "request"', async () => {
  const core = await loadWasmCore();
  const answer = core.collate({ features: [{ input_ids: [1n] }], pad_token_id: 0 });
  assert.equal(answer.error.field, 'request');
  assert.match(answer.error.message, /JSON/);
});

test('version matches package.json', () => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  assert.equal(version, pkg.version);
});
