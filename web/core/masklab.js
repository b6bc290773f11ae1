// The JavaScript face of the masklab core (the C++ core compiled to WebAssembly).
//
//   import { loadCore } from './core/masklab.js';
//   const core = await loadCore();                 // node tests: loadCore({ wasmBinary })
//   const batch = core.collate({ features: [{ input_ids: [5, 6, 7] }], pad_token_id: 0 });
//   if (batch.error) show(batch.error.field, batch.error.message);
//
// Plain objects in, plain objects out: each call JSON-encodes the request, lets the core answer in
// JSON and decodes it. Failures are answers too — `{ error: { field, message } }` — never throws,
// so a widget handles bad input with one `if`. This file adds no maths of its own: every number a
// page shows comes from the core.

import createMasklabCore from '../generated/masklab_core.mjs';

/** Version of the site + core bundle (kept equal to package.json's "version" by a test). */
export const version = '0.1.0';

const COMMANDS = ['collate', 'loss', 'accumulate', 'attention', 'inspect', 'chat'];

let corePromise = null;

/**
 * Loads the wasm module once and returns the frozen core API. Later calls return the same
 * promise; `options` (passed to the Emscripten factory, e.g. `{ wasmBinary }`) only count on the
 * first call. A failed load is not cached, so a page can offer "try again".
 */
export function loadCore(options = {}) {
  if (!corePromise) {
    corePromise = createMasklabCore({ ...options }).then(wrap, (cause) => {
      corePromise = null;
      throw new Error(`masklab: the WebAssembly core failed to load: ${describe(cause)}`, { cause });
    });
  }
  return corePromise;
}

function wrap(module) {
  const api = {};
  for (const command of COMMANDS) api[command] = (request) => call(module, command, request);
  // doctor({ text, pad_token_id, … }): the pasted text crosses on its own rather than escaped
  // inside a JSON request (megabytes of print(batch) output); the options go as JSON.
  api.doctor = (request) => {
    const { text, ...options } = request ?? {};
    if (typeof text !== 'string') return errorAnswer('text', 'is missing; paste what print(batch) printed');
    return call(module, 'doctor', options, (json) => module.doctor(text, json));
  };
  return Object.freeze(api);
}

function call(module, command, request, run = (json) => module.run(command, json)) {
  let json;
  try {
    json = JSON.stringify(request);
  } catch (cause) {
    return errorAnswer('request', `cannot be encoded as JSON: ${describe(cause)}`);
  }
  if (json === undefined) return errorAnswer('request', 'must be a JSON object, got nothing');

  let answer;
  try {
    answer = run(json);
  } catch (cause) {
    // Only reachable if the module itself breaks (e.g. out of memory): the binding catches C++.
    return errorAnswer('core', `${command} failed inside the WebAssembly module: ${describe(cause)}`);
  }
  try {
    return JSON.parse(answer);
  } catch (cause) {
    return errorAnswer('core', `${command} returned invalid JSON: ${describe(cause)}`);
  }
}

function errorAnswer(field, message) {
  return { error: { field, message } };
}

function describe(cause) {
  return cause instanceof Error ? cause.message : String(cause);
}
