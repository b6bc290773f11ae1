// chat-analysis.js — a conversation rendered by a family's real chat template, tokenized by its
// real tokenizer, and cut into role spans: for every message, which tokens are its role header,
// its content and its tail (the end-of-turn token and what follows it).
//
//   const chat = analyseChat(fam, messages, { template, addSpecialTokens, eosToken, kwargs });
//   chat.text, chat.ids, chat.tokens, chat.display, chat.special   // [T] each
//   chat.messages[k] = { role, header: [a, b], content: [b, c], tail: [c, d], endOfTurn: i | -1 }
//   chat.prefixBreaks, chat.boundaryTokens, chat.generationMask, chat.notes
//   chat.completionStart, chat.completionMessage: where the prompt/completion split falls (token,
//     message) — after { promptLength } messages when given (a dataset's prompt), else before the
//     last assistant message; chat.promptLength: the option as given (null: not given)
//   chat.generationPrompt (with { generationPrompt: true }: what add_generation_prompt adds)
//
// How spans are found, and cross-checked (docs/semantics.md §8.2):
//  1. Content: the conversation is rendered once more with every message's content wrapped in two
//     private-use marker characters; their positions, once the markers are removed, are the
//     content's characters. The marker-free text must equal the plain render; where a template
//     edits content (trims it, splits out reasoning) the content is found by searching instead,
//     and a note says so.
//  2. Header and tail: the tokens between two contents belong to the earlier message up to its
//     first special token (its end-of-turn token) and the plain tokens right after it (a
//     newline); the rest is the next message's header.
//  3. Growing prefixes: messages[:k] is rendered for every k. Where that text is a prefix of the
//     whole render, its end must be a boundary in step 2 (a note when it is not); where it is not
//     a prefix, the template is not prefix-stable at message k (prefixBreaks), and masks computed
//     turn by turn would be wrong there.
//  4. `{% generation %}` blocks, when the template has them, give the mask transformers'
//     return_assistant_tokens_mask returns: the tokens from the one holding a block's first
//     character to the one holding its last.
// Token offsets come from token-offsets.js. Not here: labels, warnings or counts — the C++ core
// computes them from these spans (chat-request.js builds its request).

import {
  ChatError,
  CONTENT_BASE,
  GENERATION_END,
  GENERATION_START,
  MAX_MESSAGES,
  compileTemplate,
  containsMarkers,
  readMarkers,
  renderChat,
  withContentMarkers,
} from './chat-template.js';
import { ROLES } from './families.js';
import { prefixRenderer } from './render-cache.js';

export { ROLES };

export const MAX_CONTENT_CHARS = 100_000;
export const REASONING_FIELDS = ['thinking', 'reasoning_content'];

/** Checks roles and contents; throws ChatError(kind 'message') naming the first bad message. */
export function validateMessages(messages) {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new ChatError('the conversation has no messages', { kind: 'message' });
  }
  if (messages.length > MAX_MESSAGES) {
    throw new ChatError(`the conversation has ${messages.length} messages; the limit is ${MAX_MESSAGES}`, { kind: 'message' });
  }
  messages.forEach((m, k) => {
    const where = `message ${k + 1}`;
    if (!m || typeof m !== 'object' || Array.isArray(m)) throw new ChatError(`${where} is not an object with role and content`, { kind: 'message', messageIndex: k });
    if (typeof m.role !== 'string') throw new ChatError(`${where} has no role`, { kind: 'message', messageIndex: k });
    if (!ROLES.includes(m.role)) {
      throw new ChatError(`${where}: role "${m.role.slice(0, 40)}" is not one of ${ROLES.join(', ')}`, { kind: 'message', messageIndex: k });
    }
    const hasToolCalls = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    if (m.content === undefined || m.content === null) {
      if (!hasToolCalls) throw new ChatError(`${where} (${m.role}) has no content`, { kind: 'message', messageIndex: k });
    } else if (typeof m.content !== 'string') {
      throw new ChatError(`${where} (${m.role}): content must be text`, { kind: 'message', messageIndex: k });
    } else if (m.content.trim() === '' && !hasToolCalls) {
      throw new ChatError(`${where} (${m.role}) is empty`, { kind: 'message', messageIndex: k });
    } else if (m.content.length > MAX_CONTENT_CHARS) {
      throw new ChatError(`${where} (${m.role}) is longer than ${MAX_CONTENT_CHARS} characters`, { kind: 'message', messageIndex: k });
    } else if (containsMarkers(m.content)) {
      throw new ChatError(`${where} (${m.role}) contains a private-use character (U+E000–U+E7CF or U+F8F0–U+F8F1) that masklab uses to find spans`, { kind: 'message', messageIndex: k });
    }
    // The reasoning fields templates read (gpt-oss: thinking; Qwen3: reasoning_content).
    for (const field of REASONING_FIELDS) {
      const v = m[field];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string') throw new ChatError(`${where} (${m.role}): ${field} must be text`, { kind: 'message', messageIndex: k });
      if (v.length > MAX_CONTENT_CHARS) throw new ChatError(`${where} (${m.role}): ${field} is longer than ${MAX_CONTENT_CHARS} characters`, { kind: 'message', messageIndex: k });
      if (containsMarkers(v)) throw new ChatError(`${where} (${m.role}): ${field} contains a private-use character that masklab uses to find spans`, { kind: 'message', messageIndex: k });
    }
  });
}

// Renders the whole conversation; when the template refuses it, finds the first message whose
// prefix it refuses, so the error names a message. An error the template also raises with no
// message at all is the template's own (an unconditional raise_exception, a range() too large to
// build): blaming message 1 for it would send the learner to the wrong place.
function renderOrExplain(render, messages) {
  try {
    return render(messages.length);
  } catch (error) {
    let at = null;
    for (let k = 1; k <= messages.length && at === null; k += 1) {
      try {
        render(k);
      } catch {
        at = k - 1;
      }
    }
    if (at === 0 && sameErrorWithoutMessages(render, error)) {
      throw new ChatError(`the chat template fails whatever the conversation: ${error.message}`, { kind: 'render', messageIndex: null });
    }
    const where = at === null ? 'the conversation' : `message ${at + 1} (${messages[at].role})`;
    throw new ChatError(`the chat template refused ${where}: ${error.message}`, { kind: 'render', messageIndex: at });
  }
}

function sameErrorWithoutMessages(render, error) {
  try {
    render(0);
    return false;
  } catch (alone) {
    return alone.message === error.message;
  }
}

// Content character spans [start, end) per message from the marker render, or by search.
function contentSpans(compiled, messages, text, options, notes) {
  const marked = renderChat(compiled, withContentMarkers(messages), options);
  const { clean, positions } = readMarkers(marked);
  const spans = messages.map(() => null);
  const markersAgree = clean === text;
  messages.forEach((m, k) => {
    if (typeof m.content !== 'string') return;
    const open = positions.get(String.fromCharCode(CONTENT_BASE + 2 * k)) ?? [];
    const close = positions.get(String.fromCharCode(CONTENT_BASE + 2 * k + 1)) ?? [];
    if (markersAgree && open.length === 1 && close.length === 1 && open[0] <= close[0]) spans[k] = [open[0], close[0]];
    if (markersAgree && open.length > 1) notes.push({ id: 'content_repeated', message: k, text: `the template prints message ${k + 1}'s content ${open.length} times; the first copy is used` });
    if (markersAgree && open.length > 1 && close.length > 0) spans[k] = [open[0], close[0]];
  });
  if (!markersAgree) {
    notes.push({ id: 'markers_changed_render', message: null, text: 'the template changes message text (for example it trims it), so contents were found by searching the render' });
    let from = 0;
    messages.forEach((m, k) => {
      if (typeof m.content !== 'string') return;
      for (const needle of [m.content, m.content.trim()]) {
        const at = needle ? text.indexOf(needle, from) : -1;
        if (at >= 0) {
          spans[k] = [at, at + needle.length];
          from = at + needle.length;
          return;
        }
      }
    });
  }
  messages.forEach((m, k) => {
    if (typeof m.content === 'string' && spans[k] === null) {
      notes.push({ id: 'content_not_rendered', message: k, text: `message ${k + 1} (${m.role}): its content is not in the rendered text` });
    }
  });
  return spans;
}

// Tokens are in text order, so starts and ends never decrease. Zero-width tokens (a BOS the
// tokenizer added) have start = end.
// firstEndAfter(c): the token holding character c, or the first one after it.
function firstEndAfter(offsets, char) {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid][1] <= char) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// firstStartAtOrAfter(c): the first token that starts at or after character c.
function firstStartAtOrAfter(offsets, char) {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid][0] < char) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Token index ranges per message: header, content, tail, and the end-of-turn token.
// Leading BOS tokens (one the template wrote, one the tokenizer added) belong to no message.
function tokenSpans(messages, charSpans, { offsets, special, added, ids, bosId }) {
  const T = offsets.length;
  const order = charSpans
    .map((span, k) => ({ k, span }))
    .filter((x) => x.span !== null)
    .sort((a, b) => a.span[0] - b.span[0]);
  const content = new Map();
  const boundary = new Set();
  for (const { k, span } of order) {
    // A token belongs to the content when it overlaps it (transformers' char_to_token rule).
    const a = span[1] > span[0] ? firstEndAfter(offsets, span[0]) : firstStartAtOrAfter(offsets, span[0]);
    const b = span[1] > span[0] ? Math.max(a, firstStartAtOrAfter(offsets, span[1])) : a;
    if (b > a && offsets[a][0] < span[0]) boundary.add(a);
    if (b > a && offsets[b - 1][1] > span[1]) boundary.add(b - 1);
    content.set(k, [a, b]);
  }
  const result = messages.map((m) => ({ role: m.role, header: null, content: null, tail: null, endOfTurn: -1 }));
  let cursor = 0;
  while (cursor < T && (added[cursor] || (bosId !== null && ids[cursor] === bosId))) cursor += 1;
  for (let i = 0; i < order.length; i += 1) {
    const { k } = order[i];
    const [a, b] = content.get(k);
    result[k].header = [Math.min(cursor, a), a];
    result[k].content = [a, b];
    // Tail: up to and including the first special token, then the plain tokens before the
    // next special token; it stops where the next message's content starts. Without a special
    // token in between (Gemma's "\n\n" between system text and user text) all of it is tail.
    const limit = i + 1 < order.length ? content.get(order[i + 1].k)[0] : T;
    let c = b;
    let eot = -1;
    for (let t = b; t < limit; t += 1) {
      if (special[t] && !added[t]) {
        eot = t;
        break;
      }
    }
    if (eot >= 0) {
      c = eot + 1;
      while (c < limit && !special[c]) c += 1;
    } else {
      c = limit; // no special token before the next content: all of it is this message's tail
    }
    result[k].tail = [b, c];
    result[k].endOfTurn = eot;
    cursor = c;
  }
  // A whole turn the template writes of its own before the first message (Llama 3.1's system
  // block with its dates, gpt-oss's system message) is scaffolding, not the first message's
  // header: it ends with a token that ends the messages' turns, and the plain tokens after it.
  if (order.length) {
    const first = result[order[0].k];
    const endIds = new Set(result.filter((m) => m.endOfTurn >= 0).map((m) => ids[m.endOfTurn]));
    let cut = -1;
    for (let t = first.header[0]; t < first.header[1]; t += 1) if (special[t] && !added[t] && endIds.has(ids[t])) cut = t;
    if (cut >= 0) {
      let c = cut + 1;
      while (c < first.header[1] && !special[c]) c += 1;
      first.header = [c, first.header[1]];
    }
  }
  return { spans: result, boundaryTokens: [...boundary].sort((x, y) => x - y) };
}

/**
 * Renders, tokenizes and cuts a conversation. Throws ChatError for bad messages, a template that
 * does not parse or refuses the conversation, or text the offsets cannot be aligned with.
 */
export function analyseChat(fam, messages, { template = null, addSpecialTokens = false, eosToken = null, kwargs = null, generationPrompt = false, now = null, turnByTurn = false, promptLength = null } = {}) {
  validateMessages(messages);
  const source = template ?? fam.template;
  if (!source) {
    throw new ChatError(`${fam.family.label}'s tokenizer_config.json has no chat_template; paste the model's chat template to render conversations`, { kind: 'template' });
  }
  const compiled = compileTemplate(source);
  const specials = { ...fam.specials };
  if (eosToken) specials.eos_token = eosToken;
  // One clock reading for every render of this analysis (strftime_now must print the same date).
  const at = (now ?? (() => new Date()))();
  const options = { specials, kwargs: kwargs ?? fam.family.templateKwargs ?? {}, now: () => at };
  const notes = [];
  const render = prefixRenderer(compiled, messages, options);

  const text = renderOrExplain(render, messages);
  const charSpans = contentSpans(compiled, messages, text, options, notes);

  let encoding;
  let located;
  try {
    encoding = fam.encode(text, { addSpecialTokens });
    located = fam.locate(text, encoding.tokens);
  } catch (error) {
    throw new ChatError(`the rendered text could not be tokenized: ${error.message}`, { kind: 'tokenize' });
  }
  const { ids, tokens } = encoding;
  const { offsets, bytes, added } = located;
  const special = ids.map((id) => (fam.isSpecial(id) ? 1 : 0));
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const display = bytes.map((b) => decoder.decode(b));
  const bosId = fam.tokenId(fam.specials.bos_token);
  const { spans, boundaryTokens } = tokenSpans(messages, charSpans, { offsets, special, added, ids, bosId });

  // Growing prefixes: where messages[:k] renders as a prefix of the whole, its end is a boundary.
  const prefixBreaks = [];
  const boundaryChars = new Set(spans.filter((s) => s.tail).map((s) => (s.tail[1] < offsets.length ? offsets[s.tail[1]][0] : text.length)));
  for (let k = 1; k < messages.length; k += 1) {
    let prefix;
    try {
      prefix = render(k);
    } catch {
      continue; // a template may refuse a partial conversation (e.g. one ending on a user turn)
    }
    if (!text.startsWith(prefix)) prefixBreaks.push(k - 1);
    else if (prefix.length > 0 && !boundaryChars.has(prefix.length)) {
      notes.push({ id: 'prefix_boundary_differs', message: k - 1, text: `the render of messages 1–${k} ends at character ${prefix.length}, inside what the special tokens mark as a turn` });
    }
  }

  // The prompt of a prompt/completion split, rendered with the generation prompt (what TRL
  // tokenizes as the prompt): a dataset's own prompt (promptLength messages), or else everything
  // before the last assistant message.
  let completionStart = null;
  const completionMessage = promptLength ?? messages.map((m) => m.role).lastIndexOf('assistant');
  if (completionMessage > 0 && completionMessage < messages.length) {
    try {
      const prompt = render(completionMessage, { addGenerationPrompt: true });
      if (text.startsWith(prompt)) {
        const t = firstStartAtOrAfter(offsets, prompt.length);
        completionStart = t > 0 && offsets[t - 1][1] > prompt.length ? -1 : t;
      } else completionStart = -1;
    } catch {
      completionStart = -1;
    }
    if (completionStart === -1) notes.push({ id: 'prompt_not_prefix', message: completionMessage, text: 'the prompt rendered with the generation prompt is not a token prefix of the whole conversation' });
  }

  // {% generation %} blocks, as transformers' return_assistant_tokens_mask reads them.
  let generationMask = null;
  if (compiled.generation) {
    generationMask = new Array(ids.length).fill(0);
    const marked = renderChat(compiled, messages, options, 'marked');
    const { clean, positions } = readMarkers(marked);
    const starts = positions.get(GENERATION_START) ?? [];
    const ends = positions.get(GENERATION_END) ?? [];
    if (clean !== text) notes.push({ id: 'generation_render_differs', message: null, text: 'the render with generation markers differs from the plain render' });
    for (let i = 0; i < Math.min(starts.length, ends.length); i += 1) {
      if (ends[i] <= starts[i]) continue;
      const a = firstEndAfter(offsets, starts[i]);
      const b = firstEndAfter(offsets, ends[i] - 1);
      for (let t = a; t <= Math.min(b, ids.length - 1); t += 1) generationMask[t] = 1;
    }
  }

  return {
    text,
    ids,
    tokens,
    display,
    special,
    added: added.map((x) => (x ? 1 : 0)),
    offsets,
    messages: spans,
    charSpans,
    prefixBreaks,
    boundaryTokens,
    completionStart,
    completionMessage,
    promptLength,
    generationMask,
    hasGenerationBlocks: compiled.generation,
    notes,
    // Only the response-template policy needs it (two more renders): computed when asked.
    generationPrompt: generationPrompt ? generationPromptOf(compiled, options) || fam.family.responseTemplateFallback || '' : null,
    turnMask: turnByTurn ? turnMaskOf(fam, messages, render, ids.length) : null,
  };
}

// The labels open-instruct's sft_tulu_tokenize_and_truncate (finetune.py) builds: every token
// trained except, for each non-assistant message k, the tokens from len(tokenize(messages[:k]))
// to len(tokenize(messages[:k+1])) — with the generation prompt when an assistant message
// follows — of the whole conversation's tokens. Right only where every prefix renders as a
// prefix of the whole (docs/semantics.md §8.2); the core compares it with the role spans.
function turnMaskOf(fam, messages, render, T) {
  const mask = new Array(T).fill(1);
  const count = (k, addGenerationPrompt = false) => fam.encode(render(k, { addGenerationPrompt })).ids.length;
  messages.forEach((m, k) => {
    if (m.role === 'assistant') return;
    let start;
    let end;
    try {
      start = k === 0 ? 0 : count(k);
      end = count(k + 1, k + 1 < messages.length && messages[k + 1].role === 'assistant');
    } catch {
      return; // a prefix the template refuses: that pipeline would have stopped here
    }
    for (let t = Math.max(0, start); t < Math.min(end, T); t += 1) mask[t] = 0;
  });
  return mask;
}

// The text the template adds for add_generation_prompt=True after a user turn: what people
// passed to TRL's completion-only collator as its response_template.
function generationPromptOf(compiled, options) {
  const probe = [{ role: 'user', content: 'x' }];
  try {
    const without = renderChat(compiled, probe, options);
    const withPrompt = renderChat(compiled, probe, { ...options, addGenerationPrompt: true });
    return withPrompt.startsWith(without) ? withPrompt.slice(without.length) : '';
  } catch {
    return '';
  }
}
