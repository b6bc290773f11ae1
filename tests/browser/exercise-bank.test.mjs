// Every exercise of the bank, opened as a learner would after Check: the page shows each error's
// reason, the See-it-break grids come from the core, every claim is marked as holding and every
// live number is filled. Catches an exercise whose claims hold in node (exercise-claims.test.mjs)
// but whose page breaks: a live number the page cannot place, a request the page sends
// differently, a rendering error.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { REPO_ROOT, useSiteAndBrowser } from './helpers.mjs';

const index = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'index.json'), 'utf8'));
const suite = useSiteAndBrowser();

for (const { id } of index) {
  test(`${id}: after Check, every claim holds on the page and every live number is filled`, async () => {
    const exercise = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', `${id}.json`), 'utf8'));
    const { page } = await suite.open(`exercise.html?ex=${id}&checked=1`);
    if (exercise.see_it_break?.kind === 'chat') {
      // Real tokenizers load on the Chat masks page, where these claims are checked live
      // (tests/browser/chat.test.mjs); here the panel must send the learner there.
      await page.waitForSelector(`#break-panel a[href="./chat.html?ex=${id}"]`);
      assert.equal(await page.locator('.bug').count(), exercise.errors.length, 'every error is listed with its reason');
      assert.equal(exercise.live_numbers.length, 0, 'a chat exercise has no live number this page could fill');
      await page.close();
      return;
    }
    await page.waitForSelector('#break-panel .claim-list');
    assert.equal(await page.locator('.claim.failed').count(), 0, 'no claim fails');
    assert.equal(await page.locator('.claim.ok').count(), exercise.claims.length);
    assert.equal(await page.locator('.bug').count(), exercise.errors.length, 'every error is listed with its reason');
    const numbers = await page.$$eval('.live-number', (spans) => spans.map((s) => ({ text: s.textContent, value: s.dataset.value })));
    assert.equal(numbers.length, exercise.live_numbers.length);
    for (const n of numbers) assert.ok(n.text !== '' && n.text !== '—' && Number.isFinite(Number(n.value)), JSON.stringify(n));
    await page.close();
  });
}

test('no page logged an error', () => {
  assert.deepEqual(suite.allProblems(), []);
});
