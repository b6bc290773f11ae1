// url-note.js — the note a page shows when its link carried settings it could not use. The page
// reads its URL with url-state.js, which says which parameters and why; this shows them, in one
// wording and one layout on every page, at the top of the page where a visitor arriving by the
// link sees it.
//
//   showUrlNote(document.getElementById('url-note'), problems.map((p) => p.message));

import { h, replaceChildren } from './dom.js';

export const URL_NOTE_TITLE = 'Some of the link’s settings could not be used:';

/** Shows `messages` (plain strings) in `note` under one title; hides the note when there are none. */
export function showUrlNote(note, messages) {
  note.hidden = messages.length === 0;
  if (messages.length) replaceChildren(note, h('strong', {}, URL_NOTE_TITLE), h('ul', {}, messages.map((m) => h('li', {}, m))));
  else replaceChildren(note);
}
