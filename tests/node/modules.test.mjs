// The site's WebAssembly modules (CMakeLists.txt, cpp/core/commands.hpp): each answers its own
// commands and refuses the others', carries none of the others' code, and each page reaches the
// face of exactly the module it runs — so the exercise pages never download the chat or doctor
// code, and the chat and doctor pages never download each other's.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';

import { MODULES, REPO_ROOT, loadWasmModule, modulePath } from './helpers.mjs';

const COMMANDS = {
  core: ['collate', 'loss', 'accumulate', 'attention', 'inspect'],
  chat: ['chat', 'collate'],
  doctor: ['doctor'],
};

describe('each module answers its own commands and only those', () => {
  for (const [name, commands] of Object.entries(COMMANDS)) {
    test(`${name}: ${commands.join(', ')}`, async () => {
      const face = await loadWasmModule(name);
      assert.deepEqual(Object.keys(face).sort(), [...commands].sort());
      for (const key of ['runJson', 'limits', 'benchRun', 'memoryBytes']) assert.ok(key in face, `${name} has ${key}`);
      for (const foreign of ['collate', 'loss', 'accumulate', 'attention', 'inspect', 'chat', 'doctor']) {
        if (commands.includes(foreign)) continue;
        const answer = JSON.parse(face.runJson(foreign, '{}'));
        assert.equal(answer.error?.field, 'command', `${name} must refuse ${foreign}`);
        const expected = commands.length === 1 ? commands[0] : `${commands.slice(0, -1).join(', ')} or ${commands.at(-1)}`;
        assert.equal(answer.error.message, `"${foreign}" is not a command; expected ${expected}`);
      }
    });
  }
  test('core keeps the typed-array path; doctor keeps the paste path', async () => {
    const core = await loadWasmModule('core');
    assert.equal(typeof core.typed.loss, 'function');
    assert.equal(typeof core.typed.collate, 'function');
    const doctor = await loadWasmModule('doctor');
    assert.equal(typeof doctor.doctorJson, 'function');
    assert.equal(typeof doctor.benchDoctor, 'function');
    assert.equal((await loadWasmModule('chat')).typed, undefined);
  });
});

// A message only one part of the core can write: its bytes are in a module's data exactly when
// that part's code was linked in.
const MARKERS = {
  chat: 'is not a token range inside 0..', // chat_masks.cpp
  doctor: 'found a character the doctor does not read', // printed_batch.cpp
  inspect: 'the grid shows at most ', // inspect.cpp
  attention: 'multiply-adds to do', // requests.cpp decode_attention
  typed: 'has no typed-array path', // tensor_api.cpp
  collate: 'outside the vocabulary (vocab_size ', // collate.cpp
};
const CONTAINS = {
  core: ['inspect', 'attention', 'typed', 'collate'],
  chat: ['chat', 'collate'],
  doctor: ['doctor'],
};

describe('each module links only its own code', () => {
  for (const [name, wanted] of Object.entries(CONTAINS)) {
    test(`masklab_${name}.wasm holds ${wanted.join(', ')} and nothing else`, () => {
      const bytes = readFileSync(modulePath(name, 'wasm'));
      for (const [part, marker] of Object.entries(MARKERS)) {
        const present = bytes.includes(Buffer.from(marker));
        assert.equal(present, wanted.includes(part), `${name}: ${part}'s code is ${present ? 'linked' : 'missing'}`);
      }
    });
  }
  test('the exports: the typed path in core only, the paste path in doctor only', () => {
    // The wasm's export names are minified at -O3; the glue maps each C function to its export.
    for (const name of Object.keys(COMMANDS)) {
      const glue = readFileSync(modulePath(name, 'mjs'), 'utf8');
      const has = (fn) => glue.includes(`"_${fn}"`);
      assert.ok(has('masklab_run'), `${name} exports masklab_run`);
      assert.equal(has('masklab_run_tensors'), name === 'core', `${name}: masklab_run_tensors`);
      assert.equal(has('masklab_doctor'), name === 'doctor', `${name}: masklab_doctor`);
    }
  });
});

// Static imports from a page's entry script (dynamic import() counts too: it is fetched on that
// page), through web/'s sources; the faces of the modules are web/core/<face>.
function reachable(entry, seen = new Set()) {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  if (entry.startsWith(join(REPO_ROOT, 'web', 'generated'))) return seen; // the Emscripten glue
  const source = readFileSync(entry, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
  for (const [, spec] of source.matchAll(/(?:^|[\s;])(?:import|export)\s*(?:[^'"()]*?\sfrom\s*)?\(?\s*['"](\.{1,2}\/[^'"]+\.m?js)['"]/gm)) {
    reachable(resolve(dirname(entry), spec), seen);
  }
  return seen;
}

const PAGES = {
  'index.html': ['masklab.js'],
  'exercise.html': ['masklab.js'],
  'grid.html': ['masklab.js'],
  'dilution.html': ['masklab.js'],
  'lab.html': ['masklab.js'],
  'chat.html': ['chat.js'],
  'doctor.html': ['doctor.js'],
  'practice.html': [],
  'authors.html': [],
  'embed-example.html': [],
  'train.html': [],
};

describe('each page reaches the face of the module it runs, and no other', () => {
  for (const [page, faces] of Object.entries(PAGES)) {
    test(page, () => {
      const html = readFileSync(join(REPO_ROOT, 'web', page), 'utf8');
      const [, src] = /<script type="module" src="([^"]+)"/.exec(html) ?? [];
      assert.ok(src, `${page} has a module script`);
      const files = reachable(resolve(REPO_ROOT, 'web', src));
      const reached = Object.values(MODULES)
        .map((m) => m.face)
        .filter((face) => files.has(join(REPO_ROOT, 'web', 'core', face)));
      assert.deepEqual(reached, faces, `${page} reaches ${reached.map((f) => relative(REPO_ROOT, join('web/core', f)))}`);
    });
  }
});
