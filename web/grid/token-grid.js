// token-grid.js — one collated batch drawn as a keyboard-navigable ARIA grid.
//
//   const grid = createTokenGrid(container, { caption: 'Batch', interactive: true, onToggle });
//   grid.update(core.inspect(request), { request });   // request is optional, see below
//   onToggle({ kind: 'attention_mask' | 'labels', b, t })
//   fields: which of the six grid rows to show (default all; the chat page has no loss row)
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
// marks mask/label cells that differ from it; `options.caption` replaces the caption;
// `options.highlight` (Map "b.t" -> what is wrong there) flags cells, with a glyph and in words;
// `options.rowLabels` / `options.positionLabels` name rows and positions when the grid shows a
// window of a bigger batch (the doctor: printed indices, negative from the end). All optional.
//
// Speed: a toggle must redraw within one frame. The table's rows and cells are built only when
// the batch shape (B, T) changes; otherwise update() describes every cell as plain data (class,
// spoken label, content parts) and touches the DOM only where that description changed, so a
// toggle rewrites the toggled cell and the loss row, and the focused cell is never replaced
// (no focus() call, so no forced layout). The tab stop follows focus however it moves (keys,
// mouse, or el.focus() from a script), so a redraw keeps it on the cell the reader is on.

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
  flagged: { glyph: '⚑', spoken: (what) => `flagged: ${what}` },
  noLabel: 'none (no labels in this batch)',
  noPositions: 'none',
  absent: 'no token (this row is shorter)',
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
  cell: ({ visible, field, row, position, tok, id, mask, label, pos, extra }) =>
    `${visible ? `${visible}; ` : ''}${field}: ${row}, position ${position}, token ${tok}, id ${id}, mask ${mask}, label ${label}, position id ${pos}${extra}`,
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

// A cell's content is described as parts before it is drawn, so an update can compare the
// description with what the cell shows and skip the DOM when nothing changed. A part is a string
// (a text node) or { cls, hidden, pre, text, share }: a <span class=cls> holding an aria-hidden
// glyph `pre` then `text`; `hidden` hides the whole span from screen readers; `share` sets the
// loss bar's --share custom property.
//
// renderParts returns the nodes plus, per part, the handles an in-place update needs: the text
// node holding `text` and the element carrying `share`.
function renderParts(parts) {
  const nodes = [];
  const handles = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      const text = document.createTextNode(part);
      nodes.push(text);
      handles.push({ text, el: null });
      continue;
    }
    const text = part.text === undefined ? null : document.createTextNode(part.text);
    const span = h(
      'span',
      { class: part.cls, 'aria-hidden': part.hidden ? 'true' : undefined },
      part.pre ? h('span', { 'aria-hidden': 'true' }, part.pre) : null,
      text,
    );
    // CSSOM (allowed by the CSP, unlike a style attribute): bar length = loss / max loss.
    if (part.share !== undefined) span.style.setProperty('--share', part.share);
    nodes.push(span);
    handles.push({ text, el: span });
  }
  return { nodes, handles };
}

// Parts with the same layout (kinds, classes, glyphs) differ only in text and bar length, which
// can be written into the nodes already on screen.
function layoutOf(parts) {
  return parts
    .map((part) => (typeof part === 'string' ? '"' : `${part.cls}|${part.hidden ? 1 : 0}|${part.pre ?? ''}|${part.text === undefined ? 0 : 1}|${part.share === undefined ? 0 : 1}`))
    .join(',');
}

// The text a sighted reader sees in a cell: its parts minus aria-hidden glyphs.
function visibleText(parts) {
  const words = [];
  for (const part of parts) {
    if (typeof part === 'string') words.push(part);
    else if (!part.hidden && part.text) words.push(part.text);
  }
  return words.join(' ').replace(/\s+/g, ' ').trim();
}

function cellSet(pairs) {
  const set = new Set();
  for (const pair of pairs ?? []) if (Array.isArray(pair)) set.add(`${pair[0]}.${pair[1]}`);
  return set;
}

// `extra`: more [glyph, text] items a page adds (the doctor: its flag).
export function createLegend(extra = []) {
  return h(
    'details',
    { class: 'grid-legend' },
    h('summary', {}, GRID_TEXT.legendTitle),
    h(
      'ul',
      {},
      [...GRID_TEXT.legend, ...extra].map(([glyph, text]) =>
        h('li', {}, h('span', { class: 'legend-glyph', 'aria-hidden': 'true' }, glyph), ' ', text),
      ),
    ),
  );
}

// Per-position facts of batch row b that every cell's spoken label repeats: [T] objects.
// A batch may leave out labels or position_ids (the doctor shows what was pasted), carry a
// per-cell `segment_start` instead of seq_lengths, and have shorter rows: a missing id is an
// absent cell. `reasons` (the chat page's) name label reasons the grid's own list does not have.
function positionFacts(batch, b, T, { tokens, pads, starts, reasons }) {
  let example = 0;  // packed examples started so far in this row (segment_start)
  return Array.from({ length: T }, (_, t) => {
    const idValue = batch.input_ids[b][t];
    const mask = batch.attention_mask ? batch.attention_mask[b][t] ?? null : null;
    const label = batch.labels ? batch.labels[b][t] ?? null : null;
    const segmentStart = batch.segment_start?.[b]?.[t] === 1;
    if (segmentStart) example += 1;
    const reasonKey = batch.label_reasons?.[b]?.[t] ?? '';
    const reason = reasons[reasonKey] ?? GRID_TEXT.reasons[reasonKey];
    const isPad = pads[b][t] === 1;
    const padTrained = isPad && label !== null && label !== IGNORE;
    const labelSpoken =
      label === null
        ? GRID_TEXT.noLabel
        : label === IGNORE
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
      pos: batch.position_ids ? batch.position_ids[b][t] : GRID_TEXT.noPositions,
      start: segmentStart ? example : starts.has(t) && starts.get(t) > 0 ? starts.get(t) : null,
      absent: idValue === null || idValue === undefined,
    };
  });
}

// What one cell shows, as data: { className, label (spoken), parts, toggleable }.
// `x` = positionFacts(...)[t]; `ctx` = the per-update context built in update().
function describeCell(field, b, t, x, ctx) {
  const { interactive, editedMask, editedLabels, diff, targets, perToken, pads, shift, maxLoss, tokenOf, highlight } = ctx;
  const key = `${b}.${t}`;
  if (x.absent)
    return { className: 'cell absent', label: `${GRID_TEXT.fields[field]}: ${ctx.rowName(b)}, position ${ctx.positionName(t)}: ${GRID_TEXT.absent}`, parts: [], toggleable: false };
  const classes = ['cell', `f-${field}`];
  if (x.isPad) classes.push('pad');
  if (x.start !== null) classes.push('packed-start');
  const parts = [];
  let extra = '';
  let toggleable = false;
  let edited = false;
  let differs = false;

  if (field === 'tokens') {
    parts.push({ cls: 'tok', text: x.tok });
    if (x.start !== null) extra = `, ${GRID_TEXT.packedStart(x.start)}`;
  } else if (field === 'input_ids') {
    parts.push(String(x.id));
  } else if (field === 'attention_mask') {
    if (x.mask === null) {
      classes.push('no-mask');
      parts.push(GRID_TEXT.noMask.text);
      extra = `; ${GRID_TEXT.noMask.spoken}`;
    } else {
      toggleable = interactive;
      edited = editedMask.has(key);
      classes.push(x.mask ? 'mask-on' : 'mask-off');
      parts.push(
        { cls: 'glyph', hidden: true, text: x.mask ? GRID_TEXT.maskOn.glyph : GRID_TEXT.maskOff.glyph },
        { cls: 'val', text: String(x.mask) },
      );
      differs = diff?.batch?.attention_mask?.[b]?.[t] !== undefined && diff.batch.attention_mask[b][t] !== x.mask;
    }
  } else if (field === 'labels') {
    toggleable = interactive;
    edited = editedLabels.has(key);
    differs = diff?.batch?.labels?.[b]?.[t] !== undefined && diff.batch.labels[b][t] !== x.label;
    let why;
    if (x.label === IGNORE) {
      classes.push('ignored');
      why = x.reason ?? { glyph: '?', short: x.reasonKey };
    } else if (x.padTrained) {
      classes.push('trained', 'pad-trained');
      why = GRID_TEXT.padTrained;
    } else {
      classes.push('trained');
      why = GRID_TEXT.trained;
    }
    parts.push({ cls: 'val', text: formatId(x.label) }, { cls: 'why', pre: `${why.glyph} `, text: why.short });
  } else if (field === 'position_ids') {
    parts.push(String(x.pos));
  } else if (field === 'loss') {
    const target = targets?.[b]?.[t];
    if (target === undefined || target === IGNORE) {
      classes.push('unscored');
      parts.push({ hidden: true, text: GRID_TEXT.notScored.text });
      extra = `; ${GRID_TEXT.notScored.spoken}`;
    } else {
      const value = perToken[b][t];
      const at = shift ? t + 1 : t;
      classes.push('scored');
      if (pads[b][at] === 1) classes.push('pad-target');
      parts.push(
        { cls: 'bar', hidden: true, share: maxLoss > 0 ? String(value / maxLoss) : '0' },
        { cls: 'val', text: formatNumber(value, 3) },
        { cls: 'why', text: `${GRID_TEXT.arrow} ${tokenOf(target)}` },
      );
      extra = `; ${GRID_TEXT.lossSpoken(formatNumber(value, 4), at, tokenOf(target), formatId(target))}`;
    }
  }
  if (edited) {
    classes.push('edited');
    parts.push({ cls: 'edited-mark', hidden: true, text: GRID_TEXT.edited.glyph });
    extra += `, ${GRID_TEXT.edited.spoken}`;
  }
  if (differs) {
    classes.push('differs');
    parts.push({ cls: 'differs-mark', hidden: true, text: GRID_TEXT.differs.glyph });
    extra += `, ${GRID_TEXT.differs.spoken}`;
  }
  const flag = highlight?.get(key);
  if (flag && field !== 'tokens') {
    classes.push('flagged');
    parts.push({ cls: 'flag-mark', hidden: true, text: GRID_TEXT.flagged.glyph });
    extra += `, ${GRID_TEXT.flagged.spoken(flag)}`;
  }
  if (toggleable) classes.push('toggleable');
  const label =
    GRID_TEXT.cell({
      visible: visibleText(parts),
      field: GRID_TEXT.fields[field],
      row: ctx.rowName(b),
      position: ctx.positionName(t),
      tok: x.tok,
      id: x.id,
      mask: x.maskSpoken,
      label: x.labelSpoken,
      pos: x.pos,
      extra,
    }) + (toggleable ? GRID_TEXT.toggleHint : '');
  return { className: classes.join(' '), label, parts, toggleable };
}

// `reasons` adds label reasons a page's own batches use ({ key: { glyph, short, spoken } }, e.g. the
// chat page's system / user / role header), looked up before the grid's own.
export function createTokenGrid(container, { caption = 'Token grid', interactive = false, onToggle, fields = FIELDS, reasons = {} } = {}) {
  const shownFields = fields.filter((f) => FIELDS.includes(f));
  const id = `token-grid-${(gridCount += 1)}`;
  const hint = h('p', { class: 'visually-hidden', id: `${id}-hint` }, interactive ? GRID_TEXT.interactiveHint : GRID_TEXT.readOnlyHint);
  const table = h('table', {
    class: 'token-grid',
    role: 'grid',
    id,
    'aria-describedby': `${id}-hint`,
    'aria-readonly': interactive ? undefined : 'true',
  });
  const captionBox = h('caption');
  const scroller = h('div', { class: 'grid-scroll' }, table);
  replaceChildren(container, hint, scroller);

  // cells[r][t]: the <td> of grid row r = b * shownFields.length + field index, position t.
  // shown[r][t]: what that cell shows now ({ className, label, readOnly, toggle, layout, parts,
  // handles }), compared with the next description so unchanged cells are left alone.
  let cells = [];
  let shown = [];
  let active = { r: 0, t: 0 };
  let shape = { B: -1, T: -1, labels: '' };

  // Moves the one tab stop (roving tabindex) to cell (r, t), clamped to the grid.
  function moveTabStop(r, t) {
    if (!cells.length) return null;
    r = Math.max(0, Math.min(cells.length - 1, r));
    t = Math.max(0, Math.min(cells[r].length - 1, t));
    const previous = cells[active.r]?.[active.t];
    const cell = cells[r][t];
    if (previous && previous !== cell) previous.tabIndex = -1;
    if (cell.tabIndex !== 0) cell.tabIndex = 0;
    active = { r, t };
    return cell;
  }

  function focusCell(r, t) {
    moveTabStop(r, t)?.focus();
  }

  function toggle(cell) {
    if (!interactive || cell.dataset.toggle !== '1' || !onToggle) return;
    onToggle({ kind: cell.dataset.field, b: Number(cell.dataset.b), t: Number(cell.dataset.t) });
  }

  // However a cell gets focus (arrow keys, a click, Tab, or el.focus() from a script), it
  // becomes the tab stop, so the next redraw and the next Tab return to it.
  table.addEventListener('focusin', (event) => {
    const cell = event.target.closest?.('td[data-r]');
    if (cell) moveTabStop(Number(cell.dataset.r), Number(cell.dataset.t));
  });

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
      case 'PageDown': r += shownFields.length; break;
      case 'PageUp': r -= shownFields.length; break;
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

  // Builds the empty table for a B × T batch: headers, rows and cells with their fixed
  // attributes. Cell content, classes and labels are filled in by update().
  function build(B, T, names) {
    const head = h(
      'tr',
      {},
      h('th', { scope: 'col', role: 'columnheader', class: 'corner' }, GRID_TEXT.cornerHeader),
      Array.from({ length: T }, (_, t) =>
        h(
          'th',
          { scope: 'col', role: 'columnheader', 'aria-label': GRID_TEXT.columnSpoken(names.position(t)) },
          GRID_TEXT.columnHeader(names.position(t)),
        ),
      ),
    );
    const body = [];
    cells = [];
    shown = [];
    for (let b = 0; b < B; b += 1) {
      shownFields.forEach((field, f) => {
        const r = b * shownFields.length + f;
        const rowCells = Array.from({ length: T }, (_, t) =>
          h('td', { role: 'gridcell', tabindex: '-1', dataset: { r: String(r), t: String(t), b: String(b), field } }),
        );
        cells.push(rowCells);
        shown.push(rowCells.map(() => ({})));
        body.push(
          h(
            'tr',
            { class: f === 0 ? 'group-start' : undefined },
            h(
              'th',
              { scope: 'row', role: 'rowheader', class: 'row-head' },
              h('span', { class: f === 0 ? 'row-name' : 'row-name visually-hidden' }, `${names.row(b)} `),
              h('span', { class: 'field-name' }, GRID_TEXT.fields[field]),
            ),
            rowCells,
          ),
        );
      });
    }
    replaceChildren(table, captionBox, h('thead', {}, head), h('tbody', {}, body));
    shape = { B, T, labels: names.key };
  }

  // Writes one cell's description into its <td>, touching only what differs from `was`:
  // attributes that changed, then the content — rebuilt if its layout changed, otherwise only
  // the text nodes and bar lengths that differ (new nodes would need new style and layout).
  function paint(td, was, view) {
    const readOnly = interactive && !view.toggleable;
    const toggleFlag = view.toggleable ? '1' : '0';
    if (was.className !== view.className) td.className = view.className;
    if (was.label !== view.label) td.setAttribute('aria-label', view.label);
    if (was.readOnly !== readOnly) {
      if (readOnly) td.setAttribute('aria-readonly', 'true');
      else td.removeAttribute('aria-readonly');
    }
    if (was.toggle !== toggleFlag) td.dataset.toggle = toggleFlag;
    const layout = layoutOf(view.parts);
    let handles = was.handles;
    if (was.layout !== layout) {
      const drawn = renderParts(view.parts);
      td.replaceChildren(...drawn.nodes);
      handles = drawn.handles;
    } else {
      view.parts.forEach((part, i) => {
        const old = was.parts[i];
        const text = typeof part === 'string' ? part : part.text;
        if (text !== (typeof old === 'string' ? old : old.text)) handles[i].text.data = text;
        if (part.share !== undefined && part.share !== old.share) handles[i].el.style.setProperty('--share', part.share);
      });
    }
    return { className: view.className, label: view.label, readOnly, toggle: toggleFlag, layout, parts: view.parts, handles };
  }

  function update(response, { request, diff, caption: captionText, highlight, rowLabels, positionLabels } = {}) {
    const hadFocus = table.contains(document.activeElement);
    const batch = response.batch;
    const B = batch.input_ids.length;
    const T = batch.input_ids[0]?.length ?? 0;
    const pads = padMap(response, request);
    const vocab = response.vocab ?? [];
    const perToken = response.loss?.per_token;
    const targets = response.loss?.targets;
    let maxLoss = 0;
    for (let b = 0; b < B; b += 1) for (let t = 0; t < T; t += 1) if (targets?.[b]?.[t] !== IGNORE) maxLoss = Math.max(maxLoss, perToken?.[b]?.[t] ?? 0);
    const ctx = {
      interactive,
      editedMask: cellSet(request?.toggle_attention_mask),
      editedLabels: cellSet(request?.toggle_labels),
      diff,
      targets,
      perToken,
      pads,
      shift: request?.shift ?? true,
      maxLoss,
      tokenOf: (x) => (x >= 0 && x < vocab.length ? vocab[x] : `#${x}`),
      highlight,
      // Rows are numbered from 1 on their own; a window of a bigger batch names them as given.
      rowName: (b) => (rowLabels ? `row ${rowLabels[b]}` : GRID_TEXT.rowName(b)),
      positionName: (t) => (positionLabels ? positionLabels[t] : t),
    };
    const names = {
      row: ctx.rowName,
      position: ctx.positionName,
      key: `${rowLabels?.join(',') ?? ''}|${positionLabels?.join(',') ?? ''}`,
    };
    const facts = {
      tokens: response.tokens ?? batch.input_ids.map((row) => row.map((x) => `#${x}`)),
      pads,
      starts: packedStarts(batch),
      reasons,
    };

    const rebuilt = B !== shape.B || T !== shape.T || names.key !== shape.labels;
    if (rebuilt) build(B, T, names);
    const captionWanted = captionText ?? caption;
    if (captionBox.textContent !== captionWanted) captionBox.textContent = captionWanted;

    for (let b = 0; b < B; b += 1) {
      const row = positionFacts(batch, b, T, facts);
      shownFields.forEach((field, f) => {
        const r = b * shownFields.length + f;
        for (let t = 0; t < T; t += 1) shown[r][t] = paint(cells[r][t], shown[r][t], describeCell(field, b, t, row[t], ctx));
      });
    }

    if (cells.length && T > 0) {
      const cell = moveTabStop(active.r, active.t);
      // Only a rebuilt table loses the focused cell; otherwise focus never left it.
      if (hadFocus && !table.contains(document.activeElement)) cell.focus();
    }
  }

  return {
    element: table,
    update,
    /** Focuses the cell of batch row b, field name, position t (used by tests and pages). */
    focus(b, field, t) {
      focusCell(b * shownFields.length + shownFields.indexOf(field), t);
    },
  };
}
