// Interview practice (practice.html) in headless Chromium: a whole session by keyboard alone, the
// summary and the history, the seed drawing the same set again, resuming from the URL, the timer's
// announcements and time-up, bad links and corrupt storage, teacher switches, no console errors,
// and axe on the set-up, session and summary screens in light and dark.
//
// Which exercises a seed draws is the job of web/practice/draw.js (tests/node/practice-draw.test.mjs);
// here the test asks draw.js for the set and reads each exercise's compiled JSON, and the expected
// scores are worked by hand from the marks made: one word of the first bug and nothing else is
// 1 found − 0 wrong = 1; one word outside every bug and nothing else is max(0 − 1, 0) = 0.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { drawExercises } from '../../web/practice/draw.js';
import { withAxeScanner } from './axe-scan.mjs';
import { REPO_ROOT, useSiteAndBrowser } from './helpers.mjs';

const CONTENT = join(REPO_ROOT, 'web', 'generated', 'content');
const INDEX = JSON.parse(readFileSync(join(CONTENT, 'index.json'), 'utf8'));
const exerciseJson = (id) => JSON.parse(readFileSync(join(CONTENT, `${id}.json`), 'utf8'));

const SEED = 'kbd-test';
const SET = drawExercises(INDEX, { n: 2, seed: SEED }).ids.map(exerciseJson);
const [FIRST, SECOND] = SET;
// The marks: the first word of FIRST's first bug; SECOND's first word that is in no bug.
const FIRST_MARK = FIRST.errors[0].units[0];
const SECOND_MARK = SECOND.passage.units.findIndex((u) => u.error === null);
const TOTAL_MAX = FIRST.errors.length + SECOND.errors.length;

const suite = useSiteAndBrowser();

async function openPractice(query = '') {
  const { page } = await suite.open(`practice.html${query}`);
  await page.waitForSelector('body[data-state]');
  return page;
}

const search = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));
const focused = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return { id: a?.id ?? '', tag: a?.tagName.toLowerCase(), role: a?.getAttribute('role'), cls: a?.className ?? '', text: a?.textContent.trim().slice(0, 80), type: a?.type, value: a?.value };
  });

// A past session's labelled figures as { label: value }, e.g. { 'Find the bug': '1 / 3', Seed: 'x' }.
const historyFigures = (item) =>
  item.locator('.history-details > div').evaluateAll((groups) => Object.fromEntries(groups.map((g) => [g.querySelector('dt').textContent, g.querySelector('dd').textContent])));

// Presses Tab until the focused element satisfies `wanted` (at most 80 presses).
async function tabTo(page, wanted, what) {
  for (let i = 0; i < 80; i += 1) {
    await page.keyboard.press('Tab');
    if (wanted(await focused(page))) return;
  }
  assert.fail(`Tab never reached ${what}`);
}

test('the test set: seed kbd-test draws two different exercises with a bug word and a clean word', () => {
  assert.equal(SET.length, 2);
  assert.notEqual(FIRST.id, SECOND.id);
  assert.equal(FIRST.passage.units[FIRST_MARK].error, 0);
  assert.ok(SECOND_MARK >= 0);
});

test('set-up: levels and topics are built from the index; no match says so and disables Start', async () => {
  const page = await openPractice();
  assert.equal(await page.locator('input[name="level"]').count(), 3);
  const tags = new Set(INDEX.flatMap((e) => e.tags));
  assert.equal(await page.locator('input[name="tag"]').count(), tags.size);
  assert.match(await page.textContent('.match'), new RegExp(`^${INDEX.length} exercises match; this session draws 3 of them`));
  assert.match((await search(page)).seed, /^[a-z2-9]{6}$/, 'a random seed is written into the URL');

  // A topic that only advanced exercises carry, with the beginner level: nothing can match.
  const advancedOnly = [...tags].find((t) => INDEX.filter((e) => e.tags.includes(t)).every((e) => e.level === 'advanced'));
  assert.ok(advancedOnly, 'some topic is only on advanced exercises');
  await page.click('.topics-box summary');
  await page.check(`input[name="tag"][value="${advancedOnly}"]`);
  await page.check('input[name="level"][value="beginner"]');
  assert.match(await page.textContent('.match'), /No exercise matches these filters/);
  assert.ok(await page.locator('button.start').isDisabled());
  assert.equal((await search(page)).levels, 'beginner');

  // Back to a match; then a bad count and a bad seed are named and block Start.
  await page.uncheck('input[name="level"][value="beginner"]');
  assert.ok(await page.locator('button.start').isEnabled());
  await page.fill('input[name="n"]', '0');
  assert.ok(await page.locator('input[name="n"]').evaluate((n) => n.getAttribute('aria-invalid') === 'true'));
  assert.ok(await page.locator('.field-error').first().isVisible());
  assert.ok(await page.locator('button.start').isDisabled());
  await page.fill('input[name="n"]', '10');
  await page.fill('input[name="seed"]', 'not a seed!');
  assert.ok(await page.locator('button.start').isDisabled());
  await page.fill('input[name="seed"]', 'ok-seed');
  assert.ok(await page.locator('button.start').isEnabled());
  // 10 asked, fewer match: the count is capped and the form says so.
  const matching = INDEX.filter((e) => e.tags.includes(advancedOnly)).length;
  assert.ok(matching < 10);
  assert.match(await page.textContent('.match'), new RegExp(`so this session has ${matching}\\.`));
  await page.close();
});

test('keyboard only: N = 2, a fixed seed, marks, Check, every follow-up revealed and graded, summary', async () => {
  const page = await openPractice();
  // Set-up by keyboard: the count, the seed, then Enter on Start.
  await tabTo(page, (f) => f.type === 'number', 'the count field');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await tabTo(page, (f) => f.tag === 'input' && f.type === 'text', 'the seed field');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(SEED);
  await tabTo(page, (f) => f.cls.includes('start'), 'Start');
  await page.keyboard.press('Enter');

  await page.waitForSelector('#step-title');
  assert.equal((await focused(page)).id, 'step-title', 'focus moves to the new step’s heading');
  assert.equal(await page.textContent('#step-title'), FIRST.title);
  assert.equal(await page.textContent('#session-progress'), 'Exercise 1 of 2 · find the bug');
  assert.equal((await search(page)).step, '1');

  // Exercise 1: Tab into the passage (past "Wrap long lines" on a code passage), arrows to the
  // bug word, Space, Tab to Check, Enter.
  await tabTo(page, (f) => f.role === 'option', 'the passage');
  for (let i = 0; i < FIRST_MARK; i += 1) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  assert.equal(await page.locator('[role="option"][aria-selected="true"]').count(), 1);
  await tabTo(page, (f) => f.cls.includes('check'), 'Check');
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent('.result .score'), `Score: 1 / ${FIRST.errors.length}`); // 1 found − 0 wrong
  assert.match((await focused(page)).cls, /result/, 'focus moves to the result');
  assert.equal(await page.locator(`[role="option"][data-result="correct"]`).count(), 1);
  await page.waitForFunction(() => document.querySelector('body > [aria-live]')?.textContent.startsWith('Checked. Score 1'));

  // Follow-ups of exercise 1: type, reveal, "Got it" with Space, Next.
  await tabTo(page, (f) => f.cls.includes('next'), 'Next');
  assert.equal((await focused(page)).text, 'Next: follow-up questions');
  await page.keyboard.press('Enter');
  for (let j = 1; j <= FIRST.follow_ups.length; j += 1) {
    assert.equal((await focused(page)).id, 'step-title');
    assert.equal(await page.textContent('#step-title'), `Follow-up ${j} of ${FIRST.follow_ups.length}`);
    assert.equal(await page.textContent('#session-progress'), `Exercise 1 of 2 · follow-up ${j} of ${FIRST.follow_ups.length}`);
    // The passage the question is about is one click (or Enter) away, before the answer box.
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).tag, 'summary');
    if (j === 1) {
      await page.keyboard.press('Enter');
      await page.waitForSelector('.passage-recall [role="listbox"][aria-readonly="true"]'); // drawn when opened, read-only
      assert.ok((await page.locator('.passage-recall [data-result="solution"]').count()) >= 1, 'with its bugs marked');
    }
    await tabTo(page, (f) => f.tag === 'textarea', 'the answer box'); // through the open passage, if any
    await page.keyboard.type(`Because the mask and the labels disagree (${j}).`);
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).text, 'Reveal model answer');
    assert.ok(await page.locator('button.next').isDisabled(), 'Next waits for a grade');
    await page.keyboard.press('Enter');
    assert.match((await focused(page)).cls, /model-answer/, 'focus moves to the model answer');
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).value, 'g', 'the first grade, “Got it”');
    await page.keyboard.press('Space');
    assert.ok(await page.locator('.self-grade input[value="g"]').isChecked());
    await page.keyboard.press('Tab');
    assert.match((await focused(page)).cls, /next/);
    await page.keyboard.press('Enter');
  }

  // Exercise 2: one word outside every bug; its follow-ups graded "Partly" with the arrow key.
  assert.equal(await page.textContent('#step-title'), SECOND.title);
  assert.equal((await focused(page)).id, 'step-title');
  assert.equal(await page.textContent('#session-progress'), 'Exercise 2 of 2 · find the bug');
  await tabTo(page, (f) => f.role === 'option', 'the passage');
  for (let i = 0; i < SECOND_MARK; i += 1) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await tabTo(page, (f) => f.cls.includes('check'), 'Check');
  await page.keyboard.press('Space');
  assert.equal(await page.textContent('.result .score'), `Score: 0 / ${SECOND.errors.length}`); // max(0 − 1, 0)
  await tabTo(page, (f) => f.cls.includes('next'), 'Next');
  await page.keyboard.press('Enter');
  for (let j = 1; j <= SECOND.follow_ups.length; j += 1) {
    assert.equal(await page.textContent('#step-title'), `Follow-up ${j} of ${SECOND.follow_ups.length}`);
    await tabTo(page, (f) => f.text === 'Reveal model answer', 'Reveal'); // the answer box is optional
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight'); // from "Got it" to "Partly": arrows move and choose
    assert.ok(await page.locator('.self-grade input[value="p"]').isChecked());
    await page.keyboard.press('Tab');
    const last = j === SECOND.follow_ups.length;
    assert.equal((await focused(page)).text, last ? 'Finish and see the summary' : 'Next follow-up');
    await page.keyboard.press('Enter');
  }

  // The summary: totals and each exercise's score and grades.
  await page.waitForSelector('#summary-title');
  assert.equal((await focused(page)).id, 'summary-title');
  assert.equal(await page.textContent('.total-score'), `1 / ${TOTAL_MAX}`);
  // Every follow-up of the first exercise "Got it", of the second "Partly", none missed or left.
  assert.deepEqual(await page.locator('.total-grades li').allTextContents(), [
    `✓ ${FIRST.follow_ups.length} got it`,
    `◐ ${SECOND.follow_ups.length} partly`,
    '✗ 0 missed',
  ]);
  const items = page.locator('.summary-item');
  assert.equal(await items.count(), 2);
  assert.equal(await items.nth(0).locator('.item-score').textContent(), `1 / ${FIRST.errors.length}`);
  assert.equal(await items.nth(1).locator('.item-score').textContent(), `0 / ${SECOND.errors.length}`);
  assert.equal(await items.nth(0).getAttribute('data-exercise'), FIRST.id);
  assert.equal(await page.locator('.summary-item.status-done').count(), 2);
  assert.equal(await items.nth(1).locator('a').getAttribute('href'), `./exercise.html?ex=${SECOND.id}`);
  const state = await search(page);
  assert.equal(state.step, 'summary');
  assert.equal(state.saved, '1');
  assert.equal(state.scores, '1,0');
  assert.equal(state.grades, 'g'.repeat(FIRST.follow_ups.length) + 'p'.repeat(SECOND.follow_ups.length));
  // The answers typed for the first exercise are in its summary, under their follow-ups.
  assert.deepEqual(
    await items.nth(0).locator('.typed-answer').allTextContents(),
    FIRST.follow_ups.map((_, k) => `Your answer: Because the mask and the labels disagree (${k + 1}).`),
  );
  assert.equal(await items.nth(1).locator('.typed-answer').count(), 0, 'nothing typed, nothing shown');

  // After a reload: the same summary, and the history lists the session once.
  await page.reload();
  await page.waitForSelector('body[data-state="ready"]');
  assert.equal(await page.textContent('.total-score'), `1 / ${TOTAL_MAX}`);
  const history = page.locator('.history-item');
  assert.equal(await history.count(), 1, 'recorded once, not again on reload');
  const figures = await historyFigures(history.first());
  assert.equal(figures['Find the bug'], `1 / ${TOTAL_MAX}`);
  assert.equal(figures.Seed, SEED);
  assert.match(figures.Exercises, /^2\b/);

  // "Practice again with the same set" (keyboard): the same first exercise, results cleared.
  await tabTo(page, (f) => f.cls.includes('again'), 'Practice again');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#step-title');
  assert.equal(await page.textContent('#step-title'), FIRST.title);
  assert.equal((await focused(page)).id, 'step-title');
  const restarted = await search(page);
  assert.deepEqual([restarted.n, restarted.seed, restarted.step], ['2', SEED, '1']);
  assert.deepEqual([restarted.scores, restarted.grades, restarted.saved], [undefined, undefined, undefined], 'results cleared');
  await page.close();

  // A fresh page with the setup from a plain link: the history is there, and the seed draws the same set.
  const fresh = await openPractice();
  assert.equal(await fresh.locator('.history-item').count(), 1);
  await fresh.close();
  const again = await openPractice(`?n=2&seed=${SEED}&step=2`);
  assert.equal(await again.textContent('#step-title'), FIRST.title, 'step 2 is not reachable without results: resumes at 1');
  assert.match(await again.textContent('#url-note'), /did not match its results/);
  await again.close();
});

test('a reload resumes the same exercise, step and marks', async () => {
  const query = `?n=2&seed=${SEED}&step=1&marked=${FIRST_MARK}&scores=1`;
  const page = await openPractice(query);
  assert.equal(await page.textContent('#step-title'), FIRST.title);
  assert.equal(await page.textContent('.result .score'), `Score: 1 / ${FIRST.errors.length}`);
  assert.equal(await page.getAttribute('[role="listbox"]', 'aria-readonly'), 'true');
  // Follow-up 2 with follow-up 1 graded "m": the first grade is kept, the second step is open.
  const page2 = await openPractice(`?n=2&seed=${SEED}&step=1.2&scores=1&grades=m`);
  assert.equal(await page2.textContent('#step-title'), `Follow-up 2 of ${FIRST.follow_ups.length}`);
  assert.ok(await page2.locator('button.reveal').isVisible());
  await page2.click('button.reveal');
  await page2.check('.self-grade input[value="g"]');
  assert.equal((await search(page2)).grades, 'mg');
  await page2.reload();
  await page2.waitForSelector('body[data-state="ready"]');
  assert.ok(await page2.locator('.self-grade input[value="g"]').isChecked(), 'the grade survives a reload');
  assert.ok(await page2.locator('.model-answer').isVisible());
  await page.close();
  await page2.close();
});

test('timer: one minute left is announced once; at zero the summary marks what is unfinished', async () => {
  // 5-minute timer, 250 s already spent on exercise 1: 50 s left.
  const page = await openPractice(`?n=2&seed=${SEED}&step=1&timer=5&times=250`);
  assert.ok(await page.locator('#session-timer').isVisible());
  assert.match(await page.getAttribute('#session-timer', 'class'), /low/);
  assert.match(await page.textContent('#session-timer [role="timer"]'), /^0:(50|49|48)$/);
  await page.waitForFunction(() => document.querySelector('body > [aria-live]')?.textContent === 'Less than a minute left: 50 seconds.');
  await page.close();

  // 300 s spent of 5 minutes: straight to the summary, nothing finished, and it is recorded.
  const over = await openPractice(`?n=2&seed=${SEED}&step=1&timer=5&times=300`);
  await over.waitForSelector('#summary-title');
  assert.match(await over.textContent('.time-up'), /Time ran out/);
  assert.equal(await over.locator('.summary-item.status-not-started').count(), 2);
  assert.match(await over.textContent('.summary-item'), /Unfinished: not started/);
  assert.equal(await over.textContent('.total-score'), `0 / ${TOTAL_MAX}`);
  assert.equal((await search(over)).saved, '1');
  await over.close();
});

test('"End the session now" goes to the summary with the unfinished parts marked', async () => {
  const page = await openPractice(`?n=2&seed=${SEED}&step=1.1&scores=1`);
  await page.click('#end-session');
  await page.waitForSelector('#summary-title');
  assert.match(await page.textContent('.summary-list'), /Unfinished: follow-ups left/);
  assert.match(await page.textContent('.summary-list'), /Unfinished: not started/);
  assert.match(await page.textContent('#summary-screen'), /ended the session early/);
  // "New set" starts at once with another seed; "Change the settings" goes back to the form.
  await page.click('button.new-set');
  await page.waitForSelector('#step-title');
  assert.notEqual((await search(page)).seed, SEED);
  await page.click('#end-session');
  await page.click('button.change-setup');
  assert.ok(await page.locator('#setup-title').isVisible());
  assert.equal((await search(page)).step, undefined, 'set-up is the default step');
  await page.close();
});

test('bad link parameters and corrupt storage are reported or ignored, never fatal', async () => {
  const page = await openPractice('?n=40&seed=bad%20seed!&timer=7&step=1');
  const note = await page.textContent('#url-note');
  assert.match(note, /n=40 is above 10/);
  assert.match(note, /timer=7 is not one of off, 5, 10, 20/);
  assert.match(note, /seed=bad seed! has characters that are not allowed/);
  assert.ok(await page.locator('#step-title').isVisible(), 'the session still starts, with defaults');

  await page.evaluate(() => localStorage.setItem('masklab.progress.v1', '{not json'));
  await page.goto(suite.url('practice.html'));
  await page.waitForSelector('body[data-state="ready"]');
  assert.match(await page.textContent('.history-empty'), /No sessions yet/);

  await page.evaluate(() =>
    localStorage.setItem(
      'masklab.progress.v1',
      JSON.stringify({ practice: [{ when: 'yesterday', seed: 'x', items: [{ id: 'a', score: 1, max: 2, grades: '<img>' }] }, { when: 5 }, 'junk'] }),
    ),
  );
  await page.reload();
  await page.waitForSelector('body[data-state="ready"]');
  assert.equal(await page.locator('.history-item').count(), 1);
  assert.equal(await page.textContent('.history-item time'), 'Unknown date');
  assert.deepEqual(await historyFigures(page.locator('.history-item')), { 'Find the bug': '1 / 2', Exercises: '1', Seed: 'x' });
  assert.equal(await page.locator('.history-item img').count(), 0);
  await page.evaluate(() => localStorage.clear());
  await page.close();
});

test('embed=1 drops the site frame; hide= switches panels off but keeps Start', async () => {
  const page = await openPractice(`?embed=1&hide=setup,history,intro&n=2&seed=${SEED}`);
  assert.equal(await page.locator('.site-header').count(), 0);
  assert.ok(!(await page.locator('[data-panel="setup"]').isVisible()));
  assert.ok(!(await page.locator('#history-panel').isVisible()));
  assert.ok(!(await page.locator('.lede').isVisible()));
  await page.click('button.start');
  assert.equal(await page.textContent('#step-title'), FIRST.title);
  await page.click('#end-session');
  assert.ok(!(await page.locator('#history-panel').isVisible()), 'still hidden on the summary');
  await page.close();

  const timed = await openPractice(`?hide=timer&n=2&seed=${SEED}&step=1&timer=5`);
  assert.ok(!(await timed.locator('#session-timer').isVisible()));
  await timed.close();
});

test('no console errors, page errors or failed requests on any page above', () => {
  assert.deepEqual(suite.allProblems(), []);
});

test('axe: no violations on set-up, session and summary, light and dark', async () => {
  const ready = (page) => page.waitForSelector('body[data-state="ready"]');
  await withAxeScanner(async (scanner) => {
    for (const colorScheme of ['light', 'dark']) {
      const screens = {
        setup: [`practice.html?seed=${SEED}`, async (page) => {
          await ready(page);
          await page.click('.topics-box summary');
        }],
        'empty set-up': [`practice.html?seed=${SEED}&levels=beginner&tags=no-such-topic`, ready],
        'checked exercise': [`practice.html?n=2&seed=${SEED}&step=1&marked=${FIRST_MARK},0&scores=0&timer=5&times=250`, ready],
        'graded follow-up': [`practice.html?n=2&seed=${SEED}&step=1.1&scores=1&grades=p`, ready],
        summary: [`practice.html?n=2&seed=${SEED}&step=summary&scores=1,0&grades=g&saved=1`, ready],
      };
      for (const [name, [path, prepare]] of Object.entries(screens)) {
        const violations = await scanner.scan(suite.url(path), { colorScheme, prepare });
        assert.deepEqual(violations, [], `${colorScheme}, ${name}`);
      }
    }
  });
});
