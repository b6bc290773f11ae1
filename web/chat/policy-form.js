// policy-form.js — the choices that decide which tokens are trained: the target, the
// end-of-turn policy, role headers, how padding is masked, the pad and eos tokens,
// add_special_tokens, max_length and the response template. Each option says whose behaviour it
// is (TRL, transformers, axolotl), in one place (POLICY_TEXT).
//
//   const form = createPolicyForm(formElement, { onChange(patch) {} });
//   form.set(state, familyInfo);     // familyInfo: the worker's description (eos choices, pad token)

import { h, replaceChildren } from '../shared/dom.js';

export const POLICY_TEXT = {
  target: 'Target: which tokens get labels',
  targets: {
    assistant: ['Assistant turns', 'the role spans of every assistant message (TRL assistant_only_loss, axolotl roles_to_train)'],
    last_assistant: ['Last assistant turn only', 'earlier answers stay context (LLaMA-Factory mask_history)'],
    completion: ['Prompt / completion', 'everything after the prompt rendered with the generation prompt (TRL completion_mask)'],
    generation: ['{% generation %} blocks', 'what transformers’ return_assistant_tokens_mask reads from the template'],
    response_template: ['Search for the response template', 'TRL’s old DataCollatorForCompletionOnlyLM: find the ids, last match wins'],
    all: ['All tokens', 'labels = input_ids (TRL’s default for a messages dataset)'],
    turn_by_turn: ['Turn by turn, from token counts', 'open-instruct: -100 from len(tokenize(messages[:k])) to len(tokenize(messages[:k+1])) for each non-assistant message'],
  },
  endOfTurn: 'End-of-turn token of the assistant (axolotl train_on_eos)',
  endOfTurnChoices: { every: 'Trained in every turn', last: 'Only in the last turn', never: 'Never trained' },
  endOfTurnNote: 'Applies to the assistant-turn targets.',
  headers: 'Train the assistant’s role header too',
  padMasking: 'How padding is masked later',
  padMaskingChoices: {
    position: 'By position (DataCollatorForSeq2Seq, TRL ≥ 0.17)',
    pad_id: 'By pad id (DataCollatorForLanguageModeling)',
  },
  pad: 'Pad token',
  padChoices: (info) => ({
    tokenizer: info?.pad?.fallback ? `None in the tokenizer: eos_token ${info.specials.eos_token} (TRL’s fallback)` : `The tokenizer’s: ${info?.specials?.pad_token ?? '…'}`,
    eos: 'pad_token = eos_token',
  }),
  eos: 'eos_token',
  eosOption: (c) => `${c.token}${c.id !== null && c.id !== undefined ? ` (${c.id})` : ''} — ${c.note}`,
  addSpecial: 'Tokenize the rendered text again with add_special_tokens=True',
  maxLength: 'max_length (0 = no truncation)',
  responseTemplate: 'Response template text',
  responseTemplateHint: 'Empty: the template’s own generation prompt.',
  instructionTemplate: 'Instruction template text (optional)',
  // Where the "Prompt / completion" target splits the conversation on screen.
  completionSplit(chat) {
    const k = chat.completionMessage;
    if (!(k > 0 && k < chat.messages.length)) return 'No answer follows a prompt here, so there is no completion to train.';
    const prompt = k === 1 ? 'message 1' : `messages 1–${k}`;
    const why = chat.promptLength === k ? 'as your pasted line splits it' : 'everything before the last answer';
    return `Prompt: ${prompt}, ${why}. The completion starts at message ${k + 1}.`;
  },
};

function radios(name, legend, choices, describe) {
  return h(
    'fieldset',
    { class: `radio-group ${name}` },
    h('legend', {}, legend),
    Object.entries(choices).map(([value, text]) => {
      const [title, hint] = Array.isArray(text) ? text : [text, null];
      const id = `${name}-${value}`;
      return h(
        'div',
        { class: 'radio' },
        h('input', { type: 'radio', name, id, value }),
        h('label', { for: id }, title, hint ? h('span', { class: 'hint' }, ` — ${hint}`) : null),
      );
    }),
    describe ? h('p', { class: 'hint' }, describe) : null,
  );
}

export function createPolicyForm(form, { onChange = () => {} } = {}) {
  const eosSelect = h('select', { id: 'eos-select', name: 'eos' });
  const padSelect = h('select', { id: 'pad-select', name: 'pad' });
  const maxLength = h('input', { type: 'number', id: 'max-length', name: 'ml', min: '0', max: '32768', step: '1', inputmode: 'numeric' });
  const rt = h('input', { type: 'text', id: 'response-template', name: 'rt', spellcheck: 'false', placeholder: '' });
  const it = h('input', { type: 'text', id: 'instruction-template', name: 'it', spellcheck: 'false' });
  const templateBox = h(
    'div',
    { class: 'template-search' },
    h('div', { class: 'control' }, h('label', { for: 'response-template' }, POLICY_TEXT.responseTemplate), rt, h('p', { class: 'hint' }, POLICY_TEXT.responseTemplateHint)),
    h('div', { class: 'control' }, h('label', { for: 'instruction-template' }, POLICY_TEXT.instructionTemplate), it),
  );
  const splitNote = h('p', { class: 'hint completion-split', id: 'completion-split', hidden: true });
  replaceChildren(
    form,
    radios('t', POLICY_TEXT.target, POLICY_TEXT.targets),
    splitNote,
    templateBox,
    radios('eot', POLICY_TEXT.endOfTurn, POLICY_TEXT.endOfTurnChoices, POLICY_TEXT.endOfTurnNote),
    h('div', { class: 'check' }, h('input', { type: 'checkbox', id: 'train-headers', name: 'hdr' }), h('label', { for: 'train-headers' }, POLICY_TEXT.headers)),
    radios('pm', POLICY_TEXT.padMasking, POLICY_TEXT.padMaskingChoices),
    h('div', { class: 'control' }, h('label', { for: 'pad-select' }, POLICY_TEXT.pad), padSelect),
    h('div', { class: 'control' }, h('label', { for: 'eos-select' }, POLICY_TEXT.eos), eosSelect),
    h('div', { class: 'check' }, h('input', { type: 'checkbox', id: 'add-special', name: 'ast' }), h('label', { for: 'add-special' }, POLICY_TEXT.addSpecial)),
    h('div', { class: 'control' }, h('label', { for: 'max-length' }, POLICY_TEXT.maxLength), maxLength),
  );

  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('change', (event) => {
    const el = event.target;
    if (el.type === 'radio') onChange({ [el.name]: el.value });
    else if (el.type === 'checkbox') onChange({ [el.name]: el.checked });
    else if (el === eosSelect) onChange({ eos: Number(el.value) });
    else if (el === padSelect) onChange({ pad: el.value });
    else if (el === maxLength) {
      const n = Number(el.value || 0);
      onChange({ ml: Number.isInteger(n) && n >= 0 && n <= 32768 ? n : 0 });
    } else if (el === rt) onChange({ rt: el.value.slice(0, 200) });
    else if (el === it) onChange({ it: el.value.slice(0, 200) });
  });

  let shownInfo = undefined;
  return {
    set(state, info, chat) {
      for (const name of ['t', 'eot', 'pm']) {
        const input = form.querySelector(`input[name="${name}"][value="${state[name]}"]`);
        if (input) input.checked = true;
      }
      const roleTarget = state.t === 'assistant' || state.t === 'last_assistant';
      for (const input of form.querySelectorAll('input[name="eot"], input[name="hdr"]')) input.disabled = !roleTarget;
      form.querySelector('#train-headers').checked = state.hdr;
      form.querySelector('#add-special').checked = state.ast;
      templateBox.hidden = state.t !== 'response_template';
      splitNote.hidden = state.t !== 'completion' || !chat;
      if (chat) splitNote.textContent = POLICY_TEXT.completionSplit(chat);
      rt.value = state.rt;
      rt.placeholder = chat?.generationPrompt ? JSON.stringify(chat.generationPrompt) : '';
      it.value = state.it;
      if (document.activeElement !== maxLength) maxLength.value = String(state.ml);
      const choices = info?.eosChoices ?? [];
      // Rebuilt only when the family changes: an edit should not touch these controls.
      if (info !== shownInfo) {
        shownInfo = info;
        replaceChildren(eosSelect, choices.map((c, i) => h('option', { value: String(i) }, POLICY_TEXT.eosOption(c))));
        const pads = POLICY_TEXT.padChoices(info);
        replaceChildren(padSelect, Object.entries(pads).map(([v, text]) => h('option', { value: v }, text)));
      }
      eosSelect.value = String(Math.min(state.eos, Math.max(0, choices.length - 1)));
      eosSelect.disabled = choices.length < 2;
      padSelect.value = state.pad;
    },
  };
}
