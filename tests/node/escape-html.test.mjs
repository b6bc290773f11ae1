// escape-html.js: the five characters that can end a text or a quoted attribute in HTML are
// written as entities, and nothing else changes (a snippet's URL and title, the page frame).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { escapeHtml } from '../../web/shared/escape-html.js';

test('&, <, >, " and \' become entities; & first, so an entity in the text is kept as text', () => {
  assert.equal(escapeHtml(`<a href="x" title='y'>&amp;</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
});

test('other text, typographic quotes and non-ASCII included, is left as it is; non-strings are read as text', () => {
  assert.equal(escapeHtml('masklab’s C++ core — ▦ −100'), 'masklab’s C++ core — ▦ −100');
  assert.equal(escapeHtml(42), '42');
});
