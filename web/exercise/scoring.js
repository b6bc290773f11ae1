// scoring.js — the find-the-bug score, H5P "Mark the Words" rules, on units instead of words.
//
//   scoreMarks(exercise, new Set([40, 47, 12]))
//   -> { found: [true, true, false], foundCount: 2, wrongUnits: [12], score: 1, maxScore: 3,
//        unitResults: Map { 40 => 'correct', 47 => 'correct', 12 => 'wrong', 50 => 'missed', … },
//        nearMissesMarked: [0] }
//
// An error is found when any unit overlapping it is marked. Every marked unit outside all errors
// is one wrong mark. score = found − wrong, floored at 0 (H5P's calculateScore), out of the number
// of errors. Pure: no DOM, no storage; the exercise page and the tests both call it.

export function scoreMarks(exercise, marked) {
  const units = exercise.passage.units;
  const found = exercise.errors.map((error) => error.units.some((u) => marked.has(u)));
  const wrongUnits = [...marked].filter((u) => units[u] && units[u].error === null).sort((a, b) => a - b);
  const foundCount = found.filter(Boolean).length;
  const maxScore = exercise.errors.length;
  const score = Math.max(foundCount - wrongUnits.length, 0);

  const unitResults = new Map();
  units.forEach((unit, i) => {
    if (marked.has(i)) unitResults.set(i, unit.error === null ? 'wrong' : 'correct');
    else if (unit.error !== null && !found[unit.error]) unitResults.set(i, 'missed');
  });
  const nearMissesMarked = (exercise.near_misses ?? [])
    .map((nearMiss, i) => (nearMiss.units.some((u) => marked.has(u)) ? i : -1))
    .filter((i) => i >= 0);
  return { found, foundCount, wrongUnits, score, maxScore, unitResults, nearMissesMarked };
}

/** Unit indices that belong to an error: what "Show solution" marks. */
export function solutionUnits(exercise) {
  return new Set(exercise.errors.flatMap((error) => error.units));
}
