// boundary.js — what the JavaScript faces of masklab's WebAssembly modules share (masklab.js,
// chat.js, doctor.js): loading a module once, copying UTF-8 and typed arrays across its plain C
// ABI (cpp/bindings/wasm_api.cpp and the *_module.cpp files), and turning every failure into an
// answer. Page code never imports this file: it imports the face of the module it needs.

/**
 * A loader for one module: `load(options)` creates it once (options go to the Emscripten factory,
 * e.g. `{ wasmBinary }` in node, and only count on the first call) and resolves to `wrap(module)`.
 * A failed load is not cached, so a page can offer "try again".
 */
export function moduleLoader(createModule, wrap, what) {
  let promise = null;
  return function load(options = {}) {
    if (!promise) {
      promise = createModule({ ...options }).then(wrap, (cause) => {
        promise = null;
        throw new Error(`masklab: the WebAssembly ${what} failed to load: ${describe(cause)}`, { cause });
      });
    }
    return promise;
  };
}

/**
 * The face every module shares: one function per command (the only enumerable keys) and, hidden,
 * runJson, limits, benchRun and memoryBytes. `extra` adds a module's own members (functions or
 * { value } descriptors for hidden ones). Frozen.
 */
export function commandFace(boundary, commands, extra = {}) {
  const api = {};
  for (const command of commands) api[command] = (request) => call(boundary, command, request);
  const hidden = (value) => ({ value, enumerable: false });
  for (const [name, member] of Object.entries(extra)) {
    if (typeof member === 'function') api[name] = member;
    else Object.defineProperty(api, name, { ...member, enumerable: false });
  }
  Object.defineProperties(api, {
    runJson: hidden((command, text) => boundary.run(command, String(text))),
    limits: hidden(boundary.limits),
    benchRun: hidden((command, text, iterations) => boundary.bench(command, String(text), iterations)),
    memoryBytes: hidden(() => boundary.m.HEAPU8.length),
  });
  return Object.freeze(api);
}

// One command through the JSON path: request object -> JSON text -> the core -> parsed answer.
export function call(boundary, command, request, run = (json) => boundary.run(command, json)) {
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
export function guard(command, run) {
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
const TENSOR_BYTES = 32; // struct masklab_tensor in cpp/bindings/core_module.cpp

export class Boundary {
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

  // The batch doctor (the doctor module only): the pasted text and the options' JSON, each as it is.
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

  // The typed-array path (the core module only).
  // inputs: [{ name, array (a typed array), shape }] -> { answer (parsed JSON), tensors: { name: { array, shape } } }
  // One malloc holds the request: the tensor table, the command, the options' JSON, the tensors'
  // names and their values (each at a multiple of 8), so a call costs one allocation, not one per
  // string and buffer; the answer's tensors are copied out before the core frees them.
  runTensors(command, options, inputs) {
    const m = this.m;
    const json = this.encoder.encode(JSON.stringify(options));
    const names = inputs.map((input) => this.encoder.encode(input.name));
    const align8 = (n) => (n + 7) & ~7;
    let bytes = align8(TENSOR_BYTES * inputs.length);
    const commandAt = bytes;
    bytes = align8(bytes + command.length * 3 + 1); // encodeInto writes at most 3 bytes per UTF-16 unit
    const jsonAt = bytes;
    bytes = align8(bytes + json.length + 1);
    const nameAt = names.map((name) => {
      const at = bytes;
      bytes = align8(bytes + name.length + 1);
      return at;
    });
    const dataAt = inputs.map((input) => {
      const at = bytes;
      bytes = align8(bytes + input.array.byteLength);
      return at;
    });
    const base = this.alloc(bytes);
    let result = 0;
    try {
      const heap = m.HEAPU8; // after the malloc: a growing memory replaces the views
      const written = this.encoder.encodeInto(command, heap.subarray(base + commandAt, base + jsonAt - 1)).written;
      heap[base + commandAt + written] = 0;
      heap.set(json, base + jsonAt);
      heap[base + jsonAt + json.length] = 0;
      inputs.forEach((input, i) => {
        heap.set(names[i], base + nameAt[i]);
        heap[base + nameAt[i] + names[i].length] = 0;
        const dtype = DTYPES.find((d) => input.array instanceof d.Array);
        new dtype.Array(heap.buffer, base + dataAt[i], input.array.length).set(input.array);
        const at = (base + i * TENSOR_BYTES) >> 2;
        m.HEAP32[at] = base + nameAt[i];
        m.HEAP32[at + 1] = dtype.id;
        m.HEAP32[at + 2] = input.shape.length;
        for (let d = 0; d < 4; d++) m.HEAP32[at + 3 + d] = input.shape[d] ?? 0;
        m.HEAP32[at + 7] = base + dataAt[i];
      });
      result = m._masklab_run_tensors(base + commandAt, base + jsonAt, json.length, base, inputs.length);
      if (!result) throw new Error('the core could not allocate its answer');
      const r = result >> 2;
      const answerAt = m.HEAPU32[r];
      const answer = JSON.parse(this.decoder.decode(m.HEAPU8.subarray(answerAt, answerAt + m.HEAPU32[r + 1])));
      const tensors = {};
      for (let i = 0; i < m.HEAP32[r + 2]; i++) {
        const t = (m.HEAPU32[r + 3] + i * TENSOR_BYTES) >> 2;
        const shape = Array.from(m.HEAP32.subarray(t + 3, t + 3 + m.HEAP32[t + 2]));
        const count = shape.reduce((a, b) => a * b, 1);
        const { Array: Typed } = DTYPES[m.HEAP32[t + 1]];
        // A copy: views into wasm memory detach when it grows.
        tensors[this.asciiName(m.HEAPU32[t])] = { array: new Typed(m.HEAPU8.buffer, m.HEAPU32[t + 7], count).slice(), shape };
      }
      return { answer, tensors };
    } finally {
      if (result) m._masklab_free_result(result);
      m._free(base);
    }
  }

  // A tensor's name from the core (short ASCII: "per_token", "input_ids"), read without a TextDecoder call.
  asciiName(at) {
    const heap = this.m.HEAPU8;
    let name = '';
    for (let i = at; heap[i] !== 0; i++) name += String.fromCharCode(heap[i]);
    return name;
  }
}

// --- helpers ----------------------------------------------------------------------------------

export function isObject(x) {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function errorAnswer(field, message) {
  return { error: { field, message } };
}

export function describe(cause) {
  return cause instanceof Error ? cause.message : String(cause);
}
