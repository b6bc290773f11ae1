// Native CLI and WebAssembly module give the same answers.
//
// Both front ends call masklab::run_command on the same bytes, so every answer must be the same:
// same keys, same integers, same strings, same error field and message. One allowance: exp/log
// come from glibc natively and from musl in wasm, and the two may round the last bit differently,
// so a non-integer may differ by a few ulp (relative 1e-12, float64). Byte-identical output is
// checked first and reported when it does not hold. The requests cover every command, several
// padding/label/packing policies and several kinds of bad input. This suite checks agreement, not
// correctness: the C++ tests (tests/cpp) pin the values.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { assertSameAnswer, loadWasmChat, loadWasmFor, runCli, runWasmRaw } from './helpers.mjs';

// logits [B=1][T=3][V=4] and labels [1][3]: small enough to read, fractions to exercise formatting.
const LOGITS_1x3x4 = [[[0.5, -1, 2, 0.25], [1, 1, 1, 1], [3, -0.5, 0, 1.125]]];

// q, k, v [1][3][2] with a left pad at t=0: under the causal mask query 0 sees no key.
const LEFT_PADDED_QKV = {
  q: [[[1, 0], [0, 1], [1, 1]]],
  k: [[[1, 0], [0.5, 0.5], [0, 1]]],
  v: [[[1, 2], [3, 4], [5, 6]]],
  attention_mask: [[0, 1, 1]],
};

const CASES = [
  {
    name: 'collate, defaults (longest, right, from_lengths, mask_padding)',
    command: 'collate',
    request: { features: [{ input_ids: [5, 6, 7] }, { input_ids: [8] }], pad_token_id: 0 },
  },
  {
    name: 'collate, left padding to a multiple of 4, positions from the mask',
    command: 'collate',
    request: {
      features: [{ input_ids: [1, 9, 3, 2] }, { input_ids: [1, 4, 2] }],
      pad_token_id: 2,
      eos_token_id: 2,
      padding_side: 'left',
      pad_to_multiple_of: 4,
      position_ids: 'from_mask',
    },
  },
  {
    name: 'collate, pad = eos with masks derived from token values (the EOS bug)',
    command: 'collate',
    request: {
      features: [{ input_ids: [1, 9, 3, 2] }, { input_ids: [1, 2] }],
      pad_token_id: 2,
      eos_token_id: 2,
      attention_mask_policy: 'input_ids_ne_pad',
      label_policy: 'mask_pad_id',
    },
  },
  {
    name: 'collate, max_length with left truncation and a vocabulary check',
    command: 'collate',
    request: {
      features: [{ input_ids: [1, 2, 3, 4, 5, 6] }, { input_ids: [7, 8] }],
      pad_token_id: 0,
      vocab_size: 10,
      padding: 'max_length',
      max_length: 4,
      truncation: true,
      truncation_side: 'left',
    },
  },
  {
    name: 'collate, completion_mask with given labels',
    command: 'collate',
    request: {
      features: [
        { input_ids: [11, 12, 13, 14], completion_mask: [0, 0, 1, 1] },
        { input_ids: [21, 22, 23], labels: [-100, 22, 23] },
      ],
      pad_token_id: 0,
    },
  },
  {
    name: 'collate, padding-free flattening (no attention_mask)',
    command: 'collate',
    request: { features: [{ input_ids: [4, 5, 6] }, { input_ids: [7, 8] }], pad_token_id: 0, packing: 'flatten' },
  },
  {
    name: 'collate, unsafe concatenation packing',
    command: 'collate',
    request: { features: [{ input_ids: [4, 5, 6] }, { input_ids: [7, 8] }], pad_token_id: 0, packing: 'concat_unsafe' },
  },
  {
    name: 'loss, mean with shift',
    command: 'loss',
    request: { logits: LOGITS_1x3x4, labels: [[2, 0, 3]], shift: true, ignore_index: -100, reduction: 'mean' },
  },
  {
    name: 'loss, sum with gradient, no shift',
    command: 'loss',
    request: { logits: LOGITS_1x3x4, labels: [[2, -100, 3]], shift: false, reduction: 'sum', gradient: true },
  },
  {
    name: 'loss, per-token (reduction none)',
    command: 'loss',
    request: { logits: LOGITS_1x3x4, labels: [[2, 0, 3]], reduction: 'none' },
  },
  {
    name: 'loss, per-example mean with a row that has no targets',
    command: 'loss',
    request: {
      logits: [LOGITS_1x3x4[0], LOGITS_1x3x4[0]],
      labels: [[2, 0, 3], [2, -100, -100]],
      reduction: 'per_example_mean',
    },
  },
  {
    name: 'loss, sum over num_items_in_batch',
    command: 'loss',
    request: { logits: LOGITS_1x3x4, labels: [[2, 0, 3]], reduction: 'sum_over_num_items', num_items_in_batch: 5 },
  },
  {
    name: 'loss, per-example sums and token weights of two rows of different lengths (per_example_mean)',
    command: 'loss',
    request: {
      logits: [LOGITS_1x3x4[0], LOGITS_1x3x4[0]],
      labels: [[2, 0, 3], [2, -100, 1]],
      reduction: 'per_example_mean',
    },
  },
  {
    name: 'inspect, reduced as sum / a constant count (Dr. GRPO-style), with per-row weights',
    command: 'inspect',
    request: { text_features: ['a b c', 'd'], reduction: 'sum_over_num_items', num_items_in_batch: 12 },
  },
  {
    name: 'loss, mean over zero targets',
    command: 'loss',
    request: { logits: LOGITS_1x3x4, labels: [[2, -100, -100]], reduction: 'mean' },
  },
  {
    name: 'accumulate, two micro-batches of different sizes',
    command: 'accumulate',
    request: {
      micro_batches: [
        { logits: LOGITS_1x3x4, labels: [[2, 0, 3]] },
        { logits: LOGITS_1x3x4, labels: [[2, 1, -100]] },
      ],
      shift: true,
      ignore_index: -100,
    },
  },
  {
    name: 'attention, causal with a left-padded row (a fully masked query)',
    command: 'attention',
    request: { ...LEFT_PADDED_QKV, causal: true },
  },
  {
    name: 'inspect, a padded batch',
    command: 'inspect',
    request: { features: [{ input_ids: [1, 5, 6, 2] }, { input_ids: [1, 7, 2] }], pad_token_id: 0, eos_token_id: 2 },
  },
  // The Hugging Face / TRL rules of docs/semantics.md §2.3–§4.2 and the masked means of §7.3.
  {
    name: "collate, a feature's own attention_mask kept with its 0, an empty example, left padding",
    command: 'collate',
    request: {
      features: [{ input_ids: [5, 6, 7], attention_mask: [1, 0, 1] }, { input_ids: [] }, { input_ids: [8] }],
      pad_token_id: 0,
      padding_side: 'left',
      position_ids: 'from_mask',
    },
  },
  {
    name: 'collate, seq2seq labels of their own length, label_pad_token_id -1, pad_to_multiple_of 4',
    command: 'collate',
    request: {
      features: [
        { input_ids: [1, 2, 3], labels: [7, 8] },
        { input_ids: [4], labels: [9, 10, 11, 12, 13] },
      ],
      pad_token_id: 0,
      label_policy: 'given',
      label_pad_token_id: -1,
      pad_to_multiple_of: 4,
      shift: false,
    },
  },
  {
    name: 'collate, TRL padding-free with seq_lengths and a padded tail',
    command: 'collate',
    request: {
      features: [{ input_ids: [5, 6, 7], seq_lengths: [2, 1] }, { input_ids: [8, 9], seq_lengths: [2] }],
      pad_token_id: 0,
      packing: 'padding_free',
      pad_to_multiple_of: 4,
    },
  },
  {
    name: 'collate, equal rows need no pad_token_id',
    command: 'collate',
    request: { features: [{ input_ids: [5, 6] }, { input_ids: [7, 8] }], label_policy: 'mask_pad_id' },
  },
  {
    name: 'loss, masked mean over zero targets from log_softmax_gather (NaN gradient, counted)',
    command: 'loss',
    request: { logits: LOGITS_1x3x4, labels: [[-100, -100, -100]], reduction: 'masked_mean', per_token_loss: 'log_softmax_gather', gradient: true },
  },
  {
    name: 'loss, masked mean over zero targets from cross_entropy (zero gradient)',
    command: 'loss',
    request: { logits: LOGITS_1x3x4, labels: [[-100, -100, -100]], reduction: 'masked_mean', gradient: true },
  },
  {
    name: 'loss, per-example mean with an empty row: finite gradient',
    command: 'loss',
    request: {
      logits: [LOGITS_1x3x4[0], LOGITS_1x3x4[0]],
      labels: [[2, 0, 3], [2, -100, -100]],
      reduction: 'per_example_mean',
      gradient: true,
    },
  },
  {
    name: 'attention, explicit scale and NaN rows for a fully masked query',
    command: 'attention',
    request: { ...LEFT_PADDED_QKV, scale: 0.3, fully_masked_rows: 'nan' },
  },
  {
    name: 'inspect, masked mean gradient summary and NaN attention rows',
    command: 'inspect',
    request: {
      features: [
        { input_ids: [1, 5, 6, 2], labels: [-100, -100, -100, -100] },
        { input_ids: [1, 7], labels: [-100, -100] },
      ],
      pad_token_id: 0,
      vocab: ['<pad>', '<bos>', '<eos>'],
      padding_side: 'left',
      label_policy: 'given',
      reduction: 'masked_mean',
      per_token_loss: 'log_softmax_gather',
      gradient: true,
      fully_masked_rows: 'nan',
    },
  },
  {
    name: 'inspect, TRL 0.20-0.23 padding-free mask read by FlashAttention-2',
    command: 'inspect',
    request: {
      text_features: ['a b c', 'd e'],
      packing: 'padding_free_legacy',
      attn_implementation: 'flash_attention_2',
    },
  },
  {
    name: 'error: a row to pad and no pad_token_id',
    command: 'collate',
    request: { features: [{ input_ids: [1, 2] }, { input_ids: [3] }] },
    error: 'pad_token_id',
  },
  {
    name: 'error: truncation with max_length not a multiple of pad_to_multiple_of',
    command: 'collate',
    request: { features: [{ input_ids: [1, 2] }], pad_token_id: 0, truncation: true, max_length: 10, pad_to_multiple_of: 8 },
    error: 'max_length',
  },
  // Bad input: the same field and message from both, and the CLI exits 2.
  {
    name: 'error: id outside the vocabulary',
    command: 'collate',
    request: { features: [{ input_ids: [1, 2] }, { input_ids: [1, 2, 3, 12] }], pad_token_id: 0, vocab_size: 10 },
    error: 'features[1].input_ids[3]',
  },
  {
    name: 'error: labels row longer than the logits',
    command: 'loss',
    request: { logits: LOGITS_1x3x4, labels: [[2, 0, 3, 1]] },
    error: 'labels',
  },
  {
    name: 'error: malformed JSON',
    command: 'attention',
    request: '{"q": [[[1, 0]]], "k": ',
    error: '',
  },
];

const chatModule = await loadWasmChat();

for (const { name, command, request, error } of CASES) {
  test(`${command}: ${name}`, async (t) => {
    const json = typeof request === 'string' ? request : JSON.stringify(request);
    const wasm = await runWasmRaw(command, json);
    const cli = runCli(command, json);
    assert.equal(cli.signal, null, 'the CLI must not die from a signal');

    const answer = JSON.parse(wasm);
    const core = await loadWasmFor(command);
    // The chat module links the same collate: the same bytes, errors included.
    if (command === 'collate') assert.equal(chatModule.runJson(command, json), wasm, 'the chat module answers collate the same');

    if (error === undefined) {
      assert.equal(answer.error, undefined, `expected an answer, got ${wasm}`);
      assert.equal(cli.status, 0, cli.stderr);
      assert.equal(cli.stderr, '');
      assert.ok(cli.stdout.endsWith('\n'), 'CLI stdout ends with a newline');
      if (cli.stdout !== `${wasm}\n`) {
        t.diagnostic(`${name}: native and wasm differ in the last digits`);
        assertSameAnswer(JSON.parse(cli.stdout), answer);
      }
      assert.deepEqual(core[command](request), answer, 'the module\'s face must return the parsed answer');
    } else {
      assert.ok(answer.error, `expected an error answer, got ${wasm}`);
      if (error) assert.ok(answer.error.field.startsWith(error), `field ${answer.error.field} should start with ${error}`);
      assert.ok(answer.error.message.length > 0);
      if (typeof request !== 'string') assert.deepEqual(core[command](request), answer, 'the module\'s face returns errors as data');
      assert.equal(cli.status, 2);
      assert.equal(cli.stdout, '');
      assert.equal(cli.stderr, `masklab: ${answer.error.field || 'request'}: ${answer.error.message}\n`);
    }
  });
}
