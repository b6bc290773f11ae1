// slider.js — a labelled range input with its value printed next to it (and spoken through
// aria-valuetext), the control every lab panel uses for counts and confidences.
//
//   const s = slider({ id, label, min, max, step, value, format, onInput });
//   form.append(s.element);  s.set(3);
//
// Keyboard: arrows, Page Up/Down, Home/End (native range input). Not here: any state.

import { h } from '../shared/dom.js';

export function slider({ id, label, min, max, step = 1, value, format = String, onInput }) {
  const input = h('input', { type: 'range', id, name: id, min: String(min), max: String(max), step: String(step) });
  const output = h('output', { for: id, class: 'slider-value' });
  function set(v) {
    input.value = String(v);
    output.textContent = format(v);
    input.setAttribute('aria-valuetext', format(v));
  }
  input.addEventListener('input', () => {
    const v = Number(input.value);
    output.textContent = format(v);
    input.setAttribute('aria-valuetext', format(v));
    onInput(v);
  });
  set(value);
  return { element: h('div', { class: 'slider' }, h('label', { for: id }, label), h('div', { class: 'slider-row' }, input, output)), set, input };
}
