// page.js — what every masklab page does first: wire the shared header, switch embed mode on, and
// hide the panels the URL asks to hide.
//
//   initPage({ widget: 'grid' });   // call once, first thing in a page's module
//   initPage({ widget: 'authors', bare: true });   // no header or footer (a stand-in host page)
//
// The header and footer are in the page's HTML (site-frame.js, written in by the build). Here the
// Menu button gets its behaviour. In embed mode (?embed=1 or framed) both are taken out, the page
// gets the class "embedded", and `ready`/`resize` messages start (embed.js). ?hide=a,b hides
// every element with data-panel="a" or "b", as TensorFlow Playground's teacher switches do.

import { isEmbedded, startEmbedding } from './embed.js';

export function hiddenPanels(search = location.search) {
  const raw = new URLSearchParams(search).get('hide') ?? '';
  return new Set(raw.split(',').map((s) => s.trim()).filter((s) => /^[a-z0-9-]{1,40}$/.test(s)));
}

export function applyHiddenPanels(root = document) {
  const hidden = hiddenPanels();
  for (const el of root.querySelectorAll('[data-panel]')) if (hidden.has(el.dataset.panel)) el.hidden = true;
}

// The Menu button only shows on narrow screens (site.css); wide screens show the list.
function wireMenu(header) {
  const nav = header.querySelector('.site-nav');
  const menu = header.querySelector('.menu-button');
  if (!nav || !menu) return;
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
}

export function initPage({ widget, bare = false }) {
  const embedded = isEmbedded();
  document.documentElement.classList.toggle('embedded', embedded);
  const header = document.querySelector('body > .site-header');
  const footer = document.querySelector('body > .site-footer');
  if (embedded || bare) {
    header?.remove();
    footer?.remove();
  } else if (header) {
    wireMenu(header);
  }
  applyHiddenPanels();
  if (embedded) startEmbedding(widget);
  return { embedded };
}
