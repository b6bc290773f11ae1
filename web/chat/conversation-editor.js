// conversation-editor.js — the conversation a learner types or picks: a prepared conversation,
// then one row per message (role and text), with add, remove and move; or one pasted from their
// own dataset (pasted-conversation.js), which then fills the rows.
//
//   const editor = createConversationEditor(container, { onChange(messages, how, pasted) {}, onPreset(id) {}, onTrainCompletion() {} });
//       how: 'typing' (text edited), 'structure' (a message added, removed, moved or its role
//       changed) or 'paste' (pasted: { promptLength, kwargs }: where a prompt/completion line
//       splits, and the line's template arguments)
//   editor.set(messages, presetId);              // presetId '' when the conversation is custom
//   editor.showError(messageIndex, text);        // marks the message and says what is wrong
//
// Edits are reported after a short pause in typing (one analysis per pause, not per key).
// Every label names the message number, so a screen reader hears "Message 3 text".

import { h, replaceChildren } from '../shared/dom.js';
import { formatCount } from '../shared/format.js';
import { ROLES } from './families.js';
import { readPastedConversation } from './pasted-conversation.js';
import { PRESETS } from './presets.js';

export const EDITOR_TEXT = {
  preset: 'Prepared conversation',
  custom: '(your own)',
  messages: 'Messages',
  role: (k) => `Message ${k + 1} role`,
  text: (k) => `Message ${k + 1} text`,
  remove: 'Remove',
  removeLabel: (k) => `Remove message ${k + 1}`,
  up: '↑',
  upLabel: (k) => `Move message ${k + 1} up`,
  down: '↓',
  downLabel: (k) => `Move message ${k + 1} down`,
  add: 'Add a message',
  removed: (k) => `Message ${k + 1} removed.`,
  added: (k, role) => `Message ${k + 1} (${role}) added.`,
  moved: (k) => `Message moved to position ${k + 1}.`,
  paste: 'Paste a conversation from your data',
  pasteLabel: 'One line of your dataset ({"messages": …}, ShareGPT\'s {"conversations": …} or {"prompt": …, "completion": …}), or a JSON array of messages',
  usePaste: 'Use this conversation',
  pasteLine: 'Line',
  pasteLineCount: (n) => `of ${formatCount(n)}`,
  trainCompletion: 'Train the completion, as TRL does',
  pasted: (n) => `Using the ${n} message${n === 1 ? '' : 's'} you pasted.`,
  pasteError: (text) => `Cannot use this paste: ${text}.`,
};

const PAUSE_MS = 150;

export function createConversationEditor(container, { onChange = () => {}, onPreset = () => {}, onTrainCompletion = () => {}, announce = () => {} } = {}) {
  let messages = [];
  let timer = null;
  const select = h(
    'select',
    { id: 'preset-select' },
    h('option', { value: '' }, EDITOR_TEXT.custom),
    PRESETS.map((p) => h('option', { value: p.id }, p.label)),
  );
  select.addEventListener('change', () => {
    if (!select.value) return;
    pasteStatus.textContent = ''; // it spoke of the pasted conversation, now replaced
    pasteStatus.classList.remove('error-box');
    completionButton.hidden = true;
    onPreset(select.value);
  });
  const list = h('ol', { class: 'message-list', 'aria-label': EDITOR_TEXT.messages });
  const addButton = h('button', { type: 'button', class: 'secondary' }, EDITOR_TEXT.add);
  addButton.addEventListener('click', () => {
    const last = messages.at(-1)?.role;
    const role = last === 'user' ? 'assistant' : 'user';
    messages = [...messages, { role, content: '' }];
    draw();
    announce(EDITOR_TEXT.added(messages.length - 1, role));
    list.querySelector(`#message-text-${messages.length - 1}`)?.focus();
    // An empty message is reported, not analysed, until it has text.
    emit('structure');
  });
  const pasteField = h('textarea', { id: 'paste-conversation', rows: '4', spellcheck: 'false', autocomplete: 'off' });
  const pasteButton = h('button', { type: 'button', class: 'secondary' }, EDITOR_TEXT.usePaste);
  const pasteStatus = h('p', { class: 'hint paste-status', role: 'status' });
  // After a prompt/completion line: one step to the target TRL trains such a line with.
  const completionButton = h('button', { type: 'button', class: 'secondary small', hidden: true }, EDITOR_TEXT.trainCompletion);
  completionButton.addEventListener('click', () => {
    completionButton.hidden = true;
    onTrainCompletion();
  });
  // A paste of several JSONL lines shows one at a time; this picks which (shown once there are several).
  const lineField = h('input', { type: 'number', id: 'paste-line', min: '1', step: '1', value: '1', inputmode: 'numeric' });
  const lineCount = h('span', { class: 'hint' });
  const lineControl = h('span', { class: 'paste-line', hidden: true }, h('label', { for: 'paste-line' }, EDITOR_TEXT.pasteLine), lineField, lineCount);
  const pasteBox = h(
    'details',
    { class: 'paste-box' },
    h('summary', {}, EDITOR_TEXT.paste),
    h('label', { for: 'paste-conversation' }, EDITOR_TEXT.pasteLabel),
    pasteField,
    h('div', { class: 'actions' }, lineControl, pasteButton),
    pasteStatus,
    completionButton,
  );
  pasteField.addEventListener('input', () => {
    lineControl.hidden = true; // a new paste starts at its first line
    lineField.value = '1';
  });
  lineField.addEventListener('change', () => usePaste());
  pasteButton.addEventListener('click', () => usePaste());
  function usePaste() {
    const read = readPastedConversation(pasteField.value, { line: lineControl.hidden ? 1 : Number(lineField.value) });
    lineControl.hidden = !(read.lineCount > 1);
    if (read.lineCount > 1) {
      lineField.max = String(read.lineCount);
      lineField.value = String(read.line);
      lineCount.textContent = EDITOR_TEXT.pasteLineCount(read.lineCount);
    }
    pasteStatus.classList.toggle('error-box', Boolean(read.error));
    if (read.error) {
      pasteField.setAttribute('aria-invalid', 'true');
      pasteStatus.textContent = EDITOR_TEXT.pasteError(read.error);
      return;
    }
    pasteField.removeAttribute('aria-invalid');
    pasteStatus.textContent = [EDITOR_TEXT.pasted(read.messages.length), ...read.notes].join(' ');
    completionButton.hidden = read.promptLength === null;
    messages = read.messages;
    select.value = '';
    draw();
    emit('paste', { promptLength: read.promptLength, kwargs: read.kwargs });
  }
  replaceChildren(
    container,
    h('div', { class: 'control' }, h('label', { for: 'preset-select' }, EDITOR_TEXT.preset), select),
    pasteBox,
    list,
    h('div', { class: 'actions' }, addButton),
  );

  function emit(how, pasted = null) {
    clearTimeout(timer);
    if (how === 'typing') timer = setTimeout(() => onChange(messages.map((m) => ({ ...m })), how), PAUSE_MS);
    else onChange(messages.map((m) => ({ ...m })), how, pasted);
  }

  function row(m, k) {
    const role = h('select', { id: `message-role-${k}`, 'aria-label': EDITOR_TEXT.role(k) }, ROLES.map((r) => h('option', { value: r, selected: r === m.role }, r)));
    role.addEventListener('change', () => {
      messages[k] = { ...messages[k], role: role.value };
      item.className = `message role-${role.value}`;
      emit('structure');
    });
    const text = h('textarea', { id: `message-text-${k}`, rows: String(Math.min(6, Math.max(1, m.content.split('\n').length))), 'aria-label': EDITOR_TEXT.text(k), spellcheck: 'false' });
    text.value = m.content;
    text.addEventListener('input', () => {
      messages[k] = { ...messages[k], content: text.value };
      emit('typing');
    });
    const move = (delta) => {
      const j = k + delta;
      if (j < 0 || j >= messages.length) return;
      const next = [...messages];
      [next[k], next[j]] = [next[j], next[k]];
      messages = next;
      draw();
      announce(EDITOR_TEXT.moved(j));
      list.querySelector(`#message-role-${j}`)?.focus();
      emit('structure');
    };
    const up = h('button', { type: 'button', class: 'secondary small', 'aria-label': EDITOR_TEXT.upLabel(k), disabled: k === 0 }, EDITOR_TEXT.up);
    up.addEventListener('click', () => move(-1));
    const down = h('button', { type: 'button', class: 'secondary small', 'aria-label': EDITOR_TEXT.downLabel(k), disabled: k === messages.length - 1 }, EDITOR_TEXT.down);
    down.addEventListener('click', () => move(1));
    const remove = h('button', { type: 'button', class: 'secondary small', 'aria-label': EDITOR_TEXT.removeLabel(k), disabled: messages.length <= 1 }, EDITOR_TEXT.remove);
    remove.addEventListener('click', () => {
      messages = messages.filter((_, i) => i !== k);
      draw();
      announce(EDITOR_TEXT.removed(k));
      (list.querySelector(`#message-role-${Math.min(k, messages.length - 1)}`) ?? addButton).focus();
      emit('structure');
    });
    const error = h('p', { class: 'field-error', id: `message-error-${k}`, hidden: true });
    const item = h(
      'li',
      { class: `message role-${m.role}` },
      h('div', { class: 'message-head' }, h('span', { class: 'message-number', 'aria-hidden': 'true' }, String(k + 1)), role, h('span', { class: 'message-tools' }, up, down, remove)),
      text,
      error,
    );
    return item;
  }

  function draw() {
    list.replaceChildren(...messages.map(row));
  }

  return {
    set(next, presetId = '') {
      messages = next.map((m) => ({ role: m.role, content: m.content }));
      select.value = presetId;
      draw();
    },
    setPreset(presetId) {
      select.value = presetId;
    },
    get: () => messages.map((m) => ({ ...m })),
    showError(messageIndex, text) {
      this.clearError();
      const item = list.children[messageIndex];
      if (!item) return;
      item.classList.add('invalid');
      const error = item.querySelector('.field-error');
      error.textContent = text;
      error.hidden = false;
      const field = item.querySelector('textarea');
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', error.id);
    },
    clearError() {
      for (const item of list.children) {
        item.classList.remove('invalid');
        const error = item.querySelector('.field-error');
        if (error) error.hidden = true;
        const field = item.querySelector('textarea');
        field?.removeAttribute('aria-invalid');
        field?.removeAttribute('aria-describedby');
      }
    },
  };
}
