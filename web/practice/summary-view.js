// summary-view.js — the end of a practice session: totals, then per exercise its find-the-bug
// score, self-grades, time and status, each linked to the exercise's full page.
//
//   const summary = renderSummary(container, summarize(set, results), { timeUp, seed, onAgain, onNew, onSetup });
//   summary.focusHeading();
//
// Unfinished exercises (time ran out, or the learner ended early) say so in words and glyphs.
// Not here: the totals' arithmetic (session.js), saving the session (main.js).

import { h, replaceChildren } from '../shared/dom.js';
import { formatClock } from './timer.js';

// Every user-visible string of the summary, in one place.
export const SUMMARY_TEXT = {
  title: 'Summary',
  timeUp: 'Time ran out. Exercises you did not finish are marked “unfinished”.',
  endedEarly: 'You ended the session early. Exercises you did not finish are marked “unfinished”.',
  saved: 'Saved to your history in this browser.',
  findTheBug: 'Find the bug',
  score: (score, max) => `${score} / ${max}`,
  followUps: 'Follow-ups',
  gradeCounts: (t) =>
    [
      ['✓', `${t.got} got it`],
      ['◐', `${t.partly} partly`],
      ['✗', `${t.missed} missed`],
      ...(t.ungraded ? [['—', `${t.ungraded} not graded`]] : []),
    ],
  finished: 'Exercises finished',
  finishedValue: (done, count) => `${done} of ${count}`,
  time: 'Time',
  exercisesTitle: 'Exercise by exercise',
  status: {
    done: ['✓', 'Finished'],
    partial: ['◔', 'Unfinished: follow-ups left'],
    'not-started': ['○', 'Unfinished: not started'],
  },
  notChecked: 'not checked',
  grade: { g: ['✓', 'got it'], p: ['◐', 'partly'], m: ['✗', 'missed it'] },
  notGraded: ['—', 'not graded'],
  followUpN: (k) => `Follow-up ${k}:`,
  yourAnswer: 'Your answer: ',
  fullPage: (title) => `Read the full explanation of “${title}”`,
  again: 'Practice again with the same set',
  newSet: 'New set',
  setup: 'Change the settings',
  seedLine: 'Seed of this set: ',
};

function gradeItem(letter, k, answer) {
  const [glyph, word] = letter === null ? SUMMARY_TEXT.notGraded : SUMMARY_TEXT.grade[letter];
  return h(
    'li',
    { class: `grade-result grade-${letter ?? 'none'}` },
    h('span', { class: 'grade-n' }, SUMMARY_TEXT.followUpN(k + 1)),
    ' ',
    h('span', { class: 'grade-glyph', 'aria-hidden': 'true' }, glyph),
    ' ',
    word,
    answer ? h('p', { class: 'typed-answer' }, h('span', { class: 'typed-label' }, SUMMARY_TEXT.yourAnswer), answer) : null,
  );
}

function exerciseCard(row, answerOf) {
  const [glyph, statusText] = SUMMARY_TEXT.status[row.status];
  return h(
    'li',
    { class: `card summary-item status-${row.status}`, dataset: { exercise: row.id } },
    h('h4', {}, row.title),
    h('p', { class: `status-badge ${row.status}` }, h('span', { 'aria-hidden': 'true' }, `${glyph} `), statusText),
    h(
      'dl',
      { class: 'summary-facts' },
      h('div', {}, h('dt', {}, SUMMARY_TEXT.findTheBug), h('dd', { class: 'item-score' }, row.score === null ? SUMMARY_TEXT.notChecked : SUMMARY_TEXT.score(row.score, row.maxScore))),
      h('div', {}, h('dt', {}, SUMMARY_TEXT.time), h('dd', {}, formatClock(row.seconds))),
      h('div', { class: 'wide' }, h('dt', {}, SUMMARY_TEXT.followUps), h('dd', {}, h('ul', { class: 'grade-results' }, row.grades.map((letter, k) => gradeItem(letter, k, answerOf(row.id, k)))))),
    ),
    h('p', {}, h('a', { href: `./exercise.html?ex=${encodeURIComponent(row.id)}` }, SUMMARY_TEXT.fullPage(row.title))),
  );
}

export function renderSummary(container, { rows, totals }, { timeUp = false, saved = false, seed, answerOf = () => '', onAgain, onNew, onSetup }) {
  const heading = h('h2', { id: 'summary-title', tabindex: '-1' }, SUMMARY_TEXT.title);
  const unfinished = totals.done < totals.count;
  const again = h('button', { type: 'button', class: 'again' }, SUMMARY_TEXT.again);
  const fresh = h('button', { type: 'button', class: 'secondary new-set' }, SUMMARY_TEXT.newSet);
  const setup = h('button', { type: 'button', class: 'secondary change-setup' }, SUMMARY_TEXT.setup);
  again.addEventListener('click', onAgain);
  fresh.addEventListener('click', onNew);
  setup.addEventListener('click', onSetup);

  replaceChildren(
    container,
    heading,
    timeUp ? h('p', { class: 'note-box time-up' }, SUMMARY_TEXT.timeUp) : unfinished ? h('p', { class: 'note-box' }, SUMMARY_TEXT.endedEarly) : null,
    h(
      'dl',
      { class: 'figures summary-totals' },
      h('div', {}, h('dt', {}, SUMMARY_TEXT.findTheBug), h('dd', { class: 'total-score' }, SUMMARY_TEXT.score(totals.score, totals.maxScore))),
      h(
        'div',
        {},
        h('dt', {}, SUMMARY_TEXT.followUps),
        h(
          'dd',
          { class: 'total-grades' },
          h(
            'ul',
            { class: 'grade-counts' },
            SUMMARY_TEXT.gradeCounts(totals).map(([glyph, words]) => h('li', {}, h('span', { class: 'grade-glyph', 'aria-hidden': 'true' }, glyph), ' ', words)),
          ),
        ),
      ),
      h('div', {}, h('dt', {}, SUMMARY_TEXT.finished), h('dd', {}, SUMMARY_TEXT.finishedValue(totals.done, totals.count))),
      h('div', {}, h('dt', {}, SUMMARY_TEXT.time), h('dd', {}, formatClock(totals.seconds))),
    ),
    saved ? h('p', { class: 'hint' }, SUMMARY_TEXT.saved) : null,
    h('h3', {}, SUMMARY_TEXT.exercisesTitle),
    h('ol', { class: 'summary-list' }, rows.map((row) => exerciseCard(row, answerOf))),
    h('p', { class: 'seed-line' }, SUMMARY_TEXT.seedLine, h('code', {}, seed)),
    h('div', { class: 'actions' }, again, fresh, setup),
  );
  return { focusHeading: () => heading.focus() };
}
