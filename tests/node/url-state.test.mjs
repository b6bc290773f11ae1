// url-state.js: a page's state in its URL — the id= alias of ex= and unknown parameters
// explained (issue 12, point 5), on a two-parameter table small enough to read at a glance.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { defineState } from '../../web/shared/url-state.js';

const STATE = defineState(
  {
    ex: { type: 'string', pattern: /^[a-z-]+$/, default: '' },
    checked: { type: 'bool', default: false },
  },
  { aliases: { id: 'ex' }, reportUnknown: true },
);

test('id= is read as ex= when ex= is absent, and written back as ex=', () => {
  assert.deepEqual(STATE.read('?id=double-shift'), { state: { ex: 'double-shift', checked: false }, problems: [] });
  assert.equal(STATE.read('?ex=a&id=b').state.ex, 'a', 'the real name wins');
  assert.equal(STATE.toSearch({ ex: 'double-shift', checked: true }, '?id=double-shift'), '?ex=double-shift&checked=1');
});

test('a parameter the page does not read is explained; embed and hide are every page’s', () => {
  const { problems } = STATE.read('?ex=a&foo=1&embed=1&hide=x');
  assert.deepEqual(problems, [{ param: 'foo', message: 'URL parameter foo is not used on this page, so it was ignored. This page reads: ex, checked.' }]);
});

test('without reportUnknown, other parameters are left alone (pages that read more themselves)', () => {
  const quiet = defineState({ ex: { type: 'string', default: '' } });
  assert.deepEqual(quiet.read('?ex=a&foo=1').problems, []);
});
