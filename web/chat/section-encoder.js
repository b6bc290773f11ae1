// section-encoder.js — tokenizes a rendered chat the way @huggingface/tokenizers does, but
// encodes each stretch of text between special tokens only once, so re-tokenizing after an edit
// costs the edited message's text, not the whole conversation's.
//
//   const encode = createSectionEncoder(tokenizer);
//   encode(text)   // -> { ids, tokens }, equal to tokenizer.encode(text, { add_special_tokens: false })
//
// Why it is exact: Tokenizer.encode_text (0.2.0) first cuts the text at added tokens (its
// splitter_unnormalized), trims neighbours of tokens marked lstrip/rstrip, and then normalizes,
// pre-tokenizes and runs the model on each remaining section on its own. The tokens of a section
// therefore depend only on its text — and on its index, for a Metaspace pre-tokenizer with
// prepend_scheme "first", in which case this falls back to encoding the whole text. The cut and
// the trimming below are the library's own code, step for step; tests/node/section-encoder.test.mjs
// compares the two on every family so a library change cannot pass silently.
// Not here: add_special_tokens (the post-processor) — callers use the tokenizer for that.

function usesFirstOnlyPrepend(node) {
  if (!node || typeof node !== 'object') return false;
  if (node.type === 'Metaspace' && node.prepend_scheme === 'first') return true;
  return (node.pretokenizers ?? []).some(usesFirstOnlyPrepend);
}

/** Returns encode(text) -> { ids, tokens }; `capacity` bounds the sections kept. */
export function createSectionEncoder(tokenizer, { capacity = 4096 } = {}) {
  const whole = (text) => {
    const { ids, tokens } = tokenizer.encode(text, { add_special_tokens: false });
    return { ids, tokens };
  };
  const splitter = tokenizer.splitter_unnormalized;
  const added = tokenizer.added_tokens_map;
  if (!splitter?.split || !added?.get || usesFirstOnlyPrepend(tokenizer.tokenizer?.pre_tokenizer)) return whole;

  const cache = new Map(); // section text -> { ids, tokens }, oldest first
  function section(text) {
    let hit = cache.get(text);
    if (hit) return hit;
    hit = whole(text);
    if (cache.size >= capacity) cache.delete(cache.keys().next().value);
    cache.set(text, hit);
    return hit;
  }

  return function encode(text) {
    const sections = splitter.split(text);
    sections.forEach((s, i) => {
      const token = added.get(s);
      if (!token) return;
      if (token.lstrip && i > 0) sections[i - 1] = sections[i - 1].trimEnd();
      if (token.rstrip && i < sections.length - 1) sections[i + 1] = sections[i + 1].trimStart();
    });
    const ids = [];
    const tokens = [];
    for (const s of sections) {
      if (s.length === 0) continue;
      const token = added.get(s);
      if (token) {
        ids.push(token.id);
        tokens.push(s);
        continue;
      }
      const part = section(s);
      for (let i = 0; i < part.ids.length; i += 1) {
        ids.push(part.ids[i]);
        tokens.push(part.tokens[i]);
      }
    }
    return { ids, tokens };
  };
}
