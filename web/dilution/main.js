// dilution/main.js — the worked loss-dilution page (dilution.html): a slider for the number of
// extra pads k, the headline figures, the plot of reported loss against pad share (buggy vs
// fixed), the step-by-step derivation with this batch's numbers, and the two batches as
// read-only token grids.
//
// Every number is a core.inspect answer (sweep.js asks once per k and labelling, without the
// attention view this page never draws, and keeps the answers). What waits, and why:
//   - the headline for the k on the slider is drawn as soon as the core is ready, and on every
//     slider step before anything else, so it keeps up with a drag (one frame);
//   - the plot (uPlot) loads and draws when its section comes near the screen or the page is
//     idle; the derivation (KaTeX, the largest library here) and the grids only when near;
//   - during a drag the plot, grids and derivation redraw once the slider pauses, and the live
//     region and the URL follow the last value.
// Nothing is computed here.

import { h, liveRegion, replaceChildren } from '../shared/dom.js';
import { showUrlNote } from '../shared/url-note.js';
import { formatLoss, formatNumber, formatShare } from '../shared/format.js';
import { initPage } from '../shared/page.js';
import { renderEmbedPanelLater } from '../shared/share-later.js';
import { defineState } from '../shared/url-state.js';
import { latest, painted, renderLater } from '../shared/later.js';
import { loadCore } from '../core/masklab.js';
import { MAX_EXTRA_PADS } from './dilution-batch.js';
import { createSweep } from './sweep.js';
import './dilution.css';

// Every user-visible string of the page script, in one place.
const TEXT = {
  ready: 'Computed by the WebAssembly core.',
  loadFailed: (message) => `The WebAssembly core could not be loaded: ${message}. Reload the page to try again.`,
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
  drawing: 'Drawing…',
  sectionFailed: (message) => `This part could not be loaded: ${message}. Reload the page to try again.`,
};

// How long the slider must rest before the plot, grids and derivation follow it.
const SETTLE_MS = 120;

const STATE = defineState({ pads: { type: 'int', min: 0, max: MAX_EXTRA_PADS, default: 8 } }, { reportUnknown: true });

initPage({ widget: 'dilution' });
const corePromise = loadCore(); // fetched and compiled while the page is built
corePromise.catch(() => {}); // reported below, never an unhandled rejection
await painted(); // the page's HTML is painted first
renderEmbedPanelLater(document.getElementById('share-panel'), { page: 'dilution.html', title: 'masklab loss dilution', height: 1200 });

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
  showUrlNote(urlNote, problems.map((p) => p.message));
}
slider.max = String(MAX_EXTRA_PADS);
slider.value = String(state.pads);
document.getElementById('pads-form').addEventListener('submit', (event) => event.preventDefault());

function fail(message) {
  status.textContent = message;
  status.setAttribute('role', 'alert');
  status.classList.add('error-box');
  document.body.dataset.state = 'error';
}

// The headline: four figures built once, then rewritten in place (a slider step must paint
// within one frame, so it touches four text nodes and four attributes, nothing more).
const FIGURES = ['buggy', 'fixed', 'share', 'factor'];
const figureValues = {};
replaceChildren(
  headline,
  FIGURES.map((key) => {
    figureValues[key] = h('dd');
    return h('div', { dataset: { figure: key } }, h('dt', {}, TEXT.figures[key]), figureValues[key]);
  }),
);

function setFigure(key, value, text) {
  const dd = figureValues[key];
  dd.dataset.value = String(value);
  if (dd.textContent !== text) dd.textContent = text;
}

function drawHeadline(answers, k) {
  const b = answers.buggy.summary;
  const f = answers.fixed.summary;
  const T = answers.buggy.batch.shape[1];
  const value = TEXT.padsValue(k, T);
  if (output.textContent !== value) output.textContent = value;
  slider.setAttribute('aria-valuetext', value);
  setFigure('buggy', b.loss, formatLoss(b.loss));
  setFigure('fixed', f.loss, formatLoss(f.loss));
  setFigure('share', b.pad_share, formatShare(b.pad_share));
  setFigure('factor', b.dilution_factor, formatNumber(b.dilution_factor, 4));
}

// A section drawn later: `load()` imports its module and returns { update(k) }. Until then the
// section says "Drawing…"; a failed import is shown in the section, not thrown.
function lazySection(id, load, { until } = {}) {
  const box = document.getElementById(id);
  const placeholder = h('p', { class: 'status loading' }, TEXT.drawing);
  box.append(placeholder);
  let view = null;
  let wanted = null;
  const handle = {
    show(k) {
      wanted = k;
      view?.update(k);
    },
  };
  // The box is watched, not its section: what must be drawn when it scrolls into view is the box,
  // and the heading above it is no reason to fetch KaTeX.
  renderLater(box, async () => {
    try {
      view = await load(box);
    } catch (error) {
      replaceChildren(box, h('p', { class: 'error-box', role: 'alert' }, TEXT.sectionFailed(error.message)));
      return;
    }
    placeholder.remove();
    if (wanted !== null) view.update(wanted);
  }, { until });
  return handle;
}

try {
  const core = await corePromise;
  const sweep = createSweep(core);
  drawHeadline(sweep.at(state.pads), state.pads);
  status.textContent = TEXT.ready;
  document.body.dataset.state = 'ready';

  const plot = lazySection('plot', async (box) => {
    const { createLossPlot } = await import('./plot.js');
    const chart = createLossPlot(box);
    // The plot needs every k: the rest of the sweep is computed now, in small slices.
    await sweep.complete();
    const all = sweep.all();
    const points = { share: all.map((a) => a.buggy.summary.pad_share), buggy: all.map((a) => a.buggy.summary.loss), fixed: all.map((a) => a.fixed.summary.loss) };
    return { update: (k) => chart.update({ ...points, current: k }) };
  });
  const derivation = lazySection('derivation', async (box) => {
    const { createDerivation } = await import('./derivation.js');
    const view = createDerivation(box);
    return { update: (k) => view.update({ ...sweep.at(k), k }) };
  }, { until: 'visible' });
  const grids = lazySection(
    'batch-grid',
    async (box) => {
      const { createComparison } = await import('../grid/compare.js');
      const view = createComparison(box, { buggyLabel: TEXT.buggyLabel, fixedLabel: TEXT.fixedLabel });
      return {
        update(k) {
          const answers = sweep.at(k);
          view.update({ buggy: answers.buggy, fixed: answers.fixed, buggyRequest: answers.request.buggy, fixedRequest: answers.request.fixed });
        },
      };
    },
    { until: 'visible' },
  );
  for (const section of [plot, derivation, grids]) section.show(state.pads);

  // Everything but the headline follows the slider once it rests.
  const follow = latest((k) => {
    STATE.write({ pads: k });
    const b = sweep.at(k).buggy.summary;
    const f = sweep.at(k).fixed.summary;
    announcer.textContent = TEXT.announce(k, formatShare(b.pad_share), formatLoss(b.loss), formatLoss(f.loss), formatNumber(b.dilution_factor, 4));
    for (const section of [plot, derivation, grids]) section.show(k);
  }, { delayMs: SETTLE_MS });

  slider.addEventListener('input', () => {
    const k = Number(slider.value);
    if (k === state.pads) return;
    state = { pads: k };
    drawHeadline(sweep.at(k), k);
    follow(k);
  });
} catch (error) {
  fail(error.message.startsWith('The core') ? error.message : TEXT.loadFailed(error.message));
}
