// The limits of cpp/core/limits.hpp hold on both sides: for every command, the largest request it
// accepts is answered and a request just over a limit is refused with a clear message — by the
// native CLI and by the WebAssembly module, which must answer, not abort, at its 2 GB ceiling.
//
// The requests are masklab_bench's limit cases (scripts/bench/bench_native.cpp), built from the
// limits' own constants, so this suite follows a change of limit; `npm run bench` prints their
// time and memory. Here only the outcome is asserted: answered or refused, and how.
//
// Two commands are not JSON requests to the core module: `doctor` reads pasted text (the doctor's
// own limits, cpp/core/printed_batch.hpp) and `train` streams a run from the Train page's module.
// train-largest (3,000 steps of the medium model, about a minute natively) is run by the bench
// only; here its settings are shown to be accepted and to train, and one step more refused.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

import { CLI_PATH, REPO_ROOT, loadTrainModule, loadWasmCore, loadWasmFor } from './helpers.mjs';

const BENCH = join(REPO_ROOT, 'build', 'native', 'masklab_bench');
const CASES = execFileSync(BENCH, ['--cases'], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .map((line) => {
    const [name, command, outcome] = line.split(' ');
    return { name, command, answered: outcome === 'answered' };
  });
const scratch = mkdtempSync(join(tmpdir(), 'masklab-limits-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

// Each case's request is printed once, into the scratch dir: the CLI reads that file and the
// module its text (the largest requests are megabytes of JSON; printing each one twice cost
// several seconds of CPU, issue 11).
const requestPath = (name) => {
  const path = join(scratch, `${name}.json`);
  if (!existsSync(path)) writeFileSync(path, execFileSync(BENCH, ['--print', name], { encoding: 'utf8', maxBuffer: 1 << 28 }).trimEnd());
  return path;
};
const request = (name) => readFileSync(requestPath(name), 'utf8');

// What a refusal must say: the field, and which side is too large (train: the steps' range).
function assertRefusal(error, name) {
  assert.equal(typeof error.field, 'string', name);
  assert.ok(error.field.length > 0, `${name}: a field is named`);
  if (name.startsWith('train-')) {
    assert.equal(error.field, 'steps', name);
    assert.match(error.message, /^is 3001; expected 1 to 3000$/, name);
  } else {
    assert.match(error.message, /too large/, `${name}: ${error.message}`);
  }
}

const BENCH_ONLY = new Set(['train-largest']);

test('every command has a largest-accepted case and an over-limit case', () => {
  for (const command of ['collate', 'loss', 'accumulate', 'attention', 'inspect', 'chat', 'doctor', 'train']) {
    assert.ok(CASES.some((c) => c.command === command && c.answered), `${command}: largest accepted`);
    assert.ok(CASES.some((c) => c.command === command && !c.answered), `${command}: over a limit`);
  }
});

describe('the native CLI', () => {
  for (const c of CASES.filter(({ name }) => !BENCH_ONLY.has(name))) {
    test(`${c.name}: ${c.answered ? 'answered' : 'refused'}`, () => {
      const path = requestPath(c.name);
      const result = spawnSync(CLI_PATH, [c.command, path], { encoding: 'utf8', maxBuffer: 1 << 28 });
      assert.equal(result.signal, null, `${c.name}: killed by ${result.signal}`);
      if (c.answered) {
        assert.equal(result.status, 0, result.stderr);
        assert.equal(typeof JSON.parse(result.stdout.split('\n').filter(Boolean).at(-1)), 'object');
      } else {
        assert.equal(result.status, 2, result.stderr);
        assert.equal(result.stdout, '');
        const [, field, message] = /^masklab: ([^:]+(?::[^ ][^:]*)*): (.*)\n$/.exec(result.stderr) ?? [];
        assertRefusal({ field, message }, c.name);
      }
    });
  }
});

// The answer of the module that runs a case's command: the doctor takes the pasted text as it is.
function wasmAnswer(module, c) {
  const text = request(c.name);
  return JSON.parse(c.command === 'doctor' ? module.doctorJson(text, '{}') : module.runJson(c.command, text));
}

describe('the WebAssembly module', () => {
  for (const c of CASES.filter(({ command }) => command !== 'train')) {
    test(`${c.name}: ${c.answered ? 'answered' : 'refused'}`, async () => {
      const answer = wasmAnswer(await loadWasmFor(c.command), c);
      if (c.answered) assert.equal(answer.error, undefined, JSON.stringify(answer.error));
      else assertRefusal(answer.error, c.name);
    });
  }

  test('loss-largest through core.loss (the typed path a page takes) equals the JSON path', async () => {
    const core = await loadWasmCore();
    const text = request('loss-largest');
    const viaJson = JSON.parse(core.runJson('loss', text));
    const viaCore = core.loss(JSON.parse(text));
    assert.equal(viaCore.error, undefined);
    assert.equal(viaCore.loss, viaJson.loss);
    assert.deepEqual(viaCore.per_token, viaJson.per_token);
  });

  test('train: the largest settings start and train in the Train page\'s module; one step more is refused', async () => {
    const train = await loadTrainModule();
    const started = JSON.parse(train.start(request('train-largest'), 'buggy'));
    assert.equal(started.error, undefined, JSON.stringify(started.error));
    const advanced = train.advance(3);
    assert.equal(advanced.error, undefined, JSON.stringify(advanced.error));
    const refused = JSON.parse(train.start(request('train-over'), 'buggy'));
    assertRefusal(refused.error, 'train-over');
  });
});
