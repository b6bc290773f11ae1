// exercise-list.js — the home page's list of find-the-bug exercises with the learner's progress.
//
//   renderExerciseList(container, exerciseIndex(), loadProgress());
//
// One card per exercise: title (a link), level, topics, how many parts to find, and — from
// localStorage via store.js — attempts, best score and a ✓ when solved. Progress is written in
// words, not only by colour or glyph. Not here: loading the index (exercise/catalog.js).

import { h, replaceChildren } from '../shared/dom.js';

// Every user-visible string of the list, in one place.
export const LIST_TEXT = {
  empty: 'No exercises yet: the content has not been compiled (node scripts/content/build-content.mjs).',
  level: { beginner: 'Beginner', intermediate: 'Intermediate', advanced: 'Advanced' },
  kind: { code: 'code', prose: 'text' },
  toFind: (n) => `${n} part${n === 1 ? '' : 's'} to find`,
  notTried: 'Not tried yet',
  progress: (rec) => `${rec.attempts} attempt${rec.attempts === 1 ? '' : 's'} · best ${rec.best} / ${rec.max}`,
  solved: 'Solved',
  topics: 'Topics',
  summary: (solved, total) => `${solved} of ${total} solved`,
};

export function renderExerciseList(container, index, progress) {
  if (!index.length) {
    replaceChildren(container, h('p', { class: 'note-box' }, LIST_TEXT.empty));
    return;
  }
  const solved = index.filter((e) => progress.exercises[e.id]?.solved).length;
  const cards = index.map((e) => {
    const rec = progress.exercises[e.id];
    const status = rec
      ? h(
          'p',
          { class: `exercise-progress${rec.solved ? ' solved' : ''}`, dataset: { exercise: e.id } },
          rec.solved ? h('span', { class: 'solved-mark' }, h('span', { 'aria-hidden': 'true' }, '✓ '), LIST_TEXT.solved, ' · ') : null,
          LIST_TEXT.progress(rec),
        )
      : h('p', { class: 'exercise-progress none', dataset: { exercise: e.id } }, LIST_TEXT.notTried);
    return h(
      'li',
      { class: 'card exercise-card' },
      h('h3', {}, h('a', { href: `./exercise.html?ex=${encodeURIComponent(e.id)}` }, e.title)),
      h('p', { class: 'exercise-facts' }, `${LIST_TEXT.level[e.level] ?? e.level} · ${LIST_TEXT.kind[e.kind] ?? e.kind} · ${LIST_TEXT.toFind(e.error_count)}`),
      h('p', { class: 'tags' }, h('span', { class: 'visually-hidden' }, `${LIST_TEXT.topics}: `), e.tags.map((t) => h('span', { class: 'tag' }, t))),
      status,
    );
  });
  replaceChildren(
    container,
    h('p', { class: 'list-summary', id: 'exercise-summary' }, LIST_TEXT.summary(solved, index.length)),
    h('ul', { class: 'cards exercise-cards' }, cards),
  );
}
