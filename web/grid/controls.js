// controls.js — the token grid page's form: examples typed as text, and every collator option,
// in labelled fieldsets that work with the keyboard alone.
//
//   const controls = createControls(form, { onChange(nextState, how) {...}, onClearEdits, onReset });
//   controls.set(state);                       // write a state into the form
//   controls.showError(error) / controls.clearError()
//
// The form never computes anything; it reads values back into a state object (grid-state.js)
// and hands it to the page. Errors from the core are shown next to the control they name,
// which gets aria-invalid and points at the message with aria-describedby.

import { h, replaceChildren } from '../shared/dom.js';
import { MAX_EXAMPLES, MIN_EXAMPLES } from './grid-state.js';

// Every user-visible string of the form, in one place.
export const CONTROLS_TEXT = {
  examplesLegend: 'Examples',
  examplesHint: 'A built-in word tokenizer splits them and adds <bos> and <eos>.',
  examplesNow: (state) =>
    Array.from({ length: state.n }, (_, i) => {
      const prompt = state[`p${i + 1}`].trim();
      const text = state[`e${i + 1}`].trim();
      return prompt ? `${prompt} → ${text}` : text;
    }).join(' · '),
  exampleLegend: (i) => `Example ${i + 1}`,
  prompt: 'Prompt (optional; masked as ¶ prompt)',
  text: (hasPrompt) => (hasPrompt ? 'Completion (trained)' : 'Text (trained)'),
  addExample: 'Add an example',
  removeExample: 'Remove the last example',
  paddingLegend: 'Padding',
  side: 'padding_side',
  sides: { right: 'right (the training default)', left: 'left (what batched generation wants)' },
  padding: 'padding strategy',
  paddings: { longest: 'longest in the batch', max_length: 'max_length', do_not_pad: 'do not pad' },
  max: 'max_length',
  trunc: 'truncation (cut rows longer than max_length)',
  tside: 'truncation_side',
  tsides: { right: 'right (keep the start)', left: 'left (keep the end)' },
  multiple: 'pad_to_multiple_of',
  multiples: { 0: 'off', 2: '2', 4: '4', 8: '8', 16: '16', 32: '32' },
  tokensLegend: 'Pad token',
  padeos: 'pad == eos (pad_token_id = 2, the id of <eos>)',
  masksLegend: 'Masks',
  mask: 'attention_mask',
  masks: {
    from_lengths: 'from lengths (1 real, 0 pad)',
    all_ones: 'all ones',
    input_ids_ne_pad: 'input_ids != pad_token_id',
  },
  labels: 'labels',
  labelPolicies: {
    mask_padding: 'by position: pads get label_pad_token_id',
    input_ids: 'labels = input_ids (pads trained)',
    mask_pad_id: 'by value: −100 where id == pad id',
  },
  labelpad: 'label_pad_token_id',
  labelpads: { '-100': '−100 (ignored)', 0: '0 (a real token id)' },
  optionsTitle: 'Collator options',
  optionsSummary: (state) =>
    [
      `${state.side} padding`,
      { longest: 'to the longest', max_length: `to max_length ${state.max}`, do_not_pad: 'not padded' }[state.padding],
      { from_lengths: 'mask from lengths', all_ones: 'all-ones mask', input_ids_ne_pad: 'mask = ids ≠ pad' }[state.mask],
      { mask_padding: 'labels by position', input_ids: 'labels = input_ids', mask_pad_id: 'labels by value' }[state.labels],
      state.padeos ? 'pad = eos' : null,
      state.packing === 'none' ? null : `packing ${state.packing}`,
      state.attn,
    ]
      .filter(Boolean)
      .join(' · '),
  packingLegend: 'Packing and positions',
  packing: 'packing',
  packings: {
    none: 'none: one example per row',
    flatten: 'flatten (positions restart)',
    concat_unsafe: 'concatenate (unsafe)',
  },
  pos: 'position_ids',
  positions: { arange: 'arange 0…T−1 (training)', from_mask: 'mask cumsum − 1 (generate)' },
  attnLegend: 'Attention',
  attn: { causal: 'causal (decoder)', bidirectional: 'bidirectional (encoder)' },
  clearEdits: (n) => `Undo my ${n} cell edit${n === 1 ? '' : 's'}`,
  noEdits: 'No cell edits',
  reset: 'Reset everything',
  errorTitle: 'The core refused this batch:',
  errorWhere: (where) => `${where}: `,
  exampleName: (i) => `Example ${i + 1}`,
  editsName: 'Your cell edits',
};

// Maps the core's error field to the control it is about (a state key) and a readable place.
export function locateError(field) {
  const example = /^(?:text_)?features\[(\d+)\]/.exec(field);
  if (example) {
    const i = Number(example[1]);
    return { key: `e${i + 1}`, where: `${CONTROLS_TEXT.exampleName(i)} (${field})` };
  }
  if (field.startsWith('toggle_')) return { key: 'edits', where: `${CONTROLS_TEXT.editsName} (${field})` };
  const byField = {
    max_length: 'max',
    pad_to_multiple_of: 'multiple',
    padding: 'padding',
    padding_side: 'side',
    label_pad_token_id: 'labelpad',
    attention_mask_policy: 'mask',
    label_policy: 'labels',
    packing: 'packing',
    position_ids: 'pos',
    truncation: 'trunc',
  };
  return { key: byField[field] ?? null, where: field };
}

let formCount = 0;

export function createControls(form, { onChange, onClearEdits, onReset }) {
  const prefix = `gc${(formCount += 1)}`;
  const idOf = (key) => `${prefix}-${key}`;
  let state = null;
  const errorBox = h('div', { class: 'control-error', id: idOf('error'), role: 'alert' });
  let invalid = null;

  function select(key, label, choices) {
    return h(
      'div',
      { class: 'control' },
      h('label', { for: idOf(key) }, label),
      h('select', { id: idOf(key), name: key }, Object.entries(choices).map(([value, text]) => h('option', { value }, text))),
    );
  }
  function checkbox(key, label) {
    return h('div', { class: 'control check' }, h('input', { type: 'checkbox', id: idOf(key), name: key }), h('label', { for: idOf(key) }, label));
  }
  function radios(key, legend, choices) {
    return h(
      'fieldset',
      { class: 'radios' },
      h('legend', {}, legend),
      Object.entries(choices).map(([value, text]) =>
        h('div', { class: 'control check' }, h('input', { type: 'radio', id: idOf(`${key}-${value}`), name: key, value }), h('label', { for: idOf(`${key}-${value}`) }, text)),
      ),
    );
  }

  const examples = h('div', { class: 'examples' });
  const addButton = h('button', { type: 'button', class: 'secondary', 'data-action': 'add' }, CONTROLS_TEXT.addExample);
  const removeButton = h('button', { type: 'button', class: 'secondary', 'data-action': 'remove' }, CONTROLS_TEXT.removeExample);
  const clearButton = h('button', { type: 'button', class: 'secondary', id: idOf('edits'), 'data-action': 'clear' }, CONTROLS_TEXT.noEdits);
  const resetButton = h('button', { type: 'button', class: 'secondary', 'data-action': 'reset' }, CONTROLS_TEXT.reset);

  replaceChildren(
    form,
    // Open on wide screens; on a phone the examples fold to one line, so the grid comes first.
    h(
      'details',
      { class: 'examples-box', 'data-panel': 'examples', open: globalThis.matchMedia?.('(min-width: 48rem)').matches ?? true },
      h('summary', {}, h('span', { class: 'options-title' }, CONTROLS_TEXT.examplesLegend), h('span', { class: 'options-now', id: idOf('examples-now') })),
      h('fieldset', { class: 'examples-set' }, h('legend', { class: 'visually-hidden' }, CONTROLS_TEXT.examplesLegend), h('p', { class: 'hint' }, CONTROLS_TEXT.examplesHint), examples, h('div', { class: 'actions' }, addButton, removeButton)),
    ),
    h(
      'details',
      { class: 'options', 'data-panel': 'options' },
      h('summary', {}, h('span', { class: 'options-title' }, CONTROLS_TEXT.optionsTitle), h('span', { class: 'options-now', id: idOf('options-now') })),
      h(
      'div',
      { class: 'option-sets' },
      h(
        'fieldset',
        {},
        h('legend', {}, CONTROLS_TEXT.paddingLegend),
        radios('side', CONTROLS_TEXT.side, CONTROLS_TEXT.sides),
        select('padding', CONTROLS_TEXT.padding, CONTROLS_TEXT.paddings),
        h('div', { class: 'control' }, h('label', { for: idOf('max') }, CONTROLS_TEXT.max), h('input', { type: 'number', id: idOf('max'), name: 'max', min: '1', max: '128', step: '1', inputmode: 'numeric' })),
        checkbox('trunc', CONTROLS_TEXT.trunc),
        select('tside', CONTROLS_TEXT.tside, CONTROLS_TEXT.tsides),
        select('multiple', CONTROLS_TEXT.multiple, CONTROLS_TEXT.multiples),
      ),
      h(
        'fieldset',
        {},
        h('legend', {}, CONTROLS_TEXT.masksLegend),
        select('mask', CONTROLS_TEXT.mask, CONTROLS_TEXT.masks),
        select('labels', CONTROLS_TEXT.labels, CONTROLS_TEXT.labelPolicies),
        select('labelpad', CONTROLS_TEXT.labelpad, CONTROLS_TEXT.labelpads),
        checkbox('padeos', CONTROLS_TEXT.padeos),
      ),
      h(
        'fieldset',
        {},
        h('legend', {}, CONTROLS_TEXT.packingLegend),
        select('packing', CONTROLS_TEXT.packing, CONTROLS_TEXT.packings),
        select('pos', CONTROLS_TEXT.pos, CONTROLS_TEXT.positions),
        radios('attn', CONTROLS_TEXT.attnLegend, CONTROLS_TEXT.attn),
      ),
      ),
    ),
    h('div', { class: 'actions' }, clearButton, resetButton),
    errorBox,
  );

  const control = (key) => form.querySelector(`#${idOf(key)}`);

  function renderExamples() {
    const rows = [];
    for (let i = 0; i < state.n; i += 1) {
      const prompt = state[`p${i + 1}`];
      rows.push(
        h(
          'fieldset',
          { class: 'example' },
          h('legend', {}, CONTROLS_TEXT.exampleLegend(i)),
          h(
            'div',
            { class: 'control' },
            h('label', { for: idOf(`p${i + 1}`) }, CONTROLS_TEXT.prompt),
            h('input', { type: 'text', id: idOf(`p${i + 1}`), name: `p${i + 1}`, value: prompt, autocomplete: 'off', spellcheck: 'false', maxlength: '300' }),
          ),
          h(
            'div',
            { class: 'control' },
            h('label', { for: idOf(`e${i + 1}`), id: idOf(`e${i + 1}-label`) }, CONTROLS_TEXT.text(prompt.trim() !== '')),
            h('input', { type: 'text', id: idOf(`e${i + 1}`), name: `e${i + 1}`, value: state[`e${i + 1}`], autocomplete: 'off', spellcheck: 'false', maxlength: '300' }),
          ),
        ),
      );
    }
    replaceChildren(examples, rows);
    addButton.disabled = state.n >= MAX_EXAMPLES;
    removeButton.disabled = state.n <= MIN_EXAMPLES;
  }

  // Writes `next` into the form. Only values that differ are written: set() runs on every
  // recompute (every grid toggle), and each write would make the browser restyle the form.
  function set(next) {
    const rebuild = !state || state.n !== next.n;
    state = next;
    if (rebuild) renderExamples();
    const write = (el, prop, value) => {
      if (el && el[prop] !== value) el[prop] = value;
    };
    for (let i = 1; i <= state.n; i += 1) {
      for (const key of [`p${i}`, `e${i}`]) write(control(key), 'value', state[key]);
      write(form.querySelector(`#${idOf(`e${i}-label`)}`), 'textContent', CONTROLS_TEXT.text(state[`p${i}`].trim() !== ''));
    }
    for (const key of ['padding', 'tside', 'multiple', 'mask', 'labels', 'labelpad', 'packing', 'pos']) write(control(key), 'value', state[key]);
    if (Number(control('max').value) !== state.max || control('max').value === '') control('max').value = String(state.max);
    write(control('trunc'), 'checked', state.trunc);
    write(control('padeos'), 'checked', state.padeos);
    write(control(`side-${state.side}`), 'checked', true);
    write(control(`attn-${state.attn}`), 'checked', true);
    // max_length only matters with max_length padding or truncation; say so by disabling it.
    write(control('max'), 'disabled', !(state.padding === 'max_length' || state.trunc));
    write(control('tside'), 'disabled', !state.trunc);
    write(form.querySelector(`#${idOf('options-now')}`), 'textContent', CONTROLS_TEXT.optionsSummary(state));
    write(form.querySelector(`#${idOf('examples-now')}`), 'textContent', CONTROLS_TEXT.examplesNow(state));
    const edits = state.tm.length + state.tl.length;
    write(clearButton, 'textContent', edits ? CONTROLS_TEXT.clearEdits(edits) : CONTROLS_TEXT.noEdits);
    write(clearButton, 'disabled', edits === 0);
  }

  function read(name, input) {
    if (/^[pe]\d$/.test(name)) return input.value;
    if (name === 'max') {
      const n = Number(input.value);
      return Number.isInteger(n) && n >= 1 && n <= 128 ? n : null; // null: keep the old value
    }
    if (input.type === 'checkbox') return input.checked;
    return input.value;
  }

  function onInput(event) {
    const input = event.target;
    const name = input.name;
    if (!name || !(name in state)) return;
    const value = read(name, input);
    if (value === null) return;
    if (value === state[name]) return;
    const kind = /^[pe]\d$/.test(name) ? 'text' : 'option';
    onChange({ ...state, [name]: value }, { kind, key: name });
  }
  form.addEventListener('input', onInput);
  form.addEventListener('change', onInput);
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('click', (event) => {
    const action = event.target.closest?.('button[data-action]')?.dataset.action;
    if (action === 'add' && state.n < MAX_EXAMPLES) onChange({ ...state, n: state.n + 1 }, { kind: 'option', key: 'n' });
    if (action === 'remove' && state.n > MIN_EXAMPLES) onChange({ ...state, n: state.n - 1, row: Math.min(state.row, state.n - 2) }, { kind: 'option', key: 'n' });
    if (action === 'clear') onClearEdits();
    if (action === 'reset') onReset();
  });

  function clearError() {
    errorBox.replaceChildren();
    errorBox.hidden = true;
    if (invalid) {
      invalid.removeAttribute('aria-invalid');
      invalid.removeAttribute('aria-describedby');
      invalid = null;
    }
  }

  function showError(error) {
    clearError();
    const { key, where } = locateError(error.field ?? '');
    errorBox.hidden = false;
    errorBox.append(h('strong', {}, CONTROLS_TEXT.errorTitle), ' ', CONTROLS_TEXT.errorWhere(where), error.message);
    const target = key ? control(key) ?? control(`${key}-${state?.[key]}`) : null;
    if (target) {
      const options = target.closest('details');
      if (options) options.open = true; // the named control must be in view
      target.setAttribute('aria-invalid', 'true');
      target.setAttribute('aria-describedby', idOf('error'));
      invalid = target;
    }
  }
  clearError();

  return { set, showError, clearError };
}
