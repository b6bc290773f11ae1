// token-grid.js — one collated batch drawn as a keyboard-navigable ARIA grid.
//
//   const grid = createTokenGrid(container, { caption: 'Batch', interactive: true, onToggle });
//   grid.update(core.inspect(request), { request });   // request is optional, see below
//   onToggle({ kind: 'attention_mask' | 'labels', b, t })
//
// Per batch row b it shows six grid rows: tokens, input_ids, attention_mask, labels (every −100
// with its reason as a glyph and a word), position_ids, and the per-token loss, placed at the
// logit position t and labelled with the target it scores (labels[t + 1] under the causal shift).
// It is a real role="grid": row and column headers, one tab stop (roving tabindex), arrow keys,
// Home/End (Ctrl for the corners), PageUp/PageDown by batch row, Enter/Space toggles a mask or
// label cell when `interactive`. Every cell has a spoken label naming its row, position, token,
// id, mask and label, so nothing depends on colour.
//
// Not here: asking the core (the page does; this file only draws what the core answered), the
// attention heatmap (attention-map.js) or the summary figures (summary.js).
//
// `options.request` (the inspect request) lets the grid mark cells you toggled and know the
// padding side for pad shading; `options.diff` (another inspect response of the same shape)
// marks mask/label cells that differ from it; `options.caption` replaces the caption. All optional.

import { h, replaceChildren } from '../shared/dom.js';
import { formatId, formatNumber } from '../shared/format.js';
import './grid.css'; // Vite extracts it into a stylesheet link (CSP: no inline styles)

// Every user-visible string of the grid, in one place.
export const GRID_TEXT = {
  fields: {
    tokens: 'tokens',
    input_ids: 'input_ids',
    attention_mask: 'attention_mask',
    labels: 'labels',
    position_ids: 'position_ids',
    loss: 'loss at t',
  },
  rowName: (b) => `row ${b + 1}`,
  columnHeader: (t) => `t=${t}`,
  columnSpoken: (t) => `position ${t}`,
  cornerHeader: 'field',
  gridLabel: (caption) => caption,
  readOnlyHint: 'Read-only grid. Arrow keys move between cells.',
  interactiveHint:
    'Arrow keys move between cells; Home and End go to the start and end of a row; Page Up and Page Down jump between batch rows. Enter or Space toggles an attention_mask or labels cell.',
  reasons: {
    padding: { glyph: '░', short: 'pad', spoken: 'padding' },
    prompt: { glyph: '¶', short: 'prompt', spoken: 'prompt, not trained' },
    pad_id: { glyph: '≡', short: 'pad id', spoken: 'its id equals the pad id' },
    boundary: { glyph: '┃', short: 'boundary', spoken: 'the first token of a packed example' },
    given: { glyph: '∅', short: 'given', spoken: "the example's own label" },
    user: { glyph: '✎', short: 'by you', spoken: 'you switched it off' },
  },
  trained: { glyph: '●', short: 'trained', spoken: 'trained' },
  padTrained: { glyph: '⚠', short: 'pad trained', spoken: 'a pad position that is trained' },
  maskOn: { glyph: '●', spoken: '1, may be attended to' },
  maskOff: { glyph: '○', spoken: '0, hidden from attention' },
  noMask: { text: 'none', spoken: 'none: this batch passes no attention_mask' },
  notScored: { text: '·', spoken: 'not scored' },
  edited: { glyph: '✎', spoken: 'changed by you' },
  differs: { glyph: '≠', spoken: 'differs from the other grid' },
  packedStart: (k) => `start of packed example ${k + 1}`,
  padCell: 'pad',
  arrow: '→',
  lossSpoken: (value, target, tok, id) =>
    `loss ${value}, scoring the label at position ${target} (token ${tok}, id ${id})`,
  labelSpoken: (value, reason) => (reason ? `${value} because ${reason}` : `${value}, ${GRID_TEXT.trained.spoken}`),
  // The visible text comes first, so what a screen reader says starts with what is on screen.
  cell: ({ visible, field, b, t, tok, id, mask, label, pos, extra }) =>
    `${visible ? `${visible}; ` : ''}${field}: ${GRID_TEXT.rowName(b)}, position ${t}, token ${tok}, id ${id}, mask ${mask}, label ${label}, position id ${pos}${extra}`,
  toggleHint: '. Enter toggles it.',
  legendTitle: 'How to read the grid',
  legend: [
    ['░', 'pad position (hatched)'],
    ['●', 'attention_mask 1 / label trained'],
    ['○', 'attention_mask 0 (hidden from attention)'],
    ['−100 · pad', 'label ignored, with its reason: pad, ¶ prompt, ≡ pad id, ┃ boundary, ∅ given, ✎ by you'],
    ['⚠', 'a pad position that is trained'],
    ['✎', 'a cell you toggled'],
    ['→ x', 'the loss at t scores the label at t + 1 (the target token x)'],
  ],
};

const FIELDS = ['tokens', 'input_ids', 'attention_mask', 'labels', 'position_ids', 'loss'];
const TOGGLEABLE = new Set(['attention_mask', 'labels']);
const IGNORE = -100;

let gridCount = 0;

// Pad positions [B][T] (1 = pad). The core's own is_pad is used when the response carries it;
// otherwise rows[b].pads pads sit on the request's padding side (right by default).
export function padMap(response, request) {
  const batch = response.batch;
  if (Array.isArray(batch.is_pad)) return batch.is_pad;
  const side = request?.padding_side ?? 'right';
  return batch.input_ids.map((row, b) => {
    const pads = batch.rows?.[b]?.pads ?? 0;
    const T = row.length;
    return row.map((_, t) => (side === 'left' ? t < pads : t >= T - pads) ? 1 : 0);
  });
}

// Starts of packed examples in row 0 (seq_lengths), as a Set of positions.
function packedStarts(batch) {
  const starts = new Map();
  if (!Array.isArray(batch.seq_lengths)) return starts;
  let at = 0;
  batch.seq_lengths.forEach((n, k) => {
    starts.set(at, k);
    at += n;
  });
  return starts;
}

// The text a sighted reader sees in a cell: its content minus aria-hidden glyphs.
function visibleText(nodes) {
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent);
    else if (node.getAttribute?.('aria-hidden') !== 'true') node.childNodes.forEach(walk);
  };
  for (const node of nodes) typeof node === 'string' ? parts.push(node) : walk(node);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

function cellSet(pairs) {
  const set = new Set();
  for (const pair of pairs ?? []) if (Array.isArray(pair)) set.add(`${pair[0]}.${pair[1]}`);
  return set;
}

export function createLegend() {
  return h(
    'details',
    { class: 'grid-legend' },
    h('summary', {}, GRID_TEXT.legendTitle),
    h(
      'ul',
      {},
      GRID_TEXT.legend.map(([glyph, text]) => h('li', {}, h('span', { class: 'legend-glyph', 'aria-hidden': 'true' }, glyph), ' ', text)),
    ),
  );
}

export function createTokenGrid(container, { caption = 'Token grid', interactive = false, onToggle } = {}) {
  const id = `token-grid-${(gridCount += 1)}`;
  const hint = h('p', { class: 'visually-hidden', id: `${id}-hint` }, interactive ? GRID_TEXT.interactiveHint : GRID_TEXT.readOnlyHint);
  const table = h('table', {
    class: 'token-grid',
    role: 'grid',
    id,
    'aria-describedby': `${id}-hint`,
    'aria-readonly': interactive ? undefined : 'true',
  });
  const scroller = h('div', { class: 'grid-scroll' }, table);
  replaceChildren(container, hint, scroller);

  // cells[r][t]: r = b * FIELDS.length + field index.
  let cells = [];
  let active = { r: 0, t: 0 };
  let shape = { B: 0, T: 0 };

  function focusCell(r, t, { focus = true } = {}) {
    if (!cells.length) return;
    r = Math.max(0, Math.min(cells.length - 1, r));
    t = Math.max(0, Math.min(cells[r].length - 1, t));
    const previous = cells[active.r]?.[active.t];
    if (previous) previous.tabIndex = -1;
    active = { r, t };
    const cell = cells[r][t];
    cell.tabIndex = 0;
    if (focus) cell.focus();
  }

  function toggle(cell) {
    if (!interactive || cell.dataset.toggle !== '1' || !onToggle) return;
    onToggle({ kind: cell.dataset.field, b: Number(cell.dataset.b), t: Number(cell.dataset.t) });
  }

  table.addEventListener('keydown', (event) => {
    const cell = event.target.closest?.('td[data-r]');
    if (!cell) return;
    let r = Number(cell.dataset.r);
    let t = Number(cell.dataset.t);
    const lastRow = cells.length - 1;
    switch (event.key) {
      case 'ArrowRight': t += 1; break;
      case 'ArrowLeft': t -= 1; break;
      case 'ArrowDown': r += 1; break;
      case 'ArrowUp': r -= 1; break;
      case 'Home': if (event.ctrlKey) r = 0; t = 0; break;
      case 'End': if (event.ctrlKey) r = lastRow; t = shape.T - 1; break;
      case 'PageDown': r += FIELDS.length; break;
      case 'PageUp': r -= FIELDS.length; break;
      case 'Enter':
      case ' ':
        if (cell.dataset.toggle === '1') {
          event.preventDefault();
          toggle(cell);
        }
        return;
      default:
        return;
    }
    event.preventDefault();
    focusCell(r, t);
  });

  table.addEventListener('click', (event) => {
    const cell = event.target.closest?.('td[data-r]');
    if (!cell) return;
    focusCell(Number(cell.dataset.r), Number(cell.dataset.t));
    toggle(cell);
  });

  function update(response, { request, diff, caption: captionText } = {}) {
    const hadFocus = table.contains(document.activeElement);
    const batch = response.batch;
    const B = batch.input_ids.length;
    const T = batch.input_ids[0]?.length ?? 0;
    const pads = padMap(response, request);
    const starts = packedStarts(batch);
    const editedMask = cellSet(request?.toggle_attention_mask);
    const editedLabels = cellSet(request?.toggle_labels);
    const shift = request?.shift ?? true;
    const tokens = response.tokens ?? batch.input_ids.map((row) => row.map((x) => `#${x}`));
    const vocab = response.vocab ?? [];
    const tokenOf = (x) => (x >= 0 && x < vocab.length ? vocab[x] : `#${x}`);
    const perToken = response.loss?.per_token;
    const targets = response.loss?.targets;
    let maxLoss = 0;
    for (let b = 0; b < B; b += 1) for (let t = 0; t < T; t += 1) if (targets?.[b]?.[t] !== IGNORE) maxLoss = Math.max(maxLoss, perToken?.[b]?.[t] ?? 0);

    const head = h(
      'tr',
      {},
      h('th', { scope: 'col', role: 'columnheader', class: 'corner' }, GRID_TEXT.cornerHeader),
      Array.from({ length: T }, (_, t) =>
        h('th', { scope: 'col', role: 'columnheader', 'aria-label': GRID_TEXT.columnSpoken(t) }, GRID_TEXT.columnHeader(t)),
      ),
    );

    const body = [];
    cells = [];
    for (let b = 0; b < B; b += 1) {
      // Facts about each position that every cell's spoken label repeats.
      const facts = Array.from({ length: T }, (_, t) => {
        const idValue = batch.input_ids[b][t];
        const mask = batch.attention_mask ? batch.attention_mask[b][t] : null;
        const label = batch.labels[b][t];
        const reasonKey = batch.label_reasons?.[b]?.[t] ?? '';
        const reason = GRID_TEXT.reasons[reasonKey];
        const isPad = pads[b][t] === 1;
        const padTrained = isPad && label !== IGNORE;
        const labelSpoken =
          label === IGNORE
            ? GRID_TEXT.labelSpoken(formatId(label), reason?.spoken ?? reasonKey)
            : padTrained
              ? `${formatId(label)}, ${GRID_TEXT.padTrained.spoken}`
              : GRID_TEXT.labelSpoken(formatId(label), '');
        return {
          id: idValue,
          tok: tokens[b][t],
          mask,
          maskSpoken: mask === null ? GRID_TEXT.noMask.text : String(mask),
          label,
          reason,
          reasonKey,
          isPad,
          padTrained,
          labelSpoken,
          pos: batch.position_ids[b][t],
          start: starts.has(t) && starts.get(t) > 0 ? starts.get(t) : null,
        };
      });

      FIELDS.forEach((field, f) => {
        const r = b * FIELDS.length + f;
        const rowCells = [];
        for (let t = 0; t < T; t += 1) {
          const x = facts[t];
          const key = `${b}.${t}`;
          const classes = ['cell', `f-${field}`];
          if (x.isPad) classes.push('pad');
          if (x.start !== null) classes.push('packed-start');
          const content = [];
          let extra = '';
          let toggleable = false;
          let edited = false;
          let differs = false;

          if (field === 'tokens') {
            content.push(h('span', { class: 'tok' }, x.tok));
            if (x.start !== null) extra = `, ${GRID_TEXT.packedStart(x.start)}`;
          } else if (field === 'input_ids') {
            content.push(String(x.id));
          } else if (field === 'attention_mask') {
            if (x.mask === null) {
              classes.push('no-mask');
              content.push(GRID_TEXT.noMask.text);
              extra = `; ${GRID_TEXT.noMask.spoken}`;
            } else {
              toggleable = interactive;
              edited = editedMask.has(key);
              classes.push(x.mask ? 'mask-on' : 'mask-off');
              content.push(
                h('span', { class: 'glyph', 'aria-hidden': 'true' }, x.mask ? GRID_TEXT.maskOn.glyph : GRID_TEXT.maskOff.glyph),
                h('span', { class: 'val' }, String(x.mask)),
              );
              differs = diff?.batch?.attention_mask?.[b]?.[t] !== undefined && diff.batch.attention_mask[b][t] !== x.mask;
            }
          } else if (field === 'labels') {
            toggleable = interactive;
            edited = editedLabels.has(key);
            differs = diff?.batch?.labels?.[b]?.[t] !== undefined && diff.batch.labels[b][t] !== x.label;
            if (x.label === IGNORE) {
              classes.push('ignored');
              const reason = x.reason ?? { glyph: '?', short: x.reasonKey };
              content.push(
                h('span', { class: 'val' }, formatId(x.label)),
                h('span', { class: 'why' }, h('span', { 'aria-hidden': 'true' }, `${reason.glyph} `), reason.short),
              );
            } else if (x.padTrained) {
              classes.push('trained', 'pad-trained');
              content.push(
                h('span', { class: 'val' }, formatId(x.label)),
                h('span', { class: 'why' }, h('span', { 'aria-hidden': 'true' }, `${GRID_TEXT.padTrained.glyph} `), GRID_TEXT.padTrained.short),
              );
            } else {
              classes.push('trained');
              content.push(
                h('span', { class: 'val' }, formatId(x.label)),
                h('span', { class: 'why' }, h('span', { 'aria-hidden': 'true' }, `${GRID_TEXT.trained.glyph} `), GRID_TEXT.trained.short),
              );
            }
          } else if (field === 'position_ids') {
            content.push(String(x.pos));
          } else if (field === 'loss') {
            const target = targets?.[b]?.[t];
            if (target === undefined || target === IGNORE) {
              classes.push('unscored');
              content.push(h('span', { 'aria-hidden': 'true' }, GRID_TEXT.notScored.text));
              extra = `; ${GRID_TEXT.notScored.spoken}`;
            } else {
              const value = perToken[b][t];
              const at = shift ? t + 1 : t;
              classes.push('scored');
              if (pads[b][at] === 1) classes.push('pad-target');
              const bar = h('span', { class: 'bar', 'aria-hidden': 'true' });
              // CSSOM (allowed by the CSP, unlike a style attribute): bar length = loss / max loss.
              bar.style.setProperty('--share', maxLoss > 0 ? String(value / maxLoss) : '0');
              content.push(
                bar,
                h('span', { class: 'val' }, formatNumber(value, 3)),
                h('span', { class: 'why' }, `${GRID_TEXT.arrow} ${tokenOf(target)}`),
              );
              extra = `; ${GRID_TEXT.lossSpoken(formatNumber(value, 4), at, tokenOf(target), formatId(target))}`;
            }
          }
          if (edited) {
            classes.push('edited');
            content.push(h('span', { class: 'edited-mark', 'aria-hidden': 'true' }, GRID_TEXT.edited.glyph));
            extra += `, ${GRID_TEXT.edited.spoken}`;
          }
          if (differs) {
            classes.push('differs');
            content.push(h('span', { class: 'differs-mark', 'aria-hidden': 'true' }, GRID_TEXT.differs.glyph));
            extra += `, ${GRID_TEXT.differs.spoken}`;
          }
          if (toggleable) classes.push('toggleable');
          const label =
            GRID_TEXT.cell({
              visible: visibleText(content),
              field: GRID_TEXT.fields[field],
              b,
              t,
              tok: x.tok,
              id: x.id,
              mask: x.maskSpoken,
              label: x.labelSpoken,
              pos: x.pos,
              extra,
            }) + (toggleable ? GRID_TEXT.toggleHint : '');
          const td = h(
            'td',
            {
              role: 'gridcell',
              class: classes.join(' '),
              tabindex: '-1',
              'aria-label': label,
              'aria-readonly': interactive && !toggleable ? 'true' : undefined,
              dataset: { r: String(r), t: String(t), b: String(b), field, toggle: toggleable ? '1' : '0' },
            },
            content,
          );
          rowCells.push(td);
        }
        cells.push(rowCells);
        body.push(
          h(
            'tr',
            { class: f === 0 ? 'group-start' : undefined },
            h(
              'th',
              { scope: 'row', role: 'rowheader', class: 'row-head' },
              h('span', { class: f === 0 ? 'row-name' : 'row-name visually-hidden' }, `${GRID_TEXT.rowName(b)} `),
              h('span', { class: 'field-name' }, GRID_TEXT.fields[field]),
            ),
            rowCells,
          ),
        );
      });
    }

    replaceChildren(table, h('caption', {}, captionText ?? caption), h('thead', {}, head), h('tbody', {}, body));
    shape = { B, T };
    const r = Math.min(active.r, cells.length - 1);
    const t = Math.min(active.t, Math.max(0, T - 1));
    active = { r: Math.max(0, r), t: Math.max(0, t) };
    if (cells.length && T > 0) {
      cells[active.r][active.t].tabIndex = 0;
      if (hadFocus) cells[active.r][active.t].focus();
    }
  }

  return {
    element: table,
    update,
    /** Focuses the cell of batch row b, field name, position t (used by tests and pages). */
    focus(b, field, t) {
      focusCell(b * FIELDS.length + FIELDS.indexOf(field), t);
    },
  };
}
