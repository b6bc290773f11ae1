// grid/main.js — the token grid page (grid.html): form -> one inspect call -> grid, summary,
// attention heatmap. State lives in the URL (grid-state.js), so reload and shared links restore
// the examples, options and cell edits.
//
// Every change makes exactly one core.inspect call with the whole state (cell edits included)
// and redraws from its answer; nothing is computed here. Errors from the core are shown next to
// the controls and the last accepted batch stays on screen, marked as such.

import { h, liveRegion, replaceChildren } from '../shared/dom.js';
import { showUrlNote } from '../shared/url-note.js';
import { formatId, formatLoss, formatShare } from '../shared/format.js';
import { initPage } from '../shared/page.js';
import { renderEmbedPanelLater } from '../shared/share-later.js';
import { painted, renderLater } from '../shared/later.js';
import { loadCore } from '../core/masklab.js';
import { createAttentionMap } from './attention-map.js';
import { createControls } from './controls.js';
import { GRID_STATE, inspectRequest, toggleCell } from './grid-state.js';
import { createSummary } from './summary.js';
import { createSummaryStrip } from './summary-strip.js';
import { createLegend, createTokenGrid, padMap } from './token-grid.js';

// Every user-visible string of the page script, in one place.
const TEXT = {
  loading: 'Loading the WebAssembly core…',
  ready: 'Computed by the WebAssembly core.',
  loadFailed: (message) => `The WebAssembly core could not be loaded: ${message}. Reload the page to try again.`,
  caption: (B, T) => `The collated batch: B = ${B} rows × T = ${T} positions`,
  stale: 'The grid below still shows the last batch the core accepted; fix the problem above to update it.',
  noBatch: 'No batch to show yet: fix the problem named above the grid.',
  editsDropped: 'Your cell edits did not fit the new batch shape, so they were cleared.',
  rowOption: (b) => `Row ${b + 1}`,
  toggled: (field, b, t, value) => `${field} at row ${b + 1}, position ${t} is now ${value}.`,
  figures: (loss, targets, share) => `Loss over targets ${loss} on ${targets} targets; pad share ${share}.`,
  refitMoved: (n) => `The model was refitted: ${n} other loss${n === 1 ? '' : 'es'} moved.`,
};

initPage({ widget: 'grid' });
const corePromise = loadCore(); // fetched and compiled while the page is built
corePromise.catch(() => {}); // reported below, never an unhandled rejection
await painted(); // the page's HTML is painted before the form and the grid are built
renderEmbedPanelLater(document.getElementById('share-panel'), { page: 'grid.html', title: 'masklab token grid', height: 1100 });

const status = document.getElementById('status');
const urlNote = document.getElementById('url-note');
const staleNote = document.getElementById('stale-note');
const summaryBox = document.getElementById('summary');
const rowSelect = document.getElementById('attention-row');
const gridPanel = document.querySelector('[data-panel="grid"]');
const attentionPanel = document.querySelector('[data-panel="attention"]');
const announcer = liveRegion();
document.body.append(announcer);

const { state: initial, problems } = GRID_STATE.read();
let state = initial;
let core = null;
let lastGood = null;
const notes = problems.map((p) => p.message);

function showNotes() {
  showUrlNote(urlNote, notes);
}
showNotes();

const controls = createControls(document.getElementById('grid-form'), {
  onChange(next, how) {
    state = next;
    recompute(how);
  },
  onClearEdits() {
    state = { ...state, tm: [], tl: [] };
    recompute({ kind: 'option' });
  },
  onReset() {
    state = GRID_STATE.defaults();
    recompute({ kind: 'option' });
  },
});
controls.set(state);

const grid = createTokenGrid(document.getElementById('token-grid'), {
  caption: TEXT.caption(0, 0),
  interactive: true,
  onToggle({ kind, b, t }) {
    state = toggleCell(state, kind, b, t);
    recompute({ kind: 'toggle', cell: { kind, b, t } });
  },
});
document.getElementById('grid-legend').append(createLegend());
const attentionMap = createAttentionMap(document.getElementById('attention'));
const summary = createSummary(summaryBox);
const strip = createSummaryStrip(document.getElementById('strip'), {
  onModel(mode) {
    state = { ...state, model: mode };
    recompute({ kind: 'model' });
  },
  // After an attention_mask toggle: the heatmap of that row (already chosen), in view and focused.
  onShowAttention() {
    attentionShown = true;
    if (lastGood) drawAttention(lastGood.response, lastGood.request);
    const title = document.getElementById('attention-title');
    title.setAttribute('tabindex', '-1');
    attentionPanel.scrollIntoView({ block: 'start' });
    title.focus({ preventScroll: true });
  },
});

// Loss cells (as "b.t") whose scored value moved although the edit did not touch them: the
// refitted model moved them. A labels toggle at (b, t) touches the target scored at logit
// t − 1 (t without the shift); a mask toggle touches no loss (the bigram reads no attention).
function movedElsewhere(before, after, cell, shift) {
  const moved = new Set();
  if (!before || before.batch.shape.join() !== after.batch.shape.join()) return moved;
  const touched = cell.kind === 'labels' ? `${cell.b}.${shift ? cell.t - 1 : cell.t}` : null;
  const [B, T] = after.batch.shape;
  for (let b = 0; b < B; b += 1)
    for (let t = 0; t < T; t += 1) {
      const key = `${b}.${t}`;
      if (key === touched) continue;
      const scored = (r) => r.loss.targets[b][t] !== -100;
      if (scored(before) && scored(after) && before.loss.per_token[b][t] !== after.loss.per_token[b][t]) moved.add(key);
    }
  return moved;
}

// The URL is written at once after a form change (a reload right after it must restore it),
// but when the page is next idle for a cell toggle: history.replaceState costs ~2 ms on this
// page (and Chromium then refetches the favicon), work the toggle's redraw should not wait for.
// A later write of either kind replaces a pending one.
let pendingUrl = null;
function cancelUrlWrite() {
  if (!pendingUrl) return;
  if (pendingUrl.idle !== undefined) cancelIdleCallback(pendingUrl.idle);
  clearTimeout(pendingUrl.timer);
  pendingUrl = null;
}
function writeUrlNow() {
  cancelUrlWrite();
  GRID_STATE.write(state);
}
function writeUrlWhenIdle() {
  cancelUrlWrite();
  const job = {};
  const run = () => {
    if (pendingUrl !== job) return;
    pendingUrl = null;
    GRID_STATE.write(state);
  };
  // At the latest 250 ms later; browsers without requestIdleCallback (Safari) use the timer.
  if (typeof requestIdleCallback === 'function') job.idle = requestIdleCallback(run, { timeout: 250 });
  else job.timer = setTimeout(run, 50);
  pendingUrl = job;
}

rowSelect.addEventListener('change', () => {
  state = { ...state, row: Number(rowSelect.value) };
  writeUrlNow();
  if (lastGood) drawAttention(lastGood.response, lastGood.request);
});

// The heatmap sits below the grid and the figures: it is first drawn when it comes near the
// screen or the page is idle, then follows every change.
let attentionShown = false;
renderLater(attentionPanel, () => {
  attentionShown = true;
  if (lastGood) drawAttention(lastGood.response, lastGood.request);
});

function drawAttention(response, request) {
  if (attentionPanel.hidden || !attentionShown) return;
  attentionMap.update(response, state.row, { isPad: padMap(response, request) });
}

function recompute(how = { kind: 'option' }) {
  controls.set(state);
  const shownState = state; // the form shows it; set it again only if state changes below
  if (!core) return;
  const request = inspectRequest(state);
  const response = core.inspect(request);
  if (response.error) {
    if (response.error.field?.startsWith('toggle_') && (state.tm.length || state.tl.length)) {
      state = { ...state, tm: [], tl: [] };
      notes.push(TEXT.editsDropped);
      showNotes();
      recompute(how);
      return;
    }
    controls.showError(response.error);
    staleNote.hidden = false;
    staleNote.textContent = lastGood ? TEXT.stale : TEXT.noBatch;
    writeUrlNow();
    document.body.dataset.state = 'ready';
    return;
  }
  controls.clearError();
  staleNote.hidden = true;
  const before = lastGood?.response ?? null;
  lastGood = { request, response };

  const [B, T] = response.batch.shape;
  const maskToggle = how.kind === 'toggle' && how.cell.kind === 'attention_mask';
  if (maskToggle) state = { ...state, row: how.cell.b }; // the heatmap follows the row just edited
  const moved = how.kind === 'toggle' && state.model === 'refit' ? movedElsewhere(before, response, how.cell, request.shift ?? true) : new Set();
  // A panel hidden by ?hide= never shows again, so it is not drawn at all.
  if (!gridPanel.hidden) grid.update(response, { request, caption: TEXT.caption(B, T), moved });
  strip.update(response, {
    before: how.kind === 'load' ? null : before,
    refitMoved: how.kind === 'toggle' && state.model === 'refit' && how.cell.kind === 'labels' ? moved.size : null,
    frozen: state.model === 'frozen',
    maskRow: maskToggle ? how.cell.b : null,
    attentionShown: !attentionPanel.hidden,
  });
  summary.update(response);

  if (state.row >= B) state = { ...state, row: 0 };
  if (rowSelect.options.length !== B) replaceChildren(rowSelect, Array.from({ length: B }, (_, b) => h('option', { value: String(b) }, TEXT.rowOption(b))));
  if (rowSelect.value !== String(state.row)) rowSelect.value = String(state.row);
  drawAttention(response, request);
  if (state !== shownState) controls.set(state);
  if (how.kind === 'toggle') writeUrlWhenIdle();
  else writeUrlNow();

  const s = response.summary;
  const figures = TEXT.figures(formatLoss(s.loss), s.targets, formatShare(s.pad_share));
  if (how.kind === 'toggle') {
    const { kind, b, t } = how.cell;
    const value = kind === 'labels' ? formatId(response.batch.labels[b][t]) : String(response.batch.attention_mask[b][t]);
    announcer.textContent = `${TEXT.toggled(kind, b, t, value)} ${figures}${moved.size ? ` ${TEXT.refitMoved(moved.size)}` : ''}`;
  } else if (how.kind === 'option' || how.kind === 'model') {
    announcer.textContent = figures;
  }
  document.body.dataset.state = 'ready';
}

try {
  core = await corePromise;
  status.textContent = TEXT.ready;
  recompute({ kind: 'load' });
} catch (error) {
  status.textContent = TEXT.loadFailed(error.message);
  status.setAttribute('role', 'alert');
  status.classList.add('error-box');
}
