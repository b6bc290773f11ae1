// site-frame.js — the header and footer every page shares, as HTML text. The build writes them
// into each page (vite.config.js), so they are in the first paint. When a script adds them
// later, on a real network the whole page jumps down by the header's height once the
// JavaScript arrives. shared/page.js wires the Menu button, and takes both out in embed mode.
//
//   siteHeaderHtml('grid')   // the header, with "Token grid" marked as the current page
//   siteFooterHtml()
//
// The navigation lists SITE_PAGES (site-pages.js: add a page there). On narrow screens it folds
// into a Menu button (site.css), so it takes one line, not four. Plain text in, escaped HTML
// out: no page data ever goes through here, but the labels are escaped all the same.

import { escapeHtml } from './escape-html.js';
import { SITE_PAGES } from './site-pages.js';

export const NAV = SITE_PAGES.filter((page) => page.nav).map((page) => ({ href: page.href, label: page.nav, id: page.id }));

// Every user-visible string of the frame, in one place.
export const FRAME_TEXT = {
  skip: 'Skip to content',
  menu: 'Menu',
  navLabel: 'masklab',
  footer: 'Every number here is computed in your browser by masklab’s C++ core, compiled to WebAssembly. Free, no sign-in.',
};

/** The page id (SITE_PAGES' `id`) whose href is `page` ('grid.html', 'index.html'), or null. */
export function pageIdOf(page) {
  return SITE_PAGES.find((entry) => entry.href === `./${page}`)?.id ?? null;
}

/** The site header, with `current` (a SITE_PAGES id) marked as the current page. */
export function siteHeaderHtml(current) {
  const items = NAV.map(
    (item) => `<li><a href="${escapeHtml(item.href)}"${item.id === current ? ' aria-current="page"' : ''}>${escapeHtml(item.label)}</a></li>`,
  ).join('');
  const here = NAV.find((item) => item.id === current);
  // The current page's name beside the brand shows on narrow screens only (site.css); home has none.
  const currentPage = here && here.id !== 'home' ? `<span class="current-page" aria-hidden="true">${escapeHtml(here.label)}</span>` : '';
  return (
    '<header class="site-header">' +
    `<a class="skip-link" href="#main">${escapeHtml(FRAME_TEXT.skip)}</a>` +
    '<a class="brand" href="./index.html"><span class="brand-mark" aria-hidden="true">▦</span> masklab</a>' +
    currentPage +
    `<nav aria-label="${escapeHtml(FRAME_TEXT.navLabel)}" class="site-nav">` +
    `<button type="button" class="menu-button secondary" aria-expanded="false" aria-controls="site-nav-list">${escapeHtml(FRAME_TEXT.menu)}</button>` +
    `<ul id="site-nav-list">${items}</ul>` +
    '</nav></header>'
  );
}

export function siteFooterHtml() {
  return `<footer class="site-footer"><p>${escapeHtml(FRAME_TEXT.footer)}</p></footer>`;
}
