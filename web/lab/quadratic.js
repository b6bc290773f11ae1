// quadratic.js — the function the normalization lab plays with: y = a·x², and its two slopes.
//
//   QUADRATIC.value(1, 1) -> 1;  QUADRATIC.dydx(1, 1) -> 2;  QUADRATIC.dyda(1, 1) -> 1
//   QUADRATIC.value(0.5, 1) -> 0.5;  QUADRATIC.dydx(0.5, 1) -> 1
//
// This is the one place the site computes in JavaScript: it is the lab's function itself, not
// a masking or loss figure (those all come from the core). `a` plays the part of a constant
// scale on an objective; x is the thing being optimised.

export const QUADRATIC = {
  formula: 'y = a·x²',
  value: (a, x) => a * x * x,
  dydx: (a, x) => 2 * a * x, // slope in x: what a gradient step on x follows
  dyda: (a, x) => x * x, // slope in the coefficient a
};

// A prediction counts as right within 1e-9 relative to the true value (absolute 1e-12 at 0),
// so 0.1 + 0.2 style rounding never marks a correct answer wrong.
export function isClose(predicted, actual) {
  return Math.abs(predicted - actual) <= Math.max(1e-9 * Math.abs(actual), 1e-12);
}

// Reads what a learner typed: a decimal ("0.5", "-2", "1e-3") or a fraction ("1/2").
// Returns a finite number, or null when the text is not a number.
export function parseNumber(text) {
  const s = String(text).trim().replace(/\u2212/g, '-');
  if (s === '') return null;
  const fraction = /^([-+]?\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/.exec(s);
  if (fraction) {
    const q = Number(fraction[1]) / Number(fraction[2]);
    return Number.isFinite(q) ? q : null;
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}
