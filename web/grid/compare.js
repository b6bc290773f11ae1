// compare.js — "see it break": a buggy and a fixed collator configuration run through the core
// and shown together — a table of the summary figures with each difference called out, then
// the two read-only token grids (side by side when there is room, stacked otherwise) with the
// mask and label cells that differ marked ≠.
//
//   const result = renderComparison(container, core, { buggy, fixed, buggyLabel, fixedLabel, headingLevel, stacked });
//   // result: { ok: true, buggy, fixed } (the two inspect responses) or { ok: false, error }
//
// Each side is one core.inspect call. Nothing is computed here: the figures are the core's,
// and differences are described in words (higher / lower / changed), never by subtracting.
// Not here: the exercise page's text or claims (web/shared/claims.js).

import { h, replaceChildren } from '../shared/dom.js';
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
  differs: 'differs',
  same: 'same',
  higher: (side) => `higher in the ${side} batch`,
  lower: (side) => `lower in the ${side} batch`,
  changed: 'changed',
  gridCaption: (label, B, T) => `${label}: B = ${B} × T = ${T}`,
  error: (label, error) => `The core refused the ${label} request: ${error.field}: ${error.message}`,
  cellsNote: 'Cells marked ≠ hold a different attention_mask or label in the other batch.',
};

function describeDifference(a, b) {
  if (a.value === b.value || (a.value !== null && b.value !== null && a.text === b.text)) return null;
  if (typeof a.value === 'number' && typeof b.value === 'number')
    return a.value < b.value ? COMPARE_TEXT.lower(COMPARE_TEXT.buggy) : COMPARE_TEXT.higher(COMPARE_TEXT.buggy);
  return COMPARE_TEXT.changed;
}

// headingLevel (default 3): the level of the two grids' headings, one below the section's own.
// stacked (default false): one grid above the other even on wide screens (for long batches).
export function renderComparison(
  container,
  core,
  { buggy, fixed, buggyLabel = COMPARE_TEXT.defaultBuggy, fixedLabel = COMPARE_TEXT.defaultFixed, headingLevel = 3, stacked = false },
) {
  const answers = { buggy: core.inspect(buggy), fixed: core.inspect(fixed) };
  for (const [side, label] of [['buggy', buggyLabel], ['fixed', fixedLabel]]) {
    const error = answers[side].error;
    if (error) {
      replaceChildren(container, h('div', { class: 'comparison' }, h('p', { class: 'error-box', role: 'alert' }, COMPARE_TEXT.error(label, error))));
      return { ok: false, error };
    }
  }

  const rowsBuggy = summaryRows(answers.buggy);
  const rowsFixed = summaryRows(answers.fixed);
  const table = h(
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
      ),
    ),
    h(
      'tbody',
      {},
      rowsBuggy.map((row) => {
        // Matched by key: a figure only one side asked for (the gradient) reads "—" on the other.
        const other = rowsFixed.find((r) => r.key === row.key) ?? { value: null, text: '—' };
        const note = describeDifference(row, other);
        return h(
          'tr',
          { dataset: { figure: row.key, differs: note ? '1' : '0' } },
          h('th', { scope: 'row' }, row.label),
          h('td', { class: note ? 'changed' : undefined, dataset: { side: 'buggy' } }, row.text, note ? h('span', { class: 'diff-note' }, `≠ ${note}`) : null),
          h('td', { class: note ? 'changed' : undefined, dataset: { side: 'fixed' } }, other.text, note ? null : h('span', { class: 'visually-hidden' }, ` (${COMPARE_TEXT.same})`)),
        );
      }),
    ),
  );

  const sameShape =
    answers.buggy.batch.shape[0] === answers.fixed.batch.shape[0] && answers.buggy.batch.shape[1] === answers.fixed.batch.shape[1];
  const grids = h('div', { class: stacked ? 'compare-grids stacked' : 'compare-grids' });
  for (const [side, label, request] of [['buggy', buggyLabel, buggy], ['fixed', fixedLabel, fixed]]) {
    const box = h('div');
    const heading = `h${Math.min(6, Math.max(2, headingLevel))}`;
    const section = h('section', { 'aria-label': label }, h(heading, {}, h('span', { class: `side-tag ${side}` }, COMPARE_TEXT[side]), label), box);
    grids.append(section);
    const answer = answers[side];
    const [B, T] = answer.batch.shape;
    createTokenGrid(box, { caption: COMPARE_TEXT.gridCaption(label, B, T), interactive: false }).update(answer, {
      request,
      diff: sameShape ? answers[side === 'buggy' ? 'fixed' : 'buggy'] : undefined,
    });
  }

  replaceChildren(
    container,
    h('div', { class: 'comparison' }, table, grids, sameShape ? h('p', { class: 'attention-note' }, COMPARE_TEXT.cellsNote) : null, createLegend()),
  );
  return { ok: true, buggy: answers.buggy, fixed: answers.fixed };
}
