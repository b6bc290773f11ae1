// scripts/vite/uplot-lazy-intl.mjs: the build rewrites uPlot so importing it makes no Intl object
// (the first one loads the browser's locale data), and refuses a uPlot whose statements moved.
// The pages' side (no Intl call before ready) is in tests/browser/first-paint.test.mjs.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { makeUplotIntlLazy } from '../../scripts/vite/uplot-lazy-intl.mjs';

const require = createRequire(import.meta.url);
const UPLOT_SOURCE = readFileSync(join(require.resolve('uplot/package.json'), '..', 'dist', 'uPlot.esm.js'), 'utf8');

// Imports `code` as a module from a temporary file and counts the Intl objects it makes while
// it is evaluated (Intl's constructors are wrapped for the duration).
async function intlObjectsMadeOnImport(code) {
  const folder = mkdtempSync(join(tmpdir(), 'masklab-uplot-'));
  const file = join(folder, 'uPlot.mjs');
  writeFileSync(file, code);
  const originals = { NumberFormat: Intl.NumberFormat, DateTimeFormat: Intl.DateTimeFormat };
  let made = 0;
  for (const [name, original] of Object.entries(originals)) {
    Intl[name] = new Proxy(original, { construct: (target, args) => (made++, Reflect.construct(target, args)) });
  }
  try {
    const module = await import(pathToFileURL(file).href);
    assert.equal(typeof module.default, 'function', 'the module still exports uPlot');
    return made;
  } finally {
    Object.assign(Intl, originals);
    rmSync(folder, { recursive: true, force: true });
  }
}

test('importing the installed uPlot makes two Intl objects; importing the rewritten one makes none', async () => {
  assert.equal(await intlObjectsMadeOnImport(UPLOT_SOURCE), 2, 'the check sees the eager objects');
  assert.equal(await intlObjectsMadeOnImport(makeUplotIntlLazy(UPLOT_SOURCE)), 0);
});

test('the rewritten module still formats numbers, on first use', () => {
  const lazy = makeUplotIntlLazy(UPLOT_SOURCE);
  assert.match(lazy, /const fmtNum = val => \(numFormatter \?\?= new Intl\.NumberFormat\(/);
  assert.match(lazy, /else if \(tz == localTimeZone\(\)\)/);
  assert.doesNotMatch(lazy, /tz == localTz\b/);
});

test('a uPlot whose statements changed fails the build with a message that names the statement', () => {
  const moved = UPLOT_SOURCE.replace('const numFormatter = new Intl.NumberFormat(', 'const numberFormatter = new Intl.NumberFormat(');
  assert.throws(() => makeUplotIntlLazy(moved), /expected the number formatter once in uPlot's module, found it 0 times \(has uplot been upgraded\?\)/);
  assert.throws(() => makeUplotIntlLazy(''), /the number formatter/);
});
