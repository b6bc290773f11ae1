// practice/main.js — interview practice (practice.html): set up, then for each drawn exercise the
// find-the-bug step and its follow-ups one at a time, then a summary saved to the history.
//
// One state object, mirrored in the URL (practice-state.js), so a reload or a shared link resumes
// the same set at the same step with the same results. Every step change re-renders the step and
// moves focus to its heading; time spent is measured per exercise and, with a timer, counted
// down (timer.js). The find-the-bug step reuses the exercise page's passage and scoring. Nothing
// here needs the wasm core: the page shows scores and the content's own answers.
// Not here: the draw (draw.js), step bookkeeping (session.js), the screens (*-view.js, *-step.js).

import { liveRegion } from '../shared/dom.js';
import { showUrlNote } from '../shared/url-note.js';
import { postToHost } from '../shared/embed.js';
import { activityUrl, xapiStatement } from '../shared/xapi.js';
import { applyHiddenPanels, initPage } from '../shared/page.js';
import { renderEmbedPanelLater } from '../shared/share-later.js';
import { painted } from '../shared/later.js';
import { loadProgress, recordAttempt, recordPractice } from '../shared/store.js';
import { readDraft, saveDraft } from '../shared/drafts.js';
import { exerciseIndex, loadExercise } from '../exercise/catalog.js';
import { createBugStep } from './bug-step.js';
import { drawExercises } from './draw.js';
import { createFollowUpStep } from './followup-step.js';
import { renderHistory } from './history-view.js';
import { PRACTICE_STATE, formatStep, parseStep, randomSeed } from './practice-state.js';
import { frontier, gradeOffsets, gradesOf, historyRecord, nextStep, sanitizeResults, stepAgrees, summarize } from './session.js';
import { createSetupView } from './setup-view.js';
import { renderSummary } from './summary-view.js';
import { createCountdown, startStopwatch } from './timer.js';
import '../exercise/exercise.css';
import './practice.css';

// Every user-visible string of the page script, in one place.
const TEXT = {
  noContent: 'No exercises are available: the content has not been compiled (run node scripts/content/build-content.mjs).',
  loading: 'Loading the exercises…',
  loadFailed: (message) => `The practice set could not be loaded: ${message}`,
  missingExercise: (id) => `the exercise “${id}” is missing from this build`,
  nothingMatches: 'No exercise matches the link’s filters, so the session could not start. Change the filters below.',
  stepMoved: 'The link’s step did not match its results; the session resumes where the results end.',
  progress: (i, count, j, followUps) => `Exercise ${i} of ${count} · ${j === 0 ? 'find the bug' : `follow-up ${j} of ${followUps}`}`,
  progressBar: 'Steps done in this session',
  pageTitle: (progress) => `${progress} — Interview practice — masklab`,
  setupTitle: 'Interview practice — masklab',
  summaryTitle: 'Practice summary — masklab',
  toFollowUps: 'Next: follow-up questions',
  nextFollowUp: 'Next follow-up',
  nextExercise: 'Next exercise',
  finish: 'Finish and see the summary',
  endNow: 'End the session now',
  announceScore: (score, max) => `Checked. Score ${score} out of ${max}.`,
  announceStart: (count, minutes) => `Session started: ${count} exercise${count === 1 ? '' : 's'}${minutes ? `, ${minutes} minutes on the timer` : ''}.`,
  announceSummary: (score, max) => `Session over. Find the bug: ${score} out of ${max}. The summary follows.`,
};

initPage({ widget: 'practice' });
const sharePanel = document.getElementById('share-panel');
renderEmbedPanelLater(sharePanel, { page: 'practice.html', title: 'masklab interview practice', height: 1000 });
const shareHidden = sharePanel.hidden; // hidden for good inside an embed

// Typed follow-up answers, kept for this visit (sessionStorage) by seed, exercise and question,
// so going on, reloading or reaching the summary never loses them.
const draftKey = (exerciseId, j) => `masklab.practice.${state.seed}.${exerciseId}.${j}`;

const announcer = liveRegion();
document.body.append(announcer);
// Messages given in the same frame are joined ("Time is up." + the summary's), not overwritten.
let pendingAnnouncement = null;
const announce = (message) => {
  if (pendingAnnouncement !== null) {
    pendingAnnouncement += ` ${message}`;
    return;
  }
  pendingAnnouncement = message;
  // Clearing first makes a repeated message announce again.
  announcer.textContent = '';
  requestAnimationFrame(() => {
    announcer.textContent = pendingAnnouncement;
    pendingAnnouncement = null;
  });
};

const el = {
  status: document.getElementById('status'),
  urlNote: document.getElementById('url-note'),
  setup: document.getElementById('setup-screen'),
  session: document.getElementById('session-screen'),
  summary: document.getElementById('summary-screen'),
  history: document.getElementById('history-panel'),
  progressText: document.getElementById('session-progress'),
  progressBar: document.getElementById('session-progress-bar'),
  timer: document.getElementById('session-timer'),
  step: document.getElementById('step-box'),
  end: document.getElementById('end-session'),
};

let state; // the URL state (practice-state.js)
let set = null; // the drawn exercises' JSON, in order
let setMeta = null; // what session.js needs of each: { id, title, maxScore, followUpCount }
let step = { screen: 'setup' };
let spentMs = []; // time on each exercise, ms; the URL keeps whole seconds (state.times)
let stopClock = null;
let countdown = null;
let sinceWrite = 0;
let stepView = null;

const save = () => PRACTICE_STATE.write(state);
const update = (partial) => {
  state = { ...state, ...partial };
  save();
};
const results = () => ({ scores: state.scores.map(Number), grades: state.grades, times: state.times.map(Number) });
const limitSeconds = () => (state.timer === 'off' ? null : Number(state.timer) * 60);
const usedSeconds = () => spentMs.reduce((sum, ms) => sum + ms, 0) / 1000;
const show = (screen) => {
  el.setup.hidden = screen !== 'setup';
  el.session.hidden = screen !== 'session';
  el.summary.hidden = screen !== 'summary';
  el.history.hidden = screen === 'session';
  // No "embed this page" during a session: it is not what a candidate is doing.
  sharePanel.hidden = shareHidden || screen === 'session';
  applyHiddenPanels(); // a ?hide= switch wins over "shown"
};

function showNotes(notes) {
  showUrlNote(el.urlNote, notes);
}

function fail(message) {
  el.status.hidden = false;
  el.status.removeAttribute('role');
  el.status.classList.remove('status');
  el.status.classList.add('error-box');
  el.status.setAttribute('role', 'alert');
  el.status.textContent = message;
  document.body.dataset.state = 'error';
}

// ---- time ------------------------------------------------------------------------------------

function syncTimes() {
  state = { ...state, times: spentMs.map((ms) => String(Math.round(ms / 1000))) };
}

function startClock() {
  if (stopClock) return;
  sinceWrite = 0;
  stopClock = startStopwatch((ms) => {
    if (step.screen !== 'exercise') return;
    spentMs[step.exercise] += ms;
    sinceWrite += ms;
    if (sinceWrite >= 5000) {
      // Often enough that a reload loses little time; rarely enough not to flood history.replaceState.
      sinceWrite = 0;
      syncTimes();
      save();
    }
    countdown?.show(usedSeconds());
  });
}

function stopTheClock() {
  if (!stopClock) return;
  const stop = stopClock;
  stopClock = null;
  stop();
  syncTimes();
}

function setUpCountdown() {
  const limit = limitSeconds();
  el.timer.hidden = limit === null;
  countdown =
    limit === null
      ? null
      : createCountdown(el.timer, {
          limitSeconds: limit,
          announce,
          onTimeUp: () => showSummary({ record: true, focus: true }),
        });
}

// ---- the set ---------------------------------------------------------------------------------

async function loadSet() {
  const { ids } = drawExercises(exerciseIndex(), { n: state.n, tags: state.tags, levels: state.levels, seed: state.seed });
  if (ids.length === 0) return false;
  const loaded = await Promise.all(ids.map((id) => loadExercise(id)));
  const missing = ids.find((id, i) => !loaded[i]);
  if (missing) throw new Error(TEXT.missingExercise(missing));
  set = loaded;
  setMeta = set.map((e) => ({ id: e.id, title: e.title, maxScore: e.errors.length, followUpCount: e.follow_ups.length }));
  return true;
}

// ---- steps -----------------------------------------------------------------------------------

function nextLabel(current) {
  const next = nextStep(setMeta, current);
  if (next.screen === 'summary') return TEXT.finish;
  if (next.exercise !== current.exercise) return TEXT.nextExercise;
  return current.followUp === 0 ? TEXT.toFollowUps : TEXT.nextFollowUp;
}

function stepsDone(current) {
  // Steps before this one: every earlier exercise's find-the-bug step and follow-ups, then this one's.
  const offsets = gradeOffsets(setMeta);
  return current.exercise + offsets[current.exercise] + current.followUp;
}

function renderProgress(current) {
  const exercise = set[current.exercise];
  const text = TEXT.progress(current.exercise + 1, set.length, current.followUp, exercise.follow_ups.length);
  el.progressText.textContent = text;
  el.progressBar.max = set.length + gradeOffsets(setMeta)[set.length];
  el.progressBar.value = stepsDone(current);
  document.title = TEXT.pageTitle(text);
}

function goNext() {
  const next = nextStep(setMeta, step);
  if (next.screen === 'summary') showSummary({ record: true, focus: true });
  else showStep(next, { focus: true, fresh: true });
}

function showStep(target, { focus = false, fresh = false } = {}) {
  import('../exercise/math.js'); // formulas in reasons and model answers: their stylesheet, not on the set-up screen
  step = target;
  if (fresh) state = { ...state, marked: [], revealed: false };
  syncTimes();
  update({ step: formatStep(step) });
  show('session');
  renderProgress(step);
  startClock();
  const i = step.exercise;
  const exercise = set[i];

  if (step.followUp === 0) {
    stepView = createBugStep(el.step, exercise, {
      marked: new Set(state.marked.map(Number)),
      checked: state.scores.length === i + 1,
      nextLabel: nextLabel(step),
      onMarks(marked) {
        update({ marked: [...marked].sort((a, b) => a - b).map(String) });
      },
      onCheck(scored, marked) {
        update({ scores: [...state.scores.slice(0, i), String(scored.score)], marked: [...marked].sort((a, b) => a - b).map(String) });
        recordAttempt(exercise.id, scored.score, scored.maxScore);
        announce(TEXT.announceScore(scored.score, scored.maxScore));
        const sorted = [...marked].sort((a, b) => a - b);
        // A practice step is checked once and shows no solution first.
        postToHost('answered', { widget: 'practice', exercise: exercise.id, score: scored.score, maxScore: scored.maxScore, marked: sorted, solution_shown: false, attempt: 1 });
        for (const verb of ['answered', 'completed'])
          postToHost('xapi', {
            widget: 'practice',
            exercise: exercise.id,
            statement: xapiStatement(verb, { activityUrl: activityUrl(exercise.id), title: exercise.title, score: scored.score, maxScore: scored.maxScore, solutionShown: false, attempt: 1, marked: sorted }),
          });
      },
      onNext: goNext,
    });
    // A checked step restored from the URL: its score is what its marks score now.
    if (state.scores.length === i + 1) {
      const { score } = stepView.score();
      if (String(score) !== state.scores[i]) update({ scores: [...state.scores.slice(0, i), String(score)] });
    }
  } else {
    const j = step.followUp;
    const offset = gradeOffsets(setMeta)[i] + j - 1;
    stepView = createFollowUpStep(el.step, exercise, j, {
      revealed: state.revealed,
      grade: state.grades[offset] ?? null,
      draft: readDraft(draftKey(exercise.id, j)),
      onDraft: (text) => saveDraft(draftKey(exercise.id, j), text),
      nextLabel: nextLabel(step),
      onReveal() {
        update({ revealed: true });
      },
      onGrade(letter) {
        update({ grades: state.grades.slice(0, offset) + letter, revealed: true });
      },
      onNext: goNext,
    });
  }
  applyHiddenPanels(el.step);
  if (focus) stepView.focusHeading();
}

// ---- summary and set-up ----------------------------------------------------------------------

function showSummary({ record, focus }) {
  stopTheClock();
  step = { screen: 'summary' };
  const summary = summarize(setMeta, results());
  const limit = limitSeconds();
  const timeUp = limit !== null && summary.totals.seconds >= limit;
  const recordNow = record && !state.saved;
  if (recordNow) {
    recordPractice(historyRecord(summary, state.seed));
    state = { ...state, saved: true };
  }
  update({ step: 'summary', marked: [], revealed: false });
  const view = renderSummary(el.summary, summary, {
    timeUp,
    saved: recordNow,
    seed: state.seed,
    answerOf: (exerciseId, k) => readDraft(draftKey(exerciseId, k + 1)),
    onAgain: () => startSession({ seed: state.seed }),
    onNew: () => startSession({ seed: randomSeed() }),
    onSetup: () => showSetup({ focus: true }),
  });
  renderHistory(el.history, loadProgress().practice);
  show('summary');
  document.title = TEXT.summaryTitle;
  if (record) announce(TEXT.announceSummary(summary.totals.score, summary.totals.maxScore));
  if (focus) view.focusHeading();
}

let setupView = null;

function showSetup({ focus = false } = {}) {
  stopTheClock();
  step = { screen: 'setup' };
  set = null;
  update({ step: 'setup', scores: [], grades: '', times: [], marked: [], revealed: false, saved: false });
  // Built afresh each time, so it shows the settings of the session just ended (a new seed, …).
  el.setup.replaceChildren();
  setupView = createSetupView(el.setup, exerciseIndex(), {
    settings: state,
    onChange: (partial) => update(partial),
    onStart: (settings) => startSession(settings),
  });
  applyHiddenPanels(el.setup);
  renderHistory(el.history, loadProgress().practice);
  show('setup');
  document.title = TEXT.setupTitle;
  if (focus) setupView.focusHeading();
}

async function startSession(settings) {
  stopTheClock();
  state = { ...state, ...settings, step: '1', scores: [], grades: '', times: [], marked: [], revealed: false, saved: false };
  try {
    if (!(await loadSet())) return showSetup({ focus: true });
  } catch (error) {
    return fail(TEXT.loadFailed(error.message));
  }
  spentMs = set.map(() => 0);
  setUpCountdown();
  countdown?.show(0);
  announce(TEXT.announceStart(set.length, limitSeconds() === null ? 0 : Number(state.timer)));
  showStep({ screen: 'exercise', exercise: 0, followUp: 0 }, { focus: true, fresh: true });
}

// ---- first load ------------------------------------------------------------------------------

async function main() {
  if (exerciseIndex().length === 0) return fail(TEXT.noContent);
  await painted(); // the page's HTML is painted before the set-up form is built
  const read = PRACTICE_STATE.read();
  state = read.state;
  const notes = read.problems.map((p) => p.message);
  if (!state.seed) state = { ...state, seed: randomSeed() };
  const wanted = parseStep(state.step);

  if (wanted.screen === 'setup') {
    showSetup();
  } else {
    el.status.textContent = TEXT.loading;
    if (!(await loadSet())) {
      notes.push(TEXT.nothingMatches);
      showSetup();
    } else {
      const clean = sanitizeResults(setMeta, results());
      notes.push(...clean.problems);
      state = { ...state, scores: clean.results.scores.map(String), grades: clean.results.grades, times: clean.results.times.map(String) };
      spentMs = clean.results.times.map((s) => s * 1000);
      let target = wanted;
      if (!stepAgrees(setMeta, clean.results, wanted)) {
        notes.push(TEXT.stepMoved);
        target = frontier(setMeta, clean.results);
        state = { ...state, marked: [], revealed: false };
      }
      setUpCountdown();
      const limit = limitSeconds();
      if (target.screen === 'summary') showSummary({ record: false, focus: false });
      else if (limit !== null && usedSeconds() >= limit) showSummary({ record: true, focus: false });
      else {
        countdown?.show(usedSeconds());
        showStep(target);
      }
    }
  }
  showNotes(notes);
  el.status.hidden = true;
  document.body.dataset.state = 'ready';
}

el.end.textContent = TEXT.endNow;
el.end.addEventListener('click', () => showSummary({ record: true, focus: true }));
el.progressBar.setAttribute('aria-label', TEXT.progressBar);

main().catch((error) => fail(TEXT.loadFailed(error.message)));
