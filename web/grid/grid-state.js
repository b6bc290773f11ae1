// grid-state.js — the token grid page's state: one typed table (serialised to the URL by
// shared/url-state.js) and the one function that turns that state into an inspect request.
//
//   const { state, problems } = GRID_STATE.read();
//   const request = inspectRequest(state);      // -> core.inspect(request)
//
// Cell toggles are stored as "b.t" strings (tm = attention_mask, tl = labels); toggling a cell
// twice removes it (toggleCell), so the URL holds exactly the cells that differ from the
// collator's output. Not here: the form (grid/controls.js) or drawing (token-grid.js).

import { defineState } from '../shared/url-state.js';

export const MAX_EXAMPLES = 4;
export const MIN_EXAMPLES = 2;

// The examples a first visit shows: a plain text and a prompt/completion pair of different
// lengths, so padding, a prompt mask and EOS targets are all on screen at once.
export const DEFAULT_EXAMPLES = [
  { prompt: '', text: 'The cat sat on the mat and looked at the door.' },
  { prompt: 'Who sat?', text: 'The cat.' },
  { prompt: '', text: 'Dogs bark.' },
  { prompt: 'Say hi.', text: 'Hello there!' },
];

const TEXT_SPEC = { type: 'string', maxLength: 300 };
const CELL = /^\d{1,2}\.\d{1,3}$/;

const schema = {
  n: { type: 'int', min: MIN_EXAMPLES, max: MAX_EXAMPLES, default: 2 },
  side: { type: 'enum', values: ['right', 'left'], default: 'right' },
  padding: { type: 'enum', values: ['longest', 'max_length', 'do_not_pad'], default: 'longest' },
  max: { type: 'int', min: 1, max: 128, default: 16 },
  trunc: { type: 'bool', default: false },
  tside: { type: 'enum', values: ['right', 'left'], default: 'right' },
  multiple: { type: 'enum', values: ['0', '2', '4', '8', '16', '32'], default: '0' },
  padeos: { type: 'bool', default: false },
  mask: { type: 'enum', values: ['from_lengths', 'all_ones', 'input_ids_ne_pad'], default: 'from_lengths' },
  labels: { type: 'enum', values: ['mask_padding', 'input_ids', 'mask_pad_id'], default: 'mask_padding' },
  labelpad: { type: 'enum', values: ['-100', '0'], default: '-100' },
  packing: { type: 'enum', values: ['none', 'flatten', 'concat_unsafe'], default: 'none' },
  pos: { type: 'enum', values: ['arange', 'from_mask'], default: 'arange' },
  attn: { type: 'enum', values: ['causal', 'bidirectional'], default: 'causal' },
  // refit: the tiny model is fitted on the edited labels (as training would); frozen: on the
  // labels before any edit, so a toggle changes only the targets it touches.
  model: { type: 'enum', values: ['refit', 'frozen'], default: 'refit' },
  row: { type: 'int', min: 0, max: 15, default: 0 },
  tm: { type: 'list', item: CELL, maxItems: 64, default: [] },
  tl: { type: 'list', item: CELL, maxItems: 64, default: [] },
};
DEFAULT_EXAMPLES.forEach((example, i) => {
  schema[`e${i + 1}`] = { ...TEXT_SPEC, default: example.text };
  schema[`p${i + 1}`] = { ...TEXT_SPEC, default: example.prompt };
});

// A parameter the page does not read is explained on the page, not silently ignored.
export const GRID_STATE = defineState(schema, { reportUnknown: true });

/** The examples in use: [{ prompt, text }] (n of them). */
export function examplesOf(state) {
  return Array.from({ length: state.n }, (_, i) => ({ prompt: state[`p${i + 1}`], text: state[`e${i + 1}`] }));
}

function pairs(list) {
  return list.map((item) => item.split('.').map(Number));
}

/** The inspect request for a state. Pure: same state, same request. */
export function inspectRequest(state) {
  const request = {
    text_features: examplesOf(state).map(({ prompt, text }) => (prompt.trim() ? { prompt, completion: text } : text)),
    pad_token_id: state.padeos ? 2 : 0, // 2 = <eos> in the built-in tokenizer: pad == eos
    padding: state.padding,
    padding_side: state.side,
    attention_mask_policy: state.mask,
    label_policy: state.labels,
    label_pad_token_id: Number(state.labelpad),
    packing: state.packing,
    position_ids: state.pos,
    causal: state.attn === 'causal',
  };
  if (state.padding === 'max_length' || state.trunc) request.max_length = state.max;
  if (state.trunc) {
    request.truncation = true;
    request.truncation_side = state.tside;
  }
  if (state.multiple !== '0') request.pad_to_multiple_of = Number(state.multiple);
  if (state.tm.length) request.toggle_attention_mask = pairs(state.tm);
  if (state.tl.length) request.toggle_labels = pairs(state.tl);
  if (state.model === 'frozen') request.freeze_model = true;
  return request;
}

/** A new state with cell (b, t) of `kind` toggled: added if absent, removed if present. */
export function toggleCell(state, kind, b, t) {
  const key = kind === 'attention_mask' ? 'tm' : 'tl';
  const cell = `${b}.${t}`;
  const list = state[key].includes(cell) ? state[key].filter((c) => c !== cell) : [...state[key], cell];
  return { ...state, [key]: list };
}
