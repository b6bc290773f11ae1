// core-demo.js — the home page's live demo: a two-row batch collated and scored by the wasm core.
//
//   startCoreDemo();   // fills #batch-table, #loss-value, #loss-targets; sets body[data-state]
//
// Only asks the core and writes its answers with DOM APIs (never HTML strings). The requests
// live in demo-batch.js, shared with tests/browser/demo.test.mjs. Not here: the rest of the home
// page (exercise-list.js).

import { loadCore } from '../core/masklab.js';
import { DEMO_COLLATE_REQUEST, DEMO_RIGHT_LOGIT, DEMO_VOCAB_SIZE, demoLossRequest } from '../demo-batch.js';
import { formatId, formatLoss } from '../shared/format.js';

// Every user-visible string of the demo, in one place.
export const DEMO_TEXT = {
  loading: 'Loading the WebAssembly core…',
  ready: 'Computed just now by the WebAssembly core.',
  loadFailed: (message) => `The WebAssembly core could not be loaded: ${message}. Reload to try again.`,
  coreRefused: (step, error) => `The core refused the ${step} request: ${error.field}: ${error.message}`,
  positionPrefix: 't=',
  rowLabel: (b, name) => `row ${b} · ${name}`,
  corner: 'row · tensor',
  caption: (B, T) => `The collated batch, shape [B, T] = [${B}, ${T}]; pad cells are shaded and hold the pad value`,
  lossExplainer: (vocab, logit) =>
    `A toy model puts logit ${logit} on the token that really comes next and 0 on the other ` +
    `${vocab - 1} ids. Logit t is scored against labels[t + 1]; positions whose next label is ` +
    `−100 (padding, or the end of a row) are skipped.`,
  noLoss: (reason) => `none (${reason})`,
};

const FIELDS = ['input_ids', 'attention_mask', 'labels'];

function cell(tag, text, className) {
  const element = document.createElement(tag);
  element.textContent = text;
  if (className) element.className = className;
  return element;
}

// One table row per (batch row, tensor); one column per position t. Pad cells are shaded and
// carry their value as text, so the state never depends on colour alone.
function renderBatch(batch) {
  const table = document.getElementById('batch-table');
  const [B, T] = batch.shape; // from the core, like every number on the page
  document.getElementById('batch-caption').textContent = DEMO_TEXT.caption(B, T);
  const head = document.createElement('tr');
  const corner = cell('th', DEMO_TEXT.corner, 'corner');
  corner.scope = 'col';
  head.append(corner);
  for (let t = 0; t < T; t += 1) {
    // "t=" in its own span, which a phone hides from view (not from screen readers) for room.
    const th = cell('th', String(t));
    th.prepend(cell('span', DEMO_TEXT.positionPrefix, 't-name'));
    th.scope = 'col';
    head.append(th);
  }
  table.tHead.replaceChildren(head);

  const rows = [];
  batch.input_ids.forEach((_, b) => {
    FIELDS.forEach((name, i) => {
      const tr = document.createElement('tr');
      if (i === 0) tr.className = 'first-of-example';
      const th = cell('th', DEMO_TEXT.rowLabel(b, name));
      th.scope = 'row';
      tr.append(th);
      batch[name][b].forEach((value, t) => {
        const isPad = batch.attention_mask[b][t] === 0;
        const td = cell('td', formatId(value), isPad ? 'pad' : '');
        td.dataset.value = String(value);
        tr.append(td);
      });
      rows.push(tr);
    });
  });
  table.tBodies[0].replaceChildren(...rows);
  document.getElementById('batch-section').hidden = false;
}

function renderLoss(answer) {
  document.getElementById('loss-explainer').textContent = DEMO_TEXT.lossExplainer(DEMO_VOCAB_SIZE, DEMO_RIGHT_LOGIT);
  const value = document.getElementById('loss-value');
  value.textContent = answer.loss === null ? DEMO_TEXT.noLoss(answer.loss_null_reason) : formatLoss(answer.loss);
  // The exact number, for anyone (or any test) who wants more than four decimals.
  value.dataset.value = String(answer.loss);
  if (answer.loss !== null) value.title = String(answer.loss);
  document.getElementById('loss-targets').textContent = String(answer.num_targets);
  document.getElementById('loss-section').hidden = false;
}

export async function startCoreDemo() {
  const status = document.getElementById('status');
  const showError = (message) => {
    status.textContent = message;
    status.setAttribute('role', 'alert');
    status.classList.add('error');
    document.body.dataset.state = 'error';
  };
  status.textContent = DEMO_TEXT.loading;
  let core;
  try {
    core = await loadCore();
  } catch (error) {
    return showError(DEMO_TEXT.loadFailed(error.message));
  }
  const batch = core.collate(DEMO_COLLATE_REQUEST);
  if (batch.error) return showError(DEMO_TEXT.coreRefused('collate', batch.error));
  renderBatch(batch);
  const loss = core.loss(demoLossRequest(batch));
  if (loss.error) return showError(DEMO_TEXT.coreRefused('loss', loss.error));
  renderLoss(loss);
  status.textContent = DEMO_TEXT.ready;
  document.body.dataset.state = 'ready';
}
