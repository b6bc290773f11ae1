// Shared helpers for the node:test suites in tests/node/ (not a test file itself).
//
// - loadWasmCore(), loadWasmChat(), loadWasmDoctor(): the site's JS faces (web/core/masklab.js,
//   chat.js, doctor.js) over the built wasm modules, fed the .wasm bytes from disk — the modules
//   are built for the web, so node cannot fetch them itself.
// - loadWasmFor(command): the face of the module that runs `command` (MODULE_OF).
// - runWasmRaw(command, json): that module's exact answer text, for byte-exact comparisons.
// - loadTrainModule(): the Train page's own module (masklab_train), loaded once.
// - runCli(command, request): runs the native CLI build/native/masklab on a request.
// - assertSameAnswer(native, wasm): native and wasm answers agree (non-integers to a relative 1e-12).
// Both artefacts must be built first (scripts/build.sh); a clear error says so if they are not.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The site's modules: which face loads each and where its files are (CMakeLists.txt). */
export const MODULES = {
  core: { face: 'masklab.js', load: 'loadCore', file: 'masklab_core' },
  chat: { face: 'chat.js', load: 'loadChat', file: 'masklab_chat' },
  doctor: { face: 'doctor.js', load: 'loadDoctor', file: 'masklab_doctor' },
};
/** Which module runs each command; the CLI runs them all. */
export const MODULE_OF = {
  collate: 'core', loss: 'core', accumulate: 'core', attention: 'core', inspect: 'core',
  chat: 'chat', doctor: 'doctor',
};
export const modulePath = (name, ext) => join(REPO_ROOT, 'web', 'generated', `${MODULES[name].file}.${ext}`);
// MASKLAB_CLI points the CLI tests at another build of it (scripts/test.sh runs them again on the
// AddressSanitizer + UndefinedBehaviorSanitizer build).
export const CLI_PATH = process.env.MASKLAB_CLI
  ? resolve(REPO_ROOT, process.env.MASKLAB_CLI)
  : join(REPO_ROOT, 'build', 'native', 'masklab');

function requireBuilt(path) {
  if (!existsSync(path)) throw new Error(`${path} is missing — run scripts/build.sh first`);
}

/** The frozen JS API of one module (MODULES) on the node side. */
export async function loadWasmModule(name) {
  requireBuilt(modulePath(name, 'mjs'));
  requireBuilt(modulePath(name, 'wasm'));
  const face = await import(`../../web/core/${MODULES[name].face}`);
  return face[MODULES[name].load]({ wasmBinary: readFileSync(modulePath(name, 'wasm')) });
}

/** The core module's API ({ collate, loss, accumulate, attention, inspect }). */
export const loadWasmCore = () => loadWasmModule('core');
/** The chat module's API ({ chat, collate }). */
export const loadWasmChat = () => loadWasmModule('chat');
/** The doctor module's API ({ doctor }). */
export const loadWasmDoctor = () => loadWasmModule('doctor');
/** The API of the module that runs `command`. */
export const loadWasmFor = (command) => loadWasmModule(MODULE_OF[command] ?? 'core');
/** Every command, each from the module that runs it (what the content build checks claims with). */
export async function loadWasmCommands() {
  const commands = {};
  for (const [command, name] of Object.entries(MODULE_OF)) commands[command] = (await loadWasmModule(name))[command];
  return Object.freeze(commands);
}

const TRAIN_MODULE_PATH = join(REPO_ROOT, 'web', 'generated', 'masklab_train.mjs');
const TRAIN_WASM_PATH = join(REPO_ROOT, 'web', 'generated', 'masklab_train.wasm');
let trainModule = null;

/** The Train page's module (Embind: start, advance, lastBatch, samples), loaded once. */
export async function loadTrainModule() {
  requireBuilt(TRAIN_MODULE_PATH);
  if (!trainModule) {
    const { default: create } = await import(TRAIN_MODULE_PATH);
    trainModule = await create({ wasmBinary: readFileSync(TRAIN_WASM_PATH) });
  }
  return trainModule;
}

// MASKLAB_RECORD_REQUESTS=DIR keeps every request sent through runCli and runWasmRaw as
// DIR/<command>/<sha1>: scripts/fuzz/seed-corpus.mjs turns them into the fuzzers' seeds.
function record(command, text) {
  const dir = process.env.MASKLAB_RECORD_REQUESTS;
  if (!dir || typeof command !== 'string' || !/^[a-z_]+$/.test(command)) return;
  mkdirSync(join(dir, command), { recursive: true });
  writeFileSync(join(dir, command, createHash('sha1').update(text).digest('hex')), text);
}

/** The answer of the wasm module that runs `command`, as the exact JSON text it produced (runJson). */
export async function runWasmRaw(command, json) {
  record(command, json);
  return (await loadWasmFor(command)).runJson(command, json);
}

/**
 * Runs `build/native/masklab <command> [args]`. `input` is the request: an object (JSON-encoded
 * here), a string (sent as is, for malformed JSON) or null (nothing on stdin).
 * Returns { status, signal, stdout, stderr }.
 */
export function runCli(command, input, args = []) {
  requireBuilt(CLI_PATH);
  const argv = command === null ? args : [command, ...args];
  const stdin = input === null || input === undefined ? '' : typeof input === 'string' ? input : JSON.stringify(input);
  if (stdin.length < 1 << 20) record(command, stdin);
  // stdin comes from a file, not a pipe: a CLI that exits without reading (an unknown command)
  // would otherwise make node's write fail with EPIPE, flakily.
  const dir = mkdtempSync(join(tmpdir(), 'masklab-cli-'));
  const inputPath = join(dir, 'stdin');
  writeFileSync(inputPath, stdin);
  const fd = openSync(inputPath, 'r');
  try {
    const result = spawnSync(CLI_PATH, argv, {
      stdio: [fd, 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (result.error) throw result.error;
    return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

// Same shape and values; non-integers within a relative 1e-12: exp/log come from glibc natively and
// from musl in wasm, and the two may round the last bit differently.
export function assertSameAnswer(native, wasm, path = 'answer') {
  if (typeof native === 'number' && typeof wasm === 'number' && !(Number.isInteger(native) && Number.isInteger(wasm))) {
    const scale = Math.max(Math.abs(native), Math.abs(wasm), Number.MIN_VALUE);
    assert.ok(Math.abs(native - wasm) / scale <= 1e-12, `${path}: native ${native} vs wasm ${wasm}`);
  } else if (Array.isArray(native) || (native !== null && typeof native === 'object')) {
    assert.equal(typeof wasm, 'object', `${path}: native is an object/array, wasm is ${wasm}`);
    assert.equal(Array.isArray(wasm), Array.isArray(native), `${path}: array vs object`);
    assert.deepEqual(Object.keys(wasm), Object.keys(native), `${path}: keys differ`);
    for (const key of Object.keys(native)) assertSameAnswer(native[key], wasm[key], `${path}.${key}`);
  } else {
    assert.equal(wasm, native, path);
  }
}
