// The home page demo's inputs: a two-row batch and the toy model that scores it.
//
// Shared by web/main.js (which shows the core's answers) and tests/browser/demo.test.mjs (which
// asks the node copy of the core the same questions). Inputs only: every number the page shows
// comes back from the core.

/** Vocabulary size of the demo: ids 0..15, 0 = pad, 1 = bos, 2 = eos. */
export const DEMO_VOCAB_SIZE = 16;

/** The logit the toy model gives the true next token; every other id gets 0. */
export const DEMO_RIGHT_LOGIT = 2;

/** collate request: rows of 6 and 4 real tokens, padded right to T = 6 with pad id 0. */
export const DEMO_COLLATE_REQUEST = Object.freeze({
  features: [{ input_ids: [1, 7, 4, 9, 12, 2] }, { input_ids: [1, 5, 11, 2] }],
  pad_token_id: 0,
  eos_token_id: 2,
  vocab_size: DEMO_VOCAB_SIZE,
  padding: 'longest',
  padding_side: 'right',
  label_policy: 'mask_padding',
});

/**
 * loss request for a collated batch. The toy "model" reads the answer off the batch: at position
 * t it puts DEMO_RIGHT_LOGIT on input_ids[b][t + 1] and 0 on the rest (the last position, with no
 * next token, is all zeros). logits: [B][T][V].
 * Example: input_ids [[1, 7]] -> logits [[[0,0,…,2 at id 7,…], [0,…,0]]].
 */
export function demoLossRequest(batch) {
  const logits = batch.input_ids.map((row) =>
    row.map((_, t) =>
      Array.from({ length: DEMO_VOCAB_SIZE }, (_, v) => (t + 1 < row.length && v === row[t + 1] ? DEMO_RIGHT_LOGIT : 0)),
    ),
  );
  return { logits, labels: batch.labels, shift: true, ignore_index: -100, reduction: 'mean' };
}
