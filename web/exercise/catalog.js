// catalog.js — the compiled exercises (scripts/content/build-content.mjs -> web/generated/content/).
//
//   exerciseIndex()            -> [{ id, title, kind, level, tags, error_count }] in list order
//   await loadExercise(id)     -> the exercise's JSON, or null when there is no such exercise
//
// The index is bundled with the page (small); each exercise is its own lazily loaded chunk, so a
// page downloads only the exercise it shows, and nothing waits for the wasm core. If the content
// was never compiled, the index is empty and pages say so instead of failing to build.

const indexModules = import.meta.glob('../generated/content/index.json', { eager: true, import: 'default' });
const exerciseModules = import.meta.glob(['../generated/content/*.json', '!../generated/content/index.json'], {
  import: 'default',
});

export const EXERCISE_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export function exerciseIndex() {
  const index = Object.values(indexModules)[0];
  return Array.isArray(index) ? index : [];
}

export async function loadExercise(id) {
  if (typeof id !== 'string' || !EXERCISE_ID.test(id)) return null;
  const load = exerciseModules[`../generated/content/${id}.json`];
  return load ? load() : null;
}
