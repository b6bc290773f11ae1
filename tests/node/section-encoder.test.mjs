// section-encoder.js and render-cache.js: the two things the chat analysis remembers between
// edits must never change its answer. The section encoder is compared with the library's own
// encode on every family, over the prepared conversations rendered by each family's template and
// over random strings mixing special tokens, whitespace, digits and non-ASCII text; an analysis
// after edits (served partly from the caches) is compared with one on fresh caches.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { analyseChat } from '../../web/chat/chat-analysis.js';
import { createChatFamily } from '../../web/chat/chat-family.js';
import { familyById, FAMILIES } from '../../web/chat/families.js';
import { PRESETS } from '../../web/chat/presets.js';
import { clearRenderCache } from '../../web/chat/render-cache.js';
import { createSectionEncoder } from '../../web/chat/section-encoder.js';
import { nodeFamily } from '../../scripts/chat/node-family.mjs';
import { readFamilyFiles } from '../../scripts/chat/tokenizer-cache.mjs';

const NOW = () => new Date(2025, 7, 5);

// A small deterministic generator, so a failure names a reproducible string.
function random(seed) {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
}

const PIECES = ['Hello', ' world', '!', '12345', '\t', '  ', ' \n ', '\n\n', 'ａｂ', 'café', 'é😀 ', 'x\n\ny', "'s", '—'];

describe('the section encoder gives the library\'s tokens', () => {
  for (const family of FAMILIES) {
    test(family.id, () => {
      const fam = nodeFamily(family.id);
      const encode = createSectionEncoder(fam.tokenizer);
      const specials = fam.tokenizer.added_tokens.slice(0, 50).map((t) => t.content);
      const texts = [];
      for (const p of PRESETS) {
        try {
          texts.push(analyseChat(fam, p.messages, { now: NOW }).text);
        } catch {
          // a template may refuse a preset (gpt-oss: a tool turn without a tool call)
        }
      }
      const next = random(7);
      for (let i = 0; i < 150; i += 1) {
        let s = '';
        for (let j = 0; j < 10; j += 1) s += next() < 0.3 ? specials[Math.floor(next() * specials.length)] : PIECES[Math.floor(next() * PIECES.length)];
        texts.push(s);
      }
      for (const text of texts) {
        const expected = fam.tokenizer.encode(text, { add_special_tokens: false });
        const first = encode(text);
        assert.deepEqual(first.tokens, expected.tokens, JSON.stringify(text));
        assert.deepEqual(first.ids, expected.ids, JSON.stringify(text));
        assert.deepEqual(encode(text), first, 'a second call, from the cache, is the same');
      }
    });
  }
});

test('an analysis after edits, partly from remembered renders and sections, equals one computed afresh', () => {
  const fam = nodeFamily('qwen3');
  const base = PRESETS.find((p) => p.id === 'reasoning').messages;
  analyseChat(fam, base, { now: NOW });
  const edits = [
    base.map((m, k) => (k === 3 ? { ...m, content: `${m.content} More.` } : m)),
    base.map((m, k) => (k === 0 ? { ...m, content: 'Is 93 prime?' } : m)),
    base.slice(0, 2),
    base,
  ];
  for (const messages of edits) {
    const cached = analyseChat(fam, messages, { now: NOW });
    clearRenderCache();
    const again = analyseChat(createChatFamily(familyById('qwen3'), readFamilyFiles(familyById('qwen3'))), messages, { now: NOW });
    assert.deepEqual(cached, again);
  }
});
