// batch-view.js — the first batch of the run, as each collator built it: input tokens,
// attention_mask, labels and position_ids per row, buggy above fixed, with every cell that
// differs between the two marked ≠ (a glyph, not only a colour).
//
//   renderBatches(container, { vocab, buggy, fixed, rows: 3 });   // the workers' `batch` payloads
//
// A batch is { B, T, input_ids, attention_mask, labels, position_ids } (Int32Array, [B,T]
// row-major), exactly what the model read at step 1, with the step's `weights` (the core's: how
// much one target of each row, or micro-batch, counts in the loss). Read-only: the token grid page
// is where cells are flipped. Nothing is computed here.

import { h, replaceChildren } from '../shared/dom.js';
import { formatId, formatShare } from '../shared/format.js';

// Every user-visible string of the batch view, in one place.
export const BATCH_TEXT = {
  runs: { buggy: 'Buggy collator', fixed: 'Fixed collator' },
  caption: (label, shown, B, T) => `${label}: the first ${shown} of ${B} rows (B = ${B}, T = ${T})`,
  fields: { tokens: 'tokens', attention_mask: 'attention_mask', labels: 'labels', position_ids: 'position_ids' },
  row: (b) => `row ${b + 1}`,
  position: (t) => `t=${t}`,
  differs: 'differs from the other collator',
  note: 'Cells marked ≠ differ between the two collators. Pads are hatched; a label of −100 is not trained.',
  weightsTitle: 'How much each target counts in this step’s loss',
  weightsIntro: 'The weight the loss gives one target (its share of the step’s loss), by row, or by micro-batch under gradient accumulation. With the token mean every target of the step weighs the same.',
  weightsCaption: 'Targets and the weight of one target, per group, in both runs at step 1',
  groups: { rows: 'row', 'micro-batches': 'micro-batch' },
  weightColumns: (group) => [group, 'targets, buggy', 'weight of one target, buggy', 'targets, fixed', 'weight of one target, fixed'],
};

const FIELDS = ['tokens', 'attention_mask', 'labels', 'position_ids'];

function value(batch, field, i) {
  return field === 'tokens' ? batch.input_ids[i] : batch[field][i];
}

function cellText(vocab, field, v) {
  if (field === 'tokens') return vocab[v] ?? String(v);
  return formatId(v);
}

function table(vocab, run, batch, other, shown) {
  const { T } = batch;
  const body = [];
  for (let b = 0; b < shown; b += 1) {
    FIELDS.forEach((field, k) => {
      const cells = [];
      for (let t = 0; t < T; t += 1) {
        const i = b * T + t;
        const v = value(batch, field, i);
        const differs = other && other.T === T && value(other, field, i) !== v;
        const pad = batch.attention_mask[i] === 0 || (field === 'tokens' && vocab[v] === '<pad>');
        const ignored = field === 'labels' && v === -100;
        cells.push(
          h(
            'td',
            { class: [pad ? 'pad' : '', ignored ? 'ignored' : '', differs ? 'differs' : ''].filter(Boolean).join(' ') || undefined },
            cellText(vocab, field, v),
            differs ? h('span', { class: 'differs-mark', title: BATCH_TEXT.differs }, h('span', { 'aria-hidden': 'true' }, '≠'), h('span', { class: 'visually-hidden' }, ` (${BATCH_TEXT.differs})`)) : null,
          ),
        );
      }
      body.push(
        h(
          'tr',
          { class: k === 0 ? 'row-start' : undefined },
          k === 0 ? h('th', { scope: 'rowgroup', rowspan: String(FIELDS.length) }, BATCH_TEXT.row(b)) : null,
          h('th', { scope: 'row' }, BATCH_TEXT.fields[field]),
          cells,
        ),
      );
    });
  }
  const header = h('tr', {}, h('td', { colspan: '2' }), Array.from({ length: T }, (_, t) => h('th', { scope: 'col' }, BATCH_TEXT.position(t))));
  return h(
    'div',
    { class: 'table-scroll', role: 'region', 'aria-label': BATCH_TEXT.runs[run], tabindex: '0' },
    h('table', { class: 'batch-table', dataset: { run } }, h('caption', {}, BATCH_TEXT.caption(BATCH_TEXT.runs[run], shown, batch.B, T)), h('thead', {}, header), h('tbody', {}, body)),
  );
}

function weightsTable(buggy, fixed) {
  const group = BATCH_TEXT.groups[buggy.weights.groups] ?? buggy.weights.groups;
  const n = Math.min(buggy.weights.targets.length, fixed.weights.targets.length);
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    rows.push(
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, `${group} ${i + 1}`),
        h('td', {}, String(buggy.weights.targets[i])),
        h('td', { dataset: { weight: String(buggy.weights.weights[i]) } }, formatShare(buggy.weights.weights[i])),
        h('td', {}, String(fixed.weights.targets[i])),
        h('td', { dataset: { weight: String(fixed.weights.weights[i]) } }, formatShare(fixed.weights.weights[i])),
      ),
    );
  }
  return [
    h('h3', {}, BATCH_TEXT.weightsTitle),
    h('p', {}, BATCH_TEXT.weightsIntro),
    h(
      'div',
      { class: 'table-scroll', role: 'region', 'aria-label': BATCH_TEXT.weightsCaption, tabindex: '0' },
      h(
        'table',
        { class: 'train-table weights' },
        h('caption', {}, BATCH_TEXT.weightsCaption),
        h('thead', {}, h('tr', {}, BATCH_TEXT.weightColumns(group).map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, rows),
      ),
    ),
  ];
}

export function renderBatches(container, { vocab, buggy, fixed, rows = 3 }) {
  const shown = Math.min(rows, buggy.B, fixed.B);
  replaceChildren(
    container,
    h('p', {}, BATCH_TEXT.note),
    table(vocab, 'buggy', buggy, fixed, shown),
    table(vocab, 'fixed', fixed, buggy, shown),
    weightsTable(buggy, fixed),
  );
}
