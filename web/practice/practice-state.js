// practice-state.js — the practice page's state in its URL (one typed table, url-state.js), and
// the step names it uses.
//
//   practice.html?n=3&levels=beginner&timer=10&seed=k3x9qa&step=2.1&scores=2,1&grades=gpm&times=95,40
//
// Set-up: n (how many), tags and levels (filters; empty = all), timer (minutes or off), seed.
// Where the learner is: step = setup | 1 (exercise 1, find the bug) | 1.2 (exercise 1, follow-up 2)
// | summary. Results so far: scores (one per checked exercise, in order), grades (one letter per
// graded follow-up, in order: g got it · p partly · m missed it), times (seconds spent on each
// exercise). The current exercise's marks (marked) and whether its model answer is open
// (revealed) come back too; saved = the summary has been written to the history.
// A reload therefore resumes the same set at the same step with the same results; only typed
// answers are lost. Not here: the draw (draw.js), checking that results and step agree (session.js).

import { defineState } from '../shared/url-state.js';

export const SEED_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;
export const TIMER_CHOICES = ['off', '5', '10', '20'];
export const LEVELS = ['beginner', 'intermediate', 'advanced'];
export const MAX_EXERCISES = 10;
export const GRADE_LETTERS = { got: 'g', partly: 'p', missed: 'm' };

export const PRACTICE_STATE = defineState({
  n: { type: 'int', min: 1, max: MAX_EXERCISES, default: 3 },
  tags: { type: 'list', item: /^[a-z0-9]+(-[a-z0-9]+)*$/, maxItems: 100, default: [] },
  levels: { type: 'list', item: /^(beginner|intermediate|advanced)$/, maxItems: 3, default: [] },
  timer: { type: 'enum', values: TIMER_CHOICES, default: 'off' },
  seed: { type: 'string', pattern: SEED_PATTERN, maxLength: 40, default: '' },
  step: { type: 'string', pattern: /^(setup|summary|\d{1,2}(\.\d)?)$/, maxLength: 8, default: 'setup' },
  marked: { type: 'list', item: /^\d{1,4}$/, maxItems: 400, default: [] },
  revealed: { type: 'bool', default: false },
  scores: { type: 'list', item: /^\d{1,2}$/, maxItems: MAX_EXERCISES, default: [] },
  grades: { type: 'string', pattern: /^[gpm]{0,40}$/, maxLength: 40, default: '' },
  times: { type: 'list', item: /^\d{1,5}$/, maxItems: MAX_EXERCISES, default: [] },
  saved: { type: 'bool', default: false },
}, { reportUnknown: true });

/**
 * 'setup' -> { screen: 'setup' }; 'summary' -> { screen: 'summary' };
 * '2' -> { screen: 'exercise', exercise: 1, followUp: 0 }; '2.3' -> { …, exercise: 1, followUp: 3 }.
 * exercise is 0-based (an index into the set); followUp is 1-based, 0 = the find-the-bug step.
 */
export function parseStep(text) {
  if (text === 'setup' || text === 'summary') return { screen: text };
  const [exercise, followUp = '0'] = text.split('.');
  return { screen: 'exercise', exercise: Number(exercise) - 1, followUp: Number(followUp) };
}

export function formatStep(step) {
  if (step.screen !== 'exercise') return step.screen;
  return step.followUp ? `${step.exercise + 1}.${step.followUp}` : String(step.exercise + 1);
}

// Unambiguous characters only (no 0/o, 1/l/i), so a seed read aloud or copied by hand works.
const SEED_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A fresh random seed such as "k3x9qa" (31^6 ≈ 890 million of them). */
export function randomSeed(length = 6) {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => SEED_ALPHABET[b % SEED_ALPHABET.length]).join('');
}
