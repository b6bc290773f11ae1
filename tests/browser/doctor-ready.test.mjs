// What the Batch doctor's time to ready (data-state=ready: a linked example diagnosed, its grid
// drawn) depends on, checked on the built page without timing anything (timings belong to
// `npm run bench`):
//   - every script the page runs before it is ready is named in its HTML (the entry and its
//     modulepreloads): no lazy chunk — the example's text, the model-family list — sits between
//     the core and the first diagnosis;
//   - the core's wasm starts compiling before the page's script draws its form and examples, so
//     the compile overlaps that work;
//   - nothing reads the layout (offsetLeft, getBoundingClientRect, …) before ready: the grid is
//     scrolled to the flagged cell in the next frame, not by forcing a layout of the whole page;
//   - the family list arrives afterwards, as one request per script (no re-export-only copies).
// A link that names a family still waits for it (tests/browser/doctor.test.mjs covers that case).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { DIST, useSiteAndBrowser } from './helpers.mjs';

const PATH = 'doctor.html?example=pad-to-max-all-ones';
const READY = 'body[data-state="ready"] #findings > li';
const FAMILY_SCRIPT = /\/famil(y|ies)[\w-]*-[\w-]{8}\.js$/;

const suite = useSiteAndBrowser();

// Runs in the page before its scripts: notes when the glue fetched the wasm (how many examples
// the page had drawn by then), every read of the layout made before ready, and the ready moment.
function watchTheStart() {
  const seen = { layoutReads: [], examplesAtWasmFetch: null, ready: false, readyAt: null };
  window.__doctorStart = seen;
  const fetchNow = window.fetch;
  window.fetch = function (resource, ...rest) {
    if (String(resource?.url ?? resource).endsWith('.wasm')) seen.examplesAtWasmFetch ??= document.querySelectorAll('#examples > li').length;
    return fetchNow.call(this, resource, ...rest);
  };
  const note = (what) => {
    if (!seen.ready) seen.layoutReads.push(what);
  };
  for (const [proto, names] of [
    [HTMLElement.prototype, ['offsetLeft', 'offsetTop', 'offsetWidth', 'offsetHeight']],
    [Element.prototype, ['clientWidth', 'clientHeight', 'scrollWidth', 'scrollHeight']],
  ]) {
    for (const name of names) {
      const { get } = Object.getOwnPropertyDescriptor(proto, name);
      Object.defineProperty(proto, name, {
        configurable: true,
        get() {
          note(name);
          return get.call(this);
        },
      });
    }
  }
  const rect = Element.prototype.getBoundingClientRect;
  Element.prototype.getBoundingClientRect = function () {
    note('getBoundingClientRect');
    return rect.call(this);
  };
  const style = window.getComputedStyle;
  window.getComputedStyle = function (...args) {
    note('getComputedStyle');
    return style.apply(this, args);
  };
  new MutationObserver((_, observer) => {
    if (document.querySelector('body[data-state="ready"] #findings > li')) {
      seen.ready = true;
      seen.readyAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
}

// Opens the page and waits until it is ready. `scripts()` lists every script requested so far
// ({ file, url, beforeReady }), timed in the page (resource timing) against the ready moment.
async function openWatched() {
  const opened = await suite.open(PATH, { prepare: (p) => p.addInitScript(watchTheStart) });
  await opened.page.waitForSelector(READY, { timeout: 20_000 });
  const scripts = () =>
    opened.page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname.endsWith('.js'))
        .map((e) => ({ url: e.name, file: new URL(e.name).pathname.split('/').pop(), beforeReady: e.startTime < window.__doctorStart.readyAt })),
    );
  return { ...opened, scripts };
}

test('before ready the doctor runs only the scripts its HTML names, and reads no layout', async () => {
  const { page, problems, scripts } = await openWatched();
  try {
    const requested = await scripts();
    const html = readFileSync(join(DIST, 'doctor.html'), 'utf8');
    const named = new Set([...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\.\/assets\/([^"]+\.js)"/g)].map((m) => m[1]));
    assert.ok(named.size >= 2, `the HTML names the entry and its preloads (${[...named].join(', ')})`);
    const early = requested.filter((s) => s.beforeReady).map((s) => s.file);
    assert.deepEqual(early.filter((file) => !named.has(file)), [], `scripts before ready: ${early.join(', ')}`);
    const start = await page.evaluate(() => window.__doctorStart);
    assert.equal(start.ready, true);
    assert.deepEqual(start.layoutReads, [], 'no layout read before ready');
    assert.equal(start.examplesAtWasmFetch, 0, 'the core is loading before the examples are drawn');
    // The grid is still scrolled to the flagged cell, in the frame after ready.
    assert.equal(await page.locator('#token-grid td.flagged').first().isVisible(), true);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('at 320 px the grid is scrolled to the first flagged cell, after ready', async () => {
  const { page, problems } = await suite.openAt(PATH, { width: 320, colorScheme: 'light' });
  try {
    await page.waitForSelector(READY, { timeout: 20_000 });
    // Two frames: the scroll is made in the first one after ready.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { scrollLeft, flaggedIn } = await page.evaluate(() => {
      const scroller = document.querySelector('#token-grid .grid-scroll');
      const cell = document.querySelector('#token-grid td.flagged').getBoundingClientRect();
      const box = scroller.getBoundingClientRect();
      return { scrollLeft: scroller.scrollLeft, flaggedIn: cell.left >= box.left && cell.left < box.right };
    });
    assert.ok(scrollLeft > 0, `the grid scrolled sideways (${scrollLeft})`);
    assert.ok(flaggedIn, 'the first flagged cell is inside the grid box');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('the family list comes after ready, each of its scripts requested once', async () => {
  const { page, problems, scripts } = await openWatched();
  try {
    await page.waitForSelector('#family-control:not([hidden]) #family option', { state: 'attached', timeout: 20_000 });
    assert.equal(await page.locator('#family').inputValue(), '', 'ids only, as the link asked');
    const requested = await scripts();
    const family = requested.filter((s) => FAMILY_SCRIPT.test(s.url));
    assert.ok(family.length > 0, 'the family list was fetched');
    assert.deepEqual(family.filter((s) => s.beforeReady).map((s) => s.file), [], 'none of it before ready');
    const files = requested.map((s) => s.file);
    assert.deepEqual(files.filter((f, i) => files.indexOf(f) !== i), [], 'no script twice');
    // The bundler's re-export copies (`export{…}from"./x.js"` and nothing else) of the chat
    // page's modules were two extra requests; one module of the doctor's own leaves at most one.
    const bodies = await Promise.all(family.map((s) => page.evaluate((url) => fetch(url).then((r) => r.text()), s.url)));
    const reexports = family.filter((_, i) => /^export\s*\{[^}]*\}\s*from\s*"[^"]+";?\s*$/.test(bodies[i].trim()));
    assert.ok(family.length <= 2 && reexports.length <= 1, `family scripts: ${family.map((s) => s.file).join(', ')}`);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});
