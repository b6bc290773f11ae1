// token-chips.js — a rendered conversation drawn token by token: each token a chip with its text
// (whitespace made visible) and id, coloured by the role of the message it belongs to, special
// tokens outlined, and under it the label the core gave it (trained, or −100 with its reason).
// A role tag opens every message, so roles never rest on colour alone.
//
//   const chips = createTokenChips(container, { label: 'Tokens of the conversation' });
//   chips.update(chat, answer);            // chat: chat-analysis.js result; answer: core.chat(...)
//   chips.flag([12, 13]); chips.focus(12); // mark and focus tokens a warning names
//
// Keyboard: the list is one tab stop; arrow keys move token by token, Home/End to the ends,
// PageUp/PageDown by message. Every chip has a spoken label (position, text, id, role, part,
// label and reason). `compact: true` draws only text and label (the See-it-break columns).
// Not here: asking the core, or counts (chat-summary.js).

import { h, replaceChildren } from '../shared/dom.js';
import { formatId } from '../shared/format.js';

export const CHIP_TEXT = {
  reasons: {
    system: 'system',
    user: 'user',
    tool: 'tool',
    developer: 'developer',
    role_header: 'header',
    scaffolding: 'template',
    end_of_turn: 'end-of-turn',
    earlier_turn: 'earlier turn',
    prompt: 'prompt',
    not_generation: 'outside generation',
    template_search: 'template search',
    pad_id: 'pad id',
    turn_range: 'turn range',
  },
  reasonSpoken: {
    system: 'a system turn',
    user: 'a user turn',
    tool: 'a tool turn',
    developer: 'a developer turn',
    role_header: 'a role header',
    scaffolding: 'template scaffolding',
    end_of_turn: 'the end-of-turn token, left out by the end-of-turn policy',
    earlier_turn: 'an assistant turn before the last',
    prompt: 'part of the prompt',
    not_generation: 'outside every generation block',
    template_search: 'before the response template match',
    pad_id: 'its id equals the pad id',
    turn_range: 'inside a non-assistant range measured from growing prefixes',
  },
  parts: { header: 'header', content: 'text', end_of_turn: 'end of turn', tail: 'after end of turn', scaffolding: 'template' },
  trained: '✓ trained',
  special: 'special token',
  added: 'added by the tokenizer',
  roleTag: (role, k) => `${role} · ${k + 1}`,
  roleTagSpoken: (role, k) => `Message ${k + 1}, ${role}`,
  chip: ({ t, text, id, role, part, label, special }) =>
    `Token ${t}: ${text}, id ${id}${special ? ', special token' : ''}; ${role}${part ? ` ${part}` : ''}; ${label}`,
  hint: 'Arrow keys move from token to token; Page Up and Page Down jump between messages.',
  legendTitle: 'How to read the tokens',
  legend: [
    ['sys', 'system turn', 'role-system'],
    ['usr', 'user turn', 'role-user'],
    ['ast', 'assistant turn', 'role-assistant'],
    ['tool', 'tool turn', 'role-tool'],
    ['tpl', 'template text of no message (BOS, separators)', 'role-none'],
  ],
  legendMarks: [
    ['◆', 'a special token (outlined)'],
    ['✓', 'trained: its label is its id'],
    ['−100', 'not trained, with the reason under it'],
    ['↵ · →', 'newline, space, tab'],
  ],
};

const VISIBLE = { '\n': '↵', ' ': '·', '\t': '→', '\r': '␍' };

/** A token's text with whitespace made visible: " are" -> "·are", "\n\n" -> "↵↵". */
export function visibleText(text) {
  if (text === '') return '∅';
  return text.replace(/[\n \t\r]/g, (c) => VISIBLE[c]);
}

function spokenText(text) {
  if (text === '') return 'empty';
  return JSON.stringify(text);
}

export function createChipLegend() {
  return h(
    'details',
    { class: 'chip-legend' },
    h('summary', {}, CHIP_TEXT.legendTitle),
    h(
      'ul',
      {},
      CHIP_TEXT.legend.map(([tag, text, cls]) => h('li', {}, h('span', { class: `chip legend-chip ${cls}`, 'aria-hidden': 'true' }, tag), ' ', text)),
      CHIP_TEXT.legendMarks.map(([mark, text]) => h('li', {}, h('span', { class: 'legend-mark', 'aria-hidden': 'true' }, mark), ' ', text)),
    ),
  );
}

let count = 0;

export function createTokenChips(container, { label = 'Tokens', compact = false } = {}) {
  count += 1;
  const hintId = `chips-hint-${count}`;
  const list = h('div', { class: `chip-list${compact ? ' compact' : ''}`, role: 'list', 'aria-label': label, 'aria-describedby': hintId });
  replaceChildren(container, h('p', { class: 'visually-hidden', id: hintId }, CHIP_TEXT.hint), list);
  let chips = []; // [T] chip elements
  let messageStarts = [];
  let active = 0;
  let flagged = [];

  function moveTo(t, focus = true) {
    if (!chips.length) return;
    t = Math.max(0, Math.min(chips.length - 1, t));
    if (chips[active]) chips[active].tabIndex = -1;
    chips[t].tabIndex = 0;
    active = t;
    if (focus) chips[t].focus();
  }

  list.addEventListener('keydown', (event) => {
    const chip = event.target.closest?.('[data-t]');
    if (!chip) return;
    const t = Number(chip.dataset.t);
    let next = null;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = t + 1;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = t - 1;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = chips.length - 1;
    else if (event.key === 'PageDown') next = messageStarts.find((s) => s > t) ?? chips.length - 1;
    else if (event.key === 'PageUp') next = [...messageStarts].reverse().find((s) => s < t) ?? 0;
    if (next === null) return;
    event.preventDefault();
    moveTo(next);
  });
  list.addEventListener('focusin', (event) => {
    const chip = event.target.closest?.('[data-t]');
    if (chip) moveTo(Number(chip.dataset.t), false);
  });

  // What one chip shows, as data, so an update can skip the DOM where nothing changed.
  function describe(chat, answer, t) {
    const k = answer.message_index[t];
    const role = k >= 0 ? chat.messages[k].role : 'none';
    const text = chat.display[t];
    const reason = answer.label_reasons[t];
    const trained = reason === '';
    const special = chat.special[t] === 1;
    const part = answer.parts[t];
    const classes = ['chip', `role-${role}`, `part-${part}`, trained ? 'trained' : 'ignored'];
    if (special) classes.push('special');
    if (chat.added?.[t]) classes.push('added');
    return {
      k,
      role,
      text,
      special,
      className: classes.join(' '),
      labelText: trained ? CHIP_TEXT.trained : `${formatId(-100)} ${CHIP_TEXT.reasons[reason] ?? reason}`,
      spoken: CHIP_TEXT.chip({
        t,
        text: spokenText(text),
        id: answer.input_ids[t],
        role: k >= 0 ? `message ${k + 1} (${role})` : 'template text',
        part: k >= 0 ? CHIP_TEXT.parts[part] : '',
        label: trained ? `trained, label ${answer.labels[t]}` : `label minus 100: ${CHIP_TEXT.reasonSpoken[reason] ?? reason}`,
        special,
      }),
    };
  }

  let signature = '';
  let labels = []; // [T] the text node of each chip's label

  // Same tokens as before (a policy changed): only classes, labels and spoken labels change, so
  // they are written in place; otherwise the chips are rebuilt.
  function update(chat, answer) {
    const T = answer.input_ids.length;
    const next = `${answer.input_ids.join(',')}|${answer.message_index.join(',')}|${chat.display.length}`;
    flagged = [];
    if (next === signature && chips.length === T) {
      for (let t = 0; t < T; t += 1) {
        const view = describe(chat, answer, t);
        const chip = chips[t];
        if (chip.className !== view.className) chip.className = view.className;
        if (labels[t].data !== view.labelText) labels[t].data = view.labelText;
        if (chip.getAttribute('aria-label') !== view.spoken) chip.setAttribute('aria-label', view.spoken);
      }
      return;
    }
    signature = next;
    const nodes = [];
    chips = [];
    labels = [];
    messageStarts = [];
    let lastMessage = -2;
    for (let t = 0; t < T; t += 1) {
      const view = describe(chat, answer, t);
      if (view.k !== lastMessage && view.k >= 0 && !compact) {
        messageStarts.push(t);
        nodes.push(h('span', { class: `role-tag role-${view.role}`, role: 'listitem', 'aria-label': CHIP_TEXT.roleTagSpoken(view.role, view.k) }, CHIP_TEXT.roleTag(view.role, view.k)));
      }
      lastMessage = view.k;
      const label = document.createTextNode(view.labelText);
      const chip = h(
        'span',
        { class: view.className, role: 'listitem', tabindex: '-1', dataset: { t: String(t) }, 'aria-label': view.spoken },
        h('span', { class: 'chip-text', 'aria-hidden': 'true' }, view.special ? h('span', { class: 'special-mark' }, '◆') : null, visibleText(view.text)),
        compact ? null : h('span', { class: 'chip-id', 'aria-hidden': 'true' }, String(answer.input_ids[t])),
        h('span', { class: 'chip-label', 'aria-hidden': 'true' }, label),
      );
      chips.push(chip);
      labels.push(label);
      nodes.push(chip);
    }
    list.replaceChildren(...nodes);
    moveTo(Math.min(active, chips.length - 1), false);
  }

  return {
    element: list,
    update,
    flag(positions) {
      for (const t of flagged) chips[t]?.classList.remove('flagged');
      flagged = positions.filter((t) => chips[t]);
      for (const t of flagged) chips[t].classList.add('flagged');
    },
    focus(t) {
      moveTo(t);
      chips[t]?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    },
  };
}
