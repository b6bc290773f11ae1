// doctor-state.js — the Batch doctor page's state, kept in its URL (url-state.js), and the
// request it makes of the core.
//
//   const { state, problems } = DOCTOR_STATE.read();
//   core.doctor(doctorRequest(state, text))           // the diagnosis
//   core.doctor(doctorRequest(state, text, view))     // plus a window of the batch for the grid
//
// A pasted batch goes into the link only when it is short (MAX_LINKED_TEXT characters), so a
// shared or embedded link shows the same case; a longer paste stays on the page.

import { defineState } from '../shared/url-state.js';
import { EXAMPLE_IDS } from './examples.js';

export const MAX_LINKED_TEXT = 6000;
const TOKEN_ID = /^(-?\d{1,10})?$/;

export const DOCTOR_STATE = defineState({
  // `example`, not `ex`: exercise.html?ex= names an exercise; these are the doctor's own batches.
  ex: { type: 'enum', values: ['', ...EXAMPLE_IDS], default: '', param: 'example' },
  text: { type: 'string', maxLength: MAX_LINKED_TEXT, default: '' },
  pad: { type: 'string', pattern: TOKEN_ID, maxLength: 11, default: '' },
  eos: { type: 'string', pattern: TOKEN_ID, maxLength: 11, default: '' },
  eot: { type: 'string', pattern: TOKEN_ID, maxLength: 11, default: '' },
  model: { type: 'enum', values: ['decoder', 'encoder'], default: 'decoder' },
  pc: { type: 'bool', default: false },
  family: { type: 'string', pattern: /^[a-z0-9_.-]{0,40}$/, maxLength: 40, default: '' },
  finding: { type: 'int', min: 0, max: 999, default: 0 },
});

const idOrUndefined = (s) => (s === '' ? undefined : Number(s));

// The core's doctor request: the text, what the form says the batch cannot, and a grid window.
export function doctorRequest(state, text, view) {
  const request = {
    text,
    pad_token_id: idOrUndefined(state.pad),
    eos_token_id: idOrUndefined(state.eos),
    end_of_turn_id: idOrUndefined(state.eot),
    encoder: state.model === 'encoder',
    prompt_completion: state.pc,
  };
  if (view) request.view = view;
  return request;
}

// The state an example sets: its options, nothing else of what the reader had.
export function exampleState(state, example) {
  const o = example.options;
  const id = (x) => (x === undefined ? '' : String(x));
  return {
    ...state,
    ex: example.id,
    text: '',
    pad: id(o.pad_token_id),
    eos: id(o.eos_token_id),
    eot: id(o.end_of_turn_id),
    model: o.encoder ? 'encoder' : 'decoder',
    pc: Boolean(o.prompt_completion),
    finding: 0,
  };
}
