// Tables in boxes that scroll sideways (.table-scroll, .grid-scroll), on a phone.
//
// Captions. A table's caption is as wide as its table. In a box that scrolls sideways (.table-scroll,
// .grid-scroll) its text used to run past the box's right edge on a phone, so the sentence that
// says what the table is was cut mid-word, and scrolling the table carried it further off. Now
// the caption wraps to the box and stays put while the table scrolls under it (site.css). This
// checks every visible caption in such a box, on the pages that have them, at 1280, 375 and
// 320 px: each line of its text lies inside the box, before and after the box is scrolled to
// its far right.
//
// Small tables. A table of a few columns fits a phone whole: the lab's two tables (the mean,
// the column the section is about, was last and off-screen at 320 px) and the dilution page's
// (3 px too wide at 320 px, so it scrolled by a hair).
//
// Long tables. The doctor's per-row table (up to 64 rows, seven columns) scrolls on a phone; its
// row numbers stay at the box's left edge while it does, so every figure is read against its row.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { VIEWS, useSiteAndBrowser } from './helpers.mjs';

const suite = useSiteAndBrowser();

// Pages with a caption in a sideways-scrolling box once ready: the token grid and attention map,
// the doctor's per-row figures and its grid, the lab's table, the training page's batch.
const PAGES = [
  'grid.html?e1=Hi+there&p1=&e2=Hello&p2=',
  'doctor.html?example=clm-own-pad',
  'lab.html',
  'train.html',
];

// For each visible caption in a scroll box: its text lines' extent and the box's visible area,
// with the box at scrollLeft 0 and at its far right.
function measureCaptions() {
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 2 && r.height > 2 && getComputedStyle(el).visibility !== 'hidden';
  };
  const extent = (caption) => {
    const range = document.createRange();
    range.selectNodeContents(caption);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    return { left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)) };
  };
  return [...document.querySelectorAll(':is(.table-scroll, .grid-scroll) caption')]
    .filter((caption) => visible(caption) && caption.textContent.trim() !== '')
    .map((caption) => {
      const box = caption.closest('.table-scroll, .grid-scroll');
      const boxRect = box.getBoundingClientRect();
      const area = { left: boxRect.left + box.clientLeft, right: boxRect.left + box.clientLeft + box.clientWidth };
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      const atStart = extent(caption);
      box.scrollLeft = box.scrollWidth;
      const atEnd = extent(caption);
      box.scrollLeft = 0;
      return { text: caption.textContent.slice(0, 50), area, scrolls, atStart, atEnd };
    });
}

test('every caption in a sideways-scrolling box stays inside the box, scrolled or not', async () => {
  let scrollingBoxesSeen = 0;
  for (const view of VIEWS.filter((v) => v.colorScheme === 'light')) {
    for (const path of PAGES) {
      const { page, problems } = await suite.openAt(path, view);
      await page.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
      const captions = await page.evaluate(measureCaptions);
      assert.ok(captions.length > 0, `${path} at ${view.name}: has captions in scroll boxes`);
      for (const { text, area, scrolls, atStart, atEnd } of captions) {
        const where = `${path} at ${view.name}, caption "${text}…"`;
        if (scrolls) scrollingBoxesSeen += 1;
        for (const [when, ext] of [['at the start', atStart], ['scrolled to the end', atEnd]]) {
          assert.ok(ext.left >= area.left - 1, `${where} ${when}: starts inside the box (${ext.left} < ${area.left})`);
          assert.ok(ext.right <= area.right + 1, `${where} ${when}: ends inside the box (${ext.right} > ${area.right})`);
        }
      }
      assert.deepEqual(problems, []);
      await page.close();
    }
  }
  // The check means something only if some of those boxes did scroll on a phone.
  assert.ok(scrollingBoxesSeen >= 3, `boxes that scroll sideways were measured (${scrollingBoxesSeen})`);
});

test('the lab’s and the dilution page’s tables fit a phone without scrolling (375 and 320 px)', async () => {
  for (const view of VIEWS.filter((v) => v.width < 1280)) {
    for (const [path, expected] of [['lab.html', 2], ['dilution.html', 1]]) {
      const { page, problems } = await suite.openAt(path, view);
      await page.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
      // The dilution table is drawn when its section nears the screen.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 400) {
          scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      await page.waitForFunction((n) => document.querySelectorAll('.table-scroll table').length >= n, expected);
      // The dilution table sits in a closed "The plotted numbers": open it, as a reader would.
      await page.$$eval('details:has(.table-scroll):not([open])', (all) => all.forEach((d) => { d.open = true; }));
      const boxes = await page.$$eval('.table-scroll', (els) => els.map((e) => ({ text: e.querySelector('caption').textContent.slice(0, 40), scrollWidth: e.scrollWidth, clientWidth: e.clientWidth })));
      assert.equal(boxes.length, expected, `${path} at ${view.name}: its tables`);
      for (const { text, scrollWidth, clientWidth } of boxes) {
        assert.ok(clientWidth > 200, `${path} at ${view.name}: "${text}" has room`);
        assert.ok(scrollWidth <= clientWidth, `${path} at ${view.name}: "${text}…" fits (${scrollWidth} > ${clientWidth})`);
      }
      assert.deepEqual(problems, []);
      await page.close();
    }
  }
});

test('the doctor’s per-row table keeps its row numbers in view while it scrolls (375 and 320 px)', async () => {
  for (const view of VIEWS.filter((v) => v.width < 1280)) {
    const { page, problems } = await suite.openAt('doctor.html?example=clm-pad-eos', view);
    await page.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
    const seen = await page.$eval('.table-scroll:has(.row-figures)', (box) => {
      box.scrollLeft = box.scrollWidth;
      const left = box.getBoundingClientRect().left + box.clientLeft;
      const rows = [...box.querySelectorAll('tbody th[scope="row"]')];
      const lastColumn = box.querySelector('tbody tr td:last-child').getBoundingClientRect();
      return { scrolled: box.scrollLeft, offsets: rows.map((th) => Math.round(th.getBoundingClientRect().left - left)), labels: rows.map((th) => th.textContent), lastRight: lastColumn.right - left - box.clientWidth };
    });
    assert.ok(seen.scrolled > 0, `${view.name}: the table scrolls`);
    assert.deepEqual(seen.labels, ['0', '1', '2']);
    assert.deepEqual(seen.offsets, [0, 0, 0], `${view.name}: row numbers at the left edge after scrolling`);
    assert.ok(seen.lastRight <= 1, `${view.name}: the last column is in view at the end`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

// The attention map's query names stay at the left edge while the map scrolls, and the corner
// cell above them ("query \ key") with them: it used to scroll away under the names, leaving a
// cut letter at the box's edge.
test('the attention map keeps its corner and query names at the left edge while it scrolls (375 and 320 px)', async () => {
  for (const view of VIEWS.filter((v) => v.width < 1280)) {
    const { page, problems } = await suite.openAt('grid.html?row=1', view);
    await page.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
    await page.locator('#attention').scrollIntoViewIfNeeded();
    await page.waitForSelector('.attention-map th.corner');
    const seen = await page.$eval('.attention-map', (map) => {
      const box = map.closest('.grid-scroll, .table-scroll');
      box.scrollLeft = box.scrollWidth;
      const left = box.getBoundingClientRect().left + box.clientLeft;
      const corner = map.querySelector('th.corner').getBoundingClientRect();
      const names = [...map.querySelectorAll('tbody th')].map((th) => th.getBoundingClientRect());
      // What is drawn at the corner's middle: the corner itself, not a cell scrolled under it.
      const atCorner = document.elementFromPoint(corner.left + corner.width / 2, corner.top + corner.height / 2);
      return {
        scrolled: box.scrollLeft,
        cornerOffset: Math.round(corner.left - left),
        nameOffsets: [...new Set(names.map((r) => Math.round(r.left - left)))],
        cornerWidth: Math.round(corner.width),
        nameWidth: Math.round(names[0].width),
        cornerOnTop: atCorner?.closest('th')?.classList.contains('corner') ?? false,
      };
    });
    assert.ok(seen.scrolled > 0, `${view.name}: the map scrolls`);
    assert.deepEqual(seen.nameOffsets, [0], `${view.name}: query names at the left edge after scrolling`);
    assert.equal(seen.cornerOffset, 0, `${view.name}: the corner at the left edge after scrolling`);
    assert.equal(seen.cornerWidth, seen.nameWidth, `${view.name}: the corner as wide as the names below it`);
    assert.ok(seen.cornerOnTop, `${view.name}: the corner is drawn above the key headers that scroll under it`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});
