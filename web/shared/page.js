// page.js — the frame every masklab page shares: header navigation, footer, embed mode and
// URL switches that hide panels.
//
//   initPage({ widget: 'grid' });   // call once, first thing in a page's module
//   initPage({ widget: 'authors', bare: true });   // no header or footer (a stand-in host page)
//
// The navigation lists SITE_PAGES (site-pages.js: add a page there). On narrow screens it folds
// into a Menu button, so it takes one line, not four.
//
// In embed mode (?embed=1 or framed) the header and footer are left out, the page gets the
// class "embedded", and `ready`/`resize` messages start (embed.js). ?hide=a,b hides every
// element with data-panel="a" or "b", as TensorFlow Playground's teacher switches do.

import { h } from './dom.js';
import { isEmbedded, startEmbedding } from './embed.js';
import { SITE_PAGES } from './site-pages.js';

export const NAV = SITE_PAGES.filter((page) => page.nav).map((page) => ({ href: page.href, label: page.nav, id: page.id }));

// Every user-visible string of the frame, in one place.
export const PAGE_TEXT = {
  skip: 'Skip to content',
  menu: 'Menu',
  navLabel: 'masklab',
  footer: 'Every number here is computed in your browser by masklab’s C++ core, compiled to WebAssembly. Free, no sign-in.',
};

export function hiddenPanels(search = location.search) {
  const raw = new URLSearchParams(search).get('hide') ?? '';
  return new Set(raw.split(',').map((s) => s.trim()).filter((s) => /^[a-z0-9-]{1,40}$/.test(s)));
}

export function applyHiddenPanels(root = document) {
  const hidden = hiddenPanels();
  for (const el of root.querySelectorAll('[data-panel]')) if (hidden.has(el.dataset.panel)) el.hidden = true;
}

function siteHeader(widget) {
  const list = h(
    'ul',
    { id: 'site-nav-list' },
    NAV.map((item) => h('li', {}, h('a', { href: item.href, 'aria-current': item.id === widget ? 'page' : undefined }, item.label))),
  );
  // The Menu button only shows on narrow screens (site.css); wide screens show the list.
  const menu = h('button', { type: 'button', class: 'menu-button secondary', 'aria-expanded': 'false', 'aria-controls': 'site-nav-list' }, PAGE_TEXT.menu);
  const nav = h('nav', { 'aria-label': PAGE_TEXT.navLabel, class: 'site-nav' }, menu, list);
  const setOpen = (open) => {
    menu.setAttribute('aria-expanded', String(open));
    nav.classList.toggle('open', open);
  };
  menu.addEventListener('click', () => setOpen(menu.getAttribute('aria-expanded') !== 'true'));
  nav.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && menu.getAttribute('aria-expanded') === 'true') {
      setOpen(false);
      menu.focus();
    }
  });
  const current = NAV.find((item) => item.id === widget);
  return h(
    'header',
    { class: 'site-header' },
    h('a', { class: 'skip-link', href: '#main' }, PAGE_TEXT.skip),
    h('a', { class: 'brand', href: './index.html' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '▦'), ' masklab'),
    current && current.id !== 'home' ? h('span', { class: 'current-page', 'aria-hidden': 'true' }, current.label) : null,
    nav,
  );
}

export function initPage({ widget, bare = false }) {
  const embedded = isEmbedded();
  document.documentElement.classList.toggle('embedded', embedded);
  if (!embedded && !bare) {
    document.body.prepend(siteHeader(widget));
    document.body.append(h('footer', { class: 'site-footer' }, h('p', {}, PAGE_TEXT.footer)));
  }
  applyHiddenPanels();
  if (embedded) startEmbedding(widget);
  return { embedded };
}
