// chat-masks-cli.test.mjs — `npm run chat-masks` as an engineer runs it: the README's examples
// (each ```sh block running `npm run -s chat-masks -- …` and the ```text block after it, compared
// line by line with the time taken masked), the exit statuses, and the planted problems in the
// fixture files named by their line numbers.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { REPO_ROOT } from './helpers.mjs';

const SCRIPT = join(REPO_ROOT, 'scripts', 'chat', 'chat-masks.mjs');
const FIXTURES = 'tests/fixtures/chat';

function run(args) {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return r;
}

const untimed = (text) => text.trim().replace(/; \d+\.\d\d s$/gm, '; (time) s');

function readmeExamples() {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const fences = [...readme.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], body: m[2] }));
  const out = [];
  fences.forEach((fence, i) => {
    const m = fence.lang === 'sh' && fence.body.match(/^npm run -s chat-masks -- (.*)\n$/);
    if (m && fences[i + 1]?.lang === 'text') out.push({ args: m[1].split(' '), expected: fences[i + 1].body });
  });
  return out;
}

describe('the README examples', () => {
  const examples = readmeExamples();
  test('there are two', () => assert.equal(examples.length, 2));
  for (const [i, e] of examples.entries()) {
    test(`example ${i + 1}: ${e.args.join(' ')}`, () => {
      const r = run(e.args);
      assert.equal(untimed(r.stdout), untimed(e.expected));
      assert.equal(r.status, e.args.includes('--max-length') ? 1 : 0, r.stderr);
    });
  }
});

describe('the planted bad conversation and unreadable lines', () => {
  test('exit 1 names the line whose assistant turn has no trained token', () => {
    const r = run(['--family', 'qwen3', '--max-length', '64', `${FIXTURES}/sft-sample.jsonl`]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /sft-sample\.jsonl:3: error: assistant_turn_untrained: message 2 \(assistant\)/);
    // The other conversations still print their counts: 3 trained tokens in the one-turn ones.
    assert.match(r.stdout, /sft-sample\.jsonl:1: 29 tokens, 3 trained; assistant turns \(trained\/tokens\): 3\/11/);
  });

  test('training only the last turn leaves the first answer of the two-turn conversation untrained', () => {
    const r = run(['--family', 'llama3_1', '--target', 'last_assistant', '--quiet', `${FIXTURES}/sft-sample.jsonl`]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /sft-sample\.jsonl:2: error: assistant_turn_untrained: message 2 \(assistant\) has no trained token — only the last assistant turn is a target\./);
  });

  test('every unreadable line is named, and the status is 2', () => {
    const r = run(['--family', 'qwen3', `${FIXTURES}/sft-unreadable.jsonl`]);
    assert.equal(r.status, 2);
    const lines = r.stderr.trim().split('\n');
    assert.match(lines[0], /sft-unreadable\.jsonl:2: error: not JSON/);
    assert.match(lines[1], /sft-unreadable\.jsonl:3: error: message 2: role "bot" is not one of/);
    assert.match(lines[2], /sft-unreadable\.jsonl:4: error: message 2 \(assistant\) is empty/);
    assert.equal(lines[3], `${FIXTURES}/sft-unreadable.jsonl:5: error: found "prompt" without "completion": SFT data pairs a prompt with its completion`);
    assert.match(r.stdout, /1 conversation, .* 4 lines not checked/);
  });

  test('a template that rejects the role order names the message', () => {
    const r = run(['--family', 'gemma3', `${FIXTURES}/sft-roles.jsonl`]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /sft-roles\.jsonl:1: error: the chat template refused message 2 \(user\): Conversation roles must alternate/);
  });

  test('bad arguments', () => {
    for (const [args, message] of [
      [['--family', 'nope', 'x.jsonl'], /--family "nope" is not one of/],
      [['--family', 'qwen3'], /FILE is required/],
      [['--family', 'qwen3', '--target', 'some', 'x.jsonl'], /--target "some" is not one of/],
      [['--family', 'qwen3', 'missing.jsonl'], /missing\.jsonl: no such file/],
      [['--family', 'qwen3', '--eos-token', '<|nope|>', `${FIXTURES}/sft-sample.jsonl`], /is not a token of Qwen3/],
      [['--family', 'qwen3', '--jobs', '0', `${FIXTURES}/sft-sample.jsonl`], /--jobs must be a whole number from 1 to 16/],
      [['--family', 'gptoss', '--date', '2025-02-30', `${FIXTURES}/sft-sample.jsonl`], /--date "2025-02-30" is not a date/],
      [['--family', 'qwen3', '--time-limit', '0', `${FIXTURES}/sft-sample.jsonl`], /--time-limit must be a number of seconds above 0/],
    ]) {
      const r = run(args);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, message);
    }
  });
});

describe('worker threads', () => {
  test('--jobs 2 prints exactly what --jobs 1 prints, in line order, with the same status', () => {
    for (const file of ['sft-sample.jsonl', 'sft-unreadable.jsonl']) {
      const one = run(['--family', 'qwen3', '--max-length', '64', '--jobs', '1', `${FIXTURES}/${file}`]);
      const two = run(['--family', 'qwen3', '--max-length', '64', '--jobs', '2', `${FIXTURES}/${file}`]);
      assert.equal(untimed(two.stdout), untimed(one.stdout), file);
      assert.equal(two.stderr, one.stderr, file);
      assert.equal(two.status, one.status, file);
    }
  });

  test('gpt-oss with --date prints that date into its system message (the turns count it as template text)', () => {
    const a = run(['--family', 'gptoss', '--date', '2025-08-05', `${FIXTURES}/sft-sample.jsonl`]);
    const b = run(['--family', 'gptoss', '--date', '2031-01-09', `${FIXTURES}/sft-sample.jsonl`]);
    assert.equal(a.status, 0, a.stderr);
    const trained = (r) => r.stdout.split('\n').filter((l) => /jsonl:\d+: \d+ tokens, /.test(l)).map((l) => l.replace(/: \d+ tokens, /, ': '));
    assert.equal(trained(a).length, 4);
    assert.deepEqual(trained(b), trained(a));
  });
});

describe('the progress line', () => {
  const CLEAR = '\r\x1b[K';
  const PROGRESS = /^chat-masks: (\d+) % read, checked to line ([\d,]+)(, [\d,]+ conversations\/s)?$/;
  // 240 copies of the sample's first conversation with a line that is not JSON after the 100th.
  function bigFile() {
    const dir = mkdtempSync(join(tmpdir(), 'masklab-progress-'));
    const file = join(dir, 'many.jsonl');
    const first = readFileSync(join(REPO_ROOT, FIXTURES, 'sft-sample.jsonl'), 'utf8').split('\n')[0];
    const lines = Array.from({ length: 240 }, () => first);
    lines.splice(100, 0, '{"messages": [');
    writeFileSync(file, `${lines.join('\n')}\n`);
    return { file, dir };
  }

  for (const jobs of ['1', '2']) {
    test(`--progress (--jobs ${jobs}): redrawn on stderr, erased before every other line and at the end; stdout as without it`, () => {
      const { file, dir } = bigFile();
      try {
        const args = ['--family', 'qwen3', '--quiet', '--jobs', jobs, file];
        const plain = run(args);
        const shown = run(['--progress', ...args]);
        assert.equal(shown.status, 2);
        assert.equal(untimed(shown.stdout), untimed(plain.stdout), 'stdout does not change');
        assert.ok(!plain.stderr.includes('\r'), 'no progress line when stderr is not a terminal');
        // stderr: progress texts, each ended by the clear sequence, and the error line on a line of its own.
        assert.ok(shown.stderr.endsWith(CLEAR) || shown.stderr.endsWith('\n'), 'the progress line is erased at the end');
        assert.ok(shown.stderr.startsWith(CLEAR), 'the first thing drawn is a progress line');
        const parts = shown.stderr.split(CLEAR).filter(Boolean);
        const progress = parts.filter((p) => PROGRESS.test(p));
        const errorParts = parts.filter((p) => !PROGRESS.test(p));
        assert.equal(errorParts.length, 1, JSON.stringify(errorParts));
        assert.ok(errorParts[0].startsWith(`${file}:101: error: not JSON (`) && errorParts[0].endsWith(')\n'), errorParts[0]);
        assert.ok(progress.length >= 1);
        const seen = progress.map((p) => PROGRESS.exec(p)).map((m) => [Number(m[1]), Number(m[2].replace(/,/g, ''))]);
        for (let i = 1; i < seen.length; i += 1) assert.ok(seen[i][1] > seen[i - 1][1] && seen[i][0] >= seen[i - 1][0], JSON.stringify(seen));
        assert.ok(seen.every(([percent, line]) => percent <= 100 && line >= 1 && line <= 241), JSON.stringify(seen));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('a line over the time limit', () => {
  test('--time-limit 1: the conversation whose render never ends is skipped and named, the others checked; status 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'masklab-time-limit-'));
    try {
      // ChatML by hand, with 10^10 empty iterations (each range is within the sandbox's 100000)
      // when the first message is "loop".
      const template = join(dir, 'loops.jinja');
      writeFileSync(
        template,
        "{% if messages[0].content == 'loop' %}{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}{% endif %}" +
          '{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}',
      );
      const file = join(dir, 'three.jsonl');
      const pair = (q, a) => JSON.stringify({ messages: [{ role: 'user', content: q }, { role: 'assistant', content: a }] });
      writeFileSync(file, `${[pair('a', 'b'), pair('loop', 'b'), pair('c', 'd')].join('\n')}\n`);
      const r = run(['--family', 'qwen3', '--template', template, '--time-limit', '1', file]);
      assert.equal(r.status, 2);
      assert.equal(r.stderr, `${file}:2: error: the check took longer than 1 s, so the line was skipped (a chat template that never finishes? --time-limit sets the limit)\n`);
      // <|im_start|> user \n a <|im_end|> \n, then the same for the answer: 12 tokens; the answer
      // "b" and its <|im_end|> trained; the assistant turn is its 6 tokens.
      const lines = r.stdout.trim().split('\n');
      assert.equal(lines[0], `${file}:1: 12 tokens, 2 trained; assistant turns (trained/tokens): 2/6`);
      assert.equal(lines[1], `${file}:3: 12 tokens, 2 trained; assistant turns (trained/tokens): 2/6`);
      assert.match(lines[2], /^chat-masks: 2 conversations, 24 tokens, 4 trained \(Qwen3, assistant, end-of-turn every\); 0 with an untrained assistant turn; 1 line not checked; /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("ShareGPT's conversations/from/value", () => {
  test('read as messages, with from mapped as axolotl maps it: the same counts as the messages file, line for line', () => {
    // sft-sharegpt.jsonl lines 1, 2 and 4 are sft-sample.jsonl's lines 1, 2 and 4 in ShareGPT form;
    // its line 3 has a "from" outside the mapping, kept as the role, which no template role is.
    const shareGpt = run(['--family', 'qwen3', `${FIXTURES}/sft-sharegpt.jsonl`]);
    const messages = run(['--family', 'qwen3', `${FIXTURES}/sft-sample.jsonl`]);
    const perLine = (r, file) =>
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith(`${FIXTURES}/${file}:`))
        .map((l) => l.slice(`${FIXTURES}/${file}:`.length))
        .filter((l) => !l.startsWith('3:'));
    assert.deepEqual(perLine(shareGpt, 'sft-sharegpt.jsonl'), perLine(messages, 'sft-sample.jsonl'));
    assert.equal(shareGpt.status, 2);
    assert.equal(
      shareGpt.stderr,
      `${FIXTURES}/sft-sharegpt.jsonl:3: error: message 2: role "bot" is not one of system, user, assistant, tool, developer\n`,
    );
    assert.match(shareGpt.stdout, /\nchat-masks: 4 lines in ShareGPT form: "from" read as the role \(human → user, gpt → assistant\), "value" as the content\n$/);
    assert.doesNotMatch(messages.stdout, /ShareGPT/);
  });
});

describe("TRL's prompt/completion lines", () => {
  // sft-prompt-completion.jsonl lines 1 and 2 are sft-sample.jsonl's lines 1 and 2 split into a
  // prompt and a one-answer completion; line 3's completion is an answer, a tool result and a
  // second answer; line 4 is a text pair.
  const file = `${FIXTURES}/sft-prompt-completion.jsonl`;
  const r = run(['--family', 'qwen3', file]);
  const line = (n) => r.stdout.split('\n').filter((l) => l.startsWith(`${file}:${n}: `));

  test('the completion is trained by default, as TRL trains it: worked out by hand for Qwen3', () => {
    // Line 1 renders as sft-sample's line 1 (29 tokens). The prompt with the generation prompt
    // ends with <|im_start|> assistant \n, so the completion is Qwen3's empty think block
    // (<think> \n\n </think> \n\n), Paris . <|im_end|> \n: 8 tokens, of the answer turn's 11.
    assert.deepEqual(line(1), [`${file}:1: 29 tokens, 8 trained; assistant turns (trained/tokens): 8/11`]);
    // Line 3's prompt is <|im_start|> user \n Is it warm in Paris ? <|im_end|> \n <|im_start|>
    // assistant \n: 14 tokens; all 39 after them are trained, the tool's result included. The first
    // answer's header is in the prompt (6 of 9), the last answer is trained whole (17/17).
    assert.equal(line(3)[0], `${file}:3: 53 tokens, 39 trained; assistant turns (trained/tokens): 6/9 17/17`);
    assert.match(r.stdout, /\nchat-masks: 3 conversations, 122 tokens, 55 trained \(Qwen3, completion, end-of-turn every\); 1 with an untrained assistant turn; 1 line not checked; /);
    assert.match(r.stdout, /\nchat-masks: 3 lines in prompt\/completion form: the prompt rendered with the generation prompt, the completion trained, as TRL trains it by default \(completion_only_loss\)\n$/);
  });

  test("an answer inside the prompt is reported untrained, and a text pair is refused by line", () => {
    assert.match(line(2).join('\n'), /:2: error: assistant_turn_untrained: message 2 \(assistant\) has no trained token — it is part of the prompt\./);
    assert.equal(r.stderr, `${file}:4: error: "prompt" and "completion" are text, not messages: TRL tokenizes such pairs without a chat template, so there is no chat mask to check\n`);
    assert.equal(r.status, 2);
  });

  test('split where the prompt ends, not before the last answer: the same lines as messages with --target completion differ only on line 3', () => {
    const sample = run(['--family', 'qwen3', '--target', 'completion', `${FIXTURES}/sft-sample.jsonl`]);
    const counts = (out, f, n) => out.split('\n').find((l) => l.startsWith(`${FIXTURES}/${f}:${n}: `))?.slice(`${FIXTURES}/${f}`.length);
    assert.equal(counts(r.stdout, 'sft-prompt-completion.jsonl', 1), counts(sample.stdout, 'sft-sample.jsonl', 1));
    assert.equal(counts(r.stdout, 'sft-prompt-completion.jsonl', 2), counts(sample.stdout, 'sft-sample.jsonl', 2));
    // As one messages list split before its last answer, line 3 trains only that answer.
    const dir = mkdtempSync(join(tmpdir(), 'masklab-pc-'));
    try {
      const third = JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8').split('\n')[2]);
      const asMessages = join(dir, 'third.jsonl');
      writeFileSync(asMessages, JSON.stringify({ messages: [...third.prompt, ...third.completion] }) + '\n');
      const last = run(['--family', 'qwen3', '--target', 'completion', asMessages]);
      assert.match(last.stdout, /:1: 53 tokens, 14 trained; assistant turns \(trained\/tokens\): 0\/9 14\/17/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--target overrides the default and is named in the summary', () => {
    const assistant = run(['--family', 'qwen3', '--target', 'assistant', '--quiet', file]);
    assert.match(assistant.stdout, /\(Qwen3, assistant, end-of-turn every\)/);
    assert.match(assistant.stdout, /3 lines in prompt\/completion form: the prompt rendered with the generation prompt, trained by --target assistant\n$/);
  });
});

describe('conversationOf (web/chat/dataset-record.js)', () => {
  test('messages as they are; ShareGPT turns mapped; anything else named', async () => {
    const { conversationOf } = await import('../../web/chat/dataset-record.js');
    const messages = [{ role: 'user', content: 'a' }];
    assert.deepEqual(conversationOf({ messages }), { messages, shareGpt: false, promptLength: null });
    assert.deepEqual(
      conversationOf({ conversations: [{ from: 'system', value: 's' }, { from: 'human', value: 'q' }, { from: 'gpt', value: 'a' }, { from: 'tool', value: '{}' }, { from: 'user', value: 'u' }, { from: 'assistant', value: 'b' }] }),
      {
        messages: [
          { role: 'system', content: 's' },
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
          { role: 'tool', content: '{}' },
          { role: 'user', content: 'u' },
          { role: 'assistant', content: 'b' },
        ],
        shareGpt: true,
        promptLength: null,
      },
    );
    assert.deepEqual(conversationOf({ conversations: [{ from: 'human' }] }), { error: 'message 1: "value" is not a string' });
    assert.deepEqual(conversationOf({ conversations: ['hi'] }), { error: 'message 1 is not an object with "from" and "value"' });
    assert.deepEqual(conversationOf({ conversations: [{ role: 'user', content: 'x' }] }), { error: 'message 1: "from" is not a string' });
    // A from outside the mapping stays the role, as axolotl keeps it.
    assert.deepEqual(conversationOf({ conversations: [{ from: 'bot', value: 'x' }] }), { messages: [{ role: 'bot', content: 'x' }], shareGpt: true, promptLength: null });
    const expected = `expected {"messages": [...]}, ShareGPT's {"conversations": [...]} or {"prompt": [...], "completion": [...]}`;
    assert.deepEqual(conversationOf([1]), { error: `${expected}, found an array` });
    assert.deepEqual(conversationOf(null), { error: `${expected}, found null` });
    assert.deepEqual(conversationOf({ text: 'x' }), { error: `${expected}, found keys text` });
  });

  test("TRL's prompt/completion: the conversation is prompt + completion, split after the prompt; text pairs and half pairs refused", async () => {
    const { conversationOf } = await import('../../web/chat/dataset-record.js');
    const prompt = [{ role: 'system', content: 's' }, { role: 'user', content: 'q' }];
    const completion = [{ role: 'assistant', content: 'a' }];
    assert.deepEqual(conversationOf({ prompt, completion }), { messages: [...prompt, ...completion], shareGpt: false, promptLength: 2 });
    assert.deepEqual(conversationOf({ prompt: 'q', completion: 'a' }), {
      error: '"prompt" and "completion" are text, not messages: TRL tokenizes such pairs without a chat template, so there is no chat mask to check',
    });
    assert.deepEqual(conversationOf({ prompt }), { error: 'found "prompt" without "completion": SFT data pairs a prompt with its completion' });
    assert.deepEqual(conversationOf({ prompt, completion: 'a' }), { error: '"prompt" and "completion" must both be lists of messages (found a list and text)' });
    assert.deepEqual(conversationOf({ prompt: null, completion }), { error: '"prompt" and "completion" must both be lists of messages (found null and a list)' });
    assert.deepEqual(conversationOf({ prompt: [], completion }), { error: '"prompt" is an empty list: there is nothing to render before the completion' });
    assert.deepEqual(conversationOf({ prompt, completion: [] }), { error: '"completion" is an empty list: there is nothing to train' });
  });
});

describe("a dataset's tools and chat_template_kwargs columns", () => {
  test('tools are rendered, also from a JSON string as TRL 0.29 parses it (more tokens, the same trained ones); bad ones are refused by line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'masklab-tools-'));
    try {
      const file = join(dir, 'tools.jsonl');
      const messages = [{ role: 'user', content: 'What time is it?' }, { role: 'assistant', content: 'Noon.' }];
      const tool = { type: 'function', function: { name: 'get_time', description: 'The current time', parameters: { type: 'object', properties: {} } } };
      const lines = [
        { messages },
        { messages, tools: [tool] },
        { messages, tools: JSON.stringify([tool]) },
        { messages, chat_template_kwargs: [1] },
        { messages, tools: [], chat_template_kwargs: { enable_thinking: false } },
        { messages, tools: '[{"type": ' },
        { messages, tools: { get_time: tool } },
      ];
      writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      const r = run(['--family', 'qwen3', file]);
      assert.equal(r.status, 2);
      const counts = Object.fromEntries([...r.stdout.matchAll(/:(\d+): (\d+) tokens, (\d+) trained/g)].map((m) => [m[1], [Number(m[2]), Number(m[3])]]));
      assert.deepEqual(Object.keys(counts), ['1', '2', '3', '5']);
      assert.deepEqual(counts[3], counts[2], 'the JSON string renders as the list');
      assert.ok(counts[2][0] > counts[1][0] + 50, `Qwen3's tools block adds its text: ${counts[2][0]} vs ${counts[1][0]} tokens`);
      assert.equal(counts[2][1], counts[1][1], 'the tools block is template text, never trained');
      assert.deepEqual(counts[5], counts[1], 'Qwen3 tests {%- if tools %}: an empty list prints no tools block');
      const errors = r.stderr.trim().split('\n');
      assert.equal(errors.length, 3, r.stderr);
      assert.equal(errors[0], `${file}:4: error: "chat_template_kwargs" must be an object of keyword arguments`);
      assert.ok(errors[1].startsWith(`${file}:6: error: "tools" is a string that is not JSON (`), errors[1]);
      assert.equal(errors[2], `${file}:7: error: "tools" must be a list of tool schemas (JSON objects)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
