// line-pool.test.mjs — the worker pool behind `npm run chat-masks` (scripts/chat/line-pool.mjs):
// results in line order whatever the number of threads, a line over the time limit or one whose
// thread dies skipped and named while the lines after it are still checked, a thread that cannot
// start ending the check with its reason. The worker is tests/fixtures/line-pool/worker.mjs.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { linePool } from '../../scripts/chat/line-pool.mjs';
import { REPO_ROOT } from './helpers.mjs';

const SCRIPT = join(REPO_ROOT, 'tests', 'fixtures', 'line-pool', 'worker.mjs');

async function* numbered(texts) {
  for (const [i, text] of texts.entries()) yield [i + 1, text];
}

async function run(texts, { threads = 2, limitMs = 10_000, workerData = {} } = {}) {
  const results = [];
  const pool = linePool({
    script: SCRIPT,
    workerData,
    threads,
    limitMs,
    stopped: (lineNo, why) => `${lineNo} stopped: ${why}`,
    onResult: (r) => results.push(r),
  });
  const started = performance.now();
  await pool.check(numbered(texts));
  return { results, ms: performance.now() - started };
}

const expected = (texts, stoppedLines = {}) => texts.map((t, i) => stoppedLines[i + 1] ?? `${i + 1}:${t.toUpperCase()}`);

describe('line pool', () => {
  test('300 lines on 1, 2 and 3 threads come back in line order', async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `line ${i}`);
    for (const threads of [1, 2, 3]) assert.deepEqual((await run(texts, { threads })).results, expected(texts), `${threads} threads`);
  });

  test('no lines, no results', async () => {
    assert.deepEqual((await run([])).results, []);
  });

  test('a line over the time limit is skipped and named; the lines after it, in its chunk and later, are still checked', async () => {
    const texts = Array.from({ length: 120 }, (_, i) => (i === 39 ? 'hang' : `line ${i}`));
    const { results, ms } = await run(texts, { threads: 2, limitMs: 300 });
    assert.deepEqual(results, expected(texts, { 40: '40 stopped: time' }));
    assert.ok(ms < 8000, `took ${ms} ms`);
  });

  test('two hanging lines in a row on one thread: both skipped, each after its own limit', async () => {
    const texts = ['a', 'hang', 'hang', 'b'];
    const { results, ms } = await run(texts, { threads: 1, limitMs: 300 });
    assert.deepEqual(results, expected(texts, { 2: '2 stopped: time', 3: '3 stopped: time' }));
    assert.ok(ms >= 600, `the second line had its own ${300} ms: ${ms} ms in all`);
  });

  test('a thread that dies on a line: that line is skipped with the reason, the rest checked', async () => {
    const texts = ['a', 'b', 'die', 'c', 'd'];
    assert.deepEqual((await run(texts, { threads: 1 })).results, expected(texts, { 3: '3 stopped: it stopped (exit code 7)' }));
  });

  test('a thread that cannot start ends the check with its reason', async () => {
    await assert.rejects(run(['a', 'b'], { workerData: { failToStart: true } }), /a worker thread could not start: no tokenizer here/);
  });
});
