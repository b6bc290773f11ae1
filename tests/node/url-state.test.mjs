// url-state.js: a page's state in its URL — another name accepted for a parameter (as
// exercise.html reads id= for ex=) and unknown parameters explained (issue 12, point 5), on a
// two-parameter table small enough to read at a glance.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { defineState } from '../../web/shared/url-state.js';

const STATE = defineState(
  {
    topic: { type: 'string', pattern: /^[a-z-]+$/, default: '' },
    open: { type: 'bool', default: false },
  },
  { aliases: { t: 'topic' }, reportUnknown: true },
);

test('an alias is read when the real name is absent, and written back under the real name', () => {
  assert.deepEqual(STATE.read('?t=padding'), { state: { topic: 'padding', open: false }, problems: [] });
  assert.equal(STATE.read('?topic=a&t=b').state.topic, 'a', 'the real name wins');
  assert.equal(STATE.toSearch({ topic: 'padding', open: true }, '?t=padding'), '?topic=padding&open=1');
});

test('a parameter the page does not read is explained; embed and hide are every page’s', () => {
  const { problems } = STATE.read('?topic=a&foo=1&embed=1&hide=x');
  assert.deepEqual(problems, [{ param: 'foo', message: 'URL parameter foo is not used on this page, so it was ignored. This page reads: topic, open.' }]);
});

test('what analytics add to a link is not reported; a look-alike still is', () => {
  const { state, problems } = STATE.read('?topic=a&utm_source=mail&utm_campaign=dec&fbclid=IwAR0x&gclid=Cj0&msclkid=9&_gl=1*x&ref=producthunt');
  assert.deepEqual(problems, []);
  assert.equal(state.topic, 'a');
  // Look-alikes are not exempt: "utm" alone, or a longer name that starts like one.
  assert.deepEqual(STATE.read('?utm=1&fbclid_x=2&referrer=3').problems.map((p) => p.param), ['utm', 'fbclid_x', 'referrer']);
  // Kept in the URL the page writes back, as every parameter the page does not own.
  assert.equal(STATE.toSearch({ topic: 'b', open: false }, '?utm_source=mail&topic=a'), '?utm_source=mail&topic=b');
});

test('without reportUnknown, other parameters are left alone (pages that read more themselves)', () => {
  const quiet = defineState({ topic: { type: 'string', default: '' } });
  assert.deepEqual(quiet.read('?topic=a&foo=1').problems, []);
});
