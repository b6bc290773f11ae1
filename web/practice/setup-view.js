// setup-view.js — the practice set-up form: how many exercises, levels, topics, timer, seed, Start.
//
//   const setup = createSetupView(container, index, { settings, onChange, onStart });
//   setup.focusHeading();
//
// The level and topic checkboxes are built from the exercise index, each with how many exercises
// carry it. Every change is validated at once: a bad count or seed is named next to its field,
// and when no exercise matches the filters the form says so and Start stays disabled. The fields
// sit in data-panel="setup" and the Start button outside it, so an author can hide the fields
// (?hide=setup) and hand learners a fixed set. Not here: the draw itself (draw.js), the URL.

import { h } from '../shared/dom.js';
import { matchingExercises } from './draw.js';
import { LEVELS, MAX_EXERCISES, SEED_PATTERN, TIMER_CHOICES, randomSeed } from './practice-state.js';

// Every user-visible string of the set-up form, in one place.
export const SETUP_TEXT = {
  title: 'Set up a session',
  count: 'Number of exercises',
  countHint: `From 1 to ${MAX_EXERCISES}.`,
  countError: `Enter a whole number from 1 to ${MAX_EXERCISES}.`,
  levels: 'Levels',
  levelsHint: 'None ticked: every level.',
  level: { beginner: 'Beginner', intermediate: 'Intermediate', advanced: 'Advanced' },
  topics: 'Topics',
  topicsHint: 'An exercise matches when it has any ticked topic. None ticked: every topic.',
  topicsSummary: (ticked) => (ticked.length === 0 ? 'Topics: all' : `Topics: ${ticked.length} ticked (${ticked.join(', ')})`),
  untickTopics: 'Untick all topics',
  withCount: (name, n) => `${name} (${n})`,
  timer: 'Timer',
  timerHint: 'For the whole session. When it reaches zero the session ends and shows the summary.',
  timerChoice: (choice) => (choice === 'off' ? 'Off' : `${choice} minutes`),
  seed: 'Seed',
  seedHint: 'The same seed and settings always draw the same exercises in the same order, so a shared link gives the same set.',
  seedError: 'Use 1 to 40 letters, digits, hyphens or underscores.',
  newSeed: 'New seed',
  start: 'Start practice',
  match(matching, n) {
    if (matching === 0) return 'No exercise matches these filters. Untick a topic or a level — or tick none to include them all.';
    if (matching < n) return `Only ${matching} exercise${matching === 1 ? '' : 's'} match${matching === 1 ? 'es' : ''} these filters, so this session has ${matching}.`;
    return `${matching} exercise${matching === 1 ? ' matches' : 's match'}; this session draws ${n} of them.`;
  },
  fixFields: 'Fix the fields marked above to start.',
};

let fieldIds = 0;

function countBy(index, key) {
  const counts = new Map();
  for (const entry of index) for (const value of [entry[key]].flat()) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

export function createSetupView(container, index, { settings, onChange = () => {}, onStart = () => {} }) {
  const id = (name) => `setup-${name}-${(fieldIds += 1)}`;
  const levelCounts = countBy(index, 'level');
  const tagCounts = countBy(index, 'tags');
  const tagNames = [...tagCounts.keys()].sort();

  // ---- how many --------------------------------------------------------------------------------
  const countId = id('count');
  const countHint = h('p', { class: 'hint', id: `${countId}-hint` }, SETUP_TEXT.countHint);
  const countError = h('p', { class: 'field-error', id: `${countId}-error`, hidden: true }, SETUP_TEXT.countError);
  const countInput = h('input', {
    type: 'number',
    id: countId,
    name: 'n',
    min: '1',
    max: String(MAX_EXERCISES),
    step: '1',
    inputmode: 'numeric',
    value: String(settings.n),
    'aria-describedby': `${countId}-hint ${countId}-error`,
  });
  const countField = h('div', { class: 'field' }, h('label', { for: countId }, SETUP_TEXT.count), countInput, countHint, countError);

  // ---- levels ----------------------------------------------------------------------------------
  const checkbox = (name, value, label, checked) => {
    const boxId = id(`${name}-${value}`);
    return h(
      'div',
      { class: 'check' },
      h('input', { type: 'checkbox', id: boxId, name, value, checked }),
      h('label', { for: boxId }, label),
    );
  };
  const levelsHintId = id('levels-hint');
  const levelsField = h(
    'fieldset',
    { class: 'levels', 'aria-describedby': levelsHintId },
    h('legend', {}, SETUP_TEXT.levels),
    h('div', { class: 'check-row' }, LEVELS.filter((l) => levelCounts.has(l)).map((l) => checkbox('level', l, SETUP_TEXT.withCount(SETUP_TEXT.level[l], levelCounts.get(l)), settings.levels.includes(l)))),
    h('p', { class: 'hint', id: levelsHintId }, SETUP_TEXT.levelsHint),
  );

  // ---- topics (folded away: 40-odd checkboxes) --------------------------------------------------
  const topicsHintId = id('topics-hint');
  const topicsSummary = h('summary', {}, SETUP_TEXT.topicsSummary(settings.tags));
  const untick = h('button', { type: 'button', class: 'secondary small' }, SETUP_TEXT.untickTopics);
  const topicsField = h(
    'fieldset',
    { class: 'topics', 'aria-describedby': topicsHintId },
    h('legend', {}, SETUP_TEXT.topics),
    h('p', { class: 'hint', id: topicsHintId }, SETUP_TEXT.topicsHint),
    h('div', { class: 'check-grid' }, tagNames.map((t) => checkbox('tag', t, SETUP_TEXT.withCount(t, tagCounts.get(t)), settings.tags.includes(t)))),
    h('div', { class: 'actions compact' }, untick),
  );
  const topics = h('details', { class: 'topics-box', open: settings.tags.length > 0 }, topicsSummary, topicsField);

  // ---- timer -----------------------------------------------------------------------------------
  const timerHintId = id('timer-hint');
  const timerField = h(
    'fieldset',
    { class: 'timer-choice', 'aria-describedby': timerHintId },
    h('legend', {}, SETUP_TEXT.timer),
    h(
      'div',
      { class: 'check-row' },
      TIMER_CHOICES.map((choice) => {
        const radioId = id(`timer-${choice}`);
        return h(
          'div',
          { class: 'check' },
          h('input', { type: 'radio', id: radioId, name: 'timer', value: choice, checked: settings.timer === choice }),
          h('label', { for: radioId }, SETUP_TEXT.timerChoice(choice)),
        );
      }),
    ),
    h('p', { class: 'hint', id: timerHintId }, SETUP_TEXT.timerHint),
  );

  // ---- seed ------------------------------------------------------------------------------------
  const seedId = id('seed');
  const seedInput = h('input', {
    type: 'text',
    id: seedId,
    name: 'seed',
    value: settings.seed,
    maxlength: '40',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    'aria-describedby': `${seedId}-hint ${seedId}-error`,
  });
  const newSeed = h('button', { type: 'button', class: 'secondary' }, SETUP_TEXT.newSeed);
  const seedError = h('p', { class: 'field-error', id: `${seedId}-error`, hidden: true }, SETUP_TEXT.seedError);
  const seedField = h(
    'div',
    { class: 'field' },
    h('label', { for: seedId }, SETUP_TEXT.seed),
    h('div', { class: 'seed-row' }, seedInput, newSeed),
    h('p', { class: 'hint', id: `${seedId}-hint` }, SETUP_TEXT.seedHint),
    seedError,
  );

  // ---- match line and Start --------------------------------------------------------------------
  const match = h('p', { class: 'match', role: 'status' });
  const start = h('button', { type: 'submit', class: 'start' }, SETUP_TEXT.start);
  const heading = h('h2', { id: 'setup-title', tabindex: '-1' }, SETUP_TEXT.title);
  const form = h(
    'form',
    { class: 'setup-form', novalidate: true, 'aria-labelledby': 'setup-title' },
    h('div', { class: 'setup-fields', dataset: { panel: 'setup' } }, countField, levelsField, topics, timerField, seedField),
    match,
    h('div', { class: 'actions' }, start),
  );
  container.append(heading, form);

  function read() {
    const raw = countInput.value.trim();
    const n = /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
    const seed = seedInput.value.trim();
    return {
      n,
      tags: [...form.querySelectorAll('input[name="tag"]:checked')].map((box) => box.value),
      levels: [...form.querySelectorAll('input[name="level"]:checked')].map((box) => box.value),
      timer: form.querySelector('input[name="timer"]:checked')?.value ?? 'off',
      seed,
      countOk: n >= 1 && n <= MAX_EXERCISES,
      seedOk: SEED_PATTERN.test(seed),
    };
  }

  function showError(input, error, ok) {
    error.hidden = ok;
    if (ok) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  }

  // Validates, updates the match line and Start; returns the settings, or null when Start is off.
  function refresh() {
    const current = read();
    showError(countInput, countError, current.countOk);
    showError(seedInput, seedError, current.seedOk);
    topicsSummary.textContent = SETUP_TEXT.topicsSummary(current.tags);
    const matching = matchingExercises(index, current).length;
    const n = current.countOk ? current.n : settings.n;
    const fieldsOk = current.countOk && current.seedOk;
    match.textContent = !fieldsOk && matching > 0 ? SETUP_TEXT.fixFields : SETUP_TEXT.match(matching, n);
    match.classList.toggle('empty', matching === 0);
    start.disabled = matching === 0 || !fieldsOk;
    return start.disabled ? null : { n: current.n, tags: current.tags, levels: current.levels, timer: current.timer, seed: current.seed };
  }

  function changed() {
    const current = refresh();
    // Valid parts are kept in the URL even while another field is being fixed.
    const raw = read();
    onChange({
      ...(raw.countOk ? { n: raw.n } : {}),
      ...(raw.seedOk ? { seed: raw.seed } : {}),
      tags: raw.tags,
      levels: raw.levels,
      timer: raw.timer,
    });
    return current;
  }

  form.addEventListener('input', changed);
  form.addEventListener('change', changed);
  newSeed.addEventListener('click', () => {
    seedInput.value = randomSeed();
    changed();
  });
  untick.addEventListener('click', () => {
    for (const box of form.querySelectorAll('input[name="tag"]')) box.checked = false;
    changed();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const current = refresh();
    if (current) onStart(current);
  });

  refresh();
  return {
    focusHeading: () => heading.focus(),
  };
}
