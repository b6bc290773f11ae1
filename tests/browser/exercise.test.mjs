// The find-the-bug page (exercise.html) in headless Chromium: the passage renders before the wasm
// core, marking works with the mouse and with the keyboard alone, Check scores found − wrong
// (floored at 0), Retry and Show solution behave as in H5P, follow-up answers open, the state
// survives a reload through the URL, the live numbers and claims come from the core, nothing is
// logged as an error, and axe finds no violation.
//
// Unit indices of pad-to-max-all-ones, counted by hand in content/exercises/pad-to-max-all-ones.yaml
// (words split at whitespace, from 0): "import" = 0, 'padding="max_length",' = 40 (error 0),
// "attention_mask" = 47 (error 1, with "=" 48 and "torch.ones_like(input_ids)" 49), "labels" = 50
// (error 2, with 51, 52), "tokenizer.eos_token" on line 6 = 10 (a near miss), 60 units in all.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { withAxeScanner } from './axe-scan.mjs';
import { REPO_ROOT, useSiteAndBrowser } from './helpers.mjs';

const ID = 'pad-to-max-all-ones';
const UNIT = { import: 0, nearMiss: 10, padding: 40, mask: 47, labels: 50, count: 60 };
const exercise = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', `${ID}.json`), 'utf8'));

const suite = useSiteAndBrowser();

async function openExercise(query = `ex=${ID}`) {
  const { page } = await suite.open(`exercise.html?${query}`);
  await page.waitForSelector('body[data-state]');
  return page;
}

const option = (page, i) => page.locator('[role="option"]').nth(i);
const selected = (page) =>
  page.$$eval('[role="option"][aria-selected="true"]', (nodes) => nodes.map((n) => Number(n.dataset.index)));
const search = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));

test('the hand-counted unit indices match the compiled exercise', () => {
  const text = (i) => exercise.passage.units[i].text;
  assert.equal(exercise.passage.units.length, UNIT.count);
  assert.equal(text(UNIT.import), 'import');
  assert.equal(text(UNIT.padding), 'padding="max_length",');
  assert.equal(text(UNIT.mask), 'attention_mask');
  assert.equal(text(UNIT.labels), 'labels');
  assert.equal(text(UNIT.nearMiss), 'tokenizer.eos_token');
});

test('the passage renders while the wasm core is still downloading', async () => {
  const page = await suite.browser.context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  let wasmRequested = false;
  await page.route('**/*.wasm', async (route) => {
    wasmRequested = true;
    await held; // the core cannot finish loading until the assertions below have run
    await route.continue();
  });
  await page.goto(suite.url(`exercise.html?ex=${ID}&checked=1`));
  await page.waitForSelector('[role="listbox"] [role="option"]');
  assert.equal(await page.locator('[role="option"]').count(), UNIT.count);
  assert.equal(await page.locator('#break-panel .break-body[aria-busy="true"]').count(), 1, 'See it break is still loading');
  assert.ok(await page.locator('#break-panel .loading').isVisible());
  assert.ok(wasmRequested, 'the core was requested in parallel');
  release();
  await page.waitForSelector('#break-panel .claim-list');
  assert.deepEqual(problems, []);
  await page.close();
});

test('mouse: mark two bugs and one wrong word, Check: score = 2 − 1 = 1 of 3', async () => {
  const page = await openExercise();
  for (const i of [UNIT.padding, UNIT.mask, UNIT.import]) await option(page, i).click();
  assert.deepEqual((await selected(page)).sort((a, b) => a - b), [UNIT.import, UNIT.padding, UNIT.mask]);
  await option(page, UNIT.import).click(); // a second click unmarks
  await option(page, UNIT.import).click();
  await page.click('#check');

  // By hand: errors 0 and 1 found (2), "import" is not in any error (1 wrong) -> max(2 − 1, 0) = 1.
  assert.equal(await page.textContent('#score'), 'Score: 1 / 3');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'result', 'focus moves to the result');
  await page.waitForFunction(() => document.querySelector('[role="status"][aria-live]')?.textContent.includes('Score 1 out of 3'));
  // Each unit is described in words, not colour: correct / wrong / missed.
  const describedBy = async (i) => page.locator(`#${await option(page, i).getAttribute('aria-describedby')}`).textContent();
  assert.match(await describedBy(UNIT.padding), /correct/);
  assert.match(await describedBy(UNIT.import), /wrong/);
  assert.match(await describedBy(UNIT.labels), /missed/);
  assert.equal(await option(page, UNIT.labels).getAttribute('data-result'), 'missed');
  assert.equal(await page.locator('.bug.missed').count(), 1, 'the missed bug is listed with its reason');
  assert.ok(await page.locator('#explanation-panel').isVisible(), 'the explanation opens after Check');

  const state = await search(page);
  assert.equal(state.checked, '1');
  assert.equal(state.marked, `${UNIT.import},${UNIT.padding},${UNIT.mask}`);

  // Reload: the same marks and results come back from the URL.
  await page.reload();
  await page.waitForSelector('body[data-state="ready"]');
  assert.equal(await page.textContent('#score'), 'Score: 1 / 3');
  assert.deepEqual((await selected(page)).sort((a, b) => a - b), [UNIT.import, UNIT.padding, UNIT.mask]);
  assert.equal(await option(page, UNIT.import).getAttribute('data-result'), 'wrong');

  // Retry clears everything.
  await page.click('#retry');
  assert.deepEqual(await selected(page), []);
  assert.equal(await page.locator('[role="option"][data-result]').count(), 0);
  assert.ok(await page.locator('#check').isVisible());
  assert.deepEqual(await search(page), { ex: ID });
  await page.close();
});

test('more wrong marks than finds: the score is floored at 0', async () => {
  const page = await openExercise();
  for (const i of [UNIT.padding, UNIT.import, UNIT.nearMiss]) await option(page, i).click();
  await page.click('#check');
  // By hand: 1 found − 2 wrong = −1 -> 0.
  assert.equal(await page.textContent('#score'), 'Score: 0 / 3');
  assert.match(await page.textContent('.near-misses'), /not a bug/, 'the near miss explains itself');
  await page.close();
});

test('keyboard alone: Tab into the passage, arrows, Home/End, Space/Enter, Tab to Check', async () => {
  const page = await openExercise();
  // Tab until an option has focus (skip link, header links, then the passage's one tab stop).
  for (let i = 0; i < 30; i += 1) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => document.activeElement?.getAttribute('role'))) === 'option') break;
  }
  const active = () => page.evaluate(() => Number(document.activeElement.dataset.index));
  assert.equal(await active(), 0, 'the first word is the tab stop');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await active(), 0, 'no wrap at the start');
  await page.keyboard.press('End');
  assert.equal(await active(), UNIT.count - 1);
  await page.keyboard.press('ArrowRight');
  assert.equal(await active(), UNIT.count - 1, 'no wrap at the end');
  await page.keyboard.press('Home');
  assert.equal(await active(), 0);

  const moveTo = async (target) => {
    while ((await active()) < target) await page.keyboard.press('ArrowDown');
  };
  await moveTo(UNIT.padding);
  await page.keyboard.press('Space');
  await moveTo(UNIT.mask);
  await page.keyboard.press('Enter');
  await moveTo(UNIT.labels);
  await page.keyboard.press('Space');
  assert.deepEqual(await selected(page), [UNIT.padding, UNIT.mask, UNIT.labels]);
  assert.equal(
    await page.$$eval('[role="option"][tabindex="0"]', (n) => n.length),
    1,
    'roving tabindex: one option in the tab order',
  );

  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'check');
  await page.keyboard.press('Enter');
  // By hand: all three errors found, nothing wrong -> 3 / 3.
  assert.equal(await page.textContent('#score'), 'Score: 3 / 3');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'result');
  await page.close();
});

test('Show solution marks every part of every bug and switches marking off', async () => {
  const page = await openExercise();
  await page.click('#show-solution');
  const expected = exercise.errors.flatMap((e) => e.units).sort((a, b) => a - b); // 40, 47–49, 50–52
  assert.deepEqual(expected, [40, 47, 48, 49, 50, 51, 52]);
  assert.deepEqual(await selected(page), expected);
  assert.equal(await page.locator('[role="option"][data-result="solution"]').count(), expected.length);
  assert.equal(await page.getAttribute('[role="listbox"]', 'aria-readonly'), 'true');
  await option(page, UNIT.import).click();
  assert.equal(await option(page, UNIT.import).getAttribute('aria-selected'), 'false', 'selection is off');
  assert.equal((await search(page)).solution, '1');
  assert.ok(await page.locator('#retry').isVisible());
  assert.ok(!(await page.locator('#show-solution').isVisible()));
  await page.close();
});

test('follow-ups: type an answer, reveal the model answer; it stays open after a reload', async () => {
  const page = await openExercise(`ex=${ID}&checked=1`);
  const button = page.locator('.follow-up button').first();
  const answer = page.locator('#followup-0-answer');
  assert.ok(!(await answer.isVisible()));
  await page.fill('#followup-0-draft', 'Because 0 is a real token id.');
  await button.click();
  assert.ok(await answer.isVisible());
  assert.equal(await button.getAttribute('aria-expanded'), 'true');
  assert.match(await answer.textContent(), /ignore_index/);
  assert.equal((await search(page)).revealed, '0');
  await page.reload();
  await page.waitForSelector('body[data-state="ready"]');
  assert.ok(await page.locator('#followup-0-answer').isVisible());
  assert.equal(await page.inputValue('#followup-0-draft'), 'Because 0 is a real token id.', 'the draft is kept for the visit');
  await page.close();
});

test('See it break: the claims hold and every live number is filled from the core', async () => {
  const page = await openExercise(`ex=${ID}&checked=1`);
  await page.waitForSelector('#break-panel .claim-list');
  assert.equal(await page.locator('.claim.ok').count(), exercise.claims.length);
  assert.equal(await page.locator('.claim.failed').count(), 0);
  assert.equal(await page.locator('.compare-table').count(), 1, 'the grid comparison is shown');
  const numbers = await page.$$eval('.live-number', (spans) => spans.map((s) => ({ text: s.textContent, value: s.dataset.value })));
  assert.equal(numbers.length, exercise.live_numbers.length);
  for (const n of numbers) {
    assert.notEqual(n.text, '');
    assert.notEqual(n.text, '—');
    assert.ok(Number.isFinite(Number(n.value)), JSON.stringify(n));
  }
  await page.close();
});

test('an unknown exercise id gets a clear message and a way back', async () => {
  const page = await openExercise('ex=no-such-exercise');
  const message = await page.textContent('#exercise-status .error-box[role="alert"]');
  assert.match(message, /There is no exercise called “no-such-exercise”/);
  assert.equal(await page.locator('#exercise-status a[href="./exercise.html"]').count(), 1, 'a way back to the list');
  await page.close();
  // The list's own files sit beside the exercises (web/generated/content/): not exercises.
  for (const id of ['index', 'topics']) {
    const other = await openExercise(`ex=${id}`);
    assert.match(await other.textContent('#exercise-status .error-box[role="alert"]'), new RegExp(`There is no exercise called “${id}”`));
    await other.close();
  }
});

test('a link to an exercise merged away in issue 10 opens the one it was merged into, and says so', async () => {
  const page = await openExercise('ex=label-pad-zero&marked=3,4&checked=1');
  await page.waitForSelector('#exercise-title');
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
  const params = await search(page);
  assert.equal(params.ex, 'pad-to-max-all-ones', 'the URL now names the survivor');
  assert.equal(params.marked, undefined, 'marks made on the old passage are dropped');
  assert.equal(params.checked, undefined);
  assert.match(await page.textContent('#url-note'), /“label-pad-zero” has been merged into this one/);
  assert.deepEqual(await selected(page), []);
  await page.close();
});

test('bad URL parameters fall back and are reported, not fatal', async () => {
  const page = await openExercise(`ex=${ID}&marked=3,999&checked=maybe`);
  assert.match(await page.textContent('#url-note'), /checked=maybe is not 1 or 0/);
  assert.match(await page.textContent('#url-note'), /outside this passage/);
  assert.deepEqual(await selected(page), [3]);
  await page.close();
});

test('hide= switches panels off (teacher switches), embed=1 drops the site frame', async () => {
  const page = await openExercise(`ex=${ID}&checked=1&hide=followups,break&embed=1`);
  assert.ok(await page.locator('#explanation-panel').isVisible());
  assert.ok(!(await page.locator('#followups-panel').isVisible()));
  assert.ok(!(await page.locator('#break-panel').isVisible()));
  assert.equal(await page.locator('.site-header').count(), 0);
  assert.ok(!(await page.locator('#share-panel').isVisible()), 'no embed code inside an embed');
  // Live numbers still come from the core even with "See it break" hidden.
  await page.waitForFunction(() => [...document.querySelectorAll('.live-number')].every((s) => s.textContent !== ''));
  await page.close();
});

test('Copy embed code: the clipboard, or else the code selected in a read-only text box', async () => {
  const page = await openExercise();
  // The panel is drawn when the end of the page comes into view.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.click('.copy-button');
  await page.waitForFunction(() => document.querySelector('.copy-status').textContent !== '');
  const status = await page.textContent('.copy-status');
  const code = await page.inputValue('.copy-area');
  // One snippet: the frame and the script that sizes it (tests/browser/embed.test.mjs runs it).
  assert.match(code, /^<iframe id="masklab-exercise-[a-z0-9]+" src="http:\/\/127\.0\.0\.1:\d+\/masklab\/exercise\.html\?ex=pad-to-max-all-ones&amp;embed=1" title="masklab exercise: The collator that grades its own padding"/);
  assert.match(code, /<script>[\s\S]*event\.origin !== "http:\/\/127\.0\.0\.1:\d+"[\s\S]*<\/script>$/);
  if (/Copied/.test(status)) {
    assert.ok(!(await page.locator('.copy-box').isVisible()));
  } else {
    assert.ok(await page.locator('.copy-box').isVisible());
    assert.equal(await page.getAttribute('.copy-area', 'readonly'), '');
    const selectedText = await page.evaluate(() => {
      const area = document.querySelector('.copy-area');
      return area.value.slice(area.selectionStart, area.selectionEnd);
    });
    assert.equal(selectedText, code, 'the whole code is selected for Ctrl+C');
  }
  await page.close();
});

test('no console errors, page errors or failed requests on any page above', () => {
  assert.deepEqual(suite.allProblems(), []);
});

test('axe: no violations, before and after Check, light and dark', async () => {
  await withAxeScanner(async (scanner) => {
    for (const colorScheme of ['light', 'dark']) {
      const before = await scanner.scan(suite.url(`exercise.html?ex=${ID}`), {
        colorScheme,
        prepare: (page) => page.waitForSelector('body[data-state="ready"]'),
      });
      assert.deepEqual(before, [], `${colorScheme}, before Check`);
      const checked = await scanner.scan(suite.url(`exercise.html?ex=${ID}&marked=0,40,47&checked=1&revealed=0`), {
        colorScheme,
        prepare: (page) => page.waitForSelector('#break-panel .claim-list'),
      });
      assert.deepEqual(checked, [], `${colorScheme}, after Check`);
    }
  });
});
