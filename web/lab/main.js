// lab/main.js — the normalization function lab (lab.html): y = a·x² (what a scale does to a
// gradient), then two loss panels whose numbers all come from the core: one batch averaged two
// ways, and gradient accumulation over micro-batches with unequal target counts.
//
// State for all three panels lives in the URL (lab-state.js). The function panel works before
// the wasm core has loaded; the loss panels appear once it has.

import { liveRegion } from '../shared/dom.js';
import { showUrlNote } from '../shared/url-note.js';
import { initPage } from '../shared/page.js';
import { renderEmbedPanelLater } from '../shared/share-later.js';
import { loadCore } from '../core/masklab.js';
import { painted } from '../shared/later.js';
import { createAccumulationPanel } from './accumulation-panel.js';
import { createFunctionPanel } from './function-panel.js';
import { readLabState, writeLabState } from './lab-state.js';
import { createMeanPanel } from './mean-panel.js';
import './lab.css';

// Every user-visible string of the page script, in one place.
const TEXT = {
  ready: 'Computed by the WebAssembly core.',
  loadFailed: (message) => `The WebAssembly core could not be loaded: ${message}. The function panel still works; reload the page to try the loss panels again.`,
};

initPage({ widget: 'lab' });
const corePromise = loadCore(); // fetched and compiled while the function panel is built
corePromise.catch(() => {}); // reported below, never an unhandled rejection
await painted(); // the page's HTML is painted first
renderEmbedPanelLater(document.getElementById('share-panel'), { page: 'lab.html', title: 'masklab normalization lab', height: 1100 });

const status = document.getElementById('status');
const urlNote = document.getElementById('url-note');
const announcer = liveRegion();
document.body.append(announcer);
const announce = (text) => {
  announcer.textContent = text;
};

const { state: initial, problems } = readLabState();
let state = initial;
if (problems.length) {
  showUrlNote(urlNote, problems.map((p) => p.message));
}
const onState = (partial) => {
  state = { ...state, ...partial };
  writeLabState(state);
};

createFunctionPanel(document.getElementById('function-panel'), { state, onState });

try {
  const core = await corePromise;
  createMeanPanel(document.getElementById('mean-panel'), core, { state, onState, announce });
  createAccumulationPanel(document.getElementById('accumulation-panel'), core, { state, onState, announce });
  status.textContent = TEXT.ready;
  document.body.dataset.state = 'ready';
} catch (error) {
  status.textContent = TEXT.loadFailed(error.message);
  status.setAttribute('role', 'alert');
  status.classList.add('error-box');
}
