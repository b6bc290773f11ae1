// The JavaScript face of the masklab core (the C++ core compiled to WebAssembly).
//
//   import { loadCore } from './core/masklab.js';
//   const core = await loadCore();                 // node tests: loadCore({ wasmBinary })
//   const batch = core.collate({ features: [{ input_ids: [5, 6, 7] }], pad_token_id: 0 });
//   if (batch.error) show(batch.error.field, batch.error.message);
//
// Plain objects in, plain objects out: each command takes the same JSON the CLI reads and gives
// back the same answer, computed by the same C++ function. Failures are answers too —
// `{ error: { field, message } }` — never throws, so a widget handles bad input with one `if`.
// This file adds no maths of its own: every number a page shows comes from the core.
//
// Besides the commands (the only enumerable keys of the core object):
//   core.typed.loss({ logits, labels, shape: [B, T, V], ...options })
//       logits a Float32Array or Float64Array [B*T*V], labels an Int32Array [B*T]; answers with
//       per_token (Float64Array), targets (Int32Array) and, when asked, gradient (the logits'
//       type) as typed arrays — no JSON numbers either way. For the training page and anything
//       with large tensors (cpp/core/tensor_api.hpp). core.loss uses it for large requests.
//   core.typed.collate({ input_ids, lengths, labels?, completion_mask?, assistant_masks?, ...options })
//       rows end to end in Int32Arrays; answers with [B*T] typed arrays.
//   core.runJson(command, text) -> text   the core's exact answer bytes (tests, embeds with JSON)
//   core.limits                           { max_request_bytes, max_loss_values, max_gradient_values }
//   core.benchRun(command, text, n)       ms for n calls timed inside wasm (scripts/bench)
//   core.memoryBytes()                    the module's memory now (it only grows; scripts/bench)
//
// The module's boundary is a plain C ABI (cpp/bindings/wasm_api.cpp): this file copies UTF-8 and
// typed arrays into memory it mallocs there, and frees everything before returning.

import createMasklabCore from '../generated/masklab_core.mjs';

/** Version of the site + core bundle (kept equal to package.json's "version" by a test). */
export const version = '0.1.0';

const COMMANDS = ['collate', 'loss', 'accumulate', 'attention', 'inspect', 'chat'];

// core.loss switches to the typed path from this many logits: below it the JSON text is small
// and the two paths cost the same.
const TYPED_LOSS_FROM = 16384;

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
  const boundary = new Boundary(module);
  const api = {};
  for (const command of COMMANDS) api[command] = (request) => call(boundary, command, request);
  // doctor({ text, pad_token_id, … }): the pasted text crosses on its own rather than escaped
  // inside a JSON request (megabytes of print(batch) output); the options go as JSON.
  api.doctor = (request) => {
    const { text, ...options } = request ?? {};
    if (typeof text !== 'string') return errorAnswer('text', 'is missing; paste what print(batch) printed');
    return call(boundary, 'doctor', options, (json) => boundary.doctor(text, json));
  };
  const hidden = (value) => ({ value, enumerable: false });
  Object.defineProperties(api, {
    typed: hidden(
      Object.freeze({
        loss: (request) => guard('loss', () => typedLoss(boundary, request)),
        collate: (request) => guard('collate', () => typedCollate(boundary, request)),
      }),
    ),
    runJson: hidden((command, text) => boundary.run(command, String(text))),
    doctorJson: hidden((text, optionsJson) => boundary.doctor(String(text), String(optionsJson))),
    limits: hidden(boundary.limits),
    benchRun: hidden((command, text, iterations) => boundary.bench(command, String(text), iterations)),
    benchDoctor: hidden((text, optionsJson, iterations) => boundary.benchDoctor(String(text), String(optionsJson), iterations)),
    memoryBytes: hidden(() => module.HEAPU8.length),
  });
  return Object.freeze(api);
}

function call(boundary, command, request, run = (json) => boundary.run(command, json)) {
  if (command === 'loss') {
    const typed = guard('loss', () => lossThroughTypedPath(boundary, request));
    if (typed !== null) return typed;
  }
  let json;
  try {
    json = JSON.stringify(request);
  } catch (cause) {
    return errorAnswer('request', `cannot be encoded as JSON: ${describe(cause)}`);
  }
  if (json === undefined) return errorAnswer('request', 'must be a JSON object, got nothing');
  const answer = guard(command, () => run(json));
  if (typeof answer !== 'string') return answer;
  try {
    return JSON.parse(answer);
  } catch (cause) {
    return errorAnswer('core', `${command} returned invalid JSON: ${describe(cause)}`);
  }
}

// Only reachable if the module itself breaks (out of memory): the C ABI catches every C++ error.
function guard(command, run) {
  try {
    return run();
  } catch (cause) {
    return errorAnswer('core', `${command} failed inside the WebAssembly module: ${describe(cause)}`);
  }
}

// --- the boundary -----------------------------------------------------------------------------

const DTYPES = [
  { id: 0, name: 'int32', Array: Int32Array },
  { id: 1, name: 'float32', Array: Float32Array },
  { id: 2, name: 'float64', Array: Float64Array },
  { id: 3, name: 'uint8', Array: Uint8Array },
];
const TENSOR_BYTES = 32; // struct masklab_tensor in wasm_api.cpp

class Boundary {
  constructor(module) {
    this.m = module;
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
    const sizeAt = this.alloc(4);
    try {
      this.limits = Object.freeze(JSON.parse(this.takeText(module._masklab_limits(sizeAt), sizeAt)));
    } finally {
      module._free(sizeAt);
    }
  }

  alloc(bytes) {
    const at = this.m._malloc(Math.max(bytes, 1));
    if (!at) throw new Error(`cannot allocate ${bytes} bytes of WebAssembly memory`);
    return at;
  }

  // UTF-8 bytes of `text`, NUL-terminated, in memory the caller frees.
  putText(text) {
    const bytes = this.encoder.encode(text);
    const at = this.alloc(bytes.length + 1);
    this.m.HEAPU8.set(bytes, at);
    this.m.HEAPU8[at + bytes.length] = 0;
    return { at, size: bytes.length };
  }

  // Reads and frees a malloc'd answer whose size the core wrote at sizeAt.
  takeText(at, sizeAt) {
    if (!at) throw new Error('the core could not allocate its answer');
    const size = this.m.HEAPU32[sizeAt >> 2];
    const text = this.decoder.decode(this.m.HEAPU8.subarray(at, at + size));
    this.m._free(at);
    return text;
  }

  run(command, text) {
    const held = [];
    try {
      const name = this.putText(command);
      held.push(name.at);
      const request = this.putText(text);
      held.push(request.at);
      const sizeAt = this.alloc(4);
      held.push(sizeAt);
      return this.takeText(this.m._masklab_run(name.at, request.at, request.size, sizeAt), sizeAt);
    } finally {
      for (const at of held) this.m._free(at);
    }
  }

  // The batch doctor: the pasted text and the options' JSON, each as it is.
  doctor(text, optionsJson) {
    const held = [];
    try {
      const pasted = this.putText(text);
      held.push(pasted.at);
      const options = this.putText(optionsJson);
      held.push(options.at);
      const sizeAt = this.alloc(4);
      held.push(sizeAt);
      return this.takeText(this.m._masklab_doctor(pasted.at, pasted.size, options.at, options.size, sizeAt), sizeAt);
    } finally {
      for (const at of held) this.m._free(at);
    }
  }

  benchDoctor(text, optionsJson, iterations) {
    const pasted = this.putText(text);
    const options = this.putText(optionsJson);
    try {
      return this.m._masklab_bench_doctor(pasted.at, pasted.size, options.at, options.size, iterations);
    } finally {
      this.m._free(pasted.at);
      this.m._free(options.at);
    }
  }

  bench(command, text, iterations) {
    const name = this.putText(command);
    const request = this.putText(text);
    try {
      return this.m._masklab_bench_run(name.at, request.at, request.size, iterations);
    } finally {
      this.m._free(name.at);
      this.m._free(request.at);
    }
  }

  // inputs: [{ name, array (a typed array), shape }] -> { answer (parsed JSON), tensors: { name: { array, shape } } }
  runTensors(command, options, inputs) {
    const m = this.m;
    const held = [];
    let result = 0;
    try {
      const put = (text) => {
        const t = this.putText(text);
        held.push(t.at);
        return t;
      };
      const name = put(command);
      const json = put(JSON.stringify(options));
      const table = this.alloc(TENSOR_BYTES * Math.max(inputs.length, 1));
      held.push(table);
      // Allocate everything first: a malloc may grow the memory and replace the HEAP views.
      const placed = inputs.map((input) => {
        const data = this.alloc(input.array.byteLength);
        held.push(data);
        return { input, label: put(input.name), data };
      });
      placed.forEach(({ input, label, data }, i) => {
        const dtype = DTYPES.find((d) => input.array instanceof d.Array);
        new dtype.Array(m.HEAPU8.buffer, data, input.array.length).set(input.array);
        const at = (table + i * TENSOR_BYTES) >> 2;
        m.HEAP32[at] = label.at;
        m.HEAP32[at + 1] = dtype.id;
        m.HEAP32[at + 2] = input.shape.length;
        for (let d = 0; d < 4; d++) m.HEAP32[at + 3 + d] = input.shape[d] ?? 0;
        m.HEAP32[at + 7] = data;
      });
      result = m._masklab_run_tensors(name.at, json.at, json.size, table, inputs.length);
      if (!result) throw new Error('the core could not allocate its answer');
      const r = result >> 2;
      const jsonAt = m.HEAPU32[r];
      const answer = JSON.parse(this.decoder.decode(m.HEAPU8.subarray(jsonAt, jsonAt + m.HEAPU32[r + 1])));
      const tensors = {};
      for (let i = 0; i < m.HEAP32[r + 2]; i++) {
        const t = (m.HEAPU32[r + 3] + i * TENSOR_BYTES) >> 2;
        const nameAt = m.HEAPU32[t];
        const tensorName = this.decoder.decode(m.HEAPU8.subarray(nameAt, m.HEAPU8.indexOf(0, nameAt)));
        const shape = Array.from(m.HEAP32.subarray(t + 3, t + 3 + m.HEAP32[t + 2]));
        const count = shape.reduce((a, b) => a * b, 1);
        const { Array: Typed } = DTYPES[m.HEAP32[t + 1]];
        // A copy: views into wasm memory detach when it grows.
        tensors[tensorName] = { array: new Typed(m.HEAPU8.buffer, m.HEAPU32[t + 7], count).slice(), shape };
      }
      return { answer, tensors };
    } finally {
      if (result) m._masklab_free_result(result);
      for (const at of held) m._free(at);
    }
  }
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

// --- helpers ----------------------------------------------------------------------------------

function isObject(x) {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function errorAnswer(field, message) {
  return { error: { field, message } };
}

function describe(cause) {
  return cause instanceof Error ? cause.message : String(cause);
}
