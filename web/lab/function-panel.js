// function-panel.js — panel 1 of the normalization lab: y = a·x². The learner sets a and x,
// types a prediction for y and for the slope dy/dx, and presses Inspect to see y, dy/dx and
// dy/da with a verdict on each prediction. Reset puts a = 1, x = 1 back and clears everything.
// Two guided steps (a = 1, x = 1; then a = 0.5) mark themselves done as the learner does them.
//
//   createFunctionPanel(section, { state, onState(partialState) })
//
// The arithmetic is the lab's function itself (quadratic.js), not a masking number.
// Not here: the loss panels (mean-panel.js, accumulation-panel.js).

import { h, replaceChildren } from '../shared/dom.js';
import { QUADRATIC, isClose, parseNumber } from './quadratic.js';

// Every user-visible string of the panel, in one place.
export const FUNCTION_TEXT = {
  stepsTitle: 'Guided steps',
  steps: [
    { a: 1, x: 1, text: 'Set a = 1 and x = 1. Predict y and the slope dy/dx, then press Inspect.' },
    { a: 0.5, x: 1, text: 'Press Reset, set a = 0.5 and keep x = 1. Predict again, then Inspect.' },
  ],
  stepPending: 'not done yet',
  stepRight: 'done, both predictions right',
  stepChecked: 'done; compare your predictions with the answers below',
  stepOutcome: (y, dydx, dyda) => `y = ${y}, dy/dx = ${dydx} (dy/da = ${dyda})`,
  afterBoth:
    'Halving a halved y and halved the slope dy/dx, while dy/da stayed the same: a constant scale on an objective scales its gradient by the same factor.',
  inputsLegend: 'Inputs',
  a: 'a (the scale)',
  x: 'x (the parameter)',
  predictionsLegend: 'Your predictions',
  py: 'y',
  pdx: 'slope dy/dx',
  inspect: 'Inspect',
  reset: 'Reset',
  notANumber: (name, text) => `${name}: “${text}” is not a number. Type a decimal like 0.5 or a fraction like 1/2.`,
  needInputs: 'Set both a and x to numbers first.',
  resultTitle: 'What y = a·x² gives',
  results: { y: 'y = a·x²', dydx: 'dy/dx = 2·a·x', dyda: 'dy/da = x²' },
  right: (said) => `✓ right (you said ${said})`,
  wrong: (said) => `✗ not quite: you said ${said}`,
  none: '– no prediction',
  notPredicted: 'shown for comparison',
  resetDone: 'Reset: a = 1, x = 1, predictions cleared.',
};

function show(n) {
  // Enough digits for anything the learner types, without float noise like 0.30000000000000004.
  return String(Number(n.toPrecision(12)));
}

let panelCount = 0;

export function createFunctionPanel(section, { state, onState }) {
  const n = (panelCount += 1);
  const id = (key) => `fn${n}-${key}`;
  const done = new Map(); // step index -> { right }

  const field = (key, label, value) =>
    h(
      'div',
      { class: 'control' },
      h('label', { for: id(key) }, label),
      h('input', { type: 'text', id: id(key), name: key, value, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', size: '10' }),
    );

  const stepsList = h('ol', { class: 'guided-steps' });
  const afterBoth = h('p', { class: 'note-box', hidden: true }, FUNCTION_TEXT.afterBoth);
  const error = h('p', { class: 'control-error', id: id('error'), role: 'alert', hidden: true });
  const result = h('div', { class: 'fn-result', 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'fn-form', novalidate: true },
    h('fieldset', {}, h('legend', {}, FUNCTION_TEXT.inputsLegend), field('a', FUNCTION_TEXT.a, String(state.a)), field('x', FUNCTION_TEXT.x, String(state.x))),
    h('fieldset', {}, h('legend', {}, FUNCTION_TEXT.predictionsLegend), field('py', FUNCTION_TEXT.py, state.py), field('pdx', FUNCTION_TEXT.pdx, state.pdx)),
    h('div', { class: 'actions' }, h('button', { type: 'submit', id: id('inspect') }, FUNCTION_TEXT.inspect), h('button', { type: 'button', class: 'secondary', id: id('reset') }, FUNCTION_TEXT.reset)),
    error,
  );
  const input = (key) => form.querySelector(`#${id(key)}`);

  section.append(h('h3', {}, FUNCTION_TEXT.stepsTitle), stepsList, form, result, afterBoth);

  function renderSteps() {
    replaceChildren(
      stepsList,
      FUNCTION_TEXT.steps.map((step, i) => {
        const status = done.get(i);
        const a = step.a;
        const x = step.x;
        return h(
          'li',
          { class: status ? (status.right ? 'step-right' : 'step-checked') : 'step-pending', dataset: { step: String(i + 1) } },
          h('span', { class: 'step-text' }, step.text),
          ' ',
          h('span', { class: 'step-status' }, status ? (status.right ? `✓ ${FUNCTION_TEXT.stepRight}` : `● ${FUNCTION_TEXT.stepChecked}`) : `○ ${FUNCTION_TEXT.stepPending}`),
          status ? h('span', { class: 'step-outcome' }, FUNCTION_TEXT.stepOutcome(show(QUADRATIC.value(a, x)), show(QUADRATIC.dydx(a, x)), show(QUADRATIC.dyda(a, x)))) : null,
        );
      }),
    );
    afterBoth.hidden = !(done.has(0) && done.has(1));
  }

  function fail(message, key) {
    error.hidden = false;
    error.textContent = message;
    for (const k of ['a', 'x', 'py', 'pdx']) {
      input(k).removeAttribute('aria-invalid');
      input(k).removeAttribute('aria-describedby');
    }
    if (key) {
      input(key).setAttribute('aria-invalid', 'true');
      input(key).setAttribute('aria-describedby', error.id);
    }
  }

  function verdict(text, actual) {
    if (text.trim() === '') return { text: FUNCTION_TEXT.none, right: false, given: false };
    const p = parseNumber(text);
    if (p === null) return null;
    return isClose(p, actual) ? { text: FUNCTION_TEXT.right(text.trim()), right: true, given: true } : { text: FUNCTION_TEXT.wrong(text.trim()), right: false, given: true };
  }

  function inspect() {
    error.hidden = true;
    const names = { a: FUNCTION_TEXT.a, x: FUNCTION_TEXT.x, py: FUNCTION_TEXT.py, pdx: FUNCTION_TEXT.pdx };
    const a = parseNumber(input('a').value);
    const x = parseNumber(input('x').value);
    for (const [key, value] of [['a', a], ['x', x]]) if (value === null) return fail(FUNCTION_TEXT.notANumber(names[key], input(key).value), key);
    const y = QUADRATIC.value(a, x);
    const dydx = QUADRATIC.dydx(a, x);
    const dyda = QUADRATIC.dyda(a, x);
    const vy = verdict(input('py').value, y);
    const vdx = verdict(input('pdx').value, dydx);
    if (!vy) return fail(FUNCTION_TEXT.notANumber(names.py, input('py').value), 'py');
    if (!vdx) return fail(FUNCTION_TEXT.notANumber(names.pdx, input('pdx').value), 'pdx');
    for (const k of ['a', 'x', 'py', 'pdx']) {
      input(k).removeAttribute('aria-invalid');
      input(k).removeAttribute('aria-describedby');
    }

    const row = (key, value, v) =>
      h(
        'div',
        { dataset: { result: key } },
        h('dt', {}, FUNCTION_TEXT.results[key]),
        h('dd', { class: 'value', dataset: { value: String(value) } }, show(value)),
        h('dd', { class: v ? (v.right ? 'verdict right' : v.given ? 'verdict wrong' : 'verdict') : 'verdict' }, v ? v.text : FUNCTION_TEXT.notPredicted),
      );
    replaceChildren(result, h('h3', {}, FUNCTION_TEXT.resultTitle), h('dl', { class: 'figures fn-figures' }, row('y', y, vy), row('dydx', dydx, vdx), row('dyda', dyda, null)));

    FUNCTION_TEXT.steps.forEach((step, i) => {
      if (step.a === a && step.x === x) done.set(i, { right: vy.right && vdx.right });
    });
    renderSteps();
    onState({ a, x, py: input('py').value.trim(), pdx: input('pdx').value.trim() });
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    inspect();
  });
  form.addEventListener('input', (event) => {
    // Keep the URL in step with valid inputs; a half-typed number is simply not written.
    const key = event.target.name;
    if (key === 'a' || key === 'x') {
      const value = parseNumber(event.target.value);
      if (value !== null) onState({ [key]: value });
    } else if (key === 'py' || key === 'pdx') onState({ [key]: event.target.value.trim() });
  });
  input('reset').addEventListener('click', () => {
    input('a').value = '1';
    input('x').value = '1';
    input('py').value = '';
    input('pdx').value = '';
    error.hidden = true;
    replaceChildren(result, h('p', { class: 'status' }, FUNCTION_TEXT.resetDone));
    onState({ a: 1, x: 1, py: '', pdx: '' });
    input('a').focus();
  });

  renderSteps();
}
