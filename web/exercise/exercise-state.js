// exercise-state.js — the exercise page's state in its URL (one typed table, url-state.js).
//
//   exercise.html?ex=pad-to-max-all-ones&marked=40,47&checked=1&revealed=0,2
//
// ex: which exercise (empty = the list) · marked: the learner's unit indices ·
// checked: results shown · solution: the solution shown · revealed: follow-up model answers open.
// Without ex the page is the list of exercises (filtered by level= and tag=).
// embed and hide are read by shared/page.js and kept untouched when this table writes the URL.

import { defineState } from '../shared/url-state.js';

// ex: which exercise (empty = the list of all exercises) · level, tag: the list's filters.
// id= is accepted for ex= (people guess it); any other parameter is explained, not ignored.
export const EXERCISE_STATE = defineState(
  {
    ex: { type: 'string', pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/, maxLength: 80, default: '' },
    marked: { type: 'list', item: /^\d{1,4}$/, maxItems: 400, default: [] },
    checked: { type: 'bool', default: false },
    solution: { type: 'bool', default: false },
    revealed: { type: 'list', item: /^\d$/, maxItems: 10, default: [] },
    level: { type: 'list', item: /^(beginner|intermediate|advanced)$/, maxItems: 3, default: [] },
    tag: { type: 'list', item: /^[a-z0-9]+(-[a-z0-9]+)*$/, maxItems: 40, default: [] },
  },
  { aliases: { id: 'ex' }, reportUnknown: true },
);
