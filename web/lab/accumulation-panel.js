// accumulation-panel.js — panel 3 of the normalization lab: gradient accumulation over
// micro-batches with unequal target counts. The mean of micro-batch means (what the Trainer
// logged and back-propagated before transformers 4.46) against the global token mean (summed
// loss / num_items_in_batch, the fix), with each micro-batch's sum and count.
//
//   createAccumulationPanel(section, core, { state, onState, announce })
//
// One core.accumulate call per change; a micro-batch with 0 targets is allowed, and the core
// then explains why the mean of means has no value. Nothing is averaged here.

import { h, replaceChildren } from '../shared/dom.js';
import { formatLoss } from '../shared/format.js';
import { LIMITS, defaultMicro } from './lab-state.js';
import { slider } from './slider.js';
import { toyMicroBatch } from './toy-logits.js';

// Every user-visible string of the panel, in one place.
export const ACCUMULATION_TEXT = {
  count: 'number of micro-batches',
  microBatch: (i) => `Micro-batch ${i + 1}`,
  targets: 'targets',
  targetsValue: (n) => `${n} target${n === 1 ? '' : 's'}`,
  sure: 'toy model’s logit on the right token',
  sureValue: (v) => `logit ${v}`,
  tableCaption: 'Each micro-batch i, scored by the core: targets N_i, summed loss S_i, mean S_i / N_i',
  columns: ['i', 'N_i', 'S_i', 'S_i / N_i'],
  noMean: 'none (0/0)',
  meanOfMeans: 'mean of micro-batch means',
  meanOfMeansHelp: (g) => `(1/${g})·Σ S_i/N_i: the Trainer before transformers 4.46`,
  global: 'global token mean',
  globalHelp: 'Σ S_i / Σ N_i: sum over num_items_in_batch, the fix',
  items: 'num_items_in_batch',
  itemsHelp: 'targets across all micro-batches',
  none: (reason) => `none — ${reason}`,
  emptyMicroBatches: (names) =>
    `${names.join(' and ')} ${names.length === 1 ? 'has' : 'have'} no targets, and a mean over zero targets is 0/0 (NaN in PyTorch)`,
  equalNote: 'With the same number of targets in every micro-batch the two agree; make the counts unequal to see them part.',
  refused: (error) => `The core refused the request: ${error.field}: ${error.message}`,
  announce: (mom, global) => `Mean of micro-batch means ${mom}; global token mean ${global}.`,
};

export function createAccumulationPanel(section, core, { state, onState, announce }) {
  let targets = [...state.microTargets];
  let sure = [...state.microSure];
  const controls = h('div', { class: 'micro-controls' });
  const tableBody = h('tbody');
  const figures = h('dl', { class: 'figures' });
  const error = h('p', { class: 'control-error', role: 'alert', hidden: true });
  const countSelect = h(
    'select',
    { id: 'acc-count', name: 'g' },
    Array.from({ length: LIMITS.microBatches[1] - LIMITS.microBatches[0] + 1 }, (_, i) => {
      const g = LIMITS.microBatches[0] + i;
      return h('option', { value: String(g) }, String(g));
    }),
  );
  countSelect.value = String(targets.length);

  function save() {
    onState({ g: targets.length, microTargets: [...targets], microSure: [...sure] });
  }

  function renderControls() {
    replaceChildren(
      controls,
      targets.map((n, i) =>
        h(
          'fieldset',
          {},
          h('legend', {}, ACCUMULATION_TEXT.microBatch(i)),
          slider({
            id: `acc-n${i + 1}`,
            label: ACCUMULATION_TEXT.targets,
            min: LIMITS.microTargets[0],
            max: LIMITS.microTargets[1],
            value: n,
            format: ACCUMULATION_TEXT.targetsValue,
            onInput: (v) => {
              targets[i] = v;
              save();
              recompute(true);
            },
          }).element,
          slider({
            id: `acc-s${i + 1}`,
            label: ACCUMULATION_TEXT.sure,
            min: LIMITS.sure[0],
            max: LIMITS.sure[1],
            step: 0.5,
            value: sure[i],
            format: ACCUMULATION_TEXT.sureValue,
            onInput: (v) => {
              sure[i] = v;
              save();
              recompute(true);
            },
          }).element,
        ),
      ),
    );
  }

  countSelect.addEventListener('change', () => {
    const g = Number(countSelect.value);
    while (targets.length < g) {
      const d = defaultMicro(targets.length);
      targets.push(d.targets);
      sure.push(d.sure);
    }
    targets = targets.slice(0, g);
    sure = sure.slice(0, g);
    save();
    renderControls();
    recompute(true);
  });

  section.append(
    h(
      'form',
      { class: 'lab-form', novalidate: true },
      h('div', { class: 'control inline' }, h('label', { for: 'acc-count' }, ACCUMULATION_TEXT.count), countSelect),
      controls,
    ),
    error,
    h(
      'div',
      { class: 'table-scroll', role: 'region', 'aria-label': ACCUMULATION_TEXT.tableCaption, tabindex: '0' },
      h('table', { class: 'lab-table' }, h('caption', {}, ACCUMULATION_TEXT.tableCaption), h('thead', {}, h('tr', {}, ACCUMULATION_TEXT.columns.map((c) => h('th', { scope: 'col' }, c)))), tableBody),
    ),
    figures,
    h('p', { class: 'status' }, ACCUMULATION_TEXT.equalNote),
  );
  section.querySelector('form').addEventListener('submit', (event) => event.preventDefault());

  function figure(key, label, value, text, help) {
    return h('div', { dataset: { figure: key } }, h('dt', {}, label), h('dd', { dataset: { value: value === null ? '' : String(value) } }, text), h('dd', { class: 'figure-help' }, help));
  }

  function recompute(speak) {
    const answer = core.accumulate({ micro_batches: targets.map((n, i) => toyMicroBatch(n, sure[i])) });
    if (answer.error) {
      error.hidden = false;
      error.textContent = ACCUMULATION_TEXT.refused(answer.error);
      return;
    }
    error.hidden = true;
    replaceChildren(
      tableBody,
      answer.micro_batches.map((m, i) =>
        h(
          'tr',
          { dataset: { micro: String(i + 1) } },
          h('th', { scope: 'row' }, String(i + 1)),
          h('td', {}, String(m.num_targets)),
          h('td', { dataset: { value: String(m.sum) } }, formatLoss(m.sum)),
          h('td', { dataset: { value: m.mean === null ? '' : String(m.mean) } }, m.mean === null ? ACCUMULATION_TEXT.noMean : formatLoss(m.mean)),
        ),
      ),
    );
    const mom = answer.mean_of_means;
    const global = answer.global_token_mean;
    // Name the empty micro-batches as the table does (1-based); the core's own reason otherwise.
    const empty = answer.micro_batches.flatMap((m, i) => (m.mean === null ? [ACCUMULATION_TEXT.microBatch(i)] : []));
    const reason = empty.length ? ACCUMULATION_TEXT.emptyMicroBatches(empty) : (answer.null_reason ?? '');
    replaceChildren(
      figures,
      figure('acc-mean-of-means', ACCUMULATION_TEXT.meanOfMeans, mom, mom === null ? ACCUMULATION_TEXT.none(reason) : formatLoss(mom), ACCUMULATION_TEXT.meanOfMeansHelp(answer.micro_batches.length)),
      figure('acc-global', ACCUMULATION_TEXT.global, global, global === null ? ACCUMULATION_TEXT.none(reason) : formatLoss(global), ACCUMULATION_TEXT.globalHelp),
      figure('acc-items', ACCUMULATION_TEXT.items, answer.num_items_in_batch, String(answer.num_items_in_batch), ACCUMULATION_TEXT.itemsHelp),
    );
    if (speak) announce(ACCUMULATION_TEXT.announce(mom === null ? ACCUMULATION_TEXT.noMean : formatLoss(mom), global === null ? ACCUMULATION_TEXT.noMean : formatLoss(global)));
  }

  renderControls();
  recompute(false);
}
