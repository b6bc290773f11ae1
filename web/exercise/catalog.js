// catalog.js — the compiled exercises (scripts/content/build-content.mjs -> web/generated/content/).
//
//   exerciseIndex()            -> [{ id, title, kind, level, tags, error_count }] in list order
//   await loadExercise(id)     -> the exercise's JSON, or null when there is no such exercise
//   MERGED_EXERCISES[id]       -> the id an old, merged-away exercise id now opens
//
// The index is bundled with the page (small); each exercise is its own lazily loaded chunk, so a
// page downloads only the exercise it shows, and nothing waits for the wasm core. If the content
// was never compiled, the index is empty and pages say so instead of failing to build.

const indexModules = import.meta.glob('../generated/content/index.json', { eager: true, import: 'default' });
const exerciseModules = import.meta.glob(['../generated/content/*.json', '!../generated/content/index.json', '!../generated/content/topics.json'], {
  import: 'default',
});

export const EXERCISE_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

// Exercises merged into another one (issue 10 removed duplicates). Links and embeds made before
// still name them; the exercise page opens the exercise that now teaches the same thing.
export const MERGED_EXERCISES = {
  'labels-copied-from-input-ids': 'pad-to-max-all-ones',
  'label-pad-zero': 'pad-to-max-all-ones',
  'pad-everything-max-length': 'pad-to-max-all-ones',
  'mask-from-ids-pad-eos': 'pad-eos-mask-by-id',
};

export function exerciseIndex() {
  const index = Object.values(indexModules)[0];
  return Array.isArray(index) ? index : [];
}

export async function loadExercise(id) {
  if (typeof id !== 'string' || !EXERCISE_ID.test(id)) return null;
  const load = exerciseModules[`../generated/content/${id}.json`];
  return load ? load() : null;
}
