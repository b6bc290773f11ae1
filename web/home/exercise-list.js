// exercise-list.js — the list of find-the-bug exercises with the learner's progress, filtered
// by level and topic (the home page and exercise.html without ?ex= both show it).
//
//   renderExerciseList(container, exerciseIndex(), loadProgress(), {
//     filters: { level: ['beginner'], tag: ['padding'] },   // from the URL; optional
//     onFilters({ level, tag }) {},                          // to write them back to the URL
//     topics: topicDescriptions(),                           // { topic: one sentence }, shown for the chosen ones
//   });
//
// One card per exercise: title (a link), level, topics, how many parts to find, and — from
// localStorage via store.js — attempts, best score and a ✓ when solved. Progress is written in
// words, not only by colour or glyph. Filters are toggle buttons (aria-pressed): any chosen
// level, and any chosen topic (a card shows when it has one of them); "Show all" clears them.
// Cards that do not match are hidden, not removed, so filtering touches only classes.
// Not here: loading the index (exercise/catalog.js).

import { h, replaceChildren } from '../shared/dom.js';
import './exercise-list.css';

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
  filtersTitle: 'Filter the exercises',
  levels: 'Level',
  topicsFilter: 'Topic',
  showAll: 'Show all',
  showing: (shown, total) => (shown === total ? `All ${total} exercises` : `Showing ${shown} of ${total} exercises`),
  noneMatch: 'No exercise matches these filters. Choose another level or topic, or press Show all.',
  unknownTopics: (tags) =>
    `URL parameter tag names ${tags.length === 1 ? 'a topic' : 'topics'} no exercise has (${tags.map((t) => `“${t}”`).join(', ')}); the list is not filtered by ${tags.length === 1 ? 'it' : 'them'}.`,
  countOf: (n) => ` (${n})`,
  moreTopics: (n) => `${n} more topics`,
};

// Topics shown at once (the most used); the others wait behind "n more topics".
const FIRST_TOPICS = 8;

const LEVELS = ['beginner', 'intermediate', 'advanced'];

function card(e, rec) {
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
    { class: 'card exercise-card', dataset: { level: e.level, tags: e.tags.join(' ') } },
    h('h3', {}, h('a', { href: `./exercise.html?ex=${encodeURIComponent(e.id)}` }, e.title)),
    h('p', { class: 'exercise-facts' }, `${LIST_TEXT.level[e.level] ?? e.level} · ${LIST_TEXT.kind[e.kind] ?? e.kind} · ${LIST_TEXT.toFind(e.error_count)}`),
    h('p', { class: 'tags' }, h('span', { class: 'visually-hidden' }, `${LIST_TEXT.topics}: `), e.tags.map((t) => h('span', { class: 'tag' }, t))),
    status,
  );
}

function toggle(label, value, pressed, count) {
  return h(
    'button',
    { type: 'button', class: 'filter-chip', 'aria-pressed': String(pressed), dataset: { value } },
    label,
    h('span', { class: 'chip-count' }, LIST_TEXT.countOf(count)),
  );
}

/** The note for the topics in `tags` (from a link) that no exercise has: the list leaves them out. */
export function unknownTopicNotes(index, tags = []) {
  const known = new Set(index.flatMap((e) => e.tags));
  const unknown = tags.filter((t) => !known.has(t));
  return unknown.length ? [LIST_TEXT.unknownTopics(unknown)] : [];
}

export function renderExerciseList(container, index, progress, { filters = {}, onFilters = () => {}, topics = {} } = {}) {
  if (!index.length) {
    replaceChildren(container, h('p', { class: 'note-box' }, LIST_TEXT.empty));
    return;
  }
  const known = new Set(index.flatMap((e) => e.tags));
  const chosen = {
    level: new Set((filters.level ?? []).filter((l) => LEVELS.includes(l))),
    tag: new Set((filters.tag ?? []).filter((t) => known.has(t))),
  };
  const solved = index.filter((e) => progress.exercises[e.id]?.solved).length;

  // Topics, most used first (then by name), each with how many exercises carry it. Tags are
  // ASCII slugs (the content schema), so plain string order is alphabetical; localeCompare would
  // load the browser's locale data first (15–20 ms on a cold load).
  const tagCounts = new Map();
  for (const e of index) for (const t of e.tags) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
  const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const tags = [...tagCounts].sort((a, b) => b[1] - a[1] || byName(a[0], b[0]));
  const levelCounts = Object.fromEntries(LEVELS.map((l) => [l, index.filter((e) => e.level === l).length]));

  const levelGroup = h(
    'div',
    { class: 'filter-group', role: 'group', 'aria-labelledby': 'filter-levels' },
    h('span', { class: 'filter-label', id: 'filter-levels' }, LIST_TEXT.levels),
    LEVELS.filter((l) => levelCounts[l]).map((l) => toggle(LIST_TEXT.level[l], l, chosen.level.has(l), levelCounts[l])),
  );
  const rest = tags.slice(FIRST_TOPICS);
  const more = rest.length
    ? h(
        'details',
        { class: 'more-topics', open: rest.some(([t]) => chosen.tag.has(t)) },
        h('summary', {}, LIST_TEXT.moreTopics(rest.length)),
        h('div', { class: 'filter-group' }, rest.map(([t, n]) => toggle(t, t, chosen.tag.has(t), n))),
      )
    : null;
  const tagGroup = h(
    'div',
    { class: 'filter-group topics', role: 'group', 'aria-labelledby': 'filter-topics' },
    h('span', { class: 'filter-label', id: 'filter-topics' }, LIST_TEXT.topicsFilter),
    tags.slice(0, FIRST_TOPICS).map(([t, n]) => toggle(t, t, chosen.tag.has(t), n)),
    more,
  );
  const showAll = h('button', { type: 'button', class: 'secondary small show-all' }, LIST_TEXT.showAll);
  const count = h('p', { class: 'list-summary', id: 'exercise-summary-count', role: 'status' });
  const none = h('p', { class: 'note-box', hidden: true }, LIST_TEXT.noneMatch);
  // What each chosen topic means, in one sentence (content/topics.yaml), above the cards.
  const topicNotes = h('dl', { class: 'topic-notes', hidden: true });
  const cards = index.map((e) => card(e, progress.exercises[e.id]));
  const list = h('ul', { class: 'cards exercise-cards' }, cards);

  function apply() {
    let shown = 0;
    index.forEach((e, i) => {
      const match = (!chosen.level.size || chosen.level.has(e.level)) && (!chosen.tag.size || e.tags.some((t) => chosen.tag.has(t)));
      if (cards[i].hidden !== !match) cards[i].hidden = !match;
      if (match) shown += 1;
    });
    count.textContent = LIST_TEXT.showing(shown, index.length);
    const explained = tags.filter(([t]) => chosen.tag.has(t) && typeof topics[t] === 'string');
    replaceChildren(topicNotes, explained.map(([t]) => h('div', {}, h('dt', {}, t), h('dd', {}, topics[t]))));
    topicNotes.hidden = explained.length === 0;
    none.hidden = shown > 0;
    showAll.disabled = !chosen.level.size && !chosen.tag.size;
  }

  function onToggle(event, key) {
    const button = event.target.closest('button[data-value]');
    if (!button) return;
    const set = chosen[key];
    const value = button.dataset.value;
    if (set.has(value)) set.delete(value);
    else set.add(value);
    button.setAttribute('aria-pressed', String(set.has(value)));
    apply();
    onFilters({ level: [...chosen.level], tag: [...chosen.tag] });
  }
  levelGroup.addEventListener('click', (event) => onToggle(event, 'level'));
  tagGroup.addEventListener('click', (event) => onToggle(event, 'tag'));
  showAll.addEventListener('click', () => {
    chosen.level.clear();
    chosen.tag.clear();
    for (const b of container.querySelectorAll('.filter-chip')) b.setAttribute('aria-pressed', 'false');
    apply();
    onFilters({ level: [], tag: [] });
  });

  replaceChildren(
    container,
    h('p', { class: 'list-summary', id: 'exercise-summary' }, LIST_TEXT.summary(solved, index.length)),
    h('div', { class: 'filters', role: 'search', 'aria-label': LIST_TEXT.filtersTitle }, levelGroup, tagGroup, showAll),
    count,
    topicNotes,
    none,
    list,
  );
  apply();
}
