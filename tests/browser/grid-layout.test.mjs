// The token grid keeps cause and effect on one screen (issue 12, point 2), at 1280, 375 and 320 px,
// light and dark: the collator options fold away (and sit beside the grid on wide screens), the
// grid starts on the first screen at 1280, and after a toggle anywhere in the grid the strip of
// figures is in view next to the toggled cell, showing before → after. The refit of the tiny
// model is made visible (↻ on the losses it moved elsewhere, and said in words), and "frozen"
// keeps every other loss where it was. The heatmap's colour scale (point 6) is checked here too:
// heavier weights are further from the background in both themes, and its numbers stay readable.
//
// Batch (the grid.test.mjs fixture): row 0 "<bos> Hi there <eos>" (ids 1 5 6 2), row 1
// "<bos> Hello <eos> <pad>". Label toggles, worked out by hand with the add-0.1 bigram over V = 8:
//   "Hi" (row 0, t = 1) off: bos→Hi is no longer scored, so bos has one pair (bos→Hello) and its
//   probability rises from 1.1/2.8 to 1.1/1.8: row 1's first loss (logit 0 → Hello) moves from
//   ln(2.8/1.1) to ln(1.8/1.1) although row 1 was not touched — a refit. Frozen: it stays.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { VIEWS, useSiteAndBrowser } from './helpers.mjs';

const suite = useSiteAndBrowser();
const QUERY = 'grid.html?e1=Hi+there&p1=&e2=Hello&p2=';
const ln = Math.log;
const TOLERANCE = 1e-12;

const lossAt = (page, b, t) => page.getAttribute(`.token-grid td[data-field="loss"][data-b="${b}"][data-t="${t}"]`, 'aria-label');

test('after a toggle the strip and the toggled cell are on screen together, with before → after', async () => {
  for (const view of VIEWS) {
    const { page, problems } = await suite.openAt(QUERY, view);
    await page.waitForSelector('body[data-state="ready"]');
    // The options are folded (a summary line says what they are).
    assert.equal(await page.getAttribute('.grid-form details.options', 'open'), null, `${view.name}: options folded`);
    assert.match(await page.textContent('.grid-form details.options .options-now'), /right padding · to the longest · mask from lengths · labels by position · causal/);
    if (view.width >= 1280) {
      const gridTop = await page.$eval('.token-grid', (t) => t.getBoundingClientRect().top);
      assert.ok(gridTop < 800, `${view.name}: the grid starts on the first screen (${gridTop})`);
      const [controls, grid] = await page.$$eval(['.controls-panel', '.grid-panel'].join(','), (els) => els.map((e) => e.getBoundingClientRect().left));
      assert.ok(grid > controls + 200, `${view.name}: options beside the grid`);
    }
    const cell = page.locator('.token-grid td[data-field="labels"][data-b="1"][data-t="3"]'); // the pad's label
    await cell.scrollIntoViewIfNeeded();
    await cell.click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('tl') === '1.3');
    const [figures, strip, target, vh] = await page.evaluate(() => {
      const box = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
      return [box('#strip .strip-figures'), box('#strip .strip-box'), box('.token-grid td[data-field="labels"][data-b="1"][data-t="3"]'), innerHeight];
    });
    assert.ok(figures.top >= -1 && strip.bottom <= vh, `${view.name}: the strip's figures are in view (${figures.top}–${strip.bottom})`);
    assert.ok(target.top >= strip.bottom - 1 && target.bottom <= vh, `${view.name}: and so is the toggled cell, below it`);
    // On a phone the model choice scrolls away above the figures, so the stuck strip leaves most
    // of the screen to the grid (the whole strip took 446 of 800 px at 320 after this toggle).
    const covered = strip.bottom - Math.max(0, strip.top);
    assert.ok(covered <= 0.4 * vh, `${view.name}: the strip covers ${covered} of ${vh} px`);
    if (view.width < 1280) assert.ok(strip.top < -40, `${view.name}: the model choice has scrolled away (${strip.top})`);
    // 5 targets before, 6 after (the pad's label is scored by the logit at t = 2).
    assert.equal((await page.textContent('#strip [data-strip="targets"] .strip-value')).replace(/\s+/g, ' ').trim(), '5 → 6');
    assert.match(await page.textContent('#strip [data-strip="loss"] .strip-value'), /^\d\.\d{4} → \d\.\d{4}$/);
    assert.match(await page.textContent('#strip [data-strip="loss"] .strip-change'), /higher|lower/);
    // The choice is still a keyboard stop away: focusing it brings it into view, Space picks it.
    await page.focus('#strip input[value="frozen"]');
    const choice = await page.$eval('#strip input[value="frozen"]', (n) => n.getBoundingClientRect().toJSON());
    assert.ok(choice.top >= 0 && choice.bottom <= vh, `${view.name}: the focused choice is in view (${choice.top})`);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('model') === 'frozen');
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('an attention_mask toggle says why the loss stays and leads to that row’s attention, where the key is now hidden', async () => {
  for (const view of VIEWS.filter((v) => v.colorScheme === 'light')) {
    const { page, problems } = await suite.openAt(QUERY, view);
    await page.waitForSelector('body[data-state="ready"]');
    const loss = await page.textContent('#strip [data-strip="loss"] .strip-value');
    const cell = page.locator('.token-grid td[data-field="attention_mask"][data-b="1"][data-t="1"]'); // "Hello"
    await cell.scrollIntoViewIfNeeded();
    await cell.click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('tm') === '1.1');
    // No label changed and the bigram reads no attention: the same loss, and the strip says why.
    assert.equal(await page.textContent('#strip [data-strip="loss"] .strip-value'), loss);
    assert.match(await page.textContent('#strip .strip-note'), /^The loss stays: attention_mask changes which keys a query may read, not what is scored/);
    const button = page.locator('#strip .show-attention');
    assert.equal(await button.textContent(), 'See row 2’s attention');
    assert.ok(await button.isVisible(), `${view.name}: the button is on screen with the strip`);
    await button.click();
    await page.waitForFunction(() => document.activeElement?.id === 'attention-title');
    const top = await page.$eval('#attention-title', (n) => n.getBoundingClientRect().top);
    assert.ok(top >= -1 && top < 200, `${view.name}: the attention panel is in view (${top})`);
    assert.equal(await page.inputValue('#attention-row'), '1', 'the heatmap shows the row just edited');
    // Row 1 is "<bos> Hello <eos> <pad>": with key 1 masked, every query has it hidden, and query 1
    // ("Hello") sees only <bos>, so all of its weight is on key 0.
    const column = await page.$$eval('#attention tbody tr', (trs) => trs.map((tr) => tr.querySelectorAll('td')[1].className));
    assert.ok(column.length === 4 && column.every((c) => c.includes('hidden-key')), `key 1 hidden for every query: ${column}`);
    assert.equal((await page.$eval('#attention tbody tr:nth-child(2) td', (td) => td.textContent)).trim(), '1');
    assert.deepEqual(problems, []);
    await page.close();
  }
  // An embed that hides the heatmap: the note, but no button to a panel that is not there.
  const { page, problems } = await suite.open(`${QUERY}&embed=1&hide=attention`);
  await page.waitForSelector('body[data-state="ready"]');
  await page.click('.token-grid td[data-field="attention_mask"][data-b="1"][data-t="1"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('tm') === '1.1');
  assert.match(await page.textContent('#strip .strip-note'), /^The loss stays: attention_mask changes/);
  assert.equal(await page.locator('#strip .show-attention').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('refit: a toggle moves another row’s loss, marked ↻ and said; frozen: it stays', async () => {
  const { page, problems } = await suite.open(QUERY);
  await page.waitForSelector('body[data-state="ready"]');
  assert.match(await lossAt(page, 1, 0), new RegExp(`^${ln(2.8 / 1.1).toFixed(3)}`));
  await page.click('.token-grid td[data-field="labels"][data-b="0"][data-t="1"]'); // "Hi" off
  await page.waitForFunction(() => new URLSearchParams(location.search).get('tl') === '0.1');
  // By hand: row 1's first loss is now ln(1.8/1.1), moved by the refit, and marked.
  assert.match(await lossAt(page, 1, 0), new RegExp(`^${ln(1.8 / 1.1).toFixed(3)} .*moved by your last edit because the model was refitted`));
  assert.equal(await page.locator('.token-grid td.moved').count(), 1);
  assert.match(await page.textContent('#strip .strip-note'), /Refitted on your edit.*1 other loss moved/);

  // Freeze the model (the strip's choice; kept in the URL): the edit now changes only what it touches.
  await page.check('#strip input[value="frozen"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('model') === 'frozen');
  assert.match(await lossAt(page, 1, 0), new RegExp(`^${ln(2.8 / 1.1).toFixed(3)}`), 'frozen: fitted before the edit');
  assert.equal(await page.locator('.token-grid td.moved').count(), 0);
  assert.match(await page.textContent('#strip .strip-note'), /frozen/);
  // Frozen, with "Hi" off: targets bos→Hello (ln 2.8/1.1), there→eos, Hello→eos (ln 1.8/1.1 each);
  // the model still has P(Hi | bos) = 1.1/2.8 but nothing scores it.
  const frozenLoss = Number(await page.getAttribute('[data-figure="loss"] dd[data-value]', 'data-value'));
  assert.ok(Math.abs(frozenLoss - (ln(2.8 / 1.1) + 2 * ln(1.8 / 1.1) + ln(1.8 / 1.1)) / 4) < TOLERANCE, `frozen loss ${frozenLoss}`);
  assert.deepEqual(problems, []);
  await page.close();
});

// Relative luminance (WCAG) of a computed colour: "rgb(r, g, b)", or "oklab(L a b)" as
// color-mix(in oklab, …) computes (converted with the OKLab matrices, Björn Ottosson 2020).
function luminanceOf(css) {
  const nums = css.match(/-?[\d.]+(e-?\d+)?/g).map(Number);
  let lin;
  if (css.startsWith('oklab(')) {
    const [L, A, B] = nums;
    const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
    const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
    const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
    lin = [4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s, -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s, -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s];
    lin = lin.map((c) => Math.min(1, Math.max(0, c)));
  } else {
    lin = nums.slice(0, 3).map((v) => v / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  }
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}
const contrast = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

test('heatmap: heavier weights are further from the background in light and dark, and every number stays readable', async () => {
  for (const view of VIEWS.filter((v) => v.width === 1280)) {
    const { page } = await suite.openAt('grid.html?row=1', view);
    await page.waitForSelector('body[data-state="ready"]');
    await page.locator('#attention').scrollIntoViewIfNeeded();
    await page.waitForSelector('.heat-scale span');
    // The legend's five steps (weights 0, .25, .5, .75, 1) are drawn exactly like the cells.
    const steps = await page.$$eval('.heat-scale span', (spans) => spans.map((s) => [getComputedStyle(s).backgroundColor, getComputedStyle(s).color]));
    const page_ = await page.evaluate(() => getComputedStyle(document.querySelector('.grid-scroll')).backgroundColor);
    const bg = luminanceOf(page_);
    const distance = steps.map(([fill]) => contrast(luminanceOf(fill), bg));
    for (let i = 1; i < distance.length; i += 1) assert.ok(distance[i] > distance[i - 1], `${view.name}: step ${i} further from the background (${distance})`);
    for (const [fill, ink] of steps) assert.ok(contrast(luminanceOf(fill), luminanceOf(ink)) >= 4.5, `${view.name}: text on ${fill}`);
    // The cells use the same scale: a cell's colour follows its printed weight.
    const cells = await page.$$eval('.attention-map td:not(.hidden-key)', (tds) => tds.map((td) => [Number(td.style.getPropertyValue('--w')), getComputedStyle(td).backgroundColor]));
    const sorted = [...cells].sort((x, y) => x[0] - y[0]);
    const far = sorted.map(([, fill]) => contrast(luminanceOf(fill), bg));
    for (let i = 1; i < far.length; i += 1) assert.ok(far[i] >= far[i - 1] - 1e-9, `${view.name}: monotonic in the weight`);
    assert.doesNotMatch(await page.textContent('.attention-legend'), /darker/i, 'the legend does not say "darker" (it is lighter in dark mode)');
    await page.close();
  }
});
