// tokenizer-form.js — the form masklab stores a BPE tokenizer.json in, and building the
// @huggingface/tokenizers Tokenizer from it, faster than from the original.
//
//   const text = JSON.stringify(storedForm(originalJson));   // build time / set-up
//   const tokenizer = buildTokenizer(JSON.parse(text), tokenizerConfig);
//
// Measured (Qwen3, 151,643 tokens): most of the constructor's time is `new Map(Object.entries(vocab))`
// over the vocabulary object JSON.parse made, plus parsing that object. Stored as an array of
// token strings (index = id), the vocabulary parses and maps about 4x faster, and the file is
// smaller. The library cannot read that array itself, so the Tokenizer is built with an empty
// vocabulary and given the real one afterwards, exactly as its BPE constructor would have set it:
// tokens_to_ids (vocabulary, then the added tokens over it, as its constructor adds them), vocab
// (id -> token) and unk_token_id. Merges are stored as [left, right] pairs, the format the
// library reads without splitting strings. tests/node/tokenizer-form.test.mjs checks, on every
// family, that the result encodes and maps ids exactly as a Tokenizer built from the original does.

import { Tokenizer } from '@huggingface/tokenizers';

/** The stored form of a tokenizer.json (BPE models; anything else is returned as it was). */
export function storedForm(json, extra = {}) {
  if (json.model?.type !== 'BPE' || Array.isArray(json.model.vocab)) return { ...extra, ...json };
  const vocab = [];
  for (const [token, id] of Object.entries(json.model.vocab)) vocab[id] = token;
  for (let i = 0; i < vocab.length; i += 1) if (vocab[i] === undefined) vocab[i] = null;
  const merges = (json.model.merges ?? []).map((m) => (Array.isArray(m) ? m : m.split(' ')));
  return { ...extra, ...json, model: { ...json.model, vocab, merges } };
}

/** A Tokenizer from a tokenizer.json in either form. */
export function buildTokenizer(json, config) {
  const vocab = json.model?.vocab;
  if (!Array.isArray(vocab)) return new Tokenizer(json, config);
  const tokenizer = new Tokenizer({ ...json, model: { ...json.model, vocab: {} } }, config);
  const model = tokenizer.model;
  const ids = new Map();
  for (let id = 0; id < vocab.length; id += 1) if (vocab[id] !== null) ids.set(vocab[id], id);
  const byId = vocab.map((t) => t ?? undefined);
  for (const token of tokenizer.added_tokens) {
    ids.set(token.content, token.id);
    byId[token.id] = token.content;
  }
  model.tokens_to_ids = ids;
  model.vocab = byId;
  model.unk_token_id = ids.get(model.unk_token);
  return tokenizer;
}
