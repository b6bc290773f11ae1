// train-state.js — the Train page's settings, all in the URL (shared/url-state.js), so a link
// or an embed reproduces a run exactly: the same seed, steps and settings give the same curves.
//
// The names match `masklab train`'s JSON settings (toSettings), except `every` for log_every and
// `autorun`, which starts training as soon as the page is ready (for embeds and shared links).
// The ranges are the core's own (training.hpp); the core checks them again.

import { defineState } from '../shared/url-state.js';

export const BUGS = [
  'pad_eos_masked',
  'pads_trained',
  'all_ones_mask',
  'left_pad_arange_positions',
  'prompt_trained',
  'token_vs_example_mean',
  'grad_accum_mean_of_means',
];
export const MODELS = ['tiny', 'small', 'medium'];
export const MIXES = ['uniform', 'skewed'];
export const LEARNING_RATES = [0.0003, 0.001, 0.003, 0.01, 0.03];

export const TRAIN_STATE = defineState({
  bug: { type: 'enum', values: BUGS, default: 'pad_eos_masked' },
  steps: { type: 'int', min: 10, max: 3000, default: 300 },
  seed: { type: 'int', min: 0, max: 999999999, default: 0 },
  lr: { type: 'number', min: 0.0001, max: 0.1, default: 0.003 },
  model: { type: 'enum', values: MODELS, default: 'small' },
  mix: { type: 'enum', values: MIXES, default: 'uniform' },
  every: { type: 'int', min: 1, max: 100, default: 10 },
  autorun: { type: 'bool', default: false },
});

// The JSON settings the core reads (the same object `masklab train` takes on stdin).
export function toSettings(state) {
  return {
    bug: state.bug,
    steps: state.steps,
    seed: state.seed,
    lr: state.lr,
    model: state.model,
    mix: state.mix,
    log_every: Math.min(state.every, state.steps),
  };
}
