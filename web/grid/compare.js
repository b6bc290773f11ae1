// compare.js — "see it break": a buggy and a fixed collator configuration run through the core
// and shown together — a table of the summary figures, each with what it means and which way
// the buggy batch differs, then the two read-only token grids with the mask and label cells that
// differ marked ≠.
//
//   const view = createComparison(container, { buggyLabel, fixedLabel, headingLevel });
//   view.update({ buggy, fixed, buggyRequest, fixedRequest });   // two inspect answers (no error)
//
// The two grids are one view, so the difference shows without hunting for it: every position
// has the same width in both and every row the same height, side by side when there is room
// (stacked, compactly, on phones); scrolling one scrolls the other; runs of positions that are
// identical in both are folded ("⋯ 6 same", a button unfolds them; compare-columns.js decides);
// and the view opens scrolled to the first difference.
// Nothing is computed here: the figures are the core's, and differences are described in words
// (higher / lower / same), never by subtracting. Not here: the exercise's text or claims.

import { h, replaceChildren } from '../shared/dom.js';
import { compareColumns, withoutRun } from './compare-columns.js';
import { summaryRows } from './summary.js';
import { createLegend, createTokenGrid } from './token-grid.js';

// Every user-visible string of the comparison, in one place.
export const COMPARE_TEXT = {
  buggy: 'buggy',
  fixed: 'fixed',
  defaultBuggy: 'Buggy configuration',
  defaultFixed: 'Fixed configuration',
  tableCaption: 'The two batches side by side: what the trainer would report',
  figure: 'figure',
  versus: 'buggy vs fixed',
  higher: 'higher when buggy',
  lower: 'lower when buggy',
  changed: 'changed',
  same: 'same',
  gridCaption: (label, B, T) => `${label}: B = ${B} × T = ${T}`,
  cellsNote: 'Cells marked ≠ hold a different attention_mask or label in the other batch.',
  shape: (B, T) => `Both batches: B = ${B} rows × T = ${T} positions.`,
  differing: (list) => `They differ at ${list}.`,
  noDifference: 'No position differs: every cell is the same in both grids.',
  folded: (n) => `${n} identical position${n === 1 ? ' is' : 's are'} folded (⋯).`,
  otherShape: (a, b) => `The batches have different shapes (${a.join(' × ')} and ${b.join(' × ')}), so their positions are not lined up.`,
  showAll: (T) => `Show all ${T} positions`,
  foldAgain: 'Fold identical positions',
  range: (start, end) => (start === end ? `t=${start}` : `t=${start}–${end}`),
};

// "t=3–5, t=9" from [3, 4, 5, 9].
function ranges(list) {
  const parts = [];
  for (let i = 0; i < list.length; i += 1) {
    let j = i;
    while (j + 1 < list.length && list[j + 1] === list[j] + 1) j += 1;
    parts.push(COMPARE_TEXT.range(list[i], list[j]));
    i = j;
  }
  return parts.join(', ');
}

function direction(a, b) {
  if (a.value === b.value || (a.value !== null && b.value !== null && a.text === b.text)) return { key: 'same', text: COMPARE_TEXT.same, glyph: '=' };
  if (typeof a.value === 'number' && typeof b.value === 'number')
    return a.value < b.value ? { key: 'lower', text: COMPARE_TEXT.lower, glyph: '▼' } : { key: 'higher', text: COMPARE_TEXT.higher, glyph: '▲' };
  return { key: 'changed', text: COMPARE_TEXT.changed, glyph: '≠' };
}

function figureTable(answers, buggyLabel, fixedLabel) {
  const rowsBuggy = summaryRows(answers.buggy);
  const rowsFixed = summaryRows(answers.fixed);
  return h(
    'table',
    { class: 'compare-table' },
    h('caption', { class: 'visually-hidden' }, COMPARE_TEXT.tableCaption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, COMPARE_TEXT.figure),
        h('th', { scope: 'col' }, h('span', { class: 'side-tag buggy' }, COMPARE_TEXT.buggy), buggyLabel),
        h('th', { scope: 'col' }, h('span', { class: 'side-tag fixed' }, COMPARE_TEXT.fixed), fixedLabel),
        h('th', { scope: 'col' }, COMPARE_TEXT.versus),
      ),
    ),
    h(
      'tbody',
      {},
      rowsBuggy.map((row) => {
        // Matched by key: a figure only one side asked for (the gradient) reads "—" on the other.
        const other = rowsFixed.find((r) => r.key === row.key) ?? { value: null, text: '—' };
        const dir = direction(row, other);
        return h(
          'tr',
          { dataset: { figure: row.key, differs: dir.key === 'same' ? '0' : '1', direction: dir.key } },
          h('th', { scope: 'row' }, row.label, h('span', { class: 'figure-meaning' }, row.help)),
          h('td', { dataset: { side: 'buggy' } }, row.text),
          h('td', { dataset: { side: 'fixed' } }, other.text),
          h('td', { class: `direction ${dir.key}` }, h('span', { 'aria-hidden': 'true' }, `${dir.glyph} `), dir.text),
        );
      }),
    ),
  );
}

// createComparison: the figures, the note line, the two grids. update() redraws in place.
export function createComparison(container, { buggyLabel = COMPARE_TEXT.defaultBuggy, fixedLabel = COMPARE_TEXT.defaultFixed, headingLevel = 3 } = {}) {
  const tableBox = h('div', { class: 'compare-figures' });
  const noteLine = h('p', { class: 'compare-note' });
  const foldButton = h('button', { type: 'button', class: 'secondary small fold-toggle', hidden: true });
  const bar = h('div', { class: 'compare-bar' }, noteLine, foldButton);
  const panes = h('div', { class: 'compare-grids' });
  const cellsNote = h('p', { class: 'attention-note' }, COMPARE_TEXT.cellsNote);
  const heading = `h${Math.min(6, Math.max(2, headingLevel))}`;

  let last = null; // { answers, requests, cols, allCols }
  let folded = true;
  const grids = {};
  const scrollers = [];
  for (const [side, label] of [['buggy', buggyLabel], ['fixed', fixedLabel]]) {
    const box = h('div', { class: 'pane-grid' });
    panes.append(h('section', { class: `compare-pane ${side}`, 'aria-label': label }, h(heading, {}, h('span', { class: `side-tag ${side}` }, COMPARE_TEXT[side]), label), box));
    grids[side] = createTokenGrid(box, { caption: label, interactive: false, compact: true, onUnfold: (run) => unfold(run) });
    scrollers.push(grids[side].scroller);
  }
  // One scroll position for both panes: scrolling either moves the other to the same offset.
  for (const scroller of scrollers) {
    scroller.addEventListener('scroll', () => {
      for (const other of scrollers) if (other !== scroller && other.scrollLeft !== scroller.scrollLeft) other.scrollLeft = scroller.scrollLeft;
    }, { passive: true });
  }
  replaceChildren(container, h('div', { class: 'comparison' }, tableBox, bar, panes, cellsNote, createLegend()));

  function draw() {
    const { answers, requests, cols } = last;
    const fold = cols.sameShape && cols.runs.length ? cols : null;
    for (const side of ['buggy', 'fixed']) {
      const answer = answers[side];
      const [B, T] = answer.batch.shape;
      grids[side].update(answer, {
        request: requests[side],
        diff: cols.sameShape ? answers[side === 'buggy' ? 'fixed' : 'buggy'] : undefined,
        caption: COMPARE_TEXT.gridCaption(side === 'buggy' ? buggyLabel : fixedLabel, B, T),
        fold,
      });
    }
    const { allCols } = last;
    const foldedCount = cols.hidden.size;
    if (!allCols.sameShape) noteLine.textContent = COMPARE_TEXT.otherShape(answers.buggy.batch.shape, answers.fixed.batch.shape);
    else if (!allCols.differing.length) noteLine.textContent = `${COMPARE_TEXT.shape(...answers.buggy.batch.shape)} ${COMPARE_TEXT.noDifference}`;
    else noteLine.textContent = [COMPARE_TEXT.shape(...answers.buggy.batch.shape), COMPARE_TEXT.differing(ranges(allCols.differing)), foldedCount ? COMPARE_TEXT.folded(foldedCount) : ''].join(' ').trim();
    foldButton.hidden = !allCols.runs.length;
    foldButton.textContent = foldedCount ? COMPARE_TEXT.showAll(allCols.T) : COMPARE_TEXT.foldAgain;
    cellsNote.hidden = !cols.sameShape;
  }

  // Scrolls both panes so the first differing position is the first one after the row names
  // (with one position of context), if it is not in view already. Runs after the frame that
  // lays the grids out, so reading positions costs no extra layout.
  function showFirstDifference() {
    const first = last?.allCols.first;
    if (first === null || first === undefined) return;
    requestAnimationFrame(() => {
      const table = grids.buggy.element;
      const heads = table.tHead?.rows[0]?.cells;
      if (!heads) return;
      const corner = heads[0];
      const target = [...heads].find((th) => th.getAttribute('aria-label') === `position ${first}`);
      const scroller = grids.buggy.scroller;
      if (!target || target.hidden) return;
      const left = target.offsetLeft - corner.offsetWidth;
      const context = target.previousElementSibling && target.previousElementSibling !== corner ? target.previousElementSibling.offsetWidth : 0;
      const inView = target.offsetLeft + target.offsetWidth <= scroller.scrollLeft + scroller.clientWidth && left >= scroller.scrollLeft;
      if (!inView) scroller.scrollLeft = Math.max(0, left - context);
    });
  }

  function unfold(run) {
    if (!last) return;
    last.cols = withoutRun(last.cols, run);
    folded = last.cols.runs.length > 0;
    draw();
  }

  foldButton.addEventListener('click', () => {
    if (!last) return;
    folded = last.cols.hidden.size === 0; // folded now: show all; all shown: fold again
    last.cols = folded ? last.allCols : withoutRun(last.allCols, 'all');
    draw();
  });

  return {
    update({ buggy, fixed, buggyRequest, fixedRequest }) {
      const isFirst = last === null;
      const allCols = compareColumns(buggy, fixed);
      last = { answers: { buggy, fixed }, requests: { buggy: buggyRequest, fixed: fixedRequest }, allCols, cols: folded ? allCols : withoutRun(allCols, 'all') };
      replaceChildren(tableBox, figureTable(last.answers, buggyLabel, fixedLabel));
      draw();
      if (isFirst) showFirstDifference();
    },
  };
}
