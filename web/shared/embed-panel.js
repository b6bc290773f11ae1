// embed-panel.js — "Use this elsewhere": the embed code for the page as it is now, with a Copy
// button, for every exercise and widget.
//
//   renderEmbedPanel(section, { page: 'grid.html', title: 'masklab token grid', height: 900 });
//   (pages call it through share-later.js, which loads this file when the panel comes into view)
//
// The iframe's URL is this page's URL with embed=1 added, so the state on screen (all of it is
// in the URL) is what the embedded copy shows; `params` replaces the query when a page wants less
// (the exercise page embeds the exercise, not the learner's marks). The code is built when the
// button is pressed, so it follows every change made since the page loaded. Hidden inside an
// embed: the host already has the code.

import { createCopyControl } from './copy-text.js';
import { h, replaceChildren } from './dom.js';
import { embedSnippet, isEmbedded } from './embed.js';

export const EMBED_PANEL_TEXT = {
  title: 'Use this elsewhere',
  intro: 'Paste this into a course page, a blog or an LMS: the frame with what you see now, and a few lines of script that size it to its content. Scores arrive as messages (see the guide).',
  copy: 'Copy embed code',
  area: 'Embed code',
  guide: 'Embedding guide for course authors',
};

// A frame id for the snippet, unique enough for several embeds on one host page.
export function frameId(page) {
  return `masklab-${page.replace(/\.html$/, '')}-${Math.random().toString(36).slice(2, 6)}`;
}

export function embedUrl(page, params) {
  const url = new URL(`./${page}`, location.href);
  const query = new URLSearchParams(params ?? location.search);
  query.delete('hide');
  query.set('embed', '1');
  url.search = query.toString();
  return url.href;
}

// `text` may replace any of EMBED_PANEL_TEXT's strings (the exercise page says "this exercise").
export function renderEmbedPanel(section, { page, title, height = 800, params, text: wording = {} }) {
  const text = { ...EMBED_PANEL_TEXT, ...wording };
  if (isEmbedded()) {
    section.hidden = true;
    return;
  }
  const copy = createCopyControl({
    label: text.copy,
    getText: () => embedSnippet(embedUrl(page, typeof params === 'function' ? params() : params), title, height, frameId(page)),
    textareaLabel: text.area,
  });
  section.classList.add('share-panel');
  replaceChildren(
    section,
    h('h2', {}, text.title),
    h('p', {}, text.intro),
    copy.element,
    h('p', {}, h('a', { href: './authors.html' }, text.guide)),
  );
}
