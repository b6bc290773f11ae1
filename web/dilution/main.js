// dilution/main.js — the worked loss-dilution page (dilution.html): a slider for the number of
// extra pads k, the plot of reported loss against pad share (buggy vs fixed), the step-by-step
// derivation with this batch's numbers, and the batch itself as a read-only token grid.
//
// Every point is a core.inspect answer: for each k in 0..MAX_EXTRA_PADS the page asks the core
// once with labels = input_ids and once with pads labelled −100, and keeps the answers. Moving
// the slider redraws from them (the side-by-side grids ask the core again through compare.js).
// Nothing is computed here.

import { h, liveRegion, replaceChildren } from '../shared/dom.js';
import { formatLoss, formatNumber, formatShare } from '../shared/format.js';
import { initPage } from '../shared/page.js';
import { renderEmbedPanel } from '../shared/embed-panel.js';
import { defineState } from '../shared/url-state.js';
import { loadCore } from '../core/masklab.js';
import { renderComparison } from '../grid/compare.js';
import { createDerivation } from './derivation.js';
import { MAX_EXTRA_PADS, baseRequest, dilutionRequest } from './dilution-batch.js';
import { createLossPlot } from './plot.js';
import './dilution.css';

// Every user-visible string of the page script, in one place.
const TEXT = {
  ready: 'Computed by the WebAssembly core.',
  loadFailed: (message) => `The WebAssembly core could not be loaded: ${message}. Reload the page to try again.`,
  coreRefused: (k, error) => `The core refused the batch for k = ${k}: ${error.field}: ${error.message}`,
  urlProblems: 'Some of the link’s settings could not be used:',
  padsValue: (k, T) => `k = ${k} → max_length ${T}`,
  figures: {
    buggy: 'reported loss, labels = input_ids',
    fixed: 'reported loss, pads −100',
    share: 'pad share',
    factor: 'weight left on each real token',
  },
  announce: (k, share, buggy, fixed, factor) =>
    `k = ${k}: pad share ${share}; reported loss ${buggy} with labels = input_ids, ${fixed} with pads masked; each real token keeps ${factor} of its weight.`,
  buggyLabel: 'labels = input_ids',
  fixedLabel: 'pads labelled −100',
};

const STATE = defineState({ pads: { type: 'int', min: 0, max: MAX_EXTRA_PADS, default: 8 } });

initPage({ widget: 'dilution' });
renderEmbedPanel(document.getElementById('share-panel'), { page: 'dilution.html', title: 'masklab loss dilution', height: 1200 });

const status = document.getElementById('status');
const urlNote = document.getElementById('url-note');
const slider = document.getElementById('pads');
const output = document.getElementById('pads-value');
const headline = document.getElementById('headline');
const announcer = liveRegion();
document.body.append(announcer);

const { state: initial, problems } = STATE.read();
let state = initial;
if (problems.length) {
  urlNote.hidden = false;
  replaceChildren(urlNote, h('strong', {}, TEXT.urlProblems), h('ul', {}, problems.map((p) => h('li', {}, p.message))));
}
slider.max = String(MAX_EXTRA_PADS);
slider.value = String(state.pads);
document.getElementById('pads-form').addEventListener('submit', (event) => event.preventDefault());

const plot = createLossPlot(document.getElementById('plot'));
const derivation = createDerivation(document.getElementById('derivation'));
const batchBox = document.getElementById('batch-grid');

function fail(message) {
  status.textContent = message;
  status.setAttribute('role', 'alert');
  status.classList.add('error-box');
}

function figure(key, label, value, text) {
  return h('div', { dataset: { figure: key } }, h('dt', {}, label), h('dd', { dataset: { value: String(value) } }, text));
}

// answers[k] = { buggy, fixed, request: { buggy, fixed } }
function collect(core) {
  const base = core.inspect(baseRequest());
  if (base.error) throw new Error(TEXT.coreRefused(0, base.error));
  const longest = base.batch.shape[1];
  const answers = [];
  for (let k = 0; k <= MAX_EXTRA_PADS; k += 1) {
    const request = { buggy: dilutionRequest('buggy', longest, k), fixed: dilutionRequest('fixed', longest, k) };
    const buggy = core.inspect(request.buggy);
    const fixed = core.inspect(request.fixed);
    for (const answer of [buggy, fixed]) if (answer.error) throw new Error(TEXT.coreRefused(k, answer.error));
    answers.push({ buggy, fixed, request });
  }
  return answers;
}

function show(core, answers, { announce }) {
  const k = state.pads;
  const { buggy, fixed, request } = answers[k];
  const b = buggy.summary;
  const f = fixed.summary;
  const T = buggy.batch.shape[1];
  output.textContent = TEXT.padsValue(k, T);
  slider.setAttribute('aria-valuetext', TEXT.padsValue(k, T));
  replaceChildren(
    headline,
    figure('buggy', TEXT.figures.buggy, b.loss, formatLoss(b.loss)),
    figure('fixed', TEXT.figures.fixed, f.loss, formatLoss(f.loss)),
    figure('share', TEXT.figures.share, b.pad_share, formatShare(b.pad_share)),
    figure('factor', TEXT.figures.factor, b.dilution_factor, formatNumber(b.dilution_factor, 4)),
  );
  plot.update({
    share: answers.map((a) => a.buggy.summary.pad_share),
    buggy: answers.map((a) => a.buggy.summary.loss),
    fixed: answers.map((a) => a.fixed.summary.loss),
    current: k,
  });
  derivation.update({ buggy, fixed, k });
  renderComparison(batchBox, core, { buggy: request.buggy, fixed: request.fixed, buggyLabel: TEXT.buggyLabel, fixedLabel: TEXT.fixedLabel, stacked: true });
  if (announce)
    announcer.textContent = TEXT.announce(k, formatShare(b.pad_share), formatLoss(b.loss), formatLoss(f.loss), formatNumber(b.dilution_factor, 4));
  document.body.dataset.state = 'ready';
}

try {
  const core = await loadCore();
  const answers = collect(core);
  status.textContent = TEXT.ready;
  show(core, answers, { announce: false });
  slider.addEventListener('input', () => {
    state = { pads: Number(slider.value) };
    STATE.write(state);
    show(core, answers, { announce: true });
  });
} catch (error) {
  fail(error.message.startsWith('The core') ? error.message : TEXT.loadFailed(error.message));
}
