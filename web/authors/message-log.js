// message-log.js — a host page's side of the embed protocol (shared/embed.js): listen to one
// iframe, size it to its content and list every message it sends.
//
//   const log = createMessageLog(listElement, iframe, { onAnswered(data) {} });
//   log.clear();
//
// Only messages whose event.source is that iframe, whose event.origin is its src's origin, and
// whose data.source is 'masklab' count. The log shows message data as text (textContent), never
// as HTML: it comes from another document.
// The iframe is resized through its height attribute (no inline style: CSP), within sane limits.

import { h } from '../shared/dom.js';
import { PROTOCOL_SOURCE } from '../shared/embed.js';

export const LOG_TEXT = {
  empty: 'No messages yet. They appear here as the embedded widget sends them.',
  entry: (n, type) => `#${n} ${type}`,
};

const MIN_HEIGHT = 200;
const MAX_HEIGHT = 20000;
const MAX_TEXT = 400;

function describe(data) {
  const { source: _source, type: _type, ...rest } = data;
  let text;
  try {
    text = JSON.stringify(rest);
  } catch {
    text = '(unreadable payload)';
  }
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

export function createMessageLog(list, iframe, { onAnswered = () => {} } = {}) {
  let count = 0;
  const empty = h('li', { class: 'log-empty' }, LOG_TEXT.empty);
  list.replaceChildren(empty);

  window.addEventListener('message', (event) => {
    if (event.source !== iframe.contentWindow) return;
    // The frame's window can be navigated elsewhere (a page framing this one can do it), so the
    // sender must also be the origin the iframe was pointed at — as the authors' snippet checks.
    if (event.origin !== new URL(iframe.src, window.location.href).origin) return;
    const data = event.data;
    if (!data || typeof data !== 'object' || data.source !== PROTOCOL_SOURCE || typeof data.type !== 'string') return;
    if (data.type === 'resize' && Number.isFinite(data.height)) {
      iframe.height = String(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(data.height))));
    }
    if (data.type === 'answered') onAnswered(data);
    count += 1;
    empty.remove();
    const entry = h(
      'li',
      { class: 'log-entry', dataset: { type: data.type.slice(0, 40) } },
      h('strong', {}, LOG_TEXT.entry(count, data.type.slice(0, 40))),
      ' ',
      h('code', {}, describe(data)),
    );
    // Fields a test (or a curious author) may read without parsing the text.
    for (const key of ['widget', 'height', 'exercise', 'score', 'maxScore']) {
      if (data[key] !== undefined && data[key] !== null) entry.dataset[key] = String(data[key]).slice(0, 80);
    }
    if (Array.isArray(data.marked)) entry.dataset.marked = data.marked.slice(0, 400).map(Number).join(',');
    list.append(entry);
  });

  return {
    clear() {
      count = 0;
      list.replaceChildren(empty);
    },
  };
}
