// `masklab train` and the Train page's wasm module (masklab_train) under node:
// - the CLI's JSON-lines contract (issue 9): one line per logged step and run with exactly step,
//   run, train_loss, real_loss, eval_loss; a last "final" line whose runs carry eval_loss and
//   eos_prob_at_end; bad settings exit 2 with one line naming the field, before any output;
// - the wasm module gives the same curve as the native CLI for the same settings;
// - the page's settings (web/train/train-state.js) are what the core accepts, its bug list is the
//   core's, and every bug has an exercise whose `train` field names it.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { REPO_ROOT, loadTrainModule, runCli } from './helpers.mjs';
import { BUG_TEXT } from '../../web/train/bugs.js';
import { BUGS, TRAIN_STATE, toSettings } from '../../web/train/train-state.js';

function train(settings) {
  const r = runCli('train', settings);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').map((line) => JSON.parse(line));
}

test('masklab train prints a line per logged step and run, then the final line', () => {
  const lines = train({ bug: 'pad_eos_masked', steps: 25, log_every: 10, seed: 4 });
  // Logged at steps 10, 20 and the last step, 25: buggy then fixed, then the final line.
  assert.equal(lines.length, 7);
  assert.deepEqual(
    lines.slice(0, 6).map((l) => [l.step, l.run]),
    [[10, 'buggy'], [10, 'fixed'], [20, 'buggy'], [20, 'fixed'], [25, 'buggy'], [25, 'fixed']],
  );
  for (const line of lines.slice(0, 6)) {
    assert.deepEqual(Object.keys(line), ['step', 'run', 'train_loss', 'real_loss', 'eval_loss']);
    for (const key of ['train_loss', 'real_loss', 'eval_loss']) assert.ok(Number.isFinite(line[key]) && line[key] > 0, key);
  }
  const { final } = lines[6];
  assert.deepEqual(Object.keys(lines[6]), ['final']);
  for (const run of ['buggy', 'fixed']) {
    const last = lines[run === 'buggy' ? 4 : 5];
    assert.equal(final[run].steps, 25);
    assert.equal(final[run].eval_loss, last.eval_loss);
    assert.equal(final[run].train_loss, last.train_loss);
    assert.ok(final[run].eos_prob_at_end > 0 && final[run].eos_prob_at_end < 1);
    assert.equal(final[run].samples.length, 4);
    assert.match(final[run].samples[0].prompt, /^<bos> \w+ \d :$/);
  }
  // The fixed collator is the definition of "real targets": its two losses are one number.
  for (const line of lines.filter((l) => l.run === 'fixed')) assert.equal(line.train_loss, line.real_loss);
});

test('masklab train reads its settings from a file too, and the same settings give the same lines', () => {
  const settings = { bug: 'all_ones_mask', steps: 12, log_every: 6 };
  const dir = mkdtempSync(join(tmpdir(), 'masklab-train-'));
  const file = join(dir, 'settings.json');
  writeFileSync(file, JSON.stringify(settings));
  const first = runCli('train', null, [file]);
  rmSync(dir, { recursive: true, force: true });
  const again = runCli('train', settings);
  assert.equal(first.status, 0, first.stderr);
  assert.equal(first.stdout, again.stdout, 'deterministic to the byte');
  // Right padding: the all-ones mask cannot change anything a real token computes.
  const lines = first.stdout.trim().split('\n').map((l) => JSON.parse(l));
  for (const step of [6, 12]) {
    const [b, f] = lines.filter((l) => l.step === step);
    assert.deepEqual({ ...b, run: 'fixed' }, f);
  }
});

test('bad settings exit 2 with one line naming the field, and print nothing else', () => {
  const cases = [
    [{}, 'bug'],
    [{ bug: 'pads_are_trained' }, 'bug'],
    [{ bug: 'pads_trained', steps: 0 }, 'steps'],
    [{ bug: 'pads_trained', lr: -1 }, 'lr'],
    [{ bug: 'pads_trained', model: 'large' }, 'model'],
    [{ bug: 'pads_trained', typo: 1 }, 'typo'],
    ['{"bug": "pads_trained"', 'json'],
  ];
  for (const [settings, field] of cases) {
    const r = runCli('train', settings);
    assert.equal(r.status, 2, JSON.stringify(settings));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`^masklab: ${field}: [^\\n]+\\n$`));
  }
  // A number is quoted as the user wrote it, not as C's %f prints it (-1.000000, 0.000000).
  assert.equal(runCli('train', { bug: 'pads_trained', lr: -1 }).stderr, 'masklab: lr: is -1; expected a learning rate above 0 and at most 0.1\n');
  assert.match(runCli('train', { bug: 'pads_trained', lr: 0.5 }).stderr, /^masklab: lr: is 0\.5; /);
});

test('the wasm module trains the same curve as the native CLI (same seed, same settings)', async () => {
  // Both builds run the same float32 operations in the same order (no reassociated sums, our own
  // random numbers), so they agree far closer than the 1e-9 relative tolerance allowed here for
  // a libm that might round an exp differently; today they agree to the last bit.
  const settings = { bug: 'left_pad_arange_positions', steps: 60, seed: 7, log_every: 20 };
  const native = train(settings);
  const core = await loadTrainModule();
  for (const run of ['buggy', 'fixed']) {
    const started = JSON.parse(core.start(JSON.stringify(settings), run));
    assert.equal(started.steps, 60);
    const { lines, stepsDone } = core.advance(1000);
    assert.equal(stepsDone, 60);
    const expected = native.filter((l) => l.run === run);
    assert.equal(lines.length, expected.length * 5);
    expected.forEach((line, i) => {
      assert.equal(lines[i * 5], line.step);
      for (const [k, key] of [[1, 'train_loss'], [2, 'real_loss'], [3, 'eval_loss']])
        assert.ok(Math.abs(lines[i * 5 + k] - line[key]) <= 1e-9 * Math.abs(line[key]), `${run} step ${line.step} ${key}`);
    });
    const final = native.at(-1).final[run];
    assert.ok(Math.abs(lines.at(-1) - final.eos_prob_at_end) <= 1e-9);
  }
});

test('the wasm module answers bad settings with an error value, never an exception', async () => {
  const core = await loadTrainModule();
  const answer = JSON.parse(core.start(JSON.stringify({ bug: 'pads_trained', steps: 99999 }), 'buggy'));
  assert.equal(answer.error.field, 'steps');
  assert.equal(core.advance(5).error.field, 'run', 'no run is left behind by a refused start');
  assert.equal(JSON.parse(core.start('{"bug": "pads_trained"}', 'sideways')).error.field, 'run');
});

test('the page’s settings are what the core accepts; its bug list is the core’s', async () => {
  const core = await loadTrainModule();
  const defaults = toSettings(TRAIN_STATE.defaults());
  for (const bug of BUGS) {
    const answer = JSON.parse(core.start(JSON.stringify({ ...defaults, bug }), 'fixed'));
    assert.equal(answer.error, undefined, `${bug}: ${JSON.stringify(answer.error)}`);
    assert.equal(answer.steps, 300);
  }
  // The core's list of names, as its error message gives it.
  const refused = JSON.parse(core.start(JSON.stringify({ bug: 'nope' }), 'fixed'));
  const coreNames = refused.error.message.match(/[a-z_]+_[a-z_]+/g).filter((name) => name !== 'nope');
  assert.deepEqual([...BUGS].sort(), [...new Set(coreNames)].sort());
  assert.deepEqual(Object.keys(BUG_TEXT).sort(), [...BUGS].sort());
});

test('exercises say which bug the Train page can run for them; every bug has one, by the core’s names', () => {
  const schema = JSON.parse(readFileSync(join(REPO_ROOT, 'content', 'schema', 'exercise.schema.json'), 'utf8'));
  assert.deepEqual([...schema.properties.train.properties.bug.enum].sort(), [...BUGS].sort(), 'the schema lists the core’s bugs');
  const index = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'index.json'), 'utf8'));
  for (const bug of BUGS) assert.ok(index.some((e) => e.train_bug === bug), `no exercise links to ${bug}`);
  for (const e of index) if (e.train_bug !== undefined) assert.ok(BUGS.includes(e.train_bug), `${e.id}: ${e.train_bug}`);
});
