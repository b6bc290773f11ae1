// Writes the fuzzers' seed corpus, tests/fuzz/corpus/, from what the project already runs:
//   <command>/  every request the node suites send to the CLI or the wasm module (recorded by
//               tests/node/helpers.mjs when MASKLAB_RECORD_REQUESTS names a directory), and the
//               README's examples
//   shared/     every JSON object written as a raw string literal R"(…)" in tests/cpp/*.cpp
// One file per distinct request, named by its SHA-1 (as libFuzzer names corpus entries), so
// re-running it only adds what is new. Run it after adding tests:
//
//   node scripts/fuzz/seed-corpus.mjs          (builds nothing: run scripts/build.sh first)

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpus = join(root, 'tests', 'fuzz', 'corpus');
const MAX_SEED_BYTES = 64 * 1024; // big requests teach a fuzzer nothing small ones do not

// The commands with a fuzz target: MASKLAB_FUZZ_COMMANDS in CMakeLists.txt. Requests for any other
// command (the CLI tests send some on purpose) go to shared/.
const cmake = readFileSync(join(root, 'CMakeLists.txt'), 'utf8');
const commands = new Set(/set\(MASKLAB_FUZZ_COMMANDS ([^)]*)\)/.exec(cmake)[1].trim().split(/\s+/));

// Targets that are not commands (CMakeLists.txt): the doctor on pasted text, the train settings.
const OTHER_TARGETS = new Set(['doctor_text', 'train_settings']);

let added = 0;
function seed(folder, text) {
  if (text.length === 0 || text.length > MAX_SEED_BYTES) return;
  if (folder !== 'shared' && !commands.has(folder) && !OTHER_TARGETS.has(folder)) folder = 'shared';
  const dir = join(corpus, folder);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, createHash('sha1').update(text).digest('hex'));
  if (existsSync(path)) return;
  writeFileSync(path, text);
  added++;
}

// 1. The README's examples: build/native/masklab CMD <<'EOF' … EOF.
const readme = readFileSync(join(root, 'README.md'), 'utf8');
for (const [, command, request] of readme.matchAll(/build\/native\/masklab (\w+) <<'EOF'\n([\s\S]*?)\nEOF/g))
  seed(command === 'doctor' ? 'doctor_text' : command, request);  // doctor reads pasted text, not JSON

// 2. Every request the node suites send (tests/node/helpers.mjs records them). Skipped with
// MASKLAB_SEED_QUICK=1 (it runs the whole node suite).
const recorded = mkdtempSync(join(tmpdir(), 'masklab-seeds-'));
try {
  const run = process.env.MASKLAB_SEED_QUICK ? { status: 0 } : spawnSync(process.execPath, ['--test', join(root, 'tests', 'node')], {
    env: { ...process.env, MASKLAB_RECORD_REQUESTS: recorded },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (run.status !== 0) console.error('seed-corpus: the node suites failed; keeping what they sent anyway');
  for (const command of readdirSync(recorded))
    for (const file of readdirSync(join(recorded, command))) seed(command, readFileSync(join(recorded, command, file), 'utf8'));
} finally {
  rmSync(recorded, { recursive: true, force: true });
}

// 3. JSON objects in the C++ tests' raw strings.
const cppDir = join(root, 'tests', 'cpp');
for (const file of readdirSync(cppDir).filter((f) => f.endsWith('.cpp'))) {
  const source = readFileSync(join(cppDir, file), 'utf8');
  for (const [, literal] of source.matchAll(/R"\(([\s\S]*?)\)"/g)) {
    if (!literal.trimStart().startsWith('{')) continue;
    seed('shared', literal);
  }
}

// 4. The doctor's pasted-batch fixtures (printed tensors, JSON, JSONL) and the train settings of
// the README's `masklab train` examples.
const doctorDir = join(root, 'tests', 'fixtures', 'doctor');
for (const file of readdirSync(doctorDir).filter((f) => !f.endsWith('.json')))
{
  const text = readFileSync(join(doctorDir, file), 'utf8');
  seed('doctor_text', text);
  seed('doctor', JSON.stringify({ text }));
}
for (const [, settings] of readme.matchAll(/build\/native\/masklab train <<'EOF'\n([\s\S]*?)\nEOF/g)) seed('train_settings', settings);
for (const [, settings] of readme.matchAll(/echo '(\{"bug"[^']*)' \| build\/native\/masklab train/g)) seed('train_settings', settings);
seed('train_settings', '{"bug": "pads_trained", "steps": 20, "seed": 1, "lr": 0.003, "model": "tiny", "mix": "uniform", "log_every": 5}');

console.log(`seed-corpus: ${added} new seed(s) in tests/fuzz/corpus/`);
