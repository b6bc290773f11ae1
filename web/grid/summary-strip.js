// summary-strip.js — the token grid's sticky strip: the figures a toggle moves, kept on screen
// above the grid, each shown as "before → after" with the direction in words after a change,
// and what the tiny model did (refitted: n other losses moved; frozen: only your cells).
//
//   const strip = createSummaryStrip(container, { onModel(mode) {}, onShowAttention(b) {} });
//   strip.update(response, { before, refitMoved, frozen, maskRow, attentionShown });   // before: the previous
//   // response; maskRow: the row of an attention_mask toggle; attentionShown: the page has the heatmap
//
// Values are the core's (summary.*), only formatted here; "higher" / "lower" compares the two
// answers, nothing is subtracted. Not here: the full list of figures (summary.js).

import { h, replaceChildren } from '../shared/dom.js';
import { formatLoss, formatNumber } from '../shared/format.js';

// Every user-visible string of the strip, in one place.
export const STRIP_TEXT = {
  label: 'What your last change did',
  figures: {
    loss: 'reported loss',
    loss_real: 'loss on real-token targets',
    targets: 'targets',
    dilution_factor: 'weight per real token',
  },
  targetsSplit: (real, pad) => `${real} real + ${pad} pad`,
  arrow: '→',
  higher: '▲ higher',
  lower: '▼ lower',
  same: 'unchanged',
  none: '—',
  modelLegend: 'When you toggle a label, the tiny model is',
  modes: {
    refit: 'refitted on the edited labels (as training would)',
    frozen: 'frozen (fitted before your edits)',
  },
  refitNote: (n) =>
    n === 0
      ? 'The model was refitted on your edit; no other position’s loss moved.'
      : `↻ Refitted on your edit, as training would: ${n} other loss${n === 1 ? '' : 'es'} moved (marked ↻ in the grid).`,
  frozenNote: 'The model is frozen: a toggle changes only the target it touches; losses elsewhere stay.',
  // An attention_mask toggle changes no label, and the bigram fitted on the labels reads no
  // attention: the loss cannot move, so say where the change is instead of only "unchanged".
  maskNote: 'The loss stays: attention_mask changes which keys a query may read, not what is scored, and the tiny bigram reads no attention.',
  showAttention: (b) => `See row ${b + 1}’s attention`,
};

const KEYS = ['loss', 'loss_real', 'targets', 'dilution_factor'];

function text(key, summary) {
  const v = summary[key];
  if (v === null || v === undefined) return STRIP_TEXT.none;
  if (key === 'targets') return String(v);
  if (key === 'dilution_factor') return formatNumber(v, 4);
  return formatLoss(v);
}

let strips = 0;

export function createSummaryStrip(container, { onModel = () => {}, onShowAttention = () => {} } = {}) {
  const id = `strip-${(strips += 1)}`;
  const items = {};
  const list = h(
    'dl',
    { class: 'strip-figures' },
    KEYS.map((key) => {
      const value = h('dd', { class: 'strip-value' });
      const change = h('dd', { class: 'strip-change' });
      items[key] = { value, change };
      return h('div', { dataset: { strip: key } }, h('dt', {}, STRIP_TEXT.figures[key]), value, change);
    }),
  );
  const note = h('p', { class: 'strip-note' });
  const radios = Object.entries(STRIP_TEXT.modes).map(([mode, label]) => {
    const input = h('input', { type: 'radio', name: `${id}-model`, id: `${id}-${mode}`, value: mode });
    input.addEventListener('change', () => input.checked && onModel(mode));
    return { mode, input, node: h('span', { class: 'model-choice' }, input, h('label', { for: `${id}-${mode}` }, label)) };
  });
  const model = h('fieldset', { class: 'model-mode' }, h('legend', {}, STRIP_TEXT.modelLegend), radios.map((r) => r.node));
  const box = h('div', { class: 'strip-box', role: 'region', 'aria-label': STRIP_TEXT.label }, list, note, model);
  replaceChildren(container, box);
  // On a phone the model choice is drawn above the figures, and the strip sticks at minus its
  // height (grid.css), so once stuck only what a toggle changes stays over the grid. The height
  // follows the choice's wrapping at each width; the 4 px keep a sliver of the box above them.
  if (typeof ResizeObserver === 'function') {
    const measure = () => container.style.setProperty('--strip-scroll-away', `${Math.max(0, list.offsetTop - 4)}px`);
    new ResizeObserver(measure).observe(box);
  }

  return {
    update(response, { before = null, refitMoved = null, frozen = false, maskRow = null, attentionShown = true } = {}) {
      const now = response.summary;
      const was = before?.summary ?? null;
      for (const key of KEYS) {
        const { value, change } = items[key];
        const after = text(key, now);
        const prior = was ? text(key, was) : null;
        const moved = prior !== null && prior !== after;
        value.replaceChildren(...(moved ? [h('span', { class: 'before' }, prior), ` ${STRIP_TEXT.arrow} `, h('strong', {}, after)] : [after]));
        value.dataset.value = now[key] === null || now[key] === undefined ? '' : String(now[key]);
        let words = '';
        if (key === 'targets') words = STRIP_TEXT.targetsSplit(now.real_targets, now.pad_targets);
        else if (moved) words = now[key] > was[key] ? STRIP_TEXT.higher : STRIP_TEXT.lower;
        else if (was) words = STRIP_TEXT.same;
        change.textContent = words;
        change.className = `strip-change${moved ? (now[key] > was[key] ? ' up' : ' down') : ''}`;
      }
      for (const r of radios) r.input.checked = (r.mode === 'frozen') === frozen;
      if (maskRow !== null) {
        // No way to the heatmap when the page hides it (an embed's ?hide=attention).
        const show = attentionShown ? h('button', { type: 'button', class: 'secondary small show-attention' }, STRIP_TEXT.showAttention(maskRow)) : null;
        show?.addEventListener('click', () => onShowAttention(maskRow));
        replaceChildren(note, STRIP_TEXT.maskNote, show ? ' ' : null, show);
      } else note.textContent = frozen ? STRIP_TEXT.frozenNote : refitMoved === null ? '' : STRIP_TEXT.refitNote(refitMoved);
      note.hidden = note.textContent === '';
    },
  };
}
