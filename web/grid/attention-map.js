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
// words. Not here: choosing the row (the page's select) or computing any weight.

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
  queryName: (t) => `t=${t}`,
  legend: 'Darker = more weight; the number is the weight. × = key hidden by the causal and/or attention mask. ░ = pad position.',
};

export function createAttentionMap(container) {
  const note = h('p', { class: 'attention-note' });
  const table = h('table', { class: 'attention-map' });
  const scroller = h('div', { class: 'grid-scroll attention-scroll', role: 'region', tabindex: '0' }, table);
  const legend = h('p', { class: 'attention-legend' }, ATTENTION_TEXT.legend);
  replaceChildren(container, scroller, note, legend);

  function update(response, b, { isPad } = {}) {
    const att = response.attention;
    const weights = att.weights[b];
    const visible = att.visible[b];
    const tokens = response.tokens?.[b] ?? weights.map((_, t) => `#${t}`);
    const T = weights.length;
    const pad = (t) => isPad?.[b]?.[t] === 1;
    const masked = new Set(att.fully_masked_queries.filter(([row]) => row === b).map(([, t]) => t));
    scroller.setAttribute('aria-label', ATTENTION_TEXT.region(b));

    const head = h(
      'tr',
      {},
      h('th', { scope: 'col', class: 'corner' }, ATTENTION_TEXT.corner),
      Array.from({ length: T }, (_, k) =>
        h(
          'th',
          { scope: 'col', class: pad(k) ? 'pad' : undefined },
          ATTENTION_TEXT.key(k, tokens[k]),
          pad(k) ? h('span', { class: 'pad-mark' }, ` ${ATTENTION_TEXT.padGlyph}`, h('span', { class: 'visually-hidden' }, ` ${ATTENTION_TEXT.padSpoken}`)) : null,
        ),
      ),
    );
    const rows = Array.from({ length: T }, (_, q) =>
      h(
        'tr',
        { class: masked.has(q) ? 'fully-masked' : undefined },
        h(
          'th',
          { scope: 'row', class: pad(q) ? 'pad' : undefined },
          ATTENTION_TEXT.query(q, tokens[q]),
          pad(q) ? h('span', { class: 'pad-mark' }, ` ${ATTENTION_TEXT.padGlyph}`, h('span', { class: 'visually-hidden' }, ` ${ATTENTION_TEXT.padSpoken}`)) : null,
          masked.has(q) ? h('span', { class: 'masked-mark' }, ` ${ATTENTION_TEXT.fullyMasked}`) : null,
        ),
        Array.from({ length: T }, (_, k) => {
          if (!visible[q][k]) {
            return h(
              'td',
              { class: `hidden-key${pad(k) ? ' pad' : ''}` },
              h('span', { 'aria-hidden': 'true' }, ATTENTION_TEXT.hiddenGlyph),
              h('span', { class: 'visually-hidden' }, ATTENTION_TEXT.hiddenSpoken),
            );
          }
          const w = weights[q][k];
          const td = h('td', { class: `${w >= 0.5 ? 'strong' : ''}${pad(k) ? ' pad' : ''}`.trim() || undefined }, formatNumber(w, 2));
          td.style.setProperty('--w', String(w));
          return td;
        }),
      ),
    );
    replaceChildren(table, h('caption', {}, ATTENTION_TEXT.caption(b)), h('thead', {}, head), h('tbody', {}, rows));
    note.textContent = masked.size
      ? ATTENTION_TEXT.some([...masked].map((t) => ATTENTION_TEXT.queryName(t)).join(', '))
      : ATTENTION_TEXT.none;
  }

  return { update };
}
