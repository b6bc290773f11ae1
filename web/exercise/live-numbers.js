// live-numbers.js — fills the explanation's {{buggy.summary.loss}}-style placeholders with the
// core's answers at run time (the compiler turned them into empty <span class="live-number">).
//
//   fillLiveNumbers(root, { buggy, fixed, buggyRequest, fixedRequest });   // after core.inspect
//   markLiveNumbersUnavailable(root, reason);                               // the core failed
//
// Each span gets the formatted number as text and the full value in data-value. Nothing is
// computed here beyond picking the value: readMetric (claims.js) walks the response.

import { readMetric } from '../shared/claims.js';
import { formatLoss, formatNumber, formatShare } from '../shared/format.js';

export const LIVE_NUMBER_TEXT = {
  missing: '—',
  unavailable: (reason) => `not available: ${reason}`,
};

const FORMATS = {
  loss: formatLoss,
  share: formatShare,
  int: (x) => String(Math.round(x)),
  number: (x) => formatNumber(x, 4),
};

function format(value, name) {
  if (typeof value !== 'number') return LIVE_NUMBER_TEXT.missing;
  if (FORMATS[name]) return FORMATS[name](value);
  return Number.isInteger(value) ? String(value) : formatLoss(value);
}

export function fillLiveNumbers(root, context) {
  for (const span of root.querySelectorAll('.live-number')) {
    let value = null;
    try {
      value = readMetric(span.dataset.path, span.dataset.source, context);
    } catch {
      value = null;
    }
    span.textContent = format(value, span.dataset.format);
    span.dataset.value = String(value);
    span.classList.add('filled');
  }
}

export function markLiveNumbersUnavailable(root, reason) {
  for (const span of root.querySelectorAll('.live-number')) {
    span.textContent = LIVE_NUMBER_TEXT.missing;
    span.title = LIVE_NUMBER_TEXT.unavailable(reason);
    span.classList.add('filled');
  }
}
