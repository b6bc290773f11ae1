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
