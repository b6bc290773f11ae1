// claims.js — executable claims: sentences of an exercise checked against the core's answers.
//
// An exercise's `see_it_break` runs two inspect requests (buggy, fixed); each claim compares
// figures of the two responses, so the prose cannot drift from what the core computes:
//
//   { text: 'With pads as targets the reported loss is below the loss over real tokens.',
//     metric: 'summary.loss',
//     buggy: { less_than: { metric: 'summary.loss_real' } },
//     fixed: { equals: { metric: 'summary.loss_real' } } }
//
//   evaluateClaims(claims, buggyResponse, fixedResponse) -> [{ text, ok, details, checks }]
//
// Metric grammar: `[aggregator:]path`. path = dotted keys and indices, `*` = every item of an
// array (or every value of an object): `batch.rows.*.pad_targets`, `batch.rows.0.targets`.
// Aggregators: sum | mean | max | min (skip null and missing values; mean/max/min of nothing is
// null, sum of nothing is 0) | count (how many values the path reaches; missing keys do not
// count) | first. A path with `*` needs an aggregator. One special metric:
// `real_output_change` = max |Δ| of the attention outputs at real tokens, buggy vs fixed,
// matched by (row, k-th real token of the row).
// Expectations (all keys of a side must hold): equals, not_equals, less_than, greater_than,
// at_most, at_least, approx {value, tolerance}, is_null (true|false). A compared value is a
// number (or null/boolean for equals), {metric: m} from the same response or {other: m} from the
// other one. Not here: running the core (the caller passes its answers) or any DOM.

export const AGGREGATORS = ['sum', 'mean', 'max', 'min', 'count', 'first'];
export const EXPECTATIONS = ['equals', 'not_equals', 'less_than', 'greater_than', 'at_most', 'at_least', 'approx', 'is_null'];
export const SPECIAL_METRICS = ['real_output_change'];
export const SIDES = ['buggy', 'fixed'];

// Every sentence this module writes, in one place.
const TEXT = {
  notString: 'must be a string like "summary.loss" or "sum:batch.rows.*.pad_targets"',
  unknownAggregator: (a) => `unknown aggregator "${a}:" (use one of ${AGGREGATORS.join(', ')})`,
  badSegment: (s) => `has a bad path part "${s}" (use names like summary.loss, indices like rows.0, or * for every item)`,
  emptyPath: 'has an empty path',
  starNeedsAggregator: (m) => `"${m}" reaches several values through *, so it needs an aggregator such as sum:${m}`,
  aggregatorOnSpecial: (m) => `${m} is a single number already; drop the aggregator`,
  noSides: 'needs a buggy or a fixed expectation (or both)',
  notObject: 'must be an object of expectations such as { equals: 0 }',
  emptyExpectation: 'has no expectation; add one such as { equals: 0 }',
  unknownExpectation: (k) => `unknown expectation "${k}" (use one of ${EXPECTATIONS.join(', ')})`,
  badCompared: 'must be a number, { metric: path } (same response) or { other: path } (the other response)',
  badEquals: 'must be a number, true, false, null, { metric: path } or { other: path }',
  badApprox: 'must be { value: number or { metric|other: path }, tolerance: number >= 0 }',
  badIsNull: 'must be true or false',
  refKeys: 'must have exactly one key: metric or other',
  missing: (m) => `no value at ${m}`,
  notNumber: (m, v) => `${m} is ${show(v)}, not a number`,
  rowCount: (a, b) => `the batches have different row counts (${a} vs ${b})`,
  noOutputs: 'a response has no attention outputs or lengths',
  nanOutput: (side, b, t) => `the ${side} output of row ${b}, position ${t} is NaN (fully_masked_rows "nan"): it has no size to compare`,
  missingResponse: (side) => `no ${side} response`,
  coreError: (side, e) => `the core refused the ${side} request: ${e.field}: ${e.message}`,
};

const SEGMENT = /^(\*|\d{1,6}|[A-Za-z_][A-Za-z0-9_]{0,63})$/;

// Short, exact-enough rendering of a value for the details line.
function show(v) {
  if (v === undefined) return 'missing';
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return String(v);
    if (v !== 0 && Math.abs(v) < 1e-4) return v.toExponential(2);
    return String(Number(v.toPrecision(6)));
  }
  return JSON.stringify(v);
}

/**
 * Parses `[aggregator:]path`. Throws an Error whose message says what is wrong.
 * Example: 'sum:batch.rows.*.pad_targets' -> { aggregator: 'sum', path: ['batch','rows','*','pad_targets'] }
 */
export function parseMetric(metric) {
  if (typeof metric !== 'string') throw new Error(TEXT.notString);
  const colon = metric.indexOf(':');
  const aggregator = colon >= 0 ? metric.slice(0, colon).trim() : null;
  const pathText = (colon >= 0 ? metric.slice(colon + 1) : metric).trim();
  if (aggregator !== null && !AGGREGATORS.includes(aggregator)) throw new Error(TEXT.unknownAggregator(aggregator));
  if (SPECIAL_METRICS.includes(pathText)) {
    if (aggregator) throw new Error(TEXT.aggregatorOnSpecial(pathText));
    return { aggregator: null, path: [], special: pathText, text: metric };
  }
  if (pathText === '') throw new Error(TEXT.emptyPath);
  const path = pathText.split('.');
  for (const segment of path) if (!SEGMENT.test(segment)) throw new Error(TEXT.badSegment(segment));
  if (!aggregator && path.includes('*')) throw new Error(TEXT.starNeedsAggregator(pathText));
  return { aggregator, path, special: null, text: metric };
}

// Every value the path reaches; `undefined` marks a missing key.
function walk(node, path) {
  let current = [node];
  for (const segment of path) {
    const next = [];
    for (const value of current) {
      if (value === undefined || value === null || typeof value !== 'object') {
        next.push(undefined);
      } else if (segment === '*') {
        next.push(...(Array.isArray(value) ? value : Object.values(value)));
      } else {
        next.push(Object.hasOwn(value, segment) ? value[segment] : undefined);
      }
    }
    current = next;
  }
  return current;
}

function aggregate(aggregator, values) {
  const numbers = values.filter((v) => typeof v === 'number');
  switch (aggregator) {
    case 'count':
      return values.length;
    case 'first':
      return values.length ? (values[0] ?? null) : null;
    case 'sum':
      return numbers.reduce((a, b) => a + b, 0);
    case 'mean':
      return numbers.length ? numbers.reduce((a, b) => a + b, 0) / numbers.length : null;
    case 'max':
      return numbers.length ? Math.max(...numbers) : null;
    case 'min':
      return numbers.length ? Math.min(...numbers) : null;
    default:
      throw new Error(TEXT.unknownAggregator(aggregator));
  }
}

// Positions of row b's real tokens, read from the core's is_pad (padding by position, whatever the
// side or the pad id).
function realPositions(response, b) {
  const positions = [];
  response.batch.is_pad[b].forEach((pad, t) => {
    if (!pad) positions.push(t);
  });
  return positions;
}

function realOutputChange(context) {
  const { buggy, fixed } = context;
  const outA = buggy?.attention?.output;
  const outB = fixed?.attention?.output;
  if (!outA || !outB || !buggy.batch?.is_pad || !fixed.batch?.is_pad) throw new Error(TEXT.noOutputs);
  if (outA.length !== outB.length) throw new Error(TEXT.rowCount(outA.length, outB.length));
  let change = 0;
  for (let b = 0; b < outA.length; b += 1) {
    const posA = realPositions(buggy, b);
    const posB = realPositions(fixed, b);
    const n = Math.min(posA.length, posB.length);
    for (let k = 0; k < n; k += 1) {
      const a = outA[b][posA[k]];
      const c = outB[b][posB[k]];
      if (a === null) throw new Error(TEXT.nanOutput('buggy', b, posA[k]));
      if (c === null) throw new Error(TEXT.nanOutput('fixed', b, posB[k]));
      for (let d = 0; d < a.length; d += 1) change = Math.max(change, Math.abs(a[d] - c[d]));
    }
  }
  return change;
}

/**
 * The value of `metric` in the `side` response ('buggy' | 'fixed').
 * context: { buggy, fixed, buggyRequest?, fixedRequest? }. Throws with a readable message when the
 * metric is malformed or a single path has no value.
 */
export function readMetric(metric, side, context) {
  const parsed = typeof metric === 'string' ? parseMetric(metric) : metric;
  if (parsed.special === 'real_output_change') return realOutputChange(context);
  const response = context[side];
  if (!response) throw new Error(TEXT.missingResponse(side));
  const values = walk(response, parsed.path);
  if (parsed.aggregator) return aggregate(parsed.aggregator, values.filter((v) => v !== undefined));
  if (values[0] === undefined) throw new Error(TEXT.missing(parsed.path.join('.')));
  return values[0];
}

function isRef(x) {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

function checkRef(ref, where, problems) {
  const keys = Object.keys(ref);
  if (keys.length !== 1 || !['metric', 'other'].includes(keys[0])) {
    problems.push({ path: where, message: TEXT.refKeys });
    return;
  }
  try {
    parseMetric(ref[keys[0]]);
  } catch (e) {
    problems.push({ path: `${where}.${keys[0]}`, message: e.message });
  }
}

function checkCompared(value, where, problems, { allowLiterals = false } = {}) {
  if (typeof value === 'number' && Number.isFinite(value)) return;
  if (allowLiterals && (value === null || typeof value === 'boolean')) return;
  if (isRef(value)) return checkRef(value, where, problems);
  problems.push({ path: where, message: allowLiterals ? TEXT.badEquals : TEXT.badCompared });
}

/**
 * Grammar check of one claim. Returns [{ path, message }] with paths relative to the claim
 * ('metric', 'buggy.less_than.metric', …); empty when the claim is well formed.
 */
export function checkClaim(claim) {
  const problems = [];
  if (!claim || typeof claim !== 'object') return [{ path: '', message: TEXT.notObject }];
  try {
    parseMetric(claim.metric);
  } catch (e) {
    problems.push({ path: 'metric', message: e.message });
  }
  const sides = SIDES.filter((side) => claim[side] !== undefined);
  if (sides.length === 0) problems.push({ path: '', message: TEXT.noSides });
  for (const side of sides) {
    const expectation = claim[side];
    if (!isRef(expectation)) {
      problems.push({ path: side, message: TEXT.notObject });
      continue;
    }
    const keys = Object.keys(expectation);
    if (keys.length === 0) problems.push({ path: side, message: TEXT.emptyExpectation });
    for (const key of keys) {
      const where = `${side}.${key}`;
      const value = expectation[key];
      if (!EXPECTATIONS.includes(key)) problems.push({ path: where, message: TEXT.unknownExpectation(key) });
      else if (key === 'equals' || key === 'not_equals') checkCompared(value, where, problems, { allowLiterals: true });
      else if (key === 'is_null') {
        if (typeof value !== 'boolean') problems.push({ path: where, message: TEXT.badIsNull });
      } else if (key === 'approx') {
        const ok = isRef(value) && Object.keys(value).every((k) => k === 'value' || k === 'tolerance');
        if (!ok || typeof value.tolerance !== 'number' || !(value.tolerance >= 0) || value.value === undefined) {
          problems.push({ path: where, message: TEXT.badApprox });
        } else checkCompared(value.value, `${where}.value`, problems);
      } else checkCompared(value, where, problems);
    }
  }
  return problems;
}

function resolveCompared(value, side, context) {
  if (!isRef(value)) return { value, label: show(value) };
  const other = side === 'buggy' ? 'fixed' : 'buggy';
  if ('metric' in value) return { value: readMetric(value.metric, side, context), label: value.metric };
  return { value: readMetric(value.other, other, context), label: `${other} ${value.other}` };
}

const COMPARISONS = {
  less_than: ['<', (a, b) => a < b],
  greater_than: ['>', (a, b) => a > b],
  at_most: ['≤', (a, b) => a <= b],
  at_least: ['≥', (a, b) => a >= b],
};

// One expectation key on one side: { ok, message }.
function checkExpectation(key, expected, actual, metricText, side, context) {
  if (key === 'is_null') {
    const ok = (actual === null) === expected;
    return { ok, message: `${metricText} is ${show(actual)} (${expected ? 'expected null' : 'expected a value'})` };
  }
  if (key === 'approx') {
    const target = resolveCompared(expected.value, side, context);
    if (typeof actual !== 'number') return { ok: false, message: TEXT.notNumber(metricText, actual) };
    if (typeof target.value !== 'number') return { ok: false, message: TEXT.notNumber(target.label, target.value) };
    const ok = Math.abs(actual - target.value) <= expected.tolerance;
    const rhs = target.label === show(target.value) ? show(target.value) : `${target.label} = ${show(target.value)}`;
    return { ok, message: `${metricText} = ${show(actual)} ≈ ${rhs} (±${show(expected.tolerance)})` };
  }
  const target = resolveCompared(expected, side, context);
  const rhs = target.label === show(target.value) ? show(target.value) : `${target.label} = ${show(target.value)}`;
  if (key === 'equals' || key === 'not_equals') {
    const same = actual === target.value;
    return { ok: key === 'equals' ? same : !same, message: `${metricText} = ${show(actual)} ${key === 'equals' ? '=' : '≠'} ${rhs}` };
  }
  const [symbol, holds] = COMPARISONS[key];
  if (typeof actual !== 'number') return { ok: false, message: TEXT.notNumber(metricText, actual) };
  if (typeof target.value !== 'number') return { ok: false, message: TEXT.notNumber(target.label, target.value) };
  return { ok: holds(actual, target.value), message: `${metricText} = ${show(actual)} ${symbol} ${rhs}` };
}

/**
 * Evaluates every claim against the two inspect responses.
 * options: { buggyRequest, fixedRequest } are passed through to the context for callers' use.
 * Returns [{ text, ok, details, checks: [{ side, ok, message }] }]; a malformed claim or a core
 * error gives ok: false with the reason in details, never a throw.
 */
export function evaluateClaims(claims, buggyResponse, fixedResponse, options = {}) {
  const context = { buggy: buggyResponse, fixed: fixedResponse, ...options };
  return (claims ?? []).map((claim) => {
    const text = typeof claim?.text === 'string' ? claim.text : '';
    const grammar = checkClaim(claim);
    if (grammar.length) {
      const details = grammar.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ');
      return { text, ok: false, details, checks: [] };
    }
    for (const [side, response] of [['buggy', buggyResponse], ['fixed', fixedResponse]]) {
      if (claim[side] !== undefined && response?.error) {
        return { text, ok: false, details: TEXT.coreError(side, response.error), checks: [] };
      }
    }
    const checks = [];
    for (const side of SIDES) {
      if (claim[side] === undefined) continue;
      let actual;
      try {
        actual = readMetric(claim.metric, side, context);
      } catch (e) {
        checks.push({ side, ok: false, message: e.message });
        continue;
      }
      for (const [key, expected] of Object.entries(claim[side])) {
        let result;
        try {
          result = checkExpectation(key, expected, actual, claim.metric, side, context);
        } catch (e) {
          result = { ok: false, message: e.message };
        }
        checks.push({ side, ...result });
      }
    }
    const ok = checks.length > 0 && checks.every((c) => c.ok);
    const details = checks.map((c) => `${c.side}: ${c.message} ${c.ok ? '✓' : '✗'}`).join('; ');
    return { text, ok, details, checks };
  });
}
