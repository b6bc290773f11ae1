// chat-scenario.js — "See it break" for chats: a wrong way and the right way to label the same
// conversation, written in the core's field names (as exercise YAML files write them), turned
// into what analyseChat and chatRequest take.
//
//   const { options, policies } = scenarioSide({ target: 'response_template' });
//   const answer = runScenarioSide(fam, messages, side, core);     // node and tests: one call
//
// A side may set: target, end_of_turn, train_role_headers, pad_masking, pad ("tokenizer" | "eos"),
// eos_token, add_special_tokens, max_length, response_template, instruction_template. Anything
// it leaves out is the default policy (assistant turns, every end-of-turn token, by position).
// BUILT_IN_SCENARIOS are the classic wrong ways the page offers on any conversation.

import { analyseChat } from './chat-analysis.js';
import { chatRequest, DEFAULT_POLICIES } from './chat-request.js';
import { SIDE_FIELDS } from './chat-scenario-fields.js';

export { SIDE_FIELDS };

export const BUILT_IN_SCENARIOS = {
  response_template: {
    title: 'Searching for the response template’s token ids',
    wrong: { target: 'response_template' },
    right: { target: 'assistant' },
    wrongLabel: 'TRL’s old completion-only collator: search the ids, last match wins',
    rightLabel: 'Role spans from the rendered template',
  },
  pad_id: {
    title: 'pad = eos, then labels masked by pad id',
    wrong: { pad: 'eos', pad_masking: 'pad_id' },
    right: { pad: 'eos', pad_masking: 'position' },
    wrongLabel: 'pad_token = eos_token, DataCollatorForLanguageModeling masks by id',
    rightLabel: 'pad_token = eos_token, padding masked by position',
  },
  all: {
    title: 'Training every token',
    wrong: { target: 'all' },
    right: { target: 'assistant' },
    wrongLabel: 'labels = input_ids: system and user text are targets too',
    rightLabel: 'Assistant turns only',
  },
  turn_by_turn: {
    title: 'Masks from token counts of growing prefixes',
    wrong: { target: 'turn_by_turn' },
    right: { target: 'assistant' },
    wrongLabel: 'open-instruct’s turn-by-turn ranges: len(tokenize(messages[:k])) in the whole',
    rightLabel: 'Role spans from the rendered template',
  },
  never_eot: {
    title: 'Leaving the end-of-turn token out',
    wrong: { end_of_turn: 'never' },
    right: { end_of_turn: 'every' },
    wrongLabel: 'Answers trained without their end-of-turn token',
    rightLabel: 'Every answer’s end-of-turn token trained',
  },
};

/** { options (analyseChat), policies (chatRequest) } for one side. Throws on an unknown field. */
export function scenarioSide(side = {}) {
  for (const key of Object.keys(side)) {
    if (!SIDE_FIELDS.includes(key)) throw new Error(`"${key}" is not a chat scenario field; expected one of ${SIDE_FIELDS.join(', ')}`);
  }
  const policies = {
    ...DEFAULT_POLICIES,
    target: side.target ?? DEFAULT_POLICIES.target,
    endOfTurn: side.end_of_turn ?? DEFAULT_POLICIES.endOfTurn,
    trainHeaders: side.train_role_headers ?? false,
    padMasking: side.pad_masking ?? DEFAULT_POLICIES.padMasking,
    pad: side.pad ?? DEFAULT_POLICIES.pad,
    eosToken: side.eos_token ?? null,
    maxLength: side.max_length ?? null,
    responseTemplate: side.response_template ?? null,
    instructionTemplate: side.instruction_template ?? '',
  };
  const options = {
    addSpecialTokens: Boolean(side.add_special_tokens),
    eosToken: side.eos_token ?? null,
    generationPrompt: policies.target === 'response_template',
    turnByTurn: policies.target === 'turn_by_turn',
  };
  return { options, policies };
}

/** Renders, tokenizes and labels one side with the core: { chat, request, answer }. */
export function runScenarioSide(fam, messages, side, core) {
  const { options, policies } = scenarioSide(side);
  const chat = analyseChat(fam, messages, options);
  const request = chatRequest(fam, chat, policies);
  return { chat, request, answer: core.chat(request) };
}
