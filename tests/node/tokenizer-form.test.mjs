// tokenizer-form.js: a Tokenizer built from the stored form (vocabulary as an array, merges as
// pairs) must be the library's own, built from the fetched tokenizer.json: same tokens and ids
// for text mixing special tokens, whitespace, digits and non-ASCII, the same id <-> token maps and
// the same vocabulary size, on every family.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Tokenizer } from '@huggingface/tokenizers';

import { FAMILIES } from '../../web/chat/families.js';
import { buildTokenizer, storedForm } from '../../web/chat/tokenizer-form.js';
import { familyDir } from '../../scripts/chat/tokenizer-cache.mjs';

const TEXTS = [
  'Hello world! The pipeline reads each shard, checks the schema.',
  '  leading spaces, tabs\tand\n\nnewlines\r\n',
  'Température à Oslo ? −3 °C ✓ 🌨 日本語のテキスト',
  '12345 + 678 = 13023; x_1, x_2',
  '<|im_start|>user\nHi<|im_end|>\n<start_of_turn>model\n<|eot_id|>[INST]<|return|></s>',
];

for (const family of FAMILIES) {
  test(family.id, () => {
    const dir = familyDir(family);
    const original = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8'));
    const config = JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8'));
    const stored = JSON.parse(JSON.stringify(storedForm(original)));
    assert.ok(Array.isArray(stored.model.vocab));
    const expected = new Tokenizer(original, config);
    const actual = buildTokenizer(stored, config);
    assert.equal(actual.model.vocab.length, expected.model.vocab.length);
    assert.equal(actual.model.tokens_to_ids.size, expected.model.tokens_to_ids.size);
    assert.equal(actual.model.unk_token_id, expected.model.unk_token_id);
    for (const id of [0, 1, 2, 100, 1000, 50_000, expected.model.vocab.length - 1, ...original.added_tokens.slice(0, 20).map((t) => t.id)]) {
      assert.equal(actual.id_to_token(id), expected.id_to_token(id), `id ${id}`);
      const token = expected.id_to_token(id);
      if (token !== undefined) assert.equal(actual.token_to_id(token), expected.token_to_id(token), token);
    }
    for (const text of TEXTS) {
      for (const add_special_tokens of [false, true]) {
        assert.deepEqual(actual.encode(text, { add_special_tokens }), expected.encode(text, { add_special_tokens }), JSON.stringify(text));
      }
    }
  });
}
