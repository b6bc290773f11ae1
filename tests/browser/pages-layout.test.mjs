// Home, the function lab and interview practice as a user meets them (issue 12, points 4, 7 and 13),
// at 1280, 375 and 320 px, light and dark.
//   Home: the first screen says what masklab is and shows the live batch; levels and topics
//   filter the exercise list (and stay in the URL), a chosen topic's sentence shown above it; a card for every page with a group in
//   shared/site-pages.js.
//   Function lab: Inspect draws y = a·x² with the tangent at x, whose slope is the one printed;
//   editing an input or an invalid one takes the old verdicts away; the Reset status goes as
//   soon as the learner types; variables are <var>, verdicts quiet and on one line.
//   Practice: the timer stays in view while the step scrolls; no embed panel mid-session; a past
//   session's figures wrap as whole blocks (no value split over two lines, none cut at the edge).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { REPO_ROOT, VIEWS, useSiteAndBrowser } from './helpers.mjs';
import { SITE_PAGES } from '../../web/shared/site-pages.js';

const suite = useSiteAndBrowser();
const index = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'index.json'), 'utf8'));
const topics = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'topics.json'), 'utf8'));

test('home: the first screen says what this is and shows the live batch', async () => {
  for (const view of VIEWS) {
    const { page, problems } = await suite.openAt('index.html', view);
    await page.waitForSelector('body[data-state="ready"]');
    const box = (sel) => page.$eval(sel, (n) => n.getBoundingClientRect().toJSON());
    assert.ok((await box('.tagline')).bottom <= 800, `${view.name}: the tagline on the first screen`);
    const table = await box('#batch-table');
    // On a wide screen the whole batch is on the first screen; on a phone, right after the text.
    if (view.width >= 1280) assert.ok(table.bottom <= 800, `${view.name}: the live batch on the first screen (${table.bottom})`);
    else assert.ok(table.top <= 1400, `${view.name}: the live batch right after the introduction (${table.top})`);
    // The whole batch, pads included, without scrolling the table sideways, down to 320 px; its
    // caption wraps inside the demo's box (as a <caption> it was cut at a phone's edge).
    const scroller = await page.$eval('#batch-section .table-scroll', (n) => ({ scroll: n.scrollWidth, client: n.clientWidth }));
    assert.ok(scroller.scroll <= scroller.client, `${view.name}: the batch table scrolls sideways (${scroller.scroll} > ${scroller.client})`);
    assert.ok((await box('#batch-caption')).right <= (await box('.hero-demo')).right, `${view.name}: the caption inside the demo`);
    assert.equal(await page.textContent('#batch-table thead th:nth-child(2)'), 't=0', `${view.name}: the position header keeps "t=" for screen readers`);
    assert.equal(await page.getAttribute('#start-exercise', 'href'), `./exercise.html?ex=${index[0].id}`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), view.width, `${view.name}: no sideways scrolling`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('home: levels and topics filter the list, the URL keeps them, Show all clears them; a card per page', async () => {
  const { page, problems } = await suite.open('index.html');
  await page.waitForSelector('body[data-state="ready"]');
  const shown = () => page.$$eval('.exercise-card:not([hidden])', (cards) => cards.map((c) => c.querySelector('a').getAttribute('href').split('ex=')[1]));
  assert.equal((await shown()).length, index.length);

  await page.click('.filter-group button[data-value="beginner"]');
  const beginners = index.filter((e) => e.level === 'beginner').map((e) => e.id);
  assert.deepEqual(await shown(), beginners);
  assert.equal(await page.getAttribute('.filter-group button[data-value="beginner"]', 'aria-pressed'), 'true');
  assert.match(await page.textContent('#exercise-summary-count'), new RegExp(`Showing ${beginners.length} of ${index.length}`));
  assert.equal(new URLSearchParams(new URL(page.url()).search).get('level'), 'beginner');

  // A topic narrows within the level: beginners with that topic (any of the chosen topics).
  const tag = index.find((e) => e.level === 'beginner').tags[0];
  await page.click(`.filter-group.topics button[data-value="${tag}"]`);
  assert.deepEqual(await shown(), index.filter((e) => e.level === 'beginner' && e.tags.includes(tag)).map((e) => e.id));
  // The chosen topic's sentence (content/topics.yaml) above the cards.
  assert.deepEqual(await page.$$eval('.topic-notes > div', (ds) => ds.map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])), [[tag, topics[tag]]]);
  assert.ok(topics[tag].length > 20 && (await page.isVisible('.topic-notes')));

  await page.reload();
  await page.waitForSelector('body[data-state="ready"]');
  assert.deepEqual(await shown(), index.filter((e) => e.level === 'beginner' && e.tags.includes(tag)).map((e) => e.id), 'the filters survive a reload');
  await page.click('.show-all');
  assert.equal((await shown()).length, index.length);
  assert.equal(await page.isVisible('.topic-notes'), false, 'no topic, no sentence');
  assert.equal(new URL(page.url()).search, '');

  // Every page with a group has its card, from the one list (shared/site-pages.js).
  const cards = await page.$$eval('.tool-card', (cs) => cs.map((c) => c.dataset.page));
  assert.deepEqual(cards, SITE_PAGES.filter((p) => p.group).map((p) => p.id));
  assert.deepEqual(problems, []);
  await page.close();
});

test('home and the exercise list: a link’s unusable filters are named at the top, tracking parameters are not', async () => {
  const { page, problems } = await suite.open('index.html?level=expert&tag=padding,no-such-topic&utm_source=mail&fbclid=x&foo=1');
  await page.waitForSelector('body[data-state="ready"]');
  const note = page.locator('#url-note');
  assert.ok(await note.isVisible());
  const items = await note.locator('li').allTextContents();
  assert.deepEqual(items, [
    'URL parameter foo is not used on this page, so it was ignored. This page reads: level, tag.',
    'URL parameter level=expert has a bad item "expert"; using the default.',
    'URL parameter tag names a topic no exercise has (“no-such-topic”); the list is not filtered by it.',
  ]);
  // The topic that exists still filters; the note sits on the first screen, beside the hero text.
  const shown = await page.$$eval('.exercise-card:not([hidden])', (cards) => cards.length);
  assert.equal(shown, index.filter((e) => e.tags.includes('padding')).length);
  assert.ok((await note.boundingBox()).y + (await note.boundingBox()).height <= 800, 'the note is on the first screen');
  assert.deepEqual(problems, []);
  await page.close();

  const quiet = await suite.open('index.html?utm_source=mail&utm_medium=email&gclid=1');
  await quiet.page.waitForSelector('body[data-state="ready"]');
  assert.equal(await quiet.page.locator('#url-note').isVisible(), false, 'nothing to say about tracking parameters');
  await quiet.page.close();

  const list = await suite.open('exercise.html?tag=no-such-topic');
  await list.page.waitForSelector('body[data-state="ready"]');
  assert.match(await list.page.textContent('#url-note'), /URL parameter tag names a topic no exercise has \(“no-such-topic”\)/);
  assert.deepEqual(list.problems, []);
  await list.page.close();
});

// Each word in the lab's picture as drawn: its size on screen (the SVG scales with its box) and
// whether its box lies inside the picture.
function pictureWords() {
  const svg = document.querySelector('svg.parabola');
  const frame = svg.getBoundingClientRect();
  const scale = frame.width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].map((t) => {
    const r = t.getBoundingClientRect();
    return {
      text: t.textContent,
      px: Math.round(parseFloat(getComputedStyle(t).fontSize) * scale * 10) / 10,
      inside: r.left >= frame.left - 0.5 && r.right <= frame.right + 0.5 && r.top >= frame.top - 0.5 && r.bottom <= frame.bottom + 0.5,
    };
  });
}

test('function lab: Inspect draws the parabola and the tangent with the printed slope; stale verdicts go', async () => {
  for (const view of VIEWS) {
    const { page, problems } = await suite.openAt('lab.html', view);
    await page.waitForSelector('body[data-state="ready"]');
    // Variables are set apart from the prose (the "a" of "a = 1" is not the article).
    assert.ok((await page.locator('.guided-steps var').count()) >= 4);
    // The picture's words are readable on a phone (≥ 12 px; they were 9–10 px at 320) and stay
    // inside it, before Inspect and after it (a long slope included).
    const empty = await page.evaluate(pictureWords);
    assert.deepEqual(empty.map((w) => w.text), ['Press Inspect to draw y = a·x² and its tangent at x.']);
    for (const w of empty) assert.ok(w.px >= 12 && w.inside, `${view.name}: ${JSON.stringify(w)}`);
    await page.fill('input[name="a"]', '-123456');
    await page.fill('input[name="x"]', '7.5');
    await page.click('.fn-form button[type="submit"]');
    await page.waitForSelector('svg.parabola .slope-label');
    for (const w of await page.evaluate(pictureWords)) assert.ok(w.px >= 12 && w.inside, `${view.name}: ${JSON.stringify(w)}`);
    await page.fill('input[name="a"]', '0.5');
    await page.fill('input[name="x"]', '2');
    await page.fill('input[name="py"]', '2');
    await page.fill('input[name="pdx"]', '3');
    await page.click('.fn-form button[type="submit"]');
    // By hand: y = 0.5·2² = 2, dy/dx = 2·0.5·2 = 2, dy/da = 4.
    const svg = page.locator('svg.parabola');
    assert.deepEqual([await svg.getAttribute('data-a'), await svg.getAttribute('data-x'), await svg.getAttribute('data-slope')], ['0.5', '2', '2']);
    assert.match(await svg.locator('.slope-label').textContent(), /slope dy\/dx = 2/);
    assert.match(await svg.locator('title').textContent(), /point x = 2, y = 2/);
    // The tangent goes through the point with the slope: its two ends and the point are collinear.
    const collinear = await page.evaluate(() => {
      const [p, q] = document.querySelector('svg.parabola .tangent').getAttribute('points').split(' ').map((s) => s.split(',').map(Number));
      const c = document.querySelector('svg.parabola .point');
      const [cx, cy] = [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))];
      return Math.abs((q[0] - p[0]) * (cy - p[1]) - (q[1] - p[1]) * (cx - p[0]));
    });
    assert.ok(collinear < 200, `the tangent passes through the point (${collinear})`);
    assert.equal((await page.textContent('[data-result="y"] dd.verdict')).trim(), '✓ matches your 2');
    assert.equal((await page.textContent('[data-result="dydx"] dd.verdict')).trim(), '✗ you said 3');
    // Quiet verdicts: normal weight, one line each.
    const verdicts = await page.$$eval('.fn-figures dd.verdict', (ds) => ds.map((d) => [getComputedStyle(d).fontWeight, d.getClientRects().length, d.scrollWidth <= d.clientWidth + 1]));
    for (const [weight, lines, fits] of verdicts) assert.ok(Number(weight) <= 400 && lines === 1 && fits, `${view.name}: ${weight} ${lines} ${fits}`);
    assert.match(await page.textContent('[data-result="dyda"] .figure-help'), /does not depend on a, so halving a leaves it as it is/);

    // Another input: the old verdicts and picture go, and the page says why.
    await page.fill('input[name="x"]', '3');
    assert.equal(await page.locator('.fn-result dd.verdict').count(), 0, `${view.name}: no stale verdicts`);
    assert.equal(await svg.getAttribute('data-slope'), null);
    assert.match(await page.textContent('.fn-note'), /inputs changed/);
    // An invalid input: an error, and still nothing stale.
    await page.fill('input[name="a"]', 'half');
    await page.click('.fn-form button[type="submit"]');
    assert.match(await page.textContent('.fn-form .control-error'), /“half” is not a number/);
    assert.equal(await page.locator('.fn-result dd.verdict').count(), 0);
    // Reset says so, and the status goes as soon as the learner types.
    await page.click('.fn-form button:text-is("Reset")');
    assert.match(await page.textContent('.fn-note'), /^Reset:/);
    await page.keyboard.type('2');
    assert.equal(await page.textContent('.fn-note'), '');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), view.width, `${view.name}: no sideways scrolling`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('practice: the timer stays in view while a step scrolls, and no embed panel shows mid-session', async () => {
  for (const view of VIEWS) {
    const { page, problems } = await suite.openAt('practice.html?n=1&seed=layout&timer=10', view);
    await page.waitForSelector('body[data-state="ready"]');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForSelector('#share-panel h2'); // drawn when the end of the page is near
    assert.equal(await page.isVisible('#share-panel'), true, `${view.name}: the embed panel on the set-up screen`);
    await page.click('button.start');
    await page.waitForSelector('#step-title');
    assert.equal(await page.isVisible('#share-panel'), false, `${view.name}: no embed panel during a session`);
    await page.click('button.check');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const timer = await page.$eval('#session-timer', (t) => t.getBoundingClientRect().toJSON());
    assert.ok(timer.top >= 0 && timer.bottom <= 800, `${view.name}: the timer is in view at the bottom of the step (${timer.top})`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('practice: past sessions wrap as whole labelled figures, never a value split over two lines', async () => {
  const sessions = [
    { when: '2026-12-03T09:05:00Z', seed: 'k3x9', seconds: 754, items: [{ id: 'a', score: 2, max: 3, grades: 'gpm', status: 'done' }, { id: 'b', score: 1, max: 2, grades: 'g', status: 'done' }] },
    { when: '2026-12-04T14:30:00Z', seed: 'q7', seconds: null, items: [{ id: 'a', score: 3, max: 3, grades: 'ggm', status: 'done' }, { id: 'b', score: 0, max: 2, grades: '', status: 'not-started' }] },
  ];
  for (const view of VIEWS) {
    const { page, problems } = await suite.open('practice.html', {
      prepare: async (p) => {
        await p.setViewportSize({ width: view.width, height: 800 });
        await p.emulateMedia({ colorScheme: view.colorScheme });
        await p.addInitScript((practice) => localStorage.setItem('masklab.progress.v1', JSON.stringify({ practice })), sessions);
      },
    });
    await page.waitForSelector('body[data-state="ready"]');
    const values = await page.$$eval('.history-item', (items) =>
      items.flatMap((item) => {
        const box = item.getBoundingClientRect();
        return [...item.querySelectorAll('dd')].map((dd) => {
          // The lines the value's text sits on (its text nodes' boxes, not the padding of a <code>).
          const tops = new Set();
          const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
          for (let text = walker.nextNode(); text; text = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(text);
            for (const r of range.getClientRects()) tops.add(Math.round(r.bottom));
          }
          const lines = tops.size;
          const r = dd.getBoundingClientRect();
          return { text: dd.textContent, lines, inside: r.left >= box.left && r.right <= box.right };
        });
      }),
    );
    assert.equal(values.length, 9, `${view.name}: five figures for the first session, four for the second (no time)`);
    for (const v of values) {
      assert.equal(v.lines, 1, `${view.name}: "${v.text}" on one line`);
      assert.ok(v.inside, `${view.name}: "${v.text}" inside its session's box`);
    }
    // Worked by hand from the two records, newest first (no-break spaces keep counts with words).
    const nb = (text) => text.replaceAll(' ', '\u00a0');
    assert.deepEqual(
      values.map((v) => v.text),
      ['3 / 5', `${nb('2 got it')}, ${nb('0 partly')}, ${nb('1 missed')}`, `2 (${nb('1 finished')})`, 'q7', '3 / 5', `${nb('2 got it')}, ${nb('1 partly')}, ${nb('1 missed')}`, '2', '12:34', 'k3x9'],
    );
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), view.width, `${view.name}: no sideways scrolling`);
    await page.evaluate(() => localStorage.clear());
    assert.deepEqual(problems, []);
    await page.close();
  }
});
