// chat-template.js — renders a chat template the way transformers' apply_chat_template does, with
// @huggingface/jinja, plus the two instrumented renders role spans are read from.
//
//   const t = compileTemplate(source);                 // throws ChatError(kind 'template') if it does not parse
//   renderChat(t, messages, { specials, kwargs, addGenerationPrompt })   // -> string
//
// The context is transformers': `messages`, `tools` and `documents` (None unless given, as
// apply_chat_template passes them), `add_generation_prompt`, every special token the
// tokenizer_config.json names (bos_token, eos_token, …; absent ones are left undefined, as
// transformers leaves out unset tokens), the template kwargs (e.g. enable_thinking), and the
// helpers raise_exception and strftime_now. strftime_now reads a clock the caller may fix
// (`now`, a function returning a Date; today by default, as Python's datetime.now()), so tests
// and the content build render gpt-oss's "Current date:" line the same on every day.
//
// `{% generation %}` … `{% endgeneration %}` (transformers PR #30650): the block renders its body
// unchanged, and transformers records where the body landed (return_assistant_tokens_mask).
// @huggingface/jinja drops the tags before parsing; we rewrite each tag into an `{% if true %}`
// block of our own, so whitespace control and trim_blocks act on it as on any block tag in
// Python's Jinja, and, for the instrumented render, print a private-use marker character inside it.

import { Environment, Interpreter, Template } from '@huggingface/jinja';

export class ChatError extends Error {
  /** kind: 'template' | 'render' | 'message' | 'tokenize'; messageIndex: 0-based or null. */
  constructor(message, { kind, messageIndex = null } = {}) {
    super(message);
    this.kind = kind;
    this.messageIndex = messageIndex;
  }
}

export const GENERATION_START = '\uF8F0';
export const GENERATION_END = '\uF8F1';
// Content markers: message k's content is wrapped in CONTENT_BASE + 2k and CONTENT_BASE + 2k + 1.
export const CONTENT_BASE = 0xe000;
export const MAX_MESSAGES = 1000; // 2 markers each inside U+E000..U+E7CF
const MARKER_CHARS = /[\uE000-\uE7CF\uF8F0\uF8F1]/g;

const GENERATION_TAG = /{%(-?)\s*(end)?generation\s*(-?)%}/g;

export function hasGenerationBlocks(source) {
  return /{%-?\s*generation\s*-?%}/.test(source);
}

function rewriteGeneration(source, withMarkers) {
  return source.replace(GENERATION_TAG, (_, lstrip, end, rstrip) => {
    const marker = withMarkers ? `{{ '${end ? GENERATION_END : GENERATION_START}' }}` : '';
    return `{%${lstrip} if true %}${marker}{% endif ${rstrip}%}`;
  });
}

function compileOne(source) {
  try {
    return new Template(source);
  } catch (error) {
    throw new ChatError(`the chat template cannot be parsed: ${error.message}`, { kind: 'template' });
  }
}

const compiledCache = new Map(); // source -> compiled; a page edit re-renders with the same template

/** Compiles the template twice: as transformers renders it, and with generation markers. */
export function compileTemplate(source) {
  if (typeof source !== 'string' || source.trim() === '') {
    throw new ChatError('there is no chat template to render', { kind: 'template' });
  }
  const hit = compiledCache.get(source);
  if (hit) return hit;
  const compiled = compileUncached(source);
  if (compiledCache.size >= 8) compiledCache.delete(compiledCache.keys().next().value);
  compiledCache.set(source, compiled);
  return compiled;
}

function compileUncached(source) {
  const generation = hasGenerationBlocks(source);
  return {
    source,
    generation,
    plain: compileOne(generation ? rewriteGeneration(source, false) : source),
    marked: generation ? compileOne(rewriteGeneration(source, true)) : null,
  };
}

// Python's strftime in the C locale (what transformers' strftime_now gives on a server): the
// directives chat templates use. @huggingface/jinja's own strftime_now takes month names from the
// browser's locale and cannot be given a fixed date, so the page and node use this one.
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad2 = (n) => String(n).padStart(2, '0');
export function strftime(date, format) {
  return String(format).replace(/%[YmdbBaAHMSy%]/g, (d) => {
    switch (d) {
      case '%Y': return String(date.getFullYear());
      case '%y': return pad2(date.getFullYear() % 100);
      case '%m': return pad2(date.getMonth() + 1);
      case '%d': return pad2(date.getDate());
      case '%b': return MONTHS[date.getMonth()].slice(0, 3);
      case '%B': return MONTHS[date.getMonth()];
      case '%a': return DAYS[date.getDay()].slice(0, 3);
      case '%A': return DAYS[date.getDay()];
      case '%H': return pad2(date.getHours());
      case '%M': return pad2(date.getMinutes());
      case '%S': return pad2(date.getSeconds());
      default: return '%';
    }
  });
}

function context(messages, { specials = {}, kwargs = {}, addGenerationPrompt = false } = {}) {
  const ctx = { messages, tools: null, documents: null, ...kwargs, add_generation_prompt: addGenerationPrompt };
  for (const [name, value] of Object.entries(specials)) if (value !== null && value !== undefined) ctx[name] = value;
  return ctx;
}

// Template.render of @huggingface/jinja 0.5.11 with our strftime_now: the same globals
// (setupGlobals in its runtime), then the context, then its interpreter.
function renderWith(template, items, now) {
  const env = new Environment();
  env.set('false', false);
  env.set('true', true);
  env.set('none', null);
  env.set('raise_exception', (message) => {
    throw new Error(message);
  });
  env.set('range', range);
  env.set('strftime_now', (format) => strftime(now(), format));
  env.set('True', true);
  env.set('False', false);
  env.set('None', null);
  for (const [key, value] of Object.entries(items)) env.set(key, value);
  return new Interpreter(env).run(template.parsed).value;
}

// transformers renders in Jinja's ImmutableSandboxedEnvironment, whose range is safe_range: a
// range of more than MAX_RANGE items raises OverflowError before any item is made. The same limit
// here fails such a template at once, as transformers would, instead of building a huge list.
export const MAX_RANGE = 100000;

const PYTHON_TYPE = { string: 'str', object: 'NoneType', undefined: 'Undefined' };

function rangeArgument(value) {
  if (typeof value === 'boolean') return Number(value); // Python's bool is an int
  if (Number.isInteger(value)) return value;
  const type = typeof value === 'number' ? 'float' : (PYTHON_TYPE[typeof value] ?? typeof value);
  throw new Error(`'${type}' object cannot be interpreted as an integer`);
}

/** Python's range() under the sandbox: 1 to 3 integers, step not 0, at most MAX_RANGE items. */
export function range(...args) {
  if (args.length === 0 || args.length > 3) {
    throw new Error(args.length === 0 ? 'range expected at least 1 argument, got 0' : `range expected at most 3 arguments, got ${args.length}`);
  }
  const [start, stop, step] = args.length === 1 ? [0, rangeArgument(args[0]), 1] : [rangeArgument(args[0]), rangeArgument(args[1]), args.length === 3 ? rangeArgument(args[2]) : 1];
  if (step === 0) throw new Error('range() arg 3 must not be zero');
  const span = step > 0 ? stop - start : start - stop;
  const length = span > 0 ? Math.floor((span - 1) / Math.abs(step)) + 1 : 0;
  if (length > MAX_RANGE) throw new Error(`Range too big. The sandbox blocks ranges larger than MAX_RANGE (${MAX_RANGE}).`);
  return Array.from({ length }, (_, i) => start + i * step);
}

const today = () => new Date();

/** Renders with the compiled template (`which`: 'plain' | 'marked'); template errors become ChatError. */
export function renderChat(compiled, messages, options = {}, which = 'plain') {
  const template = compiled[which] ?? compiled.plain;
  try {
    return renderWith(template, context(messages, options), options.now ?? today);
  } catch (error) {
    throw new ChatError(error.message, { kind: 'render' });
  }
}

/** The messages with each content wrapped in its two markers (k = message index). */
export function withContentMarkers(messages) {
  return messages.map((m, k) =>
    typeof m.content === 'string'
      ? { ...m, content: String.fromCharCode(CONTENT_BASE + 2 * k) + m.content + String.fromCharCode(CONTENT_BASE + 2 * k + 1) }
      : m,
  );
}

export function stripMarkers(text) {
  return text.replace(MARKER_CHARS, '');
}

/**
 * Reads marker positions out of an instrumented render: returns the text without markers and,
 * for every marker character, its positions in that clean text.
 */
export function readMarkers(text) {
  const positions = new Map();
  let clean = '';
  let last = 0;
  MARKER_CHARS.lastIndex = 0;
  for (let m = MARKER_CHARS.exec(text); m; m = MARKER_CHARS.exec(text)) {
    clean += text.slice(last, m.index);
    last = m.index + 1;
    const list = positions.get(m[0]) ?? [];
    list.push(clean.length);
    positions.set(m[0], list);
  }
  clean += text.slice(last);
  return { clean, positions };
}

export function containsMarkers(text) {
  MARKER_CHARS.lastIndex = 0;
  return MARKER_CHARS.test(text);
}
