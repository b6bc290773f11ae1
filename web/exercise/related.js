// related.js — the exercises closest to this one by topic, listed after Check so a learner can
// go on with the same idea. A topic on few exercises says more than one on many (`labels` is on
// over half of them), so each shared tag counts 1 / (the number of exercises that carry it).
//
//   relatedExercises(index, 'double-shift')  // -> [{ entry, shared: ['causal-shift', …] }, …]
//
// `index` is index.json's list (id, title, tags, …) in list order; ties keep that order.

export const RELATED_LIMIT = 3;

export function relatedExercises(index, id, limit = RELATED_LIMIT) {
  const self = index.find((e) => e.id === id);
  if (!self) return [];
  const carriers = new Map();
  for (const e of index) for (const tag of e.tags) carriers.set(tag, (carriers.get(tag) ?? 0) + 1);
  const mine = new Set(self.tags);
  return index
    .map((entry, order) => {
      const shared = entry.tags.filter((tag) => mine.has(tag)).sort((a, b) => carriers.get(a) - carriers.get(b));
      return { entry, shared, order, weight: shared.reduce((sum, tag) => sum + 1 / carriers.get(tag), 0) };
    })
    .filter((r) => r.entry.id !== id && r.shared.length > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .slice(0, limit)
    .map(({ entry, shared }) => ({ entry, shared }));
}
