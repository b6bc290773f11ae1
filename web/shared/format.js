// format.js — how numbers from the core are written on the page.
//
// Numbers are shown, never computed, here. Losses get 4 decimals (enough to see a difference the
// explanation talks about); the full value is kept for titles and screen readers.

export function formatLoss(x) {
  if (x === null || x === undefined) return '—';
  return Number(x).toFixed(4);
}

export function formatShare(x) {
  if (x === null || x === undefined) return '—';
  return `${(Number(x) * 100).toFixed(1)}%`;
}

export function formatNumber(x, digits = 4) {
  if (x === null || x === undefined) return '—';
  if (Number.isInteger(x)) return String(x);
  return Number(x).toFixed(digits);
}

// A whole number with commas between thousands (151,669 ids), as toLocaleString('en') writes it,
// without Intl: a page's first Intl call loads the browser's locale data (35–45 ms cold).
export function formatCount(n) {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// -100 is written with a true minus sign so it reads as a number, not a hyphen.
export function formatId(x) {
  return x < 0 ? `\u2212${-x}` : String(x);
}
