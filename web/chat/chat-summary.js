// chat-summary.js — what the core said about one conversation, in words and numbers: the totals
// (tokens, trained, ignored by reason), a table per message (tokens, trained, ignored, end-of-turn
// trained?) and the warnings, each with a button that marks and focuses the tokens it names.
//
//   const summary = createChatSummary({ figures, turns, warnings }, { onShow(positions) {} });
//   summary.update(chat, answer);
//
// Numbers come from the core's answer; nothing is counted here.

import { h, replaceChildren } from '../shared/dom.js';

export const SUMMARY_TEXT = {
  tokens: 'Tokens',
  trained: 'Trained tokens',
  ignored: 'Labels −100',
  truncated: 'Cut by max_length',
  turnsCaption: 'Per message: tokens, trained tokens and the end-of-turn token',
  columns: ['Message', 'Role', 'Tokens', 'Trained', '−100', 'End-of-turn trained'],
  yes: '✓ yes',
  no: '✗ no',
  none: '—',
  notRendered: 'not in the render',
  noWarnings: 'No warnings: every assistant turn is trained, its end-of-turn token included, and the template renders the same history at every turn.',
  severity: { error: 'Error', warning: 'Warning', info: 'Note' },
  show: (n) => `Show ${n === 1 ? 'the token' : `the ${n} tokens`}`,
  ignoredBy: 'Labels −100 by reason',
  notes: 'How the role spans were found',
};

export function createChatSummary({ figures, turns, warnings, notes }, { onShow = () => {}, reasons = {} } = {}) {
  function updateFigures(answer) {
    const items = [
      [SUMMARY_TEXT.tokens, answer.input_ids.length],
      [SUMMARY_TEXT.trained, answer.trained_tokens],
      [SUMMARY_TEXT.ignored, answer.ignored_tokens],
    ];
    if (answer.truncated_tokens) items.push([SUMMARY_TEXT.truncated, answer.truncated_tokens]);
    const byReason = Object.entries(answer.ignored).map(([r, n]) => `${reasons[r] ?? r} ${n}`).join(' · ');
    replaceChildren(
      figures,
      h('dl', { class: 'figures' }, items.map(([dt, dd]) => h('div', {}, h('dt', {}, dt), h('dd', {}, String(dd))))),
      byReason ? h('p', { class: 'by-reason' }, h('span', { class: 'muted' }, `${SUMMARY_TEXT.ignoredBy}: `), byReason) : null,
    );
  }

  function updateTurns(chat, answer) {
    const rows = answer.turns.map((turn) => {
      const rendered = chat.messages[turn.message].content !== null;
      const eot = turn.end_of_turn_trained === null ? SUMMARY_TEXT.none : turn.end_of_turn_trained ? SUMMARY_TEXT.yes : SUMMARY_TEXT.no;
      return h(
        'tr',
        { class: turn.role === 'assistant' && turn.trained === 0 && rendered ? 'untrained' : undefined },
        h('th', { scope: 'row' }, String(turn.message + 1)),
        h('td', {}, turn.role),
        h('td', {}, rendered ? String(turn.tokens) : SUMMARY_TEXT.notRendered),
        h('td', {}, String(turn.trained)),
        h('td', {}, String(turn.ignored)),
        h('td', {}, eot),
      );
    });
    replaceChildren(
      turns,
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'turn-table' },
          h('caption', {}, SUMMARY_TEXT.turnsCaption),
          h('thead', {}, h('tr', {}, SUMMARY_TEXT.columns.map((c) => h('th', { scope: 'col' }, c)))),
          h('tbody', {}, rows),
        ),
      ),
    );
  }

  function updateWarnings(answer) {
    if (!answer.warnings.length) {
      replaceChildren(warnings, h('p', { class: 'no-warnings' }, SUMMARY_TEXT.noWarnings));
      return;
    }
    replaceChildren(
      warnings,
      h(
        'ul',
        { class: 'warning-list' },
        answer.warnings.map((w) =>
          h(
            'li',
            { class: `warning ${w.severity}`, dataset: { id: w.id } },
            h('span', { class: 'severity' }, SUMMARY_TEXT.severity[w.severity] ?? w.severity),
            ' ',
            h('span', { class: 'warning-text' }, w.message),
            ' ',
            h('code', { class: 'warning-id' }, w.id),
            w.positions.length
              ? h('button', { type: 'button', class: 'secondary small', onclick: () => onShow(w.positions) }, SUMMARY_TEXT.show(w.positions.length))
              : null,
          ),
        ),
      ),
    );
  }

  function updateNotes(chat) {
    if (!notes) return;
    notes.hidden = chat.notes.length === 0;
    replaceChildren(notes, h('summary', {}, SUMMARY_TEXT.notes), h('ul', {}, chat.notes.map((n) => h('li', {}, n.text))));
  }

  return {
    update(chat, answer) {
      updateFigures(answer);
      updateTurns(chat, answer);
      updateWarnings(answer);
      updateNotes(chat);
    },
  };
}
