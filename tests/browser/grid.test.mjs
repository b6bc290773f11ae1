// The token grid page (grid.html) in headless Chromium: toggling a labels cell with the keyboard
// and with the mouse recomputes the loss to exactly what the core answers for the same request
// (and to a value worked out by hand), the grid is a real ARIA grid, state survives a reload,
// bad URL parameters and core errors are shown, 320 px works, and axe finds nothing.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { withAxeScanner } from './axe-scan.mjs';
import { useSiteAndBrowser } from './helpers.mjs';
import { loadWasmCore } from '../node/helpers.mjs';
import { inspectRequest, GRID_STATE } from '../../web/grid/grid-state.js';

// Two short examples so every loss can be worked out by hand:
//   row 0: <bos> Hi there <eos>        (ids 1 5 6 2)
//   row 1: <bos> Hello <eos> <pad>     (ids 1 7 2 0), right padding, pad id 0
const QUERY = 'grid.html?e1=Hi+there&p1=&e2=Hello&p2=';

let page;
let problems;
let core;

const suite = useSiteAndBrowser({
  async setUp() {
    ({ page, problems } = await suite.openSettled(QUERY));
    core = await loadWasmCore();
  },
});

// The core's loss for the page's state with `tl` (label toggles) — the same request the page sends.
function coreLoss(search) {
  const { state } = GRID_STATE.read(search);
  return core.inspect(inspectRequest(state)).summary.loss;
}

const ready = (p) => p.waitForSelector('body[data-state="ready"]');

async function shownLoss() {
  return Number(await page.getAttribute('[data-figure="loss"] dd[data-value]', 'data-value'));
}

async function activeCell() {
  return page.evaluate(() => {
    const el = document.activeElement;
    return { tag: el.tagName, r: el.dataset.r, t: el.dataset.t, label: el.getAttribute('aria-label') };
  });
}

// The tiny bigram model is fitted on exactly the pairs the labels score, with add-0.1
// smoothing over V = 8 ids (5 specials + Hi, there, Hello): P(y | a) = (count(a→y) + 0.1) /
// (count(a) + 0.8). Logit t scores labels[t + 1].
const ln = Math.log;
// Default labels (pads −100): pairs bos→Hi, Hi→there, there→eos, bos→Hello, Hello→eos.
// bos has 2 pairs, so P = 1.1/2.8 twice; Hi, there, Hello have 1 each, so P = 1.1/1.8 three times.
const LOSS_DEFAULT = (2 * ln(2.8 / 1.1) + 3 * ln(1.8 / 1.1)) / 5;
// Pad label of row 1 switched on (label 0 at t=3): one more pair eos→pad, eos seen once: 1.1/1.8.
const LOSS_PAD_ON = (2 * ln(2.8 / 1.1) + 4 * ln(1.8 / 1.1)) / 6;
// Label "Hi" (row 0, t=1) switched off: bos→Hi is no longer scored, so bos has one pair and all
// four remaining pairs have P = 1.1/1.8.
const LOSS_HI_OFF = ln(1.8 / 1.1);
const TOLERANCE = 1e-12; // float64 on both sides

test('the page loads and shows the hand-computed loss for the default labels', async () => {
  assert.equal(await page.getAttribute('body', 'data-state'), 'ready');
  const loss = await shownLoss();
  assert.equal(loss, coreLoss('?e1=Hi+there&p1=&e2=Hello&p2='));
  assert.ok(Math.abs(loss - LOSS_DEFAULT) < TOLERANCE, `${loss} vs ${LOSS_DEFAULT}`);
  assert.equal(await page.textContent('[data-figure="targets"] dd[data-value]'), '5');
});

test('the grid is an ARIA grid with headers, one tab stop and spoken cell labels', async () => {
  assert.equal(await page.getAttribute('.token-grid', 'role'), 'grid');
  assert.equal(await page.locator('.token-grid [role="columnheader"]').count(), 1 + 4, 'corner + t=0..3');
  assert.equal(await page.locator('.token-grid [role="rowheader"]').count(), 2 * 6, '6 field rows per example');
  assert.equal(await page.locator('.token-grid td[tabindex="0"]').count(), 1, 'roving tabindex: one tab stop');
  // Row 2 (b = 1), position 3 is the pad: its labels cell names everything, reason included.
  const label = await page.getAttribute('.token-grid td[data-r="9"][data-t="3"]', 'aria-label');
  assert.match(label, /^−100 pad; labels: row 2, position 3, token <pad>, id 0, mask 0, label −100 because padding/);
  assert.match(label, /Enter toggles it\.$/);
  // The ignored label is written as −100 with its reason in words, not only a colour.
  assert.equal((await page.innerText('.token-grid td[data-r="9"][data-t="3"]')).replace(/\s+/g, ' ').trim(), '−100 ░ pad');
});

test('keyboard: Tab into the grid, arrows to a labels cell, Enter toggles it and the loss is recomputed', async () => {
  // The last stop before the grid is the strip's model choice (a radio group: one tab stop).
  await page.focus('#strip input[type="radio"]:checked');
  await page.keyboard.press('Tab');
  assert.deepEqual(await activeCell().then(({ tag, r, t }) => ({ tag, r, t })), { tag: 'TD', r: '0', t: '0' });
  // Row 2's labels row is grid row 1 * 6 + 3 = 9; End goes to the last position (t = 3).
  for (let i = 0; i < 9; i += 1) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  assert.deepEqual(await activeCell().then(({ r, t }) => ({ r, t })), { r: '9', t: '3' });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('tl') === '1.3');

  const loss = await shownLoss();
  assert.equal(loss, coreLoss('?e1=Hi+there&p1=&e2=Hello&p2=&tl=1.3'), 'the page shows the core’s answer');
  assert.ok(Math.abs(loss - LOSS_PAD_ON) < TOLERANCE, `${loss} vs ${LOSS_PAD_ON}`);
  const cell = await activeCell();
  assert.deepEqual({ r: cell.r, t: cell.t }, { r: '9', t: '3' }, 'focus stays on the toggled cell');
  assert.match(cell.label, /label 0, a pad position that is trained/);
  assert.match(cell.label, /changed by you/);
  assert.match(await page.textContent('[role="status"][aria-live]:not(#status)'), /labels at row 2, position 3 is now 0\./);
});

test('mouse: clicking labels cells toggles them; the loss follows the core and the hand values', async () => {
  await page.click('.token-grid td[data-r="9"][data-t="3"]'); // back to −100
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('tl'));
  assert.ok(Math.abs((await shownLoss()) - LOSS_DEFAULT) < TOLERANCE);

  await page.click('.token-grid td[data-r="3"][data-t="1"]'); // row 1, "Hi": trained -> −100
  await page.waitForFunction(() => new URLSearchParams(location.search).get('tl') === '0.1');
  const loss = await shownLoss();
  assert.equal(loss, coreLoss('?e1=Hi+there&p1=&e2=Hello&p2=&tl=0.1'));
  assert.ok(Math.abs(loss - LOSS_HI_OFF) < TOLERANCE, `${loss} vs ${LOSS_HI_OFF}`);
  assert.match(await page.textContent('.token-grid td[data-r="3"][data-t="1"]'), /−100.*by you/);
});

test('attention_mask cells toggle too, and the mask change reaches the core', async () => {
  await page.click('.token-grid td[data-r="8"][data-t="3"]'); // row 2's pad: mask 0 -> 1
  await page.waitForFunction(() => new URLSearchParams(location.search).get('tm') === '1.3');
  assert.equal((await page.textContent('.token-grid td[data-r="8"][data-t="3"] .val')).trim(), '1');
  await page.click('.token-grid td[data-r="8"][data-t="3"]');
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('tm'));
});

test('a cell focused from script keeps focus after Enter toggles it (the tab stop follows focus)', async () => {
  // Regression: the roving tab stop used to ignore el.focus(), so the redraw sent focus to row 0.
  await page.evaluate(() => document.querySelector('.token-grid td[data-r="3"][data-t="1"]').focus());
  await page.keyboard.press('Enter'); // "Hi" back from −100 to trained
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('tl'));
  assert.ok(Math.abs((await shownLoss()) - LOSS_DEFAULT) < TOLERANCE);
  const cell = await activeCell();
  assert.deepEqual({ r: cell.r, t: cell.t }, { r: '3', t: '1' });
  assert.equal(await page.getAttribute('.token-grid td[data-r="3"][data-t="1"]', 'tabindex'), '0');
  await page.keyboard.press('Enter'); // and off again, as the next test expects
  await page.waitForFunction(() => new URLSearchParams(location.search).get('tl') === '0.1');
});

// The collator options sit in a collapsed <details> (the grid must start on the first screen).
const openOptions = async () => {
  if (!(await page.getAttribute('.grid-form details.options', 'open') !== null)) await page.click('.grid-form details.options > summary');
};

test('state lives in the URL: options and cell edits survive a reload', async () => {
  await openOptions();
  await page.selectOption('select[name="mask"]', 'all_ones');
  await page.check('input[name="padeos"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('mask') === 'all_ones');
  const before = await shownLoss();
  await page.reload();
  await page.waitForSelector('body[data-state="ready"]');
  assert.equal(await page.inputValue('select[name="mask"]'), 'all_ones');
  assert.equal(await page.isChecked('input[name="padeos"]'), true);
  assert.equal(await page.inputValue('input[name="e1"]'), 'Hi there');
  assert.equal(await shownLoss(), before);
  assert.match(await page.textContent('.token-grid td[data-r="3"][data-t="1"]'), /by you/, 'the cell edit is back');
  // pad == eos: the pad shows as id 2, and the all-ones mask gives it 1.
  assert.equal((await page.textContent('.token-grid td[data-r="7"][data-t="3"]')).trim(), '2');
  assert.equal((await page.textContent('.token-grid td[data-r="8"][data-t="3"] .val')).trim(), '1');
});

test('a core error is shown next to the controls, and the last good grid stays marked as stale', async () => {
  await page.click('button[data-action="reset"]');
  await openOptions();
  await page.selectOption('select[name="padding"]', 'max_length');
  await page.fill('input[name="max"]', '3');
  const error = page.locator('.control-error');
  await error.waitFor({ state: 'visible' });
  const text = await error.textContent();
  assert.match(text, /Example 1 \(features\[0\]\.input_ids\)/);
  assert.match(text, /more than max_length 3/);
  assert.equal(await page.isVisible('#stale-note'), true);
  assert.equal(await page.getAttribute('input[name="e1"]', 'aria-invalid'), 'true');
  await page.check('input[name="trunc"]'); // truncation makes the batch valid again
  await error.waitFor({ state: 'hidden' });
  assert.equal(await page.isVisible('#stale-note'), false);
});

test('a bad URL parameter is explained, and the page still works', async () => {
  const { page: bad, problems: badProblems } = await suite.open('grid.html?side=up&tl=x');
  await bad.waitForSelector('body[data-state="ready"]');
  const note = await bad.textContent('#url-note');
  assert.match(note, /side=up is not one of right, left/);
  assert.match(note, /tl=x has a bad item/);
  assert.deepEqual(badProblems, []);
  await bad.close();
});

test('at 320 px the page does not scroll sideways; the grid scrolls inside its own box', async () => {
  assert.equal(await suite.scrollWidthAt(QUERY, 320), 320);
});

test('axe-core finds no accessibility violations, in light and dark', async () => {
  await withAxeScanner(async (scanner) => {
    // The default page, a left-padded batch whose heatmap shows fully masked queries and a cell
    // edit, and a batch the core refuses (error box, no grid).
    for (const query of ['grid.html', 'grid.html?side=left&pos=from_mask&row=1&tl=1.2', 'grid.html?padding=max_length&max=3'])
      for (const colorScheme of ['light', 'dark']) {
        const violations = await scanner.scan(suite.url(query), { colorScheme, prepare: ready });
        assert.deepEqual(violations, [], `${query} (${colorScheme})`);
      }
  });
});

test('no console errors, page errors, failed requests or CSP violations', () => {
  assert.deepEqual(problems, []);
});
