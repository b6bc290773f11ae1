// node-family.mjs — a model family ready to use in node (the chat-masks CLI, the content build,
// tests, the bench): its files from the set-up cache, built once per process.
//
//   const fam = nodeFamily('qwen3');      // throws with "run bash scripts/setup.sh" when not cached

import { familyById, FAMILIES } from '../../web/chat/families.js';
import { createChatFamily } from '../../web/chat/chat-family.js';
import { readFamilyFiles } from './tokenizer-cache.mjs';

const built = new Map();

export function nodeFamily(id) {
  const family = familyById(id);
  if (!family) throw new Error(`unknown family "${id}"; expected one of ${FAMILIES.map((f) => f.id).join(', ')}`);
  if (!built.has(id)) built.set(id, createChatFamily(family, readFamilyFiles(family)));
  return built.get(id);
}
