// site-frame.js: the header and footer the build writes into every page listed in site-pages.js
// (vite.config.js), so they are in the first paint. Checked on the text itself: the current page,
// every navigation link once, which pages get a frame, and the embed stand-in page that gets none.
// tests/browser/layout-stability.test.mjs checks what this is for: nothing jumps while a page loads.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { NAV, pageIdOf, siteFooterHtml, siteHeaderHtml } from '../../web/shared/site-frame.js';
import { SITE_PAGES } from '../../web/shared/site-pages.js';

const links = (html) => [...html.matchAll(/<li><a href="([^"]+)"( aria-current="page")?>([^<]+)<\/a><\/li>/g)].map((m) => ({ href: m[1], current: Boolean(m[2]), label: m[3] }));

test('a page id is read from its file name; a page outside the list has none', () => {
  assert.equal(pageIdOf('index.html'), 'home');
  assert.equal(pageIdOf('grid.html'), 'grid');
  assert.equal(pageIdOf('doctor.html'), 'doctor');
  assert.equal(pageIdOf('embed-example.html'), null, 'the stand-in host page gets no masklab frame');
  assert.equal(pageIdOf('nested/grid.html'), null);
});

test('the header lists every page of the navigation once, in order, and marks the current one', () => {
  const html = siteHeaderHtml('grid');
  const found = links(html);
  assert.deepEqual(found.map((l) => l.label), SITE_PAGES.filter((p) => p.nav).map((p) => p.nav));
  assert.deepEqual(found.filter((l) => l.current).map((l) => l.href), ['./grid.html']);
  assert.equal(found.length, NAV.length);
  assert.match(html, /<span class="current-page" aria-hidden="true">Token grid<\/span>/, 'a phone shows where you are');
  assert.match(html, /<a class="skip-link" href="#main">Skip to content<\/a>/);
  assert.match(html, /aria-controls="site-nav-list"/);
  assert.match(html, /<ul id="site-nav-list">/);
});

test('home is marked current but names no page beside the brand; an unknown id marks nothing', () => {
  const home = siteHeaderHtml('home');
  assert.deepEqual(links(home).filter((l) => l.current).map((l) => l.label), ['Home']);
  assert.doesNotMatch(home, /current-page/);
  const none = siteHeaderHtml(null);
  assert.equal(links(none).filter((l) => l.current).length, 0);
  assert.doesNotMatch(none, /current-page/);
});

test('the footer is one paragraph of plain text', () => {
  const html = siteFooterHtml();
  assert.match(html, /^<footer class="site-footer"><p>[^<>]+<\/p><\/footer>$/);
  assert.match(html, /computed in your browser/);
});
