// sweep.js — the loss-dilution page's core answers for every number of extra pads k, each asked
// once: a buggy (labels = input_ids) and a fixed (pads −100) inspect answer per k.
//
//   const sweep = createSweep(core);
//   sweep.at(8)            -> { buggy, fixed, request: { buggy, fixed } }   (asked now if new)
//   await sweep.complete() // every k from 0 to MAX_EXTRA_PADS, asked in slices between frames
//   sweep.all()            -> the answers in order of k
//
// The page never draws attention, so the requests skip it (with_attention: false): the core
// answers in a tenth of the time. A refused request throws an Error naming k. Not here: drawing.

import { MAX_EXTRA_PADS, baseRequest, dilutionRequest } from './dilution-batch.js';

const TEXT = {
  coreRefused: (k, error) => `The core refused the batch for k = ${k}: ${error.field}: ${error.message}`,
};

// How long one slice of the sweep may run before it yields to the browser.
const SLICE_MS = 8;

function checked(answer, k) {
  if (answer.error) throw new Error(TEXT.coreRefused(k, answer.error));
  return answer;
}

export function createSweep(core) {
  const longest = checked(core.inspect(baseRequest()), 0).batch.shape[1];
  const answers = [];

  function at(k) {
    if (!answers[k]) {
      const request = { buggy: dilutionRequest('buggy', longest, k), fixed: dilutionRequest('fixed', longest, k) };
      answers[k] = { buggy: checked(core.inspect(request.buggy), k), fixed: checked(core.inspect(request.fixed), k), request };
    }
    return answers[k];
  }

  let completing = null;
  function complete() {
    completing ??= new Promise((resolve, reject) => {
      let k = 0;
      const slice = () => {
        const until = performance.now() + SLICE_MS;
        try {
          while (k <= MAX_EXTRA_PADS && performance.now() < until) at(k++);
        } catch (error) {
          reject(error);
          return;
        }
        if (k <= MAX_EXTRA_PADS) setTimeout(slice, 0);
        else resolve();
      };
      slice();
    });
    return completing;
  }

  return { at, complete, all: () => answers.slice(0, MAX_EXTRA_PADS + 1), longest };
}
