// function-panel.js — panel 1 of the normalization lab: y = a·x². The learner sets a and x,
// types a prediction for y and for the slope dy/dx, and presses Inspect to see y, dy/dx and
// dy/da with a verdict on each prediction, and the picture: the parabola with the tangent at x
// (parabola.js). Reset puts a = 1, x = 1 back and clears everything. Two guided steps (a = 1,
// x = 1; then a = 0.5) mark themselves done as the learner does them.
//
//   createFunctionPanel(section, { state, onState(partialState) })
//
// A result always belongs to the inputs on screen: editing a or x, or an input that is not a
// number, clears the verdicts and the picture's claim ("press Inspect"), and any status line
// ("Reset: …") goes as soon as the learner types. Variables are set apart from the prose
// (<var>), so "a" is never read as the article. The arithmetic is the lab's function itself
// (quadratic.js), not a masking number. Not here: the loss panels.

import { h, replaceChildren } from '../shared/dom.js';
import { createParabola } from './parabola.js';
import { QUADRATIC, isClose, parseNumber } from './quadratic.js';

// Prose with variables: strings, and { v: 'a' } for a variable (rendered as <var>).
const V = (name) => ({ v: name });

// Every user-visible string of the panel, in one place.
export const FUNCTION_TEXT = {
  stepsTitle: 'Guided steps',
  steps: [
    { a: 1, x: 1, text: ['Set ', V('a'), ' = 1 and ', V('x'), ' = 1. Predict ', V('y'), ' and the slope ', V('dy/dx'), ', then press Inspect.'] },
    { a: 0.5, x: 1, text: ['Press Reset, set ', V('a'), ' = 0.5 and keep ', V('x'), ' = 1. Predict again, then Inspect.'] },
  ],
  stepPending: 'not done yet',
  stepRight: 'done, both predictions right',
  stepChecked: 'done; compare your predictions with the answers below',
  stepOutcome: (y, dydx, dyda) => `y = ${y}, dy/dx = ${dydx} (dy/da = ${dyda})`,
  afterBoth: ['Halving ', V('a'), ' halved ', V('y'), ' and halved the slope ', V('dy/dx'), ', while ', V('dy/da'), ' stayed the same: a constant scale on an objective scales its gradient by the same factor.'],
  inputsLegend: 'Inputs',
  a: [V('a'), ' (the scale)'],
  x: [V('x'), ' (the parameter)'],
  predictionsLegend: 'Your predictions',
  py: [V('y')],
  pdx: ['slope ', V('dy/dx')],
  names: { a: 'a', x: 'x', py: 'y', pdx: 'dy/dx' },
  inspect: 'Inspect',
  reset: 'Reset',
  notANumber: (name, text) => `${name}: “${text}” is not a number. Type a decimal like 0.5 or a fraction like 1/2.`,
  resultTitle: (a, x) => `What y = a·x² gives at a = ${a}, x = ${x}`,
  results: { y: [V('y'), ' = ', V('a'), '·', V('x'), '²'], dydx: [V('dy/dx'), ' = 2·', V('a'), '·', V('x')], dyda: [V('dy/da'), ' = ', V('x'), '²'] },
  help: {
    y: ['the objective at this ', V('x')],
    dydx: ['the slope a gradient step on ', V('x'), ' follows: the tangent in the picture'],
    dyda: ['how ', V('y'), ' changes if the scale ', V('a'), ' changes, ', V('x'), ' fixed. It does not depend on ', V('a'), ', so halving ', V('a'), ' leaves it as it is. Training steps ', V('x'), ', never ', V('a'), '.'],
  },
  right: (said) => `✓ matches your ${said}`,
  wrong: (said) => `✗ you said ${said}`,
  none: 'no prediction',
  notPredicted: 'shown for comparison',
  resetDone: 'Reset: a = 1, x = 1, predictions cleared.',
  stale: 'The inputs changed: press Inspect for this a and x.',
  pictureTitle: 'The picture',
};

function prose(parts) {
  return parts.map((p) => (typeof p === 'string' ? p : h('var', {}, p.v)));
}

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
      h('label', { for: id(key) }, prose(label)),
      h('input', { type: 'text', id: id(key), name: key, value, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', size: '10' }),
    );

  const stepsList = h('ol', { class: 'guided-steps' });
  const afterBoth = h('p', { class: 'note-box', hidden: true }, prose(FUNCTION_TEXT.afterBoth));
  const error = h('p', { class: 'control-error', id: id('error'), role: 'alert', hidden: true });
  const note = h('p', { class: 'status fn-note', role: 'status' });
  const result = h('div', { class: 'fn-result', 'aria-live': 'polite' });
  const pictureBox = h('figure', { class: 'fn-picture' });
  const picture = createParabola(pictureBox);
  const form = h(
    'form',
    { class: 'fn-form', novalidate: true },
    h('fieldset', {}, h('legend', {}, FUNCTION_TEXT.inputsLegend), field('a', FUNCTION_TEXT.a, String(state.a)), field('x', FUNCTION_TEXT.x, String(state.x))),
    h('fieldset', {}, h('legend', {}, FUNCTION_TEXT.predictionsLegend), field('py', FUNCTION_TEXT.py, state.py), field('pdx', FUNCTION_TEXT.pdx, state.pdx)),
    h('div', { class: 'actions' }, h('button', { type: 'submit', id: id('inspect') }, FUNCTION_TEXT.inspect), h('button', { type: 'button', class: 'secondary', id: id('reset') }, FUNCTION_TEXT.reset)),
    error,
    note,
  );
  const input = (key) => form.querySelector(`#${id(key)}`);

  section.append(h('h3', {}, FUNCTION_TEXT.stepsTitle), stepsList, h('div', { class: 'fn-work' }, h('div', { class: 'fn-inputs' }, form, result), pictureBox), afterBoth);

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
          h('span', { class: 'step-text' }, prose(step.text)),
          ' ',
          h('span', { class: 'step-status' }, status ? (status.right ? `✓ ${FUNCTION_TEXT.stepRight}` : `● ${FUNCTION_TEXT.stepChecked}`) : `○ ${FUNCTION_TEXT.stepPending}`),
          status ? h('span', { class: 'step-outcome' }, FUNCTION_TEXT.stepOutcome(show(QUADRATIC.value(a, x)), show(QUADRATIC.dydx(a, x)), show(QUADRATIC.dyda(a, x)))) : null,
        );
      }),
    );
    afterBoth.hidden = !(done.has(0) && done.has(1));
  }

  function clearInvalid() {
    for (const k of ['a', 'x', 'py', 'pdx']) {
      input(k).removeAttribute('aria-invalid');
      input(k).removeAttribute('aria-describedby');
    }
  }

  // The result on screen no longer matches the inputs: take it away, say why.
  function clearResult(message = '') {
    replaceChildren(result);
    picture.clear();
    note.textContent = message;
  }

  function fail(message, key) {
    clearResult();
    error.hidden = false;
    error.textContent = message;
    clearInvalid();
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
    note.textContent = '';
    const a = parseNumber(input('a').value);
    const x = parseNumber(input('x').value);
    for (const [key, value] of [['a', a], ['x', x]]) if (value === null) return fail(FUNCTION_TEXT.notANumber(FUNCTION_TEXT.names[key], input(key).value), key);
    const y = QUADRATIC.value(a, x);
    const dydx = QUADRATIC.dydx(a, x);
    const dyda = QUADRATIC.dyda(a, x);
    const vy = verdict(input('py').value, y);
    const vdx = verdict(input('pdx').value, dydx);
    if (!vy) return fail(FUNCTION_TEXT.notANumber(FUNCTION_TEXT.names.py, input('py').value), 'py');
    if (!vdx) return fail(FUNCTION_TEXT.notANumber(FUNCTION_TEXT.names.pdx, input('pdx').value), 'pdx');
    clearInvalid();

    const row = (key, value, v) =>
      h(
        'div',
        { dataset: { result: key } },
        h('dt', {}, prose(FUNCTION_TEXT.results[key])),
        h('dd', { class: 'value', dataset: { value: String(value) } }, show(value)),
        h('dd', { class: v ? (v.right ? 'verdict right' : v.given ? 'verdict wrong' : 'verdict') : 'verdict' }, v ? v.text : FUNCTION_TEXT.notPredicted),
        h('dd', { class: 'figure-help' }, prose(FUNCTION_TEXT.help[key])),
      );
    replaceChildren(result, h('h3', {}, FUNCTION_TEXT.resultTitle(show(a), show(x))), h('dl', { class: 'figures fn-figures' }, row('y', y, vy), row('dydx', dydx, vdx), row('dyda', dyda, null)));
    picture.draw({ a, x });

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
    const key = event.target.name;
    // Whatever was shown belongs to the old inputs: clear it (a prediction edit keeps the
    // numbers but not the verdicts, which were about the old prediction).
    if (result.childElementCount) clearResult(FUNCTION_TEXT.stale);
    else if (note.textContent === FUNCTION_TEXT.resetDone) note.textContent = '';
    error.hidden = true;
    clearInvalid();
    // Keep the URL in step with valid inputs; a half-typed number is simply not written.
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
    clearInvalid();
    clearResult(FUNCTION_TEXT.resetDone);
    onState({ a: 1, x: 1, py: '', pdx: '' });
    input('a').focus();
  });

  renderSteps();
}
