#!/usr/bin/env node
// build-content.mjs — the content compiler: content/exercises/*.yaml -> web/generated/content/.
//
//   node scripts/content/build-content.mjs            # compile, check against the core, write
//   node scripts/content/build-content.mjs --no-core  # skip the core checks (no wasm build yet)
//   node scripts/content/build-content.mjs --check    # compile and check, write nothing
//
// Writes index.json (id, title, kind, level, tags, error_count per exercise, and train_bug when it has one), topics.json
// (the description of every topic an exercise names, from content/topics.yaml), <id>.json (what
// the exercise page needs: the passage split into units, HTML rendered from markdown, claims,
// requests) and math.css (KaTeX's inline styles as classes, for the CSP). Any problem stops it with exit 1, after printing every problem as
//   content/exercises/x.yaml:14:7: errors[1].text: "foo" is not in the passage
// When the wasm modules are built (web/generated/masklab_core.wasm for inspect, masklab_chat.wasm
// for the chat exercises), every claim and live number is also checked against them. Also a module: compileContent(dir) -> { exercises, problems }.

import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { checkWithCore } from './check-with-core.mjs';
import { createExerciseCompiler } from './compile-exercise.mjs';
import { createMathStyleSheet } from './math-styles.mjs';
import { readTopics } from './topics.mjs';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CONTENT_DIR = join(REPO_ROOT, 'content', 'exercises');
// Beside the exercises' folder: content/topics.yaml (a fixture folder's is tests/fixtures/content/topics.yaml).
const topicsFileOf = (dir) => join(dir, '..', 'topics.yaml');
export const SCHEMA_PATH = join(REPO_ROOT, 'content', 'schema', 'exercise.schema.json');
export const OUT_DIR = join(REPO_ROOT, 'web', 'generated', 'content');
const CORE_WASM = join(REPO_ROOT, 'web', 'generated', 'masklab_core.wasm');
const CHAT_WASM = join(REPO_ROOT, 'web', 'generated', 'masklab_chat.wasm');

const TEXT = {
  noFiles: 'no exercises found (expected files named <id>.yaml)',
  wrongExtension: (name) => `"${name}" is not read: exercise files end in .yaml`,
  unreadable: (message) => `cannot be read: ${message}`,
  summary: (n, out) => `content: ${n} exercise${n === 1 ? '' : 's'} -> ${out}`,
  failed: (n) => `content: ${n} problem${n === 1 ? '' : 's'}; nothing written`,
  coreSkipped: 'content: the wasm core is not built, so claims and live numbers were not checked (run scripts/build.sh)',
};

/** `file:line:col: path: message` */
export function formatProblem(p) {
  return `${p.file}:${p.line}:${p.col}: ${p.path}: ${p.message}`;
}


/**
 * Compiles every <id>.yaml in `dir`. With `core` (the commands of the wasm modules: `inspect`, and
 * `chat` for chat exercises), also checks claims and live numbers against it. Returns { exercises (in list order), problems, mathCss }.
 */
export function compileContent(dir = CONTENT_DIR, { core = null } = {}) {
  const problems = [];
  const exercises = [];
  const mathStyles = createMathStyleSheet();
  const shown = (file) => relative(REPO_ROOT, file) || file;
  const topicsFile = shown(topicsFileOf(dir));
  const { topics: topicNames, problems: topicProblems } = readTopics(topicsFileOf(dir), topicsFile);
  problems.push(...topicProblems);
  const compiler = createExerciseCompiler({ schema: JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')), mathStyles, topics: { names: topicNames, file: topicsFile } });
  let names;
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    return { exercises, problems: [{ file: shown(dir), line: 1, col: 1, path: '(folder)', message: TEXT.unreadable(error.message) }], mathCss: '', topics: {} };
  }
  for (const name of names.filter((n) => n.endsWith('.yml'))) {
    problems.push({ file: shown(join(dir, name)), line: 1, col: 1, path: '(file)', message: TEXT.wrongExtension(name) });
  }
  const files = names.filter((n) => n.endsWith('.yaml'));
  if (files.length === 0) problems.push({ file: shown(dir), line: 1, col: 1, path: '(folder)', message: TEXT.noFiles });
  for (const name of files) {
    const path = join(dir, name);
    let text;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      problems.push({ file: shown(path), line: 1, col: 1, path: '(file)', message: TEXT.unreadable(error.message) });
      continue;
    }
    const compiled = compiler.compile(text, shown(path));
    problems.push(...compiled.problems);
    if (compiled.exercise && core) problems.push(...checkWithCore(compiled, core));
    if (compiled.exercise) exercises.push(compiled.exercise);
  }
  const used = new Set(exercises.flatMap((e) => e.tags));
  const topics = Object.fromEntries([...topicNames].filter(([name]) => used.has(name)).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { exercises: sortExercises(exercises), problems, mathCss: mathStyles.css(), topics };
}

const LEVELS = ['beginner', 'intermediate', 'advanced'];
const UNORDERED = 10_000;

/** List order: `order` first (missing = last), then level, then id. */
export function sortExercises(exercises) {
  return [...exercises].sort(
    (a, b) =>
      (a.order ?? UNORDERED) - (b.order ?? UNORDERED) ||
      LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) ||
      a.id.localeCompare(b.id),
  );
}

/** The home page's list: one small entry per exercise. */
export function indexOf(exercises) {
  return exercises.map((e) => ({
    id: e.id,
    title: e.title,
    kind: e.kind,
    level: e.level,
    tags: e.tags,
    error_count: e.errors.length,
    ...(e.train ? { train_bug: e.train.bug } : {}), // the Train page's bug, when it can run it
  }));
}

export function writeContent(exercises, mathCss, topics, outDir = OUT_DIR) {
  mkdirSync(outDir, { recursive: true });
  // Stale files of deleted exercises must not linger in the build.
  for (const name of readdirSync(outDir)) if (/\.(json|css)$/.test(name)) rmSync(join(outDir, name));
  writeFileSync(join(outDir, 'index.json'), `${JSON.stringify(indexOf(exercises), null, 2)}\n`);
  writeFileSync(join(outDir, 'topics.json'), `${JSON.stringify(topics, null, 2)}\n`);
  writeFileSync(join(outDir, 'math.css'), `/* Generated by scripts/content/build-content.mjs: KaTeX's inline styles as classes. */\n${mathCss}\n`);
  for (const exercise of exercises) writeFileSync(join(outDir, `${exercise.id}.json`), `${JSON.stringify(exercise)}\n`);
}

// inspect from the core module, chat from the chat module: what the exercise and chat pages run.
async function loadCoreIfBuilt() {
  if (!existsSync(CORE_WASM) || !existsSync(CHAT_WASM)) return null;
  const { loadCore } = await import(pathToFileURL(join(REPO_ROOT, 'web', 'core', 'masklab.js')).href);
  const { loadChat } = await import(pathToFileURL(join(REPO_ROOT, 'web', 'core', 'chat.js')).href);
  const core = await loadCore({ wasmBinary: readFileSync(CORE_WASM) });
  const chat = await loadChat({ wasmBinary: readFileSync(CHAT_WASM) });
  return { inspect: core.inspect, chat: chat.chat };
}

async function main(argv) {
  const useCore = !argv.includes('--no-core');
  const write = !argv.includes('--check');
  const core = useCore ? await loadCoreIfBuilt() : null;
  if (useCore && !core) console.warn(TEXT.coreSkipped);
  const { exercises, problems, mathCss, topics } = compileContent(CONTENT_DIR, { core });
  if (problems.length) {
    for (const p of problems) console.error(formatProblem(p));
    console.error(TEXT.failed(problems.length));
    return 1;
  }
  if (write) writeContent(exercises, mathCss, topics);
  console.log(TEXT.summary(exercises.length, relative(REPO_ROOT, OUT_DIR)));
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
