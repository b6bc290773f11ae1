// dataset-command.test.mjs — the Chat masks page's way to the command line
// (web/chat/dataset-command.js): the command it offers, read back by the CLI's own argument
// parser, must give the policies the page used; the dataset line it offers, read back as the paste
// box and the CLI read a line, must give the conversation, split and template arguments on screen.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseArgs } from '../../scripts/chat/chat-masks.mjs';
import { CHAT_STATE, policiesOf } from '../../web/chat/chat-state.js';
import { conversationOf, templateArgumentsOf } from '../../web/chat/dataset-record.js';
import { datasetCommand, datasetLine, shellWord } from '../../web/chat/dataset-command.js';
import { familyById } from '../../web/chat/families.js';

const state = (patch) => ({ ...CHAT_STATE.defaults(), ...patch });

test('the defaults give the shortest command: the family and the file', () => {
  assert.deepEqual(datasetCommand(state({ f: 'qwen3' })), { command: 'npm run -s chat-masks -- --family qwen3 your-data.jsonl', args: ['--family', 'qwen3', 'your-data.jsonl'], notes: [] });
});

test('every choice the page makes reaches the CLI as the same policy', () => {
  const cases = [
    { f: 'qwen3', t: 'completion', eot: 'last', hdr: true },
    { f: 'llama3_1', pm: 'pad_id', pad: 'eos', eos: 1, ml: 64, ast: true },
    { f: 'gemma3', t: 'response_template', rt: '<start_of_turn>model\n' },
    { f: 'mistral_nemo', t: 'turn_by_turn', eot: 'never' },
    { f: 'gptoss', t: 'all' },
  ];
  for (const patch of cases) {
    const s = state(patch);
    const read = parseArgs(datasetCommand(s).args);
    assert.equal(read.family, s.f);
    assert.equal(read.file, 'your-data.jsonl');
    assert.equal(read.addSpecialTokens, s.ast);
    assert.deepEqual(read.policies, policiesOf(s, familyById(s.f)), JSON.stringify(patch));
  }
});

test('a prompt/completion line: the target is named unless it is the completion, the CLI default for such lines', () => {
  assert.deepEqual(datasetCommand(state({ f: 'qwen3', t: 'completion' }), { promptCompletion: true }).args, ['--family', 'qwen3', 'your-data.jsonl']);
  const assistant = parseArgs(datasetCommand(state({ f: 'qwen3' }), { promptCompletion: true }).args);
  assert.deepEqual([assistant.policies.target, assistant.targetGiven], ['assistant', true]);
});

test('what the command cannot carry is said: an own template is a file to save; no instruction template', () => {
  const own = datasetCommand(state({ f: 'qwen3' }), { ownTemplate: true });
  assert.deepEqual(own.args.slice(-3), ['--template', 'your-template.jinja', 'your-data.jsonl']);
  assert.deepEqual(own.notes, ['Your own template: save it as your-template.jinja beside your data.']);
  const it = datasetCommand(state({ f: 'qwen3', t: 'response_template', it: '<|im_start|>user\n' }));
  assert.deepEqual(it.notes, ['The command has no instruction template: it searches for the response template alone.']);
});

test('shell words: safe ones bare, others single-quoted with quotes escaped', () => {
  assert.equal(shellWord('--family'), '--family');
  assert.equal(shellWord('<|im_end|>'), "'<|im_end|>'");
  assert.equal(shellWord("it's"), "'it'\\''s'");
  assert.equal(datasetCommand(state({ f: 'llama3_1', eos: 1 })).command, "npm run -s chat-masks -- --family llama3_1 --eos-token '<|end_of_text|>' your-data.jsonl");
});

test('the dataset line reads back as the same conversation, split and template arguments', () => {
  const messages = [
    { role: 'user', content: 'Is it warm?' },
    { role: 'assistant', content: 'Checking.' },
    { role: 'tool', content: '21' },
    { role: 'assistant', content: 'Yes.' },
  ];
  const kwargs = { enable_thinking: false, tools: [{ type: 'function', function: { name: 'get_time' } }] };
  const plain = JSON.parse(datasetLine(messages));
  assert.deepEqual(plain, { messages });
  const line = JSON.parse(datasetLine(messages, { promptLength: 1, kwargs }));
  assert.deepEqual(Object.keys(line), ['prompt', 'completion', 'tools', 'chat_template_kwargs']);
  assert.deepEqual(conversationOf(line), { messages, shareGpt: false, promptLength: 1 });
  assert.deepEqual(templateArgumentsOf(line), { kwargs });
  assert.equal(datasetLine(messages).includes('\n'), false, 'one line');
});
