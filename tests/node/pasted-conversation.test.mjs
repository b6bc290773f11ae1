// pasted-conversation.test.mjs — what the Chat masks page's paste box accepts
// (web/chat/pasted-conversation.js): one line of a dataset in TRL's or ShareGPT's form, a bare
// array of messages, a pretty-printed object, the first of several JSONL lines; and what it
// refuses, each with a message that says what is wrong.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { describeTemplateArguments, MAX_PASTE_CHARS, readPastedConversation } from '../../web/chat/pasted-conversation.js';

const HI = [
  { role: 'user', content: 'Say hi.' },
  { role: 'assistant', content: 'Hi!' },
];

test('a messages line, a bare array and a pretty-printed object give the same messages', () => {
  for (const text of [JSON.stringify({ messages: HI }), JSON.stringify(HI), JSON.stringify({ messages: HI }, null, 2), `  ${JSON.stringify(HI)}\n`]) {
    assert.deepEqual(readPastedConversation(text), { messages: HI, promptLength: null, kwargs: null, line: 1, lineCount: 1, notes: [] }, text);
  }
});

test('ShareGPT: from mapped to the role, and the page says so', () => {
  const read = readPastedConversation(JSON.stringify({ conversations: [{ from: 'human', value: 'Say hi.' }, { from: 'gpt', value: 'Hi!' }] }));
  assert.deepEqual(read.messages, HI);
  assert.deepEqual(read.notes, ['Read as ShareGPT: "from" is the role (human → user, gpt → assistant), "value" the content.']);
});

test('several JSONL lines: the first by default, or the one asked for; refusals name the line', () => {
  const line = JSON.stringify({ messages: HI });
  const other = [{ role: 'user', content: 'other' }];
  const paste = `${line}\n${JSON.stringify({ messages: other })}\n\n{"messages": [}\n${JSON.stringify({ messages: [{ role: 'user', content: ' ' }] })}\n`;
  const read = readPastedConversation(paste);
  assert.deepEqual(read.messages, HI);
  assert.deepEqual([read.line, read.lineCount], [1, 4], 'the empty line is not counted');
  assert.deepEqual(read.notes, ['Your paste has 4 lines; this is line 1.']);
  const second = readPastedConversation(paste, { line: 2 });
  assert.deepEqual(second.messages, other);
  assert.deepEqual(second.notes, ['Your paste has 4 lines; this is line 2.']);
  assert.match(readPastedConversation(paste, { line: 3 }).error, /^line 3 of your paste is not JSON \(/);
  assert.deepEqual(readPastedConversation(paste, { line: 4 }), { error: 'line 4: message 1 (user) is empty', line: 4, lineCount: 4 });
  // Out of range: the nearest line there is.
  assert.equal(readPastedConversation(paste, { line: 99 }).line, 4);
  assert.equal(readPastedConversation(paste, { line: 0 }).line, 1);
  // A pretty-printed object is one record, however many lines it spans.
  assert.equal(readPastedConversation(JSON.stringify({ messages: HI }, null, 2), { line: 3 }).lineCount, 1);
});

test('fields the editor cannot hold are named as left out', () => {
  const read = readPastedConversation(JSON.stringify({ messages: [HI[0], { ...HI[1], reasoning_content: 'easy', name: 'bot' }] }));
  assert.deepEqual(read.messages, HI);
  assert.deepEqual(read.notes, ["The editor keeps each message's role and content; reasoning_content, name are left out."]);
});

test("a line's tools and chat_template_kwargs go to the template, as TRL's SFTTrainer passes them", () => {
  const tool = { type: 'function', function: { name: 'get_time' } };
  const read = readPastedConversation(JSON.stringify({ messages: HI, tools: [tool], chat_template_kwargs: { enable_thinking: false } }));
  assert.deepEqual(read.messages, HI);
  assert.deepEqual(read.kwargs, { enable_thinking: false, tools: [tool] });
  assert.deepEqual(read.notes, [], 'the page shows them under the conversation (line-arguments.js)');
  // Tools stored as a JSON string are parsed, as TRL parses them since 0.29.0.
  assert.deepEqual(readPastedConversation(JSON.stringify({ messages: HI, tools: JSON.stringify([tool, tool]) })).kwargs, { tools: [tool, tool] });
  // An empty list is passed on (templates test it themselves); no column, no arguments.
  assert.deepEqual(readPastedConversation(JSON.stringify({ messages: HI, tools: [] })).kwargs, { tools: [] });
  assert.equal(readPastedConversation(JSON.stringify({ messages: HI, tools: null })).kwargs, null);
  assert.equal(readPastedConversation(JSON.stringify(HI)).kwargs, null);
  assert.equal(readPastedConversation(JSON.stringify({ messages: HI, tools: { get_time: tool } })).error, '"tools" must be a list of tool schemas (JSON objects)');
  assert.equal(readPastedConversation(JSON.stringify({ messages: HI, chat_template_kwargs: 'x' })).error, '"chat_template_kwargs" must be an object of keyword arguments');
});

test('template arguments are described for people: tools counted, long values cut', () => {
  assert.equal(describeTemplateArguments({ tools: [] }), 'tools (0 schemas)');
  assert.equal(describeTemplateArguments({ a: 1, b: 'x', c: true }), 'a=1, b="x" and c=true');
  assert.equal(describeTemplateArguments({ long: 'y'.repeat(60) }), `long="${'y'.repeat(38)}…`);
});

test("TRL's prompt/completion: one conversation, and the split kept with it", () => {
  const read = readPastedConversation(JSON.stringify({ prompt: [HI[0]], completion: [HI[1]] }));
  assert.deepEqual(read.messages, HI);
  assert.equal(read.promptLength, 1);
  assert.deepEqual(read.notes, [
    'Read as prompt/completion: message 1 is the prompt. TRL trains only the completion by default: the target “Prompt / completion” shows it (it keeps this split until you add, remove or move a message).',
  ]);
  // A completion of several messages: the split is after the prompt, not before the last answer.
  const answer = (content) => ({ role: 'assistant', content });
  const withTool = readPastedConversation(JSON.stringify({ prompt: [HI[0]], completion: [answer('Checking.'), { role: 'tool', content: '21' }, answer('Warm.')] }));
  assert.equal(withTool.messages.length, 4);
  assert.equal(withTool.promptLength, 1);
  const twoPrompt = readPastedConversation(JSON.stringify({ prompt: [{ role: 'system', content: 's' }, HI[0]], completion: [HI[1]] }));
  assert.equal(twoPrompt.promptLength, 2);
  assert.match(twoPrompt.notes[0], /^Read as prompt\/completion: messages 1–2 are the prompt\./);
  assert.equal(readPastedConversation(JSON.stringify({ conversations: [{ from: 'human', value: 'x' }] })).promptLength, null);
});

test('refusals say what is wrong', () => {
  const refusal = (text) => readPastedConversation(text).error;
  assert.equal(refusal('   '), 'paste one line of your dataset, or a JSON array of messages');
  assert.match(refusal('{"messages": [}'), /^this is not JSON \(/);
  assert.equal(refusal('{"prompt": "hi"}'), 'found "prompt" without "completion": SFT data pairs a prompt with its completion');
  assert.equal(refusal('{"text": "hi"}'), `expected a JSON array of messages, {"messages": [...]}, ShareGPT's {"conversations": [...]} or {"prompt": [...], "completion": [...]}, found keys text`);
  assert.equal(refusal(JSON.stringify([{ role: 'bot', content: 'x' }])), 'message 1: role "bot" is not one of system, user, assistant, tool, developer');
  assert.equal(refusal(JSON.stringify([])), 'the conversation has no messages');
  assert.equal(refusal(JSON.stringify([{ role: 'user', content: ' ' }])), 'message 1 (user) is empty');
  assert.equal(
    refusal(JSON.stringify([HI[0], { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'f', arguments: {} } }] }])),
    'message 2 (assistant) has tool calls and no text; the editor holds role and content only, so it cannot show this conversation',
  );
  assert.equal(refusal('x'.repeat(MAX_PASTE_CHARS + 1)), 'the paste is longer than 2,000,000 characters; paste one conversation');
});
