// topics.mjs — content/topics.yaml: the topics an exercise's tags may name, each with the one
// sentence the exercise list shows when a learner filters by it.
//
//   const { topics, problems } = readTopics('content/topics.yaml');
//   topics.get('causal-shift')   // "A causal LM's logits at position t are scored …"
//   closestTopic(topics, 'shift') // 'causal-shift' (for "did you mean")
//
// problems: [{ file, line, col, path, message }] like the exercise compiler's. A missing file is
// a problem too: without it no tag could be checked. Not here: checking the exercises' tags
// (compile-exercise.mjs does, with this map).

import { readFileSync } from 'node:fs';

import { parseYamlSource } from './yaml-source.mjs';

export const TOPIC_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MAX_DESCRIPTION = 200;

const TEXT = {
  unreadable: (message) => `cannot be read: ${message}`,
  notMap: 'must be a map of topic: "one sentence"',
  badName: (name) => `topic "${name}" must be lower-case words joined by hyphens, e.g. attention-mask`,
  badDescription: (name) => `topic "${name}" needs one sentence of plain text (a quoted string on one line)`,
  longDescription: (name, n) => `topic "${name}": ${n} characters, at most ${MAX_DESCRIPTION}`,
};

export function readTopics(path, shown = path) {
  const topics = new Map();
  const problems = [];
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { topics, problems: [{ file: shown, line: 1, col: 1, path: '(file)', message: TEXT.unreadable(error.message) }] };
  }
  const source = parseYamlSource(text, shown);
  const report = (path, message, at) => problems.push({ file: shown, line: at.line, col: at.col, path, message });
  for (const p of source.yamlProblems) report('yaml', p.message, p);
  if (source.yamlProblems.length) return { topics, problems };
  const data = source.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    report('(top level)', TEXT.notMap, { line: 1, col: 1 });
    return { topics, problems };
  }
  for (const [name, description] of Object.entries(data)) {
    if (!TOPIC_NAME.test(name)) report(name, TEXT.badName(name), source.whereKey([], name));
    else if (typeof description !== 'string' || description.trim() === '' || description.includes('\n')) report(name, TEXT.badDescription(name), source.where([name]));
    else if (description.length > MAX_DESCRIPTION) report(name, TEXT.longDescription(name, description.length), source.where([name]));
    else topics.set(name, description);
  }
  return { topics, problems };
}

// The known topic nearest to `tag` by edit distance, or one that contains it or is contained in
// it ("shift" -> "causal-shift"); null when nothing is close.
export function closestTopic(topics, tag) {
  let best = null;
  let bestDistance = Infinity;
  for (const name of topics.keys()) {
    const d = name.includes(tag) || tag.includes(name) ? 1 : editDistance(name, tag);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return bestDistance <= Math.max(2, Math.floor(tag.length / 3)) ? best : null;
}

function editDistance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}
