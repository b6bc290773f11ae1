// mean-panel.js — panel 2 of the normalization lab: one batch with a short and a long response,
// averaged two ways. The global token mean (PyTorch 'mean': every target weighs the same)
// against the mean of per-example means (every response weighs the same).
//
//   createMeanPanel(section, core, { state, onState, announce })
//
// The batch is two rows of toy logits (toy-logits.js); the core scores it: reduction 'mean'
// (global token mean, plus each row's mean and target count), reduction 'per_example_mean', and
// reduction 'sum' on each row alone for the row sums. Nothing is averaged here.

import { h, replaceChildren } from '../shared/dom.js';
import { formatLoss } from '../shared/format.js';
import { LIMITS } from './lab-state.js';
import { slider } from './slider.js';
import { TOY_VOCAB, toyBatch } from './toy-logits.js';

// Every user-visible string of the panel, in one place.
export const MEAN_TEXT = {
  rows: { short: 'Short response', long: 'Long response' },
  rowHeads: { short: 'short', long: 'long' },
  targets: 'targets (scored tokens)',
  sure: 'how sure the toy model is (its logit on the right token)',
  sureValue: (v) => `logit ${v}`,
  targetsValue: (n) => `${n} target${n === 1 ? '' : 's'}`,
  tableCaption: 'Each response, scored by the core: its targets, the sum of their token losses, and their mean',
  columns: ['response', 'targets', 'sum', 'mean'],
  global: 'global token mean (PyTorch mean)',
  globalHelp: (n) => `all ${n} targets weigh the same`,
  perExample: 'mean of per-example means',
  perExampleHelp: 'each response weighs the same, whatever its length',
  weights: (ns, nl, total) =>
    `In the global mean each of the ${total} targets weighs 1/${total}. In the mean of means a short-response target weighs 1/(2·${ns}) and a long-response target 1/(2·${nl}): the short response’s tokens count for more.`,
  refused: (error) => `The core refused the request: ${error.field}: ${error.message}`,
  announce: (g, m) => `Global token mean ${g}; mean of per-example means ${m}.`,
  model: `The toy model puts its logit on the right next token and 0 on the other ${TOY_VOCAB - 1} ids of an ${TOY_VOCAB}-id vocabulary, so every target of a response has the same loss, smaller the surer the model is.`,
};

export function createMeanPanel(section, core, { state, onState, announce }) {
  const current = { ns: state.ns, nl: state.nl, ss: state.ss, sl: state.sl };
  const tableBody = h('tbody');
  const figures = h('dl', { class: 'figures' });
  const weights = h('p');
  const error = h('p', { class: 'control-error', role: 'alert', hidden: true });

  const change = (key) => (value) => {
    current[key] = value;
    onState({ [key]: value });
    recompute(true);
  };
  const sets = [
    ['short', 'ns', 'ss', LIMITS.rowTargets.short],
    ['long', 'nl', 'sl', LIMITS.rowTargets.long],
  ].map(([row, nKey, sKey, [min, max]]) =>
    h(
      'fieldset',
      {},
      h('legend', {}, MEAN_TEXT.rows[row]),
      slider({ id: `mean-${nKey}`, label: MEAN_TEXT.targets, min, max, value: current[nKey], format: MEAN_TEXT.targetsValue, onInput: change(nKey) }).element,
      slider({ id: `mean-${sKey}`, label: MEAN_TEXT.sure, min: LIMITS.sure[0], max: LIMITS.sure[1], step: 0.5, value: current[sKey], format: MEAN_TEXT.sureValue, onInput: change(sKey) }).element,
    ),
  );

  section.append(
    h('p', { class: 'model-note' }, MEAN_TEXT.model),
    h('form', { class: 'lab-form', novalidate: true }, sets),
    error,
    h(
      'div',
      { class: 'table-scroll', role: 'region', 'aria-label': MEAN_TEXT.tableCaption, tabindex: '0' },
      h('table', { class: 'lab-table' }, h('caption', {}, MEAN_TEXT.tableCaption), h('thead', {}, h('tr', {}, MEAN_TEXT.columns.map((c) => h('th', { scope: 'col' }, c)))), tableBody),
    ),
    figures,
    weights,
  );
  section.querySelector('form').addEventListener('submit', (event) => event.preventDefault());

  function ask(request) {
    const answer = core.loss(request);
    if (answer.error) throw answer.error;
    return answer;
  }

  function recompute(speak) {
    const { logits, labels } = toyBatch([current.ns, current.nl], [current.ss, current.sl]);
    let mean;
    let perExample;
    let rowSums;
    try {
      mean = ask({ logits, labels, reduction: 'mean' });
      perExample = ask({ logits, labels, reduction: 'per_example_mean' });
      rowSums = labels.map((row, b) => ask({ logits: [logits[b]], labels: [row], reduction: 'sum' }).loss);
    } catch (e) {
      error.hidden = false;
      error.textContent = MEAN_TEXT.refused(e);
      return;
    }
    error.hidden = true;
    replaceChildren(
      tableBody,
      ['short', 'long'].map((row, b) =>
        h(
          'tr',
          { dataset: { row } },
          h('th', { scope: 'row' }, MEAN_TEXT.rowHeads[row]),
          h('td', {}, String(mean.per_example_targets[b])),
          h('td', { dataset: { value: String(rowSums[b]) } }, formatLoss(rowSums[b])),
          h('td', { dataset: { value: String(mean.per_example_loss[b]) } }, formatLoss(mean.per_example_loss[b])),
        ),
      ),
    );
    replaceChildren(
      figures,
      h('div', { dataset: { figure: 'global' } }, h('dt', {}, MEAN_TEXT.global), h('dd', { dataset: { value: String(mean.loss) } }, formatLoss(mean.loss)), h('dd', { class: 'figure-help' }, MEAN_TEXT.globalHelp(mean.num_targets))),
      h('div', { dataset: { figure: 'per-example' } }, h('dt', {}, MEAN_TEXT.perExample), h('dd', { dataset: { value: String(perExample.loss) } }, formatLoss(perExample.loss)), h('dd', { class: 'figure-help' }, MEAN_TEXT.perExampleHelp)),
    );
    weights.textContent = MEAN_TEXT.weights(mean.per_example_targets[0], mean.per_example_targets[1], mean.num_targets);
    if (speak) announce(MEAN_TEXT.announce(formatLoss(mean.loss), formatLoss(perExample.loss)));
  }

  recompute(false);
}
