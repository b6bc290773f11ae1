// history-view.js — the learner's past practice sessions, newest first: date, then labelled
// figures (find-the-bug score, self-grades, exercises, time, seed) that wrap as whole blocks, so a
// phone never parts a number from its word or ends a line on a separator.
//
//   renderHistory(container, loadProgress().practice)
//
// store.js already drops records that are not sessions; the extras this page stores on each item
// (grades as letters, status) are checked again here, because anything in localStorage may have
// been edited by hand or written by another version. Not here: writing the history (main.js
// calls store.js recordPractice).

import { h, replaceChildren } from '../shared/dom.js';
import { formatClock } from './timer.js';

// Every user-visible string of the history, in one place.
export const HISTORY_TEXT = {
  title: 'Your past sessions',
  intro: 'Kept in this browser only (localStorage); nothing is sent anywhere.',
  empty: 'No sessions yet. When you finish one — or the timer ends it — it is listed here.',
  unknownDate: 'Unknown date',
  labels: { score: 'Find the bug', grades: 'Follow-ups', exercises: 'Exercises', time: 'Time', seed: 'Seed' },
  findTheBug: (score, max) => `${score} / ${max}`,
  // No-break spaces keep each count with its word when the line wraps.
  grades: (got, partly, missed) => `${got}\u00a0got\u00a0it, ${partly}\u00a0partly, ${missed}\u00a0missed`,
  exercises: (count, done) => (done < count ? `${count} (${done}\u00a0finished)` : String(count)),
  time: (seconds) => formatClock(seconds),
  older: (n) => `…and ${n} older session${n === 1 ? '' : 's'}.`,
};

const SHOWN = 10;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// "4 Dec 2026, 14:05", in the reader's time zone. Written by hand: toLocaleString would load the
// browser's locale data (40–50 ms on a cold load) before a returning learner's page is ready.
export function dateText(when) {
  const date = new Date(when);
  if (Number.isNaN(date.getTime())) return HISTORY_TEXT.unknownDate;
  const twoDigits = (n) => String(n).padStart(2, '0');
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}, ${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}

function letters(item) {
  return typeof item.grades === 'string' && /^[gpm-]{0,10}$/.test(item.grades) ? item.grades : '';
}

// One labelled figure: a name above its value, kept together when the list wraps.
const figure = (label, value, valueClass) => h('div', {}, h('dt', {}, label), h('dd', valueClass ? { class: valueClass } : {}, value));

function sessionLine(session) {
  const items = session.items;
  const score = items.reduce((sum, item) => sum + item.score, 0);
  const max = items.reduce((sum, item) => sum + item.max, 0);
  const all = items.map(letters).join('');
  const count = (letter) => [...all].filter((g) => g === letter).length;
  const done = items.filter((item) => item.status === 'done').length;
  const graded = count('g') + count('p') + count('m');
  const date = new Date(session.when);
  return h(
    'li',
    { class: 'history-item' },
    h('time', Number.isNaN(date.getTime()) ? {} : { datetime: date.toISOString() }, dateText(session.when)),
    h(
      'dl',
      { class: 'history-details' },
      figure(HISTORY_TEXT.labels.score, HISTORY_TEXT.findTheBug(score, max), 'history-score'),
      graded ? figure(HISTORY_TEXT.labels.grades, HISTORY_TEXT.grades(count('g'), count('p'), count('m'))) : null,
      figure(HISTORY_TEXT.labels.exercises, HISTORY_TEXT.exercises(items.length, done)),
      session.seconds !== null ? figure(HISTORY_TEXT.labels.time, HISTORY_TEXT.time(session.seconds)) : null,
      figure(HISTORY_TEXT.labels.seed, h('code', {}, session.seed || '—')),
    ),
  );
}

export function renderHistory(container, sessions) {
  const valid = (Array.isArray(sessions) ? sessions : []).filter((s) => s && Array.isArray(s.items) && s.items.length > 0);
  const newest = valid.slice(-SHOWN).reverse();
  replaceChildren(
    container,
    h('h2', { id: 'history-title' }, HISTORY_TEXT.title),
    h('p', { class: 'hint' }, HISTORY_TEXT.intro),
    newest.length ? h('ol', { class: 'history-list' }, newest.map(sessionLine)) : h('p', { class: 'history-empty' }, HISTORY_TEXT.empty),
    valid.length > SHOWN ? h('p', { class: 'hint' }, HISTORY_TEXT.older(valid.length - SHOWN)) : null,
  );
}
