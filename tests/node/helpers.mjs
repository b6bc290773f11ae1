// Shared helpers for the node:test suites in tests/node/ (not a test file itself).
//
// - loadWasmCore(): the site's JS API (web/core/masklab.js) over the built wasm module, fed the
//   .wasm bytes from disk — the module is built for the web, so node cannot fetch it itself.
// - runWasmRaw(command, json): the module's exact answer text, for byte-exact comparisons.
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
export const WASM_PATH = join(REPO_ROOT, 'web', 'generated', 'masklab_core.wasm');
export const MODULE_PATH = join(REPO_ROOT, 'web', 'generated', 'masklab_core.mjs');
// MASKLAB_CLI points the CLI tests at another build of it (scripts/test.sh runs them again on the
// AddressSanitizer + UndefinedBehaviorSanitizer build).
export const CLI_PATH = process.env.MASKLAB_CLI
  ? resolve(REPO_ROOT, process.env.MASKLAB_CLI)
  : join(REPO_ROOT, 'build', 'native', 'masklab');

function requireBuilt(path) {
  if (!existsSync(path)) throw new Error(`${path} is missing — run scripts/build.sh first`);
}

let wasmBinary = null;
function wasmBytes() {
  requireBuilt(WASM_PATH);
  wasmBinary ??= readFileSync(WASM_PATH);
  return wasmBinary;
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

/** The frozen JS API ({ collate, loss, accumulate, attention, inspect }) on the node side. */
export async function loadWasmCore() {
  requireBuilt(MODULE_PATH);
  const { loadCore } = await import('../../web/core/masklab.js');
  return loadCore({ wasmBinary: wasmBytes() });
}

// MASKLAB_RECORD_REQUESTS=DIR keeps every request sent through runCli and runWasmRaw as
// DIR/<command>/<sha1>: scripts/fuzz/seed-corpus.mjs turns them into the fuzzers' seeds.
function record(command, text) {
  const dir = process.env.MASKLAB_RECORD_REQUESTS;
  if (!dir || typeof command !== 'string' || !/^[a-z_]+$/.test(command)) return;
  mkdirSync(join(dir, command), { recursive: true });
  writeFileSync(join(dir, command, createHash('sha1').update(text).digest('hex')), text);
}

/** The wasm module's answer as the exact JSON text it produced (core.runJson). */
export async function runWasmRaw(command, json) {
  record(command, json);
  return (await loadWasmCore()).runJson(command, json);
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
