// topics.js — what each topic means, one sentence per topic an exercise names
// (content/topics.yaml -> web/generated/content/topics.json), for the exercise list's filters.
//
//   topicDescriptions()   // { 'causal-shift': 'A causal LM’s logits at position t …', … }
//
// Its own module, not catalog.js: every page loads the catalog (links to exercises), while only
// the two pages with the list need the sentences (2.3 KiB gzip).

const topicModules = import.meta.glob('../generated/content/topics.json', { eager: true, import: 'default' });

export function topicDescriptions() {
  const topics = Object.values(topicModules)[0];
  return topics && typeof topics === 'object' ? topics : {};
}
