// yaml-source.mjs — one content file parsed with positions, so every problem can say
// "content/exercises/x.yaml:14:7".
//
//   const source = parseYamlSource(text, 'content/exercises/x.yaml');
//   source.data                          // plain JS value (null when the YAML is broken)
//   source.where(['errors', 1, 'text'])  // { line, col } of that value (or of its nearest parent)
//   source.whereKey(['errors', 1], 'reasn')  // { line, col } of a key, for "unknown field"
//   source.whereInValue(['detailed'], '$\\frac{a$')  // { line, col } of a snippet inside a value
//   source.yamlProblems                  // [{ line, col, message }] from the YAML parser
//
// Not here: what the data must look like (validate.mjs).

import { LineCounter, isMap, isPair, isScalar, parseDocument } from 'yaml';

export function parseYamlSource(text, file) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });

  const yamlProblems = doc.errors.map((error) => {
    const pos = error.pos ? lineCounter.linePos(error.pos[0]) : { line: 1, col: 1 };
    return { line: pos.line, col: pos.col, message: error.message.split('\n')[0] };
  });

  const position = (node) => {
    const offset = node?.range?.[0];
    return offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset);
  };

  // The deepest existing node on `path`: a missing field is reported at its parent.
  function nodeAt(path) {
    let node = doc.contents;
    for (const key of path) {
      const child = node && typeof node.get === 'function' ? node.get(key, true) : undefined;
      if (child === undefined || child === null) break;
      node = child;
    }
    return node;
  }

  return {
    file,
    data: yamlProblems.length ? null : doc.toJS({ maxAliasCount: 50 }),
    yamlProblems,
    where(path) {
      return position(nodeAt(path));
    },
    whereKey(path, key) {
      const parent = nodeAt(path);
      if (isMap(parent)) {
        const pair = parent.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key);
        if (pair) return position(pair.key);
      }
      return position(parent);
    },
    // Where `snippet` appears inside the value at `path` in the file's own text (its first line
    // is searched, so block scalars' indentation does not matter); the value's start otherwise.
    whereInValue(path, snippet) {
      const node = nodeAt(path);
      const firstLine = String(snippet ?? '').split('\n')[0].trim();
      const [from, , to] = node?.range ?? [0, 0, text.length];
      const at = firstLine ? text.indexOf(firstLine, from) : -1;
      return at !== -1 && at < to ? lineCounter.linePos(at) : position(node);
    },
  };
}

// ['errors', 1, 'text'] -> 'errors[1].text'
export function pathText(path) {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${key}` : key;
  return out || '(top level)';
}
