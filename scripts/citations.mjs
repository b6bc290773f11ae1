// citations.mjs — every reference in the project points inside the project.
//
//   node scripts/citations.mjs        # prints one line per problem, exits 1 when there is one
//
// Two rules, checked over the project's tracked text files (git ls-files):
//   1. In a file that mentions docs/semantics.md, every §N or §N.M names a heading of
//      docs/semantics.md ("## N. ..." or "### N.M ..."). A § that belongs to another document
//      ("content/README.md §2", "issue 10 §1") is not a citation of ours and is skipped. The
//      reference is cited by its path, docs/semantics.md, never by a bare "semantics.md".
//   2. No file refers to notes that live outside the project: the notes folder beside the
//      repository (OUTSIDE_DIR below), a relative path
//      that climbs out of the repository through a shared/ folder, or the notes' own names.
//      The project's own web/shared/ folder (imported as '../shared/x.js' from web/grid/) is fine.
// Not here: what the cited rules say (docs/semantics.md) or exercise ids (content tests).

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REFERENCE = 'docs/semantics.md';

// File names of the notes outside the project, assembled so that this file does not match them.
const OUTSIDE_NOTES = ['fact-check', 'anchors', 'toolchain'].map((name) => `${name}.md`);
const OUTSIDE_DIR = ['shared', 'notes', ''].join('/');

// These two spell out the patterns they look for (the second on purpose, as fixtures).
const SELF = new Set(['scripts/citations.mjs', 'tests/node/citations.test.mjs']);

const TEXT_FILE = /\.(c|cc|cpp|h|hpp|js|mjs|cjs|ts|json|md|yaml|yml|html|css|sh|txt|cmake)$|(^|\/)CMakeLists\.txt$/;

const TEXT = {
  missingHeading: (citation) => `${citation} is not a heading of ${REFERENCE}`,
  bareName: `cite the project's reference by its path, ${REFERENCE}`,
  outsideNotes: (what) => `${what} is outside the project; say the fact here or cite ${REFERENCE} §N.M`,
  climbsOut: (what) => `${what} climbs out of the repository`,
};

/** The section numbers of a markdown reference: "## 2. Padding" -> "2", "### 2.3 ..." -> "2.3". */
export function headingsOf(markdown) {
  const sections = new Set();
  for (const line of markdown.split('\n')) {
    const m = /^#{2,3}\s+(\d+(?:\.\d+)?)\.?\s/.exec(line);
    if (m) sections.add(m[1]);
  }
  return sections;
}

// A § right after another document's name or an issue number is that document's section.
function belongsElsewhere(before) {
  if (/issue\s*#?\d+\s*$/i.test(before)) return true;
  const doc = /([\w./-]+\.md)\s*$/.exec(before);
  return doc !== null && !doc[1].endsWith(REFERENCE) && doc[1] !== 'semantics.md';
}

/**
 * Problems in one file's text: [{ file, line, citation, message }]. `file` is the path relative
 * to the repository root (it resolves relative links); `sections` comes from headingsOf.
 */
export function scanText(file, text, sections) {
  const problems = [];
  const cites = text.includes('semantics.md');
  const lines = text.split('\n');
  lines.forEach((content, i) => {
    const line = i + 1;
    const add = (citation, message) => problems.push({ file, line, citation, message });
    if (cites) {
      for (const m of content.matchAll(/§\s?(\d+(?:\.\d+)*[a-z]?)/g)) {
        if (belongsElsewhere(content.slice(0, m.index))) continue;
        if (!sections.has(m[1])) add(`§${m[1]}`, TEXT.missingHeading(`§${m[1]}`));
      }
      for (const m of content.matchAll(/(\S*)semantics\.md/g))
        if (!m[1].endsWith('docs/') && file !== REFERENCE) add(m[0], TEXT.bareName);
    }
    if (content.includes(OUTSIDE_DIR)) add(OUTSIDE_DIR, TEXT.outsideNotes(OUTSIDE_DIR));
    for (const name of OUTSIDE_NOTES) if (content.includes(name)) add(name, TEXT.outsideNotes(name));
    for (const m of content.matchAll(/((?:\.\.\/)+)shared\//g)) {
      const target = normalize(join(dirname(file), m[1], 'shared'));
      if (target.startsWith('..')) add(m[0], TEXT.climbsOut(m[0]));
    }
  });
  return problems;
}

/** Every problem in the project at `root` (its tracked text files). */
export function scanProject(root) {
  const sections = headingsOf(readFileSync(join(root, REFERENCE), 'utf8'));
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && TEXT_FILE.test(f) && !SELF.has(f));
  const problems = [];
  for (const file of files) {
    let text;
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      continue; // deleted in the work tree but still in the index
    }
    problems.push(...scanText(file, text, sections));
  }
  return problems;
}

/** One line per problem: "path:line: citation: message". */
export function formatProblem(p) {
  return `${p.file}:${p.line}: ${p.citation}: ${p.message}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = relative(process.cwd(), join(dirname(fileURLToPath(import.meta.url)), '..')) || '.';
  const problems = scanProject(root);
  for (const p of problems) console.log(formatProblem(p));
  process.exitCode = problems.length ? 1 : 0;
}
