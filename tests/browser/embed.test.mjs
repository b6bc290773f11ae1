// The embed protocol end to end: a host page (web/embed-example.html) frames an exercise and
// receives `ready`, `resize` (height > 0) and, after Check inside the frame, `answered` with the
// score, the maximum and the marked unit indices. Messages not from the frame are ignored. The
// course authors page's live example logs the same messages.
//
// Unit indices of pad-to-max-all-ones counted by hand (see exercise.test.mjs): 'padding="max_length",'
// = 40 (error 0), "attention_mask" = 47 (error 1), "import" = 0 (not a bug).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { withAxeScanner } from './axe-scan.mjs';
import { useSiteAndBrowser } from './helpers.mjs';

const suite = useSiteAndBrowser();

const entries = (page, type) =>
  page.$$eval(`#message-log li[data-type="${type}"]`, (items) => items.map((li) => ({ ...li.dataset })));

test('the host page receives ready, resize and answered from the framed exercise', async () => {
  const { page, problems } = await suite.open('embed-example.html?ex=pad-to-max-all-ones');
  await page.waitForSelector('#message-log li[data-type="ready"]');
  await page.waitForFunction(() => [...document.querySelectorAll('#message-log li[data-type="resize"]')].some((li) => Number(li.dataset.height) > 300));

  const [ready] = await entries(page, 'ready');
  assert.equal(ready.widget, 'exercise');
  const resizes = await entries(page, 'resize');
  const last = Number(resizes.at(-1).height);
  assert.ok(last > 0);
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
    { exercise: answered[0].exercise, score: answered[0].score, maxScore: answered[0].maxScore, marked: answered[0].marked },
    { exercise: 'pad-to-max-all-ones', score: '1', maxScore: '3', marked: '0,40,47' },
  );
  assert.match(await page.textContent('#last-answer'), /1 \/ 3/);
  // The frame ran in embed mode: no site header inside it.
  assert.equal(await frame.locator('.site-header').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the course authors page embeds a live exercise and logs its messages', async () => {
  const { page, problems } = await suite.open('authors.html');
  await page.waitForSelector('#message-log li[data-type="ready"]');
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
    /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/masklab\/exercise\.html\?ex=[a-z0-9-]+&embed=1&hide=followups%2Creferences" title="masklab find-the-bug exercise: /,
  );
  // Show it in the live example: the log starts again with the new frame's ready.
  await page.click('#builder-preview');
  await page.waitForSelector('#message-log li[data-type="ready"]');
  assert.equal(new URL(await page.getAttribute('#live-frame', 'src')).searchParams.get('hide'), 'followups,references');
  assert.deepEqual(problems, []);
  await page.close();
});

test('axe: the host page and the authors page have no violations, light and dark', async () => {
  await withAxeScanner(async (scanner) => {
    for (const colorScheme of ['light', 'dark']) {
      for (const path of ['embed-example.html', 'authors.html']) {
        const violations = await scanner.scan(suite.url(path), {
          colorScheme,
          prepare: (page) => page.waitForSelector('#message-log li[data-type="ready"]'),
        });
        assert.deepEqual(violations, [], `${path}, ${colorScheme}`);
      }
    }
  });
});
