// passage-view.js — the clickable passage: H5P "Mark the Words"' accessibility contract.
//
//   const view = createPassageView(container, exercise, { onToggle(markedSet) {} });
//   view.setMarked(new Set([3, 7]));  view.showResults(unitResults);  view.showSolution(units);
//   view.clearResults();  view.setSelectable(false);  view.focusActive();
//
// One role="listbox" aria-multiselectable="true" per passage; every unit is a role="option" with
// aria-selected and a roving tabindex (one unit is in the tab order). Arrows move (no wrap),
// Home/End jump, Enter/Space toggle — as H5P's keyboard-nav.js. After Check each unit is
// described (aria-describedby) as correct / not a bug / missed, and shows it by glyph and border
// style as well as colour. Code keeps its exact layout (white-space: pre) with a line-number
// gutter. Not here: scoring (scoring.js), the buttons, the URL.

import { h } from '../shared/dom.js';

// Every user-visible string of the passage, in one place.
export const PASSAGE_TEXT = {
  label: (kind) => (kind === 'code' ? 'Code to check: each word is one option' : 'Text to check: each word is one option'),
  help: 'Click a word to mark it; click it again to unmark it. Keyboard: Tab to the passage, arrow keys to move, Enter or Space to mark, Home and End to jump.',
  results: {
    correct: 'marked, part of a bug: correct',
    wrong: 'marked, not a bug: wrong',
    missed: 'not marked, part of a bug you missed',
    solution: 'part of a bug',
  },
};

const GLYPHS = { correct: '✓', wrong: '✗', missed: '○', solution: '●' };

// The key to the marks the passage shows after Check (used by the exercise and practice pages).
export const LEGEND_TEXT = {
  title: 'How the passage shows results',
  items: {
    correct: 'solid border: marked and part of a bug',
    wrong: 'dashed border: marked but not a bug',
    missed: 'dotted border: part of a bug you did not mark',
    solution: 'double border: part of a bug (solution)',
  },
};

// keys: which results to explain, e.g. ['correct', 'wrong', 'missed'] after Check.
export function resultLegend(keys) {
  return h(
    'div',
    { class: 'result-legend' },
    h('p', { class: 'legend-title' }, LEGEND_TEXT.title),
    h(
      'ul',
      {},
      keys.map((key) =>
        h('li', {}, h('span', { class: 'unit sample', dataset: { result: key, glyph: GLYPHS[key] } }, GLYPHS[key]), ' ', LEGEND_TEXT.items[key]),
      ),
    ),
  );
}

let instances = 0;

export function createPassageView(container, exercise, { onToggle = () => {} } = {}) {
  const idBase = `passage-${(instances += 1)}`;
  const units = exercise.passage.units;
  const marked = new Set();
  let selectable = true;
  let active = 0;

  // Hidden descriptions referenced by aria-describedby (read by screen readers, not shown).
  const descriptions = h(
    'div',
    { class: 'visually-hidden' },
    Object.entries(PASSAGE_TEXT.results).map(([key, text]) => h('span', { id: `${idBase}-${key}` }, text)),
  );
  const help = h('p', { id: `${idBase}-help`, class: 'passage-help' }, PASSAGE_TEXT.help);

  const options = units.map((unit, i) =>
    h('span', { role: 'option', class: 'unit', id: `${idBase}-u${i}`, 'aria-selected': 'false', tabindex: i === 0 ? '0' : '-1', dataset: { index: String(i) } }, unit.text),
  );
  const listbox = h(
    'div',
    {
      role: 'listbox',
      'aria-multiselectable': 'true',
      'aria-label': PASSAGE_TEXT.label(exercise.kind),
      'aria-describedby': `${idBase}-help`,
      class: `passage ${exercise.kind === 'code' ? 'code' : 'prose'}`,
    },
    exercise.passage.lead,
    options.flatMap((option, i) => [option, units[i].ws]),
  );
  const gutter =
    exercise.kind === 'code'
      ? h('div', { class: 'gutter', 'aria-hidden': 'true' }, Array.from({ length: exercise.passage.line_count }, (_, i) => `${i + 1}\n`).join(''))
      : null;
  const frame = h('div', { class: `passage-frame ${exercise.kind === 'code' ? 'code' : 'prose'}` }, gutter, listbox);
  container.append(help, frame, descriptions);

  function setActive(i, { focus = true } = {}) {
    const next = Math.max(0, Math.min(options.length - 1, i));
    options[active].tabIndex = -1;
    active = next;
    options[active].tabIndex = 0;
    if (focus) {
      options[active].focus();
      options[active].scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }

  function render(i) {
    options[i].setAttribute('aria-selected', marked.has(i) ? 'true' : 'false');
  }

  function toggle(i) {
    if (!selectable) return;
    if (marked.has(i)) marked.delete(i);
    else marked.add(i);
    render(i);
    onToggle(new Set(marked));
  }

  listbox.addEventListener('click', (event) => {
    const option = event.target.closest('[role="option"]');
    if (!option) return;
    const i = Number(option.dataset.index);
    setActive(i, { focus: true });
    toggle(i);
  });

  listbox.addEventListener('keydown', (event) => {
    const option = event.target.closest('[role="option"]');
    if (!option) return;
    const i = Number(option.dataset.index);
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        setActive(i + 1);
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        setActive(i - 1);
        break;
      case 'Home':
        setActive(0);
        break;
      case 'End':
        setActive(options.length - 1);
        break;
      case 'Enter':
      case ' ':
        toggle(i);
        break;
      default:
        return;
    }
    event.preventDefault();
  });

  function clearResults() {
    for (const option of options) {
      delete option.dataset.result;
      delete option.dataset.glyph;
      option.removeAttribute('aria-describedby');
    }
  }

  // The glyph badge goes on the first word of a run (a missed three-word bug gets one ○, not three).
  function setResult(i, result) {
    options[i].dataset.result = result;
    const sameRun = i > 0 && options[i - 1].dataset.result === result && units[i - 1].error !== null && units[i - 1].error === units[i].error;
    if (!sameRun) options[i].dataset.glyph = GLYPHS[result];
    options[i].setAttribute('aria-describedby', `${idBase}-${result}`);
  }

  return {
    listbox,
    getMarked: () => new Set(marked),
    setMarked(next) {
      marked.clear();
      for (const i of next) if (i >= 0 && i < options.length) marked.add(i);
      options.forEach((_, i) => render(i));
    },
    setSelectable(value) {
      selectable = value;
      listbox.classList.toggle('locked', !value);
      if (value) listbox.removeAttribute('aria-readonly');
      else listbox.setAttribute('aria-readonly', 'true');
    },
    showResults(unitResults) {
      clearResults();
      for (const [i, result] of [...unitResults].sort((a, b) => a[0] - b[0])) setResult(i, result);
    },
    showSolution(solution) {
      clearResults();
      marked.clear();
      options.forEach((_, i) => {
        if (solution.has(i)) {
          marked.add(i);
          setResult(i, 'solution');
        }
        render(i);
      });
    },
    clearResults,
    focusActive: () => setActive(active),
    focusFirstMarked() {
      const first = options.findIndex((o) => o.dataset.result);
      setActive(first >= 0 ? first : 0);
    },
  };
}
