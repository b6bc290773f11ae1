// Text fields on a touch screen. Safari on iPhone and iPad zooms the page into a text field whose
// text is under 16 px when it takes focus, and stays zoomed: a learner pasting a batch into the
// doctor on a phone would lose the page around the box. site.css makes every field at least 16 px
// under `pointer: coarse`; these tests load each page with a field at 375 px, with touch emulated
// (the browser then matches `pointer: coarse`, as a phone does), and read every field's size.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { useSiteAndBrowser } from './helpers.mjs';

const suite = useSiteAndBrowser();

const FIELDS = 'select, input[type="number"], input[type="text"], textarea';

/** Opens path at 375 × 800 with touch emulated or not; returns the page once `ready` shows. */
async function openPhone(path, { touch, ready }) {
  const { page, problems } = await suite.open(path, {
    prepare: async (tab) => {
      await tab.setViewportSize({ width: 375, height: 800 });
      if (touch) {
        const cdp = await tab.context().newCDPSession(tab);
        await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
      }
    },
  });
  await page.waitForSelector(ready, { state: 'attached', timeout: 20_000 });
  return { page, problems };
}

/** Every field's tag and id and its computed font size in px (hidden ones too: the exercise's
 *  follow-up answers show only after Check). */
const fieldSizes = (page) =>
  page.$$eval(FIELDS, (fields) => fields.map((f) => ({ field: `${f.tagName.toLowerCase()}#${f.id}`, px: parseFloat(getComputedStyle(f).fontSize) })));

// `ready`: what is in the page once it has built its fields (the chat page's messages, the
// exercise's follow-up answers, …).
const PAGES = [
  { path: 'doctor.html', ready: 'body[data-state="ready"]', mustHave: 'textarea#batch-text' },
  { path: 'chat.html', ready: '#message-text-0', mustHave: 'textarea#paste-conversation' },
  { path: 'exercise.html?ex=pad-to-max-all-ones', ready: '#followup-0-draft', mustHave: 'textarea#followup-0-draft' },
  { path: 'grid.html', ready: 'body[data-state="ready"]', mustHave: 'select#gc1-padding' },
  { path: 'lab.html', ready: 'body[data-state="ready"]', mustHave: 'input#fn1-a' },
  { path: 'train.html', ready: '#steps', mustHave: 'input#steps' },
  { path: 'authors.html', ready: '#builder-widget', mustHave: 'select#builder-widget' },
  { path: 'practice.html', ready: '#setup-count-1', mustHave: 'input#setup-count-1' },
];

test('touch screen: every text field and menu is at least 16 px, so focusing it does not zoom the page', async () => {
  for (const { path, ready, mustHave } of PAGES) {
    const { page, problems } = await openPhone(path, { touch: true, ready });
    assert.equal(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), true, `${path}: touch emulated`);
    const sizes = await fieldSizes(page);
    assert.ok(sizes.some((s) => s.field === mustHave), `${path}: ${mustHave} is among the fields read (${sizes.map((s) => s.field).join(', ')})`);
    const small = sizes.filter((s) => s.px < 16);
    assert.deepEqual(small, [], `${path}: fields under 16 px on a touch screen`);
    assert.deepEqual(problems, [], path);
    await page.close();
  }
});

test('mouse screen: the code boxes keep their smaller monospace size (the 16 px floor is for touch only)', async () => {
  const { page } = await openPhone('doctor.html', { touch: false, ready: 'body[data-state="ready"]' });
  assert.equal(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), false);
  const batch = (await fieldSizes(page)).find((s) => s.field === 'textarea#batch-text');
  // --text-sm is 0.9rem: 14.4 px at the browser's default 16 px.
  assert.equal(batch.px, 14.4);
  await page.close();
});
