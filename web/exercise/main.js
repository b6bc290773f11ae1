// exercise/main.js — the find-the-bug page (exercise.html?ex=<id>): mark, Check, Retry, Show
// solution, then the explanation, "See it break" and follow-ups. Without ?ex= it is the list of
// every exercise, filtered by level and topic (the home page's list, home/exercise-list.js).
// At the top: back to the list, the previous and the next exercise; after Check, a table of
// contents (sticky beside the page on wide screens) for the long explanation.
//
// Order of events: the exercise JSON (a small lazy chunk) renders the passage at once; the wasm
// core loads in parallel and only the "See it break" panel and the live numbers wait for it.
// State (exercise, marks, checked, solution, revealed answers) lives in the URL, so a reload or a
// shared link shows the same screen; attempts go to localStorage (store.js); in an iframe, Check
// posts `answered` to the host (embed.js). Not here: scoring rules (scoring.js), the listbox
// (passage-view.js), the explanation's layout (explanation.js).

import { loadCore } from '../core/masklab.js';
import { h, liveRegion, replaceChildren } from '../shared/dom.js';
import { showUrlNote } from '../shared/url-note.js';
import { postToHost } from '../shared/embed.js';
import { activityUrl, xapiStatement } from '../shared/xapi.js';
import { applyHiddenPanels, hiddenPanels, initPage } from '../shared/page.js';
import { loadProgress, recordAttempt } from '../shared/store.js';
import { MERGED_EXERCISES, exerciseIndex, loadExercise } from './catalog.js';
import { topicDescriptions } from './topics.js';
import { renderEmbedPanelLater } from '../shared/share-later.js';
import { EXERCISE_STATE } from './exercise-state.js';
import { focusableWideFormulas, renderExplanation } from './explanation.js';
import { afterPaint, painted, renderLater } from '../shared/later.js';
import { fillLiveNumbers, markLiveNumbersUnavailable } from './live-numbers.js';
import { createPassageView, resultLegend } from './passage-view.js';
import { scoreMarks, solutionUnits } from './scoring.js';
import { relatedExercises } from './related.js';
import { createSeeItBreak } from './see-it-break.js';
import { showToc } from './toc.js';
import { renderTrainLink } from './train-link.js';
import './exercise.css';

// Every user-visible string of the page, in one place.
const TEXT = {
  loading: 'Loading the exercise…',
  failTitle: 'Find the bug',
  noContent: 'No exercises are available: the content has not been compiled (run node scripts/content/build-content.mjs).',
  unknown: (id) => `There is no exercise called “${id}”.`,
  merged: (id) => `The exercise “${id}” has been merged into this one, so the link opens it here; marks and answers saved for the old passage do not apply and were dropped.`,
  seeAll: 'See all exercises',
  badUnits: (n) => `URL parameter marked named ${n} word${n === 1 ? '' : 's'} outside this passage; they were dropped.`,
  loadFailed: (message) => `The exercise could not be loaded: ${message}`,
  pageTitle: (title) => `${title} — find the bug — masklab`,
  level: { beginner: 'Beginner', intermediate: 'Intermediate', advanced: 'Advanced' },
  kind: { code: 'code', prose: 'text' },
  toFind: (n) => `${n} part${n === 1 ? '' : 's'} to find`,
  tagsLabel: 'Topics',
  check: 'Check',
  retry: 'Retry',
  solution: 'Show solution',
  markedCount: (n) => (n === 0 ? 'Nothing marked yet.' : `${n} word${n === 1 ? '' : 's'} marked.`),
  resultTitle: 'Your result',
  solutionTitle: 'Solution',
  score: (score, max) => `Score: ${score} / ${max}`,
  breakdown: (found, max, wrong) =>
    `You found ${found} of ${max} and marked ${wrong} word${wrong === 1 ? '' : 's'} that ${wrong === 1 ? 'is' : 'are'} not part of a bug. Score = found − wrong, never below 0.`,
  feedback(score, max) {
    if (score === max) return 'All of them — well spotted. Read the explanation below to check your reasons.';
    if (score === 0) return 'Not yet. Read why each part below is a bug, then try again or read on.';
    return 'Part of the way there. The list below shows what you found and what you missed.';
  },
  announceScore: (score, max) => `Checked. Score ${score} out of ${max}.`,
  announceSolution: (n) => `Solution shown: ${n} part${n === 1 ? '' : 's'} marked. Marking is switched off.`,
  announceRetry: 'Marks cleared. Try again.',
  progress: (rec) => `Attempts: ${rec.attempts} · best score ${rec.best} / ${rec.max}${rec.solved ? ' · solved ✓' : ''}`,
  bugsTitle: 'The parts with a bug',
  found: 'Found',
  missed: 'Missed',
  bug: 'Bug',
  nearMissTitle: 'You marked something that is not a bug',
  nearMissIntro: (text) => `You marked “${text}”: not a bug.`,
  otherWrong: (words) => `Also marked but not part of a bug: ${words}.`,
  next: (title) => `Next exercise: ${title}`,
  allExercises: 'All exercises',
  relatedTitle: 'Related exercises',
  relatedShared: 'Shared topics',
  pagerAll: '← All exercises',
  pagerPrevious: 'Previous',
  pagerNext: 'Next',
  listTitle: 'Find the bug — masklab',
  embedTitle: 'Use this exercise elsewhere',
  embedIntro: 'Paste this into a course page, a blog or an LMS: the exercise in a frame that sizes itself to its content. Your page can read the learner’s score (see the course authors page).',
  copyEmbed: 'Copy embed code',
  embedArea: 'Embed code',
  forAuthors: 'Embedding guide for course authors',
  embedFrameTitle: (title) => `masklab exercise: ${title}`,
};

const { embedded } = initPage({ widget: 'exercise' });
const corePromise = loadCore();
corePromise.catch(() => {}); // reported by the "See it break" panel; never an unhandled rejection
// The exercise's own chunk is asked for now, beside the core, not after the first frame: main()
// imports it again (the same request) and reports a failure itself.
loadExercise(EXERCISE_STATE.read().state.ex).catch(() => {});

const announcer = liveRegion();
document.body.append(announcer);
const announce = (message) => {
  // Clearing first makes a repeated message (two Checks with the same score) announce again.
  announcer.textContent = '';
  requestAnimationFrame(() => {
    announcer.textContent = message;
  });
};

const status = document.getElementById('exercise-status');
const article = document.getElementById('exercise');
const urlNote = document.getElementById('url-note');
const afterCheck = document.getElementById('after-check');
const panels = {
  passage: document.getElementById('passage-panel'),
  explanation: document.getElementById('explanation-panel'),
  breakPanel: document.getElementById('break-panel'),
  followups: document.getElementById('followups-panel'),
  cheatsheet: document.getElementById('cheatsheet-panel'),
  references: document.getElementById('references-panel'),
};

// A page-level failure: a heading, the message in an alert box, then any way out.
function fail(message, ...after) {
  status.removeAttribute('role');
  status.classList.remove('status');
  replaceChildren(status, h('h1', {}, TEXT.failTitle), h('p', { class: 'error-box', role: 'alert' }, message), ...after);
  document.body.dataset.state = 'error';
}

function exerciseLinks(index) {
  return h('ul', { class: 'exercise-links' }, index.map((e) => h('li', {}, h('a', { href: `./exercise.html?ex=${encodeURIComponent(e.id)}` }, e.title))));
}

function showNotes(notes) {
  if (!notes.length) return;
  showUrlNote(urlNote, notes);
}

// No ?ex=: the list of exercises, with the home page's filters (their state in this URL).
async function showList(index, state, notes) {
  const { renderExerciseList, unknownTopicNotes } = await import('../home/exercise-list.js');
  showNotes([...notes, ...unknownTopicNotes(index, state.tag)]);
  document.title = TEXT.listTitle;
  renderExerciseList(document.getElementById('exercise-list'), index, loadProgress(), {
    filters: { level: state.level, tag: state.tag },
    onFilters(filters) {
      EXERCISE_STATE.write({ ...EXERCISE_STATE.defaults(), level: filters.level, tag: filters.tag });
    },
    topics: topicDescriptions(),
  });
  status.hidden = true;
  document.getElementById('exercise-list-view').hidden = false;
  document.body.dataset.state = 'ready';
}

async function main() {
  status.textContent = TEXT.loading;
  await painted(); // the frame and the loading line first; the core is already on its way
  const index = exerciseIndex();
  const fromUrl = EXERCISE_STATE.read();
  let initial = fromUrl.state;
  const notes = fromUrl.problems.map((p) => p.message);
  if (index.length === 0) return fail(TEXT.noContent);
  if (!initial.ex) return showList(index, initial, notes);

  let id = initial.ex;
  const survivor = MERGED_EXERCISES[id];
  if (survivor && !index.some((e) => e.id === id)) {
    // An old link: open the exercise it was merged into, with a fresh state, and say so.
    notes.push(TEXT.merged(id));
    id = survivor;
    initial = { ...EXERCISE_STATE.defaults(), ex: id };
    EXERCISE_STATE.write(initial);
  }
  let exercise;
  try {
    exercise = await loadExercise(id);
  } catch (error) {
    return fail(TEXT.loadFailed(error.message));
  }
  if (!exercise) {
    return fail(TEXT.unknown(id), h('p', {}, h('a', { href: './exercise.html' }, TEXT.seeAll)), exerciseLinks(index));
  }
  const unitCount = exercise.passage.units.length;
  const badUnits = initial.marked.filter((m) => Number(m) >= unitCount).length;
  if (badUnits) notes.push(TEXT.badUnits(badUnits));
  const marked = [...new Set(initial.marked.map(Number).filter((m) => m < unitCount))].sort((a, b) => a - b);
  renderPage(exercise, index, { ...initial, marked: marked.map(String) }, notes);
}

// Top of the page: back to the list, previous and next (in list order). Not in an embed: the
// host page decides where its learners go.
function renderPager(exercise, index) {
  const pager = document.getElementById('exercise-pager');
  if (embedded) {
    pager.hidden = true;
    return;
  }
  const at = index.findIndex((e) => e.id === exercise.id);
  const link = (entry, rel, label) =>
    entry
      ? h('a', { href: `./exercise.html?ex=${encodeURIComponent(entry.id)}`, rel, class: `pager-${rel}` }, h('span', { class: 'pager-dir' }, label), h('span', { class: 'pager-title' }, entry.title))
      : h('span', { class: `pager-${rel} pager-none`, 'aria-hidden': 'true' });
  replaceChildren(
    pager,
    h('a', { href: './exercise.html', class: 'pager-all' }, TEXT.pagerAll),
    link(index[at - 1], 'prev', TEXT.pagerPrevious),
    link(index[at + 1], 'next', TEXT.pagerNext),
  );
}

// After Check: up to three exercises on the same topics, each with the topics it shares.
function relatedList(exercise, index) {
  const related = relatedExercises(index, exercise.id);
  if (!related.length) return null;
  return h(
    'section',
    { class: 'related', 'aria-labelledby': 'related-title' },
    h('h2', { id: 'related-title' }, TEXT.relatedTitle),
    h(
      'ul',
      {},
      related.map(({ entry, shared }) =>
        h(
          'li',
          {},
          h('a', { href: `./exercise.html?ex=${encodeURIComponent(entry.id)}` }, entry.title),
          h('span', { class: 'tags' }, h('span', { class: 'visually-hidden' }, `${TEXT.relatedShared}: `), shared.map((t) => h('span', { class: 'tag' }, t))),
        ),
      ),
    ),
  );
}

function renderPage(exercise, index, initialState, notes) {
  let state = initialState;
  // For the host page: how many times Check was pressed in this visit, and whether the solution
  // was on screen at any point before (Show solution → Retry → Check is not a solve).
  let attempts = 0;
  let solutionShown = state.solution;
  const save = () => EXERCISE_STATE.write(state);
  document.title = TEXT.pageTitle(exercise.title);

  // Header: title, level, what to do.
  replaceChildren(
    document.getElementById('exercise-header'),
    h('h1', { id: 'exercise-title' }, exercise.title),
    h(
      'p',
      { class: 'exercise-meta' },
      h('span', { class: 'chip level' }, TEXT.level[exercise.level]),
      h('span', { class: 'chip' }, exercise.language ?? TEXT.kind[exercise.kind]),
      h('span', { class: 'chip' }, TEXT.toFind(exercise.errors.length)),
    ),
    h('p', { class: 'tags' }, h('span', { class: 'visually-hidden' }, `${TEXT.tagsLabel}: `), exercise.tags.map((t) => h('span', { class: 'tag' }, t))),
    h('p', { class: 'prompt', id: 'exercise-prompt' }, exercise.prompt),
  );
  showNotes(notes);
  renderPager(exercise, index);

  // The passage and its buttons.
  const passageBox = document.getElementById('passage-box');
  const markedLine = h('p', { class: 'marked-count', id: 'marked-count' });
  const view = createPassageView(passageBox, exercise, {
    onToggle(marked) {
      prepare();
      state = { ...state, marked: [...marked].sort((a, b) => a - b).map(String) };
      markedLine.textContent = TEXT.markedCount(marked.size);
      save();
    },
  });
  const checkButton = h('button', { type: 'button', id: 'check' }, TEXT.check);
  const retryButton = h('button', { type: 'button', id: 'retry', class: 'secondary' }, TEXT.retry);
  const solutionButton = h('button', { type: 'button', id: 'show-solution', class: 'secondary' }, TEXT.solution);
  document.getElementById('passage-actions').append(checkButton, retryButton, solutionButton);
  for (const button of [checkButton, solutionButton]) {
    button.addEventListener('pointerenter', () => prepare());
    button.addEventListener('focus', () => prepare());
  }
  passageBox.after(markedLine);
  const result = document.getElementById('result');

  // After Check: the explanation and "See it break". They are hidden until then and large, so
  // none of it holds up the passage: the explanation's HTML (already in the exercise's JSON) is
  // built when the page is first idle; the code and styles it needs beyond that — KaTeX's
  // stylesheet, the grid module — are fetched when the learner shows intent (marks a word,
  // points at or focuses Check or Show solution), and the grids are drawn on Check. A visitor
  // who only reads the passage never downloads them. The claims and live numbers are computed
  // as soon as the core is ready and written in when the explanation exists.
  // Live numbers sit in the explanation and in the errors' reasons; the reasons are rendered at
  // each Check, so the core's answer is kept and applied to whatever is on the page.
  let live = null; // the core's answers: { context } or { failure }
  let explained = false;
  const fillLive = (root) => {
    if (live?.context) fillLiveNumbers(root, live.context);
    else if (live?.failure) markLiveNumbersUnavailable(root, live.failure);
  };
  const fillNumbers = () => {
    if (explained) fillLive(panels.explanation);
    fillLive(result);
  };
  let gridsNow;
  const gridsWhen = new Promise((resolve) => {
    gridsNow = resolve;
  });
  let prepared = false;
  const prepare = () => {
    if (prepared) return;
    prepared = true;
    // Formulas are measured again once styled (a wide one becomes a keyboard stop).
    import('./math.js').then(() => afterPaint(() => !afterCheck.hidden && focusableWideFormulas(afterCheck)));
    import('../grid/compare.js').catch(() => {}); // warm: see-it-break.js reports a failure itself
  };
  const explanation = renderLater(null, () => {
    renderExplanation(
      { explanation: panels.explanation, followups: panels.followups, cheatsheet: panels.cheatsheet, references: panels.references },
      exercise,
      {
        revealed: new Set(state.revealed.map(Number)),
        onReveal(i, open) {
          const revealed = new Set(state.revealed.map(Number));
          if (open) revealed.add(i);
          else revealed.delete(i);
          state = { ...state, revealed: [...revealed].sort((a, b) => a - b).map(String) };
          save();
        },
      },
    );
    explained = true;
    fillNumbers();
  });
  const seeItBreak = createSeeItBreak(panels.breakPanel, exercise);
  renderTrainLink(document.getElementById('train-panel'), exercise);
  seeItBreak.run(corePromise, {
    gridsWhen,
    onResponses: (context) => {
      live = { context };
      fillNumbers();
    },
    onFailure: (message) => {
      live = { failure: message };
      fillNumbers();
    },
  });

  function bugList(found) {
    return h(
      'ol',
      { class: 'bug-list' },
      exercise.errors.map((error, i) => {
        const verdict = found === null ? TEXT.bug : found[i] ? TEXT.found : TEXT.missed;
        const kind = found === null ? 'solution' : found[i] ? 'found' : 'missed';
        const reason = h('div', { class: 'reason prose-html' });
        reason.innerHTML = error.reason_html; // compiled from our own content at build time
        return h(
          'li',
          { class: `bug ${kind}` },
          h('p', { class: 'bug-head' }, h('span', { class: `verdict ${kind}` }, verdict), ' ', h('code', {}, error.text)),
          reason,
        );
      }),
    );
  }

  function nearMissNotes(scored) {
    const nodes = scored.nearMissesMarked.map((i) => {
      const nearMiss = exercise.near_misses[i];
      const note = h('div', { class: 'prose-html' });
      note.innerHTML = nearMiss.note_html; // compiled from our own content at build time
      return h('li', {}, h('p', {}, TEXT.nearMissIntro(nearMiss.text)), note);
    });
    const inNearMiss = new Set(scored.nearMissesMarked.flatMap((i) => exercise.near_misses[i].units));
    const others = scored.wrongUnits.filter((u) => !inNearMiss.has(u)).map((u) => `“${exercise.passage.units[u].text}”`);
    if (!nodes.length && !others.length) return null;
    return h(
      'div',
      { class: 'near-misses' },
      h('h3', {}, TEXT.nearMissTitle),
      nodes.length ? h('ul', {}, nodes) : null,
      others.length ? h('p', {}, TEXT.otherWrong(others.join(', '))) : null,
    );
  }
  function progressLine() {
    const rec = loadProgress().exercises[exercise.id];
    return rec ? h('p', { class: 'progress' }, TEXT.progress(rec)) : null;
  }

  function showChecked() {
    const marked = new Set(state.marked.map(Number));
    const scored = scoreMarks(exercise, marked);
    view.setMarked(marked);
    view.showResults(scored.unitResults);
    view.setSelectable(false);
    replaceChildren(
      result,
      h('h2', { id: 'result-title' }, TEXT.resultTitle),
      h('p', { class: 'score', id: 'score', dataset: { score: String(scored.score), max: String(scored.maxScore) } }, TEXT.score(scored.score, scored.maxScore)),
      h('p', {}, TEXT.breakdown(scored.foundCount, scored.maxScore, scored.wrongUnits.length)),
      h('p', { class: 'feedback' }, TEXT.feedback(scored.score, scored.maxScore)),
      progressLine(),
      resultLegend(['correct', 'wrong', 'missed']),
      h('h3', {}, TEXT.bugsTitle),
      bugList(scored.found),
      nearMissNotes(scored),
    );
    fillLive(result);
    result.hidden = false;
    return scored;
  }

  function showSolution() {
    view.showSolution(solutionUnits(exercise));
    view.setSelectable(false);
    const checkedBefore = result.querySelector('#score');
    replaceChildren(
      result,
      h('h2', { id: 'result-title' }, TEXT.solutionTitle),
      checkedBefore,
      progressLine(),
      resultLegend(['solution']),
      h('h3', {}, TEXT.bugsTitle),
      bugList(null),
    );
    fillLive(result);
    result.hidden = false;
  }

  function unlock() {
    prepare();
    explanation.now();
    gridsNow();
    afterCheck.hidden = false;
    const next = index[index.findIndex((e) => e.id === exercise.id) + 1];
    const nav = document.getElementById('exercise-nav');
    if (!embedded) {
      replaceChildren(
        nav,
        next ? h('a', { class: 'button', href: `./exercise.html?ex=${encodeURIComponent(next.id)}` }, TEXT.next(next.title)) : null,
        h('a', { class: 'button secondary', href: './exercise.html' }, TEXT.allExercises),
        relatedList(exercise, index),
      );
    }
    showToc(document.getElementById('toc'), document.getElementById('toc-list'), article);
    afterPaint(() => focusableWideFormulas(afterCheck));
  }

  function updateButtons() {
    markedLine.hidden = state.solution; // the solution's marks are not the learner's
    checkButton.hidden = state.checked || state.solution;
    retryButton.hidden = !(state.checked || state.solution);
    solutionButton.hidden = state.solution;
  }

  checkButton.addEventListener('click', () => {
    state = { ...state, checked: true };
    save();
    const scored = showChecked();
    recordAttempt(exercise.id, scored.score, scored.maxScore);
    const progress = result.querySelector('.progress');
    const fresh = progressLine();
    if (progress && fresh) progress.replaceWith(fresh);
    else if (fresh) result.querySelector('.feedback').after(fresh);
    unlock();
    updateButtons();
    announce(TEXT.announceScore(scored.score, scored.maxScore));
    attempts += 1;
    const report = {
      widget: 'exercise',
      exercise: exercise.id,
      score: scored.score,
      maxScore: scored.maxScore,
      marked: state.marked.map(Number),
      solution_shown: solutionShown,
      attempt: attempts,
    };
    postToHost('answered', report);
    // The same result as xAPI statements: `answered` every time, `completed` the first time.
    const statement = (verb) =>
      xapiStatement(verb, { activityUrl: activityUrl(exercise.id), title: exercise.title, score: scored.score, maxScore: scored.maxScore, solutionShown, attempt: attempts, marked: report.marked });
    postToHost('xapi', { widget: 'exercise', exercise: exercise.id, statement: statement('answered') });
    if (attempts === 1) postToHost('xapi', { widget: 'exercise', exercise: exercise.id, statement: statement('completed') });
    result.focus();
  });

  retryButton.addEventListener('click', () => {
    state = { ...state, marked: [], checked: false, solution: false };
    save();
    view.setMarked(new Set());
    view.clearResults();
    view.setSelectable(true);
    replaceChildren(result);
    result.hidden = true;
    markedLine.textContent = TEXT.markedCount(0);
    updateButtons();
    announce(TEXT.announceRetry);
    view.focusActive();
  });

  solutionButton.addEventListener('click', () => {
    solutionShown = true;
    state = { ...state, solution: true };
    save();
    showSolution();
    unlock();
    updateButtons();
    announce(TEXT.announceSolution(exercise.errors.length));
    result.focus();
  });

  // Restore what the URL says.
  view.setMarked(new Set(state.marked.map(Number)));
  markedLine.textContent = TEXT.markedCount(state.marked.length);
  if (state.checked) showChecked();
  if (state.solution) showSolution();
  if (state.checked || state.solution || hiddenPanels().has('passage')) unlock();
  updateButtons();

  // Share / embed: the exercise itself, not the learner's marks.
  renderEmbedPanelLater(document.getElementById('share-panel'), {
    page: 'exercise.html',
    title: TEXT.embedFrameTitle(exercise.title),
    height: 900,
    params: { ex: exercise.id },
    text: { title: TEXT.embedTitle, intro: TEXT.embedIntro, copy: TEXT.copyEmbed, area: TEXT.embedArea, guide: TEXT.forAuthors },
  });

  applyHiddenPanels();
  status.hidden = true;
  article.hidden = false;
  document.body.dataset.state = 'ready';
}

main().catch((error) => fail(TEXT.loadFailed(error.message)));
