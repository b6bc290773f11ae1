// chat-reasons.js withChatReasons: the batch grid shows the chat masks' reasons (system, user,
// role header, …) where the collator only knows "given", at the right cells whatever the padding
// side or packing. Two hand-made chat answers, collated by the wasm core.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { withChatReasons } from '../../web/chat/chat-reasons.js';
import { loadWasmCore } from './helpers.mjs';

// Conversation A: 4 tokens (user header, user text, assistant text, end-of-turn);
// conversation B: 2 tokens (scaffolding BOS, assistant text).
const A = { input_ids: [10, 11, 12, 13], labels: [-100, -100, 12, 13], label_reasons: ['role_header', 'user', '', ''] };
const B = { input_ids: [20, 21], labels: [-100, 21], label_reasons: ['scaffolding', ''] };

let core;
before(async () => {
  core = await loadWasmCore();
});

function collate(extra) {
  const batch = core.collate({ features: [A, B].map((x) => ({ input_ids: x.input_ids, labels: x.labels })), pad_token_id: 0, label_policy: 'given', ...extra });
  assert.equal(batch.error, undefined, JSON.stringify(batch.error));
  return withChatReasons(batch, [A, B]);
}

test('right padding: each row keeps its conversation\'s reasons, pads stay "padding"', () => {
  assert.deepEqual(collate({ padding_side: 'right' }), [
    ['role_header', 'user', '', ''],
    ['scaffolding', '', 'padding', 'padding'],
  ]);
});

test('left padding: the reasons follow the tokens to the right', () => {
  assert.deepEqual(collate({ padding_side: 'left' }), [
    ['role_header', 'user', '', ''],
    ['padding', 'padding', 'scaffolding', ''],
  ]);
});

test('flatten: one row, the conversations one after the other; each first token keeps the collator\'s "boundary"', () => {
  assert.deepEqual(collate({ packing: 'flatten' }), [['boundary', 'user', '', '', 'boundary', '']]);
});
