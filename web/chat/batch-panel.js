// batch-panel.js — the conversation batched with other prepared conversations: each one labelled
// by the core's `chat` command with the page's policies, then padded and packed by the core's
// existing `collate` rules (labels given, so padding is masked by position), drawn in the existing
// token grid (web/grid/token-grid.js) with real ids and token texts.
//
//   const panel = createBatchPanel(container, { analyse, core, onChange(patch) {} });
//   panel.show({ family, messages, template, options, policies, state, padId, padToken });

import { h, replaceChildren } from '../shared/dom.js';
import { createLegend, createTokenGrid } from '../grid/token-grid.js';
import { PRESETS } from './presets.js';
import { CHAT_REASONS, withChatReasons } from './chat-reasons.js';
import { visibleText } from './token-chips.js';

export const BATCH_TEXT = {
  with: 'Batch this conversation with',
  side: 'padding_side',
  multiple: 'pad_to_multiple_of',
  packing: 'packing',
  packingChoices: { none: 'none (pad each row)', flatten: 'flatten (DataCollatorWithFlattening: one row, no padding)' },
  none: 'none',
  caption: (B, T) => `The batch: B = ${B} rows × T = ${T} positions; labels from the chat masks above`,
  empty: 'Tick one or more conversations to batch with this one.',
  failed: (message) => `The batch could not be built: ${message}`,
  noPad: 'This tokenizer has no pad token; the batch pads with eos_token, as TRL does.',
  reasonsKey: 'Labels −100 from the chat masks, by reason:',
};

export function createBatchPanel(container, { analyse, core, onChange = () => {} }) {
  const picks = h(
    'fieldset',
    { class: 'batch-picks' },
    h('legend', {}, BATCH_TEXT.with),
    PRESETS.map((p) =>
      h('div', { class: 'check' }, h('input', { type: 'checkbox', id: `batch-${p.id}`, value: p.id }), h('label', { for: `batch-${p.id}` }, p.label)),
    ),
  );
  const side = h('select', { id: 'batch-side' }, ['right', 'left'].map((v) => h('option', { value: v }, v)));
  const multiple = h('select', { id: 'batch-multiple' }, ['0', '8', '16', '64'].map((v) => h('option', { value: v }, v === '0' ? BATCH_TEXT.none : v)));
  const packing = h('select', { id: 'batch-packing' }, Object.entries(BATCH_TEXT.packingChoices).map(([v, t]) => h('option', { value: v }, t)));
  const options = h(
    'div',
    { class: 'batch-options' },
    h('div', { class: 'control' }, h('label', { for: 'batch-side' }, BATCH_TEXT.side), side),
    h('div', { class: 'control' }, h('label', { for: 'batch-multiple' }, BATCH_TEXT.multiple), multiple),
    h('div', { class: 'control' }, h('label', { for: 'batch-packing' }, BATCH_TEXT.packing), packing),
  );
  const message = h('p', { class: 'status', role: 'status' });
  const gridBox = h('div', { class: 'batch-grid' });
  replaceChildren(container, picks, options, message, gridBox, createLegend());
  const grid = createTokenGrid(gridBox, { caption: BATCH_TEXT.caption(0, 0), fields: ['tokens', 'input_ids', 'attention_mask', 'labels', 'position_ids'], reasons: CHAT_REASONS });
  const reasonKey = h(
    'p',
    { class: 'hint batch-reasons', hidden: true },
    BATCH_TEXT.reasonsKey,
    Object.values(CHAT_REASONS).map((r) => h('span', { class: 'reason-key' }, ` ${r.glyph} ${r.short}`)),
  );
  gridBox.after(reasonKey);

  picks.addEventListener('change', () => onChange({ b: [...picks.querySelectorAll('input:checked')].map((i) => i.value) }));
  side.addEventListener('change', () => onChange({ side: side.value }));
  multiple.addEventListener('change', () => onChange({ multiple: multiple.value }));
  packing.addEventListener('change', () => onChange({ packing: packing.value }));
  let version = 0;

  return {
    async show({ family, messages, template, options: analysis, policies, state, padId, padToken }) {
      for (const input of picks.querySelectorAll('input')) input.checked = state.b.includes(input.value);
      side.value = state.side;
      multiple.value = state.multiple;
      packing.value = state.packing;
      version += 1;
      const mine = version;
      if (!state.b.length) {
        message.textContent = BATCH_TEXT.empty;
        gridBox.hidden = true;
        reasonKey.hidden = true;
        return;
      }
      const conversations = [messages, ...state.b.map((id) => PRESETS.find((p) => p.id === id)?.messages).filter(Boolean)];
      try {
        // A pasted line's split and template arguments are the learner's conversation's, not the
        // presets' (each line of a dataset brings its own).
        const optionsOf = (k) => (k === 0 ? { ...analysis, template } : { ...analysis, template, promptLength: null, kwargs: null });
        const results = await Promise.all(conversations.map((m, k) => analyse(family, m, optionsOf(k), policies)));
        if (mine !== version) return;
        const names = new Map([[padId, visibleText(padToken ?? '')]]);
        const answers = results.map(({ chat, request }) => {
          const answer = core.chat(request);
          if (answer.error) throw new Error(`${answer.error.field}: ${answer.error.message}`);
          answer.input_ids.forEach((id, t) => names.set(id, visibleText(chat.display[t])));
          return answer;
        });
        const features = answers.map((answer) => ({ input_ids: answer.input_ids, labels: answer.labels }));
        const request = { features, pad_token_id: padId, label_policy: 'given', padding_side: state.side, packing: state.packing };
        if (state.multiple !== '0') request.pad_to_multiple_of = Number(state.multiple);
        const batch = core.collate(request);
        if (batch.error) throw new Error(`${batch.error.field}: ${batch.error.message}`);
        const tokens = batch.input_ids.map((row) => row.map((id) => names.get(id) ?? `#${id}`));
        gridBox.hidden = false;
        reasonKey.hidden = false;
        message.textContent = '';
        const labelled = { ...batch, label_reasons: withChatReasons(batch, answers) };
        grid.update({ batch: labelled, tokens }, { request, caption: BATCH_TEXT.caption(batch.shape[0], batch.shape[1]) });
      } catch (error) {
        if (mine !== version) return;
        message.textContent = BATCH_TEXT.failed(error.message);
      }
    },
  };
}
