#!/usr/bin/env node
// stage-tokenizers.mjs — copies each family's tokenizer files from the set-up cache into the
// site (web/public/tokenizers/<package>@<version>/, which Vite copies to dist/ as is), in the form
// the page loads fastest:
//   tokenizer.json          minified, merges as [left, right] pairs (the format
//                           @huggingface/tokenizers reads without splitting strings; measured:
//                           about 40% less construction time than "left right" strings, the
//                           same gzip size, half the raw bytes of the pretty-printed original)
//   tokenizer_config.json   without added_tokens_decoder (tokenizer.json's added_tokens carry
//                           the same tokens; Gemma's config drops from 1.1 MB to 2 KB)
//   LICENSE, package.json   the package's own licence file and metadata, shown on the page
// plus manifest.json: per family, its files and their byte sizes (the page's progress bars).
// Skips a family whose staged files are newer than its cache marker. Run by scripts/build.sh.

import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { FAMILIES, familyFolder } from '../../web/chat/families.js';
import { cacheRoot, COMPLETE_MARK, familyDir, isCached } from './tokenizer-cache.mjs';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const STAGE_DIR = join(REPO_ROOT, 'web', 'public', 'tokenizers');

export function compactTokenizer(json) {
  const model = { ...json.model };
  if (Array.isArray(model.merges)) model.merges = model.merges.map((m) => (Array.isArray(m) ? m : m.split(' ')));
  return JSON.stringify({ ...json, model });
}

export function compactConfig(config) {
  const { added_tokens_decoder: _unused, ...rest } = config;
  return JSON.stringify(rest);
}

function stageFamily(family, root) {
  const from = familyDir(family, root);
  const to = join(STAGE_DIR, familyFolder(family));
  const marker = join(from, COMPLETE_MARK);
  const done = join(to, 'manifest-entry.json');
  if (existsSync(done) && statSync(done).mtimeMs >= statSync(marker).mtimeMs) return JSON.parse(readFileSync(done, 'utf8'));
  mkdirSync(to, { recursive: true });
  writeFileSync(join(to, 'tokenizer.json'), compactTokenizer(JSON.parse(readFileSync(join(from, 'tokenizer.json'), 'utf8'))));
  writeFileSync(join(to, 'tokenizer_config.json'), compactConfig(JSON.parse(readFileSync(join(from, 'tokenizer_config.json'), 'utf8'))));
  copyFileSync(join(from, 'LICENSE'), join(to, 'LICENSE.txt'));
  copyFileSync(join(from, 'package.json'), join(to, 'package.json'));
  const files = {};
  for (const name of ['tokenizer.json', 'tokenizer_config.json', 'LICENSE.txt', 'package.json']) files[name] = statSync(join(to, name)).size;
  const entry = { id: family.id, folder: familyFolder(family), files };
  writeFileSync(done, JSON.stringify(entry));
  return entry;
}

export function stageAll(root = cacheRoot()) {
  const missing = FAMILIES.filter((f) => !isCached(f, root));
  if (missing.length) {
    throw new Error(`tokenizer files missing for ${missing.map((f) => f.label).join(', ')}; run bash scripts/setup.sh`);
  }
  const manifest = FAMILIES.map((f) => stageFamily(f, root));
  mkdirSync(STAGE_DIR, { recursive: true });
  writeFileSync(join(STAGE_DIR, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const manifest = stageAll();
    const mb = manifest.reduce((s, e) => s + Object.values(e.files).reduce((a, b) => a + b, 0), 0) / 1e6;
    console.log(`chat: ${manifest.length} tokenizer families -> web/public/tokenizers (${mb.toFixed(1)} MB)`);
  } catch (error) {
    console.error(`chat: ${error.message}`);
    process.exitCode = 1;
  }
}
