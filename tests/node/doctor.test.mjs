// `masklab doctor` and core.doctor(): the CLI's contract (one JSON object on stdout and exit 0
// whatever it finds; exit 2 and one stderr line naming line and column on text it cannot read;
// its flags) and the same answer from the native CLI and the WebAssembly module on every fixture
// of tests/fixtures/doctor/. Which findings each fixture makes is pinned in C++
// (tests/cpp/test_doctor_fixtures.cpp); here: agreement, the contract, and that every exercise a
// finding links to exists.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { REPO_ROOT, assertSameAnswer, loadWasmDoctor, runCli, runWasmRaw } from './helpers.mjs';

const FIXTURES = join(REPO_ROOT, 'tests', 'fixtures', 'doctor');
const manifest = JSON.parse(readFileSync(join(FIXTURES, 'fixtures.json'), 'utf8'));

const FLAGS = { pad_token_id: '--pad-token-id', eos_token_id: '--eos-token-id', end_of_turn_id: '--end-of-turn-id' };
function flagsOf(options) {
  const args = [];
  for (const [key, value] of Object.entries(options)) {
    if (FLAGS[key]) args.push(FLAGS[key], String(value));
    else if (key === 'encoder' && value) args.push('--encoder');
    else if (key === 'prompt_completion' && value) args.push('--prompt-completion');
  }
  return args;
}

const core = await loadWasmDoctor();

for (const fixture of manifest.fixtures) {
  test(`CLI and wasm agree on ${fixture.file} ${JSON.stringify(fixture.options)}`, async (t) => {
    const path = join(FIXTURES, fixture.file);
    const text = readFileSync(path, 'utf8');
    const cli = runCli('doctor', null, [path, ...flagsOf(fixture.options)]);
    assert.equal(cli.status, 0, cli.stderr);
    assert.equal(cli.stderr, '');
    const wasm = await runWasmRaw('doctor', JSON.stringify({ text, ...fixture.options }));
    if (cli.stdout !== `${wasm}\n`) {
      t.diagnostic('native and wasm differ in the last digits');
      assertSameAnswer(JSON.parse(cli.stdout), JSON.parse(wasm));
    }
    const answer = core.doctor({ text, ...fixture.options });
    assert.deepEqual(answer, JSON.parse(wasm), 'core.doctor() returns the parsed answer');
    assert.deepEqual(Object.keys(answer), ['findings', 'checks_run', 'checks_skipped', 'figures']);
    for (const finding of answer.findings) {
      assert.deepEqual(Object.keys(finding), ['id', 'severity', 'rows', 'positions', 'message', 'fix', 'exercise']);
      assert.ok(['error', 'warning', 'info'].includes(finding.severity));
      if (finding.exercise !== null)
        assert.ok(existsSync(join(REPO_ROOT, 'content', 'exercises', `${finding.exercise}.yaml`)), `${finding.exercise} exists`);
    }
    for (const skipped of answer.checks_skipped) assert.deepEqual(Object.keys(skipped), ['id', 'needs']);
  });
}

test('findings do not change the exit status: a batch full of errors still exits 0', () => {
  const r = runCli('doctor', readFileSync(join(FIXTURES, 'pad-to-max-all-ones.txt'), 'utf8'), ['--pad-token-id', '2', '--eos-token-id=2']);
  assert.equal(r.status, 0, r.stderr);
  const answer = JSON.parse(r.stdout);
  assert.deepEqual(answer.findings.map((f) => f.severity).slice(0, 2), ['error', 'warning']);
});

test('text it cannot read: exit 2, one stderr line naming the file, line and column, nothing on stdout', () => {
  const dir = mkdtempSync(join(tmpdir(), 'masklab-doctor-'));
  try {
    const path = join(dir, 'batch.txt');
    writeFileSync(path, "{'input_ids': tensor([[1, 2, 3],\n        [4, 5]])}\n");
    const r = runCli('doctor', null, [path]);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      `masklab: ${path}: line 2, column 9: this list has 2 items but the first one at this depth has 3; a printed tensor is rectangular\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const fromStdin = runCli('doctor', '>>> print(batch)\n');
  assert.equal(fromStdin.status, 2);
  assert.equal(fromStdin.stderr, 'masklab: stdin: line 1, column 1: paste only what print(batch) printed, without the Python prompt\n');
});

test('flags: values are checked, unknown options and a second FILE refused, all with exit 2', () => {
  const batch = "{'input_ids': tensor([[1, 2]])}";
  for (const [args, stderr] of [
    [['--pad-token-id', 'x'], "masklab: --pad-token-id: expected a whole number, got 'x'\n"],
    [['--end-of-turn-id=-1'], "masklab: --end-of-turn-id: is -1; token ids must be >= 0\n"],
    [['--eos-token-id'], /^masklab: --eos-token-id: needs a token id after it; usage: masklab doctor/],
    [['--pad'], /^masklab: arguments: unknown option '--pad'; usage: masklab doctor \[FILE\]/],
    [['a.txt', 'b.txt'], /^masklab: arguments: expected at most one FILE/],
    [['/no/such/file'], /^masklab: \/no\/such\/file: cannot open file: /],
  ]) {
    const r = runCli('doctor', batch, args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    if (typeof stderr === 'string') assert.equal(r.stderr, stderr);
    else assert.match(r.stderr, stderr);
    assert.equal(r.stderr.split('\n').length, 2, 'exactly one line');
  }
});

test('every flag reaches the core: --encoder and --prompt-completion change what runs', () => {
  const text = readFileSync(join(FIXTURES, 'seq2seq-t5.txt'), 'utf8');
  const asDecoder = JSON.parse(runCli('doctor', text, ['--pad-token-id', '0', '--eos-token-id', '1']).stdout);
  const asEncoder = JSON.parse(runCli('doctor', text, ['--pad-token-id', '0', '--eos-token-id', '1', '--encoder']).stdout);
  assert.ok(asDecoder.findings.some((f) => f.id === 'shapes'));
  assert.ok(!asEncoder.findings.some((f) => f.id === 'shapes'));
  const sft = readFileSync(join(FIXTURES, 'seq2seq-sft.txt'), 'utf8');
  const plain = JSON.parse(runCli('doctor', sft, ['--eos-token-id', '2']).stdout);
  const promptCompletion = JSON.parse(runCli('doctor', sft, ['--eos-token-id', '2', '--prompt-completion']).stdout);
  assert.ok(plain.checks_skipped.some((s) => s.id === 'prompt-trained'));
  assert.ok(promptCompletion.checks_run.includes('prompt-trained'));
  const eot = JSON.parse(runCli('doctor', sft, ['--end-of-turn-id', '2']).stdout);
  assert.ok(eot.checks_run.includes('eos-masked'), 'an end-of-turn id alone lets the end-token checks run');
});

test('core.doctor() answers bad text and bad options as data, never by throwing', () => {
  const cut = core.doctor({ text: "{'input_ids': tensor([[1, 2," });
  assert.equal(cut.error.field, 'text');
  assert.match(cut.error.message, /^line 1, column 23: this list is never closed/); // the inner [ of [[1, 2,
  const badOption = core.doctor({ text: "{'input_ids': [[1]]}", eos_token_id: 1.5 });
  assert.equal(badOption.error.field, 'eos_token_id');
  const negative = core.doctor({ text: "{'input_ids': [[1]]}", pad_token_id: -1 });
  assert.deepEqual(negative.error, { field: 'pad_token_id', message: 'is -1; token ids must be >= 0' });
});
