// dilution-batch.js — the one example batch the loss-dilution page works through, and the two
// inspect requests (buggy: labels = input_ids; fixed: pads labelled −100) for k extra pads.
//
//   const T0 = core.inspect(baseRequest()).batch.shape[1];   // longest row, no extra pads
//   core.inspect(dilutionRequest('buggy', T0, k));            // padded to max_length = T0 + k
//
// Pure request builders: no maths, no core calls. The page (main.js) asks the core.

// Two rows of different lengths, so even k = 0 pads the shorter one.
export const EXAMPLE_TEXTS = ['The cat sat on the mat.', 'A dog ran home.'];

export const MAX_EXTRA_PADS = 32;

export const POLICIES = {
  buggy: 'input_ids', // labels = input_ids: pads are scored
  fixed: 'mask_padding', // pads labelled −100 by position
};

// The page draws no attention, so it does not ask for it (the core answers ~10x faster).
const WITHOUT_ATTENTION = { with_attention: false };

/** The batch padded to the longest row only (to learn its length T0 from the core). */
export function baseRequest() {
  return { text_features: EXAMPLE_TEXTS, padding: 'longest', label_policy: POLICIES.fixed, ...WITHOUT_ATTENTION };
}

/** `side` 'buggy' | 'fixed'; every row padded to max_length = longest + k. */
export function dilutionRequest(side, longest, k) {
  return {
    text_features: EXAMPLE_TEXTS,
    padding: 'max_length',
    max_length: longest + k,
    label_policy: POLICIES[side],
    ...WITHOUT_ATTENTION,
  };
}
