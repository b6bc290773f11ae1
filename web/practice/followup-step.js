// followup-step.js — one follow-up question of a practice exercise: answer (typed or in your
// head), reveal the model answer, grade yourself, go on.
//
//   const step = createFollowUpStep(container, exercise, j, { revealed, grade, nextLabel, onReveal, onGrade, onNext });
//   step.focusHeading();
//
// Order on screen and in the tab order: the question, the passage it is about (one click away,
// with its bugs marked), an optional answer box, "Reveal model answer"; once revealed, the answer
// (focus moves to it) and three self-grades as a native radio group — arrow keys move and choose,
// Space chooses — and Next, which waits for a grade. Each grade has its own glyph and the chosen
// one a filled marker, so nothing relies on colour. The typed answer is handed to onDraft as it
// is typed (main.js keeps it for the summary). Not here: the URL or storage (main.js).

import { h, replaceChildren } from '../shared/dom.js';
import { trustedContent } from '../exercise/explanation.js';
import { createPassageView } from '../exercise/passage-view.js';
import { solutionUnits } from '../exercise/scoring.js';

// Every user-visible string of the step, in one place.
export const FOLLOW_UP_TEXT = {
  title: (j, count) => `Follow-up ${j} of ${count}`,
  about: 'About: ',
  yourAnswer: 'Your answer (optional — or answer in your head)',
  reveal: 'Reveal model answer',
  modelAnswer: 'Model answer',
  gradeLegend: 'How did your answer compare?',
  grades: [
    ['g', '✓', 'Got it'],
    ['p', '◐', 'Partly'],
    ['m', '✗', 'Missed it'],
  ],
  revealFirst: 'Reveal the model answer, then grade yourself to go on.',
  gradeFirst: 'Choose a grade to go on.',
  passage: 'Show the passage this is about (its bugs marked)',
};

let instances = 0;

export function createFollowUpStep(container, exercise, j, { revealed = false, grade = null, draft = '', nextLabel, onReveal = () => {}, onGrade = () => {}, onDraft = () => {}, onNext = () => {} }) {
  const idBase = `followup-step-${(instances += 1)}`;
  const item = exercise.follow_ups[j - 1];
  const heading = h('h2', { id: 'step-title', tabindex: '-1', 'aria-describedby': `${idBase}-question` }, FOLLOW_UP_TEXT.title(j, exercise.follow_ups.length));
  const answerBox = h('textarea', { id: `${idBase}-draft`, rows: '5', 'aria-describedby': `${idBase}-question` });
  answerBox.value = draft;
  answerBox.addEventListener('input', () => onDraft(answerBox.value));
  // The passage, one click away: drawn read-only with its bugs marked when first opened.
  const passageBox = h('div', { class: 'recall-passage' });
  const recall = h('details', { class: 'passage-recall' }, h('summary', {}, FOLLOW_UP_TEXT.passage), passageBox);
  recall.addEventListener('toggle', () => {
    if (!recall.open || passageBox.childElementCount) return;
    const view = createPassageView(passageBox, exercise);
    view.showSolution(solutionUnits(exercise));
    view.setSelectable(false);
  });
  const revealButton = h('button', { type: 'button', class: 'secondary reveal', 'aria-expanded': 'false', 'aria-controls': `${idBase}-answer` }, FOLLOW_UP_TEXT.reveal);
  const answer = h(
    'div',
    { id: `${idBase}-answer`, class: 'model-answer', role: 'region', 'aria-labelledby': `${idBase}-answer-title`, tabindex: '-1', hidden: true },
    h('p', { class: 'model-answer-title', id: `${idBase}-answer-title` }, FOLLOW_UP_TEXT.modelAnswer),
    trustedContent('div', { class: 'prose-html' }, item.answer_html),
  );
  const grades = h(
    'fieldset',
    { class: 'self-grade', hidden: true },
    h('legend', {}, FOLLOW_UP_TEXT.gradeLegend),
    h(
      'div',
      { class: 'grade-options' },
      FOLLOW_UP_TEXT.grades.map(([letter, glyph, label]) => {
        const radioId = `${idBase}-grade-${letter}`;
        return h(
          'div',
          { class: `grade-option grade-${letter}` },
          h('input', { type: 'radio', id: radioId, name: `${idBase}-grade`, value: letter, checked: grade === letter }),
          h('label', { for: radioId }, h('span', { class: 'grade-glyph', 'aria-hidden': 'true' }, glyph), ' ', label),
        );
      }),
    ),
  );
  const revealActions = h('div', { class: 'actions' }, revealButton);
  const hint = h('p', { class: 'hint next-hint', id: `${idBase}-hint` });
  const nextButton = h('button', { type: 'button', class: 'next', 'aria-describedby': `${idBase}-hint` }, nextLabel);

  replaceChildren(
    container,
    h(
      'header',
      { class: 'step-head' },
      heading,
      h('p', { class: 'step-context' }, FOLLOW_UP_TEXT.about, h('span', { class: 'about-title' }, exercise.title)),
    ),
    trustedContent('div', { class: 'question card', id: `${idBase}-question` }, item.question_html),
    recall,
    h('label', { class: 'answer-label', for: `${idBase}-draft` }, FOLLOW_UP_TEXT.yourAnswer),
    answerBox,
    revealActions,
    answer,
    grades,
    hint,
    h('div', { class: 'actions' }, nextButton),
  );

  let isRevealed = revealed || grade !== null;
  let chosen = grade;

  function render() {
    answer.hidden = !isRevealed;
    grades.hidden = !isRevealed;
    revealActions.hidden = isRevealed;
    revealButton.setAttribute('aria-expanded', String(isRevealed));
    nextButton.disabled = chosen === null;
    hint.textContent = chosen !== null ? '' : isRevealed ? FOLLOW_UP_TEXT.gradeFirst : FOLLOW_UP_TEXT.revealFirst;
    hint.hidden = chosen !== null;
  }

  revealButton.addEventListener('click', () => {
    isRevealed = true;
    render();
    onReveal();
    answer.focus(); // the button just disappeared; the answer is what to read next
  });
  grades.addEventListener('change', (event) => {
    chosen = event.target.value;
    render();
    onGrade(chosen);
  });
  nextButton.addEventListener('click', () => onNext());

  render();
  return { focusHeading: () => heading.focus() };
}
