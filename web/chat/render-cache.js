// render-cache.js — renders of a conversation's prefixes (messages[:k]), remembered between
// analyses. An edit to message j changes only the renders of prefixes that contain it, so the
// prefix-stability cross-check (chat-analysis.js step 3) re-renders only those; editing the last
// message re-renders none of them.
//
//   const render = prefixRenderer(compiled, messages, options);
//   render(k)                                  // renderChat(compiled, messages.slice(0, k), options)
//   render(k, { addGenerationPrompt: true })   // the same with the generation prompt
//
// A refusal (ChatError) is remembered like a text. Keys: the compiled template, the options
// (special tokens, kwargs, the clock to the minute: strftime_now may print it) and a 53-bit hash
// chain over the messages' JSON, so a long conversation costs one hash per message, not a copy
// of every prefix. The cache holds at most MAX_CHARS characters of renders, oldest dropped first.

import { renderChat } from './chat-template.js';

const MAX_CHARS = 8_000_000;
const cache = new Map(); // key -> { text } | { error }
let chars = 0;
const templateIds = new WeakMap();
let nextTemplateId = 1;

// cyrb53 (a public-domain 53-bit string hash), seeded so the chain differs from a plain hash.
function hash53(text, seed = 0) {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

function remember(key, entry) {
  const size = entry.text?.length ?? 64;
  cache.set(key, entry);
  chars += size;
  for (const [old, value] of cache) {
    if (chars <= MAX_CHARS) break;
    cache.delete(old);
    chars -= value.text?.length ?? 64;
  }
}

/** Forgets every remembered render (tests compare against an analysis without them). */
export function clearRenderCache() {
  cache.clear();
  chars = 0;
}

export function prefixRenderer(compiled, messages, options) {
  if (!templateIds.has(compiled)) templateIds.set(compiled, nextTemplateId++);
  const now = (options.now ?? (() => new Date()))();
  const base = `${templateIds.get(compiled)}|${Math.floor(now.getTime() / 60000)}|${JSON.stringify([options.specials ?? {}, options.kwargs ?? {}])}`;
  const chain = [0];
  for (let k = 0; k < messages.length; k += 1) chain.push(hash53(JSON.stringify(messages[k]), chain[k] % 4294967296));
  const fixed = { ...options, now: () => now };
  return function render(k, { addGenerationPrompt = false } = {}) {
    const key = `${base}|${k}|${chain[k]}|${addGenerationPrompt ? 1 : 0}`;
    let entry = cache.get(key);
    if (!entry) {
      try {
        entry = { text: renderChat(compiled, messages.slice(0, k), { ...fixed, addGenerationPrompt }) };
      } catch (error) {
        entry = { error };
      }
      remember(key, entry);
    }
    if (entry.error) throw entry.error;
    return entry.text;
  };
}
