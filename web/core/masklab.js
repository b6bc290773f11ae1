// The JavaScript face of the masklab core module (the C++ core's batch commands compiled to
// WebAssembly). Three modules, so each page downloads only the code it runs:
//
//   import { loadCore } from './core/masklab.js';  // collate, loss, accumulate, attention, inspect
//   import { loadChat } from './core/chat.js';     // chat, collate        (the Chat masks page)
//   import { loadDoctor } from './core/doctor.js'; // doctor               (the batch doctor page)
//
//   const core = await loadCore();                 // node: loadCore({ wasmBinary })
//   const batch = core.collate({ features: [{ input_ids: [5, 6, 7] }], pad_token_id: 0 });
//   if (batch.error) show(batch.error.field, batch.error.message);
//
// Plain objects in, plain objects out: each command takes the same JSON the CLI reads and gives
// back the same answer, computed by the same C++ function. Failures are answers too —
// `{ error: { field, message } }` — never throws, so a widget handles bad input with one `if`.
// A command of another module is answered with an error, never run. This file adds no maths of its
// own: every number a page shows comes from the core.
//
// Besides the commands (the only enumerable keys of the core object):
//   core.typed.loss({ logits, labels, shape: [B, T, V], ...options })
//       logits a Float32Array or Float64Array [B*T*V], labels an Int32Array [B*T]; answers with
//       per_token (Float64Array), targets (Int32Array) and, when asked, gradient (the logits'
//       type) as typed arrays — no JSON numbers either way. For the training page and anything
//       with large tensors (cpp/core/tensor_api.hpp). core.loss uses it for large requests.
//   core.typed.collate({ input_ids, lengths, labels?, completion_mask?, assistant_masks?, ...options })
//       rows end to end in Int32Arrays; answers with [B*T] typed arrays.
// and on every module (chat.js and doctor.js too):
//   core.runJson(command, text) -> text   the module's exact answer bytes (tests, embeds with JSON)
//   core.limits                           { max_request_bytes, max_loss_values, max_gradient_values }
//   core.benchRun(command, text, n)       ms for n calls timed inside wasm (scripts/bench)
//   core.memoryBytes()                    the module's memory now (it only grows; scripts/bench)
//
// Each module's boundary is a plain C ABI (cpp/bindings/): boundary.js copies UTF-8 and typed
// arrays into memory it mallocs there, and frees everything before returning. Each face imports
// its own Emscripten glue statically, so a page's bundle reaches exactly the .wasm it runs.

import createMasklabCore from '../generated/masklab_core.mjs';
import { Boundary, call, commandFace, errorAnswer, guard, isObject, moduleLoader } from './boundary.js';

/** Version of the site + core bundle (kept equal to package.json's "version" by a test). */
export const version = '0.1.0';

/** The commands of the core module (cpp/core/commands_batch.cpp). */
export const CORE_COMMANDS = Object.freeze(['collate', 'loss', 'accumulate', 'attention', 'inspect']);

// core.loss switches to the typed path from this many logits: below it the JSON text is small
// and the two paths cost the same.
const TYPED_LOSS_FROM = 16384;

/**
 * Loads the core module once and returns its frozen API. Later calls return the same promise;
 * `options` (passed to the Emscripten factory, e.g. `{ wasmBinary }`) only count on the first
 * call. A failed load is not cached, so a page can offer "try again".
 */
export const loadCore = moduleLoader(createMasklabCore, wrap, 'core');

function wrap(module) {
  const boundary = new Boundary(module);
  return commandFace(boundary, CORE_COMMANDS, {
    loss: (request) => guard('loss', () => lossThroughTypedPath(boundary, request)) ?? call(boundary, 'loss', request),
    typed: {
      value: Object.freeze({
        loss: (request) => guard('loss', () => typedLoss(boundary, request)),
        collate: (request) => guard('collate', () => typedCollate(boundary, request)),
      }),
    },
  });
}

// --- the typed-array path ---------------------------------------------------------------------

function typedLoss(boundary, request) {
  if (!isObject(request)) return errorAnswer('request', 'must be an object with logits, labels and shape');
  const { logits, labels, shape, ...options } = request;
  if (!(logits instanceof Float32Array || logits instanceof Float64Array))
    return errorAnswer('logits', 'expected a Float32Array or Float64Array of B*T*V values');
  if (!(labels instanceof Int32Array)) return errorAnswer('labels', 'expected an Int32Array of B*T values');
  if (!Array.isArray(shape) || shape.length !== 3 || !shape.every((d) => Number.isInteger(d) && d >= 0 && d < 2 ** 31))
    return errorAnswer('shape', 'expected [B, T, V]: three integers >= 0');
  const [B, T, V] = shape;
  if (logits.length !== B * T * V) return errorAnswer('logits', `holds ${logits.length} values but shape says B*T*V = ${B * T * V}`);
  if (labels.length !== B * T) return errorAnswer('labels', `holds ${labels.length} values but shape says B*T = ${B * T}`);
  const { answer, tensors } = boundary.runTensors('loss', options, [
    { name: 'logits', array: logits, shape: [B, T, V] },
    { name: 'labels', array: labels, shape: [B, T] },
  ]);
  if (answer.error) return answer;
  const out = { ...answer, per_token: tensors.per_token.array, targets: tensors.targets.array, shape: [B, T, V] };
  if (tensors.gradient) out.gradient = tensors.gradient.array;
  return out;
}

function typedCollate(boundary, request) {
  if (!isObject(request)) return errorAnswer('request', 'must be an object with input_ids and lengths');
  const { input_ids: ids, lengths, labels, completion_mask: completion, assistant_masks: assistant, ...options } = request;
  const inputs = [];
  for (const [name, value] of [['input_ids', ids], ['lengths', lengths], ['labels', labels], ['completion_mask', completion], ['assistant_masks', assistant]]) {
    if (value === undefined && name !== 'input_ids' && name !== 'lengths') continue;
    const array = Array.isArray(value) && value.every((x) => Number.isInteger(x)) ? Int32Array.from(value) : value;
    if (!(array instanceof Int32Array)) return errorAnswer(name, 'expected an Int32Array (rows end to end)');
    inputs.push({ name, array, shape: [array.length] });
  }
  const { answer, tensors } = boundary.runTensors('collate', options, inputs);
  if (answer.error) return answer;
  const out = { ...answer };
  for (const [name, tensor] of Object.entries(tensors)) out[name] = tensor.array;
  return out;
}

// core.loss on a large request: the nested arrays go over as typed arrays and the answer comes
// back in exactly the JSON path's shape. Returns null (use the JSON path) for a small request
// or anything not plainly rectangular and finite, so every error message stays the JSON path's.
function lossThroughTypedPath(boundary, request) {
  if (!isObject(request) || !Array.isArray(request.logits) || !Array.isArray(request.labels)) return null;
  const logits = flatten(request.logits, 3, (x) => typeof x === 'number' && Number.isFinite(x), Float64Array);
  if (!logits) return null;
  const [B, T, V] = logits.shape;
  const count = B * T * V;
  if (count < TYPED_LOSS_FROM || count > boundary.limits.max_loss_values) return null;
  // A JSON gradient has its own bound (it is printed); past it the JSON path refuses, as the CLI.
  if (request.gradient === true && count > boundary.limits.max_gradient_values) return null;
  const labels = flatten(request.labels, 2, (x) => Number.isInteger(x) && x >= -(2 ** 31) && x < 2 ** 31, Int32Array);
  if (!labels || labels.shape[0] !== B || labels.shape[1] !== T) return null;
  const { logits: _l, labels: _t, ...options } = request;
  const { answer, tensors } = boundary.runTensors('loss', options, [
    { name: 'logits', array: logits.array, shape: [B, T, V] },
    { name: 'labels', array: labels.array, shape: [B, T] },
  ]);
  if (answer.error) return answer;
  // The JSON path's key order, with JSON's numbers: non-finite -> null, -0 -> 0.
  const out = {};
  // The answer holds "gradient": null (in place) when there is none; a gradient tensor goes where
  // the JSON path writes it, after rows_without_targets.
  for (const [key, value] of Object.entries(answer)) {
    out[key] = value;
    if (key === 'sum') {
      out.per_token = nest(tensors.per_token.array, [B, T]);
      out.targets = nest(tensors.targets.array, [B, T]);
    }
    if (key === 'rows_without_targets' && tensors.gradient) out.gradient = nest(tensors.gradient.array, [B, T, V]);
  }
  return out;
}

// A rectangular nested array of `rank` levels whose leaves pass `ok` -> { array, shape }, else null.
function flatten(nested, rank, ok, Typed) {
  const shape = [];
  let level = nested;
  for (let d = 0; d < rank; d++) {
    if (!Array.isArray(level) || level.length === 0) return null;
    shape.push(level.length);
    level = level[0];
  }
  const array = new Typed(shape.reduce((a, b) => a * b, 1));
  let at = 0;
  const walk = (node, depth) => {
    if (!Array.isArray(node) || node.length !== shape[depth]) return false;
    if (depth === rank - 1) {
      for (const x of node) {
        if (!ok(x)) return false;
        array[at++] = x;
      }
      return true;
    }
    for (const child of node) if (!walk(child, depth + 1)) return false;
    return true;
  };
  return walk(nested, 0) ? { array, shape } : null;
}

function nest(flat, shape) {
  const json = (x) => (Number.isFinite(x) ? x + 0 : null); // what the JSON text would read back as
  const build = (offset, depth) => {
    const n = shape[depth];
    if (depth === shape.length - 1) return Array.from(flat.subarray(offset, offset + n), json);
    const stride = shape.slice(depth + 1).reduce((a, b) => a * b, 1);
    return Array.from({ length: n }, (_, i) => build(offset + i * stride, depth + 1));
  };
  return build(0, 0);
}

