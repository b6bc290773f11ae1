// What the first paint and the time to ready depend on, checked on every page of the built site
// (the build plugins in scripts/vite/ and the lazy sections of web/shared/later.js):
//   - nothing blocks rendering: a page's styles are in its HTML, allowed by the CSP's hashes (a
//     refused style would log an error), and no stylesheet is requested before the first paint;
//   - each wasm module a page loads at once is preloaded from the HTML and that preload is the
//     one request for it (a preload the glue's fetch cannot reuse is fetched twice and warned
//     about — a broken link is served to show the check sees it);
//   - a keyboard user tabbing through a page reaches its lazily built embed panel;
//   - what a page's ready waits for is asked for at once: the exercise's chunk before any frame,
//     the doctor’s first diagnosis without the model-family list;
//   - the frame every page shares is one script (fewer requests before a page can run);
//   - the authors page builds its first screen before the first frame, the references and the
//     live example's iframe after it (an iframe in the HTML makes a frame before the first paint);
//   - the Train page builds its settings before the first frame, its charts after it;
//   - sections marked below-fold (site.css) are skipped while off screen, without moving anything.
//   - no page calls Intl (or a locale method that uses it) before it is ready: the first call
//     loads the browser's locale data, 35–45 ms of main-thread time (uPlot made two such objects
//     when imported; scripts/vite/uplot-lazy-intl.mjs).
// Timings are not asserted here (they belong to `npm run bench`): only what makes them possible.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { DIST, REPO_ROOT, useSiteAndBrowser } from './helpers.mjs';

const FIRST_EXERCISE = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'index.json'), 'utf8'))[0].id;

// Every page, as a visitor first opens it. `wasm`: the modules it needs at once (by name, not
// hash); the Train page's module runs in Web Workers started by Train, so it preloads none.
const PAGES = [
  { path: 'index.html', wasm: ['masklab_core'] },
  { path: `exercise.html?ex=${FIRST_EXERCISE}`, wasm: ['masklab_core'] },
  { path: 'grid.html', wasm: ['masklab_core'] },
  { path: 'dilution.html', wasm: ['masklab_core'] },
  { path: 'lab.html', wasm: ['masklab_core'] },
  { path: 'doctor.html?example=pad-to-max-all-ones', wasm: ['masklab_doctor'] },
  { path: 'practice.html', wasm: [] },
  { path: 'train.html', wasm: [] },
  { path: 'authors.html', wasm: [] },
  // The chat page's entry is a small boot chunk that starts the tokenizer worker and then imports
  // the page's code, which loads the core: reached only through a dynamic import, not preloaded.
  // The page's own styles come with the boot chunk, so they are in the HTML; the token grid's come
  // with that import (`lazyStyles`, by file name): Chromium does not block rendering on them (the
  // `blocking` check still covers them), and on a quiet machine the import can be under way before
  // the first paint, so they are left out of "fetched before the paint".
  { path: 'chat.html', wasm: [], lazyWasm: ['masklab_chat'], lazyStyles: ['token-grid'] },
];

const PRELOAD_UNUSED = /preloaded using link preload but not used/i;
// The wasm-split branch may name its modules masklab_core, masklab_chat, …: match by prefix.
const moduleName = (url) => new URL(url).pathname.split('/').pop().replace(/-[\w-]+\.wasm$/, '').replace(/\.wasm$/, '');

const suite = useSiteAndBrowser();

// Opens a page, records its requests and console warnings, waits until it is ready and the
// network has been quiet (the core has been fetched). Returns what the checks read.
async function load(path, { prepare } = {}) {
  const requests = [];
  const warnings = [];
  const { page, problems } = await suite.open(path, {
    prepare: async (p) => {
      p.on('request', (request) => requests.push({ url: request.url(), type: request.resourceType() }));
      p.on('console', (message) => {
        if (message.type() === 'warning') warnings.push(message.text());
      });
      await prepare?.(p);
    },
  });
  await page.waitForSelector('body[data-state="ready"], body[data-state="error"], #status.error-box', { timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  return { page, problems, requests, warnings };
}

for (const spec of PAGES) {
  test(`${spec.path}: no stylesheet blocks rendering, styles apply under the CSP, each wasm it needs is preloaded and fetched once`, async () => {
    const { page, problems, requests } = await load(spec.path);
    try {
      const head = await page.evaluate(async () => {
        const html = await (await fetch(location.href)).text();
        const paint = performance.getEntriesByType('paint').find((e) => e.name === 'first-paint')?.startTime ?? Infinity;
        return {
          // What the HTML itself holds (lazy chunks may add KaTeX's or uPlot's link later).
          linkedStyles: new DOMParser().parseFromString(html, 'text/html').querySelectorAll('link[rel="stylesheet"]').length,
          blocking: performance.getEntriesByType('resource').filter((e) => e.renderBlockingStatus === 'blocking').map((e) => e.name),
          stylesBeforePaint: performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'link' && e.name.endsWith('.css') && e.startTime < paint).map((e) => e.name),
          inlineStyles: document.querySelectorAll('head style').length,
          // site.css applies: its colour variables are defined (a style the CSP refused would not be).
          paper: getComputedStyle(document.documentElement).getPropertyValue('--paper').trim(),
          preloads: [...document.querySelectorAll('link[rel="preload"]')].map((l) => ({ href: l.href, as: l.getAttribute('as'), type: l.type, crossorigin: l.getAttribute('crossorigin') })),
        };
      });
      assert.equal(head.linkedStyles, 0, 'the HTML links no stylesheet: its styles are inline');
      assert.deepEqual(head.blocking, [], 'no request blocked rendering');
      const lazyStyle = (url) => (spec.lazyStyles ?? []).some((name) => new RegExp(`/${name}-[\\w-]+\\.css$`).test(url));
      assert.deepEqual(head.stylesBeforePaint.filter((url) => !lazyStyle(url)), [], 'no stylesheet was fetched before the first paint');
      assert.ok(head.inlineStyles >= 1, 'the page carries its styles');
      assert.match(head.paper, /^#|^rgb|^light-dark|^var/, `the site's styles apply (--paper is '${head.paper}')`);

      const wasmRequests = requests.filter((r) => r.url.endsWith('.wasm'));
      const loaded = [...new Set(wasmRequests.map((r) => moduleName(r.url)))].sort();
      if (spec.lazyWasm) assert.ok(loaded.every((name) => spec.lazyWasm.includes(name)), `lazily loaded modules: ${loaded}`);
      else assert.deepEqual(loaded, spec.wasm, 'the wasm modules the page loads');
      for (const url of new Set(wasmRequests.map((r) => r.url))) assert.equal(wasmRequests.filter((r) => r.url === url).length, 1, `${url} is fetched once`);
      assert.deepEqual(head.preloads.map((l) => moduleName(l.href)).sort(), spec.wasm, 'one preload per module it loads, no other');
      for (const link of head.preloads) {
        assert.deepEqual({ as: link.as, type: link.type, crossorigin: link.crossorigin }, { as: 'fetch', type: 'application/wasm', crossorigin: '' });
        assert.equal(wasmRequests.filter((r) => r.url === link.href).length, 1, `${link.href} is fetched once: the preload is the request the glue uses`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
}

test('grid.html: Chromium reports no unused preload a few seconds after load; a preload without crossorigin is caught', async () => {
  const good = await load('grid.html');
  await good.page.waitForTimeout(3500); // Chromium warns ~3 s after the load event
  assert.deepEqual(good.warnings.filter((w) => PRELOAD_UNUSED.test(w)), []);
  await good.page.close();

  // The same page with its preload's crossorigin removed: the glue's fetch cannot reuse it.
  const broken = await load('grid.html', {
    prepare: (p) =>
      p.route(/grid\.html$/, async (route) => {
        const html = readFileSync(join(DIST, 'grid.html'), 'utf8').replace(/(<link rel="preload"[^>]*?) crossorigin>/, '$1>');
        assert.ok(!/rel="preload"[^>]*crossorigin/.test(html), 'the served page lost its crossorigin');
        await route.fulfill({ status: 200, contentType: 'text/html', body: html });
      }),
  });
  await broken.page.waitForTimeout(3500);
  const fetched = broken.requests.filter((r) => r.url.endsWith('.wasm')).length;
  await broken.page.close();
  assert.equal(fetched, 2, 'without crossorigin the wasm is fetched twice');
  assert.ok(broken.warnings.some((w) => PRELOAD_UNUSED.test(w)), `Chromium warns about it (${broken.warnings.join(' | ') || 'no warnings'})`);
});

// Tab from the top until focus is inside #share-panel (the "Use this elsewhere" panel, built
// from a lazy chunk); the page is never scrolled by hand.
for (const path of ['train.html', 'doctor.html?example=pad-to-max-all-ones']) {
  test(`${path}: Tab alone reaches the lazily built embed panel`, async () => {
    const { page, problems } = await load(path);
    try {
      let reached = false;
      for (let i = 0; i < 150 && !reached; i += 1) {
        await page.keyboard.press('Tab');
        reached = await page.evaluate(() => Boolean(document.activeElement?.closest('#share-panel')));
      }
      assert.ok(reached, 'focus got into the embed panel');
      assert.match(await page.evaluate(() => document.activeElement.textContent + document.activeElement.getAttribute('aria-label')), /\S/);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
}

// The exercise's own chunk (its passage) is requested while the page starts, beside the core,
// not after the first frame: with frames held back (requestAnimationFrame never calls back) the
// request is still made. Before, the page asked for it only after a painted frame.
test('exercise.html: the exercise is requested at once, without waiting for a frame', async () => {
  const chunk = new RegExp(`/${FIRST_EXERCISE}-[\\w-]+\\.js$`);
  let requested;
  const { page } = await suite.open(`exercise.html?ex=${FIRST_EXERCISE}`, {
    prepare: async (p) => {
      requested = p.waitForRequest((request) => chunk.test(request.url()), { timeout: 20_000 });
      requested.catch(() => {});
      await p.addInitScript(() => {
        window.requestAnimationFrame = () => 0;
      });
    },
  });
  try {
    await requested;
  } finally {
    await page.close();
  }
});

// The doctor's first diagnosis does not wait for the model-family list (lazy chunks): with
// that list held back, the example is diagnosed; once it arrives, the family select appears.
// (The list is asked for after the diagnosis is painted: tests/browser/doctor-ready.test.mjs.)
test('doctor.html: the first diagnosis does not wait for the family list', async () => {
  const held = [];
  const familyScript = /\/famil(y|ies)[\w-]*-[\w-]{8}\.js$/;
  let requested;
  const { page, problems } = await suite.open('doctor.html?example=pad-to-max-all-ones', {
    prepare: async (p) => {
      requested = p.waitForRequest((request) => familyScript.test(request.url()), { timeout: 20_000 });
      requested.catch(() => {});
      await p.route(familyScript, (route) => held.push(route));
    },
  });
  try {
    await page.waitForSelector('body[data-state="ready"] #findings > li', { timeout: 20_000 });
    await requested;
    for (let i = 0; i < 100 && held.length === 0; i += 1) await page.waitForTimeout(50); // the route handler runs just after the request event
    assert.ok(held.length > 0, 'the family list was asked for and held back');
    assert.equal(await page.locator('#family-control').isVisible(), false, 'no family select before its list');
    for (const route of held) await route.continue();
    await page.waitForSelector('#family-control:not([hidden]) #family option', { state: 'attached', timeout: 20_000 });
    assert.equal(await page.locator('#family').inputValue(), '', 'ids only, as the link asked');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

// The frame every page shares (vite.config.js, FRAME_MODULES) arrives as one script: a page asks
// for a handful of scripts, not 12–17 in three waves over HTTP/1.1's six connections.
const FRAME_PARTS = /\/(dom|embed|page|later|share-later|url-state|format|site-pages|preload-helper)-[\w-]{8}\.js$/;
for (const spec of PAGES) {
  test(`${spec.path}: the site's frame is one script, requested once`, async () => {
    const { page, problems, requests } = await load(spec.path);
    try {
      const scripts = requests.filter((r) => r.type === 'script').map((r) => new URL(r.url).pathname);
      assert.deepEqual(scripts.filter((s) => FRAME_PARTS.test(s)), [], 'no part of the frame is a file of its own');
      assert.equal(scripts.filter((s) => /\/frame-[\w-]{8}\.js$/.test(s)).length, 1, `the frame chunk, once (${scripts.join(', ')})`);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
}

// The course authors page builds its first screen (the embed builder) before the first frame and
// the references below it (score code, protocol table, xAPI example, panel names) after it. With
// frames held back the builder is complete and the references wait; with frames they all come,
// the page is ready, and a link to a reference section lands on its heading.
test('authors.html: the builder is built before the first frame, the references below it after', async () => {
  const { page } = await suite.open('authors.html', {
    prepare: (p) => p.addInitScript(() => {
      window.requestAnimationFrame = () => 0;
    }),
  });
  try {
    await page.waitForFunction(() => document.querySelector('#builder-output textarea')?.value.includes('<iframe'), null, { timeout: 20_000 });
    const held = await page.evaluate(() => ({
      widgets: document.querySelectorAll('#builder-widget option').length,
      switches: document.querySelectorAll('#builder-hide input[type="checkbox"]').length,
      url: document.getElementById('builder-url').href,
      header: Boolean(document.querySelector('.site-header')),
      protocolRows: document.querySelectorAll('#protocol-table tr').length,
      panelNames: document.querySelectorAll('#panel-reference dt').length,
      xapi: document.getElementById('xapi-example').textContent,
      iframes: document.querySelectorAll('iframe').length,
      state: document.body.dataset.state ?? '',
    }));
    assert.ok(held.widgets > 1 && held.switches > 0, 'the builder has its choices');
    assert.match(held.url, /exercise\.html\?ex=.*embed=1/);
    assert.ok(held.header, 'the site header is on the first screen');
    assert.deepEqual(
      { protocolRows: held.protocolRows, panelNames: held.panelNames, xapi: held.xapi, iframes: held.iframes, state: held.state },
      { protocolRows: 0, panelNames: 0, xapi: '', iframes: 0, state: '' },
      'the references and the live example wait for a frame',
    );
  } finally {
    await page.close();
  }

  const { page: linked, problems } = await suite.open('authors.html#xapi-title');
  try {
    await linked.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
    const built = await linked.evaluate(() => ({
      protocolRows: document.querySelectorAll('#protocol-table tbody tr').length,
      panelNames: document.querySelectorAll('#panel-reference dt').length,
      xapi: JSON.parse(document.getElementById('xapi-example').textContent).verb?.id ?? '',
      score: document.getElementById('score-code').textContent.includes('masklab'),
      live: document.querySelector('.live > iframe#live-frame')?.getAttribute('src') ?? '',
    }));
    assert.ok(built.protocolRows > 0 && built.panelNames > 0 && built.score, JSON.stringify(built));
    assert.match(built.live, /exercise\.html\?ex=.*embed=1/, 'the live example is in its place, pointed at the first exercise');
    assert.match(built.xapi, /answered/);
    // The heading the link names is on screen once the references above it are built.
    await linked.waitForFunction(() => {
      const top = document.getElementById('xapi-title').getBoundingClientRect().top;
      return top > -2 && top < innerHeight;
    }, null, { timeout: 5_000 });
    assert.deepEqual(problems, []);
  } finally {
    await linked.close();
  }
});

// Sections marked "below-fold" (site.css) are skipped by the browser while off screen, so the
// first frame lays out only the first screen. The mark must change nothing a reader sees: with
// every section rendered, each heading sits where it sits without the mark (margins, which no
// longer merge across a contained section, are compensated), and a control inside one is
// reached by Tab.
test('authors.html: below-the-fold sections are skipped while off screen, and sit where they would without it', async () => {
  const { page, problems } = await suite.open('authors.html');
  try {
    await page.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
    const marked = await page.evaluate(() => [...document.querySelectorAll('.below-fold')].map((s) => ({
      contentVisibility: getComputedStyle(s).contentVisibility,
      skipped: !s.lastElementChild.checkVisibility({ contentVisibilityAuto: true }), // its content is skipped, not the section
    })));
    assert.ok(marked.length >= 3, 'the authors page marks its reference sections');
    assert.ok(marked.every((s) => s.contentVisibility === 'auto'), JSON.stringify(marked));
    assert.ok(marked.at(-1).skipped, 'the last section is skipped before the reader scrolls to it');

    // Each heading is measured while it is on screen: a skipped section keeps the inner layout
    // it had when it was last rendered, and the live example's frame (the last section) resizes
    // itself when its exercise loads, which moves the log's heading under it.
    const headings = () =>
      page.evaluate(async () => {
        const tops = [];
        for (const heading of document.querySelectorAll('main h2, main h3')) {
          heading.scrollIntoView({ block: 'center' });
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          tops.push(Math.round(heading.getBoundingClientRect().top + scrollY));
        }
        scrollTo(0, 0);
        return tops;
      });
    // Bring the live example into view and wait for its frame's own height (a logged "resize"),
    // so both layouts compared below hold the same frame.
    await page.locator('#live-frame').scrollIntoViewIfNeeded();
    await page.waitForSelector('#message-log .log-entry[data-type="resize"]', { state: 'attached', timeout: 20_000 });
    // Render every section once (the browser then keeps each one's real size), then compare.
    await page.evaluate(async () => {
      for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
        scrollTo(0, y);
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      }
      scrollTo(0, 0);
    });
    const withMark = await headings();
    await page.evaluate(() => {
      for (const section of document.querySelectorAll('.below-fold')) section.classList.remove('below-fold');
    });
    assert.deepEqual(withMark, await headings(), 'heading positions with and without the mark');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

// The Train page's settings are on its first screen; its three charts (uPlot) are built after
// the first frame. With frames held back, the form is filled and the charts are not there yet.
test('train.html: the settings come before the first frame, the charts after it', async () => {
  const { page } = await suite.open('train.html', {
    prepare: (p) =>
      p.addInitScript(() => {
        window.requestAnimationFrame = () => 0;
      }),
  });
  try {
    await page.waitForFunction(() => document.querySelectorAll('#bug option').length > 1, null, { timeout: 20_000 });
    await page.waitForTimeout(300);
    const held = await page.evaluate(() => ({ charts: document.querySelectorAll('#curves .uplot').length, state: document.body.dataset.state ?? '' }));
    assert.deepEqual(held, { charts: 0, state: '' }, 'the charts wait for a frame');
  } finally {
    await page.close();
  }
  const { page: normal, problems } = await suite.open('train.html');
  try {
    await normal.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
    assert.equal(await normal.locator('#curves .uplot').count(), 3, 'then the three charts are built');
    assert.deepEqual(problems, []);
  } finally {
    await normal.close();
  }
});

// Every Intl constructor and every locale method, wrapped in the page before its scripts run, so
// each call is noted with the script line that made it. Page scripts only: Playwright's own code
// runs in another world and does not see the wrappers.
function recordIntlCalls() {
  window.__intlCalls = [];
  const note = (name) => {
    const at = (new Error().stack ?? '').split('\n')[3]?.trim() ?? '';
    window.__intlCalls.push(`${name} ${at.replace(/^at /, '').replace(/https?:\/\/[^)]*\/assets\//, '')}`);
  };
  for (const name of Object.getOwnPropertyNames(Intl)) {
    const original = Intl[name];
    if (typeof original !== 'function') continue;
    Intl[name] = new Proxy(original, {
      construct: (target, args) => (note(`Intl.${name}`), Reflect.construct(target, args)),
      apply: (target, self, args) => (note(`Intl.${name}()`), Reflect.apply(target, self, args)),
    });
  }
  const methods = [
    [String.prototype, 'localeCompare'], [String.prototype, 'toLocaleLowerCase'], [String.prototype, 'toLocaleUpperCase'],
    [Number.prototype, 'toLocaleString'], [BigInt.prototype, 'toLocaleString'], [Array.prototype, 'toLocaleString'],
    [Date.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleDateString'], [Date.prototype, 'toLocaleTimeString'],
  ];
  for (const [owner, name] of methods) {
    const original = owner[name];
    owner[name] = function (...args) {
      note(name);
      return original.apply(this, args);
    };
  }
}

for (const spec of PAGES) {
  test(`${spec.path}: no Intl call before the page is ready (each one loads locale data)`, async () => {
    const { page, problems } = await suite.open(spec.path, { prepare: (p) => p.addInitScript(recordIntlCalls) });
    try {
      await page.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
      // The check must see a call when there is one: the wrappers are in place on this page.
      const probe = await page.evaluate(() => {
        const before = window.__intlCalls.length;
        (1234).toLocaleString('en');
        const seen = window.__intlCalls.length - before;
        window.__intlCalls.length = before;
        return seen;
      });
      assert.equal(probe, 1, 'the wrappers record a call');
      assert.deepEqual(await page.evaluate(() => [...new Set(window.__intlCalls)]), [], 'Intl calls (each distinct call once)');
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
}

// A returning learner's practice page lists past sessions with their dates: written by hand, so
// this page too is ready without Intl.
test('practice.html with past sessions: no Intl call before the page is ready', async () => {
  const { page, problems } = await suite.open('practice.html', {
    prepare: async (p) => {
      await p.addInitScript(recordIntlCalls);
      await p.addInitScript(() => {
        const session = { when: new Date(Date.now() - 86_400_000).toISOString(), seed: 'returning', items: [{ id: 'a', score: 1, max: 2 }] };
        localStorage.setItem('masklab.progress.v1', JSON.stringify({ practice: [session] }));
      });
    },
  });
  try {
    await page.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
    assert.equal(await page.locator('.history-item time').count(), 1, 'the session is listed');
    assert.deepEqual(await page.evaluate(() => [...new Set(window.__intlCalls)]), [], 'Intl calls (each distinct call once)');
    assert.match(await page.textContent('.history-item time'), /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d$/, 'with its date');
    assert.deepEqual(problems, []);
  } finally {
    await page.evaluate(() => localStorage.clear());
    await page.close();
  }
});
