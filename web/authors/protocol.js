// protocol.js — the authors page's reference of the embed messages (shared/embed.js) and the
// xAPI statement's fields (shared/xapi.js), as a table: one row per message type, its fields as a
// list. On narrow screens each row becomes a block (authors.css), and names are never broken
// inside a word.
//
//   renderProtocol(container);   renderXapiFields(list);

import { h, replaceChildren } from '../shared/dom.js';
import { MAX_HEIGHT, MIN_HEIGHT } from '../shared/embed.js';
import { XAPI_VERBS } from '../shared/xapi.js';

// Every user-visible string of the reference, in one place.
export const PROTOCOL_TEXT = {
  caption: 'The messages, in the order a learner causes them',
  columns: ['type', 'sent when', 'fields (besides source and widget)'],
  messages: [
    {
      type: 'ready',
      when: 'Once, when the page has drawn its content.',
      fields: [['url', 'the frame’s address']],
    },
    {
      type: 'resize',
      when: 'After ready, and whenever the content’s height changes (after Check it grows).',
      fields: [['height', `the content height in CSS pixels: set the iframe’s height to it and the frame never scrolls (the snippet does, keeping it between ${MIN_HEIGHT} and ${MAX_HEIGHT})`]],
    },
    {
      type: 'answered',
      when: 'Each time the learner presses Check in an exercise (and in practice).',
      fields: [
        ['exercise', 'the exercise id'],
        ['score', 'parts found − words marked wrongly, never below 0'],
        ['maxScore', 'the number of parts to find'],
        ['marked', 'the indices of the words the learner marked'],
        ['solution_shown', 'true when the solution was on screen before this Check (Show solution, then Retry): not a solve'],
        ['attempt', 'which Check this is since the frame loaded: 1, 2, …'],
      ],
    },
    {
      type: 'trained',
      when: 'When both runs of the Train it page have finished.',
      fields: [
        ['bug', 'the bug’s name'],
        ['settings', 'the settings trained with (the JSON masklab train reads)'],
        ['final', 'for buggy and fixed, the last logged step, train_loss, real_loss, eval_loss and eos_prob_at_end'],
      ],
    },
    {
      type: 'xapi',
      when: 'With every answered: an answered statement; with the first, a completed one too.',
      fields: [
        ['exercise', 'the exercise id'],
        ['statement', 'an xAPI statement (below)'],
      ],
    },
  ],
  xapi: [
    ['actor', 'a placeholder: put your learner here before sending it on'],
    ['verb.id', `${XAPI_VERBS.answered} or ${XAPI_VERBS.completed} (ADL’s verbs)`],
    ['object.id', 'the exercise’s address on this site, the same for every learner'],
    ['result.score', 'raw = score, min = 0, max = maxScore, scaled = raw / max'],
    ['result.success', 'true when every part was found with nothing marked wrongly and the solution was not shown first'],
    ['result.completion', 'true: the learner checked an answer'],
    ['result.response', 'the marked word indices, separated by [,]'],
    ['result.extensions', 'solution_shown and attempt, as in answered, under this site’s …/xapi/ IRIs'],
    ['timestamp', 'when the learner pressed Check (ISO 8601)'],
  ],
};

function fieldList(fields) {
  return h('ul', { class: 'field-list' }, fields.map(([name, what]) => h('li', {}, h('code', {}, name), ' — ', what)));
}

export function renderProtocol(container) {
  replaceChildren(
    container,
    h(
      'table',
      { class: 'reference protocol' },
      h('caption', {}, PROTOCOL_TEXT.caption),
      h('thead', {}, h('tr', {}, PROTOCOL_TEXT.columns.map((c) => h('th', { scope: 'col' }, c)))),
      h(
        'tbody',
        {},
        PROTOCOL_TEXT.messages.map((m) =>
          h('tr', { dataset: { type: m.type } }, h('th', { scope: 'row' }, h('code', {}, m.type)), h('td', { class: 'when' }, m.when), h('td', {}, fieldList(m.fields))),
        ),
      ),
    ),
  );
}

export function renderXapiFields(list) {
  replaceChildren(list, PROTOCOL_TEXT.xapi.map(([name, what]) => h('li', {}, h('code', {}, name), ' — ', what)));
}
