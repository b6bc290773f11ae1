// compare-columns.js — which positions of two same-shape batches differ, and which runs of
// identical positions the comparison view folds away (compare.js).
//
//   const cols = compareColumns(buggyAnswer, fixedAnswer);
//   // { sameShape, T, differing: [3, 4, 9], first: 3, runs: [{ start: 5, end: 7 }], hidden: Set{5,6,7} }
//
// A position is identical when every row shows the same thing there in both grids: token,
// input_ids, attention_mask, labels (and the reason of a −100), position_ids and the loss at t as
// the grid prints it (3 decimals). Runs of identical positions are folded, keeping CONTEXT
// positions next to each difference so a difference is never shown without its neighbours;
// a run shorter than MIN_RUN stays (a fold marker would be as wide as what it hides).
// Example: T = 12, differing = [8] -> shown 7, 8, 9; runs [{0..6}, {10..11}].
// Not here: drawing (token-grid.js) or any arithmetic on the values (only equality).

import { formatNumber } from '../shared/format.js';

export const CONTEXT = 1;
export const MIN_RUN = 2;
const IGNORE = -100;

// What the loss row shows at (b, t): '' when not scored, else the 3-decimal value.
function lossText(answer, b, t) {
  const target = answer.loss?.targets?.[b]?.[t];
  if (target === undefined || target === IGNORE) return '';
  return `${target}:${formatNumber(answer.loss.per_token[b][t], 3)}`;
}

function same(a, b, key, r, t) {
  return (a.batch[key]?.[r]?.[t] ?? null) === (b.batch[key]?.[r]?.[t] ?? null);
}

/** Positions that differ between two inspect answers, and the runs to fold (see top). */
export function compareColumns(a, b, { context = CONTEXT, minRun = MIN_RUN } = {}) {
  const [B, T] = a.batch.shape;
  const sameShape = B === b.batch.shape[0] && T === b.batch.shape[1];
  if (!sameShape) return { sameShape, T, differing: [], first: null, runs: [], hidden: new Set() };
  const differing = [];
  for (let t = 0; t < T; t += 1) {
    let differs = false;
    for (let r = 0; r < B && !differs; r += 1) {
      differs =
        a.tokens?.[r]?.[t] !== b.tokens?.[r]?.[t] ||
        !['input_ids', 'attention_mask', 'labels', 'label_reasons', 'position_ids'].every((key) => same(a, b, key, r, t)) ||
        lossText(a, r, t) !== lossText(b, r, t);
    }
    if (differs) differing.push(t);
  }
  const keep = new Set();
  for (const t of differing) for (let u = t - context; u <= t + context; u += 1) if (u >= 0 && u < T) keep.add(u);
  const runs = [];
  // Nothing differs: nothing to fold (the whole grid is the context).
  if (differing.length) {
    let start = null;
    for (let t = 0; t <= T; t += 1) {
      const foldable = t < T && !keep.has(t);
      if (foldable && start === null) start = t;
      if (!foldable && start !== null) {
        if (t - start >= minRun) runs.push({ start, end: t - 1 });
        start = null;
      }
    }
  }
  const hidden = new Set();
  for (const run of runs) for (let t = run.start; t <= run.end; t += 1) hidden.add(t);
  return { sameShape, T, differing, first: differing[0] ?? null, runs, hidden };
}

/** The runs left folded after unfolding `run` (or all of them: run = 'all'). */
export function withoutRun(cols, run) {
  const runs = run === 'all' ? [] : cols.runs.filter((r) => r.start !== run.start);
  const hidden = new Set();
  for (const r of runs) for (let t = r.start; t <= r.end; t += 1) hidden.add(t);
  return { ...cols, runs, hidden };
}
