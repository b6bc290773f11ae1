// The embed protocol end to end: a host page (web/embed-example.html) frames an exercise and
// receives `ready`, `resize` (never the loading line's height first) and, after Check inside the
// frame, `answered` with the score, the maximum, the marked unit indices, solution_shown and the
// attempt, and the same result as xAPI statements. The course authors page's builder gives one
// snippet that embeds and sizes itself: it is pasted into a page on another origin (a second
// server) and must work there, ignoring messages from anywhere but its frame and masklab's
// origin. The log on the bare host page checks the origin too: a page framing it cannot spoof a
// score. The protocol is a table whose names never break inside a word.
//
// Unit indices of pad-to-max-all-ones counted by hand (see exercise.test.mjs): 'padding="max_length",'
// = 40 (error 0), "attention_mask" = 47 (error 1), "labels" = 50 (error 2), "import" = 0 (not a bug).

import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import { withAxeScanner } from './axe-scan.mjs';
import { startHostSite, useSiteAndBrowser } from './helpers.mjs';

const ID = 'pad-to-max-all-ones';
const suite = useSiteAndBrowser();
let host = null;
after(() => host?.close());

const entries = (page, type) =>
  page.$$eval(`#message-log li[data-type="${type}"]`, (items) => items.map((li) => ({ ...li.dataset, text: li.textContent })));

test('the host page receives ready, resize and answered from the framed exercise', async () => {
  const { page, problems } = await suite.open(`embed-example.html?ex=${ID}`);
  await page.waitForSelector('#message-log li[data-type="ready"]');
  await page.waitForFunction(() => [...document.querySelectorAll('#message-log li[data-type="resize"]')].some((li) => Number(li.dataset.height) > 300));

  const [ready] = await entries(page, 'ready');
  assert.equal(ready.widget, 'exercise');
  const resizes = await entries(page, 'resize');
  // The first resize is the drawn exercise, not the one-line "Loading the exercise…" (81 px).
  assert.ok(Number(resizes[0].height) > 300, `first resize ${resizes[0].height}`);
  const last = Number(resizes.at(-1).height);
  assert.equal(Number(await page.getAttribute('#host-frame', 'height')), last, 'the host sized the iframe to the content');

  // A message the host posts to itself is not from the frame: ignored.
  await page.evaluate(() => window.postMessage({ source: 'masklab', type: 'answered', score: 99 }, '*'));

  const frame = page.frameLocator('#host-frame');
  await frame.locator('body[data-state="ready"]').waitFor();
  for (const i of [47, 40, 0]) await frame.locator('[role="option"]').nth(i).click();
  await frame.locator('#check').click();
  await page.waitForSelector('#message-log li[data-type="answered"]');

  const answered = await entries(page, 'answered');
  assert.equal(answered.length, 1, 'exactly one answered message (the fake one was ignored)');
  // By hand: errors 0 and 1 found, "import" wrong -> score max(2 − 1, 0) = 1 of 3; marked sorted.
  assert.deepEqual(
    { exercise: answered[0].exercise, score: answered[0].score, maxScore: answered[0].maxScore, marked: answered[0].marked, solution: answered[0].solution_shown, attempt: answered[0].attempt },
    { exercise: ID, score: '1', maxScore: '3', marked: '0,40,47', solution: 'false', attempt: '1' },
  );
  assert.match(await page.textContent('#last-answer'), /1 \/ 3/);
  // The frame ran in embed mode: no site header inside it; the bare host has none either.
  assert.equal(await frame.locator('.site-header').count(), 0);
  assert.equal(await page.locator('.site-header').count(), 0, 'the stand-in host page carries no masklab navigation');
  assert.deepEqual(problems, []);
  await page.close();
});

// Collects every masklab message the page receives from its first iframe, as a host would.
function recordMessages(page) {
  return page.evaluate(() => {
    window.__messages = [];
    window.addEventListener('message', (event) => {
      if (event.data?.source === 'masklab') window.__messages.push(event.data);
    });
  });
}

test('answered says when the solution was shown first, and counts the attempts; xAPI statements follow', async () => {
  const { page, problems } = await suite.open(`embed-example.html?ex=${ID}`);
  await recordMessages(page);
  const frame = page.frameLocator('#host-frame');
  await frame.locator('body[data-state="ready"]').waitFor();
  // Show solution -> Retry -> mark all three -> Check: 3 / 3, but not a solve.
  await frame.locator('#show-solution').click();
  await frame.locator('#retry').click();
  for (const i of [40, 47, 50]) await frame.locator('[role="option"]').nth(i).click();
  await frame.locator('#check').click();
  await frame.locator('#retry').click();
  await frame.locator('[role="option"]').nth(40).click();
  await frame.locator('#check').click();
  await page.waitForFunction(() => window.__messages.filter((m) => m.type === 'answered').length === 2);
  const messages = await page.evaluate(() => window.__messages);

  const answered = messages.filter((m) => m.type === 'answered');
  assert.deepEqual(answered.map((m) => [m.score, m.maxScore, m.solution_shown, m.attempt]), [[3, 3, true, 1], [1, 3, true, 2]]);

  const statements = messages.filter((m) => m.type === 'xapi').map((m) => m.statement);
  assert.deepEqual(
    statements.map((s) => s.verb.id),
    ['http://adlnet.gov/expapi/verbs/answered', 'http://adlnet.gov/expapi/verbs/completed', 'http://adlnet.gov/expapi/verbs/answered'],
    'answered every Check, completed on the first',
  );
  const [first] = statements;
  assert.equal(first.actor.objectType, 'Agent', 'a placeholder actor for the host to replace');
  assert.equal(first.object.objectType, 'Activity');
  const objectUrl = new URL(first.object.id);
  assert.equal(objectUrl.pathname.endsWith('/exercise.html'), true);
  assert.deepEqual([...objectUrl.searchParams], [['ex', ID]], 'the activity is the exercise, without the learner’s state');
  // By hand: 3 of 3 -> scaled 1; the solution was shown first, so not a success.
  assert.deepEqual(first.result.score, { scaled: 1, raw: 3, min: 0, max: 3 });
  assert.equal(first.result.success, false);
  assert.equal(first.result.completion, true);
  assert.equal(first.result.response, '40[,]47[,]50');
  assert.deepEqual(Object.values(first.result.extensions), [true, 1]);
  assert.ok(Object.keys(first.result.extensions).every((iri) => /^http:\/\/127\.0\.0\.1:\d+\/masklab\/xapi\/(solution_shown|attempt)$/.test(iri)));
  assert.ok(!Number.isNaN(Date.parse(first.timestamp)));
  // By hand: 1 of 3 -> scaled 1/3.
  assert.deepEqual(statements[2].result.score, { scaled: 1 / 3, raw: 1, min: 0, max: 3 });
  assert.deepEqual(problems, []);
  await page.close();
});

test('the builder’s one snippet embeds and sizes itself on a page from another origin', async () => {
  const { page: authors, problems } = await suite.open('authors.html');
  await authors.waitForSelector('body[data-state="ready"]');
  await authors.selectOption('#builder-exercise', ID);
  const snippet = await authors.inputValue('#builder-output .copy-area');
  await authors.close();
  assert.match(snippet, /^<iframe id="masklab-exercise-[a-z0-9]+" src="http:\/\/127\.0\.0\.1:\d+\/masklab\/exercise\.html\?ex=pad-to-max-all-ones&amp;embed=1"/);
  assert.equal((snippet.match(/<iframe/g) ?? []).length, 1, 'one frame, not two');
  const frameId = /id="([^"]+)"/.exec(snippet)[1];

  // The author's page on another origin: the snippet, and a line that records its events.
  host = await startHostSite({
    '/course.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A course</title></head>
<body><h1>Week 3</h1>${snippet}
<script>window.__events = []; document.getElementById(${JSON.stringify(frameId)}).addEventListener('masklab', (e) => window.__events.push(e.detail));
window.__hiddenAtFirst = getComputedStyle(document.getElementById(${JSON.stringify(frameId)})).visibility === 'hidden';</script>
</body></html>`,
    // The same snippet framing a page that never says "ready" (a broken or blocked page).
    '/silent-course.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A course</title></head>
<body>${snippet.replace(/src="[^"]+"/, 'src="/silent.html"')}</body></html>`,
    '/silent.html': '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><p>no masklab here</p></body></html>',
    // The snippet on a site that strips scripts (some course platforms do): only the iframe is left.
    '/stripped-course.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A course</title></head>
<body>${snippet.replace(/<script>[\s\S]*<\/script>/, '')}</body></html>`,
    // Where a hostile page would send the frame: same window as the frame, another origin.
    '/spoof.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><script>
parent.postMessage({ source: 'masklab', type: 'resize', height: 20000 }, '*');
parent.postMessage({ source: 'masklab', type: 'answered', score: 99, maxScore: 3 }, '*');
</script></body></html>`,
  });
  const page = await suite.browser.context.newPage();
  const hostProblems = [];
  page.on('pageerror', (error) => hostProblems.push(error.message));
  await page.goto(host.url('/course.html'));
  const frameSel = `#${frameId}`;
  await page.waitForFunction(() => window.__events.some((d) => d.type === 'resize'));
  // The frame was kept invisible until its page said "ready", then shown.
  assert.equal(await page.evaluate(() => window.__hiddenAtFirst), true, 'the frame is hidden while its page loads');
  assert.equal(await page.$eval(frameSel, (el) => getComputedStyle(el).visibility), 'visible');
  const frame = page.frameLocator(frameSel);
  await frame.locator('body[data-state="ready"]').waitFor();
  const contentHeight = () => frame.locator('html').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
  const frameHeight = () => page.getAttribute(frameSel, 'height').then(Number);
  await page.waitForFunction(({ sel }) => Number(document.querySelector(sel).getAttribute('height')) !== 900, { sel: frameSel });
  const before = await frameHeight();
  assert.equal(before, await contentHeight(), 'the frame is as tall as its content');

  for (const i of [40, 47, 50]) await frame.locator('[role="option"]').nth(i).click();
  await frame.locator('#check').click();
  await page.waitForFunction(() => window.__events.some((d) => d.type === 'answered'));
  await page.waitForFunction(({ sel, h }) => Number(document.querySelector(sel).getAttribute('height')) > h + 1000, { sel: frameSel, h: before });
  const answered = await page.evaluate(() => window.__events.find((d) => d.type === 'answered'));
  assert.deepEqual([answered.score, answered.maxScore, answered.solution_shown], [3, 3, false]);
  // The page grew after Check (explanation, See it break …) and the frame followed it.
  assert.ok((await frameHeight()) > before + 1000);

  // The frame is sent to a page of the host's own origin that posts masklab-looking messages:
  // the source is the frame's window, but the origin is not masklab's, so nothing changes.
  // The page may still be growing (sections below the fold render after Check): read the
  // frame's height once masklab's own resize messages have stopped for half a second.
  let grown = await frameHeight();
  for (let still = 0; still < 5; ) {
    await page.waitForTimeout(100);
    const now = await frameHeight();
    still = now === grown ? still + 1 : 0;
    grown = now;
  }
  const events = await page.evaluate(() => window.__events.length);
  const spoofLoaded = page.waitForEvent('framenavigated', (f) => f.url().endsWith('/spoof.html'));
  await page.evaluate(({ sel, url }) => {
    document.querySelector(sel).src = url;
  }, { sel: frameSel, url: host.url('/spoof.html') });
  await spoofLoaded;
  await page.waitForTimeout(300);
  assert.equal(await frameHeight(), grown, 'a message from another origin never sizes the frame');
  assert.equal(await page.evaluate(() => window.__events.length), events, 'nor reaches the host page');
  assert.deepEqual(hostProblems, []);
  assert.deepEqual(problems, []);
  await page.close();

  // A framed page that never says "ready" is shown anyway, a few seconds after it has loaded.
  const silent = await suite.browser.context.newPage();
  await silent.goto(host.url('/silent-course.html'));
  const silentSel = `#${frameId}`;
  assert.equal(await silent.$eval(silentSel, (el) => getComputedStyle(el).visibility), 'hidden');
  await silent.waitForFunction((sel) => getComputedStyle(document.querySelector(sel)).visibility === 'visible', silentSel, { timeout: 10_000 });
  await silent.close();

  // Without its script the frame is not sized, but it is shown: nothing hides it.
  const stripped = await suite.browser.context.newPage();
  await stripped.goto(host.url('/stripped-course.html'));
  assert.equal(await stripped.locator('script').count(), 0);
  assert.equal(await stripped.$eval(silentSel, (el) => getComputedStyle(el).visibility), 'visible');
  await stripped.close();
});

test('the bare host page’s log checks the origin: a page framing it cannot spoof a score or a size', async () => {
  host ??= await startHostSite({});
  const attacker = await startHostSite({
    '/attack.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
<iframe id="victim" src="${suite.url(`embed-example.html?ex=${ID}`)}" width="900" height="700"></iframe></body></html>`,
    '/spoof.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><script>
parent.postMessage({ source: 'masklab', type: 'resize', widget: 'exercise', height: 20000 }, '*');
parent.postMessage({ source: 'masklab', type: 'answered', widget: 'exercise', exercise: 'x', score: 99, maxScore: 3 }, '*');
</script></body></html>`,
  });
  try {
    const page = await suite.browser.context.newPage();
    await page.goto(attacker.url('/attack.html'));
    const victim = page.frames().find((f) => f.url().includes('embed-example.html')) ?? (await page.waitForEvent('frameattached'));
    await victim.waitForSelector('#message-log li[data-type="ready"]');
    const heightBefore = await victim.getAttribute('#host-frame', 'height');
    // The framing page navigates the victim's inner frame (allowed for an ancestor) to its own page.
    await page.evaluate((url) => {
      window.frames[0].frames[0].location = url;
    }, attacker.url('/spoof.html'));
    await page.waitForTimeout(500);
    assert.equal(await victim.locator('#message-log li[data-type="answered"]').count(), 0, 'no spoofed score in the log');
    assert.equal(await victim.textContent('#last-answer'), '');
    assert.notEqual(await victim.getAttribute('#host-frame', 'height'), '20000');
    assert.equal(await victim.getAttribute('#host-frame', 'height'), heightBefore);
    await page.close();
  } finally {
    await attacker.close();
  }
});

test('the course authors page embeds a live exercise and logs its messages', async () => {
  const { page, problems } = await suite.open('authors.html');
  await page.waitForSelector('body[data-state="ready"]');
  // The live example loads when it comes near the screen (not on the first view's bytes).
  assert.equal(await page.locator('#message-log li[data-type="ready"]').count(), 0);
  await page.locator('#live-frame').scrollIntoViewIfNeeded();
  await page.waitForSelector('#message-log li[data-type="ready"]');
  const frameVisibility = () => page.$eval('#live-frame', (el) => getComputedStyle(el).visibility);
  assert.equal(await frameVisibility(), 'visible', 'shown once the exercise has drawn itself');
  // The builder turns choices into an embed URL with hide switches.
  await page.check('#hide-followups');
  await page.check('#hide-references');
  const href = await page.getAttribute('#builder-url', 'href');
  const url = new URL(href);
  assert.equal(url.pathname.endsWith('/exercise.html'), true);
  assert.equal(url.searchParams.get('embed'), '1');
  assert.equal(url.searchParams.get('hide'), 'followups,references');
  assert.match(
    await page.inputValue('#builder-output .copy-area'),
    /^<iframe id="masklab-exercise-[a-z0-9]+" src="http:\/\/127\.0\.0\.1:\d+\/masklab\/exercise\.html\?ex=[a-z0-9-]+&amp;embed=1&amp;hide=followups%2Creferences" title="masklab find-the-bug exercise: /,
  );
  assert.match(await page.textContent('#builder-hide legend'), /tick one to hide it/);
  // Show it in the live example: the log starts again with the new frame's ready.
  // The new page is held back until released, so what happens before it arrives can be checked.
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route(/exercise\.html\?.*hide=followups/, async (route) => {
    await held;
    await route.continue();
  });
  const oldPage = page.frames().find((f) => f.parentFrame() === page.mainFrame());
  await page.click('#builder-preview');
  assert.equal(await frameVisibility(), 'hidden', 'blank while the new page loads, as the snippet keeps it');
  // The old page can still post a resize from the same window before the new one replaces it
  // (its height changed): only the new page's "ready" shows the frame.
  await oldPage.evaluate(() => parent.postMessage({ source: 'masklab', type: 'resize', widget: 'exercise', height: 700 }, '*'));
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
  assert.equal(await frameVisibility(), 'hidden', 'a resize before "ready" does not show the half-built page');
  release();
  await page.waitForSelector('#message-log li[data-type="ready"]');
  await page.waitForFunction(() => getComputedStyle(document.getElementById('live-frame')).visibility === 'visible');
  assert.equal(new URL(await page.getAttribute('#live-frame', 'src')).searchParams.get('hide'), 'followups,references');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the protocol and parameter tables: one row per message or parameter, no name or example broken inside a word, nothing to scroll sideways (1280, 375, 320)', async () => {
  const { page, problems } = await suite.open('authors.html');
  await page.waitForSelector('body[data-state="ready"]');
  assert.deepEqual(await page.$$eval('.reference.protocol tbody tr', (rows) => rows.map((r) => r.dataset.type)), ['ready', 'resize', 'answered', 'trained', 'xapi']);
  assert.match(await page.textContent('.reference.protocol tr[data-type="answered"]'), /solution_shown[\s\S]*attempt/);
  for (const width of [1280, 375, 320]) {
    await page.setViewportSize({ width, height: 800 });
    const broken = await page.$$eval('.reference.protocol code, .reference.params code, .xapi-fields code', (codes) => codes.filter((c) => c.getClientRects().length > 1).map((c) => c.textContent));
    assert.deepEqual(broken, [], `${width} px: names on one line`);
    // The parameters' box fits its table: a phone reads each row without scrolling it.
    const params = await page.$eval('.reference.params', (t) => {
      const box = t.closest('.table-scroll');
      return { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth, rows: t.tBodies[0].rows.length };
    });
    assert.equal(params.rows, 3);
    assert.ok(params.scrollWidth <= params.clientWidth, `${width} px: the parameters table fits its box (${params.scrollWidth} > ${params.clientWidth})`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, `${width} px: no sideways scroll`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('axe: the host page and the authors page have no violations, light and dark', async () => {
  await withAxeScanner(async (scanner) => {
    for (const colorScheme of ['light', 'dark']) {
      for (const path of ['embed-example.html', 'authors.html']) {
        const violations = await scanner.scan(suite.url(path), {
          colorScheme,
          prepare: async (page) => {
            await page.locator('iframe').first().scrollIntoViewIfNeeded();
            await page.waitForSelector('#message-log li[data-type="ready"]');
          },
        });
        assert.deepEqual(violations, [], `${path}, ${colorScheme}`);
      }
    }
  });
});

// On a 320 px phone the authors page's live frame is ~290 px wide, as a course's column would
// make it. The embedded page takes the width it is given: nothing in it runs past the frame's
// right edge (the site's 320 px minimum body width is for whole pages, not for embeds).
for (const colorScheme of ['light', 'dark']) {
  test(`an embedded exercise fits a frame narrower than 320 px (authors page at 320 px, ${colorScheme})`, async () => {
    const { page, problems } = await suite.openAt('authors.html', { width: 320, colorScheme });
    await page.waitForSelector('body[data-state="ready"]');
    await page.locator('#live-frame').scrollIntoViewIfNeeded();
    await page.waitForSelector('#message-log li[data-type="resize"]', { state: 'attached', timeout: 20_000 });
    const frame = page.frame({ url: /exercise\.html/ });
    await frame.waitForSelector('#passage-box [role="option"]');
    const fit = await frame.evaluate(() => ({
      width: document.documentElement.clientWidth,
      scrollWidth: document.documentElement.scrollWidth,
      embedded: document.documentElement.classList.contains('embedded'),
    }));
    assert.ok(fit.embedded, 'the framed page is in embed mode');
    assert.ok(fit.width < 320, `the frame is narrower than the phone (${fit.width} px)`);
    assert.equal(fit.scrollWidth, fit.width, 'no sideways scroll inside the frame');
    assert.deepEqual(problems, []);
    await page.close();
  });
}
