// log-axis.js — where the Train page's log-scale loss axes put their rules: at the powers of ten
// inside the range (1, 0.1, 0.01, …), and nowhere else.
//
// uPlot's own log splits expect a range that starts on a power of ten, as its default range
// does. Ours starts at 0.8 × the lowest loss, so the curves never touch the bottom edge; from a
// start just below a power of ten (0.00095, say) uPlot's loop steps by a non-decade increment,
// rounds to zero and never ends: the chart threw "Invalid array length" and froze, which a
// 1,200-step run reached at step ~750. Not here: the range itself (curves.js).

/**
 * The powers of ten from `min` to `max`, both included, ascending, each written exactly
 * (0.001, not 0.0010000000000000002). Empty when the range holds none or is not positive.
 */
export function decadesBetween(min, max) {
  if (!(min > 0) || !(max >= min) || !Number.isFinite(max)) return [];
  // A tolerance, so a bound that is a power of ten up to rounding (1e-3 as 0.0009999…) counts.
  const first = Math.ceil(Math.log10(min) - 1e-9);
  const last = Math.floor(Math.log10(max) + 1e-9);
  const decades = [];
  for (let exponent = first; exponent <= last; exponent += 1) decades.push(Number(`1e${exponent}`));
  return decades;
}
