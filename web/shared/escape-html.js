// escape-html.js — text made safe to write into HTML, as element content or a quoted attribute.
// Only for the few places that write HTML as text: the page frame the build writes into every
// page (site-frame.js) and the embed snippet an author pastes (embed.js). Everything the pages
// show at run time is built as DOM nodes (dom.js), never from HTML strings.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}
