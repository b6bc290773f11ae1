// passage.mjs — a passage split into clickable units, and which units belong to which error.
//
// A unit is a run of non-space characters; the whitespace after it (spaces, indentation, line
// breaks) is kept with it, so a code passage renders with its exact layout. A learner finds an
// error by marking any unit that overlaps the error's text (H5P "Mark the Words", but with
// phrases as answers, since a bug is rarely one word).
//
//   splitPassage('x = 1\n  y')  -> { lead: '', units: [{text:'x', ws:' ', start:0, end:1, line:1}, …] }
//   locateMarkedText(passage, units, 'x = 1') -> { ok: true, start: 0, end: 5, units: [0, 1, 2] }
//
// Not here: markdown, positions in the YAML file, the web page.

/** Splits at whitespace, keeping it. Trailing whitespace of the passage is dropped. */
export function splitPassage(passage) {
  const text = passage.replace(/\s+$/, '');
  const units = [];
  const pattern = /\S+/g;
  let match;
  let line = 1;
  let lastEnd = 0;
  while ((match = pattern.exec(text))) {
    line += countNewlines(text.slice(lastEnd, match.index));
    units.push({ text: match[0], ws: '', start: match.index, end: match.index + match[0].length, line });
    lastEnd = match.index + match[0].length;
  }
  for (let i = 0; i < units.length; i += 1) {
    units[i].ws = text.slice(units[i].end, i + 1 < units.length ? units[i + 1].start : text.length);
  }
  const lead = units.length ? text.slice(0, units[0].start) : text;
  return { text, lead, units, lineCount: text === '' ? 0 : countNewlines(text) + 1 };
}

function countNewlines(s) {
  let n = 0;
  for (const c of s) if (c === '\n') n += 1;
  return n;
}

/**
 * Where `needle` sits in the passage, and the units it overlaps.
 * Returns { ok: true, start, end, units } or { ok: false, count } (count = occurrences: 0 or >= 2).
 */
export function locateMarkedText(text, units, needle) {
  const starts = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) starts.push(at);
  if (starts.length !== 1) return { ok: false, count: starts.length };
  const start = starts[0];
  const end = start + needle.length;
  const covered = [];
  units.forEach((unit, i) => {
    if (unit.start < end && start < unit.end) covered.push(i);
  });
  return { ok: true, start, end, units: covered };
}
