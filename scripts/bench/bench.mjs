// Prints the core's size and speed figures: wasm and JS glue sizes (raw, gzip), and the time per
// iteration of collate + loss natively and in wasm under node, on the same generated requests
// (B=8, T=512, V=64; see bench_native.cpp, which generates them for both sides); then the same for
// the batch doctor on a 64 × 4096 batch printed in full (three tensors, ~5.6 MB of text).
// Figures only, no assertions: timings vary with the machine and its load.
//
//   node scripts/bench/bench.mjs [ITERATIONS]     (scripts/bench.sh builds first)

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmPath = join(root, 'web', 'generated', 'masklab_core.wasm');
const gluePath = join(root, 'web', 'generated', 'masklab_core.mjs');
const benchPath = join(root, 'build', 'native', 'masklab_bench');

const iterations = Number(process.argv[2] ?? 20);
if (!Number.isInteger(iterations) || iterations < 1) {
  console.error('usage: node scripts/bench/bench.mjs [ITERATIONS >= 1]');
  process.exit(2);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
function sizes(label, path) {
  const bytes = readFileSync(path);
  console.log(`${label.padEnd(22)} ${kb(bytes.length).padStart(10)} raw ${kb(gzipSync(bytes, { level: 9 }).length).padStart(10)} gzip`);
  return bytes;
}

console.log('masklab core: size');
const wasmBinary = sizes('wasm', wasmPath);
sizes('JS glue (unminified)', gluePath);

console.log(`\nmasklab core: collate + loss, B=8 T=512 V=64, ${iterations} iterations`);

// Native: the bench binary times itself and prints "... X ms/iter ...".
const nativeLine = execFileSync(benchPath, [String(iterations)], { encoding: 'utf8' }).trim();
const [, total, collate, loss] = /([\d.]+) ms\/iter \(collate ([\d.]+), loss ([\d.]+)/.exec(nativeLine) ?? [];
const [, nativeDoctor, nativeDoctorCpu] = /native doctor .*: ([\d.]+) ms\/iter \(cpu ([\d.]+)\)/.exec(nativeLine) ?? [];
const nativeMs = Number(total);
const row = (label, ms, parts) =>
  console.log(`${label.padEnd(22)} ${ms.toFixed(3).padStart(10)} ms/iter  (collate ${parts[0].toFixed(3)}, loss ${parts[1].toFixed(3)})`);
row('native (g++ -O3)', nativeMs, [Number(collate), Number(loss)]);

// Wasm: the very same request bytes, timed inside wasm (benchRun) so JS string copies are excluded.
const request = (command) =>
  execFileSync(benchPath, ['--print', command], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
const collateJson = request('collate');
const lossJson = request('loss');

const { default: createMasklabCore } = await import(gluePath);
const core = await createMasklabCore({ wasmBinary });
for (const [command, json] of [['collate', collateJson], ['loss', lossJson]]) {
  if (core.benchRun(command, json, 1) < 0) {
    console.error(`bench: the wasm core rejected the ${command} request: ${core.run(command, json).slice(0, 300)}`);
    process.exit(1);
  }
}
const wasmCollateMs = core.benchRun('collate', collateJson, iterations) / iterations;
const wasmLossMs = core.benchRun('loss', lossJson, iterations) / iterations;
const wasmMs = wasmCollateMs + wasmLossMs;
row('wasm (em++ -O3, node)', wasmMs, [wasmCollateMs, wasmLossMs]);
console.log(`ratio wasm / native    ${(wasmMs / nativeMs).toFixed(2).padStart(10)}`);

// The batch doctor: the page hands its paste to core.doctor(text, options) as it is; the CLI does
// the same with a FILE. Timed inside wasm (benchDoctor), like benchRun above.
const doctorText = execFileSync(benchPath, ['--print', 'doctor'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trimEnd();
const doctorOptions = execFileSync(benchPath, ['--print', 'doctor-options'], { encoding: 'utf8' }).trim();
if (core.benchDoctor(doctorText, doctorOptions, 1) < 0) {
  console.error(`bench: the wasm core rejected the doctor batch: ${core.doctor(doctorText, doctorOptions).slice(0, 300)}`);
  process.exit(1);
}
const cpuBefore = process.cpuUsage();
const wasmDoctor = core.benchDoctor(doctorText, doctorOptions, iterations) / iterations;
const cpuUsed = process.cpuUsage(cpuBefore);
const wasmDoctorCpu = (cpuUsed.user + cpuUsed.system) / 1000 / iterations;
console.log(`\nmasklab core: doctor, a 64 × 4096 batch printed in full (3 tensors, ${(doctorText.length / 2 ** 20).toFixed(1)} MiB), ${iterations} iterations`);
console.log(`${'native (g++ -O3)'.padEnd(22)} ${Number(nativeDoctor).toFixed(3).padStart(10)} ms/iter  (cpu ${Number(nativeDoctorCpu).toFixed(3)})`);
console.log(`${'wasm (em++ -O3, node)'.padEnd(22)} ${wasmDoctor.toFixed(3).padStart(10)} ms/iter  (cpu ${wasmDoctorCpu.toFixed(3)})   target <= 50`);
console.log(`ratio wasm / native    ${(wasmDoctor / Number(nativeDoctor)).toFixed(2).padStart(10)}           (cpu ${(wasmDoctorCpu / Number(nativeDoctorCpu)).toFixed(2)})`);
console.log(`load average           ${loadavg().map((x) => x.toFixed(2)).join(' ')}   (wall-clock timings are noisy on a busy machine; cpu time less so)`);
