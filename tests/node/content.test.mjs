// The content compiler (scripts/content/build-content.mjs): broken fixtures give one clear
// message each, with file, line and column; the real exercises compile and agree with the core;
// the compiled JSON is what the exercise page expects.
//
// Fixtures live in tests/fixtures/content/<case>/, each a copy of valid/tiny-valid.yaml with one
// thing broken. Expected lines and columns are counted by hand in those files (1-based).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { CONTENT_DIR, compileContent, formatProblem, indexOf, writeContent } from '../../scripts/content/build-content.mjs';
import { createMathStyleSheet } from '../../scripts/content/math-styles.mjs';
import { createMarkdown } from '../../scripts/content/markdown.mjs';
import { splitPassage } from '../../scripts/content/passage.mjs';
import { closestTopic, readTopics } from '../../scripts/content/topics.mjs';
import { REPO_ROOT, loadWasmCommands } from './helpers.mjs';

const FIXTURES = join(REPO_ROOT, 'tests', 'fixtures', 'content');

function problemsOf(caseName, options) {
  const { problems } = compileContent(join(FIXTURES, caseName), options);
  return problems.map(formatProblem);
}

test('a valid fixture compiles without problems', () => {
  const { exercises, problems } = compileContent(join(FIXTURES, 'valid'));
  assert.deepEqual(problems, []);
  assert.deepEqual(exercises.map((e) => e.id), ['tiny-valid']);
});

test('missing field: named, at the top-level map (line 2, after the comment)', () => {
  assert.deepEqual(problemsOf('missing-field'), [
    'tests/fixtures/content/missing-field/no-title.yaml:2:1: (top level): missing required field "title"',
  ]);
});

test('error text not in the passage: at the text value (line 13, column 11)', () => {
  assert.deepEqual(problemsOf('unit-not-found'), [
    'tests/fixtures/content/unit-not-found/not-found.yaml:13:11: errors[0].text: "input_ids.copy()" is not in the passage (it must match the passage character for character)',
  ]);
});

test('error text found twice: says how often and asks for a unique text', () => {
  // "labels" is on both passage lines: `labels = input_ids.clone()` and `return labels`.
  assert.deepEqual(problemsOf('unit-twice'), [
    'tests/fixtures/content/unit-twice/found-twice.yaml:13:11: errors[0].text: "labels" occurs 2 times in the passage; make it unique (add a neighbouring word)',
  ]);
});

test('bad claim: the unknown aggregator and the unknown expectation, each at its place', () => {
  assert.deepEqual(problemsOf('bad-claim'), [
    'tests/fixtures/content/bad-claim/bad-claim.yaml:41:13: claims[0].metric: unknown aggregator "total:" (use one of sum, mean, max, min, count, first)',
    'tests/fixtures/content/bad-claim/bad-claim.yaml:42:28: claims[0].buggy.smaller_than: unknown expectation "smaller_than" (use one of equals, not_equals, less_than, greater_than, at_most, at_least, approx, is_null)',
  ]);
});

test('id different from the file name: at the id value (line 2, column 5)', () => {
  assert.deepEqual(problemsOf('id-mismatch'), [
    'tests/fixtures/content/id-mismatch/id-mismatch.yaml:2:5: id: id "some-other-id" must equal the file name without .yaml ("id-mismatch")',
  ]);
});

test('a tag that is not a topic: at the tag (line 7, column 17), with the nearest topic', () => {
  assert.deepEqual(problemsOf('unknown-topic'), [
    'tests/fixtures/content/unknown-topic/unknown-topic.yaml:7:17: tags[1]: "label" is not a topic of tests/fixtures/content/topics.yaml (did you mean "labels"?): use one listed there, or add it there with its one-sentence description',
  ]);
});

test('topics.yaml: a bad name, a missing sentence and an over-long one, each at its line; a missing file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'masklab-topics-'));
  try {
    const file = join(dir, 'topics.yaml');
    writeFileSync(file, `labels: "Scored ids."\nBad_Name: "x"\nempty: ""\nlong: "${'a'.repeat(201)}"\n`);
    const { topics, problems } = readTopics(file, 'topics.yaml');
    assert.deepEqual([...topics.keys()], ['labels']);
    assert.deepEqual(problems.map(formatProblem), [
      'topics.yaml:2:1: Bad_Name: topic "Bad_Name" must be lower-case words joined by hyphens, e.g. attention-mask',
      'topics.yaml:3:8: empty: topic "empty" needs one sentence of plain text (a quoted string on one line)',
      'topics.yaml:4:7: long: topic "long": 201 characters, at most 200',
    ]);
    assert.match(formatProblem(readTopics(join(dir, 'none.yaml'), 'none.yaml').problems[0]), /^none\.yaml:1:1: \(file\): cannot be read/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('closestTopic: a containing name or a small edit away, else none', () => {
  const topics = new Map([['causal-shift', ''], ['labels', ''], ['tokenization', '']]);
  assert.equal(closestTopic(topics, 'shift'), 'causal-shift');
  assert.equal(closestTopic(topics, 'label'), 'labels');
  assert.equal(closestTopic(topics, 'tokenisation'), 'tokenization');
  assert.equal(closestTopic(topics, 'grpo'), null);
});

test('YAML syntax error: reported by the parser with a position, nothing else checked', () => {
  const problems = problemsOf('yaml-syntax');
  assert.equal(problems.length, 1, problems.join('\n'));
  // The flow sequence opened on line 7 (`tags: [labels`) is still open on line 8.
  assert.match(problems[0], /^tests\/fixtures\/content\/yaml-syntax\/yaml-syntax\.yaml:8:1: yaml: /);
});

test('overlapping errors: the second one is reported', () => {
  assert.deepEqual(problemsOf('overlap'), [
    'tests/fixtures/content/overlap/overlap.yaml:15:11: errors[1].text: overlaps errors[0]; marked texts must not share characters',
  ]);
});

test('math that does not parse: KaTeX message, at the formula inside the field', () => {
  const problems = problemsOf('bad-math');
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], /^tests\/fixtures\/content\/bad-math\/bad-math\.yaml:20:\d+: key_concepts\[0\]\.definition: math \$\\frac\{1\}\{\$ does not parse: /);
});

test('placeholder with an unknown source: at the placeholder (line 24)', () => {
  assert.deepEqual(problemsOf('bad-placeholder'), [
    'tests/fixtures/content/bad-placeholder/bad-placeholder.yaml:24:52: detailed: placeholder {{repaired.summary.loss}}: "repaired" is not buggy or fixed',
  ]);
});

test('a claim the core proves false is a problem at the claim (line 40)', async () => {
  const core = await loadWasmCommands();
  const problems = problemsOf('claim-fails', { core });
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], /^tests\/fixtures\/content\/claim-fails\/claim-fails\.yaml:40:5: claims\[0\]: claim does not hold: buggy: summary\.loss = .* > fixed summary\.loss = .* ✗$/);
});

test('the real content compiles, and every claim and live number agrees with the core', async () => {
  const core = await loadWasmCommands();
  const { exercises, problems } = compileContent(CONTENT_DIR, { core });
  assert.deepEqual(problems.map(formatProblem), []);
  assert.ok(exercises.some((e) => e.id === 'pad-to-max-all-ones'));
  assert.equal(exercises[0].id, 'pad-to-max-all-ones', 'order: 1 puts the first exercise first');
});

test('pad-to-max-all-ones: units rebuild the passage, and each error owns the words it covers', () => {
  const { exercises } = compileContent(CONTENT_DIR);
  const e = exercises.find((x) => x.id === 'pad-to-max-all-ones');
  const source = readFileSync(join(CONTENT_DIR, 'pad-to-max-all-ones.yaml'), 'utf8');
  assert.ok(source.includes('labels = input_ids.clone()'));

  // Joining units with their whitespace gives the passage back, layout included.
  const rebuilt = e.passage.lead + e.passage.units.map((u) => u.text + u.ws).join('');
  assert.ok(rebuilt.startsWith('import torch\n\n\nclass ChatCollator:\n    def __init__('), rebuilt.slice(0, 60));
  assert.equal(e.passage.line_count, 17);

  // By hand from the passage: the three errors are the words below.
  const words = (i) => e.errors[i].units.map((u) => e.passage.units[u].text);
  assert.deepEqual(words(0), ['padding="max_length",']);
  assert.deepEqual(words(1), ['attention_mask', '=', 'torch.ones_like(input_ids)']);
  assert.deepEqual(words(2), ['labels', '=', 'input_ids.clone()']);
  for (const [i, error] of e.errors.entries()) for (const u of error.units) assert.equal(e.passage.units[u].error, i);
  assert.equal(e.passage.units.filter((u) => u.error !== null).length, 7);
  // The near miss on line 6 is marked as such, not as an error.
  const nearMiss = e.near_misses[0].units.map((u) => e.passage.units[u]);
  assert.deepEqual(nearMiss.map((u) => [u.text, u.error, u.near_miss]), [
    ['tokenizer.pad_token', null, 0],
    ['=', null, 0],
    ['tokenizer.eos_token', null, 0],
  ]);
  assert.equal(e.follow_ups.length >= 2 && e.follow_ups.length <= 4, true);
  assert.ok(e.detailed_html.includes('<span class="live-number" data-source="buggy" data-path="summary.loss"></span>'));
  assert.ok(!/\sstyle="/.test(JSON.stringify(e)), 'no inline style survives (CSP)');
});

test('writeContent writes the index, the topics, one file per exercise and math.css, and removes stale files', () => {
  const out = mkdtempSync(join(tmpdir(), 'masklab-content-'));
  try {
    writeFileSync(join(out, 'deleted-exercise.json'), '{}');
    const { exercises, mathCss, topics } = compileContent(join(FIXTURES, 'valid'));
    writeContent(exercises, mathCss, topics, out);
    assert.deepEqual(readdirSync(out).sort(), ['index.json', 'math.css', 'tiny-valid.json', 'topics.json']);
    // Only the topics an exercise names (the fixtures' topics.yaml also has "padding").
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'topics.json'), 'utf8')), { labels: 'The target ids the loss scores; -100 marks a position that is not trained.' });
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')), [
      { id: 'tiny-valid', title: 'Tiny valid exercise', kind: 'code', level: 'beginner', tags: ['labels'], error_count: 1 },
    ]);
    assert.deepEqual(indexOf(exercises), JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')));
    const css = readFileSync(join(out, 'math.css'), 'utf8');
    assert.ok(!css.includes('data:'), 'no data: URLs (font-src self)');
    assert.match(css, /\.katex \.kx-[0-9a-f]{8}\{/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('splitPassage keeps every space and newline with the word before it', () => {
  // By hand: "a  b\n  c\n" -> units a (ws "  "), b (ws "\n  "), c (ws ""; the trailing newline goes).
  const { lead, units, lineCount } = splitPassage('a  b\n  c\n');
  assert.equal(lead, '');
  assert.deepEqual(units.map((u) => [u.text, u.ws, u.line]), [['a', '  ', 1], ['b', '\n  ', 1], ['c', '', 2]]);
  assert.equal(lineCount, 2);
});

test('markdown: live numbers become empty spans, raw HTML is escaped, math has no style attribute', () => {
  const md = createMarkdown({ mathStyles: createMathStyleSheet() });
  const env = md.newEnv();
  const html = md.block('Loss {{buggy.summary.loss|loss}} <b>x</b> $\\frac{a}{b}$', env);
  assert.ok(html.includes('<span class="live-number" data-source="buggy" data-path="summary.loss" data-format="loss"></span>'));
  assert.ok(html.includes('&lt;b&gt;x&lt;/b&gt;'), 'raw HTML is text');
  assert.ok(html.includes('class="katex"'));
  assert.ok(!/\sstyle="/.test(html));
  assert.deepEqual(env.problems, []);
  assert.deepEqual(env.numbers, [{ source: 'buggy', metric: 'summary.loss', format: 'loss' }]);
});

test('math styles: a style attribute becomes a stable class; the CSS carries the declarations', () => {
  const sheet = createMathStyleSheet();
  const a = sheet.rewrite('<span class="strut" style="height:0.68em;"></span><span style="top:-2em;">x</span>');
  const b = createMathStyleSheet().rewrite('<span class="strut" style="height:0.68em;"></span>');
  assert.match(a, /^<span class="strut kx-[0-9a-f]{8}"><\/span><span class="kx-[0-9a-f]{8}">x<\/span>$/);
  assert.equal(a.slice(0, b.length), b, 'same declarations, same class name in another build');
  assert.match(sheet.css(), /\.katex \.kx-[0-9a-f]{8}\{height:0\.68em !important\}/);
  assert.match(sheet.css(), /\.katex \.kx-[0-9a-f]{8}\{top:-2em !important\}/);
});
