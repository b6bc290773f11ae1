// chat/main.js — the Chat masks page (chat.html): a conversation rendered by a model family's real
// chat template and tokenizer (in a Web Worker: chat-worker.js), labelled by the C++ core's `chat`
// command, with the warnings it raises, "See it break" and a batch in the token grid.
//
// Order of events: the page and the wasm core load at once; the family's tokenizer files stream in
// the worker with a progress bar (nothing else waits for them); the first analysis runs when both
// are ready. Every change (family, message, policy) makes one analysis and one core call, and
// redraws from the answer. A conversation the template or the core refuses leaves the last good
// tokens on screen, marked stale, and the message at fault is named next to its text box. State
// lives in the URL (chat-state.js); the page embeds like the other widgets.

import { loadChat } from '../core/chat.js';
import { h, liveRegion } from '../shared/dom.js';
import { formatCount } from '../shared/format.js';
import { showUrlNote } from '../shared/url-note.js';
import { renderEmbedPanelLater } from '../shared/share-later.js';
import { initPage } from '../shared/page.js';
import { loadExercise } from '../exercise/catalog.js';
import { createBatchPanel } from './batch-panel.js';
import { createBreakPanel } from './break-panel.js';
import {
  CHAT_STATE, conversationFromLink, conversationOf, lineArgumentsFromLink, lineArgumentsOf, linkCarries, MAX_URL_CONVERSATION, policiesOf,
  withConversation, withLineArguments, withPackedConversation, withPackedLineArguments,
} from './chat-state.js';
import { createChatSummary } from './chat-summary.js';
import { createConversationEditor } from './conversation-editor.js';
import { createDatasetPanel } from './dataset-panel.js';
import { optionsFor, startEarly } from './early-start.js';
import { createFamilyPanel } from './family-panel.js';
import { familyById } from './families.js';
import { createLineArguments } from './line-arguments.js';
import { createPolicyForm } from './policy-form.js';
import { presetById } from './presets.js';
import { templateFromLink, templateToLink } from './template-link.js';
import { CHIP_TEXT, createChipLegend, createTokenChips } from './token-chips.js';

// Every user-visible string of the page script, in one place.
const TEXT = {
  tooLongForLink: (what) =>
    `${what} too long for the page’s link (it holds ${formatCount(MAX_URL_CONVERSATION)} characters, packed): the link keeps your other choices ` +
    'but not that. Keep the whole line with “Copy the line” under “Check a whole dataset”.',
  conversationTooLong: 'This conversation is',
  argumentsTooLong: 'Your line’s template arguments are',
  bothTooLong: 'This conversation and your line’s template arguments are',
  coreLoading: 'Loading the WebAssembly core…',
  ready: 'Computed by masklab’s C++ core (WebAssembly) from the real template and tokenizer.',
  coreFailed: (m) => `The WebAssembly core could not be loaded: ${m}. Reload the page to try again.`,
  stale: 'The tokens below are from the last conversation that could be rendered; fix the problem named above to update them.',
  nothingYet: 'Nothing to show yet: fix the problem named above.',
  working: 'Rendering and tokenizing… the tokens below are still those of the previous conversation.',
  waiting: 'Waiting for the tokenizer…',
  refused: (m) => `The core refused the request: ${m}`,
  summary: (trained, total, warnings) => `${trained} of ${total} tokens trained · ${warnings === 0 ? 'no warnings' : `${warnings} warning${warnings === 1 ? '' : 's'}`}`,
  problem: (m) => `Cannot show this conversation: ${m}`,
  exerciseMissing: (id) => `There is no chat exercise called “${id}”; showing the page’s own comparison.`,
  chipsLabel: 'Tokens of the conversation, with their labels',
};

initPage({ widget: 'chat' });
renderEmbedPanelLater(document.getElementById('share-panel'), { page: 'chat.html', title: 'masklab chat masks', height: 1400 });

const status = document.getElementById('status');
const urlNote = document.getElementById('url-note');
const staleNote = document.getElementById('stale-note');
const problemBox = document.getElementById('problem');
const quickSummary = document.getElementById('quick-summary');
// On one-column screens the tokens are far below the policies: this copy of the summary sticks to
// the bottom of the screen while the policies are in view, so a click shows its effect there.
const policyEcho = document.getElementById('policy-echo');
const announcer = liveRegion();
document.body.append(announcer);

const read = CHAT_STATE.read();
let state = read.state;
const notes = read.problems.map((p) => p.message);
const initial = conversationOf(state);
if (initial.problem) notes.push(initial.problem);
let messages = initial.messages;
// Where a pasted prompt/completion line splits the conversation (its prompt's message count), or
// null for the split before the last answer. Kept here as well as in the URL (pl), which drops it
// when the conversation is too long to travel there.
let promptLength = initial.promptLength;
// A pasted line's tools and chat_template_kwargs (null: none): they go to the template until
// another conversation is pasted or picked, or the learner drops them.
const lineArguments = lineArgumentsOf(state);
if (lineArguments.problem) notes.push(lineArguments.problem);
let lineKwargs = lineArguments.kwargs;
let packingArguments = false; // arguments too long as JSON, being packed: the link note waits
let ownTemplate = null;
let exercise = null;
let familyInfo = null;
let core = null;
let lastGood = null;
let analysisVersion = 0;

function showNotes() {
  showUrlNote(urlNote, notes);
}
showNotes();

/** Adds a sentence about the link to the note above the page (nothing for null). */
function addNote(problem) {
  if (!problem) return;
  notes.push(problem);
  showNotes();
}

// The tokenizer worker, already loading (boot.js ran first), and the default analysis it was
// asked for; recompute() uses that answer when nothing changed since.
const started = startEarly();
const client = started.client;
let early = started.early;
const analyse = (family, msgs, options, policies) => client.analyse(family, msgs, options, policies);

// Local storage for long pasted templates; null where the browser refuses it.
function templateStorage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const familyPanel = createFamilyPanel(document.getElementById('family-box'), {
  onFamily(id) {
    state = { ...state, f: id, eos: 0, tpl: '' };
    ownTemplate = null;
    familyPanel.setOwnTemplate(null);
    write();
    loadFamily();
  },
  async onTemplate(text) {
    ownTemplate = text;
    familyPanel.setOwnTemplate(text);
    recompute();
    const tpl = text ? await templateToLink(text, templateStorage()) : '';
    if (ownTemplate !== text) return; // another template was chosen meanwhile
    state = { ...state, tpl };
    write();
  },
});

const editor = createConversationEditor(document.getElementById('conversation-box'), {
  onChange(next, how, pasted) {
    messages = next;
    // Text edits keep a pasted line's split; adding, removing or moving a message ends it.
    if (how === 'paste') promptLength = pasted?.promptLength ?? null;
    else if (how !== 'typing') promptLength = null;
    state = withConversation(state, messages, promptLength);
    if (how === 'paste') setLineKwargs(pasted?.kwargs ?? null);
    const carried = linkCarries(state, messages);
    editor.setPreset(!state.c && carried ? state.p : '');
    write();
    recompute();
    // Too long for the link as it is: packed into it when that fits (then the note never shows).
    if (carried) showLinkNote();
    else packIntoLink();
  },
  onPreset(id) {
    messages = presetById(id).messages;
    promptLength = null;
    setLineKwargs(null);
    state = { ...state, p: id, c: '', pl: 0 };
    showLinkNote();
    editor.set(messages, id);
    write();
    recompute();
  },
  onTrainCompletion() {
    state = { ...state, t: 'completion' };
    write();
    recompute();
    // The choice made is where the keyboard goes next; on a phone the summary follows it there.
    document.querySelector('input[name="t"][value="completion"]').focus();
  },
  announce: (text) => {
    announcer.textContent = text;
  },
});
editor.set(messages, state.c ? '' : state.p);
const lineArgumentsView = createLineArguments({
  onDrop() {
    setLineKwargs(null);
    showLinkNote();
    document.querySelector('#conversation-box .paste-box summary').focus();
    write();
    recompute();
  },
  announce: (text) => {
    announcer.textContent = text;
  },
});
document.querySelector('#conversation-box .paste-box').after(lineArgumentsView.element);
lineArgumentsView.set(lineKwargs);
// A conversation too long for the link is left out of it: say so, before anyone shares the link.
const linkNote = h('p', { class: 'note-box link-note', id: 'link-note', hidden: true });
lineArgumentsView.element.after(linkNote);
function showLinkNote() {
  const conversationLeft = !linkCarries(state, messages);
  const argumentsLeft = Boolean(lineKwargs) && !state.kw && !packingArguments;
  linkNote.hidden = !conversationLeft && !argumentsLeft;
  const what = conversationLeft && argumentsLeft ? TEXT.bothTooLong : conversationLeft ? TEXT.conversationTooLong : TEXT.argumentsTooLong;
  linkNote.textContent = linkNote.hidden ? '' : TEXT.tooLongForLink(what);
}

function setLineKwargs(kwargs) {
  lineKwargs = kwargs;
  state = withLineArguments(state, kwargs);
  lineArgumentsView.set(kwargs);
  packingArguments = false;
  // Too long for the link as JSON (a long list of tool schemas): packed into it when that fits.
  if (kwargs && !state.kw) packArgumentsIntoLink();
}

function packArgumentsIntoLink() {
  const packing = lineKwargs;
  packingArguments = true;
  withPackedLineArguments(state, lineKwargs).then((packed) => {
    if (lineKwargs !== packing) return; // other arguments meanwhile: they pack their own
    packingArguments = false;
    if (packed) {
      state = { ...state, kw: packed.kw };
      write();
    }
    showLinkNote();
  });
}

function packIntoLink() {
  const packing = messages;
  withPackedConversation(state, messages, promptLength).then((packed) => {
    if (messages !== packing) return; // the conversation changed meanwhile: that change packs its own
    if (packed) {
      state = { ...state, c: packed.c, pl: packed.pl };
      write();
    }
    showLinkNote();
  });
}

const policyForm = createPolicyForm(document.getElementById('policy-form'), {
  onChange(patch) {
    state = { ...state, ...patch };
    write();
    recompute();
  },
});

const chips = createTokenChips(document.getElementById('chips'), { label: TEXT.chipsLabel });
document.getElementById('chip-legend').append(createChipLegend());
const summary = createChatSummary(
  {
    figures: document.getElementById('figures'),
    turns: document.getElementById('turns'),
    warnings: document.getElementById('warnings'),
    notes: document.getElementById('span-notes'),
  },
  {
    reasons: CHIP_TEXT.reasons,
    onShow(positions) {
      chips.flag(positions);
      chips.focus(positions[0]);
    },
  },
);

let breakPanel = null;
let batchPanel = null;
const datasetPanel = createDatasetPanel(document.getElementById('dataset-command'));
datasetPanel.update({ state, messages, promptLength, kwargs: lineKwargs });

function write() {
  CHAT_STATE.write(state);
}

function analysisOptions() {
  return optionsFor(state, { template: ownTemplate, promptLength, lineKwargs });
}

function showProblem(error) {
  const where = error.messageIndex !== null && error.messageIndex !== undefined ? error.messageIndex : null;
  if (where !== null) editor.showError(where, error.message);
  else editor.clearError();
  problemBox.hidden = false;
  problemBox.textContent = TEXT.problem(error.message);
  // A template of the learner's own that fails is also named beside its button, where they are.
  if (ownTemplate && (error.kind === 'template' || error.kind === 'render')) familyPanel.templateProblem(problemBox.textContent);
  policyEcho.textContent = problemBox.textContent;
  policyEcho.classList.add('failed');
  staleNote.hidden = false;
  staleNote.textContent = lastGood ? TEXT.stale : TEXT.nothingYet;
  document.getElementById('token-view').classList.toggle('stale', Boolean(lastGood));
}

function clearProblem() {
  editor.clearError();
  familyPanel.templateProblem(null);
  problemBox.hidden = true;
  staleNote.hidden = true;
  document.getElementById('token-view').classList.remove('stale');
}

const WORKING_AFTER_MS = 600;
function showWorking() {
  staleNote.hidden = false;
  staleNote.textContent = TEXT.working;
  document.getElementById('token-view').classList.add('stale');
}

async function recompute() {
  policyForm.set(state, familyInfo, lastGood?.chat);
  datasetPanel.update({ state, messages, promptLength, kwargs: lineKwargs, ownTemplate: Boolean(ownTemplate) });
  if (!core || !familyInfo) return;
  analysisVersion += 1;
  const mine = analysisVersion;
  const family = state.f;
  const policies = policiesOf(state, familyById(family));
  const options = analysisOptions();
  let result;
  const first = early;
  early = null;
  // Most analyses answer within a frame or two; a slow one (a long conversation, a template that
  // loops until the worker stops it) says that the tokens on screen are the previous ones.
  const slow = setTimeout(() => mine === analysisVersion && lastGood && showWorking(), WORKING_AFTER_MS);
  try {
    const key = JSON.stringify([family, messages, options, policies]);
    result = await (first?.key === key ? first.promise : analyse(family, messages, options, policies));
  } catch (error) {
    if (mine !== analysisVersion) return;
    showProblem(error);
    document.body.dataset.state = 'ready';
    return;
  } finally {
    clearTimeout(slow);
  }
  if (mine !== analysisVersion) return;
  const answer = core.chat(result.request);
  if (answer.error) {
    showProblem({ message: TEXT.refused(`${answer.error.field}: ${answer.error.message}`), messageIndex: null });
    document.body.dataset.state = 'ready';
    return;
  }
  clearProblem();
  lastGood = { chat: result.chat, answer };
  const drawStart = performance.now();
  chips.update(result.chat, answer);
  summary.update(result.chat, answer);
  document.body.dataset.drawMs = String(Math.round(performance.now() - drawStart));
  policyForm.set(state, familyInfo, result.chat);
  const warningCount = answer.warnings.filter((w) => w.severity !== 'info').length;
  quickSummary.textContent = TEXT.summary(answer.trained_tokens, answer.input_ids.length, warningCount);
  announcer.textContent = quickSummary.textContent;
  policyEcho.textContent = quickSummary.textContent;
  policyEcho.classList.remove('failed');
  document.body.dataset.state = 'ready';
  document.body.dataset.analysisMs = String(Math.round(result.ms));
  scheduleLowerPanels();
}

// The panels below the fold re-run two to five more analyses; they wait until edits pause and
// run only while on screen (or about to be), so an edit's own labels are never queued behind them.
const LOWER_PANEL_PAUSE_MS = 400;
let lowerTimer = null;
let lowerVisible = false;
let lowerStale = true;
function scheduleLowerPanels() {
  lowerStale = true;
  clearTimeout(lowerTimer);
  lowerTimer = setTimeout(() => {
    if (lowerVisible) {
      lowerStale = false;
      updateLowerPanels();
    }
  }, LOWER_PANEL_PAUSE_MS);
}
new IntersectionObserver(
  (entries) => {
    lowerVisible = entries.some((e) => e.isIntersecting);
    if (lowerVisible && lowerStale) scheduleLowerPanels();
  },
  { rootMargin: '600px 0px' },
).observe(document.getElementById('lower-panels'));

function updateLowerPanels() {
  if (!core || !familyInfo) return;
  const template = ownTemplate;
  breakPanel ??= createBreakPanel(document.getElementById('break'), {
    analyse,
    core,
    onScenario(id) {
      state = { ...state, brk: id };
      write();
      updateLowerPanels();
    },
  });
  batchPanel ??= createBatchPanel(document.getElementById('batch'), {
    analyse,
    core,
    onChange(patch) {
      state = { ...state, ...patch };
      write();
      updateLowerPanels();
    },
  });
  const breakHidden = document.querySelector('[data-panel="break"]').hidden;
  const batchHidden = document.querySelector('[data-panel="batch"]').hidden;
  if (!breakHidden) {
    const { promptLength: split, kwargs } = analysisOptions();
    breakPanel.show({ family: state.f, messages, template, line: { promptLength: split, kwargs }, scenario: state.brk, exercise });
  }
  if (!batchHidden) {
    const policies = policiesOf(state, familyById(state.f));
    const pad = familyInfo.pad;
    const padId = state.pad === 'eos' ? familyInfo.eosChoices[state.eos]?.id ?? pad.id : pad.id;
    const padToken = state.pad === 'eos' ? familyInfo.eosChoices[state.eos]?.token ?? pad.token : pad.token;
    batchPanel.show({ family: state.f, messages, template, options: analysisOptions(), policies, state, padId, padToken });
  }
}

async function loadFamily() {
  const id = state.f;
  familyInfo = null;
  familyPanel.set(id);
  familyPanel.loading();
  let cachedAll = true;
  try {
    const info = await client.load(id, (p) => {
      cachedAll = cachedAll && p.cached;
      if (state.f === id) familyPanel.progress(p);
    });
    if (state.f !== id) return;
    familyInfo = info;
    familyPanel.loaded(info, { cached: cachedAll });
    recompute();
  } catch (error) {
    if (state.f !== id) return;
    familyPanel.failed(error.message);
    document.body.dataset.state = 'ready';
  }
}

async function loadExerciseScenario() {
  if (!state.ex) return;
  const ex = await loadExercise(state.ex).catch(() => null);
  if (ex?.see_it_break?.kind !== 'chat') {
    addNote(TEXT.exerciseMissing(state.ex));
    return;
  }
  exercise = ex;
  // The exercise names its family and conversation: the comparison is about exactly those, unless
  // the link itself carries others (a learner's edit, kept in the URL).
  const params = new URLSearchParams(location.search);
  if (!params.has('f')) state = { ...state, f: ex.see_it_break.family };
  if (!params.has('c')) {
    messages = ex.see_it_break.conversation.map((m) => ({ role: m.role, content: m.content }));
    promptLength = null;
    setLineKwargs(null);
    state = withConversation(state, messages);
    editor.set(messages, state.c ? '' : state.p);
  }
}

status.textContent = TEXT.coreLoading;
const corePromise = loadChat(); // the chat module: chat, and collate for the batch panel
if (state.tpl) {
  const restored = await templateFromLink(state.tpl, templateStorage());
  ownTemplate = restored.text;
  familyPanel.setOwnTemplate(restored.text, restored.problem ?? '');
  addNote(restored.problem);
}
if (initial.packed) {
  // A long conversation travels packed in the link: unpacked before anything is analysed.
  const unpacked = await conversationFromLink(state);
  messages = unpacked.messages;
  promptLength = unpacked.promptLength;
  editor.set(messages, unpacked.problem ? state.p : '');
  addNote(unpacked.problem);
}
if (lineArguments.packed) {
  // So do long template arguments (tool schemas): unpacked before anything is rendered.
  const unpacked = await lineArgumentsFromLink(state);
  lineKwargs = unpacked.kwargs;
  lineArgumentsView.set(lineKwargs);
  addNote(unpacked.problem);
}
await loadExerciseScenario();
loadFamily();
try {
  core = await corePromise;
  status.textContent = TEXT.ready;
  recompute();
} catch (error) {
  status.textContent = TEXT.coreFailed(error.message);
  status.setAttribute('role', 'alert');
  status.classList.add('error-box');
  document.body.dataset.state = 'ready';
}
