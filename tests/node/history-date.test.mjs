// practice/history-view.js, dateText: a past session's date as "4 Dec 2026, 14:05", in the
// reader's time zone, written without Intl (whose first call costs a returning learner's page
// 40–50 ms before it is ready). Dates are built in local time, so the expectations hold in any
// time zone the test runs in.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { HISTORY_TEXT, dateText } from '../../web/practice/history-view.js';

test('day, month, year, then the 24-hour time with two-digit hours and minutes', () => {
  assert.equal(dateText(new Date(2026, 11, 4, 14, 5).getTime()), '4 Dec 2026, 14:05');
  assert.equal(dateText(new Date(2026, 0, 9, 7, 3).getTime()), '9 Jan 2026, 07:03');
  assert.equal(dateText(new Date(2025, 4, 31, 0, 0).getTime()), '31 May 2025, 00:00');
  assert.equal(dateText(new Date(2027, 8, 30, 23, 59).getTime()), '30 Sep 2027, 23:59');
});

test('a stored ISO string reads as the same moment', () => {
  assert.equal(dateText(new Date(2026, 11, 4, 14, 5).toISOString()), '4 Dec 2026, 14:05');
});

test('every month has its own three-letter name', () => {
  const names = Array.from({ length: 12 }, (_, m) => dateText(new Date(2026, m, 15, 12, 0).getTime()).split(' ')[1]);
  assert.deepEqual(names, ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);
});

test('what is not a date says so', () => {
  assert.equal(dateText('yesterday'), HISTORY_TEXT.unknownDate);
  assert.equal(dateText(undefined), HISTORY_TEXT.unknownDate);
});
