// draw.js — which exercises a practice session gets: filter the index, then a seeded shuffle.
//
//   drawExercises(index, { n: 3, tags: ['labels'], levels: [], seed: 'k3x9qa' })
//   -> { ids: ['double-shift', 'pad-eos-mask-by-id', 'mean-of-means'], matching: 7 }
//
// The same seed and filters give the same set on every machine and every visit: the seed string is
// hashed (FNV-1a, 32 bit, over its UTF-8 bytes) into the state of a mulberry32 generator, which
// drives a Fisher–Yates shuffle. Matching ids are sorted before the shuffle, so reordering the
// exercise list on the home page does not change what a seed draws.
// Filters: an exercise matches when it has ANY of the chosen tags and ANY of the chosen levels; an
// empty choice means "all". Pure: no DOM, no storage, no Math.random (seeds are made elsewhere).

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-8 bytes of `text`, as an unsigned 32-bit integer. */
export function hashSeed(text) {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of new TextEncoder().encode(String(text))) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash >>> 0;
}

/** mulberry32: a small, fast 32-bit generator. Returns () => a number in [0, 1). */
export function mulberry32(state) {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fisher–Yates (Durstenfeld) on a copy of `items`: for i from the end down to 1, swap item i with
 * item j = floor(random() · (i + 1)). `random` must return numbers in [0, 1).
 */
export function shuffle(items, random) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The index entries that pass the filters (empty list = no filter on that field), in index order. */
export function matchingExercises(index, { tags = [], levels = [] } = {}) {
  const wantedTags = new Set(tags);
  const wantedLevels = new Set(levels);
  return index.filter(
    (entry) =>
      (wantedLevels.size === 0 || wantedLevels.has(entry.level)) &&
      (wantedTags.size === 0 || (entry.tags ?? []).some((tag) => wantedTags.has(tag))),
  );
}

/**
 * The session's exercise ids: min(n, matching) of them, in the order they will be practised.
 * `matching` says how many passed the filters (0 = nothing to practise).
 */
export function drawExercises(index, { n, tags = [], levels = [], seed }) {
  const ids = matchingExercises(index, { tags, levels })
    .map((entry) => entry.id)
    .sort();
  const count = Math.max(0, Math.min(Math.floor(n), ids.length));
  return { ids: shuffle(ids, mulberry32(hashSeed(seed))).slice(0, count), matching: ids.length };
}
