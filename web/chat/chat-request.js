// chat-request.js — the core's `chat` request for one analysed conversation and a set of
// policies, and the policies' defaults. Pure: same inputs, same request.
//
//   const request = chatRequest(fam, chat, { target: 'assistant', endOfTurn: 'every' });
//   const answer = core.chat(request);     // labels, label_reasons, turns, warnings
//
// Resolves the token choices a learner makes in words into ids: the pad token (the tokenizer's,
// or TRL's fallback to eos_token when it has none, or "pad = eos" on purpose), the eos_token
// (as shipped or another checkpoint's), the response template's ids (encoded alone, without
// special tokens, as TRL's DataCollatorForCompletionOnlyLM did). Not here: rendering
// (chat-analysis.js) or any rule (the core).

export const TARGETS = ['all', 'assistant', 'last_assistant', 'completion', 'generation', 'response_template', 'turn_by_turn'];
export const END_OF_TURN = ['every', 'last', 'never'];
export const PAD_MASKING = ['position', 'pad_id'];
export const PAD_CHOICES = ['tokenizer', 'eos'];

export const DEFAULT_POLICIES = Object.freeze({
  target: 'assistant',
  endOfTurn: 'every',
  trainHeaders: false,
  padMasking: 'position',
  pad: 'tokenizer', // the tokenizer's pad_token, or eos_token when it has none (TRL >= 0.17)
  eosToken: null, // null: as shipped
  maxLength: null,
  truncationSide: 'right',
  responseTemplate: null, // null: the template's own generation prompt
  instructionTemplate: '',
});

/** The pad token a trainer would use, with its id: { token, id, fallback }. */
export function padTokenOf(fam, policies) {
  const eos = policies.eosToken ?? fam.specials.eos_token;
  if (policies.pad === 'eos' || !fam.specials.pad_token) {
    return { token: eos, id: fam.tokenId(eos), fallback: !fam.specials.pad_token };
  }
  return { token: fam.specials.pad_token, id: fam.tokenId(fam.specials.pad_token), fallback: false };
}

function spanOf(m) {
  if (!m.content) return { role: m.role, rendered: false };
  const span = { role: m.role, header: m.header, content: m.content, tail: m.tail };
  if (m.endOfTurn >= 0) span.end_of_turn = m.endOfTurn;
  return span;
}

export function chatRequest(fam, chat, policies = {}) {
  const p = { ...DEFAULT_POLICIES, ...policies };
  const eosToken = p.eosToken ?? fam.specials.eos_token;
  const pad = padTokenOf(fam, p);
  const request = {
    input_ids: chat.ids,
    tokens: chat.display,
    messages: chat.messages.map(spanOf),
    eos_token: eosToken ?? '',
    pad_token: pad.token ?? '',
    target: p.target,
    end_of_turn: p.endOfTurn,
    train_role_headers: Boolean(p.trainHeaders),
    pad_masking: p.padMasking,
    truncation_side: p.truncationSide,
    prefix_breaks: chat.prefixBreaks,
    boundary_tokens: chat.boundaryTokens,
    vocab_size: fam.vocabSize,
  };
  const bos = fam.tokenId(fam.specials.bos_token);
  const eos = fam.tokenId(eosToken);
  if (bos !== null) request.bos_token_id = bos;
  if (eos !== null) request.eos_token_id = eos;
  if (pad.id !== null) request.pad_token_id = pad.id;
  if (chat.generationMask) request.generation_mask = chat.generationMask;
  if (p.target === 'turn_by_turn') request.turn_mask = chat.turnMask ?? [];
  if (p.maxLength) request.max_length = p.maxLength;
  if (p.target === 'completion') {
    // Where the prompt is not a token prefix, the completion's first content token stands in.
    const first = chat.messages[chat.completionMessage];
    const fallback = first?.content ? first.content[0] : chat.ids.length;
    request.completion_start = chat.completionStart >= 0 && chat.completionStart !== null ? chat.completionStart : fallback;
    request.prompt_is_prefix = chat.completionStart !== -1;
  }
  if (p.target === 'response_template') {
    request.response_template_ids = responseTemplateIds(fam, p.responseTemplate ?? chat.generationPrompt ?? '');
    if (p.instructionTemplate) request.instruction_template_ids = responseTemplateIds(fam, p.instructionTemplate);
  }
  return request;
}

/** A template string encoded alone, without special tokens (what TRL's collator searched for). */
export function responseTemplateIds(fam, text) {
  if (!text) return [];
  return fam.encode(text, { addSpecialTokens: false }).ids;
}
