// The exercise page as a learner on a desktop and a phone uses it (issue 12, points 5 and 9), at
// 1280, 375 and 320 px, light and dark: a table of contents after Check (sticky beside the page
// on wide screens) ending with related exercises, previous / next / all exercises at the top, the nav's "Find the bug" opening
// the list, ?id= accepted and unknown parameters explained, no ring on the result after a mouse
// Check (a ring after a keyboard one), one mark per multi-word part in the solution; on phones:
// code that wraps with its line numbers kept, a 24 × 24 px hit area for every word, a one-line
// header with a Menu, and no sideways scrolling anywhere.
//
// pad-to-max-all-ones, counted by hand (exercise.test.mjs): units 47, 48, 49 are the three words
// of "attention_mask = torch.ones_like(input_ids)" (error 1), on line 15; "=" is unit 48.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { REPO_ROOT, VIEWS, useSiteAndBrowser } from './helpers.mjs';

const suite = useSiteAndBrowser();
const ID = 'pad-to-max-all-ones';
const index = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'index.json'), 'utf8'));
const at = index.findIndex((e) => e.id === ID);

test('after Check: a table of contents (sticky on wide screens) and the pager at the top', async () => {
  for (const view of VIEWS) {
    const { page, problems } = await suite.openAt(`exercise.html?ex=${ID}`, view);
    await page.waitForSelector('body[data-state="ready"]');
    assert.equal(await page.isVisible('#toc'), false, `${view.name}: no contents before Check`);
    // The pager: all exercises, previous and next in list order.
    assert.equal(await page.getAttribute('.pager-all', 'href'), './exercise.html');
    if (index[at + 1]) assert.equal(await page.getAttribute('.pager-next', 'href'), `./exercise.html?ex=${index[at + 1].id}`);
    if (index[at - 1]) assert.equal(await page.getAttribute('.pager-prev', 'href'), `./exercise.html?ex=${index[at - 1].id}`);
    const pagerBottom = await page.$eval('#exercise-pager', (n) => n.getBoundingClientRect().bottom);
    const titleTop = await page.$eval('#exercise-title', (n) => n.getBoundingClientRect().top);
    assert.ok(pagerBottom <= titleTop, `${view.name}: the pager is above the title`);

    await page.click('#check');
    await page.waitForSelector('#toc:not([hidden])');
    const links = await page.$$eval('#toc a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    assert.deepEqual(links.map(([text]) => text).slice(0, 2), ['Your result', 'Explanation']);
    assert.ok(links.some(([text]) => text === 'See it break') && links.some(([text]) => text === 'References'));
    for (const [, href] of links) assert.equal(await page.locator(href).count(), 1, `${href} exists`);
    // Related exercises at the end (also in the contents): each one shares a topic with this one.
    assert.equal(links.at(-1)[0], 'Related exercises');
    const related = await page.$$eval('.related li', (items) => items.map((li) => ({ href: li.querySelector('a').getAttribute('href'), shared: [...li.querySelectorAll('.tag')].map((t) => t.textContent) })));
    assert.ok(related.length >= 1 && related.length <= 3, `${view.name}: ${related.length} related exercises`);
    for (const { href, shared } of related) {
      const other = index.find((e) => `./exercise.html?ex=${e.id}` === href);
      assert.ok(other && other.id !== ID, `${href} is another exercise`);
      assert.ok(shared.length > 0 && shared.every((t) => other.tags.includes(t) && index[at].tags.includes(t)), `${href}: shares ${shared}`);
    }
    // Jump to References: on a wide screen the contents are still in view there, and mark it.
    await page.click('#toc a:text-is("References")');
    await page.waitForFunction(() => document.querySelector('#toc a[aria-current="true"]')?.textContent === 'References');
    const toc = await page.$eval('#toc', (n) => n.getBoundingClientRect().toJSON());
    if (view.width >= 1280) assert.ok(toc.top >= 0 && toc.bottom <= 800, `${view.name}: the contents stay beside the page (${toc.top})`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), view.width, `${view.name}: no sideways scrolling`);
    assert.deepEqual(problems, []);
    // The checked state is in the URL: opened again, the page has the same contents.
    const again = await suite.openAt(new URL(page.url()).pathname.split('/').pop() + new URL(page.url()).search, view);
    await page.close();
    await again.page.waitForSelector('body[data-state="ready"]');
    await again.page.waitForSelector('#toc:not([hidden])', { timeout: 3000 }).catch(() => {}); // asserted next
    assert.equal(await again.page.isVisible('#toc'), true, `${view.name}: the contents when a checked exercise is opened again`);
    assert.deepEqual(await again.page.$$eval('#toc a', (as) => as.map((a) => a.textContent)), links.map(([text]) => text), `${view.name}: the same sections`);
    assert.deepEqual(again.problems, []);
    await again.page.close();
  }
});

test('the nav’s "Find the bug" opens the list; ?id= works; an unknown parameter is explained', async () => {
  const { page, problems } = await suite.open('index.html');
  if (await page.isVisible('.menu-button')) await page.click('.menu-button'); // below 1280 px the list is a Menu
  await page.click('.site-header a:text-is("Find the bug")');
  await page.waitForSelector('body[data-state="ready"]');
  assert.equal(new URL(page.url()).search, '');
  assert.equal(await page.isVisible('#exercise-list-view'), true, 'the list, not exercise 1');
  assert.equal(await page.locator('#exercise-list .exercise-card').count(), index.length);
  assert.equal(await page.getAttribute('.site-header a[aria-current="page"]', 'href'), './exercise.html');

  await page.goto(suite.url(`exercise.html?id=${ID}&foo=1`));
  await page.waitForSelector('body[data-state="ready"]');
  assert.equal(await page.textContent('#exercise-title'), index[at].title, 'id= is read as ex=');
  assert.match(await page.textContent('#url-note'), /URL parameter foo is not used on this page, so it was ignored\. This page reads: ex, /);
  assert.doesNotMatch(await page.textContent('#url-note'), /\bid\b/, 'id= itself is not "unknown"');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the result gets focus after Check: no ring after a mouse click, a ring after the keyboard', async () => {
  const { page } = await suite.open(`exercise.html?ex=${ID}`);
  await page.waitForSelector('body[data-state="ready"]');
  await page.click('#check');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'result', 'focus moved to the result');
  assert.equal(await page.$eval('#result', (n) => getComputedStyle(n).outlineStyle), 'none', 'no error-looking frame after a mouse Check');
  await page.click('#retry');
  await page.focus('#check');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'result');
  assert.equal(await page.$eval('#result', (n) => getComputedStyle(n).outlineStyle), 'solid', 'a keyboard user sees where focus went');
  const ring = await page.$eval('#result', (n) => getComputedStyle(n).outlineColor);
  const accent = await page.evaluate(() => {
    const probe = document.createElement('span');
    probe.style.setProperty('color', 'var(--accent)');
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  });
  assert.equal(ring, accent, 'in the calm accent colour, not the warning one');
  await page.close();
});

test('the solution marks a multi-word part once, and the learner’s missed part too', async () => {
  const { page } = await suite.open(`exercise.html?ex=${ID}&solution=1`);
  await page.waitForSelector('body[data-state="ready"]');
  // Three parts: one of one word (40), two of three words (47–49, 50–52): three boxes.
  assert.equal(await page.locator('.passage .unit-run[data-result="solution"]').count(), 2);
  const run = page.locator('.passage .unit-run[data-result="solution"]').first();
  assert.deepEqual(await run.locator('[role="option"]').evaluateAll((os) => os.map((o) => Number(o.dataset.index))), [47, 48, 49]);
  assert.equal(await run.locator('[role="option"]').evaluateAll((os) => os.filter((o) => getComputedStyle(o).outlineStyle !== 'none').length), 0, 'the words are not boxed one by one');
  assert.equal(await page.locator('.passage [data-glyph]').count(), 3, 'one badge per part');
  await page.click('#retry');
  assert.equal(await page.locator('.passage .unit-run').count(), 0, 'Retry takes the marks away');
  assert.equal(await page.locator('.passage [role="option"]').count(), 60, 'and every word is back in the passage');
  await page.close();
});

test('phones: wrapped code keeps its line numbers, every word has a 24 × 24 px hit area, the header is one line', async () => {
  for (const view of VIEWS) {
    const { page, problems } = await suite.openAt(`exercise.html?ex=${ID}`, view);
    await page.waitForSelector('body[data-state="ready"]');
    const phone = view.width < 700;
    assert.equal(await page.isChecked('.wrap-toggle input'), phone, `${view.name}: wrapping is on by default on a phone`);
    await page.setChecked('.wrap-toggle input', true);
    const frame = await page.$eval('.passage-frame', (f) => [f.scrollWidth, f.clientWidth]);
    assert.ok(frame[0] <= frame[1] + 1, `${view.name}: wrapped code needs no sideways scrolling`);
    // One number per line, beside its line: the 17 lines of the passage, numbered 1…17.
    const numbers = await page.$$eval('.passage.code .line', (lines) => lines.map((l) => getComputedStyle(l, '::before').content));
    assert.deepEqual(numbers.length, 17);
    // The "=" of line 15 (8 px wide) answers a tap anywhere in the 24 × 24 px around its centre.
    await page.locator('[role="option"][data-index="48"]').scrollIntoViewIfNeeded();
    const hits = await page.evaluate(() => {
      const eq = document.querySelector('[role="option"][data-index="48"]');
      const r = eq.getBoundingClientRect();
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      return [[-11, 0], [11, 0], [0, -11], [0, 11]].map(([dx, dy]) => document.elementFromPoint(cx + dx, cy + dy)?.closest('[role="option"]')?.dataset.index ?? null);
    });
    assert.deepEqual(hits, ['48', '48', '48', '48'], `${view.name}: "=" is hit 11 px around its centre`);
    const small = await page.$$eval('[role="option"]', (os) =>
      os.filter((o) => {
        const r = o.getBoundingClientRect();
        const b = getComputedStyle(o, '::before');
        return Math.max(r.width, parseFloat(b.width)) < 24 || Math.max(r.height, parseFloat(b.height)) < 24;
      }).length,
    );
    assert.equal(small, 0, `${view.name}: every word’s hit area is at least 24 × 24 px`);
    const header = await page.$eval('.site-header', (h) => h.getBoundingClientRect().height);
    if (phone) {
      assert.ok(header <= 64, `${view.name}: the header is one line (${header} px)`);
      assert.equal(await page.isVisible('.site-header nav ul'), false);
      await page.click('.menu-button');
      assert.equal(await page.getAttribute('.menu-button', 'aria-expanded'), 'true');
      assert.equal(await page.isVisible('.site-header nav a:text-is("Token grid")'), true);
      await page.keyboard.press('Escape');
      assert.equal(await page.isVisible('.site-header nav ul'), false);
    } else {
      assert.equal(await page.isVisible('.menu-button'), false);
      assert.ok(header <= 64, `${view.name}: every page's link on one line (${header} px)`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('phones: after Check, no exercise makes a 320 px page scroll sideways; wide formulas scroll in their own box', async () => {
  const { page, problems } = await suite.openAt(`exercise.html?ex=${index[0].id}`, { width: 320, colorScheme: 'light' });
  await page.waitForSelector('body[data-state="ready"]');
  for (const { id } of index) {
    const chat = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', `${id}.json`), 'utf8')).see_it_break?.kind === 'chat';
    await page.goto(suite.url(`exercise.html?ex=${id}&checked=1`));
    // A chat exercise's comparison lives on the Chat masks page (a link here); others draw grids.
    if (chat) await page.waitForSelector('#break-panel a[href^="./chat.html"]');
    else {
      await page.waitForSelector('#break-panel .claim-list');
      await page.waitForFunction(() => document.querySelector('.compare-grids .token-grid'));
    }
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 320, id);
    // A formula's width settles when KaTeX's stylesheet and fonts arrive; the page's observer
    // then makes each wide one a keyboard stop (within a frame of the change).
    const unreachable = () => [...document.querySelectorAll('.math-display')].filter((d) => d.scrollWidth > d.clientWidth + 1 && d.getAttribute('tabindex') !== '0').length;
    await page.waitForFunction(`(${unreachable})() === 0`, null, { timeout: 3000 }).catch(() => {}); // asserted next
    assert.equal(await page.evaluate(unreachable), 0, `${id}: every wide formula can be scrolled from the keyboard`);
    // Leave only once the page's lazy chunks have arrived (a chat exercise draws no grids, so
    // nothing above waited for them): going on earlier would abort their requests.
    await page.waitForLoadState('networkidle');
  }
  assert.deepEqual(problems, []);
  await page.close();
});
