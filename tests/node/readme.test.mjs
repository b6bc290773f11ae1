// The README's CLI examples are executed here, so the page and the program cannot drift apart
// (the nlohmann/json habit). Each example is a ```sh block running
// `build/native/masklab <command> <<'EOF'` … `EOF`; the fenced block that follows holds what it
// prints: ```json (the answer, compared as parsed JSON), ```text (the one stderr line of a
// failure, which must exit 2) or ```jsonl (one pattern per printed line, `…` standing for any
// text: `masklab train` prints a trained model's numbers). An example followed by none of these
// must simply succeed.
// The expected values in the README were worked out by hand there, next to each example.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { REPO_ROOT, runCli } from './helpers.mjs';

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

function examples(markdown) {
  const fences = [...markdown.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], body: m[2] }));
  const out = [];
  fences.forEach((fence, i) => {
    // `masklab doctor` takes flags before the heredoc: `--pad-token-id 2`.
    const run = fence.lang === 'sh' && fence.body.match(/^build\/native\/masklab (\w+)((?: --[\w-]+(?: \d+)?)*) <<'EOF'\n([\s\S]*?)\nEOF\n$/);
    if (!run) return;
    const next = fences[i + 1];
    const expected = next && ['json', 'text', 'jsonl'].includes(next.lang) ? next : null;
    out.push({ command: run[1], args: run[2].trim() ? run[2].trim().split(' ') : [], request: run[3], expected });
  });
  return out;
}

const found = examples(readme);

// A ```jsonl line as a regular expression: the text literally, each … matching anything.
function linePattern(line) {
  const literal = (part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${line.split('…').map(literal).join('.*?')}$`);
}

test('the README has an example for every subcommand', () => {
  const commands = new Set(found.map((e) => e.command));
  for (const c of ['collate', 'loss', 'accumulate', 'attention', 'inspect', 'chat', 'train', 'doctor']) assert.ok(commands.has(c), `no ${c} example`);
});

for (const [i, example] of found.entries()) {
  test(`README example ${i + 1}: masklab ${example.command}`, () => {
    const r = runCli(example.command, example.request, example.args);
    if (example.expected?.lang === 'text') {
      assert.equal(r.status, 2);
      assert.equal(r.stderr.trim(), example.expected.body.trim());
      assert.equal(r.stdout, '');
      return;
    }
    assert.equal(r.status, 0, r.stderr);
    if (example.expected?.lang === 'jsonl') {
      const patterns = example.expected.body.trim().split('\n');
      const lines = r.stdout.trim().split('\n');
      assert.equal(lines.length, patterns.length, 'one printed line per pattern line');
      patterns.forEach((pattern, k) => assert.match(lines[k], linePattern(pattern), `line ${k + 1}`));
      return;
    }
    const answer = JSON.parse(r.stdout);
    if (example.expected) assert.deepEqual(answer, JSON.parse(example.expected.body));
    else assert.equal(answer.error, undefined);
  });
}
