// bug-step.js — one practice exercise's find-the-bug step: the passage, Check, the scored result.
//
//   const step = createBugStep(container, exercise, { marked, checked, nextLabel, onMarks, onCheck, onNext });
//   step.focusHeading();
//
// The passage is the exercise page's own listbox (exercise/passage-view.js) and the score its own
// rule (exercise/scoring.js: found − wrong, floored at 0, out of the number of bugs), so practice
// and the exercise page can never disagree. After Check, marking is switched off, every word is
// described as correct / wrong / missed, the bugs are listed with their reasons, and Next appears.
// Not here: the explanation, follow-ups (followup-step.js), the URL or storage (main.js).

import { h, replaceChildren } from '../shared/dom.js';
import { trustedContent } from '../exercise/explanation.js';
import { createPassageView, resultLegend } from '../exercise/passage-view.js';
import { scoreMarks } from '../exercise/scoring.js';

// Every user-visible string of the step, in one place.
export const BUG_STEP_TEXT = {
  level: { beginner: 'Beginner', intermediate: 'Intermediate', advanced: 'Advanced' },
  kind: { code: 'code', prose: 'text' },
  toFind: (n) => `${n} part${n === 1 ? '' : 's'} to find`,
  tagsLabel: 'Topics',
  check: 'Check',
  markedCount: (n) => (n === 0 ? 'Nothing marked yet.' : `${n} word${n === 1 ? '' : 's'} marked.`),
  resultTitle: 'Your result',
  score: (score, max) => `Score: ${score} / ${max}`,
  breakdown: (found, max, wrong) =>
    `You found ${found} of ${max} and marked ${wrong} word${wrong === 1 ? '' : 's'} that ${wrong === 1 ? 'is' : 'are'} not part of a bug. Score = found − wrong, never below 0.`,
  bugsTitle: 'The parts with a bug',
  found: 'Found',
  missed: 'Missed',
  fullPage: 'The full explanation — fix, detailed answer, “see it break” — is on the exercise’s own page: ',
  opensNewTab: '(opens in a new tab)',
};

export function createBugStep(container, exercise, { marked = new Set(), checked = false, nextLabel, onMarks = () => {}, onCheck = () => {}, onNext = () => {} }) {
  const heading = h('h2', { id: 'step-title', tabindex: '-1' }, exercise.title);
  const header = h(
    'header',
    { class: 'step-head' },
    heading,
    h(
      'p',
      { class: 'exercise-meta' },
      h('span', { class: 'chip level' }, BUG_STEP_TEXT.level[exercise.level] ?? exercise.level),
      h('span', { class: 'chip' }, exercise.language ?? BUG_STEP_TEXT.kind[exercise.kind]),
      h('span', { class: 'chip' }, BUG_STEP_TEXT.toFind(exercise.errors.length)),
    ),
    h('p', { class: 'tags' }, h('span', { class: 'visually-hidden' }, `${BUG_STEP_TEXT.tagsLabel}: `), exercise.tags.map((t) => h('span', { class: 'tag' }, t))),
    h('p', { class: 'prompt' }, exercise.prompt),
  );

  const passageBox = h('div', { class: 'passage-box' });
  const markedLine = h('p', { class: 'marked-count' });
  const checkButton = h('button', { type: 'button', class: 'check' }, BUG_STEP_TEXT.check);
  const result = h('section', { class: 'result card', tabindex: '-1', 'aria-labelledby': 'result-title', hidden: true });
  const nextButton = h('button', { type: 'button', class: 'next' }, nextLabel);
  const nextActions = h('div', { class: 'actions' }, nextButton);
  nextActions.hidden = true;
  replaceChildren(container, header, passageBox, markedLine, h('div', { class: 'actions' }, checkButton), result, nextActions);

  let current = new Set(marked);
  const view = createPassageView(passageBox, exercise, {
    onToggle(next) {
      current = next;
      markedLine.textContent = BUG_STEP_TEXT.markedCount(next.size);
      onMarks(next);
    },
  });
  view.setMarked(current);
  markedLine.textContent = BUG_STEP_TEXT.markedCount(current.size);

  function bugList(found) {
    return h(
      'ol',
      { class: 'bug-list' },
      exercise.errors.map((error, i) => {
        const kind = found[i] ? 'found' : 'missed';
        return h(
          'li',
          { class: `bug ${kind}` },
          h('p', { class: 'bug-head' }, h('span', { class: `verdict ${kind}` }, found[i] ? BUG_STEP_TEXT.found : BUG_STEP_TEXT.missed), ' ', h('code', {}, error.text)),
          // Compiled at build time from our own content files (markdown-it, raw HTML off).
          trustedContent('div', { class: 'reason prose-html' }, error.reason_html),
        );
      }),
    );
  }

  // Shows the scored marks; returns the scoring (exercise/scoring.js).
  function showChecked() {
    const scored = scoreMarks(exercise, current);
    view.setMarked(current);
    view.showResults(scored.unitResults);
    view.setSelectable(false);
    checkButton.hidden = true;
    replaceChildren(
      result,
      h('h3', { id: 'result-title' }, BUG_STEP_TEXT.resultTitle),
      h('p', { class: 'score', dataset: { score: String(scored.score), max: String(scored.maxScore) } }, BUG_STEP_TEXT.score(scored.score, scored.maxScore)),
      h('p', {}, BUG_STEP_TEXT.breakdown(scored.foundCount, scored.maxScore, scored.wrongUnits.length)),
      resultLegend(['correct', 'wrong', 'missed']),
      h('h4', {}, BUG_STEP_TEXT.bugsTitle),
      bugList(scored.found),
      h(
        'p',
        { class: 'full-page' },
        BUG_STEP_TEXT.fullPage,
        h(
          'a',
          { href: `./exercise.html?ex=${encodeURIComponent(exercise.id)}`, target: '_blank', rel: 'noopener' },
          exercise.title,
          h('span', { class: 'visually-hidden' }, ` ${BUG_STEP_TEXT.opensNewTab}`),
        ),
        '.',
      ),
    );
    result.hidden = false;
    nextActions.hidden = false;
    return scored;
  }

  checkButton.addEventListener('click', () => {
    const scored = showChecked();
    onCheck(scored, current);
    result.focus();
  });
  nextButton.addEventListener('click', () => onNext());

  if (checked) showChecked();
  return {
    focusHeading: () => heading.focus(),
    // After a reload the recorded score is recomputed from the marks the URL kept.
    score: () => scoreMarks(exercise, current),
  };
}
