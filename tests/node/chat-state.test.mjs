// chat-state.test.mjs — the Chat masks page's URL state (web/chat/chat-state.js): a pasted
// prompt/completion line's split travels as `pl` beside its conversation `c`, is dropped when it
// cannot apply, and a link with a `pl` that does not fit says so; a line's template arguments
// travel as `kw` (packed, `z:`, when long), and a bad one is named.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  CHAT_STATE, conversationFromLink, conversationOf, encodeConversation, lineArgumentsFromLink, lineArgumentsOf, linkCarries, splitOf, withConversation,
  withLineArguments, withPackedConversation, withPackedLineArguments,
} from '../../web/chat/chat-state.js';
import { packText } from '../../web/shared/packed-text.js';
import { PRESETS } from '../../web/chat/presets.js';

const LINE = [
  { role: 'user', content: 'Is it warm?' },
  { role: 'assistant', content: 'Checking.' },
  { role: 'tool', content: '21' },
  { role: 'assistant', content: 'Yes.' },
];
const stateOf = (search) => CHAT_STATE.read(search).state;

test('a split is a prompt of 1 to n − 1 messages', () => {
  assert.equal(splitOf(LINE, 1), 1);
  assert.equal(splitOf(LINE, 3), 3);
  for (const bad of [0, 4, 9, -1, 1.5, null, undefined]) assert.equal(splitOf(LINE, bad), null, String(bad));
});

test('the split travels with the conversation and comes back from the link', () => {
  const state = withConversation(CHAT_STATE.defaults(), LINE, 1);
  assert.equal(state.pl, 1);
  assert.equal(state.c, encodeConversation(LINE));
  const back = conversationOf(stateOf(CHAT_STATE.toSearch(state, '')));
  assert.deepEqual(back, { messages: LINE, problem: null, promptLength: 1 });
  // Without a split (an edit that moved a message), pl is left out of the link.
  const edited = withConversation(state, LINE, null);
  assert.equal(edited.pl, 0);
  assert.doesNotMatch(CHAT_STATE.toSearch(edited, ''), /pl=/);
});

test('a split that does not fit is dropped: past the end, or on a prepared conversation', () => {
  assert.equal(withConversation(CHAT_STATE.defaults(), LINE, 4).pl, 0);
  // A prepared conversation has no split of its own; one pasted with a split stays the learner's.
  const preset = PRESETS[0].messages;
  const asPreset = withConversation(CHAT_STATE.defaults(), preset, null);
  assert.deepEqual([asPreset.p, asPreset.c, asPreset.pl], [PRESETS[0].id, '', 0]);
  const pasted = withConversation(CHAT_STATE.defaults(), preset, 1);
  assert.deepEqual([pasted.c, pasted.pl], [encodeConversation(preset), 1]);
});

test('a link whose pl does not fit its conversation says so and splits before the last answer', () => {
  const c = encodeURIComponent(encodeConversation(LINE));
  const tooFar = conversationOf(stateOf(`?c=${c}&pl=4`));
  assert.equal(tooFar.promptLength, null);
  assert.equal(tooFar.problem, 'URL parameter pl=4 is not a split of this 4-message conversation; the prompt is everything before the last answer.');
  const noConversation = conversationOf(stateOf('?pl=1'));
  assert.equal(noConversation.promptLength, null);
  assert.equal(noConversation.problem, 'URL parameter pl=1 needs a conversation of the link’s own (c); the prompt is everything before the last answer.');
  assert.deepEqual(CHAT_STATE.read('?pl=x').problems.map((p) => p.param), ['pl']);
});

test("a line's template arguments travel as kw and come back; a bad kw is named, not used", () => {
  const kwargs = { enable_thinking: false, tools: [{ type: 'function', function: { name: 'get_time' } }] };
  const state = withLineArguments(CHAT_STATE.defaults(), kwargs);
  assert.deepEqual(lineArgumentsOf(stateOf(CHAT_STATE.toSearch(state, ''))), { kwargs, problem: null });
  assert.equal(withLineArguments(state, null).kw, '');
  assert.equal(withLineArguments(state, { tools: [{ description: 'x'.repeat(30000) }] }).kw, '', 'too long for a link');
  const problem = (kw) => lineArgumentsOf({ ...CHAT_STATE.defaults(), kw });
  assert.deepEqual(problem(''), { kwargs: null, problem: null });
  assert.equal(problem('nope').problem, 'URL parameter kw is not valid JSON; the template renders without it.');
  assert.equal(problem('[1]').problem, 'URL parameter kw is not a JSON object of template arguments; the template renders without it.');
  assert.equal(problem('{}').problem, 'URL parameter kw names no template argument; the template renders without it.');
  assert.equal(problem('{"tools": [1]}').problem, 'URL parameter kw is refused: "tools" must be a list of tool schemas (JSON objects); the template renders without it.');
  assert.equal(problem('{"tools": [1]}').kwargs, null);
});

// Deterministic text that does not compress (xorshift32 over 64 letters: 6 bits a character).
function noise(n, seed = 7) {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .';
  let x = seed;
  let out = '';
  for (let i = 0; i < n; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += letters[(x >>> 0) % 64];
  }
  return out;
}

test('a conversation too long for the link as it is travels packed (z:), with its split, and comes back whole', async () => {
  const long = [{ role: 'user', content: 'word '.repeat(6000) }, { role: 'assistant', content: 'Noted.' }];
  const plain = withConversation(CHAT_STATE.defaults(), long, 1);
  assert.equal(plain.c, '', 'too long as JSON');
  assert.equal(linkCarries(plain, long), false);
  const packed = await withPackedConversation(plain, long, 1);
  assert.match(packed.c, /^z:[A-Za-z0-9_-]+$/);
  assert.ok(packed.c.length < 1000, `repetitive text packs small: ${packed.c.length}`);
  assert.equal(linkCarries(packed, long), true);
  const read = stateOf(CHAT_STATE.toSearch(packed, ''));
  assert.equal(conversationOf(read).packed, true, 'the synchronous reader says it needs unpacking');
  assert.deepEqual(await conversationFromLink(read), { messages: long, problem: null, promptLength: 1 });
  // Text that does not compress can still be too long: then the link leaves it out.
  assert.equal(await withPackedConversation(plain, [{ role: 'user', content: noise(30000) }], null), null);
  // A short link conversation reads the same through either reader.
  const short = withConversation(CHAT_STATE.defaults(), LINE, 1);
  assert.deepEqual(await conversationFromLink(short), conversationOf(short));
});

test('a packed c that does not unpack is named, and the prepared conversation shown', async () => {
  for (const c of ['z:not-deflate', 'z:']) {
    const read = await conversationFromLink({ ...CHAT_STATE.defaults(), c });
    assert.equal(read.problem, 'URL parameter c does not hold a readable packed conversation; showing the prepared conversation instead.', c);
    assert.deepEqual(read.messages, PRESETS.find((p) => p.id === CHAT_STATE.defaults().p).messages);
  }
});

test('template arguments too long for the link as JSON travel packed (z:) and come back whole', async () => {
  // 120 tool schemas: about 32,000 characters of JSON, a list an agent dataset can carry.
  const tool = (i) => ({
    type: 'function',
    function: { name: `lookup_${i}`, description: 'Looks up one record by its id and returns it as JSON.', parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
  });
  const kwargs = { enable_thinking: false, tools: Array.from({ length: 120 }, (_, i) => tool(i)) };
  assert.ok(JSON.stringify(kwargs).length > 20000);
  const plain = withLineArguments(CHAT_STATE.defaults(), kwargs);
  assert.equal(plain.kw, '', 'too long as JSON');
  const packed = await withPackedLineArguments(plain, kwargs);
  assert.match(packed.kw, /^z:[A-Za-z0-9_-]+$/);
  assert.ok(packed.kw.length < 5000, `similar schemas pack small: ${packed.kw.length}`);
  const read = stateOf(CHAT_STATE.toSearch(packed, ''));
  assert.deepEqual(lineArgumentsOf(read), { kwargs: null, problem: null, packed: true }, 'the synchronous reader says it needs unpacking');
  assert.deepEqual(await lineArgumentsFromLink(read), { kwargs, problem: null });
  // Schemas that do not compress can still be too long: then the link leaves them out.
  assert.equal(await withPackedLineArguments(plain, { tools: [{ description: noise(30000) }] }), null);
  // Short arguments read the same through either reader.
  const short = withLineArguments(CHAT_STATE.defaults(), { enable_thinking: true });
  assert.deepEqual(await lineArgumentsFromLink(short), lineArgumentsOf(short));
});

test('a packed kw that does not unpack, or unpacks to bad arguments, is named and not used', async () => {
  for (const kw of ['z:not-deflate', 'z:']) {
    const read = await lineArgumentsFromLink({ ...CHAT_STATE.defaults(), kw });
    assert.deepEqual(read, { kwargs: null, problem: 'URL parameter kw does not hold readable packed template arguments; the template renders without them.' }, kw);
  }
  const list = await lineArgumentsFromLink({ ...CHAT_STATE.defaults(), kw: `z:${await packText('[1]')}` });
  assert.deepEqual(list, { kwargs: null, problem: 'URL parameter kw is not a JSON object of template arguments; the template renders without it.' });
});
