// examples.js — the batches the page offers to try: the doctor's test fixtures
// (tests/fixtures/doctor/), so every example on the page is one whose findings a test pins.
//
//   EXAMPLES           -> [{ id, title, collator, options }] (no text: that loads on demand)
//   await exampleText(id) -> the printed batch, or null for an unknown id
//
// The texts are separate chunks, loaded when an example is picked, so they cost the page nothing
// until then. Not here: running the doctor (main.js).

import manifest from '../../tests/fixtures/doctor/fixtures.json';

const texts = import.meta.glob(['../../tests/fixtures/doctor/*.txt', '../../tests/fixtures/doctor/*.jsonl'], {
  query: '?raw',
  import: 'default',
});

const idOf = (file) => file.replace(/\.(txt|jsonl)$/, '');

export const EXAMPLES = manifest.fixtures
  .filter((f) => f.example !== false)
  .map((f) => ({ id: idOf(f.file), file: f.file, title: f.title, collator: f.collator ?? '', options: f.options }));

export const EXAMPLE_IDS = EXAMPLES.map((e) => e.id);

export function exampleById(id) {
  return EXAMPLES.find((e) => e.id === id) ?? null;
}

export async function exampleText(id) {
  const example = exampleById(id);
  const load = example && texts[`../../tests/fixtures/doctor/${example.file}`];
  return load ? (await load()).replace(/\n$/, '') : null;
}
