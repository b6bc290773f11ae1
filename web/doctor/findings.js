// findings.js — the doctor's findings as a list: severity (a word and a glyph, not a colour
// alone), the core's message and fix as text, where (rows and positions, printed indices), a
// button that shows the cells in the grid, and a link to the exercise that teaches the bug.
//
//   renderFindings(list, answer, { exerciseTitle, onShow, selected })
//   verdictText(answer) -> "2 errors, 1 warning and 1 note" / "No problems found…"
//
// Everything shown comes from the core's answer; this file only lays it out. Not here: the grid
// (batch-view.js) or the figures (figures.js).

import { h, replaceChildren } from '../shared/dom.js';

// Every user-visible string of the findings list, in one place.
export const FINDINGS_TEXT = {
  severity: {
    error: { glyph: '✖', word: 'Error' },
    warning: { glyph: '▲', word: 'Warning' },
    info: { glyph: 'ℹ', word: 'Note' },
  },
  count: (n, one, many) => `${n} ${n === 1 ? one : many}`,
  clean: (ran) => `No problems found: the ${ran} checks that could run found nothing wrong.`,
  cleanWithNotes: (ran, notes) => `No problems found by the ${ran} checks that could run; ${notes} below.`,
  found: (parts) => `Found ${parts}.`,
  where: 'Where',
  rows: (rows) => (rows.length === 1 ? `row ${rows[0]}` : `rows ${listed(rows)}`),
  cells: (cells) => cells.map(([r, p]) => `(${r}, ${p})`).join(', '),
  fix: 'Fix',
  show: 'Show in the grid',
  shown: 'Shown in the grid',
  exercise: (title) => `Exercise: ${title}`,
};

function listed(values, shown = 8) {
  if (values.length <= shown) return values.length === 1 ? String(values[0]) : `${values.slice(0, -1).join(', ')} and ${values.at(-1)}`;
  return `${values.slice(0, shown).join(', ')} and ${values.length - shown} more`;
}

export function verdictText(answer) {
  const count = { error: 0, warning: 0, info: 0 };
  for (const f of answer.findings) count[f.severity] += 1;
  const ran = answer.checks_run.length;
  if (!count.error && !count.warning) {
    return count.info ? FINDINGS_TEXT.cleanWithNotes(ran, FINDINGS_TEXT.count(count.info, 'note', 'notes')) : FINDINGS_TEXT.clean(ran);
  }
  const parts = [
    count.error && FINDINGS_TEXT.count(count.error, 'error', 'errors'),
    count.warning && FINDINGS_TEXT.count(count.warning, 'warning', 'warnings'),
    count.info && FINDINGS_TEXT.count(count.info, 'note', 'notes'),
  ].filter(Boolean);
  return FINDINGS_TEXT.found(parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0]);
}

export function verdictLevel(answer) {
  if (answer.findings.some((f) => f.severity === 'error')) return 'error';
  if (answer.findings.some((f) => f.severity === 'warning')) return 'warning';
  return 'clean';
}

export function renderFindings(list, answer, { exerciseTitle = () => null, onShow, selected = -1 }) {
  const items = answer.findings.map((f, i) => {
    const severity = FINDINGS_TEXT.severity[f.severity];
    const title = f.exercise ? exerciseTitle(f.exercise) : null;
    const where = [];
    if (f.rows.length) where.push(FINDINGS_TEXT.rows(f.rows));
    const showable = f.positions.length > 0 || f.rows.length > 0;
    return h(
      'li',
      { class: `finding severity-${f.severity}${i === selected ? ' selected' : ''}`, dataset: { finding: f.id, index: String(i) } },
      h(
        'p',
        { class: 'finding-head' },
        h('span', { class: `badge ${f.severity}` }, h('span', { 'aria-hidden': 'true' }, `${severity.glyph} `), severity.word),
        ' ',
        h('code', { class: 'finding-id' }, f.id),
      ),
      h('p', { class: 'finding-message' }, f.message),
      where.length || f.positions.length
        ? h(
            'p',
            { class: 'finding-where' },
            h('strong', {}, `${FINDINGS_TEXT.where}: `),
            where.join(''),
            f.positions.length ? `${where.length ? '; ' : ''}[row, position] ${FINDINGS_TEXT.cells(f.positions.slice(0, 12))}${f.positions.length > 12 ? ', …' : ''}` : '',
          )
        : null,
      h('p', { class: 'finding-fix' }, h('strong', {}, `${FINDINGS_TEXT.fix}: `), f.fix),
      h(
        'p',
        { class: 'finding-actions' },
        showable
          ? h(
              'button',
              { type: 'button', class: 'secondary show-cells', 'aria-pressed': i === selected ? 'true' : 'false', onclick: () => onShow?.(i) },
              i === selected ? FINDINGS_TEXT.shown : FINDINGS_TEXT.show,
            )
          : null,
        title ? h('a', { class: 'exercise-link', href: `./exercise.html?ex=${encodeURIComponent(f.exercise)}` }, FINDINGS_TEXT.exercise(title)) : null,
      ),
    );
  });
  replaceChildren(list, items);
}
