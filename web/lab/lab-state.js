// lab-state.js — the normalization lab's state: one typed table (shared/url-state.js) for all
// three panels, plus the clean-up of the micro-batch lists. Reload or share the link and the
// inputs, predictions and sliders come back.
//
//   const { state, problems } = readLabState();   writeLabState(state);
//
// Not here: any panel's drawing or the core calls.

import { defineState } from '../shared/url-state.js';

// Every user-visible string of this file, in one place.
const STATE_TEXT = {
  outside: (param, i, raw, [min, max]) => `URL parameter ${param}: item ${i + 1} (${raw}) is outside ${min}–${max}; using the default.`,
};

export const LIMITS = {
  rowTargets: { short: [1, 16], long: [1, 32] },
  sure: [0, 6], // the toy model's logit on the right token
  microBatches: [2, 4],
  microTargets: [0, 16],
};

const DEFAULT_MICRO = { targets: ['2', '6', '4', '8'], sure: ['1', '3', '2', '2'] };

export const LAB_STATE = defineState({
  a: { type: 'number', min: -1e6, max: 1e6, default: 1 },
  x: { type: 'number', min: -1e6, max: 1e6, default: 1 },
  py: { type: 'string', maxLength: 40, default: '' },
  pdx: { type: 'string', maxLength: 40, default: '' },
  ns: { type: 'int', min: 1, max: 16, default: 2 },
  nl: { type: 'int', min: 1, max: 32, default: 8 },
  ss: { type: 'number', min: 0, max: 6, default: 1 },
  sl: { type: 'number', min: 0, max: 6, default: 3 },
  g: { type: 'int', min: 2, max: 4, default: 2 },
  mn: { type: 'list', item: /^\d{1,2}$/, maxItems: 4, default: DEFAULT_MICRO.targets.slice(0, 2) },
  ms: { type: 'list', item: /^\d(\.\d{1,2})?$/, maxItems: 4, default: DEFAULT_MICRO.sure.slice(0, 2) },
}, { reportUnknown: true });

function inRange(value, [min, max]) {
  return Number.isFinite(value) && value >= min && value <= max;
}

/** State with the micro-batch lists as numbers of length g; bad items become defaults. */
export function readLabState(search) {
  const { state, problems } = LAB_STATE.read(search);
  const targets = [];
  const sure = [];
  for (let i = 0; i < state.g; i += 1) {
    const n = Number(state.mn[i] ?? DEFAULT_MICRO.targets[i]);
    const s = Number(state.ms[i] ?? DEFAULT_MICRO.sure[i]);
    if (!inRange(n, LIMITS.microTargets)) problems.push({ param: 'mn', message: STATE_TEXT.outside('mn', i, state.mn[i], LIMITS.microTargets) });
    if (!inRange(s, LIMITS.sure)) problems.push({ param: 'ms', message: STATE_TEXT.outside('ms', i, state.ms[i], LIMITS.sure) });
    targets.push(inRange(n, LIMITS.microTargets) ? n : Number(DEFAULT_MICRO.targets[i]));
    sure.push(inRange(s, LIMITS.sure) ? s : Number(DEFAULT_MICRO.sure[i]));
  }
  return { state: { ...state, microTargets: targets, microSure: sure }, problems };
}

export function writeLabState(state) {
  const { microTargets, microSure, ...rest } = state;
  LAB_STATE.write({ ...rest, mn: microTargets.map(String), ms: microSure.map(String) });
}

export function defaultMicro(i) {
  return { targets: Number(DEFAULT_MICRO.targets[i]), sure: Number(DEFAULT_MICRO.sure[i]) };
}
