// figures.js — the numbers that explain the damage, as the core computed them (answer.figures):
// shape and padding, pad share, targets, the dilution factor, the tiny bigram's reported loss
// with and without the pad targets, and each row's weight under the token mean and under the
// mean of row means. Only formatting happens here.
//
//   renderFigures(container, figures)

import { h, replaceChildren } from '../shared/dom.js';
import { formatLoss, formatNumber, formatShare } from '../shared/format.js';

// Every user-visible string of the figures, in one place.
export const FIGURES_TEXT = {
  shape: 'batch shape',
  shapeValue: (f) => (f.partial ? `${f.shown[0]} × ${f.shown[1]} shown` : `${f.shape[0]} × ${f.shape[1]}`),
  shapeHelp: (f) =>
    f.partial ? 'PyTorch elided the rest with “...”; the figures count the cells shown' : `${f.form} · ${f.fields.join(', ')}`,
  padding: 'padding',
  paddingValue: (f) => (f.padding_from ? f.padding_side : 'unknown'),
  paddingHelp: (f) =>
    f.padding_from === 'attention_mask'
      ? 'read from attention_mask'
      : f.padding_from === 'pad_token_id'
        ? 'read from runs of pad_token_id'
        : f.padding_from === 'unpadded'
          ? 'rows have their own lengths'
          : 'give pad_token_id or paste the attention_mask',
  padShare: 'pad share',
  padShareHelp: (f) => `${f.pads} pads / ${f.pads + f.real_tokens} cells`,
  targets: 'targets scored',
  targetsHelp: (f) => (f.pad_targets === null ? 'labels the loss scores' : `${f.real_targets} at real tokens, ${f.pad_targets} at pads`),
  dilution: 'dilution factor',
  dilutionHelp: 'real targets / all targets: the weight left on each real token in the token mean',
  reported: 'reported loss (tiny bigram)',
  reportedHelp: 'the token mean a trainer would log, from a bigram fitted on these labels',
  without: 'without the pad targets',
  withoutHelp: 'the same bigram refitted and scored with pad labels set to −100',
  perExample: 'mean of row means',
  perExampleHelp: 'none when a row has no target (0/0)',
  none: '—',
  lossNote: (note) => note,
  rowsTitle: 'Per row',
  rowsCaption: 'Each row: real tokens, pads, scored targets, and its weight under two reductions',
  rowHeads: ['row', 'real tokens', 'pads', 'targets', 'pad targets', 'weight, token mean', 'weight, mean of row means'],
  rowsMore: (n) => `… and ${n} more rows`,
  noWeight: 'none (0/0)',
};

const MAX_TABLE_ROWS = 64;

function figure(key, label, text, help, value) {
  return h(
    'div',
    { dataset: { figure: key } },
    h('dt', {}, label),
    h('dd', { dataset: { value: value === undefined || value === null ? '' : String(value) } }, text),
    help ? h('dd', { class: 'figure-help' }, help) : null,
  );
}

export function renderFigures(container, f) {
  const T = FIGURES_TEXT;
  const items = [
    figure('shape', T.shape, T.shapeValue(f), T.shapeHelp(f)),
    figure('padding', T.padding, T.paddingValue(f), T.paddingHelp(f)),
  ];
  if (f.pad_share !== null) items.push(figure('pad_share', T.padShare, formatShare(f.pad_share), T.padShareHelp(f), f.pad_share));
  if (f.targets !== null) items.push(figure('targets', T.targets, String(f.targets), T.targetsHelp(f), f.targets));
  if (f.dilution_factor !== null)
    items.push(figure('dilution_factor', T.dilution, formatNumber(f.dilution_factor, 4), T.dilutionHelp, f.dilution_factor));
  if (f.loss) {
    items.push(figure('reported', T.reported, formatLoss(f.loss.reported), T.reportedHelp, f.loss.reported));
    if (f.loss.without_pad_targets !== null)
      items.push(figure('without_pad_targets', T.without, formatLoss(f.loss.without_pad_targets), T.withoutHelp, f.loss.without_pad_targets));
    items.push(
      figure('per_example_mean', T.perExample, formatLoss(f.loss.per_example_mean), T.perExampleHelp, f.loss.per_example_mean),
    );
  }
  const rows = f.rows.slice(0, MAX_TABLE_ROWS);
  const table =
    f.targets === null
      ? null
      : h(
          'div',
          { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': T.rowsCaption },
          h(
            'table',
            { class: 'row-figures' },
            h('caption', {}, T.rowsCaption),
            h('thead', {}, h('tr', {}, T.rowHeads.map((text) => h('th', { scope: 'col' }, text)))),
            h(
              'tbody',
              {},
              rows.map((r) =>
                h(
                  'tr',
                  {},
                  h('th', { scope: 'row' }, String(r.row)),
                  h('td', {}, String(r.real_tokens)),
                  h('td', {}, String(r.pads)),
                  h('td', {}, String(r.targets)),
                  h('td', {}, String(r.pad_targets)),
                  h('td', {}, r.weight_token_mean === null ? T.none : formatShare(r.weight_token_mean)),
                  h('td', {}, r.weight_per_example === null ? T.noWeight : formatShare(r.weight_per_example)),
                ),
              ),
            ),
          ),
          f.rows.length > rows.length ? h('p', { class: 'more-rows' }, T.rowsMore(f.rows.length - rows.length)) : null,
        );
  replaceChildren(
    container,
    h('dl', { class: 'figures doctor-figures' }, items),
    f.loss_note ? h('p', { class: 'loss-note' }, T.lossNote(f.loss_note)) : null,
    table ? h('h3', {}, T.rowsTitle) : null,
    table,
  );
}
