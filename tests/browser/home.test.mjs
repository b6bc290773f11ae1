// The home page (index.html): it lists the compiled exercises with links, shows "not tried" and
// then the learner's progress after an attempt (attempts, best score, solved), links the labs and
// the ways in, and has no accessibility violations.
//
// Unit indices of pad-to-max-all-ones counted by hand (see exercise.test.mjs): 40, 47, 50 are
// one word of each of its three bugs.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { withAxeScanner } from './axe-scan.mjs';
import { REPO_ROOT, useSiteAndBrowser } from './helpers.mjs';

const index = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'index.json'), 'utf8'));

const suite = useSiteAndBrowser();

const progressOf = (page, id) => page.textContent(`.exercise-progress[data-exercise="${id}"]`);

test('home lists every exercise with a link, and the labs and ways in', async () => {
  const { page, problems } = await suite.open();
  await page.waitForSelector('body[data-state="ready"]');
  assert.equal(await page.locator('.exercise-card').count(), index.length);
  const link = page.locator('.exercise-card a[href="./exercise.html?ex=pad-to-max-all-ones"]');
  assert.equal(await link.textContent(), 'The collator that grades its own padding');
  assert.equal(await progressOf(page, 'pad-to-max-all-ones'), 'Not tried yet');
  assert.match(await page.textContent('#exercise-summary'), new RegExp(`^0 of ${index.length} solved$`));
  for (const href of ['./grid.html', './dilution.html', './lab.html', './practice.html', './authors.html']) {
    assert.ok((await page.locator(`main a[href="${href}"]`).count()) >= 1, href);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('after attempts on the exercise page, home shows attempts, best score and solved', async () => {
  const { page, problems } = await suite.open('exercise.html?ex=pad-to-max-all-ones');
  await page.waitForSelector('body[data-state="ready"]');
  const option = (i) => page.locator('[role="option"]').nth(i);
  // Attempt 1: one bug found -> 1 / 3.
  await option(40).click();
  await page.click('#check');
  assert.equal(await page.textContent('#score'), 'Score: 1 / 3');
  // Attempt 2: all three found -> 3 / 3, solved.
  await page.click('#retry');
  for (const i of [40, 47, 50]) await option(i).click();
  await page.click('#check');
  assert.equal(await page.textContent('#score'), 'Score: 3 / 3');
  assert.match(await page.textContent('#result .progress'), /Attempts: 2 · best score 3 \/ 3 · solved ✓/);

  await page.goto(suite.url());
  await page.waitForSelector('body[data-state="ready"]');
  assert.equal(await progressOf(page, 'pad-to-max-all-ones'), '✓ Solved · 2 attempts · best 3 / 3');
  assert.match(await page.textContent('#exercise-summary'), new RegExp(`^1 of ${index.length} solved$`));
  assert.deepEqual(problems, []);
  await page.close();
});

test('axe: home has no violations, light and dark', async () => {
  await withAxeScanner(async (scanner) => {
    for (const colorScheme of ['light', 'dark']) {
      const violations = await scanner.scan(suite.url(), { colorScheme, prepare: (page) => page.waitForSelector('body[data-state="ready"]') });
      assert.deepEqual(violations, [], colorScheme);
    }
  });
});
