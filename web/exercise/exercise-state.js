// exercise-state.js — the exercise page's state in its URL (one typed table, url-state.js).
//
//   exercise.html?ex=pad-to-max-all-ones&marked=40,47&checked=1&revealed=0,2
//
// ex: which exercise (empty = the first of the list) · marked: the learner's unit indices ·
// checked: results shown · solution: the solution shown · revealed: follow-up model answers open.
// embed and hide are read by shared/page.js and kept untouched when this table writes the URL.

import { defineState } from '../shared/url-state.js';

export const EXERCISE_STATE = defineState({
  ex: { type: 'string', pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/, maxLength: 80, default: '' },
  marked: { type: 'list', item: /^\d{1,4}$/, maxItems: 400, default: [] },
  checked: { type: 'bool', default: false },
  solution: { type: 'bool', default: false },
  revealed: { type: 'list', item: /^\d$/, maxItems: 10, default: [] },
});
