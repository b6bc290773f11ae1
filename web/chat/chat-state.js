// chat-state.js — the Chat masks page's state: one typed table serialised to the URL
// (shared/url-state.js), so a course page can embed one exact case, and the conversation's own
// encoding inside it.
//
//   const { state, problems } = CHAT_STATE.read();
//   const { messages, problem, promptLength } = conversationOf(state);   // preset or the URL's own messages
//
// The conversation travels as `c`, a JSON array of [role, content] pairs (compact, and checked
// like any pasted input: a bad one falls back to the preset with a note), or, when that is too
// long for a link, as `z:` and the same JSON packed (shared/packed-text.js); `p` names a preset when
// the conversation is one of them unchanged. `b` lists the presets batched with it. `pl` keeps
// where a pasted prompt/completion line splits its conversation (the prompt's message count), so
// a shared link trains what the line trains, and `kw` the line's template arguments (its tools
// and chat_template_kwargs, as JSON, or packed as `z:` like the conversation). The target,
// end-of-turn and other policies use the core's own names.

import { packText, unpackText } from '../shared/packed-text.js';
import { defineState } from '../shared/url-state.js';
import { templateArgumentsOf } from './dataset-record.js';
import { END_OF_TURN, PAD_CHOICES, PAD_MASKING, TARGETS } from './chat-request.js';
import { DEFAULT_FAMILY, FAMILIES, ROLES } from './families.js';
import { DEFAULT_PRESET, PRESETS, presetById } from './presets.js';
import { MAX_LINK_TEMPLATE, TPL_PATTERN } from './template-link.js';

export const MAX_URL_CONVERSATION = 20000; // characters of JSON; browsers accept far longer URLs
const MAX_UNPACKED_CONVERSATION = 2_000_000; // characters, as the paste box takes
const PACKED = 'z:';
export const BREAK_SCENARIOS = ['response_template', 'pad_id', 'all', 'never_eot', 'turn_by_turn'];

export const CHAT_STATE = defineState({
  f: { type: 'enum', values: FAMILIES.map((f) => f.id), default: DEFAULT_FAMILY },
  p: { type: 'enum', values: PRESETS.map((p) => p.id), default: DEFAULT_PRESET },
  c: { type: 'string', maxLength: MAX_URL_CONVERSATION, default: '' },
  pl: { type: 'int', min: 0, max: 1000, default: 0 }, // messages in a pasted line's prompt; 0: none
  kw: { type: 'string', maxLength: MAX_URL_CONVERSATION, default: '' }, // a pasted line's template arguments
  t: { type: 'enum', values: TARGETS, default: 'assistant' },
  eot: { type: 'enum', values: END_OF_TURN, default: 'every' },
  hdr: { type: 'bool', default: false },
  pm: { type: 'enum', values: PAD_MASKING, default: 'position' },
  pad: { type: 'enum', values: PAD_CHOICES, default: 'tokenizer' },
  eos: { type: 'int', min: 0, max: 3, default: 0 }, // index into the family's eosChoices
  ast: { type: 'bool', default: false }, // add_special_tokens when tokenizing the render
  ml: { type: 'int', min: 0, max: 32768, default: 0 }, // max_length, 0 = no truncation
  rt: { type: 'string', maxLength: 200, default: '' }, // response template ('' = generation prompt)
  it: { type: 'string', maxLength: 200, default: '' }, // instruction template
  brk: { type: 'enum', values: BREAK_SCENARIOS, default: 'response_template' },
  b: { type: 'list', item: /^[a-z]{1,20}$/, maxItems: 4, default: [] },
  side: { type: 'enum', values: ['right', 'left'], default: 'right' },
  multiple: { type: 'enum', values: ['0', '8', '16', '64'], default: '0' },
  packing: { type: 'enum', values: ['none', 'flatten'], default: 'none' },
  ex: { type: 'string', maxLength: 80, pattern: /^[a-z0-9-]+$/, default: '' },
  tpl: { type: 'string', maxLength: MAX_LINK_TEMPLATE + 2, pattern: TPL_PATTERN, default: '' }, // a pasted template (template-link.js)
}, { reportUnknown: true });

/** Parses `c`; throws an Error whose message says what is wrong. */
export function decodeConversation(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error('is not valid JSON');
  }
  if (!Array.isArray(data) || data.length === 0) throw new Error('is not a list of [role, content] pairs');
  return data.map((pair, i) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
      throw new Error(`item ${i + 1} is not a [role, content] pair`);
    }
    if (!ROLES.includes(pair[0])) throw new Error(`item ${i + 1} has role "${pair[0].slice(0, 20)}"`);
    return { role: pair[0], content: pair[1] };
  });
}

export function encodeConversation(messages) {
  return JSON.stringify(messages.map((m) => [m.role, m.content]));
}

/** A prompt/completion split of `messages`: a prompt of 1 to n - 1 messages, else null. */
export function splitOf(messages, promptLength) {
  return Number.isInteger(promptLength) && promptLength > 0 && promptLength < messages.length ? promptLength : null;
}

/**
 * The conversation a state shows: { messages, problem, promptLength, packed } (problem: a
 * sentence, or null; promptLength: the split `pl` names, or null for the page's own split before
 * the last answer). A packed `c` needs conversationFromLink: here it gives the preset and
 * `packed: true`.
 */
export function conversationOf(state, unpacked = null) {
  let messages = presetById(state.p).messages;
  if (state.c.startsWith(PACKED) && unpacked === null) return { messages, problem: null, promptLength: null, packed: true };
  if (state.c) {
    try {
      messages = decodeConversation(unpacked ?? state.c);
    } catch (error) {
      return { messages, problem: `URL parameter c ${error.message}; showing the prepared conversation instead.`, promptLength: null };
    }
  }
  if (state.pl === 0) return { messages, problem: null, promptLength: null };
  const promptLength = state.c ? splitOf(messages, state.pl) : null;
  if (promptLength !== null) return { messages, problem: null, promptLength };
  const problem = state.c
    ? `URL parameter pl=${state.pl} is not a split of this ${messages.length}-message conversation; the prompt is everything before the last answer.`
    : `URL parameter pl=${state.pl} needs a conversation of the link’s own (c); the prompt is everything before the last answer.`;
  return { messages, problem, promptLength: null };
}

/** The text a packed (`z:`) parameter holds, or null when it does not unpack. */
async function unpacked(value) {
  try {
    return await unpackText(value.slice(PACKED.length), MAX_UNPACKED_CONVERSATION);
  } catch {
    return null;
  }
}

/** conversationOf, for a link whose conversation may be packed (`z:`). */
export async function conversationFromLink(state) {
  if (!state.c.startsWith(PACKED)) return conversationOf(state);
  const text = await unpacked(state.c);
  if (text === null) return { messages: presetById(state.p).messages, problem: 'URL parameter c does not hold a readable packed conversation; showing the prepared conversation instead.', promptLength: null };
  return conversationOf(state, text);
}

/**
 * The state with `messages` packed into the link when they are too long for it as they are, or
 * null when even packed they are (then the link leaves the conversation out).
 */
export async function withPackedConversation(state, messages, promptLength = null) {
  const packed = PACKED + (await packText(encodeConversation(messages)));
  if (packed.length > MAX_URL_CONVERSATION) return null;
  return { ...state, c: packed, pl: splitOf(messages, promptLength) ?? 0 };
}

/**
 * The state after the learner edited the conversation: a preset again if it matches one.
 * `promptLength` is the split to keep (a pasted prompt/completion line's), or null.
 */
export function withConversation(state, messages, promptLength = null) {
  const encoded = encodeConversation(messages);
  const preset = PRESETS.find((p) => encodeConversation(p.messages) === encoded);
  if (preset && splitOf(messages, promptLength) === null) return { ...state, p: preset.id, c: '', pl: 0 };
  const c = encoded.length <= MAX_URL_CONVERSATION ? encoded : '';
  return { ...state, c, pl: c ? (splitOf(messages, promptLength) ?? 0) : 0 };
}

/** Whether a link to `state` opens on `messages` (a long conversation is left out of it). */
export function linkCarries(state, messages) {
  if (state.c.startsWith(PACKED)) return true; // set for these messages (withPackedConversation)
  const encoded = encodeConversation(messages);
  return state.c ? state.c === encoded : encodeConversation(presetById(state.p).messages) === encoded;
}

/**
 * The template arguments a state carries (a pasted line's tools and chat_template_kwargs):
 * { kwargs, problem, packed } — kwargs an object, or null for none; problem a sentence, or null.
 * A packed `kw` needs lineArgumentsFromLink: here it gives none and `packed: true`.
 */
export function lineArgumentsOf(state, unpacked = null) {
  if (!state.kw) return { kwargs: null, problem: null };
  if (state.kw.startsWith(PACKED) && unpacked === null) return { kwargs: null, problem: null, packed: true };
  const refuse = (why) => ({ kwargs: null, problem: `URL parameter kw ${why}; the template renders without it.` });
  let value;
  try {
    value = JSON.parse(unpacked ?? state.kw);
  } catch {
    return refuse('is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return refuse('is not a JSON object of template arguments');
  const { tools, ...rest } = value;
  const read = templateArgumentsOf({ tools, chat_template_kwargs: rest });
  if (read.error) return refuse(`is refused: ${read.error}`);
  if (Object.keys(read.kwargs).length === 0) return refuse('names no template argument');
  return { kwargs: read.kwargs, problem: null };
}

/** lineArgumentsOf, for a link whose template arguments may be packed (`z:`). */
export async function lineArgumentsFromLink(state) {
  if (!state.kw.startsWith(PACKED)) return lineArgumentsOf(state);
  const text = await unpacked(state.kw);
  if (text === null) return { kwargs: null, problem: 'URL parameter kw does not hold readable packed template arguments; the template renders without them.' };
  return lineArgumentsOf(state, text);
}

/**
 * The state carrying `kwargs` (null: none) as JSON; left out of the link (kw empty) when too long
 * for it as it is, for withPackedLineArguments to pack.
 */
export function withLineArguments(state, kwargs) {
  const encoded = kwargs ? JSON.stringify(kwargs) : '';
  return { ...state, kw: encoded.length <= MAX_URL_CONVERSATION ? encoded : '' };
}

/** The state with `kwargs` packed into the link, or null when even packed they are too long. */
export async function withPackedLineArguments(state, kwargs) {
  const packed = PACKED + (await packText(JSON.stringify(kwargs)));
  return packed.length <= MAX_URL_CONVERSATION ? { ...state, kw: packed } : null;
}

/** The policies object chat-request.js takes, from the state and the family's eos choices. */
export function policiesOf(state, family) {
  const eosChoice = family.eosChoices[state.eos] ?? family.eosChoices[0];
  return {
    target: state.t,
    endOfTurn: state.eot,
    trainHeaders: state.hdr,
    padMasking: state.pm,
    pad: state.pad,
    eosToken: state.eos > 0 ? eosChoice.token : null,
    maxLength: state.ml > 0 ? state.ml : null,
    truncationSide: 'right',
    responseTemplate: state.rt || null,
    instructionTemplate: state.it,
  };
}
