// The native CLI on bad input: it answers, it never crashes.
//
// Contract (cpp/cli/main.cpp): any failure prints exactly ONE line on stderr,
// `masklab: <field>: <message>`, nothing on stdout, and exits 2 — never a signal, never a core
// dump, never a stack trace. Each case below names the field its line must mention: the place in
// the request a user would have to fix.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

import { CLI_PATH, runCli } from './helpers.mjs';

const ONE_ERROR_LINE = /^masklab: [^\n]+: [^\n]+\n$/;

function assertFailsCleanly(result, field) {
  assert.equal(result.signal, null, `killed by ${result.signal}: ${result.stderr}`);
  assert.equal(result.status, 2, `exit ${result.status}; stderr: ${result.stderr}`);
  assert.equal(result.stdout, '', 'nothing on stdout when failing');
  assert.match(result.stderr, ONE_ERROR_LINE, 'exactly one `masklab: <field>: <message>` line');
  if (field !== undefined) assert.ok(result.stderr.includes(field), `stderr should name ${field}: ${result.stderr}`);
}

const scratch = mkdtempSync(join(tmpdir(), 'masklab-cli-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

// logits [1][3][2] for a 3-token row; labels [1][3].
const LOGITS = [[[0, 1], [1, 0], [0.5, 0.5]]];

describe('bad requests name the field to fix', () => {
  test('malformed JSON (unterminated object)', () => {
    assertFailsCleanly(runCli('collate', '{"features": [{"input_ids": [1, 2]}'));
  });

  test('wrong shape: features is a number, not a list of rows', () => {
    assertFailsCleanly(runCli('collate', { features: 3, pad_token_id: 0 }), 'features');
  });

  test('wrong shape: logits are [B][T] instead of [B][T][V]', () => {
    assertFailsCleanly(runCli('loss', { logits: [[0.5, 1]], labels: [[1, 0]] }), 'logits');
  });

  test('ragged rows: the second logits row is one position short', () => {
    const request = { logits: [LOGITS[0], LOGITS[0].slice(0, 2)], labels: [[1, 0, 1], [1, 0, 1]] };
    assertFailsCleanly(runCli('loss', request), 'logits[1]');
  });

  test('id out of vocabulary: 7 in a vocabulary of 5 (ids 0..4)', () => {
    const request = { features: [{ input_ids: [1, 2, 7] }], pad_token_id: 0, vocab_size: 5 };
    assertFailsCleanly(runCli('collate', request), 'features[0].input_ids[2]');
  });

  test('NaN logits written as a Python-style NaN literal', () => {
    // JSON has no NaN; json.dumps writes it anyway. Either way the field is the logits.
    const json = '{"logits": [[[0, 1], [NaN, 0], [0.5, 0.5]]], "labels": [[1, 0, 1]]}';
    assertFailsCleanly(runCli('loss', json), 'logits');
  });

  test('max_length shorter than a row, without truncation', () => {
    const request = {
      features: [{ input_ids: [1, 2, 3, 4, 5] }],
      pad_token_id: 0,
      padding: 'max_length',
      max_length: 3,
      truncation: false,
    };
    assertFailsCleanly(runCli('collate', request), 'max_length');
  });

  test('pad_to_multiple_of 0', () => {
    const request = { features: [{ input_ids: [1, 2] }], pad_token_id: 0, pad_to_multiple_of: 0 };
    assertFailsCleanly(runCli('collate', request), 'pad_to_multiple_of');
  });

  test('empty input on stdin', () => {
    assertFailsCleanly(runCli('collate', ''));
  });

  test('100000 nested [ — refused, not a stack overflow', () => {
    assertFailsCleanly(runCli('loss', '['.repeat(100000)));
  });

  test('100000 nested [ inside a field', () => {
    assertFailsCleanly(runCli('collate', `{"features": ${'['.repeat(100000)}`));
  });
});

describe('bad invocations', () => {
  test('a 0-byte file', () => {
    const path = join(scratch, 'empty.json');
    writeFileSync(path, '');
    assertFailsCleanly(runCli('collate', null, [path]));
  });

  test('a missing file names the path', () => {
    const path = join(scratch, 'does-not-exist.json');
    assertFailsCleanly(runCli('collate', null, [path]), path);
  });

  test('a directory instead of a file names the path', () => {
    assertFailsCleanly(runCli('collate', null, [scratch]), scratch);
  });

  test('unknown command', () => {
    const result = runCli('frobnicate', { pad_token_id: 0 });
    assertFailsCleanly(result, 'command');
    assert.ok(result.stderr.includes('frobnicate'));
    assert.ok(result.stderr.includes('usage: masklab'), 'the line tells how to call masklab');
    assert.ok(result.stderr.includes('|chat|train [FILE]'), 'the short usage names every command, train too');
  });

  test('no arguments at all', () => {
    const result = runCli(null, null);
    assertFailsCleanly(result, 'command');
    assert.ok(result.stderr.includes('usage: masklab'));
  });

  test('two files', () => {
    assertFailsCleanly(runCli('collate', null, ['a.json', 'b.json']), 'arguments');
  });
});

describe('good invocations', () => {
  test('--help prints usage on stdout and exits 0', () => {
    const result = runCli('--help', null);
    assert.equal(result.status, 0);
    assert.equal(result.stderr, '');
    assert.match(result.stdout, /^usage: masklab collate\|loss\|accumulate\|attention\|inspect\|chat \[FILE\]/);
    // Every command is in the usage block at the top, the doctor with its flags.
    const usage = result.stdout.slice(0, result.stdout.indexOf('\n\n'));
    assert.match(usage, /\n {7}masklab train \[FILE\]\n {7}masklab doctor \[FILE\] \[flags\]$/);
  });

  test('COMMAND --help prints the same usage, not "cannot open file --help"', () => {
    for (const command of ['train', 'collate']) {
      const result = runCli(command, null, ['--help']);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stderr, '');
      assert.match(result.stdout, /^usage: masklab /);
      assert.match(result.stdout, /masklab train \[FILE\]/);
    }
  });

  test('a request from a file and from "-" (stdin) give the same answer', () => {
    // Two rows of 2 and 1 tokens, pad id 0: right-padded to T=2.
    const request = { features: [{ input_ids: [3, 4] }, { input_ids: [5] }], pad_token_id: 0 };
    const path = join(scratch, 'request.json');
    writeFileSync(path, JSON.stringify(request));
    const fromFile = runCli('collate', null, [path]);
    const fromStdin = runCli('collate', request, ['-']);
    assert.equal(fromFile.status, 0, fromFile.stderr);
    assert.equal(fromFile.stdout, fromStdin.stdout);
    assert.ok(fromFile.stdout.endsWith('}\n'), 'one JSON document and a newline');
    const answer = JSON.parse(fromFile.stdout);
    assert.deepEqual(answer.input_ids, [[3, 4], [5, 0]]);
    assert.deepEqual(answer.attention_mask, [[1, 1], [1, 0]]);
    assert.deepEqual(answer.labels, [[3, 4], [5, -100]]);
  });
});

describe('input is bounded and read the way editors write it', () => {
  // The core's byte bound (cpp/core/limits.hpp kMaxRequestBytes).
  const MAX_BYTES = 64 * 1024 * 1024;

  test('an endless stdin (/dev/zero) is refused once it passes the bound, not read to the end', () => {
    // Regression (issue 11): the CLI buffered all of stdin first and grew until bad_alloc.
    const zero = openSync('/dev/zero', 'r');
    try {
      const result = spawnSync(CLI_PATH, ['collate'], { stdio: [zero, 'pipe', 'pipe'], encoding: 'utf8', timeout: 60000 });
      assertFailsCleanly(result, 'stdin');
      assert.match(result.stderr, /is more than 67,108,864 bytes; at most that many are accepted \(the request is too large\)/);
    } finally {
      closeSync(zero);
    }
  });

  test('a file one byte over the bound is refused, naming the file', () => {
    const path = join(scratch, 'too-large.json');
    const head = '{"features": [{"input_ids": [1]}], "pad_token_id": 0';
    writeFileSync(path, head + ' '.repeat(MAX_BYTES - head.length) + '}');
    assertFailsCleanly(runCli('collate', null, [path]), path);
  });

  test('a file exactly at the bound is read', () => {
    const path = join(scratch, 'at-bound.json');
    const head = '{"features": [{"input_ids": [1]}], "pad_token_id": 0';
    writeFileSync(path, head + ' '.repeat(MAX_BYTES - head.length - 1) + '}');
    const result = runCli('collate', null, [path]);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout).input_ids, [[1]]);
  });

  test('a UTF-8 byte order mark before the JSON is accepted, from a file and from stdin', () => {
    // Regression (issue 11): Notepad-style files were refused as "unexpected character".
    const request = '\uFEFF{"features": [{"input_ids": [3]}], "pad_token_id": 0}';
    const path = join(scratch, 'bom.json');
    writeFileSync(path, request);
    for (const result of [runCli('collate', null, [path]), runCli('collate', request)]) {
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout).input_ids, [[3]]);
    }
    // Only at the very start: a BOM after a space is a stray character.
    assertFailsCleanly(runCli('collate', ' \uFEFF{}'), 'json');
  });

  test('invalid UTF-8 in a string is refused with the field named, never echoed', () => {
    const bytes = Buffer.concat([Buffer.from('{"text_features": ["ok", "caf'), Buffer.from([0xe9]), Buffer.from('"]}')]);
    const path = join(scratch, 'latin1.json');
    writeFileSync(path, bytes);
    const result = runCli('inspect', null, [path]);
    assertFailsCleanly(result, 'text_features[1]');
    assert.match(result.stderr, /is not valid UTF-8/);
  });
});
