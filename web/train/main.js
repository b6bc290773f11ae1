// train/main.js — the Train it page (train.html): pick a bug, train a tiny transformer twice (the
// buggy collator and the fixed one) in two Web Workers, and watch the curves, the samples and the
// batches. State is the URL (train-state.js); the numbers are the core's, computed in the workers
// (train-worker.js) and drawn here as they arrive (curves.js, samples.js, batch-view.js).
//
// The main thread only receives small typed arrays and redraws at most once per frame, so it
// never runs a long task while training. In an embed, a `trained` message with both runs' final
// figures is posted to the host when training ends (shared/embed.js).

import { h, liveRegion, replaceChildren } from '../shared/dom.js';
import { showUrlNote } from '../shared/url-note.js';
import { postToHost } from '../shared/embed.js';
import { formatCount, formatLoss, formatNumber } from '../shared/format.js';
import { painted } from '../shared/later.js';
import { initPage } from '../shared/page.js';
import { renderEmbedPanelLater } from '../shared/share-later.js';
import { exerciseIndex } from '../exercise/catalog.js';
import { renderBatches } from './batch-view.js';
import { BUG_TEXT } from './bugs.js';
import { createCurves } from './curves.js';
import { renderSamples } from './samples.js';
import { BUGS, LEARNING_RATES, MIXES, MODELS, TRAIN_STATE, toSettings } from './train-state.js';
import { RUNS, createTrainer } from './trainer.js';
import './train.css';

// Every user-visible string of the page script, in one place.
const TEXT = {
  ready: 'Ready. Press Train: both runs train in background threads, so the page stays responsive.',
  loading: 'Starting both runs…',
  training: 'Training both runs…',
  paused: (step) => `Paused at step ${step}. Press Resume to go on.`,
  done: (buggy, fixed) => `Done. Eval loss: buggy ${buggy}, fixed ${fixed}.`,
  reset: 'Reset. Change the settings or press Train.',
  failed: (run, error) => `The ${run} run stopped: ${error.field ? `${error.field}: ` : ''}${error.message}`,
  stepCount: (step, total) => `Step ${step} of ${total}`,
  speed: (perSecond) => `${perSecond} steps/s per run`,
  pause: 'Pause',
  resume: 'Resume',
  train: 'Train',
  trainAgain: 'Train again',
  announceStart: (bug) => `Training started: ${bug}.`,
  announcePause: (step) => `Paused at step ${step}.`,
  announceResume: 'Resumed.',
  buggyRun: 'Buggy collator',
  fixedRun: 'Fixed collator',
  exercisesIntro: 'Exercises about this bug:',
  lookWhen: 'Once both runs have trained:',
  figures: {
    evalBuggy: 'eval loss, buggy',
    evalFixed: 'eval loss, fixed',
    eosBuggy: 'P(<eos>) at the end, buggy',
    eosFixed: 'P(<eos>) at the end, fixed',
    reportedBuggy: 'reported loss, buggy',
    realBuggy: 'real-target loss, buggy',
  },
  models: { tiny: 'tiny (fastest)', small: 'small (default)', medium: 'medium (slowest)' },
  mixes: { uniform: 'uniform: every answer length equally often', skewed: 'skewed: mostly short answers, a few long' },
  settingError: (label, min, max) => `${label} must be a whole number from ${min} to ${max}.`,
  about: {
    task: 'The task: an animal and a count, answered with that many of its sounds, then <eos>. For example:',
    example: ['<bos>', 'cow', '3', ':', 'moo', 'moo', 'moo', '<eos>'],
    taskMore: 'The prompt (the first four tokens) is never trained in the fixed run; the count decides where `<eos>` goes, so a model only stops in the right place if `<eos>` is a target and its positions tell it how many sounds it has written. For each animal one count never appears in training: those held-out pairs are the eval set and the sample prompts.',
    model: (info) =>
      `The model: a causal transformer shaped like GPT-2, ${info.layers} layer${info.layers === 1 ? '' : 's'}, width ${info.width}, ${info.heads} attention heads, learned positions 0–${info.context - 1}, ${formatCount(info.parameters)} parameters. Its attention reads \`attention_mask\` and \`position_ids\` exactly as a Hugging Face causal LM does; a query with nothing to read gets zeros, as PyTorch’s SDPA gives.`,
    modelBefore: 'The model: a causal transformer shaped like GPT-2 (its size is shown here once training starts). Its attention reads `attention_mask` and `position_ids` exactly as a Hugging Face causal LM does.',
    loop: (info) =>
      `The loop: ${info.batch_rows} rows per step, cross-entropy through masklab’s loss code, AdamW with PyTorch’s defaults (weight decay 0.01, not on biases and norms), gradients clipped to norm 1 and the learning rate decaying linearly to 0 as the Hugging Face Trainer does by default. Both runs start from the same weights and see the same rows in the same order; only the collator differs. The logged train loss is the mean since the last log, as the Trainer logs it.`,
    loopBefore: 'The loop: cross-entropy through masklab’s loss code, AdamW, gradient clipping and a linear learning-rate decay to 0. Both runs start from the same weights and see the same rows in the same order; only the collator differs.',
    rules: 'Every rule, with its sources: `docs/semantics.md` §9 in the repository; `masklab train` runs the same training from the command line.',
  },
  embedIntro: 'Paste this into a course page, a blog or an LMS. It embeds this bug with these settings in a frame that sizes itself; the host page can listen for ready, resize and trained messages (trained carries both runs’ final figures).',
};

initPage({ widget: 'train' });
renderEmbedPanelLater(document.getElementById('share-panel'), {
  page: 'train.html',
  title: 'masklab: train it, buggy collator vs fixed',
  height: 1500,
  text: { intro: TEXT.embedIntro },
});

const $ = (id) => document.getElementById(id);
const form = $('train-form');
const fieldset = $('settings');
const controls = {
  bug: $('bug'),
  steps: $('steps'),
  lr: $('lr'),
  seed: $('seed'),
  model: $('model'),
  mix: $('mix'),
  every: $('every'),
};
const trainButton = $('train');
const pauseButton = $('pause');
const resetButton = $('reset');
const progress = $('progress');
const stepCount = $('step-count');
const speed = $('speed');
const status = $('status');
const settingsError = $('settings-error');
const figures = $('figures');
const announcer = liveRegion();
document.body.append(announcer);
const announce = (text) => {
  announcer.textContent = text;
};

const { state: initial, problems } = TRAIN_STATE.read();
let state = initial;
if (problems.length) {
  const urlNote = $('url-note');
  showUrlNote(urlNote, problems.map((p) => p.message));
}

// ---------------------------------------------------------------------------------------------
// Settings form

function options(select, values, label, selected) {
  replaceChildren(select, values.map((value) => h('option', { value: String(value), selected: value === selected }, label(value))));
}

function fillForm() {
  options(controls.bug, BUGS, (bug) => BUG_TEXT[bug].label, state.bug);
  const rates = LEARNING_RATES.includes(state.lr) ? LEARNING_RATES : [...LEARNING_RATES, state.lr].sort((a, b) => a - b);
  options(controls.lr, rates, String, state.lr);
  options(controls.model, MODELS, (m) => TEXT.models[m], state.model);
  options(controls.mix, MIXES, (m) => TEXT.mixes[m], state.mix);
  controls.steps.value = String(state.steps);
  controls.seed.value = String(state.seed);
  controls.every.value = String(state.every);
}

// Backticks in the bug texts mark code.
function rich(text) {
  return text.split(/(`[^`]*`)/).map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? h('code', {}, part.slice(1, -1)) : part));
}

function showBug() {
  const bug = BUG_TEXT[state.bug];
  const linked = exerciseIndex().filter((e) => e.train_bug === state.bug);
  replaceChildren(
    $('bug-about'),
    h(
      'dl',
      { class: 'recipes' },
      h('div', { class: 'recipe buggy' }, h('dt', {}, h('span', { class: 'swatch buggy dashed', 'aria-hidden': 'true' }), TEXT.buggyRun), h('dd', {}, rich(bug.buggy))),
      h('div', { class: 'recipe fixed' }, h('dt', {}, h('span', { class: 'swatch fixed solid', 'aria-hidden': 'true' }), TEXT.fixedRun), h('dd', {}, rich(bug.fixed))),
    ),
    linked.length
      ? h(
          'p',
          { class: 'exercise-links' },
          TEXT.exercisesIntro,
          ' ',
          linked.map((e, i) => [i ? '; ' : '', h('a', { href: `./exercise.html?ex=${encodeURIComponent(e.id)}` }, e.title)]),
        )
      : null,
  );
  replaceChildren($('look'), h('p', {}, TEXT.lookWhen), h('ul', {}, bug.look.map((line) => h('li', {}, rich(line)))));
}

function readInt(input, min, max, label) {
  const n = Number(input.value);
  if (input.value.trim() === '' || !Number.isInteger(n) || n < min || n > max) throw new Error(TEXT.settingError(label, min, max));
  return n;
}

// Reads the form into the state; a bad number is reported next to the fields and not written.
function readForm() {
  try {
    const next = {
      ...state,
      bug: controls.bug.value,
      lr: Number(controls.lr.value),
      model: controls.model.value,
      mix: controls.mix.value,
      steps: readInt(controls.steps, 10, 3000, 'Steps'),
      seed: readInt(controls.seed, 0, 999999999, 'Seed'),
      every: readInt(controls.every, 1, 100, 'Log every'),
    };
    settingsError.hidden = true;
    for (const input of [controls.steps, controls.seed, controls.every]) input.removeAttribute('aria-invalid');
    state = next;
    TRAIN_STATE.write(state);
    return true;
  } catch (error) {
    settingsError.hidden = false;
    settingsError.textContent = error.message;
    for (const input of [controls.steps, controls.seed, controls.every]) {
      const bad = !/^\d+$/.test(input.value.trim()) || Number(input.value) < Number(input.min) || Number(input.value) > Number(input.max);
      if (bad) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
    return false;
  }
}

fillForm();
showBug();
// The settings are painted before the curves are built: creating the three empty uPlot charts
// (a layout each) took most of the time before the first frame.
await painted();
form.addEventListener('change', () => {
  if (readForm()) {
    showBug();
    if (phase === 'idle' && !curves.count('buggy')) {
      curves.setTotal(state.steps); // the empty axes and "Step 0 of N" follow Steps
      showProgress();
    }
  }
  if (phase === 'done') setPhase('idle'); // results stay on screen until the next Train
});

// ---------------------------------------------------------------------------------------------
// Training

const curves = createCurves($('curves'), state.steps);
let phase = 'idle'; // idle | training | paused | done | error
let runInfo = null;
let progressByRun = {};
let finished = {};
let batches = {};
let samples = {};
let clock = { activeMs: 0, since: 0 };

function setPhase(next) {
  phase = next;
  document.body.dataset.train = next;
  const running = next === 'training' || next === 'paused';
  fieldset.disabled = running;
  trainButton.disabled = running;
  trainButton.textContent = next === 'done' ? TEXT.trainAgain : TEXT.train;
  pauseButton.disabled = !running;
  pauseButton.textContent = next === 'paused' ? TEXT.resume : TEXT.pause;
  resetButton.disabled = next === 'idle' && !curves.count('buggy');
}

function setStatus(text, { error = false } = {}) {
  if (status.textContent !== text) status.textContent = text;
  status.classList.toggle('error-box', error);
  status.setAttribute('role', error ? 'alert' : 'status');
}

function stepsDone() {
  return Math.min(...RUNS.map((run) => progressByRun[run] ?? 0));
}

function activeMs() {
  return clock.activeMs + (phase === 'training' && clock.since ? performance.now() - clock.since : 0);
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function showProgress() {
  const step = stepsDone();
  progress.max = state.steps;
  progress.value = step;
  setText(stepCount, TEXT.stepCount(step, state.steps));
  const ms = activeMs();
  if (step > 0 && ms > 0) setText(speed, TEXT.speed(formatNumber(Math.round((step / ms) * 1000))));
}

function figure(key, label, value, text) {
  return h('div', { dataset: { figure: key } }, h('dt', {}, label), h('dd', { dataset: { value: String(value) } }, text));
}

// The latest logged figures of both runs, written into the same nodes each time.
function showFigures() {
  const b = curves.last('buggy');
  const f = curves.last('fixed');
  if (!b || !f) return;
  const values = [
    ['eval-buggy', TEXT.figures.evalBuggy, b[3], formatLoss(b[3])],
    ['eval-fixed', TEXT.figures.evalFixed, f[3], formatLoss(f[3])],
    ['eos-buggy', TEXT.figures.eosBuggy, b[4], formatNumber(b[4], 3)],
    ['eos-fixed', TEXT.figures.eosFixed, f[4], formatNumber(f[4], 3)],
    ['reported-buggy', TEXT.figures.reportedBuggy, b[1], formatLoss(b[1])],
    ['real-buggy', TEXT.figures.realBuggy, b[2], formatLoss(b[2])],
  ];
  if (!figures.children.length) replaceChildren(figures, values.map(([key, label, value, text]) => figure(key, label, value, text)));
  for (const [key, , value, text] of values) {
    const dd = figures.querySelector(`[data-figure="${key}"] dd`);
    dd.dataset.value = String(value);
    if (dd.textContent !== text) dd.textContent = text;
  }
  figures.hidden = false;
}

function showAbout() {
  const a = TEXT.about;
  replaceChildren(
    $('about'),
    h('p', {}, a.task),
    h('p', { class: 'tokens example' }, a.example.map((word, i) => h('span', { class: `tok${i < 4 ? ' prompt' : ''}${word === '<eos>' ? ' eos' : ''}` }, word))),
    h('p', {}, rich(a.taskMore)),
    h('p', {}, rich(runInfo ? a.model(runInfo) : a.modelBefore)),
    h('p', {}, rich(runInfo ? a.loop(runInfo) : a.loopBefore)),
    h('p', { class: 'status' }, rich(a.rules)),
  );
}
showAbout();

// Progress messages arrive many times a second from two workers: the page redraws what changed
// once per animation frame, so the main thread never holds a long task while training.
let renderQueued = false;
let linesArrived = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    showProgress();
    if (phase === 'paused') setStatus(TEXT.paused(stepsDone())); // a chunk that was under way has landed
    if (linesArrived) showFigures();
    linesArrived = false;
  });
}

function finalFigures(run) {
  const [step, train, real, evalLoss, eos] = curves.last(run);
  return { step, train_loss: train, real_loss: real, eval_loss: evalLoss, eos_prob_at_end: eos };
}

function finish() {
  const vocab = runInfo.vocab;
  renderSamples($('samples'), { vocab, buggy: samples.buggy, fixed: samples.fixed, limit: runInfo.max_new_tokens });
  clock.activeMs = activeMs();
  clock.since = 0;
  const keyboardOnPause = document.activeElement === pauseButton;
  setPhase('done');
  if (keyboardOnPause) trainButton.focus(); // Pause is disabled now; Train again is next

  showProgress();
  showFigures();
  const final = { buggy: finalFigures('buggy'), fixed: finalFigures('fixed') };
  setStatus(TEXT.done(formatLoss(final.buggy.eval_loss), formatLoss(final.fixed.eval_loss)));
  announce(TEXT.done(formatLoss(final.buggy.eval_loss), formatLoss(final.fixed.eval_loss)));
  postToHost('trained', { widget: 'train', bug: state.bug, settings: toSettings(state), final });
}

const trainer = createTrainer({
  onStarted(run, { info }) {
    runInfo = info;
    showAbout();
    if (phase === 'training') setStatus(TEXT.training);
  },
  onProgress(run, { stepsDone: done, lines }) {
    progressByRun[run] = done;
    if (lines.length) {
      curves.add(run, lines);
      linesArrived = true;
    }
    scheduleRender();
  },
  onBatch(run, { batch }) {
    batches[run] = batch;
    if (batches.buggy && batches.fixed && runInfo) renderBatches($('batch'), { vocab: runInfo.vocab, buggy: batches.buggy, fixed: batches.fixed });
  },
  onDone(run, payload) {
    finished[run] = true;
    samples[run] = payload.samples;
    if (RUNS.every((r) => finished[r])) finish();
  },
  onError(run, { error }) {
    trainer.reset();
    const keyboardOnPause = document.activeElement === pauseButton;
    setPhase('error');
    if (keyboardOnPause) trainButton.focus();
    setStatus(TEXT.failed(run, error), { error: true });
  },
});

function clearResults() {
  progressByRun = {};
  finished = {};
  batches = {};
  samples = {};
  clock = { activeMs: 0, since: 0 };
  curves.reset(state.steps);
  figures.hidden = true;
  replaceChildren(figures);
  replaceChildren($('samples'), h('p', { class: 'status' }, 'The samples appear when both runs have finished.'));
  replaceChildren($('batch'), h('p', { class: 'status' }, 'The batch appears after the first step.'));
  speed.textContent = '';
  showProgress();
}

function start() {
  if (!readForm()) {
    form.querySelector('details.more-settings').open = true;
    return;
  }
  const keyboardOnTrain = document.activeElement === trainButton;
  clearResults();
  setPhase('training');
  // The Train button is disabled while training: keep a keyboard user on the next control.
  if (keyboardOnTrain) pauseButton.focus();
  clock.since = performance.now();
  setStatus(TEXT.loading);
  announce(TEXT.announceStart(BUG_TEXT[state.bug].label));
  trainer.start(toSettings(state));
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  start();
});

pauseButton.addEventListener('click', () => {
  if (phase === 'training') {
    trainer.pause();
    clock.activeMs = activeMs();
    clock.since = 0;
    setPhase('paused');
    setStatus(TEXT.paused(stepsDone()));
    announce(TEXT.announcePause(stepsDone()));
  } else if (phase === 'paused') {
    trainer.resume();
    clock.since = performance.now();
    setPhase('training');
    setStatus(TEXT.training);
    announce(TEXT.announceResume);
  }
});

resetButton.addEventListener('click', () => {
  trainer.reset();
  clearResults();
  setPhase('idle');
  setStatus(TEXT.reset);
  announce(TEXT.reset);
  controls.bug.focus();
});

setPhase('idle');
showProgress();
document.body.dataset.state = 'ready';
if (state.autorun) start();
