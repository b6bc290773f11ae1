// The exercise bank as other files see it: every `ex=<id>` link in the project names an exercise
// that exists, no file still mentions an exercise merged away in issue 10 (REMOVED below lists them),
// no two exercises claim the same place in the list, and every exercise names the sections of
// docs/semantics.md it relies on.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

import { parse } from 'yaml';

import { REPO_ROOT } from './helpers.mjs';

const EXERCISES = join(REPO_ROOT, 'content', 'exercises');
const exercises = readdirSync(EXERCISES)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => parse(readFileSync(join(EXERCISES, f), 'utf8')));
const ids = new Set(exercises.map((e) => e.id));

// Merged into pad-to-max-all-ones and pad-eos-mask-by-id (issue 10 §1).
const REMOVED = ['labels-copied-from-input-ids', 'label-pad-zero', 'pad-everything-max-length', 'mask-from-ids-pad-eos'];

// Project files a reader or a page follows: sources, pages, tests, docs. Not build output.
const SKIP_DIRS = new Set(['node_modules', 'generated', 'dist', 'build', '.git']);
const TEXT_FILE = /\.(m?js|html|css|md|ya?ml|json|cpp|hpp|sh|txt)$/;
function projectFiles(dir = REPO_ROOT, out = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) projectFiles(path, out);
    else if (TEXT_FILE.test(name) && name !== 'package-lock.json') out.push(path);
  }
  return out;
}
const files = projectFiles().map((path) => ({ path: relative(REPO_ROOT, path), text: readFileSync(path, 'utf8') }));

test('the merged ids are gone from the bank', () => {
  for (const id of REMOVED) assert.ok(!ids.has(id), `${id} is still an exercise`);
  // The survivors they were merged into.
  assert.ok(ids.has('pad-to-max-all-ones'));
  assert.ok(ids.has('pad-eos-mask-by-id'));
});

test('every ex=<id> link in the project names an exercise that exists', () => {
  const links = [];
  for (const { path, text } of files) {
    for (const m of text.matchAll(/[?&]ex=([a-z0-9]+(?:-[a-z0-9]+)*)/g)) links.push({ path, id: m[1] });
  }
  assert.ok(links.length > 0, 'the scan finds the links the pages and tests use');
  const broken = links.filter((l) => !ids.has(l.id) && !l.path.startsWith('tests/fixtures/'));
  assert.deepEqual(broken, []);
});

test('an old link to a merged-away id opens the exercise it was merged into', () => {
  // web/exercise/catalog.js keeps the map the exercise page follows; it must name every removed
  // id, and only ids that exist in the bank as targets.
  const catalog = readFileSync(join(REPO_ROOT, 'web', 'exercise', 'catalog.js'), 'utf8');
  const body = /MERGED_EXERCISES = \{([^}]*)\}/.exec(catalog)?.[1] ?? '';
  const map = Object.fromEntries([...body.matchAll(/'([a-z0-9-]+)':\s*'([a-z0-9-]+)'/g)].map((m) => [m[1], m[2]]));
  assert.deepEqual(Object.keys(map).sort(), [...REMOVED].sort());
  for (const [from, to] of Object.entries(map)) assert.ok(ids.has(to), `${from} -> ${to}, which is not an exercise`);
});

// The files allowed to name a merged-away id: this test, the redirect map, and the browser test
// that opens an old link.
const MAY_NAME_REMOVED = new Set(['tests/node/exercise-links.test.mjs', 'web/exercise/catalog.js', 'tests/browser/exercise.test.mjs']);

test('no project file mentions an exercise merged away, except this test and the redirect', () => {
  const mentions = [];
  for (const { path, text } of files) {
    if (MAY_NAME_REMOVED.has(path)) continue;
    for (const id of REMOVED) if (text.includes(id)) mentions.push(`${path}: ${id}`);
  }
  assert.deepEqual(mentions, []);
});

test('no two exercises share an order value', () => {
  const byOrder = new Map();
  for (const e of exercises) {
    if (e.order === undefined) continue;
    assert.ok(!byOrder.has(e.order), `order ${e.order}: ${byOrder.get(e.order)} and ${e.id}`);
    byOrder.set(e.order, e.id);
  }
});

test('every exercise names the sections of docs/semantics.md it relies on', () => {
  // That the sections exist, and that nothing points outside the project, is checked for every
  // file by tests/node/citations.test.mjs.
  const silent = readdirSync(EXERCISES)
    .filter((n) => n.endsWith('.yaml'))
    .filter((n) => !/docs\/semantics\.md §\d/.test(readFileSync(join(EXERCISES, n), 'utf8')));
  assert.deepEqual(silent, []);
});
