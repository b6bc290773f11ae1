// page.js — the frame every masklab page shares: header navigation, footer, embed mode and
// URL switches that hide panels.
//
//   initPage({ widget: 'grid' });   // call once, first thing in a page's module
//
// In embed mode (?embed=1 or framed) the header and footer are left out, the page gets the
// class "embedded", and `ready`/`resize` messages start (embed.js). ?hide=a,b hides every
// element with data-panel="a" or "b", as TensorFlow Playground's teacher switches do.

import { h } from './dom.js';
import { isEmbedded, startEmbedding } from './embed.js';

export const NAV = [
  { href: './index.html', label: 'Home', id: 'home' },
  { href: './exercise.html', label: 'Find the bug', id: 'exercise' },
  { href: './grid.html', label: 'Token grid', id: 'grid' },
  { href: './dilution.html', label: 'Loss dilution', id: 'dilution' },
  { href: './lab.html', label: 'Normalization lab', id: 'lab' },
  { href: './chat.html', label: 'Chat masks', id: 'chat' },
  { href: './practice.html', label: 'Interview practice', id: 'practice' },
  { href: './train.html', label: 'Train it', id: 'train' },
  { href: './doctor.html', label: 'Batch doctor', id: 'doctor' },
  { href: './authors.html', label: 'For course authors', id: 'authors' },
];

export function hiddenPanels(search = location.search) {
  const raw = new URLSearchParams(search).get('hide') ?? '';
  return new Set(raw.split(',').map((s) => s.trim()).filter((s) => /^[a-z0-9-]{1,40}$/.test(s)));
}

export function applyHiddenPanels(root = document) {
  const hidden = hiddenPanels();
  for (const el of root.querySelectorAll('[data-panel]')) if (hidden.has(el.dataset.panel)) el.hidden = true;
}

export function initPage({ widget }) {
  const embedded = isEmbedded();
  document.documentElement.classList.toggle('embedded', embedded);
  if (!embedded) {
    const nav = h(
      'nav',
      { 'aria-label': 'masklab' },
      h(
        'ul',
        {},
        NAV.map((item) =>
          h('li', {}, h('a', { href: item.href, 'aria-current': item.id === widget ? 'page' : undefined }, item.label)),
        ),
      ),
    );
    const header = h(
      'header',
      { class: 'site-header' },
      h('a', { class: 'skip-link', href: '#main' }, 'Skip to content'),
      h('a', { class: 'brand', href: './index.html' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '▦'), ' masklab'),
      nav,
    );
    document.body.prepend(header);
    document.body.append(
      h(
        'footer',
        { class: 'site-footer' },
        h('p', {}, 'Every number here is computed in your browser by masklab’s C++ core, compiled to WebAssembly. Free, no sign-in.'),
      ),
    );
  }
  applyHiddenPanels();
  if (embedded) startEmbedding(widget);
  return { embedded };
}
