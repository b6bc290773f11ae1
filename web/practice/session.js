// session.js — a practice session's bookkeeping: which step follows which, whether the results a
// URL carries agree with its step, and the summary totals.
//
//   set     = [{ id, title, maxScore, followUpCount }]         the drawn exercises, in order
//   results = { scores: [2, 1], grades: 'gpmg', times: [95, 40] }
//     scores: one find-the-bug score per checked exercise, in set order
//     grades: one letter per self-graded follow-up, in order across the whole set (g | p | m)
//     times:  seconds spent on each exercise
//   step    = { screen: 'setup' | 'summary' } | { screen: 'exercise', exercise: i, followUp: j }
//
// The learner only moves forward, so results fill up in order and a step is valid only where the
// results end: on exercise i's find-the-bug step i or i + 1 scores exist (before / after Check);
// on its follow-up j, exactly the earlier follow-ups are graded, or this one as well.
// Pure: no DOM, no URL, no storage.

export const GRADES = ['g', 'p', 'm'];

/** Where each exercise's grades start in the flat grades string: [0, f0, f0 + f1, …, total]. */
export function gradeOffsets(set) {
  const offsets = [0];
  for (const item of set) offsets.push(offsets[offsets.length - 1] + item.followUpCount);
  return offsets;
}

/** The grade letters of exercise i, e.g. 'gp' when its first two follow-ups are graded. */
export function gradesOf(set, grades, i) {
  const offsets = gradeOffsets(set);
  return grades.slice(offsets[i], offsets[i + 1]);
}

/**
 * Drops results that cannot belong to this set (a score above the exercise's maximum, more scores
 * than exercises, grades for exercises not yet checked). Returns the kept results and, for each
 * drop, a sentence saying what was dropped.
 */
export function sanitizeResults(set, { scores = [], grades = '', times = [] }) {
  const problems = [];
  const offsets = gradeOffsets(set);
  let kept = scores.slice(0, set.length);
  const bad = kept.findIndex((score, i) => !Number.isInteger(score) || score < 0 || score > set[i].maxScore);
  if (bad >= 0) kept = kept.slice(0, bad);
  // Only the last checked exercise may have follow-ups left: every earlier one was finished first.
  const fullyGraded = offsets.filter((offset) => offset <= grades.length).length - 1;
  kept = kept.slice(0, fullyGraded + 1);
  if (kept.length < scores.length) problems.push(`scores: kept the first ${kept.length} of ${scores.length}, the rest do not fit this set.`);
  const allowed = offsets[kept.length];
  const keptGrades = grades.slice(0, allowed);
  if (keptGrades.length < grades.length) problems.push(`grades: kept the first ${keptGrades.length} of ${grades.length}, the rest do not fit this set.`);
  const keptTimes = set.map((_, i) => (Number.isInteger(times[i]) && times[i] >= 0 ? times[i] : 0));
  return { results: { scores: kept, grades: keptGrades, times: keptTimes }, problems };
}

/** The first thing not yet done: a find-the-bug step, an ungraded follow-up, or the summary. */
export function frontier(set, { scores, grades }) {
  const offsets = gradeOffsets(set);
  const checked = scores.length;
  if (checked > 0) {
    const last = checked - 1;
    const graded = grades.length - offsets[last];
    if (graded < set[last].followUpCount) return { screen: 'exercise', exercise: last, followUp: graded + 1 };
  }
  if (checked < set.length) return { screen: 'exercise', exercise: checked, followUp: 0 };
  return { screen: 'summary' };
}

/** Whether `step` is where these results say the learner can be (see the header). */
export function stepAgrees(set, { scores, grades }, step) {
  if (step.screen === 'summary') return true;
  if (step.screen !== 'exercise') return false;
  const { exercise: i, followUp: j } = step;
  if (!Number.isInteger(i) || i < 0 || i >= set.length) return false;
  if (!Number.isInteger(j) || j < 0 || j > set[i].followUpCount) return false;
  const offsets = gradeOffsets(set);
  if (j === 0) return (scores.length === i || scores.length === i + 1) && grades.length === offsets[i];
  const done = grades.length - offsets[i];
  return scores.length === i + 1 && (done === j - 1 || done === j);
}

/** The step after `step`: the next follow-up, the next exercise, or the summary. */
export function nextStep(set, step) {
  const { exercise: i, followUp: j } = step;
  if (j < set[i].followUpCount) return { screen: 'exercise', exercise: i, followUp: j + 1 };
  if (i + 1 < set.length) return { screen: 'exercise', exercise: i + 1, followUp: 0 };
  return { screen: 'summary' };
}

/**
 * Per-exercise rows and totals for the summary and the history.
 *   rows[i]: { id, title, score (null = not checked), maxScore, grades: ['g', null, …], seconds,
 *              status: 'done' | 'partial' (checked, follow-ups left) | 'not-started' }
 *   totals:  { score, maxScore, got, partly, missed, ungraded, seconds, done, count }
 * Unfinished exercises count 0 towards the score and their full maximum towards maxScore.
 */
export function summarize(set, { scores, grades, times }) {
  const rows = set.map((item, i) => {
    const letters = gradesOf(set, grades, i);
    const checked = i < scores.length;
    const status = !checked ? 'not-started' : letters.length < item.followUpCount ? 'partial' : 'done';
    return {
      id: item.id,
      title: item.title,
      score: checked ? scores[i] : null,
      maxScore: item.maxScore,
      grades: Array.from({ length: item.followUpCount }, (_, k) => letters[k] ?? null),
      seconds: times[i] ?? 0,
      status,
    };
  });
  const all = rows.flatMap((row) => row.grades);
  const totals = {
    score: rows.reduce((sum, row) => sum + (row.score ?? 0), 0),
    maxScore: rows.reduce((sum, row) => sum + row.maxScore, 0),
    got: all.filter((g) => g === 'g').length,
    partly: all.filter((g) => g === 'p').length,
    missed: all.filter((g) => g === 'm').length,
    ungraded: all.filter((g) => g === null).length,
    seconds: rows.reduce((sum, row) => sum + row.seconds, 0),
    done: rows.filter((row) => row.status === 'done').length,
    count: rows.length,
  };
  return { rows, totals };
}

/**
 * The record store.js keeps (recordPractice): { when, seed, seconds, items }. Each item keeps what
 * the store checks and keeps: id, score, max, grades as letters (g, p, m; - = not graded) and status.
 */
export function historyRecord(summary, seed, when = new Date()) {
  return {
    when: when.toISOString(),
    seed,
    seconds: summary.totals.seconds,
    items: summary.rows.map((row) => ({
      id: row.id,
      score: row.score ?? 0,
      max: row.maxScore,
      grades: row.grades.map((g) => g ?? '-').join(''),
      status: row.status,
    })),
  };
}
