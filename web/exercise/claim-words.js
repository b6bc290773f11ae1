// claim-words.js — a checked claim in words a learner reads: "reported loss 0.7792 < loss on
// real-token targets 1.2519", not "summary.loss = 0.779179 < summary.loss_real = 1.2519".
//
//   metricName('summary.loss_real')              -> 'loss on real-token targets'
//   metricName('sum:batch.rows.*.eos_targets')   -> 'EOS targets, summed over the rows'
//   checkWords({ metric, actual, op, target })   -> 'reported loss 0.7792 < loss on real-token targets 1.2519'
//
// Known paths have names; any other path is written as it is (a learner may look it up in the
// response). Numbers are only formatted. Not here: evaluating claims (shared/claims.js).

import { formatLoss, formatNumber, formatShare } from '../shared/format.js';

// Every user-visible string of this file, in one place.
export const CLAIM_WORDS = {
  names: {
    'summary.loss': 'reported loss',
    'summary.loss_real': 'loss on real-token targets',
    'summary.loss_pad': 'loss on pad targets',
    'summary.loss_all_positions': 'loss if every position were scored',
    'summary.targets': 'targets',
    'summary.real_targets': 'real-token targets',
    'summary.pad_targets': 'pad targets',
    'summary.pad_share': 'pad share',
    'summary.dilution_factor': 'weight per real token',
    'summary.sum_real': 'summed loss of real-token targets',
    'summary.sum_pad': 'summed loss of pad targets',
    'loss.loss': 'reported loss',
    'loss.num_targets': 'targets',
    real_output_change: 'largest change of a real token’s attention output',
  },
  rowFields: {
    targets: 'targets',
    pad_targets: 'pad targets',
    eos_targets: 'EOS targets',
    real_tokens: 'real tokens',
    pads: 'pads',
    label_tokens: 'labels kept',
    pad_share: 'pad share',
    truncated_tokens: 'tokens cut',
  },
  aggregators: { sum: 'summed over', mean: 'averaged over', max: 'largest of', min: 'smallest of', count: 'number of', first: 'first of' },
  inRow: (what, b) => `${what} in row ${b + 1}`,
  everyRow: (agg, what) => `${what}, ${agg} the rows`,
  rows: 'rows',
  label: (b, t) => `label at row ${b + 1}, position ${t}`,
  mask: (b, t) => `attention_mask at row ${b + 1}, position ${t}`,
  weight: (b, q, k) => `attention weight of position ${q} on ${k} (row ${b + 1})`,
  exampleLoss: (b) => `loss of example ${b + 1}`,
  other: { buggy: 'as written', fixed: 'fixed' },
  approx: (tolerance) => `(within ${tolerance})`,
  isNull: 'is empty (no value)',
  notNull: 'has a value',
};

const SHARES = new Set(['summary.pad_share']);
const LOSSES = /loss/;

/** A learner's name for a metric path (see top). */
export function metricName(metric) {
  if (CLAIM_WORDS.names[metric]) return CLAIM_WORDS.names[metric];
  const [agg, path] = metric.includes(':') ? metric.split(':') : [null, metric];
  const parts = path.split('.');
  if (agg === 'count' && path === 'batch.rows.*') return CLAIM_WORDS.rows;
  if (parts[0] === 'batch' && parts[1] === 'rows' && parts.length === 4 && CLAIM_WORDS.rowFields[parts[3]]) {
    const what = CLAIM_WORDS.rowFields[parts[3]];
    if (parts[2] === '*' && agg) return CLAIM_WORDS.everyRow(CLAIM_WORDS.aggregators[agg], what);
    if (/^\d+$/.test(parts[2])) return CLAIM_WORDS.inRow(what, Number(parts[2]));
  }
  if (parts[0] === 'batch' && parts[1] === 'labels' && parts.length === 4 && parts.slice(2).every((p) => /^\d+$/.test(p))) return CLAIM_WORDS.label(Number(parts[2]), Number(parts[3]));
  if (parts[0] === 'batch' && parts[1] === 'attention_mask' && parts.length === 4 && parts.slice(2).every((p) => /^\d+$/.test(p))) return CLAIM_WORDS.mask(Number(parts[2]), Number(parts[3]));
  if (parts[0] === 'attention' && parts[1] === 'weights' && parts.length === 5 && parts.slice(2).every((p) => /^\d+$/.test(p)))
    return CLAIM_WORDS.weight(Number(parts[2]), Number(parts[3]), Number(parts[4]));
  if (parts[0] === 'loss' && parts[1] === 'per_example_loss' && /^\d+$/.test(parts[2] ?? '')) return CLAIM_WORDS.exampleLoss(Number(parts[2]));
  return metric;
}

/** How a value of `metric` is written: losses with 4 decimals, shares in %, counts whole. */
export function formatValue(metric, value) {
  if (value === null || value === undefined) return '—';
  if (typeof value !== 'number') return String(value);
  if (Number.isInteger(value)) return String(value);
  if (SHARES.has(metric)) return formatShare(value);
  if (LOSSES.test(metric)) return formatLoss(value);
  return Math.abs(value) < 1e-4 && value !== 0 ? value.toExponential(1) : formatNumber(value, 4);
}

/** One check of a claim in words; `side` names the other response when the target is from it. */
export function checkWords({ metric, actual, op, target, tolerance }, side) {
  const left = `${metricName(metric)} ${formatValue(metric, actual)}`;
  if (op === 'is_null') return `${metricName(metric)} ${CLAIM_WORDS.isNull}`;
  if (op === 'not_null') return `${metricName(metric)} ${CLAIM_WORDS.notNull}`;
  let right;
  if (target.metric) {
    const whose = target.side && target.side !== side ? ` (${CLAIM_WORDS.other[target.side]})` : '';
    right = `${metricName(target.metric)}${whose} ${formatValue(target.metric, target.value)}`;
  } else right = formatValue(metric, target.value);
  return `${left} ${op} ${right}${op === '≈' ? ` ${CLAIM_WORDS.approx(tolerance)}` : ''}`;
}
