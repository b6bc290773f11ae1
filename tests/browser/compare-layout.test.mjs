// "See it break" as one view (issue 12, point 1), on the exercise page and the dilution page, at
// 1280, 375 and 320 px, light and dark: the two panes line up column for column and row for row,
// scrolling one scrolls the other, runs of identical positions are folded behind a button that
// unfolds them in both panes, the view opens with the first difference in sight, and the panes
// sit side by side where there is room and stack on phones. Also the comparison table's words
// (point 8): what each figure means, which way the buggy batch differs, claims without paths.
//
// completion-only-text-search: T = 25, the two batches differ at t = 5…17 only (compareColumns
// against the core below), so t = 0…3 and 19…24 fold (one position of context each side).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { VIEWS, useSiteAndBrowser } from './helpers.mjs';
import { loadWasmCore } from '../node/helpers.mjs';
import { compareColumns } from '../../web/grid/compare-columns.js';
import { baseRequest, dilutionRequest } from '../../web/dilution/dilution-batch.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './helpers.mjs';

const suite = useSiteAndBrowser();
const EXERCISE = 'completion-only-text-search';
const exercise = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', `${EXERCISE}.json`), 'utf8'));

// Geometry of the two panes, read in the page: per pane, each shown position header's offset
// from the table's left edge and width, each body row's height, the pane's box, its scroller.
function geometry() {
  const panes = [...document.querySelectorAll('.compare-grids .compare-pane')];
  return panes.map((pane) => {
    const table = pane.querySelector('.token-grid');
    const scroller = pane.querySelector('.grid-scroll');
    const left = table.getBoundingClientRect().left;
    const heads = [...table.tHead.rows[0].cells]
      .filter((th) => !th.hidden)
      .map((th) => ({ label: th.getAttribute('aria-label') ?? th.className, x: Math.round((th.getBoundingClientRect().left - left) * 2) / 2, w: Math.round(th.getBoundingClientRect().width * 2) / 2 }));
    const rows = [...table.tBodies[0].rows].map((tr) => Math.round(tr.getBoundingClientRect().height * 2) / 2);
    const box = pane.getBoundingClientRect();
    const heading = pane.querySelector('h3, h2, h4').getBoundingClientRect();
    return { heads, rows, box: { top: box.top, left: box.left, bottom: box.bottom }, gridTop: table.getBoundingClientRect().top, headingTop: heading.top, scrollLeft: scroller.scrollLeft, clientWidth: scroller.clientWidth, folds: table.querySelectorAll('th.fold-marker').length };
  });
}

// Is position t's header visible inside its pane's scroller (not under the sticky row names)?
function visibleInPane(t) {
  return [...document.querySelectorAll('.compare-grids .compare-pane')].map((pane) => {
    const scroller = pane.querySelector('.grid-scroll');
    const th = pane.querySelector(`thead th[aria-label="position ${t}"]`);
    if (!th || th.hidden) return false;
    const s = scroller.getBoundingClientRect();
    const corner = pane.querySelector('thead th.corner').getBoundingClientRect();
    const r = th.getBoundingClientRect();
    return r.left >= corner.right - 1 && r.right <= s.right + 1;
  });
}

async function checkPanes(page, view, { first }) {
  const [a, b] = await page.evaluate(geometry);
  assert.deepEqual(a.heads, b.heads, `${view.name}: every column at the same offset and width in both panes`);
  assert.deepEqual(a.rows, b.rows, `${view.name}: every row the same height in both panes`);
  if (view.width >= 1280) {
    assert.ok(Math.abs(a.gridTop - b.gridTop) < 1, `${view.name}: side by side, grids start level (${a.gridTop} vs ${b.gridTop})`);
    assert.ok(b.box.left > a.box.left + 100);
  } else {
    assert.ok(b.box.top >= a.box.bottom - 1, `${view.name}: stacked on a phone`);
  }
  assert.deepEqual(await page.evaluate(visibleInPane, first), [true, true], `${view.name}: opens with the first difference (t=${first}) in sight`);
  // One scroll position for both.
  await page.evaluate(() => {
    const scroller = document.querySelector('.compare-grids .compare-pane .grid-scroll');
    scroller.scrollLeft = 0;
    scroller.scrollLeft = 40;
  });
  await page.waitForFunction(() => {
    const [s1, s2] = document.querySelectorAll('.compare-grids .grid-scroll');
    return s2.scrollLeft === s1.scrollLeft;
  });
  return { a, b };
}

test('exercise: the two panes line up, scroll together, fold identical positions and open at the first difference', async () => {
  const core = await loadWasmCore();
  const cols = compareColumns(core.inspect(exercise.see_it_break.buggy), core.inspect(exercise.see_it_break.fixed));
  assert.deepEqual([cols.first, cols.differing.at(-1), cols.runs], [5, 17, [{ start: 0, end: 3 }, { start: 19, end: 24 }]], 'the fixture differs at t=5…17');
  for (const view of VIEWS) {
    const { page, problems } = await suite.openAt(`exercise.html?ex=${EXERCISE}&checked=1`, view);
    await page.waitForSelector('.compare-grids .compare-pane:nth-child(2) .token-grid td');
    const { a } = await checkPanes(page, view, { first: cols.first });
    assert.equal(a.folds, 2, `${view.name}: two folded runs`);
    assert.match(await page.textContent('.compare-note'), /differ at t=5–17\. 10 identical positions are folded/);
    // The first run's button unfolds it in both panes; "Show all" unfolds the rest.
    await page.locator('.compare-pane').first().locator('th.fold-marker button').first().click();
    await page.waitForFunction(() => [...document.querySelectorAll('.compare-grids .token-grid')].every((t) => t.querySelectorAll('th.fold-marker').length === 1));
    assert.deepEqual(await page.$$eval('.compare-grids .token-grid', (ts) => ts.map((t) => t.querySelector('thead th[aria-label="position 0"]').hidden)), [false, false]);
    await page.click('.fold-toggle');
    await page.waitForFunction(() => document.querySelectorAll('.compare-grids th.fold-marker').length === 0);
    const [ua, ub] = await page.evaluate(geometry);
    assert.equal(ua.heads.length, 1 + 25);
    assert.deepEqual(ua.heads, ub.heads, `${view.name}: unfolded, still aligned`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('keyboard: arrows in a folded grid skip the folded positions', async () => {
  const { page } = await suite.open(`exercise.html?ex=${EXERCISE}&checked=1`);
  await page.waitForSelector('.compare-grids .compare-pane:nth-child(2) .token-grid td');
  const cell = page.locator('.compare-pane').first().locator('td[data-r="0"][data-t="18"]');
  await cell.focus();
  await page.keyboard.press('ArrowRight'); // 19…24 are folded: stays on the last shown position
  assert.equal(await page.evaluate(() => document.activeElement.dataset.t), '18');
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.t), '4', 'Home goes to the first shown position');
  await page.close();
});

test('dilution: the same view for the batches behind the numbers', async () => {
  const core = await loadWasmCore();
  const longest = core.inspect(baseRequest()).batch.shape[1];
  const cols = compareColumns(core.inspect(dilutionRequest('buggy', longest, 8)), core.inspect(dilutionRequest('fixed', longest, 8)));
  for (const view of VIEWS) {
    const { page, problems } = await suite.openAt('dilution.html?pads=8', view);
    await page.waitForSelector('body[data-state="ready"]');
    await page.locator('#batch-grid').scrollIntoViewIfNeeded();
    await page.waitForSelector('.compare-grids .compare-pane:nth-child(2) .token-grid td');
    await checkPanes(page, view, { first: cols.first });
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('the comparison table says what each figure means and which way the buggy batch differs; claims are in words', async () => {
  const { page, problems } = await suite.open(`exercise.html?ex=pad-to-max-all-ones&checked=1`);
  await page.waitForSelector('.compare-table');
  const row = page.locator('.compare-table tr[data-figure="loss_all_positions"]');
  assert.match(await row.locator('th').textContent(), /loss if every position were scored.*every next token as a target, pads included/);
  // By the core: the buggy model, fitted on pads, scores all positions lower than the fixed one.
  assert.equal(await row.getAttribute('data-direction'), 'lower');
  assert.match(await row.locator('td.direction').textContent(), /▼ lower when buggy/);
  assert.match(await page.textContent('.compare-table tr[data-figure="pad_share"] td.direction'), /= same/);
  const details = await page.$$eval('.claim-details', (els) => els.map((e) => e.textContent));
  assert.ok(details.length > 0);
  for (const line of details) assert.doesNotMatch(line, /summary\.|batch\.rows|real_output_change/, `no internal names: ${line}`);
  assert.ok(details.some((line) => /As written: reported loss \d\.\d{4} < loss on real-token targets \d\.\d{4} ✓/.test(line)));
  assert.deepEqual(problems, []);
  await page.close();
});
