// toc.js — the exercise page's "On this page": a link to every visible section heading (h2)
// after Check, with the section being read marked (aria-current) as the learner scrolls.
//
//   showToc(nav, list, article);   // builds the list from the article's visible h2 headings
//
// Sticky beside the content on wide screens, a short list above the explanation otherwise
// (exercise.css). Headings without an id get one from their text. The current section is
// found with an IntersectionObserver, so scrolling costs no layout reads.

import { h, replaceChildren } from '../shared/dom.js';

function slug(text, taken) {
  const base = text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'section';
  let id = `s-${base}`;
  for (let n = 2; taken.has(id); n += 1) id = `s-${base}-${n}`;
  taken.add(id);
  return id;
}

let observer = null;

export function showToc(nav, list, article) {
  const taken = new Set([...document.querySelectorAll('[id]')].map((el) => el.id));
  // A section hidden inside the article is left out; the article itself may still be hidden
  // (a reload of a checked exercise builds the contents before the page is shown).
  const shown = (heading) => {
    const hidden = heading.closest('[hidden]');
    return !hidden || !article.contains(hidden) || hidden === article;
  };
  const headings = [...article.querySelectorAll('h2')].filter(
    // The embed panel is left out: it is drawn only when it nears the screen (share-later.js),
    // so it would come and go from the list, and it is the page's last section anyway.
    (heading) => shown(heading) && !heading.classList.contains('visually-hidden') && !nav.contains(heading) && !heading.closest('#share-panel'),
  );
  if (headings.length < 2) {
    nav.hidden = true;
    return;
  }
  const links = new Map();
  replaceChildren(
    list,
    headings.map((heading) => {
      if (!heading.id) heading.id = slug(heading.textContent, taken);
      const link = h('a', { href: `#${heading.id}` }, heading.textContent);
      links.set(heading, link);
      return h('li', {}, link);
    }),
  );
  nav.hidden = false;

  // The current section: the last heading that has passed the top third of the screen.
  observer?.disconnect();
  if (typeof IntersectionObserver !== 'function') return;
  const passed = new Set();
  observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        // rootBounds is null inside a cross-origin frame (an embed): then use the intersection.
        const bottom = entry.rootBounds?.bottom;
        const above = bottom === undefined ? entry.isIntersecting || entry.boundingClientRect.top < 0 : entry.boundingClientRect.top < bottom;
        if (above) passed.add(entry.target);
        else passed.delete(entry.target);
      }
      const current = headings.filter((heading) => passed.has(heading)).at(-1) ?? headings[0];
      for (const [heading, link] of links) {
        if (heading === current) link.setAttribute('aria-current', 'true');
        else link.removeAttribute('aria-current');
      }
    },
    { threshold: [0, 1], rootMargin: '0px 0px -66% 0px' },
  );
  for (const heading of headings) observer.observe(heading);
}
