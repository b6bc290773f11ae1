// doctor/main.js — the Batch doctor page (doctor.html): paste a batch as the trainer printed it,
// say what the batch cannot (pad and end ids, encoder, prompt/completion), and read the core's
// diagnosis: findings (read out in a live region), the cells they are about in the token grid,
// the figures and which checks ran.
//
// Every finding, figure and check comes from one core.doctor call; the grid shows a window of the
// batch from a second call with `view`. Nothing is computed here, and nothing pasted is ever
// inserted as HTML (dom.js builds text nodes). State — options, an example, a short paste — is
// in the URL (doctor-state.js), so a link or an embed shows the same case.

import { loadDoctor } from '../core/doctor.js';
import { exerciseIndex } from '../exercise/catalog.js';
import { createLegend, createTokenGrid } from '../grid/token-grid.js';
import { h, liveRegion, replaceChildren } from '../shared/dom.js';
import { formatCount } from '../shared/format.js';
import { showUrlNote } from '../shared/url-note.js';
import { afterPaint } from '../shared/later.js';
import { initPage } from '../shared/page.js';
import { renderEmbedPanelLater } from '../shared/share-later.js';
import { gridInput, windowFor } from './batch-view.js';
import { renderChecks } from './checks.js';
import { DOCTOR_STATE, MAX_LINKED_TEXT, doctorRequest, exampleState } from './doctor-state.js';
import { EXAMPLES, exampleById, exampleText } from './examples.js';
import { renderFigures } from './figures.js';
import { renderFindings, verdictLevel, verdictText } from './findings.js';
import { loadTokenNames, tokenFamilies } from './token-names.js';
import './doctor.css';

// Every user-visible string of the page script, in one place.
const TEXT = {
  loading: 'Loading the WebAssembly core…',
  ready: 'Ready. Your batch stays in this browser: the C++ core runs here as WebAssembly.',
  loadFailed: (message) => `The WebAssembly core could not be loaded: ${message}. Reload the page to try again.`,
  empty: 'Paste a printed batch into the box, or pick one of the examples, and the diagnosis appears here.',
  unreadable: 'The doctor could not read this text:',
  goTo: (line, column) => `Go to line ${line}, column ${column}`,
  stale: 'The diagnosis below is for the last batch the doctor could read.',
  tooLongForLink: (n) => `This batch (${formatCount(n)} characters) is too long to keep in the link; the link keeps the options only.`,
  announce: (verdict, first) => (first ? `${verdict} First: ${first}` : verdict),
  caption: (input) => `The pasted batch, ${rowsText(input.rowLabels)}`,
  window: (input) =>
    `Showing ${rowsText(input.rowLabels)} and positions ${ranges(input.positionLabels)}` +
    (input.hidden.rows || input.hidden.positions ? ' of the batch' : '') +
    '. The cells the selected finding is about are outlined and marked ⚑.',
  gridNone: 'This finding is about the batch as a whole; the grid shows its first rows.',
  legendFlag: ['⚑', 'a cell the selected finding is about (outlined)'],
  familyNone: 'ids only',
  familyLoading: (label) => `Loading ${label}’s tokenizer…`,
  familyProgress: (label, loaded, total) => `Downloading ${label}’s tokenizer: ${(loaded / 1e6).toFixed(1)} of ${(total / 1e6).toFixed(1)} MB`,
  familyBuilding: (label) => `Building ${label}’s tokenizer (a vocabulary of this size takes a moment)…`,
  familyFailed: (label, message) => `The ${label} tokenizer could not be loaded: ${message}. The grid shows ids; pick the family again to retry.`,
  familyLoaded: (label, size) =>
    `The grid names tokens with ${label}’s tokenizer${Number.isFinite(size) ? ` (${formatCount(size)} ids)` : ''}.`,
  familyOutside: (label, size, ids) =>
    `${ids.length === 1 ? '1 id in view is' : `${ids.length} ids in view are`} past ${label}’s vocabulary (${formatCount(size)} ids): ` +
    `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}, shown as #id. Was the batch tokenized by another family?`,
  // The ids the options ask for, as this family's tokenizer has them (the loader's info).
  familyIds: (label, info) =>
    `${label}’s end tokens: ${info.eosChoices.map((c) => `${c.token} = ${c.id} — ${c.note}`).join('; ')}. ` +
    `pad_token: ${info.specials?.pad_token ? `${info.specials.pad_token} = ${info.pad?.id}` : 'none set in its tokenizer_config.json'}.`,
  familyNamesFailed: (label, message) => `${label}’s tokenizer could not name these ids: ${message}. The grid shows ids.`,
  exampleLoaded: (title) => `Loaded the example “${title}”.`,
  seeDiagnosis: 'See the diagnosis',
};

const rowsText = (rows) => (rows.length === 1 ? `row ${rows[0]}` : `rows ${rows.join(', ')}`);

// "0 to 2 and -3 to -1": runs of consecutive positions (PyTorch's "..." splits them).
function ranges(positions) {
  const runs = [];
  for (const p of positions) {
    const run = runs.at(-1);
    if (run && p === run[1] + 1) run[1] = p;
    else runs.push([p, p]);
  }
  const text = runs.map(([a, b]) => (a === b ? String(a) : `${a} to ${b}`));
  return text.length > 1 ? `${text.slice(0, -1).join(', ')} and ${text.at(-1)}` : text[0];
}

// Which grid row to put the focus on when a finding is shown.
const FOCUS_FIELD = {
  'mask-values': 'attention_mask',
  'mask-mismatch': 'attention_mask',
  'all-ones-mask': 'attention_mask',
  'packed-attention-mask': 'attention_mask',
  'right-padded-generation': 'attention_mask',
  'left-padding': 'attention_mask',
  'packed-positions': 'position_ids',
  'packed-without-boundaries': 'input_ids',
  shapes: 'input_ids',
};

// The core first: its .wasm is preloaded by the HTML, and compiling it (off the main thread,
// streaming) now overlaps with the rest of this script — the header, the form, the examples —
// instead of starting after it. Awaited below.
const coreLoad = loadDoctor();
coreLoad.catch(() => {}); // handled where it is awaited

initPage({ widget: 'doctor' });
renderEmbedPanelLater(document.getElementById('share-panel'), { page: 'doctor.html', title: 'masklab batch doctor', height: 1400 });

const $ = (id) => document.getElementById(id);
const form = $('doctor-form');
const textarea = $('batch-text');
const readError = $('read-error');
const linkNote = $('link-note');
const status = $('status');
const verdict = $('verdict');
const verdictNear = $('verdict-near');
const staleNote = $('stale-note');
const findingsList = $('findings');
const results = document.querySelectorAll('[data-results]');
const familyControl = $('family-control');
const familySelect = $('family');
const familyStatus = $('family-status');
const familyProgress = $('family-progress');
const familyIds = $('family-ids');
const announcer = liveRegion();
document.body.append(announcer);

const { state: initial, problems } = DOCTOR_STATE.read();
let state = initial;
let core = null;
let last = null; // { answer, text } of the last diagnosis
let grid = null;
let gridKey = '';
let tokenNames = null; // { nameOf(ids), vocabSize, label } once a family is loaded
let familyRequest = 0; // the latest family asked for: a slower earlier load must not win
const exerciseTitles = new Map(exerciseIndex().map((e) => [e.id, e.title]));

if (problems.length) {
  const note = $('url-note');
  showUrlNote(note, problems.map((p) => p.message));
}

// ---- the form ------------------------------------------------------------------------------

function writeForm() {
  $('pad').value = state.pad;
  $('eos').value = state.eos;
  $('eot').value = state.eot;
  form.elements.model.value = state.model;
  $('pc').checked = state.pc;
  if (familySelect.options.length) familySelect.value = state.family;
}

function readForm() {
  const id = (el) => (/^\d{1,10}$/.test(el.value.trim()) ? el.value.trim() : '');
  state = {
    ...state,
    pad: id($('pad')),
    eos: id($('eos')),
    eot: id($('eot')),
    model: form.elements.model.value === 'encoder' ? 'encoder' : 'decoder',
    pc: $('pc').checked,
    family: familySelect.value ?? '',
  };
}

function writeUrl() {
  const text = textarea.value;
  const linkable = text.length <= MAX_LINKED_TEXT;
  linkNote.hidden = linkable || state.ex !== '';
  if (!linkable) linkNote.textContent = TEXT.tooLongForLink(text.length);
  DOCTOR_STATE.write({ ...state, text: state.ex || !linkable ? '' : text });
}

// ---- reading errors ------------------------------------------------------------------------

// Puts the caret on line L, column C of the textarea (columns count characters, as the core does).
function goTo(line, column) {
  const lines = textarea.value.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i += 1) offset += lines[i].length + 1;
  offset += Math.min(column - 1, (lines[line - 1] ?? '').length);
  textarea.focus();
  textarea.setSelectionRange(offset, Math.min(offset + 1, textarea.value.length));
}

function showReadError(error) {
  const at = /^line (\d+), column (\d+): /.exec(error.message);
  textarea.setAttribute('aria-invalid', 'true');
  readError.hidden = false;
  replaceChildren(
    readError,
    h('strong', {}, TEXT.unreadable),
    ' ',
    error.field === 'text' ? error.message : `${error.field}: ${error.message}`,
    at ? h('button', { type: 'button', class: 'secondary go-to', onclick: () => goTo(Number(at[1]), Number(at[2])) }, TEXT.goTo(at[1], at[2])) : null,
  );
  staleNote.hidden = !last;
  verdictNear.hidden = true;
  announcer.textContent = `${TEXT.unreadable} ${error.message}`;
}

function clearReadError() {
  textarea.removeAttribute('aria-invalid');
  readError.hidden = true;
  staleNote.hidden = true;
}

// ---- the diagnosis -------------------------------------------------------------------------

function showResults(visible) {
  for (const el of results) el.hidden = !visible;
}

function diagnose({ announce = true } = {}) {
  if (!core) return;
  const text = textarea.value;
  if (!text.trim()) {
    last = null;
    clearReadError();
    verdict.className = 'verdict empty';
    verdict.textContent = TEXT.empty;
    verdictNear.hidden = true;
    showResults(false);
    document.body.dataset.state = 'ready';
    return;
  }
  const answer = core.doctor(doctorRequest(state, text));
  if (answer.error) {
    showReadError(answer.error);
    document.body.dataset.state = 'ready';
    return;
  }
  clearReadError();
  last = { answer, text };
  const level = verdictLevel(answer);
  verdict.className = `verdict ${level}`;
  verdict.textContent = verdictText(answer);
  verdictNear.hidden = false;
  verdictNear.className = `verdict-near ${level}`;
  replaceChildren(verdictNear, `${verdictText(answer)} `, h('a', { href: '#findings-title' }, TEXT.seeDiagnosis));
  showExampleResult(); // an option changed after an example was picked: its line follows
  if (state.finding >= answer.findings.length) state = { ...state, finding: 0 };
  renderFigures($('figures'), answer.figures);
  renderChecks($('checks'), answer);
  showResults(true);
  showFinding(firstShowable(answer, state.finding), { focus: false });
  if (announce) announcer.textContent = TEXT.announce(verdictText(answer), answer.findings[0]?.message);
  document.body.dataset.state = 'ready';
}

// The finding the grid starts on: the one asked for, else the first with cells.
function firstShowable(answer, wanted) {
  const f = answer.findings[wanted];
  if (f && (f.positions.length || f.rows.length)) return wanted;
  const i = answer.findings.findIndex((x) => x.positions.length > 0);
  return i >= 0 ? i : -1;
}

function renderList(selected) {
  renderFindings(findingsList, last.answer, {
    exerciseTitle: (id) => exerciseTitles.get(id) ?? null,
    onShow: (i) => showFinding(i, { focus: true }),
    selected,
  });
}

function gridFields(batch) {
  const fields = [];
  if (tokenNames) fields.push('tokens');
  fields.push('input_ids', 'attention_mask');
  if (batch.labels) fields.push('labels');
  if (batch.position_ids) fields.push('position_ids');
  return fields;
}

async function showFinding(index, { focus }) {
  const { answer, text } = last;
  const finding = index >= 0 ? answer.findings[index] : null;
  if (index >= 0 && index !== state.finding) {
    state = { ...state, finding: index };
    writeUrl();
  }
  renderList(index);
  const windowed = core.doctor(doctorRequest(state, text, windowFor(finding, answer.figures)));
  if (windowed.error) return; // the same text was read a moment ago; nothing to show otherwise
  const names = tokenNames ? await namesFor(windowed.batch.input_ids) : null;
  if (last?.text !== text) return; // a newer paste replaced this one while names loaded
  const input = gridInput(windowed.batch, finding, { figures: answer.figures, tokenNames: names });
  const fields = gridFields(windowed.batch);
  if (fields.join() !== gridKey) {
    gridKey = fields.join();
    grid = createTokenGrid($('token-grid'), { caption: '', fields });
  }
  grid.update(input.response, { highlight: input.highlight, rowLabels: input.rowLabels, positionLabels: input.positionLabels, caption: TEXT.caption(input) });
  $('grid-note').textContent = finding && !finding.positions.length ? `${TEXT.gridNone} ${TEXT.window(input)}` : TEXT.window(input);
  // Read the layout in the next frame, where the browser lays the page out anyway: reading it now
  // would force a layout of the whole page before the first diagnosis is done (~50–100 ms cold).
  requestAnimationFrame(scrollToFlag);
  if (focus && finding) {
    const field = FOCUS_FIELD[finding.id] && fields.includes(FOCUS_FIELD[finding.id]) ? FOCUS_FIELD[finding.id] : fields.includes('labels') ? 'labels' : 'input_ids';
    const [first] = input.highlight.keys();
    const [b, t] = first ? first.split('.').map(Number) : [0, 0];
    grid.focus(b, field, t);
  }
}

// Scrolls the grid sideways so the first flagged cell is in view (a phone shows three columns),
// before that frame is painted. The scroll stops at a column's edge: a cell cut by the grid's
// left edge would leave part of its text under the sticky row names, and assistive checks read
// that as visible text the cell's name does not match.
function scrollToFlag() {
  const box = $('token-grid');
  const flagged = box.querySelector('td.flagged');
  const scroller = box.querySelector('.grid-scroll');
  if (!flagged || !scroller) return;
  const header = scroller.querySelector('th.corner')?.offsetWidth ?? 0;
  const wanted = Math.min(flagged.offsetLeft - header - 8, scroller.scrollWidth - scroller.clientWidth);
  // Data cells only: the sticky row name's offsetLeft moves with the scroll.
  const edges = [...flagged.parentElement.querySelectorAll('td')].map((cell) => cell.offsetLeft).filter((left) => left <= wanted);
  scroller.scrollLeft = Math.max(0, ...edges);
}

// Token strings for the ids in view. Ids the family's vocabulary does not have stay ids (the
// grid shows #id) and the family's status line says so: the batch may come from another model.
async function namesFor(rows) {
  const names = tokenNames;
  const all = [...new Set(rows.flat().filter((x) => x !== null))];
  const known = all.filter((id) => Number.isInteger(id) && id >= 0 && id < names.vocabSize);
  const outside = all.filter((id) => !known.includes(id)).sort((a, b) => a - b);
  try {
    const strings = known.length ? await names.nameOf(known) : [];
    if (tokenNames === names) {
      familyStatus.textContent = outside.length
        ? TEXT.familyOutside(names.label, names.vocabSize, outside)
        : TEXT.familyLoaded(names.label, names.vocabSize);
    }
    return new Map(known.map((id, i) => [id, strings[i]]));
  } catch (error) {
    if (tokenNames === names) familyStatus.textContent = TEXT.familyNamesFailed(names.label, error.message);
    return null;
  }
}

// ---- examples and model families -------------------------------------------------------------

// `keepOptions`: a link that names an example and options (set after it was picked) keeps them.
async function loadExample(id, { announce = true, keepOptions = false } = {}) {
  const example = exampleById(id);
  const text = example && exampleText(id);
  if (text === null || text === undefined) return;
  if (!keepOptions) state = exampleState(state, example);
  textarea.value = text;
  writeForm();
  writeUrl();
  diagnose({ announce: false });
  if (announce) announcer.textContent = `${TEXT.exampleLoaded(example.title)} ${TEXT.announce(verdictText(last.answer), last.answer.findings[0]?.message)}`;
}

function renderExamples() {
  replaceChildren(
    $('examples'),
    EXAMPLES.map((e) =>
      h(
        'li',
        { 'data-example': e.id },
        h('button', { type: 'button', class: 'example-button', onclick: () => pickExample(e.id), title: e.collator }, e.title),
      ),
    ),
  );
}

// A click on an example far down the list: its verdict appears under it, with a link to the
// diagnosis, so the effect is visible where the click was.
async function pickExample(id) {
  await loadExample(id);
  for (const li of $('examples').children) {
    const mine = li.dataset.example === id;
    const button = li.querySelector('.example-button');
    if (mine) button.setAttribute('aria-current', 'true');
    else button.removeAttribute('aria-current');
    li.querySelector('.example-result')?.remove();
    if (mine) li.append(h('p', { class: 'example-result' }));
  }
  showExampleResult();
  // A button at the bottom edge of a phone's screen would put its verdict just out of view.
  $('examples').querySelector('.example-result')?.scrollIntoView({ block: 'nearest' });
}

function showExampleResult() {
  const line = $('examples').querySelector('.example-result');
  if (!line || !last) return;
  line.className = `example-result ${verdictLevel(last.answer)}`;
  replaceChildren(line, `${verdictText(last.answer)} `, h('a', { href: '#findings-title' }, TEXT.seeDiagnosis));
}

// The examples' marks belong to the batch they loaded: editing the text or clearing removes them.
function forgetPickedExample() {
  for (const li of $('examples').children) {
    li.querySelector('.example-button').removeAttribute('aria-current');
    li.querySelector('.example-result')?.remove();
  }
}

async function setUpFamilies(familyList = tokenFamilies()) {
  const families = await familyList.catch(() => []);
  if (!families.length) return; // the chat page's tokenizers are not part of this build: ids only
  replaceChildren(familySelect, h('option', { value: '' }, TEXT.familyNone), families.map((f) => h('option', { value: f.id }, f.label)));
  familySelect.value = families.some((f) => f.id === state.family) ? state.family : '';
  familyControl.hidden = false;
  if (familySelect.value) await useFamily(familySelect.value, families);
}

async function useFamily(id, families) {
  tokenNames = null;
  familyIds.textContent = '';
  const request = ++familyRequest;
  const current = () => request === familyRequest; // the user has not picked another family since
  if (!id) {
    familyProgress.hidden = true;
    familyStatus.classList.remove('error-box');
    familyStatus.textContent = '';
    return;
  }
  const label = families.find((f) => f.id === id)?.label ?? id;
  familyStatus.classList.remove('error-box');
  familyStatus.textContent = TEXT.familyLoading(label);
  familyProgress.hidden = false;
  familyProgress.removeAttribute('value'); // indeterminate until the first bytes arrive
  try {
    const names = await loadTokenNames(id, ({ loaded, total, cached, building }) => {
      if (!current()) return;
      familyProgress.max = Math.max(total, 1);
      familyProgress.value = loaded;
      if (building) familyStatus.textContent = TEXT.familyBuilding(label);
      else if (!cached && total > 0) familyStatus.textContent = TEXT.familyProgress(label, loaded, total);
    });
    if (!current()) return;
    familyProgress.hidden = true;
    tokenNames = { ...names, label };
    familyStatus.textContent = TEXT.familyLoaded(label, names.vocabSize);
    if (Array.isArray(names.info?.eosChoices)) familyIds.textContent = TEXT.familyIds(label, names.info);
  } catch (error) {
    if (!current()) return;
    familyProgress.hidden = true;
    familyStatus.classList.add('error-box');
    familyStatus.textContent = TEXT.familyFailed(label, error.message);
    // Back to "ids only", so that picking the family again is a change that retries the load.
    familySelect.value = '';
    readForm();
    writeUrl();
  }
}

// ---- events --------------------------------------------------------------------------------

let pending = null;
textarea.addEventListener('input', () => {
  if (state.ex) state = { ...state, ex: '' };
  forgetPickedExample();
  clearTimeout(pending);
  pending = setTimeout(() => {
    writeUrl();
    diagnose();
  }, 350);
});
textarea.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    form.requestSubmit();
  }
});
form.addEventListener('submit', (event) => {
  event.preventDefault();
  clearTimeout(pending);
  readForm();
  writeUrl();
  diagnose();
});
form.addEventListener('change', async (event) => {
  if (event.target === textarea) return;
  readForm();
  writeUrl();
  if (event.target === familySelect) {
    const request = familyRequest + 1;
    await useFamily(familySelect.value, [...familySelect.options].map((o) => ({ id: o.value, label: o.textContent })));
    if (request !== familyRequest) return; // another family was picked while this one loaded
    gridKey = '';
  }
  diagnose();
});
$('clear').addEventListener('click', () => {
  textarea.value = '';
  forgetPickedExample();
  state = { ...state, ex: '', finding: 0 };
  writeUrl();
  diagnose();
  textarea.focus();
});

// ---- start ---------------------------------------------------------------------------------

writeForm();
renderExamples();
// The examples start open on an empty page, and closed when a link brings a batch.
$('examples-box').open = !state.text && !state.ex;
$('grid-legend').append(createLegend([TEXT.legendFlag]));
if (state.text) textarea.value = state.text;
// The family list (family-source.js: two scripts) is asked for now, while the wasm loads, only
// when the link names a model family, whose token strings the grid then shows. Otherwise it waits
// until the first diagnosis is on screen: its scripts would only compete with the core for the
// network and the main thread. (A linked example's text is part of the page: examples.js.)
const familyList = state.family ? tokenFamilies() : null;
familyList?.catch(() => {});
try {
  core = await coreLoad;
  status.textContent = TEXT.ready;
} catch (error) {
  status.textContent = TEXT.loadFailed(error.message);
  status.setAttribute('role', 'alert');
  status.classList.add('error-box');
}
if (core) {
  // The family list fills its select whenever it arrives; the first diagnosis waits for it only
  // when the link asks for a family.
  if (familyList) await setUpFamilies(familyList);
  const linked = new URLSearchParams(location.search);
  const keepOptions = ['pad', 'eos', 'eot', 'model', 'pc'].some((key) => linked.has(key));
  if (!state.text && state.ex) await loadExample(state.ex, { announce: false, keepOptions });
  else diagnose({ announce: false });
  if (!familyList) afterPaint(() => setUpFamilies());
}
