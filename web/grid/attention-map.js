// attention-map.js — the attention weights of one batch row as a heatmap table
// (queries down, keys across), read from the core's inspect response (attention.weights,
// attention.visible, attention.fully_masked_queries).
//
//   const map = createAttentionMap(container);
//   map.update(inspectResponse, b, { isPad });   // isPad: [B][T] 1 = pad position
//
// A table rather than a canvas: the numbers are the text alternative, so a screen reader walks
// the same figures a sighted reader sees. Shading is paired with printed weights; a key hidden
// by the masks is hatched and marked ×; pad keys and fully masked queries carry a glyph and
// words. The table is built once per length T and then updated in place, so a redraw costs only
// the cells that changed. Not here: choosing the row (the page's select) or computing any weight.

import { h, replaceChildren } from '../shared/dom.js';
import { formatNumber } from '../shared/format.js';

// Every user-visible string of the heatmap, in one place.
export const ATTENTION_TEXT = {
  caption: (b) => `Attention weights of row ${b + 1}: each query (row) spreads weight 1 over the keys (columns) it may see`,
  region: (b) => `Attention heatmap for row ${b + 1}`,
  corner: 'query \\ key',
  key: (t, tok) => `k${t} ${tok}`,
  query: (t, tok) => `q${t} ${tok}`,
  padGlyph: '░',
  padSpoken: 'pad',
  hiddenGlyph: '×',
  hiddenSpoken: 'hidden',
  fullyMasked: '⊘ no visible key',
  fullyMaskedSpoken: 'fully masked query: it sees no key, so its weights and output are zero',
  cellSpoken: (q, k, w) => `query ${q}, key ${k}, weight ${w}`,
  none: 'No query is fully masked: every position sees at least one key.',
  some: (list) => `Fully masked queries (no visible key; weights and output are zero): ${list}.`,
  // The request asked for fully_masked_rows "nan": what a plain softmax over -inf gives.
  someNaN: (list) => `Fully masked queries (no visible key; a softmax over −∞ makes their weights and output NaN): ${list}.`,
  queryName: (t) => `t=${t}`,
  legend: 'Darker = more weight; the number is the weight. × = key hidden by the causal and/or attention mask. ░ = pad position.',
};

// A pad glyph for a header, with the word for screen readers.
function padMark() {
  return h('span', { class: 'pad-mark' }, ` ${ATTENTION_TEXT.padGlyph}`, h('span', { class: 'visually-hidden' }, ` ${ATTENTION_TEXT.padSpoken}`));
}

// Sets an element's class only when it differs (a write forces the browser to restyle it).
function setClass(el, name) {
  if (el.className !== name) {
    if (name) el.className = name;
    else el.removeAttribute('class');
  }
}

export function createAttentionMap(container) {
  const note = h('p', { class: 'attention-note' });
  const caption = h('caption');
  const table = h('table', { class: 'attention-map' });
  const scroller = h('div', { class: 'grid-scroll attention-scroll', role: 'region', tabindex: '0' }, table);
  const legend = h('p', { class: 'attention-legend' }, ATTENTION_TEXT.legend);
  replaceChildren(container, scroller, note, legend);

  // The table is built once per sequence length T and then updated in place: a toggle that
  // leaves the attention unchanged (any labels toggle) writes nothing, and a mask toggle
  // rewrites only the cells whose weight or visibility changed. Each header and cell remembers
  // the key of what it shows (`shown`), so the comparison never reads the DOM.
  let size = -1;
  let keyHeads = [];
  let queryRows = [];
  let queryHeads = [];
  let cells = [];
  let shown = new Map();

  function build(T) {
    keyHeads = Array.from({ length: T }, () => h('th', { scope: 'col' }));
    queryHeads = Array.from({ length: T }, () => h('th', { scope: 'row' }));
    cells = Array.from({ length: T }, () => Array.from({ length: T }, () => h('td')));
    queryRows = queryHeads.map((th, q) => h('tr', {}, th, cells[q]));
    shown = new Map();
    replaceChildren(
      table,
      caption,
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'corner' }, ATTENTION_TEXT.corner), keyHeads)),
      h('tbody', {}, queryRows),
    );
    size = T;
  }

  // Replaces el's content by build() when `key` differs from what el shows.
  function fill(el, key, build) {
    if (shown.get(el) === key) return;
    shown.set(el, key);
    build();
  }

  function update(response, b, { isPad } = {}) {
    const att = response.attention;
    const weights = att.weights[b];
    const visible = att.visible[b];
    const tokens = response.tokens?.[b] ?? weights.map((_, t) => `#${t}`);
    const T = weights.length;
    const pad = (t) => isPad?.[b]?.[t] === 1;
    const masked = new Set(att.fully_masked_queries.filter(([row]) => row === b).map(([, t]) => t));
    const region = ATTENTION_TEXT.region(b);
    if (scroller.getAttribute('aria-label') !== region) scroller.setAttribute('aria-label', region);
    if (T !== size) build(T);
    const captionText = ATTENTION_TEXT.caption(b);
    if (caption.textContent !== captionText) caption.textContent = captionText;

    for (let k = 0; k < T; k += 1) {
      const th = keyHeads[k];
      fill(th, `${tokens[k]}|${pad(k)}`, () => {
        setClass(th, pad(k) ? 'pad' : '');
        th.replaceChildren(ATTENTION_TEXT.key(k, tokens[k]), ...(pad(k) ? [padMark()] : []));
      });
    }
    for (let q = 0; q < T; q += 1) {
      const th = queryHeads[q];
      setClass(queryRows[q], masked.has(q) ? 'fully-masked' : '');
      fill(th, `${tokens[q]}|${pad(q)}|${masked.has(q)}`, () => {
        setClass(th, pad(q) ? 'pad' : '');
        th.replaceChildren(
          ATTENTION_TEXT.query(q, tokens[q]),
          ...(pad(q) ? [padMark()] : []),
          ...(masked.has(q) ? [h('span', { class: 'masked-mark' }, ` ${ATTENTION_TEXT.fullyMasked}`)] : []),
        );
      });
      for (let k = 0; k < T; k += 1) {
        const td = cells[q][k];
        if (!visible[q][k]) {
          fill(td, `hidden|${pad(k)}`, () => {
            setClass(td, `hidden-key${pad(k) ? ' pad' : ''}`);
            td.style.removeProperty('--w');
            td.replaceChildren(
              h('span', { 'aria-hidden': 'true' }, ATTENTION_TEXT.hiddenGlyph),
              h('span', { class: 'visually-hidden' }, ATTENTION_TEXT.hiddenSpoken),
            );
          });
          continue;
        }
        const w = weights[q][k];
        fill(td, `${w}|${pad(k)}`, () => {
          setClass(td, `${w >= 0.5 ? 'strong' : ''}${pad(k) ? ' pad' : ''}`.trim());
          td.style.setProperty('--w', String(w));
          td.textContent = formatNumber(w, 2);
        });
      }
    }
    const maskedList = [...masked].map((t) => ATTENTION_TEXT.queryName(t)).join(', ');
    const noteText = !masked.size
      ? ATTENTION_TEXT.none
      : att.fully_masked_rows === 'nan' ? ATTENTION_TEXT.someNaN(maskedList) : ATTENTION_TEXT.some(maskedList);
    if (note.textContent !== noteText) note.textContent = noteText;
  }

  return { update };
}
