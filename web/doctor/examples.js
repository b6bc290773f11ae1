// examples.js — the batches the page offers to try: the doctor's test fixtures
// (tests/fixtures/doctor/), so every example on the page is one whose findings a test pins.
//
//   EXAMPLES          -> [{ id, title, collator, options }]
//   exampleText(id)   -> the printed batch, or null for an unknown id
//
// The texts are bundled with the page: all the fixtures are ~1.2 KB gzip together (printed tensors
// repeat themselves), less than the request a lazy chunk per example cost, and a link that names
// an example (doctor.html?example=…) is diagnosed as soon as the core is ready instead of after
// one more round trip. Not here: running the doctor (main.js).

import manifest from '../../tests/fixtures/doctor/fixtures.json';

const texts = import.meta.glob(['../../tests/fixtures/doctor/*.txt', '../../tests/fixtures/doctor/*.jsonl'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

const idOf = (file) => file.replace(/\.(txt|jsonl)$/, '');

export const EXAMPLES = manifest.fixtures
  .filter((f) => f.example !== false)
  .map((f) => ({ id: idOf(f.file), file: f.file, title: f.title, collator: f.collator ?? '', options: f.options }));

export const EXAMPLE_IDS = EXAMPLES.map((e) => e.id);

export function exampleById(id) {
  return EXAMPLES.find((e) => e.id === id) ?? null;
}

export function exampleText(id) {
  const example = exampleById(id);
  const text = example && texts[`../../tests/fixtures/doctor/${example.file}`];
  return typeof text === 'string' ? text.replace(/\n$/, '') : null;
}
