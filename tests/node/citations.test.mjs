// Every citation of docs/semantics.md names a heading that exists, and nothing in the project
// points at notes outside it (scripts/citations.mjs). The scanner is first tested on fixture
// text, so this suite can be seen to fail; then it runs over every tracked text file.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { formatProblem, headingsOf, scanProject, scanText } from '../../scripts/citations.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const REFERENCE_FIXTURE = [
  '# title',
  '## 1. Invariants',
  '### 1.1 Labels',
  '### 1.2 ignore_index',
  '## 2. Padding',
  '### 2.3 The attention mask',
  '## 10. The doctor',
].join('\n');
const SECTIONS = headingsOf(REFERENCE_FIXTURE);

test('headingsOf reads "## N." and "### N.M" headings only', () => {
  assert.deepEqual([...SECTIONS].sort(), ['1', '1.1', '1.2', '10', '2', '2.3']);
});

test('a citation of a missing heading is reported with file, line and the citation', () => {
  const text = [
    '// padding.hpp — the rules of docs/semantics.md §2.3 and §1.2.',
    '// more detail in §2.4 (not a heading) and §1.1 (a heading).',
  ].join('\n');
  const problems = scanText('cpp/core/padding.hpp', text, SECTIONS);
  assert.equal(problems.length, 1);
  assert.deepEqual(
    { file: problems[0].file, line: problems[0].line, citation: problems[0].citation },
    { file: 'cpp/core/padding.hpp', line: 2, citation: '§2.4' },
  );
  assert.equal(formatProblem(problems[0]), 'cpp/core/padding.hpp:2: §2.4: §2.4 is not a heading of docs/semantics.md');
});

test('old note-style numbers are caught: §1.6b, and a bare "semantics.md" name', () => {
  const problems = scanText('tests/cpp/x.cpp', '// unlike a real BPE, semantics.md §1.6b', SECTIONS);
  assert.deepEqual(problems.map((p) => p.citation).sort(), ['semantics.md', '§1.6b']);
});

test("another document's § and an issue's § are not ours", () => {
  const text = 'docs/semantics.md §1.1; see content/README.md §7 and issue 10 §3.';
  assert.deepEqual(scanText('x.md', text, SECTIONS), []);
});

test('a file that never mentions the reference may use § freely', () => {
  assert.deepEqual(scanText('x.md', 'Chapter §9.9 of a book.', SECTIONS), []);
});

test('notes outside the project are reported; the project\'s own web/shared/ is not', () => {
  const OUTSIDE = ['shared', 'notes', ''].join('/');
  const outside = `${OUTSIDE}style.md`;
  const notes = ['fact', 'check.md'].join('-');
  const text = [
    `The reference we check it against: ../${outside}.`,
    `Errors listed in ${notes}.`,
    `import { h } from '${['..', 'shared', 'dom.js'].join('/')}';`,
  ].join('\n');
  const problems = scanText('web/grid/main.js', text, SECTIONS);
  assert.deepEqual(
    problems.map((p) => [p.line, p.citation]),
    [
      [1, OUTSIDE],
      [2, notes],
    ],
  );
  // From the repository root, a climb into a sibling shared/ folder is outside it.
  const up = ['..', 'shared', ''].join('/');
  const climbing = scanText('README.md', `see '${up}whatever.md'`, SECTIONS);
  assert.deepEqual(climbing.map((p) => p.citation), [up]);
});

test('the project: every citation names an existing heading, nothing points outside', () => {
  // The scanner and this file name the patterns they look for; they are the only files skipped.
  const problems = scanProject(ROOT);
  assert.deepEqual(problems.map(formatProblem), [], `\n${problems.map(formatProblem).join('\n')}`);
});
