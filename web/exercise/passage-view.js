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
// style as well as colour; the words of one multi-word part are marked once, as one box (a run).
// Code keeps its exact layout, one block per line with its number beside it, so lines can wrap
// ("Wrap long lines", on by default on narrow screens) and the numbers still belong to their
// lines. Every word has a hit area of at least 24 × 24 px (exercise.css), "=" included.
// Not here: scoring (scoring.js), the buttons, the URL.

import { h } from '../shared/dom.js';

// Every user-visible string of the passage, in one place.
export const PASSAGE_TEXT = {
  label: (kind) => (kind === 'code' ? 'Code to check: each word is one option' : 'Text to check: each word is one option'),
  wrap: 'Wrap long lines',
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

// A code passage as one block per line: <span class="line"> holding the indentation, the words
// (options) and the spaces between them; the line number is CSS (a counter, hidden from screen
// readers). A unit's whitespace that holds line breaks ends its line and starts the next ones.
function codeLines(lead, units, options) {
  const lines = [];
  let line = h('span', { class: 'line' });
  const pushText = (text) => {
    const parts = text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) {
        lines.push(line);
        line = h('span', { class: 'line' });
      }
      if (part) line.append(part);
    });
  };
  pushText(lead);
  options.forEach((option, i) => {
    line.append(option);
    pushText(units[i].ws);
  });
  lines.push(line);
  return lines;
}

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
  const isCode = exercise.kind === 'code';
  const listbox = h('div', {
    role: 'listbox',
    'aria-multiselectable': 'true',
    'aria-label': PASSAGE_TEXT.label(exercise.kind),
    'aria-describedby': `${idBase}-help`,
    class: `passage ${isCode ? 'code' : 'prose'}`,
  });
  if (isCode) listbox.append(...codeLines(exercise.passage.lead, units, options));
  else listbox.append(exercise.passage.lead, ...options.flatMap((option, i) => [option, units[i].ws]));
  const frame = h('div', { class: `passage-frame ${isCode ? 'code' : 'prose'}` }, listbox);
  let wrapToggle = null;
  if (isCode) {
    // Wrapping is offered where it matters: on by default when the screen is narrow.
    const narrow = globalThis.matchMedia?.('(max-width: 40rem)').matches ?? false;
    const checkbox = h('input', { type: 'checkbox', id: `${idBase}-wrap`, checked: narrow });
    frame.classList.toggle('wrap', narrow);
    checkbox.addEventListener('change', () => frame.classList.toggle('wrap', checkbox.checked));
    wrapToggle = h('p', { class: 'wrap-toggle' }, checkbox, h('label', { for: `${idBase}-wrap` }, PASSAGE_TEXT.wrap));
  }
  container.append(help, wrapToggle, frame, descriptions);

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

  // Runs: the words of one part with the same result, next to each other on one line, are
  // wrapped (with the spaces between them) in one <span class="unit-run"> that carries the box,
  // so a three-word bug is one mark, not three. Undone by clearResults().
  let runs = [];
  function unwrapRuns() {
    for (const run of runs) {
      run.replaceWith(...run.childNodes);
    }
    runs = [];
  }
  function wrapRuns() {
    let i = 0;
    while (i < options.length) {
      const result = options[i].dataset.result;
      let j = i;
      while (
        result &&
        j + 1 < options.length &&
        options[j + 1].dataset.result === result &&
        units[j].error !== null &&
        units[j + 1].error === units[j].error &&
        options[j + 1].parentNode === options[i].parentNode &&
        !units[j].ws.includes('\n')
      )
        j += 1;
      if (j > i) {
        const run = h('span', { class: 'unit-run', dataset: { result, glyph: GLYPHS[result] } });
        options[i].before(run);
        for (let node = options[i]; node; ) {
          const next = node.nextSibling;
          run.append(node);
          if (node === options[j]) break;
          node = next;
        }
        for (let k = i; k <= j; k += 1) options[k].classList.add('in-run');
        delete options[i].dataset.glyph; // the run carries the badge
        runs.push(run);
      }
      i = j + 1;
    }
  }

  function clearResults() {
    unwrapRuns();
    for (const option of options) {
      delete option.dataset.result;
      delete option.dataset.glyph;
      option.classList.remove('in-run');
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
      wrapRuns();
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
      wrapRuns();
    },
    clearResults,
    focusActive: () => setActive(active),
    focusFirstMarked() {
      const first = options.findIndex((o) => o.dataset.result);
      setActive(first >= 0 ? first : 0);
    },
  };
}
